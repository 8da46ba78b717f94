"""Exact endgame solver on the FFO suite, and the seed's alpha-beta vs PVS comparison.

Part 1 solves FFO ``--range`` (default #40-#59) with the default solver (PVS): move, exact
score, whether both agree with the OBF file (the move must be among the best-scoring moves),
nodes, CPU seconds, nodes per CPU second; totals for #40-#49. Positions may be skipped past
``--budget`` CPU seconds in all (reported as not run). With ``--edax`` (the baseline) each
position is then solved by Edax 4.6 with zero weights in the same run (built from
``../shared/peers/`` into ``~/.cache/gameopt-peers/edax`` when absent; skipped with the
reason when it cannot be built): its score, nodes and CPU seconds (Edax's own ``cpu =``
figure: the solve, not the start-up), and gameopt's CPU time over Edax's.

Part 2 redoes Thell's table: plain alpha-beta against PVS on FFO #40-#42 (same solver, same
ordering and table, only the null-window re-search switched), nodes and time as ratios.
Both start from the full window, as Thell's did: the solver's default aspiration window
(already nearly null) leaves PVS little to add.

Part 3 (``--compare-eval``): the same positions solved with the hand-set heuristic
[baseline] and with the trained pattern evaluation (the default) doing the evaluation's
work in the solve (root ordering by a shallow search, shallow-search ordering at deep
nodes), one position after the other in one run: nodes and CPU seconds of each, totals.

Run: ``python benchmarks/bench_reversi_ffo.py [--range 40-59] [--data DIR] [--no-compare]
[--eval learned|heuristic] [--compare-eval] [--edax [PROGRAM]]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.reversi.bench import FFO_FILES, parse_range, run_ffo
from gameopt.reversi.search import EvalKind, SearchParams


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path,
                    default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--range", default="40-59", metavar="A-B")
    ap.add_argument("--budget", type=float, default=3600.0,
                    help="stop starting new positions after this many CPU seconds")
    ap.add_argument("--no-compare", action="store_true", help="skip part 2")
    ap.add_argument("--eval", choices=("learned", "heuristic"), default="learned",
                    help="evaluation of part 1 (default: the engine's, learned)")
    ap.add_argument("--compare-eval", action="store_true",
                    help="only part 3: heuristic against learned on --range")
    ap.add_argument("--edax", nargs="?", const="build", default=None, metavar="PROGRAM",
                    help="also solve each position with Edax 4.6 (zero weights) in the same "
                         "run: the program, or built from ../shared/peers when omitted")
    args = ap.parse_args()
    folder = args.data / "reversi"
    if not folder.is_dir():
        print(f"{folder}: not found (the FFO files live in ../shared/data/reversi)",
              file=sys.stderr)
        return 2
    first, last = parse_range(args.range)
    if args.compare_eval:
        return compare_eval(folder, first, last)
    params = SearchParams(eval_kind=EvalKind.HEURISTIC if args.eval == "heuristic"
                          else EvalKind.PATTERN)

    edax: Path | None = None
    if args.edax is not None:
        edax, why = find_edax(args.edax)
        if edax is None:
            print(f"Edax skipped: {why}", file=sys.stderr)
    run_ffo(folder, 1, 1, params)  # load the kernels: the first row would pay for it

    rows: list[list[object]] = []
    solved = []
    peer: dict[int, EdaxRow] = {}
    spent = 0.0
    for n in range(first, last + 1):
        if spent > args.budget:
            rows.append([f"#{n}", "-", "-", "-", "-", "-", "-", "-", "not run (budget)"]
                        + (["-"] * 4 if edax else []))
            continue
        (row,) = run_ffo(folder, n, n, params)
        spent += row.seconds
        solved.append(row)
        r = row.result
        rows.append([f"#{n}", row.empties, str(r.move), f"{r.score:+d}",
                     "/".join(row.expected_moves) + f" {row.expected_score:+d}",
                     f"{r.nodes:,}", f"{row.seconds:.2f}",
                     f"{r.nodes / row.seconds / 1e6:.1f}M", "ok" if row.correct else "WRONG"])
        if edax is not None:
            e = edax_solve(edax, obf_line(folder, n))
            peer[n] = e
            spent += e.seconds
            rows[-1] += [f"{e.score:+d}" + ("" if e.score == r.score else " DIFFERS"),
                         f"{e.nodes:,}", f"{e.seconds:.2f}", f"{row.seconds / e.seconds:.2f}"]
        print(" ".join(str(c) for c in rows[-1]), file=sys.stderr, flush=True)
    for lo, hi in ((40, 49), (50, 59)):
        done = [w for w in solved if lo <= w.number <= hi]
        if not done:
            continue
        nodes = sum(w.result.nodes for w in done)
        cpu = sum(w.seconds for w in done)
        rows.append([f"total #{done[0].number}-#{done[-1].number}", "", "", "", "",
                     f"{nodes:,}", f"{cpu:.2f}", f"{nodes / cpu / 1e6:.1f}M",
                     f"{sum(w.correct for w in done)}/{len(done)} ok"])
        if edax is not None:
            ecpu = sum(peer[w.number].seconds for w in done)
            rows[-1] += ["", f"{sum(peer[w.number].nodes for w in done):,}", f"{ecpu:.2f}",
                         f"{cpu / ecpu:.2f}"]
    print(format_table(["FFO", "empties", "move", "score", "file", "nodes", "CPU s", "nodes/s",
                        "check"] + (["Edax score", "Edax nodes", "Edax CPU s",
                                     "CPU / Edax"] if edax else []), rows))

    if not args.no_compare:
        print()
        table, ratios_n, ratios_t = [], [], []
        for n in (40, 41, 42):
            (ab,) = run_ffo(folder, n, n, SearchParams(pvs=False, aspiration=False))
            (pv,) = run_ffo(folder, n, n, SearchParams(pvs=True, aspiration=False))
            rn = pv.result.nodes / ab.result.nodes
            rt = pv.seconds / ab.seconds
            ratios_n.append(rn)
            ratios_t.append(rt)
            table.append([f"#{n}", f"{ab.result.nodes:,}", f"{ab.seconds:.2f}",
                          f"{pv.result.nodes:,}", f"{pv.seconds:.2f}", f"{rn:.2f}",
                          f"{rt:.2f}", "ok" if ab.correct and pv.correct else "WRONG"])
        table.append(["median", "", "", "", "", f"{statistics.median(ratios_n):.2f}",
                      f"{statistics.median(ratios_t):.2f}", ""])
        print(format_table(["FFO", "alpha-beta nodes [baseline]", "CPU s", "PVS nodes", "CPU s",
                            "PVS/AB nodes", "PVS/AB time", "check"], table))
    return 0


@dataclass(frozen=True)
class EdaxRow:
    """One position solved by Edax: score, nodes, CPU seconds of the solve (Edax's clock)."""

    score: int
    nodes: int
    seconds: float


def find_edax(spec: str) -> tuple[Path | None, str]:
    """The Edax program: ``spec`` itself, or the one built from ``../shared/peers`` (built
    now when absent). (None, reason) when there is none."""
    if spec != "build":
        p = Path(spec)
        return (p, "") if p.is_file() else (None, f"--edax {spec}: no such program")
    built = Path.home() / ".cache" / "gameopt-peers" / "edax" / "bin" / "lEdax-x86-64-v3"
    if built.is_file():
        return built, ""
    script = Path(__file__).resolve().parents[1] / ".." / "shared" / "peers" / "build.sh"
    if not script.is_file():
        return None, f"{script}: not found (the peers live in ../shared/peers)"
    try:
        out = subprocess.run(["bash", str(script), "edax"], capture_output=True, text=True,
                             timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"building Edax failed: {exc}"
    last = out.stdout.strip().splitlines()[-1:] if out.stdout.strip() else []
    if out.returncode != 0 or not last or not Path(last[0]).is_file():
        return None, f"building Edax failed: {(out.stderr.strip() or 'no program')[-200:]}"
    return Path(last[0]), ""


def obf_line(folder: Path, number: int) -> str:
    """FFO ``number``'s line of its shared OBF file."""
    for name, base in FFO_FILES.items():
        if base <= number < base + 20:
            lines = [ln for ln in (folder / name).read_text().splitlines()
                     if ln.strip() and not ln.startswith("%")]
            return lines[number - base]
    raise ValueError(f"FFO #{number}: not in the shared files")


_EDAX_ROW = re.compile(r"^\s*1\|\s*\d+\s+([+-]\d+)\s+\S+\s+(\d+)", re.M)
_EDAX_CPU = re.compile(r"cpu =\s*(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)\)")


def edax_solve(program: Path, line: str) -> EdaxRow:
    """Solve one OBF line with Edax, one thread, exact (``-l 60 -solve``), from its build
    directory (where ``data/eval.dat`` holds the zero weights)."""
    with tempfile.TemporaryDirectory() as tmp:
        obf = Path(tmp) / "one.obf"
        obf.write_text(line + "\n")
        out = subprocess.run([str(program), "-n", "1", "-l", "60", "-solve", str(obf)],
                             cwd=program.parent.parent, capture_output=True, text=True,
                             timeout=7200, check=True).stdout
    row = _EDAX_ROW.search(out)
    cpu = _EDAX_CPU.search(out)
    if row is None or cpu is None:
        raise RuntimeError(f"unexpected Edax output: {out[-300:]!r}")
    h, m, sec = cpu.groups()
    return EdaxRow(int(row.group(1)), int(row.group(2)),
                   3600 * int(h or 0) + 60 * int(m) + float(sec))


def compare_eval(folder: Path, first: int, last: int) -> int:
    """Part 3: heuristic [baseline] against learned evaluation, position by position."""
    evals = (SearchParams(eval_kind=EvalKind.HEURISTIC), SearchParams(eval_kind=EvalKind.PATTERN))
    for p in evals:  # compile the kernels first: the first row would pay for it
        run_ffo(folder, 1, 1, p)
    table = []
    tot = [[0, 0.0], [0, 0.0]]
    ok = 0
    for n in range(first, last + 1):
        pair = [run_ffo(folder, n, n, p)[0] for p in evals]
        for k, row in enumerate(pair):
            tot[k][0] += row.result.nodes
            tot[k][1] += row.seconds
        ok += all(r.correct for r in pair)
        h, lrn = pair
        table.append([f"#{n}", h.empties, f"{h.result.nodes:,}", f"{h.seconds:.2f}",
                      f"{lrn.result.nodes:,}", f"{lrn.seconds:.2f}",
                      f"{lrn.result.nodes / h.result.nodes:.2f}",
                      f"{lrn.seconds / h.seconds:.2f}",
                      "ok" if all(r.correct for r in pair) else "WRONG"])
        print(" ".join(str(c) for c in table[-1]), file=sys.stderr, flush=True)
    table.append([f"total #{first}-#{last}", "", f"{tot[0][0]:,}", f"{tot[0][1]:.2f}",
                  f"{tot[1][0]:,}", f"{tot[1][1]:.2f}", f"{tot[1][0] / tot[0][0]:.2f}",
                  f"{tot[1][1] / tot[0][1]:.2f}", f"{ok}/{len(table)} ok"])
    print(format_table(["FFO", "empties", "heuristic nodes [baseline]", "CPU s",
                        "learned nodes", "CPU s", "nodes ratio", "time ratio", "check"],
                       table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
