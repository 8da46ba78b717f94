"""The deck data model: pieces, pool, collection, rules, pair scores, and their files.

A :class:`Pool` holds every piece kind of the game; a player's :class:`Collection` is the
set of piece ids owned; :class:`Rules` fix the deck size, cost cap, per-character limit,
attribute minimum, must-include pieces and leader; :class:`Scores` hold the relation
matrix ``R`` (and optionally leader-conditioned scores) over a list of piece ids.
:func:`to_problem` turns them into the array form :class:`~gameopt.deck.problem.DeckProblem`
that every builder takes.

File formats (every reader raises :class:`~gameopt.errors.InvalidInputError` with a
one-line message naming the file, line (or JSON index) and field):

* pool CSV: header ``id,name,character,attribute,cost,rarity``; pool JSON: a list of
  objects with those keys (or ``{"pieces": [...]}``).
* collection CSV: header ``id``, one owned id per line; collection JSON: a list of ids
  (or ``{"owned": [...]}``).
* scores NPZ: ``ids`` (int, k) and either a dense ``R`` (float, k×k) or sparse triplets
  ``rows``, ``cols``, ``vals`` (indices into ``ids``; each unordered pair once or both
  ways with equal values); optional dense ``leader`` (k×k, row = leader). Without
  ``ids`` the rows follow the pool's order. Scores CSV: header ``a,b,score`` with piece
  ids (triplets, symmetric).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.files import atomic_write_bytes, atomic_write_text
from gameopt.deck.problem import DeckProblem
from gameopt.errors import InvalidInputError

__all__ = [
    "PieceId", "ATTRIBUTES", "Piece", "Pool", "Collection", "Rules", "Scores", "to_problem",
    "read_pool", "write_pool", "read_collection", "write_collection",
    "read_scores", "write_scores",
]

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
    """

    size: int = 16
    cost_cap: int | None = None
    char_limit: int = 1
    attribute: str | None = None
    attribute_min: int = 0
    must: tuple[PieceId, ...] = ()
    leader: PieceId | None = None
    char_limits: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.size < 1:
            raise InvalidInputError(f"size: deck size {self.size} must be at least 1")
        if self.char_limit < 1:
            raise InvalidInputError(f"char_limit: {self.char_limit} must be at least 1")
        for ch, lim in self.char_limits.items():
            if lim < 1:
                raise InvalidInputError(f"char_limits: character {ch} has limit {lim}, "
                                        "must be at least 1")
        if self.attribute is not None and self.attribute not in ATTRIBUTES:
            raise InvalidInputError(f"attribute: {self.attribute!r} is not one of "
                                    f"{', '.join(ATTRIBUTES)}")
        if self.attribute_min < 0 or self.attribute_min > self.size:
            raise InvalidInputError(f"attribute_min: {self.attribute_min} outside 0..{self.size}")
        if self.attribute_min and self.attribute is None:
            raise InvalidInputError("attribute_min: given without an attribute")
        if len(set(self.must)) != len(self.must):
            raise InvalidInputError(f"must: repeated ids in {self.must}")

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


def _check_matrix(M: Any, k: int, name: str, *, symmetric: bool) -> npt.NDArray[np.float32]:
    A = np.asarray(M, dtype=np.float32)
    if A.shape != (k, k):
        raise InvalidInputError(f"{name}: matrix of shape {A.shape}, expected ({k}, {k})")
    bad = ~np.isfinite(A)
    if bad.any():
        i, j = map(int, np.argwhere(bad)[0])
        raise InvalidInputError(f"{name}: row {i}, column {j} is {A[i, j]}")
    if symmetric:
        asym = ~np.isclose(A, A.T, atol=1e-5)
        if asym.any():
            i, j = map(int, np.argwhere(asym)[0])
            raise InvalidInputError(f"{name}: not symmetric at row {i}, column {j} "
                                    f"({A[i, j]} vs {A[j, i]})")
        A = A.copy()
        np.fill_diagonal(A, 0.0)
    return np.ascontiguousarray(A)


# --------------------------------------------------------------------------- to_problem


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
    for pid in (*rules.must, *(() if rules.leader is None else (rules.leader,))):
        if pid not in pool:
            raise InvalidInputError(f"rules: unknown piece id {pid}")
    lead = None if rules.leader is None else pool[rules.leader]
    if lead is not None and lead.id not in owned:
        raise InvalidInputError(f"leader: piece {lead.id} is not in the collection")
    for pid in rules.must:
        if pid not in owned:
            raise InvalidInputError(f"must: piece {pid} is not in the collection")
    cands = [pool[pid] for pid in collection.owned
             if lead is None or (pid != lead.id and not (
                 rules.limit_of(lead.character) == 1
                 and pool[pid].character == lead.character))]
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
        names=tuple(p.name for p in cands))
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


# --------------------------------------------------------------------------- files


def _int(value: Any, where: str, fld: str) -> int:
    if isinstance(value, bool):
        raise InvalidInputError(f"{where}: {fld}: {value!r} is not an integer")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise InvalidInputError(f"{where}: {fld}: {value!r} is not an integer") from None


def _piece(rec: dict[str, Any], where: str) -> Piece:
    missing = [f for f in POOL_FIELDS if rec.get(f) in (None, "")]
    if missing:
        raise InvalidInputError(f"{where}: {missing[0]}: missing")
    cost = _int(rec["cost"], where, "cost")
    if cost < 0:
        raise InvalidInputError(f"{where}: cost: negative cost {cost}")
    attr = str(rec["attribute"]).strip().lower()
    if attr not in ATTRIBUTES:
        raise InvalidInputError(f"{where}: attribute: {rec['attribute']!r} is not one of "
                                f"{', '.join(ATTRIBUTES)}")
    return Piece(id=_int(rec["id"], where, "id"), name=str(rec["name"]).strip(),
                 character=_int(rec["character"], where, "character"), attribute=attr,
                 cost=cost, rarity=str(rec["rarity"]).strip())


def _build_pool(items: Iterable[tuple[str, dict[str, Any]]]) -> Pool:
    pieces: list[Piece] = []
    first: dict[int, str] = {}
    for where, rec in items:
        p = _piece(rec, where)
        if p.id in first:
            raise InvalidInputError(f"{where}: id: duplicate piece id {p.id} (first at "
                                    f"{first[p.id]})")
        first[p.id] = where
        pieces.append(p)
    return Pool(tuple(pieces))


def _csv_rows(path: Path, need: Sequence[str]) -> Iterable[tuple[str, dict[str, Any]]]:
    text = path.read_text(encoding="utf-8")
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    reader.fieldnames = header
    for f in need:
        if f not in header:
            raise InvalidInputError(f"{path}:1: {f}: column missing from header {header}")
    for rec in reader:
        if not any((v or "").strip() for v in rec.values() if isinstance(v, str)):
            continue
        yield f"{path}:{reader.line_num}", rec


def _load_json(path: Path, key: str) -> list[Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"{path}:{e.lineno}: not JSON ({e.msg})") from None
    if isinstance(data, dict):
        data = data.get(key)
    if not isinstance(data, list):
        raise InvalidInputError(f"{path}: {key}: expected a list")
    return data


def read_pool(path: str | Path) -> Pool:
    """Read a pool from CSV or JSON (by suffix). See the module docstring for the format."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        items = []
        for i, rec in enumerate(_load_json(p, "pieces")):
            if not isinstance(rec, dict):
                raise InvalidInputError(f"{p}: pieces[{i}]: expected an object")
            items.append((f"{p}: pieces[{i}]", rec))
        return _build_pool(items)
    return _build_pool(_csv_rows(p, POOL_FIELDS))


def write_pool(pool: Pool, path: str | Path) -> None:
    """Write a pool as CSV or JSON (by suffix), atomically."""
    p = Path(path)
    recs = [{f: getattr(pc, f) for f in POOL_FIELDS} for pc in pool.pieces]
    if p.suffix.lower() == ".json":
        atomic_write_text(p, json.dumps({"pieces": recs}, indent=1) + "\n")
        return
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=POOL_FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(recs)
    atomic_write_text(p, buf.getvalue())


def read_collection(path: str | Path, pool: Pool | None = None) -> Collection:
    """Read owned ids from CSV (column ``id``) or JSON; check them against ``pool``."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        items = [(f"{p}: owned[{i}]", v) for i, v in enumerate(_load_json(p, "owned"))]
    else:
        items = [(w, rec["id"]) for w, rec in _csv_rows(p, ("id",))]
    owned: list[int] = []
    first: dict[int, str] = {}
    for where, v in items:
        pid = _int(v, where, "id")
        if pool is not None and pid not in pool:
            raise InvalidInputError(f"{where}: id: unknown piece id {pid}")
        if pid in first:
            raise InvalidInputError(f"{where}: id: duplicate piece id {pid} (first at "
                                    f"{first[pid]})")
        first[pid] = where
        owned.append(pid)
    return Collection(tuple(owned))


def write_collection(collection: Collection, path: str | Path) -> None:
    """Write owned ids as CSV or JSON (by suffix), atomically."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        atomic_write_text(p, json.dumps({"owned": list(collection.owned)}) + "\n")
    else:
        atomic_write_text(p, "id\n" + "".join(f"{pid}\n" for pid in collection.owned))


def read_scores(path: str | Path, pool: Pool | None = None) -> Scores:
    """Read scores from NPZ (dense or triplets) or CSV triplets (by suffix).

    Ids are checked against ``pool`` when given; an NPZ without ``ids`` needs the pool
    (rows in pool order).
    """
    p = Path(path)
    if p.suffix.lower() == ".npz":
        return _read_scores_npz(p, pool)
    return _read_scores_csv(p, pool)


def _read_scores_npz(p: Path, pool: Pool | None) -> Scores:
    try:
        z = dict(np.load(p, allow_pickle=False))
    except (OSError, ValueError) as e:
        raise InvalidInputError(f"{p}: not an NPZ file ({e})") from None
    if "ids" in z:
        ids = tuple(int(v) for v in np.asarray(z["ids"]).ravel())
    elif pool is not None:
        ids = pool.ids
    else:
        raise InvalidInputError(f"{p}: ids: missing (and no pool to take the order from)")
    if pool is not None:
        for i, pid in enumerate(ids):
            if pid not in pool:
                raise InvalidInputError(f"{p}: ids: row {i} is unknown piece id {pid}")
    k = len(ids)
    if "R" in z:
        R = np.asarray(z["R"])
        if R.shape != (k, k):
            raise InvalidInputError(f"{p}: R: matrix of shape {R.shape}, expected ({k}, {k})")
    elif {"rows", "cols", "vals"} <= z.keys():
        R = _from_triplets(z["rows"], z["cols"], z["vals"], k, str(p))
    else:
        raise InvalidInputError(f"{p}: R: neither a dense R nor rows/cols/vals triplets")
    try:
        return Scores(ids, R, z.get("leader"))
    except InvalidInputError as e:
        raise InvalidInputError(f"{p}: {e}") from None


def _from_triplets(rows: Any, cols: Any, vals: Any, k: int, where: str
                   ) -> npt.NDArray[np.float32]:
    r = np.asarray(rows, dtype=np.int64).ravel()
    c = np.asarray(cols, dtype=np.int64).ravel()
    v = np.asarray(vals, dtype=np.float64).ravel()
    if not len(r) == len(c) == len(v):
        raise InvalidInputError(f"{where}: rows: {len(r)} rows, {len(c)} cols, {len(v)} vals")
    out = (r < 0) | (r >= k) | (c < 0) | (c >= k)
    if out.any():
        t = int(np.argmax(out))
        raise InvalidInputError(f"{where}: rows: triplet {t} ({r[t]}, {c[t]}) outside 0..{k - 1}")
    if not np.isfinite(v).all():
        t = int(np.argmax(~np.isfinite(v)))
        raise InvalidInputError(f"{where}: vals: triplet {t} is {v[t]}")
    R = np.full((k, k), np.nan, dtype=np.float64)
    R[r, c] = v
    Rt = np.where(np.isnan(R), R.T, R)
    clash = ~np.isnan(R) & ~np.isnan(R.T) & ~np.isclose(R, R.T, atol=1e-5)
    if clash.any():
        i, j = map(int, np.argwhere(clash)[0])
        raise InvalidInputError(f"{where}: vals: not symmetric at row {i}, column {j} "
                                f"({R[i, j]} vs {R[j, i]})")
    return np.nan_to_num(Rt, nan=0.0).astype(np.float32)


def _read_scores_csv(p: Path, pool: Pool | None) -> Scores:
    seen: dict[tuple[int, int], tuple[float, str]] = {}
    for where, rec in _csv_rows(p, ("a", "b", "score")):
        a, b = _int(rec["a"], where, "a"), _int(rec["b"], where, "b")
        for fld, pid in (("a", a), ("b", b)):
            if pool is not None and pid not in pool:
                raise InvalidInputError(f"{where}: {fld}: unknown piece id {pid}")
        try:
            s = float(rec["score"])
        except (TypeError, ValueError):
            raise InvalidInputError(f"{where}: score: {rec['score']!r} is not a number") from None
        if not math.isfinite(s):
            raise InvalidInputError(f"{where}: score: {rec['score']!r} is not finite")
        if a == b:
            raise InvalidInputError(f"{where}: b: a piece paired with itself ({a})")
        key = (min(a, b), max(a, b))
        if key in seen and not math.isclose(seen[key][0], s, abs_tol=1e-5):
            raise InvalidInputError(f"{where}: score: {s} for ({a}, {b}) but "
                                    f"{seen[key][0]} at {seen[key][1]} (not symmetric)")
        seen[key] = (s, where)
    ids = pool.ids if pool is not None else tuple(sorted({x for k in seen for x in k}))
    pos = {pid: i for i, pid in enumerate(ids)}
    R = np.zeros((len(ids), len(ids)), dtype=np.float32)
    for (a, b), (s, _) in seen.items():
        R[pos[a], pos[b]] = R[pos[b], pos[a]] = s
    return Scores(ids, R)


def write_scores(scores: Scores, path: str | Path, *, sparse: bool = False) -> None:
    """Write scores as NPZ (dense, or triplets with ``sparse``) or CSV triplets, atomically.

    The CSV form holds each nonzero unordered pair once and drops ``leader``.
    """
    p = Path(path)
    if p.suffix.lower() == ".npz":
        arrays: dict[str, Any] = {"ids": np.asarray(scores.ids, dtype=np.int64)}
        if sparse:
            r, c = np.nonzero(np.triu(scores.R))
            arrays.update(rows=r, cols=c, vals=scores.R[r, c])
        else:
            arrays["R"] = scores.R
        if scores.leader is not None:
            arrays["leader"] = scores.leader
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)
        atomic_write_bytes(p, buf.getvalue())
        return
    r, c = np.nonzero(np.triu(scores.R))
    lines = ["a,b,score"] + [f"{scores.ids[i]},{scores.ids[j]},{float(scores.R[i, j])!r}"
                             for i, j in zip(r.tolist(), c.tolist(), strict=True)]
    atomic_write_text(p, "\n".join(lines) + "\n")
