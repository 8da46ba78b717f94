"""Value types shared by the pairing engine, the tournament store and the front ends.

The engine never sees the store: the store (or a simulation) builds one :class:`RoundInput`
per round — every active player's record so far — and the engine answers with a
:class:`Pairing`. Scores are in half points, as in Nakajima's "Pairing Algorithm" (2002):
``S = 2·wins + draws`` (a bye counts as a win).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["BYE", "METHODS", "PROVEN_METHODS", "Colour", "Pairing", "PlayerState", "RoundInput",
           "Table"]

#: Id of the dummy player an odd field gets; its opponent wins by default.
BYE = "BYE"
#: The methods of :func:`~gameopt.pairing.pairer.pair_round`: the exact blossom, the
#: networkx and enumeration references, SLIM's heuristic, the naive top-down rule, and
#: rustworkx's blossom after reduced-cost pruning (the previous exact path, a reference).
METHODS = ("exact", "networkx", "slim", "naive", "brute", "rustworkx")
#: The methods whose pairing is proven to have the least total penalty.
PROVEN_METHODS = ("exact", "networkx", "brute", "rustworkx")


class Colour(StrEnum):
    """Colour a player had in a game (``BYE_`` for a round without a game)."""

    BLACK = "B"
    WHITE = "W"
    BYE_ = "-"


@dataclass(frozen=True)
class PlayerState:
    """A player's record before the round to pair.

    Attributes
    ----------
    id : str
        Unique id (the WOF id or the tournament's own).
    name : str
    country : str or None
        For the same-country penalty (``None``: unknown, never penalised).
    rating : float or None
    score : int
        2·wins + draws (a bye = 2).
    colours : tuple of Colour
        Colour in each round played so far, in order (``Colour.BYE_`` for a bye or an
        absence).
    opponents : tuple of str or None
        Opponent in each round, aligned with ``colours`` (``None`` for a bye/absence).
    scores_before : tuple of int
        The player's score before each of those rounds (to tell up and down floats).
    opponent_scores_before : tuple of int or None
        The opponent's score before each of those rounds (``None`` for a bye/absence).
    rank : int
        1-based rank in the current standings (score, then tie-breaks): used by SLIM's
        rank terms and for the order of greedy pairing.
    byes : int
        Byes received so far.
    """

    id: str
    name: str
    country: str | None = None
    rating: float | None = None
    score: int = 0
    colours: tuple[Colour, ...] = ()
    opponents: tuple[str | None, ...] = ()
    scores_before: tuple[int, ...] = ()
    opponent_scores_before: tuple[int | None, ...] = ()
    rank: int = 1
    byes: int = 0


@dataclass(frozen=True)
class RoundInput:
    """Everything the engine needs to pair one round.

    Attributes
    ----------
    round_no : int
        1-based number of the round to pair.
    players : tuple of PlayerState
        The active players (withdrawn ones left out), in rank order.
    forbidden : frozenset of frozenset of str
        Pairs that must not meet this round.
    """

    round_no: int
    players: tuple[PlayerState, ...]
    forbidden: frozenset[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class Table:
    """One game of the round: ``white`` is :data:`BYE` for the bye.

    ``cost`` is the pair's penalty with this colour assignment (the cheaper of the two);
    ``terms`` names what it is made of (``"colour"``, ``"undulation"``, ``"repetition"``,
    ``"chauvinism"``, ``"elitism"``, ``"rank"``...), for "why this pairing".
    """

    number: int
    black: str
    white: str
    cost: int
    terms: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Pairing:
    """A round's pairing: its tables, the total penalty and the method that chose it.

    The run that made it is described as every search result is (the fields of
    :class:`gameopt.core.Outcome`); two pairings are equal when their round, tables,
    total and method are, whatever the run.

    Attributes
    ----------
    round_no : int
    tables : tuple of Table
    total_cost : int
        The sum of the tables' costs.
    method : str
        ``pair_round``'s method, or ``"manual"``.
    seconds : float
        Time the pairing took on ``clock`` (0 for a pairing read back or made by hand).
    clock : str
        ``"cpu"`` or ``"wall"``.
    proven : bool
        The pairing is proven best (an exact method): the least total of the terms
        other than colour, then the fewest colour-tier breaks, then the least colour
        cost (:func:`~gameopt.pairing.pairer.pair_round`, Notes).
    bound : float or None
        A proven lower bound on the total penalty of any pairing: when proven, the
        least total of the terms other than colour (this pairing's).
    stats : dict
        Method-specific figures (see :func:`~gameopt.pairing.pairer.pair_round`).
    """

    round_no: int
    tables: tuple[Table, ...]
    total_cost: int
    method: str
    seconds: float = field(default=0.0, compare=False)
    clock: str = field(default="cpu", compare=False)
    proven: bool = field(default=False, compare=False)
    bound: float | None = field(default=None, compare=False)
    stats: dict[str, Any] = field(default_factory=dict, compare=False)
