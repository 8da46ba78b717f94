"""One round's pairing time (CPU) by field size: exact vs SLIM vs bbpPairings, same history.

For each field size a Swiss event of ``--rounds`` rounds is played first, paired round
after round by the engine's fast naive top-down rule (``--history``) with random results:
Elo-like win probabilities from normal strengths, about 3 % draws, disc counts. The
history is stored once in ``$XDG_CACHE_HOME/gameopt-bench`` (default ``~/.cache``) as
the event's records (a FIDE TRF-16 file beside it, up to 9,999 players, TRF-16's limit)
and read back on the next run. The next round is then paired by

* ``exact``: :func:`gameopt.pairing.pair_round` (our blossom on a sparse candidate
  graph, priced by its LP duals) — the method under test;
* ``rustworkx``: the previous exact path (rustworkx's blossom after the reduced-cost
  pruning against SLIM's bound), the baseline: ``same optimum`` compares its key;
* ``networkx``: the same objective with networkx's pure-Python blossom (the reference:
  ``same optimum`` compares its whole key with exact's; up to ``--networkx-max``
  players, default 1,000);
* ``slim``: SLIM's greedy + 2/3/4-player swaps;
* ``burstein`` and ``dutch``: bbpPairings 6 (FIDE's Burstein and Dutch systems) on the
  TRF-16 file of the same history, built from ``../shared/peers`` into
  ``~/.cache/gameopt-peers/bbp`` (skipped with the reason when it cannot be built, above
  9,999 players, or above ``--bbp-max``); each run is time-boxed to ``--bbp-limit``
  seconds (default 300) and reported as such when cut.

Every pairing is scored by the exact order's key (:func:`gameopt.pairing.pairer.pairing_key`
under the same penalties): the terms other than colour, the colour-tier breaks (a third
same colour in a row, a colour difference beyond 2), the colour cost. bbpPairings
optimises FIDE's rules, not this order: its keys say how its pairing scores here.

Times: our methods report the process CPU time of the complete ``pair_round`` call
(cost matrix, matching, tables; numba kernels loaded beforehand); bbpPairings the child
process's CPU time (user + system, ``getrusage``), reading its TRF file included.
Run: ``python benchmarks/bench_pairing.py [--sizes 1000,3000,10000] [--methods ...]``.
"""

from __future__ import annotations

import argparse
import os
import pickle
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from gameopt.core.table import format_table
from gameopt.pairing import BYE, PenaltyParams, RoundInput, pair_round
from gameopt.pairing.formats import format_trf
from gameopt.pairing.matching import warm_kernels
from gameopt.pairing.pairer import pairing_key
from gameopt.pairing.records import GameRecord, Outcome, PlayerRecord
from gameopt.pairing.standings import build_round_input
from gameopt.pairing.store import TournamentData, TournamentInfo

SIZES = (1000, 3000, 10000)
METHODS = ("exact", "rustworkx", "networkx", "slim", "burstein", "dutch")
TRF_MAX = 9999
PEERS = Path(__file__).resolve().parents[1].parent / "shared" / "peers"


class Event:
    """A Swiss event's records, enough to build each round's :class:`RoundInput`."""

    def __init__(self, n: int, rng: np.random.Generator, countries: int = 12) -> None:
        self.rng = rng
        self.players = tuple(PlayerRecord(id=f"P{k:05d}", name=f"P{k:05d}",
                                          country=f"C{int(c)}", seq=k + 1)
                             for k, c in enumerate(rng.integers(0, countries, n)))
        self.strength = {p.id: float(s) for p, s in
                         zip(self.players, rng.normal(0.0, 1.0, n), strict=True)}
        self.games: list[GameRecord] = []

    def data(self, rounds: int) -> TournamentData:
        return TournamentData(TournamentInfo("bench", rounds=rounds), self.players,
                              tuple(self.games))

    def round_input(self, round_no: int) -> RoundInput:
        return build_round_input(round_no, self.players, self.games)

    def play(self, ri: RoundInput, method: str, params: PenaltyParams) -> None:
        for t in pair_round(ri, params, method).tables:
            if t.white == BYE:
                self.games.append(GameRecord(ri.round_no, t.number, t.black, BYE))
                continue
            diff = self.strength[t.white] - self.strength[t.black]
            p_black = 1.0 / (1.0 + 10.0 ** (diff * 0.5))
            u = self.rng.random()
            if u < 0.03:
                d = 32
            elif u < 0.03 + 0.97 * p_black:
                d = int(self.rng.integers(33, 65))
            else:
                d = int(self.rng.integers(0, 32))
            self.games.append(GameRecord(ri.round_no, t.number, t.black, t.white, d, 64 - d,
                                         Outcome.from_discs(d, 64 - d)))


def cache_dir() -> Path:
    """Where the histories are kept (``$XDG_CACHE_HOME/gameopt-bench``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gameopt-bench"


def history(n: int, rounds: int, seed: int, method: str, params: PenaltyParams,
            terms: str = "papp") -> tuple[TournamentData, Path | None, float]:
    """The records of ``rounds`` rounds paired by ``method`` (made once, then read from
    the cache), the TRF-16 file of the next round (None above 9,999 players), and the CPU
    seconds spent making the history now (0 when read from the cache)."""
    stem = cache_dir() / f"pairing-{n}p-{rounds}r-s{seed}-{method}-{terms}"
    pkl, trf = stem.with_suffix(".pkl"), stem.with_suffix(".trf")
    spent = 0.0
    if pkl.exists():
        with pkl.open("rb") as fh:
            data = pickle.load(fh)  # our own cache file, written below
    else:
        t = time.process_time()
        event = Event(n, np.random.default_rng([seed, n]))
        for r in range(1, rounds + 1):
            event.play(event.round_input(r), method, params)
        data = event.data(rounds + 1)
        spent = time.process_time() - t
        pkl.parent.mkdir(parents=True, exist_ok=True)
        tmp = pkl.with_suffix(".tmp")
        with tmp.open("wb") as fh:
            pickle.dump(data, fh)
        tmp.replace(pkl)
    if n > TRF_MAX:
        return data, None, spent
    if not trf.exists():
        trf.write_text(format_trf(data))
    return data, trf, spent


def bbp_exe() -> tuple[Path | None, str]:
    """bbpPairings (built from ../shared/peers when not yet), or None and the reason."""
    exe = Path.home() / ".cache" / "gameopt-peers" / "bbp" / "bbpPairings.exe"
    if exe.exists():
        return exe, ""
    script = PEERS / "build.sh"
    if not script.exists() or shutil.which("make") is None:
        return None, f"no {script} or no make to build bbpPairings"
    run = subprocess.run([str(script), "bbp"], capture_output=True, text=True, timeout=900,
                         check=False)
    if run.returncode != 0 or not exe.exists():
        return None, f"bbpPairings did not build: {run.stderr.strip()[-200:]}"
    return exe, ""


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_bbp(exe: Path, system: str, trf: Path, data: TournamentData,
            limit: float) -> tuple[list[tuple[str, str]] | None, float, str]:
    """bbpPairings' next round as our ``(black, white)`` tables, its CPU seconds, and a
    note (why there is no pairing). bbpPairings lists FIDE's white first (our white:
    TRF-16 ``b`` is our black, :mod:`gameopt.pairing.trf`); ``0`` is the bye."""
    ids = [p.id for p in sorted(data.players, key=lambda p: p.seq)]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "pairs.txt"
        before = child_cpu()
        try:
            run = subprocess.run([str(exe), f"--{system}", str(trf), "-p", str(out)],
                                 capture_output=True, text=True, timeout=limit, check=False)
        except subprocess.TimeoutExpired:
            return None, child_cpu() - before, f"stopped after {limit:.0f} s wall"
        spent = child_cpu() - before
        if run.returncode != 0 or not out.exists():
            return None, spent, f"exit {run.returncode}: {run.stderr.strip()[-120:]}"
        lines = out.read_text().split()
    tables = []
    for a, b in zip(lines[1::2], lines[2::2], strict=True):
        white = ids[int(a) - 1]
        tables.append((white, BYE) if b == "0" else (ids[int(b) - 1], white))
    return tables, spent, ""


def key(ri: RoundInput, tables: list[tuple[str, str]],
        params: PenaltyParams) -> tuple[int, int, int]:
    """The exact order's key of a pairing (other terms, colour-tier breaks, colour)."""
    return pairing_key(ri, tables, params)


def ours(ri: RoundInput, params: PenaltyParams, method: str,
         ) -> tuple[list[tuple[str, str]], float, dict[str, Any]]:
    p = pair_round(ri, params, method)
    return [(t.black, t.white) for t in p.tables], p.seconds, dict(p.stats)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="field sizes, comma-separated (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=8, help="rounds of history (default 8)")
    ap.add_argument("--seed", type=int, default=2002)
    ap.add_argument("--terms", choices=("default", "papp", "slim"), default="default",
                    help="penalty weights: the defaults (the tuned preset; default), "
                         "PAPP's or SLIM's")
    ap.add_argument("--history", default="naive", choices=("naive", "slim", "exact"),
                    help="pairing rule of the history rounds (default naive: fast)")
    ap.add_argument("--methods", default=",".join(METHODS),
                    help="methods to run, comma-separated (default %(default)s)")
    ap.add_argument("--networkx-max", type=int, default=1000,
                    help="largest field networkx is run on (default %(default)s)")
    ap.add_argument("--bbp-max", type=int, default=TRF_MAX,
                    help="largest field bbpPairings is run on (default %(default)s)")
    ap.add_argument("--bbp-limit", type=float, default=300.0,
                    help="wall seconds each bbpPairings run may take (default %(default)s)")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    methods = [m for m in args.methods.split(",") if m]
    if bad := [m for m in methods if m not in METHODS]:
        ap.error(f"unknown method {bad[0]!r} ({', '.join(METHODS)})")
    params = {"default": PenaltyParams, "papp": PenaltyParams.papp,
              "slim": PenaltyParams.slim}[args.terms]()
    exe, why_not = (bbp_exe() if {"burstein", "dutch"} & set(methods) else (None, ""))

    warm = Event(12, np.random.default_rng(0))  # compile the numba kernels first
    for method in ("exact", "rustworkx", "slim"):
        pair_round(warm.round_input(1), params, method)
    warm_kernels()

    rows = []
    notes: list[str] = []
    for n in sizes:
        print(f"[{n} players] history: {args.rounds} rounds ({args.history})...",
              file=sys.stderr, flush=True)
        data, trf, spent = history(n, args.rounds, args.seed, args.history, params,
                                   args.terms)
        notes.append(f"{n} players: history " + (f"made in {spent:.1f} s CPU and stored"
                                                  if spent else "read from the cache")
                     + (f", TRF-16 {trf}" if trf else " (no TRF-16: above 9,999 players)"))
        ri = build_round_input(args.rounds + 1, data.players, data.games)
        best: tuple[int, int, int] | None = None
        for method in methods:
            note, tables, stats = "", None, {}
            if method in ("burstein", "dutch"):
                if exe is None:
                    note = why_not
                elif trf is None or n > args.bbp_max:
                    note = ("TRF-16 holds at most 9,999 players" if trf is None
                            else f"above --bbp-max {args.bbp_max}")
                else:
                    tables, secs, note = run_bbp(exe, method, trf, data, args.bbp_limit)
            elif method == "networkx" and n > args.networkx_max:
                note = f"above --networkx-max {args.networkx_max}"
            else:
                tables, secs, stats = ours(ri, params, method)
            if tables is None:
                rows.append([n, method, "-" if not note.startswith("stopped") else
                             f">{secs:.1f}", "-", "-", "-", "-", note])
                print(f"[{n} players] {method}: {note}", file=sys.stderr, flush=True)
                continue
            k = key(ri, tables, params)
            if method == "exact":
                best = k
            same = ("-" if best is None or method == "exact" else
                    "yes" if k == best else f"+{k[0] - best[0]}, {k[1] - best[1]:+d}, "
                    f"{k[2] - best[2]:+d}")
            extra = (f"kept {stats['kept_edges']:,} of {stats['edges']:,} edges"
                     if "kept_edges" in stats else "")
            if "fallback" in stats:
                extra += f" (sparse path not used: {stats['fallback']})"
            if method in ("exact", "rustworkx") and "order" in stats:
                extra += f"; {stats['order']} order"
            if stats.get("solver") == "sparse":
                extra += (f", {stats['pricing_rounds']} pricing rounds; tie levels: "
                          f"{stats.get('tight_edges', 0):,} tight pairs, "
                          f"{stats.get('tie_edges', 0):,} candidate edges over the levels")
            rows.append([n, method, round(secs, 2), k[0], k[1], k[2], same, extra])
            print(f"[{n} players] {method} {secs:.2f} s key {k}", file=sys.stderr,
                  flush=True)

    print(f"\n### One round's pairing, {args.terms} weights, after {args.rounds} "
          f"rounds ({args.history} history), CPU seconds\n")
    print(format_table(["players", "method", "CPU s", "other terms", "colour breaks",
                        "colour cost", "vs exact (other, breaks, colour)", "note"], rows))
    print()
    for line in notes:
        print(f"- {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
