"""Swiss pairing for Othello tournaments: PAPP penalties minimised exactly by weighted
perfect matching, tournament state in SQLite, results, standings and tie-breaks.

Entry points
------------
:func:`pair_round`
    One round's pairing by a method of :data:`METHODS` (the exact blossom by default).
:class:`PenaltyParams`
    The penalties: ``PenaltyParams()`` / ``.tuned()`` (the defaults: PAPP's terms with
    the Dutch-like halves term, tuned by simulation), ``.papp()`` (PAPP's terms alone, the
    defaults before), ``.slim()`` (SLIM's), ``.from_toml(path)`` (a file of overrides).
    A :class:`Tournament` stores the weights it pairs with (``Tournament.penalties``).
:class:`Tournament`
    A tournament in one SQLite file: players, rounds, results, manual changes.
:func:`compute_standings`
    Standings with the Othello tie-breaks over plain records.
:func:`read_tournament_file`, :func:`write_tournament_file`, :func:`import_tournament`
    WOF ``.ELO`` and FIDE TRF-16 files (:mod:`~gameopt.pairing.trf`); every other format
    is in :mod:`~gameopt.pairing.formats`. :mod:`~gameopt.pairing.check` audits a round.
:func:`simulate_rules`
    Random events played out under several pairing rules, to compare them;
    :mod:`~gameopt.pairing.tune` searches the penalty weights for Kendall τ on them.

:func:`pair_round` loads numba kernels, so it is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gameopt.pairing import formats
from gameopt.pairing.formats import import_tournament, read_tournament_file, write_tournament_file
from gameopt.pairing.model import (
    BYE,
    METHODS,
    PROVEN_METHODS,
    Colour,
    Pairing,
    PlayerState,
    RoundInput,
    Table,
)
from gameopt.pairing.penalties import PAPP_TERMS, SLIM_TERMS, PenaltyParams
from gameopt.pairing.records import GameRecord, PairingWarning, PlayerRecord
from gameopt.pairing.simulate import SimConfig, simulate_rules
from gameopt.pairing.standings import DEFAULT_TIEBREAKS, TIEBREAKS, Standing, compute_standings
from gameopt.pairing.store import Tournament, TournamentData

if TYPE_CHECKING:
    from gameopt.pairing.pairer import pair_round

__all__ = [
    "BYE",
    "DEFAULT_TIEBREAKS",
    "METHODS",
    "PAPP_TERMS",
    "PROVEN_METHODS",
    "SLIM_TERMS",
    "TIEBREAKS",
    "Colour",
    "GameRecord",
    "Pairing",
    "PairingWarning",
    "PenaltyParams",
    "PlayerRecord",
    "PlayerState",
    "RoundInput",
    "SimConfig",
    "Standing",
    "Table",
    "Tournament",
    "TournamentData",
    "compute_standings",
    "formats",
    "import_tournament",
    "pair_round",
    "read_tournament_file",
    "simulate_rules",
    "write_tournament_file",
]


def __getattr__(name: str) -> Any:
    """``pair_round`` on first use (its numba kernels take a moment to load)."""
    if name == "pair_round":
        from gameopt.pairing.pairer import pair_round

        return pair_round
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
