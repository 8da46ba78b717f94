"""Every name the web front end takes from the pairing system, imported in one place.

The pages call only these: the :class:`Tournament` store's public methods, the round
pairer, the penalty parameters and the file formats. When the pairing package's layout
changes (its modules split, its public names settle in ``gameopt.pairing``), only this
module's imports change.
"""

from __future__ import annotations

from gameopt.pairing import (
    BYE,
    GameRecord,
    Pairing,
    PairingWarning,
    PenaltyParams,
    PlayerRecord,
    Standing,
    Table,
    Tournament,
    TournamentData,
    pair_round,
)
from gameopt.pairing.formats import (
    format_elo,
    format_pairing_csv,
    format_standings_csv,
    format_trf,
    parse_elo,
    parse_trf,
)
from gameopt.pairing.tune import params_toml

# The web pages' names for the two CSV writers.
pairing_csv = format_pairing_csv
standings_csv = format_standings_csv

__all__ = [
    "BYE",
    "GameRecord",
    "Pairing",
    "PairingWarning",
    "PenaltyParams",
    "PlayerRecord",
    "Standing",
    "Table",
    "Tournament",
    "TournamentData",
    "format_elo",
    "format_trf",
    "pair_round",
    "pairing_csv",
    "params_toml",
    "parse_elo",
    "parse_trf",
    "standings_csv",
]

#: The pairing methods a director may choose (``pair_round``'s ``method``).
METHODS = ("exact", "slim", "naive")
#: Tie-breaks shown in the standings, in order (all three of the store's).
TIEBREAKS = ("brightwell", "discs", "buchholz")
