"""Every name the web front end takes from the pairing system, imported in one place.

The pages call only these: the :class:`Tournament` store's public methods, the round
pairer, the penalty parameters and the file formats. When the pairing package's layout
changes (its modules split, its public names settle in ``gameopt.pairing``), only this
module's imports change.
"""

from __future__ import annotations

from gameopt.pairing.exports import (
    format_elo,
    format_trf,
    pairing_csv,
    parse_elo,
    parse_trf,
    standings_csv,
)
from gameopt.pairing.matching import pair_round
from gameopt.pairing.model import BYE, Pairing, Table
from gameopt.pairing.penalties import PenaltyParams
from gameopt.pairing.standings import GameRecord, PairingWarning, PlayerRecord, Standing
from gameopt.pairing.store import Tournament, TournamentData

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
    "parse_elo",
    "parse_trf",
    "standings_csv",
]

#: The pairing methods a director may choose (``pair_round``'s ``method``).
METHODS = ("exact", "slim", "naive")
#: Tie-breaks shown in the standings, in order (all three of the store's).
TIEBREAKS = ("brightwell", "discs", "buchholz")
