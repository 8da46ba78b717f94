"""Multi-ProbCut's cut pairs, fitted by regression on our own searches (Buro's method).

Samples (:func:`mpc_samples`): positions of self-play games (8 random plies, then 2-ply
searches with 10 % random moves), each searched by iterative deepening to every depth
1..``max_depth`` without selectivity and, with ``selective_depth``, on to it with
Multi-ProbCut, so that the deeper rows are fitted on the selective search the engine runs.
Games are independent jobs for :func:`gameopt.core.parallel.parallel_map`.

Fitting (:func:`fit_mpc`): per depth, shallow depth and number of empties, least squares of
the deep value on the shallow one; sigma is the residuals' standard deviation. The table
is :class:`gameopt.reversi.probcut.MpcTable`, stored by :func:`~gameopt.reversi.probcut.write_mpc`.

Samples are stored as ``.npz`` (:func:`write_mpc_samples`, format ``gameopt-mpc-samples-1``)
so that tables can be refitted without searching again (``train mpc --from-samples``).

References
----------
M. Buro, "Experiments with Multi-ProbCut and a New High-Quality Evaluation Function for
Othello", 1997; M. Buro, "ProbCut: An Effective Selective Extension of the Alpha-Beta
Algorithm", ICCA Journal 18 (1995).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core import Limit
from gameopt.core.files import atomic_write_bytes
from gameopt.core.parallel import parallel_map
from gameopt.core.progress import Progress, ProgressCallback
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import PASS, Board
from gameopt.reversi.probcut import MAX_DEPTH as MPC_MAX_DEPTH
from gameopt.reversi.probcut import TRIES as MPC_TRIES
from gameopt.reversi.probcut import MpcTable, read_mpc, shallow_depths
from gameopt.reversi.search import search
from gameopt.reversi.train import selfplay_params
from gameopt.reversi.weights import kernel_weights, load_npz

__all__ = ["mpc_samples", "fit_mpc", "check_pairs", "write_mpc_samples", "read_mpc_samples",
           "MPC_SAMPLES_FORMAT", "FIT_MPC_T"]

#: the confidence of the selective searches that sample the rows above ``max_depth`` (the
#: shipped table was fitted with it; play's default, ``SearchParams.mpc_t``, may differ)
FIT_MPC_T = 1.5


def _mpc_game(job: tuple[int, int, int, int, int, MpcTable | None, str | None, float]
              ) -> list[tuple[int, list[int]]]:
    """One self-play game (8 random plies, then 2-ply searches with 10 % random moves);
    ``per_game`` of its positions with more than ``deep + 1`` empties (at most 52) are
    searched by iterative deepening to ``max_depth`` without selectivity, then (when
    ``deep`` > ``max_depth``) to ``deep`` with Multi-ProbCut (the table in the job, None
    for the shipped one, at the confidence last in the job): (empties, [value at depth 1,
    2, ..., deep] in centi-discs). Every search uses the job's weights file (None: the
    shipped weights)."""
    seed, max_depth, per_game, tt_bits, deep, table, eval_file, cut_t = job
    rng = np.random.default_rng(seed)
    source = eval_file or ""
    play = selfplay_params(source, 14)
    board = Board.start()
    seq: list[Board] = []
    ply = 0
    while not board.is_game_over():
        moves = board.legal_moves()
        if moves != [PASS] and deep + 1 < board.empties <= 52:
            seq.append(board)
        if moves == [PASS]:
            board = board.play(PASS)
            continue
        if ply < 8 or rng.random() < 0.1:
            move = moves[int(rng.integers(len(moves)))]
        else:
            r = search(board, Limit(depth=2), params=play)
            assert r.move is not None
            move = r.move
        board = board.play(move)
        ply += 1
    out = []
    full = replace(selfplay_params(source, tt_bits), mpc=False)
    selective = replace(full, mpc=True, mpc_table=table, mpc_t=cut_t)
    for i in rng.choice(len(seq), size=min(per_game, len(seq)), replace=False):
        values: dict[int, int] = {}
        found: dict[int, int] = {}

        def note(p: Progress, found: dict[int, int] = found) -> None:
            if p.best is not None:
                found[p.done] = round(100 * p.best)

        search(seq[int(i)], Limit(depth=max_depth), params=full, progress=note)
        values.update(found)
        if deep > max_depth:
            found.clear()
            search(seq[int(i)], Limit(depth=deep), params=selective, progress=note)
            values.update({d: v for d, v in found.items() if d > max_depth})
        if len(values) == deep:
            out.append((seq[int(i)].empties, [values[d] for d in range(1, deep + 1)]))
    return out


def mpc_samples(games: int, *, max_depth: int = 10, per_game: int = 4, seed: int = 0,
                scheduler: str | None = None, workers: int | None = None,
                progress: ProgressCallback | None = None, selective_depth: int | None = None,
                table: str | Path | None = None, eval_file: str | Path | None = None,
                selective_t: float = FIT_MPC_T
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Positions of ``games`` self-play games searched to every depth 1..``max_depth``
    without selectivity, and with ``selective_depth`` (deeper than ``max_depth``) on to it
    with Multi-ProbCut (the table file ``table``, default the shipped table: the deeper
    rows are fitted on the selective search the engine runs): (empties: N, values: N ×
    deepest centi-discs). Games are parallel jobs. ``eval_file``: the pattern weights
    (with their network, if the file has one) that play the games and evaluate the
    searches (default the shipped weights): a table for an evaluation is fitted on that
    evaluation's searches. ``selective_t``: the selective searches' cut confidence in
    standard deviations (default ``FIT_MPC_T``, the shipped table's; 0..10).

    Raises
    ------
    InvalidInputError
        Counts out of range (``max_depth`` 3..16, ``selective_depth`` above it, at most 16)
        or ``selective_t`` outside 0..10;
        a ``table`` without a ``selective_depth`` above ``max_depth``, or one that is not
        a Multi-ProbCut table file; an ``eval_file`` that is not a weights file.
    """
    deep = max_depth if selective_depth is None else selective_depth
    if games < 1 or per_game < 1 or not 3 <= max_depth <= 16 or not max_depth <= deep <= 16:
        raise InvalidInputError(f"mpc samples: games={games}, per_game={per_game}, "
                                f"max_depth={max_depth}, selective_depth={selective_depth}: "
                                "out of range (max_depth 3..16, selective_depth up to 16)")
    if not 0 <= selective_t <= 10:
        raise InvalidInputError(f"mpc samples: selective_t={selective_t}: expected 0..10 "
                                "standard deviations")
    if table is not None and deep == max_depth:
        raise InvalidInputError(f"mpc samples: table {str(table)!r} is for the selective "
                                "searches: give a selective_depth above max_depth")
    cuts = None if table is None else read_mpc(table)  # read once, before any game
    weights = None if eval_file is None else str(eval_file)
    if weights is not None:
        kernel_weights(weights)  # fail now, naming the file, not in a worker
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    jobs = [(int(s), max_depth, per_game, 18, deep, cuts, weights, float(selective_t))
            for s in seeds]
    rows = [x for part in parallel_map(_mpc_game, jobs, scheduler=scheduler, workers=workers,
                                       progress=progress) for x in part]
    empties = np.array([e for e, _ in rows], dtype=np.int64)
    values = np.array([v for _, v in rows], dtype=np.int64).reshape(len(rows), deep)
    return empties, values


def check_pairs(pairs: Mapping[int, int], where: str) -> None:
    """Refuse a pair ``d: d'`` of :func:`fit_mpc` whose depth is not 3..16 or whose
    shallow depth is not 1..d - 1 (InvalidInputError naming it and ``where``)."""
    for d, ds in pairs.items():
        if not (3 <= d <= MPC_MAX_DEPTH and 1 <= ds < d):
            raise InvalidInputError(f"{where}: pair {d}:{ds}: expected a depth 3.."
                                    f"{MPC_MAX_DEPTH} and a shallow depth 1..{max(1, d - 1)}"
                                    " below it")


def fit_mpc(empties: npt.NDArray[np.int64], values: npt.NDArray[np.int64], *,
            bucket: int = 6, min_samples: int = 30, tries: int = 1,
            first_from: int = 10, pairs: Mapping[int, int] | None = None) -> MpcTable:
    """Multi-ProbCut regressions (Buro) from :func:`mpc_samples`: for each depth ``d``,
    each of its shallow depths ``d'`` (:func:`gameopt.reversi.probcut.shallow_depths`:
    one, or with ``tries`` = 2 a shallower first try from depth ``first_from`` on) within
    the samples, and each number of empties ``e``, least squares of v_d on v_d' over the
    samples with empties within ``bucket`` of ``e`` (``min_samples`` at least, else that
    try is not made); sigma is the residuals' standard deviation. The tries of a row are
    stored in the order given, the shallowest first. ``pairs`` (``{d: d'}``) names another
    shallow depth than :func:`~gameopt.reversi.probcut.shallow_depth`'s for some depths
    (Zebra checks depth 5 at 1 and 9 at 3, for instance). O(N · depths · tries · 61).

    Raises
    ------
    InvalidInputError
        Arrays of mismatched shapes; ``tries`` not 1..2; a pair whose depth is not
        3..16 or whose shallow depth is not 1..d - 1.
    """
    if values.ndim != 2 or len(empties) != len(values):
        raise InvalidInputError(f"fit mpc: {len(empties)} empties for values of shape "
                                f"{values.shape}")
    if not 1 <= tries <= MPC_TRIES:
        raise InvalidInputError(f"fit mpc: tries={tries}: expected 1..{MPC_TRIES}")
    pairs = dict(pairs or {})
    check_pairs(pairs, "fit mpc")
    table = np.zeros((61, MPC_MAX_DEPTH + 1, MPC_TRIES, 4), dtype=np.float64)
    max_depth = values.shape[1]
    for d in range(3, min(max_depth, MPC_MAX_DEPTH) + 1):
        for e in range(61):
            sel = np.abs(empties - e) <= bucket
            if sel.sum() < min_samples or e <= d:
                continue
            y = values[sel, d - 1].astype(np.float64)
            slot = 0
            for ds in shallow_depths(d, tries, first_from, pairs):
                x = values[sel, ds - 1].astype(np.float64)
                a, b = np.polyfit(x, y, 1) if np.ptp(x) > 0 else (1.0, float(np.mean(y - x)))
                if a <= 0.05:
                    continue
                sigma = float(np.std(y - (a * x + b)))
                table[e, d, slot] = (ds, a, b, sigma)
                slot += 1
    meta: dict[str, Any] = {"samples": int(len(empties)), "bucket": bucket,
                            "min_samples": min_samples, "max_depth": int(max_depth)}
    if tries > 1:
        meta.update({"tries": tries, "first_from": first_from})
    if pairs:
        meta["pairs"] = {str(d): ds for d, ds in sorted(pairs.items())}
    return MpcTable(table.reshape(61, MPC_MAX_DEPTH + 1, MPC_TRIES * 4), meta)


MPC_SAMPLES_FORMAT = "gameopt-mpc-samples-1"
#: a bound no search value reaches (evaluations can pass 6400 centi-discs a little)
_MPC_SAMPLE_LIMIT = 1_000_000


def write_mpc_samples(path: str | Path, empties: npt.NDArray[np.int64],
                      values: npt.NDArray[np.int64], info: dict[str, Any]) -> None:
    """Save :func:`mpc_samples`' output (atomic), so that tables can be refitted from it
    (``train mpc --from-samples``) without searching again."""
    buf = io.BytesIO()
    np.savez_compressed(buf, empties=np.asarray(empties, dtype=np.int64),
                        values=np.asarray(values, dtype=np.int64),
                        meta=np.array(json.dumps({**info, "format": MPC_SAMPLES_FORMAT})))
    atomic_write_bytes(path, buf.getvalue())


def read_mpc_samples(path: str | Path
                     ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], dict[str, Any]]:
    """Load samples written by :func:`write_mpc_samples`: (empties, values, meta).

    Raises
    ------
    InvalidInputError
        A missing or unreadable file, another format, arrays of bad shapes or values.
    """
    arrays, meta = load_npz(path, MPC_SAMPLES_FORMAT, "Multi-ProbCut samples file")
    e, v = arrays.get("empties"), arrays.get("values")
    if (e is None or v is None or e.ndim != 1 or v.ndim != 2 or len(e) != len(v)
            or not 3 <= v.shape[1] <= 16 or len(e) == 0):
        raise InvalidInputError(f"{path}: MPC samples need empties (N) and values "
                                "(N x 3..16), N > 0")
    if not (np.issubdtype(e.dtype, np.integer) and np.issubdtype(v.dtype, np.integer)):
        raise InvalidInputError(f"{path}: MPC samples must be integers")
    if ((e < 0) | (e > 60)).any() or (np.abs(v) > _MPC_SAMPLE_LIMIT).any():
        raise InvalidInputError(f"{path}: MPC samples out of range (empties 0..60, "
                                f"values within +-{_MPC_SAMPLE_LIMIT} centi-discs)")
    return e.astype(np.int64), v.astype(np.int64), meta
