"""Deck recommendations as a service: the pool and scores loaded once, a problem per request.

A :class:`DeckCatalogue` holds a game's pool and pair scores as numpy arrays, checked once
when it is made (finite, symmetric: the checks :class:`~gameopt.deck.DeckProblem` would
otherwise repeat on every request). :meth:`DeckCatalogue.problem` then builds one player's
:class:`~gameopt.deck.DeckProblem` by indexing into those arrays: the same problem, array
for array, as :func:`~gameopt.deck.to_problem` over the same pool, collection and rules,
at a fraction of the cost (no Python loop over the collection, no re-check of an
``n × n`` matrix). :meth:`DeckCatalogue.recommend` runs one request end to end: problem,
search, explanation, as a JSON-ready :class:`Advice`.

The big arrays can live in shared memory (:meth:`DeckCatalogue.share`), so worker
processes of a server :meth:`~DeckCatalogue.attach` to one copy instead of loading their
own; :func:`recommend_job` is the picklable job a worker pool or a Dask cluster runs.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing import shared_memory
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.limit import Limit
from gameopt.core.stop import StopFlag
from gameopt.deck.pool import (
    ATTRIBUTES,
    Collection,
    PieceId,
    Pool,
    Rules,
    Scores,
    check_rule_pieces,
)
from gameopt.deck.problem import MAX_COST_CAP, DeckProblem
from gameopt.errors import InvalidInputError

__all__ = ["Advice", "CatalogueHandle", "DeckCatalogue", "gather_reference", "recommend_job",
           "serve_request"]

#: The fields :meth:`DeckCatalogue.problem` fills when it assembles a problem without
#: :class:`DeckProblem`'s checks. Another field in :class:`DeckProblem` sends every
#: request through the checked constructor instead (right, but slow) until it is added.
_FIELDS = frozenset({"R", "size", "cost", "cost_cap", "character", "char_limit", "attribute",
                     "attribute_min", "must", "leader_scores", "names", "forbidden_pairs",
                     "forbid_penalty"})

#: A score matrix with at most this share of nonzero entries is also kept sparse (CSR),
#: and requests scatter its nonzeros (:func:`~gameopt.deck._gather_kernel.scatter_square`)
#: rather than gather every entry: a scattered entry costs a few times a gathered one.
_SPARSE = 0.25


def gather_reference(R: npt.NDArray[np.float32], rows: npt.NDArray[np.int64]
                     ) -> npt.NDArray[np.float32]:
    """``R[rows][:, rows]`` with zero rows and columns where ``rows`` is -1: the plain
    reference of the gather kernel."""
    R0 = np.zeros((R.shape[0] + 1, R.shape[0] + 1), dtype=np.float32)
    R0[:-1, :-1] = R
    r = np.where(rows < 0, R.shape[0], rows)
    return np.take(np.take(R0, r, axis=0), r, axis=1)


@dataclass(frozen=True)
class CatalogueHandle:
    """What a worker process needs to attach to a shared catalogue (it pickles small):
    the pool and score ids, and the names, shapes and dtypes of the shared arrays."""

    pool: Pool
    score_ids: tuple[PieceId, ...]
    arrays: tuple[tuple[str, str, tuple[int, ...], str], ...]  # (field, shm, shape, dtype)


@dataclass(frozen=True)
class Advice:
    """One recommendation, ready for JSON (:meth:`to_dict`).

    Attributes
    ----------
    deck : tuple of int
        Piece ids of the deck, the leader left out (it is ``leader``).
    leader : int or None
    score, cost : float, int
        The deck's score and total cost (leader included).
    attributes : dict of str to int
        Pieces of each attribute (leader included).
    method, clock : str
    seconds : float
        The search's time on ``clock``.
    proven : bool
    bound, gap : float or None
        A valid upper bound and the relative gap, for methods that have one.
    stop : str or None
        Why the search ended early (``"time"``, ``"requested"``...), ``None`` when it ran
        to its end.
    contributions : tuple of (int, float)
        Each piece's share of the score, in ``deck`` order (they sum to ``score``).
    rules : tuple of dict
        The binding-rule analysis (:func:`gameopt.deck.explain.binding_rules`), one dict
        per active rule, its ``kind`` ``"proven"`` or ``"estimate"``; empty when not
        asked for.
    timings : dict of str to float
        CPU seconds of this process for ``problem``, ``search`` and ``explain``.
    """

    deck: tuple[int, ...]
    leader: int | None
    score: float
    cost: int
    attributes: dict[str, int]
    method: str
    clock: str
    seconds: float
    proven: bool
    bound: float | None
    gap: float | None
    stop: str | None
    contributions: tuple[tuple[int, float], ...]
    rules: tuple[dict[str, Any], ...] = ()
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types only."""
        out = dataclasses.asdict(self)
        out["deck"] = list(self.deck)
        out["contributions"] = [{"id": pid, "contribution": c} for pid, c in self.contributions]
        out["rules"] = [dict(r) for r in self.rules]
        return out


class DeckCatalogue:
    """A pool and its pair scores, loaded once; a :class:`DeckProblem` per collection.

    Parameters
    ----------
    pool : Pool
    scores : Scores, optional
        Pair scores (``None``: every score 0). Rows of ids the pool does not hold are
        ignored, as :func:`~gameopt.deck.to_problem` ignores them.

    Notes
    -----
    Made in O(k²) (k = scored pieces: the score matrix is symmetrised once, and kept in
    CSR form too when at most a quarter of it is nonzero); each :meth:`problem` costs one
    gather of an ``n × n`` float32 submatrix (n = pieces owned), or with sparse scores
    one scatter of its rows' nonzeros into a zeroed one, plus O(n log n) numpy work on
    the piece arrays.
    """

    def __init__(self, pool: Pool, scores: Scores | None = None) -> None:
        self.pool = pool
        ids = np.array([p.id for p in pool.pieces], dtype=np.int64)
        self.score_ids: tuple[PieceId, ...] = scores.ids if scores is not None else ()
        k = len(self.score_ids)
        if scores is None:
            sym = np.zeros((0, 0), np.float32)
            lead: npt.NDArray[np.float32] = sym
        else:
            raw = scores.R
            sym = (raw + raw.T) * np.float32(0.5)  # what DeckProblem stores, once for all
            np.fill_diagonal(sym, 0.0)
            lead = scores.leader if scores.leader is not None else raw
            if lead is raw and np.array_equal(raw, sym):
                lead = sym
        arrays: dict[str, npt.NDArray[Any]] = {"ids": ids,
                  "cost": np.array([p.cost for p in pool.pieces], dtype=np.int32),
                  "char": np.array([p.character for p in pool.pieces], dtype=np.int64),
                  "attr": np.array([ATTRIBUTES.index(p.attribute) for p in pool.pieces],
                                   dtype=np.int8),
                  "row": np.array([scores.index.get(int(i), -1) if scores is not None else -1
                                   for i in ids], dtype=np.int64),
                  "R": sym, "L": lead}
        if sym.size and np.count_nonzero(sym) <= _SPARSE * sym.size:
            # mostly zeros (scores learnt from decks: pairs never played together):
            # each request scatters the nonzeros instead of gathering every entry
            nz = sym != 0
            arrays["csr_ptr"] = np.concatenate([[0], np.cumsum(nz.sum(axis=1))]).astype(
                np.int64)
            arrays["csr_col"] = np.nonzero(nz)[1].astype(np.int32)
            arrays["csr_val"] = sym[nz]
        self._init(arrays)
        assert self._R.shape == (k, k)

    def _init(self, arrays: Mapping[str, npt.NDArray[Any]]) -> None:
        for a in arrays.values():
            a.flags.writeable = False
        self._arrays = dict(arrays)
        self._ids = arrays["ids"]
        self._order = np.argsort(self._ids, kind="stable")
        self._sorted = self._ids[self._order]
        self._cost, self._char, self._attr = arrays["cost"], arrays["char"], arrays["attr"]
        self._row, self._R, self._L = arrays["row"], arrays["R"], arrays["L"]
        self._csr: tuple[npt.NDArray[Any], ...] | None = (
            tuple(arrays[f"csr_{x}"] for x in ("ptr", "col", "val"))
            if "csr_ptr" in arrays else None)
        self._names = np.array([p.name for p in self.pool.pieces], dtype=object)
        self._shm: list[shared_memory.SharedMemory] = []
        self._owner = False

    # ------------------------------------------------------------------ shared memory

    def share(self) -> CatalogueHandle:
        """Move the arrays into shared memory; return the handle workers attach with.

        This catalogue owns the blocks: :meth:`close` it when the workers are gone.
        """
        if self._shm:
            raise InvalidInputError("catalogue: already shared")
        blocks: list[shared_memory.SharedMemory] = []
        specs = []
        moved: dict[str, npt.NDArray[Any]] = {}
        made: dict[int, tuple[str, npt.NDArray[Any]]] = {}
        for name, a in self._arrays.items():
            if id(a) not in made:  # L and R may be one array
                shm = shared_memory.SharedMemory(create=True, size=max(1, a.nbytes))
                blocks.append(shm)
                b: npt.NDArray[Any] = np.ndarray(a.shape, dtype=a.dtype, buffer=shm.buf)
                b[...] = a
                made[id(a)] = (shm.name, b)
            shm_name, moved[name] = made[id(a)]
            specs.append((name, shm_name, a.shape, a.dtype.str))
        self._init(moved)
        self._shm, self._owner = blocks, True
        return CatalogueHandle(self.pool, self.score_ids, tuple(specs))

    @classmethod
    def attach(cls, handle: CatalogueHandle) -> DeckCatalogue:
        """A catalogue over the shared arrays of ``handle`` (read-only, no copy)."""
        self = cls.__new__(cls)
        self.pool, self.score_ids = handle.pool, handle.score_ids
        blocks: dict[str, shared_memory.SharedMemory] = {}
        arrays = {}
        for name, shm_name, shape, dtype in handle.arrays:
            if shm_name not in blocks:
                blocks[shm_name] = _attach_block(shm_name)
            arrays[name] = np.ndarray(shape, dtype=np.dtype(dtype), buffer=blocks[shm_name].buf)
        self._init(arrays)
        self._shm = list(blocks.values())
        return self

    def close(self) -> None:
        """Let go of the shared memory (and remove it, in the catalogue that shared it)."""
        shms, self._shm = self._shm, []
        owner = self._owner
        self._arrays = {}
        self._R = self._L = np.zeros((0, 0), np.float32)
        self._csr = None
        for shm in shms:
            try:
                shm.close()
            except BufferError:  # an array still points into it: the OS frees it at exit
                pass
            if owner:
                shm.unlink()

    # ------------------------------------------------------------------ lookups

    def index_of(self, pieces: npt.ArrayLike) -> tuple[npt.NDArray[np.int64],
                                                      npt.NDArray[np.bool_]]:
        """Pool positions of piece ids, and which ids the pool knows (vectorised)."""
        q = np.asarray(pieces, dtype=np.int64).ravel()
        if len(self._sorted) == 0:
            return np.zeros(len(q), np.int64), np.zeros(len(q), bool)
        at = np.minimum(np.searchsorted(self._sorted, q), len(self._sorted) - 1)
        return self._order[at], self._sorted[at] == q

    def unknown(self, pieces: npt.ArrayLike) -> list[int]:
        """Positions in ``pieces`` of ids the pool does not hold."""
        return np.flatnonzero(~self.index_of(pieces)[1]).tolist()

    # ------------------------------------------------------------------ problem

    def problem(self, owned: npt.ArrayLike | Collection, rules: Rules
                ) -> tuple[DeckProblem, npt.NDArray[np.int64]]:
        """The problem of one player: what :func:`~gameopt.deck.to_problem` builds.

        Parameters
        ----------
        owned : array_like of int or Collection
            The piece ids the player owns, each once.
        rules : Rules

        Returns
        -------
        problem : DeckProblem
            Equal, field for field and array for array, to ``to_problem(pool,
            Collection(owned), rules, scores)[0]``.
        ids : ndarray of int64
            The piece id of each problem index.

        Raises
        ------
        InvalidInputError
            As :func:`~gameopt.deck.to_problem` (same messages): a repeated or unknown id,
            a leader or must-include piece not owned, a leader over the cost cap, a rule
            the collection cannot meet (deck size, must-include count).
        """
        q = np.asarray(owned.owned if isinstance(owned, Collection) else owned)
        if q.size and q.dtype.kind not in "iu":
            raise InvalidInputError(f"collection: piece ids of type {q.dtype}, not integers")
        q = q.astype(np.int64, copy=False).ravel()
        s = np.sort(q)
        if len(s) > 1 and (s[1:] == s[:-1]).any():
            Collection(tuple(q.tolist()))  # raises, naming the first repeat
        pidx, known = self.index_of(q)
        if not known.all():
            k = int(np.argmin(known))
            raise InvalidInputError(f"id: collection entry {k} is unknown piece id {q[k]}")
        rule_ids = [*rules.must, *(() if rules.leader is None else (rules.leader,)),
                    *(x for pair in rules.forbid for x in pair)]
        ids_known = dict(zip(rule_ids, self.index_of(rule_ids)[1].tolist(), strict=True))
        owned_set = np.isin(np.asarray(rule_ids, dtype=np.int64), q)
        where = dict(zip(rule_ids, owned_set.tolist(), strict=True))
        shunned = check_rule_pieces(rules, ids_known.__getitem__, where.__getitem__)
        lead = None if rules.leader is None else self.pool[rules.leader]
        keep = np.ones(len(q), dtype=bool)
        if shunned:
            keep &= ~np.isin(q, np.fromiter(shunned, dtype=np.int64))
        if lead is not None:
            keep &= q != lead.id
            if rules.limit_of(lead.character) == 1:
                keep &= self._char[pidx] != lead.character
        ids, cand = q[keep], pidx[keep]
        return self._assemble(ids, cand, rules, lead), ids

    def _assemble(self, ids: npt.NDArray[np.int64], cand: npt.NDArray[np.int64], rules: Rules,
                  lead: Any) -> DeckProblem:
        n = len(ids)
        raw = self._char[cand]
        uniq, first, inverse = np.unique(raw, return_index=True, return_inverse=True)
        by_first = np.argsort(first, kind="stable")  # characters in order of first sight
        rank = np.empty(len(uniq), dtype=np.int64)
        rank[by_first] = np.arange(len(uniq))
        character = rank[inverse.ravel()].astype(np.int32)
        chars = uniq[by_first]
        limits = np.full(len(chars), rules.char_limit, dtype=np.int64)
        for c, lim in rules.char_limits.items():
            limits[chars == c] = lim
        if lead is not None:
            limits[chars == lead.character] -= 1
        cost_cap, attr_min = rules.cost_cap, rules.attribute_min
        if lead is not None:
            if cost_cap is not None:
                cost_cap -= lead.cost
                if cost_cap < 0:
                    raise InvalidInputError(f"leader: piece {lead.id} costs {lead.cost}, over "
                                            f"the cost cap {rules.cost_cap}")
            attr_min = max(0, attr_min - int(lead.attribute == rules.attribute))
        pos = {int(pid): i for pid, i in zip(ids[np.isin(ids, rules.must)].tolist(),
                                             np.flatnonzero(np.isin(ids, rules.must)).tolist(),
                                             strict=True)}
        must = []
        for pid in rules.must:
            if lead is not None and pid == lead.id:
                continue
            if pid not in pos:
                raise InvalidInputError(f"must: piece {pid} shares the leader's character")
            must.append(pos[pid])
        fb = np.asarray([x for pair in rules.forbid for x in pair], dtype=np.int64)
        fmap = {int(pid): int(i) for pid, i in zip(ids[np.isin(ids, fb)].tolist(),
                                                    np.flatnonzero(np.isin(ids, fb)).tolist(),
                                                    strict=True)}
        pairs = tuple((fmap[a], fmap[b]) for a, b in rules.forbid if a in fmap and b in fmap)
        rows = self._row[cand]
        R = np.empty((n, n), dtype=np.float32)
        if self._csr is not None:
            from gameopt.deck._gather_kernel import scatter_square

            at = np.full(self._R.shape[0], -1, dtype=np.int64)  # row -> problem index
            scored = rows >= 0
            at[rows[scored]] = np.flatnonzero(scored)
            indptr, indices, data = self._csr
            scatter_square(indptr, indices, data, rows, at, R)
        elif self._R.shape[0]:
            from gameopt.deck._gather_kernel import gather_square

            gather_square(self._R, rows, R)
        else:
            R.fill(0.0)
        lscores = None
        if lead is not None:
            lscores = np.zeros(n, dtype=np.float32)
            lrow = int(self._row[self.pool.index[lead.id]])
            if lrow >= 0 and self._L.shape[0]:
                has = rows >= 0
                lscores[has] = self._L[lrow, rows[has]]
        spec = dict(
            R=R, size=rules.size - (lead is not None), cost=self._cost[cand],
            cost_cap=cost_cap, character=character,
            char_limit=limits.astype(np.int32) if len(limits) else rules.char_limit,
            attribute=((self._attr[cand] == ATTRIBUTES.index(rules.attribute)).astype(np.int8)
                       if rules.attribute is not None else None),
            attribute_min=attr_min, must=tuple(must), leader_scores=lscores,
            names=tuple(self._names[cand].tolist()), forbidden_pairs=pairs)
        return _trusted_problem(spec)

    # ------------------------------------------------------------------ one request

    def recommend(self, owned: npt.ArrayLike, rules: Rules, method: str = "vds", *,
                  limit: Limit | None = None, seed: int | None = 0, explain: bool = True
                  ) -> Advice:
        """Problem, search and explanation for one player.

        Parameters
        ----------
        owned : array_like of int
            The player's piece ids.
        rules : Rules
        method : str
            A key of :data:`gameopt.deck.METHODS`.
        limit : Limit, optional
            The search's budget and stop flag (:func:`gameopt.deck.solve`).
        seed : int or None
        explain : bool
            Add the binding-rule analysis (one rebuild per active rule).

        Raises
        ------
        InvalidInputError
            Bad ids or rules (see :meth:`problem`), an unknown method.
        InfeasibleError
            No deck keeps the rules.
        """
        from gameopt.deck.explain import (
            binding_rules,
            chained_stop,
            contributions,
            leader_part,
        )
        from gameopt.deck.solve import solve

        t0 = time.process_time()
        problem, ids = self.problem(owned, rules)
        t1 = time.process_time()
        caller = None if limit is None else limit.stop
        # the search stops on the caller's flag through its own: its deadline watchdog
        # (bnb's) raises its flag at the time limit, which would skip the explanation
        with chained_stop(caller) as own:
            res = solve(problem, method, seed=seed,
                        limit=limit if own is None or limit is None
                        else dataclasses.replace(limit, stop=own))
        t2 = time.process_time()
        effects: tuple[dict[str, Any], ...] = ()
        if explain and not (caller is not None and caller.is_set()):
            # the same method, within the search's own time (as ``gameopt deck build``)
            budget = Limit(time=max(res.seconds, 1e-3),
                           clock="wall" if res.clock == "wall" else "cpu", stop=caller)
            effects = tuple({**dataclasses.asdict(e), "binds": bool(e.binds),
                             "kind": e.kind}
                            for e in binding_rules(problem, res.deck, seed=seed,
                                                   method=method, limit=budget,
                                                   leader=leader_part(self.pool, rules)))
        t3 = time.process_time()
        chosen = ids[list(res.deck)]
        share = contributions(problem, res.deck)
        whole = np.concatenate([chosen, [] if rules.leader is None else [rules.leader]])
        at = self.index_of(whole)[0]
        counts = np.bincount(self._attr[at], minlength=len(ATTRIBUTES))
        return Advice(
            deck=tuple(chosen.tolist()), leader=rules.leader, score=float(res.score),
            cost=int(self._cost[at].sum()),
            attributes={a: int(c) for a, c in zip(ATTRIBUTES, counts, strict=True)},
            method=res.method, clock=res.clock, seconds=float(res.seconds),
            proven=bool(res.proven), bound=res.bound, gap=res.gap,
            stop=res.stats.get("stop"),
            contributions=tuple(zip(chosen.tolist(), share.tolist(), strict=True)),
            rules=effects,
            timings={"problem": t1 - t0, "search": t2 - t1, "explain": t3 - t2})


def _attach_block(name: str) -> shared_memory.SharedMemory:
    """Open a shared block without adopting it: the process that made it removes it.

    Before Python 3.13 an attaching process registers the block with its resource
    tracker, which removes what is still registered when it ends. A worker started by
    ``multiprocessing`` shares its parent's tracker, so that registration is the
    parent's own, and the block is removed when the parent closes the catalogue or
    dies: what is wanted.
    """
    if sys.version_info >= (3, 13):
        return shared_memory.SharedMemory(name=name, track=False)  # type: ignore[call-arg]
    return shared_memory.SharedMemory(name=name)


def _trusted_problem(spec: dict[str, Any]) -> DeckProblem:
    """A :class:`DeckProblem` from arrays a :class:`DeckCatalogue` made, without the
    O(n²) checks of its constructor.

    Sound because the catalogue checked the whole score matrix once (finite, below
    ``MAX_SCORE``) and symmetrised it exactly as the constructor does (a principal
    submatrix of an exactly symmetric matrix with a zero diagonal is one too). The cheap
    rule checks run here with the constructor's messages.
    """
    if {f.name for f in dataclasses.fields(DeckProblem)} != _FIELDS:
        return DeckProblem(**spec)
    R = spec["R"]
    n, size = R.shape[0], spec["size"]
    if not 1 <= size <= n:
        raise InvalidInputError(f"rules: deck size {size} with {n} pieces")
    cap = spec["cost_cap"]
    if cap is not None and not 0 <= cap <= MAX_COST_CAP:
        raise InvalidInputError(f"rules: cost cap {cap!r}: expected a whole number "
                                f"0..{MAX_COST_CAP}")
    must = spec["must"]
    if len(must) > size:
        raise InvalidInputError(f"rules: {len(must)} must-include pieces for a deck of {size}")
    pairs = tuple(sorted({(min(i, j), max(i, j)) for i, j in spec["forbidden_pairs"]}))
    penalty = 0.0
    if pairs:
        ls = spec["leader_scores"]
        l_max = 0.0 if ls is None else float(np.abs(ls).max(initial=0.0))
        r_max = float(max(R.max(initial=0.0), -R.min(initial=0.0)))
        penalty = 1.0 + 1.01 * 2 * (size * (size - 1) / 2 * r_max + size * l_max)
        for i, j in pairs:
            R[i, j] = R[j, i] = -penalty
    problem = object.__new__(DeckProblem)
    for name, value in spec.items():
        object.__setattr__(problem, name, value)
    object.__setattr__(problem, "forbidden_pairs", pairs)
    object.__setattr__(problem, "forbid_penalty", penalty)
    return problem


# ---------------------------------------------------------------------- worker jobs


@functools.lru_cache(maxsize=4)
def _catalogue_of(source: Any) -> DeckCatalogue:
    if isinstance(source, CatalogueHandle):
        return DeckCatalogue.attach(source)
    kind, *args = source
    if kind == "synthetic":
        from gameopt.deck.synth import synthetic_data

        pool, _, scores = synthetic_data(args[0])
        return DeckCatalogue(pool, scores)
    if kind == "files":
        from gameopt.deck.formats import read_pool, read_scores

        pool = read_pool(args[0])
        return DeckCatalogue(pool, read_scores(args[1], pool))
    raise InvalidInputError(f"catalogue source: {source!r} is not understood")


def serve_request(catalogue: DeckCatalogue, request: Mapping[str, Any], *,
                  stop: StopFlag | None = None) -> dict[str, Any]:
    """One request as plain data → ``Advice.to_dict()``, or ``{"error", "message"}``.

    ``request`` holds ``owned`` (ids), ``rules`` (the keyword arguments of
    :class:`Rules`), ``method``, ``seconds`` (a time budget on the method's clock, or
    ``None``), ``seed`` and ``explain``. Errors the caller caused
    (:class:`~gameopt.errors.GameoptError`: bad ids or rules, infeasible rules) are
    returned, not raised, with their type name, so one bad player does not sink a batch.
    ``stop``: a flag another process may raise to cut the search short (the explanation
    is then skipped).
    """
    from gameopt.deck.solve import METHODS
    from gameopt.errors import GameoptError

    try:
        rules = Rules(**request.get("rules", {}))
        method = request.get("method", "vds")
        spec = METHODS.get(method)
        seconds = request.get("seconds")
        limit = Limit(time=seconds, clock=spec.clock if spec is not None else "cpu",
                      stop=stop)
        return catalogue.recommend(request["owned"], rules, method, limit=limit,
                                   seed=request.get("seed", 0),
                                   explain=request.get("explain", True)).to_dict()
    except GameoptError as exc:
        return {"error": type(exc).__name__, "message": str(exc)}


def recommend_job(job: tuple[Any, Mapping[str, Any]]) -> dict[str, Any]:
    """``(source, request)`` → :func:`serve_request`: the job of a worker process.

    ``source`` is a :class:`CatalogueHandle` (shared memory on this machine),
    ``("synthetic", seed)`` or ``("files", pool_path, scores_path)`` (a Dask worker
    loads it once and keeps it).
    """
    source, request = job
    return serve_request(_catalogue_of(source), request)
