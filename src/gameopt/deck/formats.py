"""Deck files: pool, collection, pair scores, deck corpora and MDPLIB instances.

Every reader goes through :func:`gameopt.core.read_text` / :func:`~gameopt.core.read_bytes`
(one wording for a missing or unreadable file) and raises
:class:`~gameopt.errors.InvalidInputError` with a one-line message naming the file, line
(or JSON index) and field; every writer takes the path first and writes atomically.

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
* decks: one deck per line, comma-separated piece ids (leader first); ``#`` comments.
* MDPLIB (Martí, Gallego, Duarte): first line ``n m``, then one line ``i j d_ij`` per
  unordered pair, 0-based (``.txt`` or ``.txt.gz``).

References
----------
R. Martí, M. Gallego, A. Duarte, "A branch and bound algorithm for the maximum diversity
problem", EJOR 200(1), 2010 (MDPLIB).
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import math
import re
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.files import (
    MAX_FILE_BYTES,
    atomic_write_bytes,
    atomic_write_text,
    read_bytes,
    read_npz,
    read_text,
)
from gameopt.deck.pool import ATTRIBUTES, POOL_FIELDS, Collection, Piece, Pool, Scores
from gameopt.deck.problem import MAX_SCORE, DeckProblem
from gameopt.errors import InvalidInputError

__all__ = ["read_pool", "write_pool", "read_collection", "write_collection", "read_scores",
           "write_scores", "read_decks", "write_decks", "read_mdp", "load_data"]



#: Most pieces of a score matrix read from CSV: 4 bytes x pieces^2 <= MAX_FILE_BYTES.
MAX_SCORE_PIECES = math.isqrt(MAX_FILE_BYTES // 4)

#: A whole number as files write it: ASCII digits, an optional minus, at most 18 digits
#: (so it fits int64; Unicode digits such as ``١`` or ``２`` and ``1_000`` are refused).
_INT = re.compile(r"\s*-?[0-9]{1,18}\s*", re.ASCII)  # ASCII spaces: int() refuses '\x1d'
#: A decimal number in ASCII (``float`` alone also takes ``١.٥``, ``1_0`` and ``nan``).
_FLOAT = re.compile(r"\s*[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]{1,4})?|nan|inf|infinity)"
                    r"\s*", re.IGNORECASE | re.ASCII)


def _int(value: Any, where: str, fld: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10 ** 18:
        return value
    if isinstance(value, str) and _INT.fullmatch(value):
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]+\s*", value, re.ASCII):
        raise InvalidInputError(f"{where}: {fld}: {value.strip()[:20]}... ({len(value.strip())}"
                                " digits) is out of range")
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:36] + "..."
    raise InvalidInputError(f"{where}: {fld}: {shown} is not an integer (ASCII digits, at "
                            "most 18)")


def _float(value: Any, where: str, fld: str) -> float:
    if not isinstance(value, str) or not _FLOAT.fullmatch(value):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:36] + "..."
        raise InvalidInputError(f"{where}: {fld}: {shown} is not a number")
    return float(value)


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


def _csv_rows(path: Path, need: Sequence[str], what: str
              ) -> Iterable[tuple[str, dict[str, Any]]]:
    text = read_text(path, what)
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [h.strip() for h in (reader.fieldnames or [])]  # reads the first row
    except csv.Error as e:
        raise InvalidInputError(f"{path}:1: not CSV ({e})") from None
    reader.fieldnames = header
    for f in need:
        if f not in header:
            raise InvalidInputError(f"{path}:1: {f}: column missing from header {header}")
    try:
        for rec in reader:
            if not any((v or "").strip() for v in rec.values() if isinstance(v, str)):
                continue
            yield f"{path}:{reader.line_num}", rec
    except csv.Error as e:  # a field over csv's size limit, a quote left open...
        raise InvalidInputError(f"{path}:{reader.line_num}: not CSV ({e})") from None


def _load_json(path: Path, key: str, what: str) -> list[Any]:
    text = read_text(path, what)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"{path}:{e.lineno}: not JSON ({e.msg})") from None
    except ValueError as e:  # a number of more than 4300 digits
        raise InvalidInputError(f"{path}: not usable JSON ({str(e)[:60]})") from None
    except RecursionError:
        raise InvalidInputError(f"{path}: not usable JSON (nested too deeply)") from None
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
        for i, rec in enumerate(_load_json(p, "pieces", "pool")):
            if not isinstance(rec, dict):
                raise InvalidInputError(f"{p}: pieces[{i}]: expected an object")
            items.append((f"{p}: pieces[{i}]", rec))
        return _build_pool(items)
    return _build_pool(_csv_rows(p, POOL_FIELDS, "pool"))


def write_pool(path: str | Path, pool: Pool) -> None:
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
        listed = _load_json(p, "owned", "collection")
        items = [(f"{p}: owned[{i}]", v) for i, v in enumerate(listed)]
    else:
        items = [(w, rec["id"]) for w, rec in _csv_rows(p, ("id",), "collection")]
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


def write_collection(path: str | Path, collection: Collection) -> None:
    """Write owned ids as CSV or JSON (by suffix), atomically."""
    p = Path(path)
    if p.suffix.lower() == ".json":
        atomic_write_text(p, json.dumps({"owned": list(collection.owned)}) + "\n")
    else:
        atomic_write_text(p, "id\n" + "".join(f"{pid}\n" for pid in collection.owned))


def read_scores(path: str | Path, pool: Pool | None = None) -> Scores:
    """Read scores from NPZ (dense or triplets) or CSV triplets (by suffix).

    Ids are checked against ``pool`` when given; an NPZ without ``ids`` needs the pool
    (rows in pool order). CSV triplets fill a dense float32 matrix of the pool's pieces
    (without a pool: of the ids the file names), refused beyond
    :data:`~gameopt.core.MAX_FILE_BYTES` (:data:`MAX_SCORE_PIECES` pieces) before it is
    allocated.
    """
    p = Path(path)
    if p.suffix.lower() == ".npz":
        return _read_scores_npz(p, pool)
    return _read_scores_csv(p, pool)


def _read_scores_npz(p: Path, pool: Pool | None) -> Scores:
    z = read_npz(p, "scores")
    for name, arr in z.items():
        whole = name in ("ids", "rows", "cols")
        if arr.dtype.kind not in ("iu" if whole else "iuf"):
            raise InvalidInputError(f"{p}: {' '.join(name.split())[:40]}: holds "
                                    f"{str(arr.dtype)[:40]} values, not "
                                    f"{'integers' if whole else 'numbers'}")
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
    for where, rec in _csv_rows(p, ("a", "b", "score"), "scores"):
        a, b = _int(rec["a"], where, "a"), _int(rec["b"], where, "b")
        for fld, pid in (("a", a), ("b", b)):
            if pool is not None and pid not in pool:
                raise InvalidInputError(f"{where}: {fld}: unknown piece id {pid}")
        s = _float(rec["score"], where, "score")
        if not math.isfinite(s) or abs(s) > MAX_SCORE:  # 1e39 overflowed the float32 cast
            raise InvalidInputError(f"{where}: score: {rec['score']!r} is not finite or "
                                    f"is over {MAX_SCORE:g} in size")
        if a == b:
            raise InvalidInputError(f"{where}: b: a piece paired with itself ({a})")
        key = (min(a, b), max(a, b))
        if key in seen and not math.isclose(seen[key][0], s, abs_tol=1e-5):
            raise InvalidInputError(f"{where}: score: {s} for ({a}, {b}) but "
                                    f"{seen[key][0]} at {seen[key][1]} (not symmetric)")
        seen[key] = (s, where)
    ids = pool.ids if pool is not None else tuple(sorted({x for k in seen for x in k}))
    if 4 * len(ids) ** 2 > MAX_FILE_BYTES:  # checked before the k x k float32 matrix
        raise InvalidInputError(f"{p}: {len(ids):,} pieces: the score matrix would take "
                                f"{4 * len(ids) ** 2:,} bytes (at most {MAX_FILE_BYTES:,}: "
                                f"{MAX_SCORE_PIECES:,} pieces)")
    pos = {pid: i for i, pid in enumerate(ids)}
    R = np.zeros((len(ids), len(ids)), dtype=np.float32)
    for (a, b), (s, _) in seen.items():
        R[pos[a], pos[b]] = R[pos[b], pos[a]] = s
    return Scores(ids, R)


def write_scores(path: str | Path, scores: Scores, *, sparse: bool = False) -> None:
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


def read_decks(path: str | Path, pool: Pool | None = None, size: int | None = None
               ) -> npt.NDArray[np.int64]:
    """Read one deck per line (comma-separated piece ids, leader first).

    Blank lines and lines starting with ``#`` are skipped. Every deck must have the same
    number of distinct ids (``size``, else the first deck's).

    Returns
    -------
    ndarray of int64, shape (N, size)

    Raises
    ------
    InvalidInputError
        Naming ``file:line``: a non-integer id, a wrong count, a repeated id, an id not
        in ``pool``.
    """
    p = Path(path)
    decks: list[list[int]] = []
    for lineno, line in enumerate(read_text(p, "decks").splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        where = f"{p}:{lineno}"
        deck = [_int(tok, where, "id") for tok in s.split(",")]
        if size is None:
            size = len(deck)
        if len(deck) != size:
            raise InvalidInputError(f"{where}: deck: {len(deck)} ids, expected {size}")
        if len(set(deck)) != len(deck):
            dup = next(x for x in deck if deck.count(x) > 1)
            raise InvalidInputError(f"{where}: id: piece {dup} twice in one deck")
        if pool is not None:
            for x in deck:
                if x not in pool:
                    raise InvalidInputError(f"{where}: id: unknown piece id {x}")
        decks.append(deck)
    if not decks:
        raise InvalidInputError(f"{p}: no decks")
    return np.array(decks, dtype=np.int64)


def write_decks(path: str | Path, decks: npt.ArrayLike) -> None:
    """Write decks one per line (ids comma-separated), atomically."""
    d = np.asarray(decks, dtype=np.int64)
    atomic_write_text(path, "".join(",".join(map(str, row)) + "\n" for row in d.tolist()))


def read_mdp(path: str | Path) -> DeckProblem:
    """Read an MDPLIB file (``.txt`` or ``.txt.gz``) into a size-only DeckProblem.

    The header ``n m`` needs whole numbers with ``2 ≤ n`` and ``1 ≤ m ≤ n``; then
    exactly one line ``i j d`` per unordered pair (``n(n-1)/2`` lines), ``i ≠ j`` whole
    numbers in ``0..n-1``, ``d`` finite and below
    :data:`~gameopt.deck.problem.MAX_SCORE` in size. The declared size is checked
    against the number of lines before the n×n matrix is allocated, and a ``.gz`` file
    is decompressed to at most :data:`~gameopt.core.MAX_FILE_BYTES`.

    Raises
    ------
    InvalidInputError
        Naming the file and line: a missing or unreadable file, not gzip, not UTF-8
        text, a malformed header, a pair line with other than 3 numbers, a fractional,
        out-of-range or diagonal index, a pair given twice or missing, a bad score.
    """
    path = Path(path)
    what = "MDP file"
    data = read_bytes(path, what)
    if path.suffix == ".gz":
        data = _gunzip(data, path, what)
    text = _text(data, path, what)
    head_line, _, body = text.partition("\n")
    head = head_line.split()
    if len(head) != 2 or not all(t.isdigit() and t.isascii() and len(t) <= 12
                                 for t in head):  # int() refuses over 4,300 digits
        raise InvalidInputError(f"{path}:1: header {head_line[:40]!r} is not 'n m' (two "
                                "whole numbers of at most 12 digits)")
    n, m = int(head[0]), int(head[1])
    if n < 2 or not 1 <= m <= n:
        raise InvalidInputError(f"{path}:1: header 'n m' = {n} {m}: need n >= 2 and "
                                "1 <= m <= n")
    want = n * (n - 1) // 2
    lines = body.count("\n") + 1  # an upper bound on the pair lines
    if lines < want:
        raise InvalidInputError(f"{path}: header declares n = {n} ({want} pair lines) but "
                                f"the file holds at most {lines}")
    pairs = _pair_lines(body, path)
    if pairs.shape[0] != want:
        raise InvalidInputError(f"{path}: {pairs.shape[0]} pair lines, header n = {n} "
                                f"needs {want} (one per unordered pair)")
    idx = pairs[:, :2]
    bad = np.flatnonzero((~np.isfinite(idx) | (idx != np.floor(idx))).any(axis=1))
    if bad.size:
        t = int(bad[0])
        raise InvalidInputError(f"{path}:{_line_of(body, t)}: index {_num(idx[t])} is not a "
                                "whole number")
    for t in np.flatnonzero(((idx < 0) | (idx >= n)).any(axis=1))[:1]:  # before the cast
        raise InvalidInputError(f"{path}:{_line_of(body, int(t))}: index outside 0..{n - 1} "
                                f"({_num(idx[t])})")
    i, j = idx[:, 0].astype(np.int64), idx[:, 1].astype(np.int64)
    for t in np.flatnonzero(i == j)[:1]:
        raise InvalidInputError(f"{path}:{_line_of(body, int(t))}: diagonal entry ({i[t]} "
                                f"{j[t]}): pairs need two different elements")
    key = np.minimum(i, j) * n + np.maximum(i, j)
    order = np.argsort(key, kind="stable")
    dup = np.flatnonzero(key[order][1:] == key[order][:-1])
    if dup.size:  # as many lines as pairs, so a repeat means a missing pair too
        t = int(order[dup[0] + 1])
        raise InvalidInputError(f"{path}:{_line_of(body, t)}: pair ({i[t]} {j[t]}) given "
                                "twice (so another pair is missing)")
    d = pairs[:, 2]
    for t in np.flatnonzero(~np.isfinite(d) | (np.abs(d) >= MAX_SCORE))[:1]:
        raise InvalidInputError(f"{path}:{_line_of(body, int(t))}: d = {d[t]:g}: scores must "
                                f"be finite and below {MAX_SCORE:g} in size")
    R = np.zeros((n, n), np.float32)
    R[i, j] = pairs[:, 2]
    R[j, i] = pairs[:, 2]
    try:
        return DeckProblem(R, m)
    except InvalidInputError as e:
        raise InvalidInputError(f"{path}: {e}") from None


def _gunzip(data: bytes, path: Path, what: str) -> bytes:
    """``data`` decompressed, at most MAX_FILE_BYTES (a gzip bomb is refused)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
            parts, size = [], 0  # read(n) would first allocate all n bytes
            while size <= MAX_FILE_BYTES and (part := f.read(1 << 20)):
                parts.append(part)
                size += len(part)
            out = b"".join(parts)
    except (OSError, EOFError, zlib.error) as e:
        raise InvalidInputError(f"{what} {path}: not gzip ({e})") from None
    if len(out) > MAX_FILE_BYTES:
        raise InvalidInputError(f"{what} {path}: more than {MAX_FILE_BYTES} bytes "
                                "decompressed")
    return out


def _text(data: bytes, path: Path, what: str) -> str:
    """``data`` as UTF-8 text with :func:`~gameopt.core.read_text`'s checks."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInputError(f"{what} {path}: not utf-8 text (byte {e.start}: "
                                f"{data[e.start:e.start + 1]!r})") from None
    if "\x00" in text:
        raise InvalidInputError(f"{what} {path}: not text (NUL byte at offset "
                                f"{text.index(chr(0))})")
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _pair_lines(body: str, path: Path) -> npt.NDArray[np.float64]:
    """The ``i j d`` lines as a float64 (lines, 3) array (blank lines skipped)."""
    if not body.strip():
        return np.zeros((0, 3))
    try:
        pairs = np.loadtxt(io.StringIO(body), dtype=np.float64, ndmin=2, comments=None)
    except ValueError as e:
        raise InvalidInputError(f"{path}: bad pair line ({str(e).splitlines()[0]})") from None
    if pairs.shape[1] != 3:
        raise InvalidInputError(f"{path}: pair lines need 3 fields (i j d), got "
                                f"{pairs.shape[1]}")
    return pairs


def _line_of(body: str, t: int) -> int:
    """The file line of pair line ``t`` (0-based, blank lines skipped; header is line 1)."""
    seen = -1
    for lineno, line in enumerate(body.split("\n"), 2):
        if line.strip():
            seen += 1
            if seen == t:
                return lineno
    return 0


def _num(v: npt.NDArray[np.float64]) -> str:
    return " ".join(f"{x:g}" for x in v)


def load_data(pool: str | Path, collection: str | Path, scores: str | Path
              ) -> tuple[Pool, Collection, Scores]:
    """Read a pool, a collection and scores, the ids of the last two checked against the
    pool."""
    p = read_pool(pool)
    return p, read_collection(collection, p), read_scores(scores, p)
