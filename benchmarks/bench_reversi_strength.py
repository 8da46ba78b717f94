"""Playing strength: gameopt against Zebra from balanced openings, book off, both colours.

Zebra (Gunnar Andersson's engine with its trained evaluation and Multi-ProbCut) is built
from ``../shared/peers`` into ``~/.cache/gameopt-peers/zebra`` by
``../shared/peers/build.sh zebra`` and driven through the NBoard adapter
``../shared/peers/zebra_nboard.py`` (one Zebra process per move, ``-b 0``: no book). The
benchmark skips, saying why, when the build fails. gameopt plays without a book.

Each opening of ``--openings`` (default ``benchmarks/data/reversi-openings-8ply.txt``, made
by the command in its header) is played twice, gameopt Black then White: the pentanomial
statistics of :mod:`gameopt.reversi.match` over the pairs give the score and Elo with 95 %
intervals. Per depth D of ``--depths``:

* *equal depth*: ``gameopt depth=D`` against ``Zebra depth=D``, both solving exactly from
  ``E = min(max(D + 8, 14), 22)`` empties (the adapter's default and gameopt nboard's rule);
* *equal time* (``--equal-time``): gameopt thinks, per move, the mean CPU seconds Zebra
  took per midgame move (more than E empties) in the equal-depth games of the same run
  (from the adapter's ``--log``: the child process's CPU time, its ~0.03 s start included),
  on gameopt's CPU clock, against Zebra at depth D again.

* *fixed time per move* (``--time-rows T:D[:N],...``): gameopt thinks T CPU seconds a move
  against Zebra at depth D, a depth whose measured CPU time per move is near T (the row
  quotes Zebra's mean and median from the adapter's log); both solve exactly from 14
  empties, and gameopt also earlier when its solve is expected to fit in half its time
  (:func:`~gameopt.reversi.timing.solves_first`: from 16 at 0.1 s; ``--spec early=0``
  turns that off). ``:N`` (or ``--time-count N`` for all) plays a row on the first N openings.
  The row also quotes Zebra's CPU seconds a game, and gameopt's with ``--workers 1``, as
  the clock rows below do.

* *game clock* (``--clock-rows C:D[:N],...``): gameopt plays on a game clock of C CPU
  seconds (``clock=C,end=14``: its time manager shares the clock out over its moves, and
  the clock bounds its whole game), against Zebra at depth D; the row quotes Zebra's CPU
  seconds per game (every call of the adapter's log, its process starts included) and
  per midgame move, and, with ``--workers 1`` (the games run in this process),
  gameopt's process CPU seconds per game after its kernels are loaded. C set to Zebra's
  time per game at D makes the row equal in time per game, the way tournaments set it.

``bench_reversi_zebra_time.py`` measures Zebra's time a move by depth on played games'
positions, to choose D. ``--games DIR`` keeps each row's games: ``DIR/ROW.ggf.part`` as
each game ends, then ``DIR/ROW.ggf`` in match order, so a stopped run (Ctrl-C, or a TERM)
keeps its finished games; the adapter's log of Zebra's calls is kept beside them as
``DIR/zebra-ROW.log`` (one line a call: empties, move, wall and CPU seconds), so a stopped
row's Zebra time can still be read (without ``--games`` the log is in a temporary
directory, removed at the end).

``--skip K`` leaves out the file's first K openings (``-n`` counts from there): a stopped
run goes on where its ``.part`` file ends, and the two files, concatenated, are one run for
``bench_reversi_paired.py``.

``--spec`` adds settings to gameopt's player (``mpc=0``, ``eval=FILE``...). Each row is the
same match as::

    gameopt reversi match --openings FILE --a "depth=6,end=14" \\
        --b "nboard=python3 ../shared/peers/zebra_nboard.py --exact 14,depth=6"

Run: ``python benchmarks/bench_reversi_strength.py [-n 100] [--depths 6,8] [--equal-time]
[--time-rows 0.1:12,1:21:20] [--clock-rows 2:12] [--workers 2] [--spec mpc=0]
[--games DIR]``. Under CPU contention run it with ``nice``: equal-time rows use CPU clocks
on both sides, so contention changes their speed, not their fairness.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.reversi import Board
from gameopt.reversi.match import (
    Contestant,
    GameLog,
    MatchResult,
    Player,
    parse_player,
    read_openings,
    run_match,
)

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT / ".." / "shared" / "peers"
DEFAULT_OPENINGS = ROOT / "benchmarks" / "data" / "reversi-openings-8ply.txt"


def equal_depth_exact(depth: int) -> int:
    """Empties from which both sides solve exactly at ``depth``: min(max(D + 8, 14), 22),
    the adapter's default and ``gameopt reversi nboard``'s rule."""
    return min(max(depth + 8, 14), 22)


def build_zebra(peers: Path, dest: Path) -> tuple[Path | None, str]:
    """The Zebra directory (built now unless already there), or None and why not."""
    exe = dest / "zebra"
    if exe.is_file() and (dest / "coeffs2.bin").is_file():
        return dest, "cached"
    script = peers / "build.sh"
    if not script.is_file():
        return None, f"{script} not found"
    try:
        r = subprocess.run(["bash", str(script), "zebra", str(dest)], capture_output=True,
                           text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"build.sh zebra failed: {e}"
    if r.returncode != 0 or not exe.is_file():
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no output"]
        return None, f"build.sh zebra failed (exit {r.returncode}): {tail[0]}"
    return dest, "built"


def zebra_times(log: Path, exact: int) -> list[float]:
    """CPU seconds of each Zebra call with more than ``exact`` empties (adapter log)."""
    if not log.is_file():
        return []
    out = []
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4 and int(parts[0]) > exact:
            out.append(float(parts[3]))
    return out


def parse_time_rows(text: str, flag: str = "--time-rows", max_seconds: float = 60.0
                    ) -> list[tuple[float, int, int | None]]:
    """``"0.1:12,1:21:20"`` -> [(0.1, 12, None), (1.0, 21, 20)]: seconds (per move for
    ``--time-rows``, per game for ``--clock-rows``, at most ``max_seconds``), Zebra's
    depth, and optionally the number of openings of that row."""
    out = []
    for item in (t.strip() for t in text.split(",") if t.strip()):
        parts = item.split(":")
        try:
            if len(parts) not in (2, 3):
                raise ValueError
            sec, depth = float(parts[0]), int(parts[1])
            count = int(parts[2]) if len(parts) == 3 else None
        except ValueError:
            raise ValueError(f"{flag}: {item!r} is not SECONDS:DEPTH[:OPENINGS]") from None
        if not (0 < sec <= max_seconds and 1 <= depth <= 30 and (count is None or count >= 1)):
            raise ValueError(f"{flag}: {item!r} out of range "
                             f"(0 < s <= {max_seconds:g}, depth 1..30, openings >= 1)")
        out.append((sec, depth, count))
    return out


def zebra_game_seconds(log: Path) -> float:
    """Child CPU seconds of all of Zebra's calls in the adapter log (its fourth column; every
    move of every game)."""
    if not log.is_file():
        return 0.0
    return sum(float(p[3]) for p in (ln.split() for ln in log.read_text().splitlines())
               if len(p) >= 4)


def run_logged(a: Contestant, b: Contestant, openings: list[str], workers: int,
               path: Path | None) -> MatchResult:
    """:func:`run_match`, its games written to ``path`` (``path.part`` as each ends, so a
    stopped run keeps them) unless ``path`` is None."""
    if path is None:
        return run_match(a, b, openings, workers=workers)
    with GameLog(path, a.name, b.name) as games:
        res = run_match(a, b, openings, workers=workers, on_game=games.add)
        games.finish(res)
    return res


def select_openings(path: Path, skip: int, count: int) -> list[str]:
    """The openings of ``path`` after its first ``skip``, at most ``count`` of them.

    Raises
    ------
    InvalidInputError
        A missing or bad openings file.
    ValueError
        ``skip`` not below the file's openings, or ``count`` below 1 (naming the option).
    """
    openings = read_openings(path)
    if not 0 <= skip < len(openings):
        raise ValueError(f"--skip {skip}: expected 0 <= K < {len(openings)} (the openings "
                         f"in {path})")
    if count < 1:
        raise ValueError(f"-n {count}: expected at least 1 opening")
    return openings[skip:skip + count]


def row(label_a: str, label_b: str, res: MatchResult, extra: str) -> list[object]:
    n = len(res.games)
    lo, hi = res.elo_ci
    return [label_a, label_b, n, f"{100 * res.score:.1f} %",
            f"+{res.wins} ={res.draws} -{res.losses}",
            " ".join(str(c) for c in res.pentanomial), res.elo_text().removeprefix("Elo "),
            f"{res.mean_diff:+.1f}", extra]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=Path, default=DEFAULT_OPENINGS)
    ap.add_argument("-n", "--count", type=int, default=100,
                    help="openings used (the first N after --skip)")
    ap.add_argument("--skip", type=int, default=0, metavar="K",
                    help="leave out the file's first K openings (-n counts from the next "
                         "one): a stopped run goes on where it stopped")
    ap.add_argument("--depths", default="6,8", help="comma-separated depths")
    ap.add_argument("--equal-time", action="store_true",
                    help="also play at Zebra's measured CPU time per move")
    ap.add_argument("--time-rows", default="", metavar="T:D[:N],...",
                    help="rows at a fixed time per move: gameopt T CPU seconds a move against "
                         "Zebra at depth D (chosen so its measured time per move is near T), "
                         "on the first N openings")
    ap.add_argument("--clock-rows", default="", metavar="C:D[:N],...",
                    help="rows on a game clock: gameopt C CPU seconds a game against Zebra at "
                         "depth D, on the first N openings")
    ap.add_argument("--time-count", type=int, default=None,
                    help="openings used by the --time-rows and --clock-rows rows (default: -n)")
    ap.add_argument("--spec", default="", help="extra gameopt player settings (a,b=c)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=Path, default=None, metavar="DIR",
                    help="write each row's games to DIR/ROW.ggf (DIR/ROW.ggf.part as they "
                         "end, so a stopped run keeps its finished games)")
    ap.add_argument("--zebra-dir", type=Path,
                    default=Path.home() / ".cache" / "gameopt-peers" / "zebra")
    ap.add_argument("--peers", type=Path, default=PEERS)
    args = ap.parse_args()
    # A TERM (kill, a job runner's stop) unwinds like Ctrl-C: the adapter logs' temporary
    # directory is removed and the rows' .part game files stay.
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    try:
        time_rows = parse_time_rows(args.time_rows)
        clock_rows = parse_time_rows(args.clock_rows, "--clock-rows", 3600.0)
    except ValueError as e:
        ap.error(str(e))
    if args.games is not None:
        try:
            args.games.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            ap.error(f"--games: cannot make directory {args.games} ({e.strerror})")
    try:
        openings = select_openings(args.openings, args.skip, args.count)
    except (InvalidInputError, ValueError) as e:
        ap.error(str(e))
    zdir, how = build_zebra(args.peers, args.zebra_dir)
    if zdir is None:
        print(f"skipped: Zebra is not available ({how})", file=sys.stderr)
        return 0
    adapter = args.peers / "zebra_nboard.py"
    if not adapter.is_file():
        print(f"skipped: {adapter} not found", file=sys.stderr)
        return 0
    os.environ["ZEBRA_DIR"] = str(zdir)
    extra = ("," + args.spec.strip(",")) if args.spec.strip(",") else ""
    rows: list[list[object]] = []
    commands: list[str] = []
    after = f" after the first {args.skip}" if args.skip else ""
    print(f"Zebra {how} in {zdir}; {len(openings)} openings from {args.openings}{after} x 2 "
          f"colours, {args.workers} workers", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:

        def play(aspec: str, depth: int, exact: int, name: str, ops: list[str]
                 ) -> tuple[MatchResult, float, list[float], float, float]:
            """gameopt ``aspec`` against Zebra at ``depth``: the result, its wall seconds,
            Zebra's CPU seconds per midgame move and in all, and this process's CPU
            seconds over the games (gameopt's own with one worker: the games run here,
            Zebra in child processes); records the equivalent command."""
            # with --games the log stays beside the games (a stopped row keeps it too)
            log = (Path(tmp) if args.games is None else args.games) / f"zebra-{name}.log"
            log.unlink(missing_ok=True)  # a row's own calls only, not an earlier run's
            zspec = (f"nboard={shlex.quote(sys.executable)} {adapter} --exact {exact} "
                     f"--log {log},depth={depth},timeout=600")
            a, b = parse_player(aspec, f"gameopt {aspec}"), parse_player(zspec, f"Zebra d{depth}")
            if args.workers == 1 and isinstance(a, Player):
                a.choose(Board.start())  # load the kernels before the clock below
            ru = resource.getrusage(resource.RUSAGE_SELF)
            t = time.perf_counter()
            res = run_logged(a, b, ops, args.workers,
                             None if args.games is None else args.games / f"{name}.ggf")
            wall = time.perf_counter() - t
            ru2 = resource.getrusage(resource.RUSAGE_SELF)
            cpu = ru2.ru_utime + ru2.ru_stime - ru.ru_utime - ru.ru_stime
            commands.append(f'gameopt reversi match --a "{aspec}" --b "{zspec}"'
                            + (f" (first {len(ops)} openings)" if len(ops) < len(openings)
                               else ""))
            print(res.summary(), file=sys.stderr)
            return res, wall, zebra_times(log, exact), zebra_game_seconds(log), cpu

        def per_game(ztotal: float, cpu: float, games: int) -> str:
            """Zebra's CPU seconds a game, and gameopt's with one worker (note text)."""
            own = f"gameopt {cpu / max(1, games):.2f} s, " if args.workers == 1 else ""
            return f"{own}Zebra {ztotal / max(1, games):.2f} s a game (CPU); "

        for depth in (int(d) for d in args.depths.split(",") if d.strip()):
            exact = equal_depth_exact(depth)
            res, wall, zt, _, _ = play(f"depth={depth},end={exact}{extra}", depth, exact,
                                       f"d{depth}", openings)
            zmean = statistics.fmean(zt) if zt else float("nan")
            rows.append(row(f"depth {depth}", f"depth {depth}", res,
                            f"Zebra {zmean:.3f} s/move; {wall:.0f} s wall"))
            if args.equal_time and zt:
                res, wall, zt2, _, _ = play(f"time={zmean:.4f},end={exact}{extra}", depth,
                                            exact, f"t{depth}", openings)
                zmean2 = statistics.fmean(zt2) if zt2 else float("nan")
                rows.append(row(f"{zmean:.3f} s/move", f"depth {depth}", res,
                                f"Zebra {zmean2:.3f} s/move; {wall:.0f} s wall"))
        # the time rows (per move), then the clock rows (per game): the same row, its
        # gameopt spec, label and file name aside
        timed = ([(f"time={t:g}", f"{t:g} s/move", f"t{t:g}-d{d}", d, n)
                  for t, d, n in time_rows]
                 + [(f"clock={c:g}", f"clock {c:g} s/game", f"c{c:g}-d{d}", d, n)
                    for c, d, n in clock_rows])
        for control, label, name, depth, count in timed:
            ops = openings[:count or args.time_count or len(openings)]
            res, wall, zt, ztotal, cpu = play(f"{control},end=14{extra}", depth, 14, name, ops)
            zmean = statistics.fmean(zt) if zt else float("nan")
            zmed = statistics.median(zt) if zt else float("nan")
            rows.append(row(label, f"depth {depth}", res,
                            f"Zebra mean {zmean:.3f} / median {zmed:.3f} s/midgame move; "
                            f"{per_game(ztotal, cpu, len(res.games))}{wall:.0f} s wall"))
    print(format_table(["gameopt", "Zebra", "games", "gameopt score", "W/D/L",
                        "pairs 0/.5/1/1.5/2", "Elo (95 %)", "mean discs", "notes"], rows))
    print("\nequivalent commands (openings: " + str(args.openings)
          + (f", {args.skip + 1} to {args.skip + len(openings)}):" if args.skip
             else f", first {len(openings)}):"))
    for c in commands:
        print("  " + c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
