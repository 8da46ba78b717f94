"""The deck data model: pieces, pool, collection, rules, pair scores, and their files.

A :class:`Pool` holds every piece kind of the game; a player's :class:`Collection` is the
set of piece ids owned; :class:`Rules` fix the deck size, cost cap, per-character limit,
attribute minimum, must-include pieces, leader and forbidden pairs; :class:`Scores` hold the
relation matrix ``R`` (and optionally leader-conditioned scores) over a list of piece ids.
:func:`to_problem` turns them into the array form :class:`~gameopt.deck.problem.DeckProblem`
that every builder takes.

Their files are read and written by :mod:`gameopt.deck.formats`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.deck.problem import DeckProblem, check_scores
from gameopt.errors import InvalidInputError

__all__ = ["PieceId", "ATTRIBUTES", "POOL_FIELDS", "Piece", "Pool", "Collection", "Rules",
           "Scores", "check_rule_pieces", "to_problem"]

PieceId = int
ATTRIBUTES = ("god", "demon", "dragon")
POOL_FIELDS = ("id", "name", "character", "attribute", "cost", "rarity")


@dataclass(frozen=True)
class Piece:
    """One piece kind. Evolved forms of one character share ``character``."""

    id: PieceId
    name: str
    character: int
    attribute: str
    cost: int
    rarity: str

    def __post_init__(self) -> None:
        if self.attribute not in ATTRIBUTES:
            raise InvalidInputError(f"attribute: {self.attribute!r} of piece {self.id} is "
                                    f"not one of {', '.join(ATTRIBUTES)}")
        if self.cost < 0:
            raise InvalidInputError(f"cost: piece {self.id} has negative cost {self.cost}")


@dataclass(frozen=True, eq=False)
class Pool:
    """Every piece kind, in file order, with unique ids."""

    pieces: tuple[Piece, ...]
    index: dict[PieceId, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[PieceId, int] = {}
        for i, p in enumerate(self.pieces):
            if p.id in index:
                raise InvalidInputError(f"id: duplicate piece id {p.id} (pieces {index[p.id]} "
                                        f"and {i})")
            index[p.id] = i
        object.__setattr__(self, "index", index)

    def __len__(self) -> int:
        return len(self.pieces)

    def __contains__(self, pid: object) -> bool:
        return pid in self.index

    def __getitem__(self, pid: PieceId) -> Piece:
        return self.pieces[self.index[pid]]

    @property
    def ids(self) -> tuple[PieceId, ...]:
        return tuple(p.id for p in self.pieces)


@dataclass(frozen=True)
class Collection:
    """The piece ids a player owns (each kind once: a deck holds distinct pieces)."""

    owned: tuple[PieceId, ...]

    def __post_init__(self) -> None:
        seen: set[PieceId] = set()
        for pid in self.owned:
            if pid in seen:
                raise InvalidInputError(f"id: piece {pid} appears twice in the collection")
            seen.add(pid)

    def __len__(self) -> int:
        return len(self.owned)

    def __contains__(self, pid: object) -> bool:
        return pid in set(self.owned)

    def check(self, pool: Pool) -> None:
        """Raise :class:`InvalidInputError` for an owned id the pool does not know."""
        for k, pid in enumerate(self.owned):
            if pid not in pool:
                raise InvalidInputError(f"id: collection entry {k} is unknown piece id {pid}")


@dataclass(frozen=True)
class Rules:
    """Deck rules. ``size`` counts the leader (16 = leader + 15 others).

    ``cost_cap`` bounds the total cost including the leader; ``char_limit`` is the most
    pieces of one character (evolved forms count as one character, leader included),
    ``char_limits`` overrides it per character id (``L_i``); ``attribute`` with
    ``attribute_min``: at least that many pieces (leader included) of that attribute.
    A character limit above ``size`` cannot bind and is stored as ``size``.
    ``forbid``: pairs of piece ids that may not be in one deck (a hard rule; with the
    leader, the other piece is left out).
    """

    size: int = 16
    cost_cap: int | None = None
    char_limit: int = 1
    attribute: str | None = None
    attribute_min: int = 0
    must: tuple[PieceId, ...] = ()
    leader: PieceId | None = None
    char_limits: dict[int, int] = field(default_factory=dict)
    forbid: tuple[tuple[PieceId, PieceId], ...] = ()

    def __post_init__(self) -> None:
        if self.size < 1:
            raise InvalidInputError(f"size: deck size {self.size} must be at least 1")
        if self.cost_cap is not None and self.cost_cap < 0:
            raise InvalidInputError(f"cost_cap: {self.cost_cap} must be at least 0")
        if self.char_limit < 1:
            raise InvalidInputError(f"char_limit: {self.char_limit} must be at least 1")
        for ch, lim in self.char_limits.items():
            if lim < 1:
                raise InvalidInputError(f"char_limits: character {ch} has limit {lim}, "
                                        "must be at least 1")
        # a limit above the deck size cannot bind; stored as the size, so that the int32
        # arrays of the problem never see 42949672961 (it overflowed, or wrapped to 1)
        object.__setattr__(self, "char_limit", min(self.char_limit, self.size))
        object.__setattr__(self, "char_limits", {ch: min(lim, self.size)
                                                 for ch, lim in self.char_limits.items()})
        if self.attribute is not None and self.attribute not in ATTRIBUTES:
            raise InvalidInputError(f"attribute: {self.attribute!r} is not one of "
                                    f"{', '.join(ATTRIBUTES)}")
        if self.attribute_min < 0 or self.attribute_min > self.size:
            raise InvalidInputError(f"attribute_min: {self.attribute_min} outside 0..{self.size}")
        if self.attribute_min and self.attribute is None:
            raise InvalidInputError("attribute_min: given without an attribute")
        if len(set(self.must)) != len(self.must):
            raise InvalidInputError(f"must: repeated ids in {self.must}")
        for a, b in self.forbid:
            if a == b:
                raise InvalidInputError(f"forbid: piece {a} paired with itself")
            if a in self.must and b in self.must:
                raise InvalidInputError(f"forbid: must-include pieces {a} and {b} are a "
                                        "forbidden pair")

    def limit_of(self, character: int) -> int:
        """The most pieces of ``character`` in a deck (leader included)."""
        return self.char_limits.get(character, self.char_limit)


@dataclass(frozen=True, eq=False)
class Scores:
    """Pair scores over piece ids.

    Attributes
    ----------
    ids : tuple of int, length k
        The piece id of each row/column.
    R : ndarray of float32, shape (k, k)
        Symmetric pair scores, zero diagonal.
    leader : ndarray of float32, shape (k, k), optional
        ``leader[l, j]``: score of piece ``j`` in a deck led by piece ``l``.
    """

    ids: tuple[PieceId, ...]
    R: npt.NDArray[np.float32]
    leader: npt.NDArray[np.float32] | None = None
    index: dict[PieceId, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        k = len(self.ids)
        index = {pid: i for i, pid in enumerate(self.ids)}
        if len(index) != k:
            dup = next(p for p in self.ids if self.ids.count(p) > 1)
            raise InvalidInputError(f"ids: duplicate piece id {dup} in scores")
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "R", _check_matrix(self.R, k, "R", symmetric=True))
        if self.leader is not None:
            object.__setattr__(self, "leader",
                               _check_matrix(self.leader, k, "leader", symmetric=False))


#: Side of the tiles the symmetry check compares with their mirror images.
SYM_TILE = 512


def _check_matrix(M: Any, k: int, name: str, *, symmetric: bool) -> npt.NDArray[np.float32]:
    A = check_scores(M, name, (k, k))  # a new float32 array
    if symmetric:
        b = SYM_TILE  # tiles against their mirror tiles: bounded, cache-friendly
        for r in range(0, k, b):
            for c in range(r, k, b):
                asym = ~np.isclose(A[r:r + b, c:c + b], A[c:c + b, r:r + b].T, atol=1e-5)
                if asym.any():
                    i, j = (int(t) for t in np.argwhere(asym)[0])
                    i, j = i + r, j + c
                    raise InvalidInputError(f"{name}: not symmetric at row {i}, column "
                                            f"{j} ({A[i, j]} vs {A[j, i]})")
        np.fill_diagonal(A, 0.0)
    return A


# --------------------------------------------------------------------------- to_problem


def check_rule_pieces(rules: Rules, known: Callable[[PieceId], bool],
                      owned: Callable[[PieceId], bool]) -> set[PieceId]:
    """Check the pieces ``rules`` name against a pool (``known``) and a collection
    (``owned``); return the pieces forbidden with the leader (none may be must-include).

    Raises
    ------
    InvalidInputError
        An unknown id, a leader or must-include piece not owned, a must-include piece
        forbidden with the leader.
    """
    for pid in (*rules.must, *(() if rules.leader is None else (rules.leader,)),
                *(x for pair in rules.forbid for x in pair)):
        if not known(pid):
            raise InvalidInputError(f"rules: unknown piece id {pid}")
    if rules.leader is not None and not owned(rules.leader):
        raise InvalidInputError(f"leader: piece {rules.leader} is not in the collection")
    for pid in rules.must:
        if not owned(pid):
            raise InvalidInputError(f"must: piece {pid} is not in the collection")
    shunned = {b if a == rules.leader else a for a, b in rules.forbid
               if rules.leader in (a, b)}
    for pid in rules.must:
        if pid in shunned:
            raise InvalidInputError(f"forbid: must-include piece {pid} is forbidden with the "
                                    f"leader {rules.leader}")
    return shunned


def to_problem(pool: Pool, collection: Collection, rules: Rules,
               scores: Scores | None = None) -> tuple[DeckProblem, tuple[PieceId, ...]]:
    """Restrict to the owned pieces and build the array problem.

    Parameters
    ----------
    pool, collection, rules
        The game data; ``collection`` is checked against ``pool``.
    scores : Scores, optional
        Pair scores; pieces without a row score 0. ``None``: all zero.

    Returns
    -------
    problem : DeckProblem
        Over the owned pieces (minus the leader, whose cost, character and attribute
        are taken off the cap, excluded and counted). ``size`` is ``rules.size - 1``
        with a leader. ``leader_scores`` come from ``scores.leader`` when given, else
        from the leader's row of ``R``.
    ids : tuple of int
        The piece id of each problem index.

    Raises
    ------
    InvalidInputError
        Unknown ids, a leader or must-include piece not owned, a leader that alone breaks
        the cost cap.

    Notes
    -----
    O(n²) for the score submatrix, n = owned pieces. The leader uses one place of its
    character's limit: pieces of that character are dropped when the limit is 1, and
    the problem's limit for it is one less otherwise.
    """
    collection.check(pool)
    owned = set(collection.owned)
    shunned = check_rule_pieces(rules, pool.__contains__, owned.__contains__)
    lead = None if rules.leader is None else pool[rules.leader]
    cands = [pool[pid] for pid in collection.owned
             if pid not in shunned and (lead is None or (pid != lead.id and not (
                 rules.limit_of(lead.character) == 1
                 and pool[pid].character == lead.character)))]
    ids = tuple(p.id for p in cands)
    pos = {pid: i for i, pid in enumerate(ids)}
    chars = {c: i for i, c in enumerate(dict.fromkeys(p.character for p in cands))}
    limits = np.array([rules.limit_of(c) - (lead is not None and c == lead.character)
                       for c in chars], dtype=np.int32)
    cost_cap = rules.cost_cap
    attr_min = rules.attribute_min
    if lead is not None:
        if cost_cap is not None:
            cost_cap -= lead.cost
            if cost_cap < 0:
                raise InvalidInputError(f"leader: piece {lead.id} costs {lead.cost}, over the "
                                        f"cost cap {rules.cost_cap}")
        attr_min = max(0, attr_min - int(lead.attribute == rules.attribute))
    must = []
    for pid in rules.must:
        if lead is not None and pid == lead.id:
            continue
        if pid not in pos:
            raise InvalidInputError(f"must: piece {pid} shares the leader's character")
        must.append(pos[pid])
    R, lscores = _restrict_scores(scores, ids, None if lead is None else lead.id)
    problem = DeckProblem(
        R=R, size=rules.size - (lead is not None),
        cost=np.array([p.cost for p in cands], dtype=np.int32), cost_cap=cost_cap,
        character=np.array([chars[p.character] for p in cands], dtype=np.int32),
        char_limit=limits if len(limits) else rules.char_limit,
        attribute=(np.array([p.attribute == rules.attribute for p in cands], dtype=np.int8)
                   if rules.attribute is not None else None),
        attribute_min=attr_min, must=tuple(must), leader_scores=lscores,
        names=tuple(p.name for p in cands),
        forbidden_pairs=tuple((pos[a], pos[b]) for a, b in rules.forbid
                              if a in pos and b in pos))
    return problem, ids


def _restrict_scores(scores: Scores | None, ids: Sequence[PieceId], leader: PieceId | None
                     ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
    n = len(ids)
    R = np.zeros((n, n), dtype=np.float32)
    ls = None if leader is None else np.zeros(n, dtype=np.float32)
    if scores is None:
        return R, ls
    dst = np.array([i for i, pid in enumerate(ids) if pid in scores.index], dtype=np.int64)
    src = np.array([scores.index[ids[i]] for i in dst], dtype=np.int64)
    R[np.ix_(dst, dst)] = scores.R[np.ix_(src, src)]
    if ls is not None and leader in scores.index:
        table = scores.leader if scores.leader is not None else scores.R
        ls[dst] = table[scores.index[leader], src]
    return R, ls
