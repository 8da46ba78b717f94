"""Write the fuzz seed corpus of files gameopt itself writes into ``tests/data/fuzz``.

Seeds that are cheap to make (Sudoku lines from the shared data, text Go boards...) are
made by the targets at run time; this script makes the ones that need a solver run
(a paired tournament, MSP boards) or a cut of a large shared file (MDPLIB), so a fuzz run
starts in a second. Run it again after a format changes::

    python -m benchmarks.fuzz.make_seeds [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import random
import shutil
import tempfile
from pathlib import Path

from gameopt.cli.main import main as cli
from gameopt.deck.formats import write_collection, write_decks, write_pool, write_scores
from gameopt.deck.scores import deck_scores
from gameopt.deck.synth import synthesize
from gameopt.go import check_msp_board, solve_msp
from gameopt.go.sgf import write_sgf
from gameopt.go.text import write_text
from gameopt.reversi.files import read_ggf, read_obf, write_ggf, write_obf

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "fuzz"


def _quiet(argv: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli(argv)
    if code != 0:
        raise SystemExit(f"gameopt {' '.join(argv)} exited {code}")


def pairing(out: Path) -> None:
    """A 12-player, 3-round event: players and results CSVs, .ELO, TRF, the SQLite store."""
    rng = random.Random(20)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        db = tmp / "event.sqlite"
        players = out / "players.csv"
        players.write_text("name,id,country,rating\n" + "".join(
            f"Player {i},{1000 + i},{rng.choice(['JPN', 'FRA', 'USA'])},"
            f"{1400 + rng.randint(0, 600)}\n" for i in range(1, 13)))
        _quiet(["pair", "new", str(db), "--name", "Fuzz Open", "--country", "FRA",
                "--date", "2026-11-24", "--rounds", "5"])
        _quiet(["pair", "add", str(db), "--csv", str(players)])
        for k in (1, 2, 3):
            _quiet(["pair", "pair", str(db)])
            sheet = tmp / "sheet.csv"
            _quiet(["pair", "export", str(db), "--pairing-csv", str(sheet)])
            lines = sheet.read_text().splitlines()[1:]
            results = out / "results.csv"
            results.write_text("who,black,white\n" + "".join(
                f"{ln.split(',')[1]},{(b := rng.choice([20, 33, 40, 64]))},{64 - b}\n"
                for ln in lines))
            if k < 3:
                _quiet(["pair", "result", str(db), str(k), "--csv", str(results)])
        _quiet(["pair", "export", str(db), "--elo", str(out / "event.elo"),
                "--trf", str(out / "event.trf")])
        shutil.copyfile(db, out / "event.sqlite")
    (out / "penalties.toml").write_text(
        'preset = "slim"\np_und = [0, 100, 400, 900, 1600]\n'
        "p_chauv = [20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 20, 1000000, 1000000]\n")


def deck(out: Path, data: Path) -> None:
    """A small synthetic pool, collection, decks, scores (NPZ dense and sparse, CSV) and a
    20-point cut of a shared MDPLIB instance (text and gzip)."""
    out.mkdir(parents=True, exist_ok=True)
    synth = synthesize(5, kinds=160, collection=60, decks=80, archetypes=2)
    write_pool(out / "pool.csv", synth.pool)
    write_pool(out / "pool.json", synth.pool)
    write_collection(out / "collection.csv", synth.collection)
    write_collection(out / "collection.json", synth.collection)
    write_decks(out / "decks.csv", synth.decks)
    scores = deck_scores(synth.decks, synth.pool.ids)
    write_scores(out / "scores.npz", scores)
    write_scores(out / "scores-sparse.npz", scores, sparse=True)
    write_scores(out / "scores.csv", scores)
    lines = (out / "scores.csv").read_text().splitlines(keepends=True)
    (out / "scores.csv").write_text("".join(lines[:400]))  # a cut: fast to parse
    src = data / "mdp" / "GKD-c_1_n500_m50.txt.gz"
    if src.exists():
        lines = gzip.decompress(src.read_bytes()).decode().splitlines()
        keep = [ln for ln in lines[1:] if ln.split() and all(
            int(float(v)) < 20 for v in ln.split()[:2])]
        text = "20 5\n" + "\n".join(keep) + "\n"
        (out / "mdp.txt").write_text(text)
        (out / "mdp.txt.gz").write_bytes(gzip.compress(text.encode(), mtime=0))


def go(out: Path) -> None:
    """MSP boards (5x5, 7x7, 4x6) as SGF and text."""
    out.mkdir(parents=True, exist_ok=True)
    for m, n in ((5, 5), (7, 7), (4, 6), (16, 16)):
        board = check_msp_board(solve_msp(m, n, "construct" if m >= 16 else "dp"))
        write_text(out / f"msp{m}x{n}.txt", board)
        if m == n:
            write_sgf(out / f"msp{m}x{n}.sgf", board, comment=f"MSP({m}x{n}), gameopt")


def reversi(out: Path, data: Path) -> None:
    """Five OBF lines of the shared FFO suite, the GGF sample rewritten by gameopt, and a
    small opening book (depth 4)."""
    out.mkdir(parents=True, exist_ok=True)
    obf = data / "reversi" / "fforum-40-59.obf"
    if obf.exists():
        write_obf(out / "ffo.obf", read_obf(obf)[:5])
    write_ggf(out / "games.ggf", read_ggf(ROOT / "tests" / "data" / "reversi" / "sample.ggf"))
    _quiet(["reversi", "book", "build", "--depth", "4", "--eval-depth", "2", "--width", "1",
            "-o", str(out / "book.npz")])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = ap.parse_args()
    pairing(OUT / "pairing")
    deck(OUT / "deck", args.data)
    go(OUT / "go")
    reversi(OUT / "reversi", args.data)
    for p in sorted(OUT.rglob("*")):
        if p.is_file():
            print(f"{p.relative_to(ROOT)}  {p.stat().st_size} bytes")


if __name__ == "__main__":
    main()
