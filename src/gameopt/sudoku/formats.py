"""Reading and writing files of Sudoku puzzles.

Formats read (detected per line, so a file may mix the line formats):

* **L81** (any size): one puzzle per line, one character per cell, ``.``/``0`` empty;
  ``#`` starts a comment line.
* ``name;puzzle`` (Lloyd & Amos logic-solvable set).
* **LA** ``fixed_pct;index;c1,...,c(N*N)`` (Lloyd & Amos general instances, any size).
* ``puzzle,solution`` (McCaffrey demo) and ``hash puzzle rating`` (Sudoku Exchange bank).
* **CSV** with a header that has a ``puzzle`` (or ``quizzes``) column and optionally a
  ``solution`` (or ``solutions``) column.
* A single multi-line grid (a file whose lines are rows, with or without separators).

Every error names the file and line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from gameopt.core.files import atomic_write_text, read_text
from gameopt.errors import InvalidInputError
from gameopt.sudoku.grid import _ALPHABET, Puzzle, PuzzleSet

__all__ = ["read_puzzles", "parse_puzzles", "read_puzzle_set", "parse_puzzle_set",
           "write_puzzles", "load_puzzle_arg", "load_puzzle_set"]

#: Byte -> cell value for one-character-per-cell lines up to 9x9 (-1: not a cell).
_L81 = np.full(256, -1, dtype=np.int8)
for _ch in ".0_-*":
    _L81[ord(_ch)] = 0
for _v, _ch in enumerate(_ALPHABET[:9], start=1):
    _L81[ord(_ch)] = _v


def read_puzzles(path: str | Path) -> list[Puzzle]:
    """Read every puzzle of a file (format detected from its content).

    Raises
    ------
    InvalidInputError
        If the file cannot be read, or a line is not a valid puzzle (message names the
        file and line).
    """
    return parse_puzzles(read_text(path, "puzzle file"), source=str(path))


def read_puzzle_set(path: str | Path) -> PuzzleSet:
    """Read every puzzle of a file of one box size as a :class:`PuzzleSet`.

    Files of one 4x4 or 9x9 puzzle per line (L81) are read as one array without a
    per-puzzle object; every other format goes through :func:`read_puzzles`.

    Raises
    ------
    InvalidInputError
        As :func:`read_puzzles`, or if the file mixes box sizes.
    """
    return parse_puzzle_set(read_text(path, "puzzle file"), source=str(path))


def parse_puzzle_set(text: str, source: str = "<text>") -> PuzzleSet:
    """:func:`parse_puzzles` as a :class:`PuzzleSet` (see :func:`read_puzzle_set`)."""
    fast = _parse_l81(text, source)
    return fast if fast is not None else PuzzleSet.of(parse_puzzles(text, source))


def _parse_l81(text: str, source: str) -> PuzzleSet | None:
    """Every line a 16- or 81-character puzzle (and ``#`` comments): one array. Else None
    (the general parser then reads the text and names any bad line)."""
    lines = text.split("\n")
    numbered = [(i, ln) for i, ln in enumerate(lines, start=1)
                if ln and not ln.startswith("#")]
    if not numbered:
        return None
    width = len(numbered[0][1])
    if width not in (16, 81) or any(len(ln) != width for _, ln in numbered):
        return None
    try:
        raw = "".join(ln for _, ln in numbered).encode("ascii")
    except UnicodeEncodeError:
        return None
    cells = _L81[np.frombuffer(raw, dtype=np.uint8)].reshape(len(numbered), width)
    box = 2 if width == 16 else 3
    if cells.min() < 0 or cells.max() > box * box:
        return None
    return PuzzleSet(box, cells, tuple(f"{source}:{no}" for no, _ in numbered))


def parse_puzzles(text: str, source: str = "<text>") -> list[Puzzle]:
    """Parse puzzles from the text of a file; see the module docstring for formats."""
    lines = text.splitlines()
    first = next((ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")), "")
    header = [h.strip().lower() for h in first.split(",")]
    if "puzzle" in header or "quizzes" in header:
        return _parse_csv(text, source)
    body = [(i + 1, ln.strip()) for i, ln in enumerate(lines)
            if ln.strip() and not ln.lstrip().startswith("#")]
    if not body:
        raise InvalidInputError(f"{source}: no puzzle found")
    if _is_multiline_grid(body):
        start = body[0][0]
        return [Puzzle.from_string("\n".join(ln for _, ln in body), name=f"{source}:{start}")]
    return [_parse_line(ln, f"{source}:{no}") for no, ln in body]


def _is_multiline_grid(body: list[tuple[int, str]]) -> bool:
    """A file whose rows are a grid's rows: the first line holds too few cells for a puzzle."""
    first = body[0][1]
    cells = [ch for ch in first if not (ch.isspace() or ch in "|+")]
    return len(body) > 1 and len(cells) < 16 and ";" not in first


def _parse_line(line: str, where: str) -> Puzzle:
    if ";" in line:
        parts = line.split(";")
        if len(parts) == 3:  # LA: fixed_pct;index;cells
            name = f"{where} ({parts[0]}% #{parts[1]})"
            return Puzzle.from_string(parts[2], name=name)
        if len(parts) == 2:  # name;puzzle
            return Puzzle.from_string(parts[1], name=f"{where} ({parts[0].strip()})")
        raise InvalidInputError(f"{where}: expected 'name;puzzle' or 'pct;index;cells', "
                                f"got {len(parts)} ';'-separated fields")
    tokens = line.split()
    if len(tokens) == 3 and len(tokens[1]) in (16, 81, 256):  # hash puzzle rating
        return Puzzle.from_string(tokens[1], name=f"{where} ({tokens[0]})")
    if "," in line and len(line.split(",")) == 2:  # puzzle,solution
        puz, sol = (s.strip() for s in line.split(","))
        p = Puzzle.from_string(puz, name=where)
        s = Puzzle.from_string(sol, name=f"{where} (solution)")
        return Puzzle(p.box, p.cells, name=where, solution=s.cells)
    return Puzzle.from_string(line, name=where)


def _parse_csv(text: str, source: str) -> list[Puzzle]:
    reader = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    out = []
    for no, row in enumerate(_csv_rows(reader, source), start=1):
        if not row or row[0].startswith("#"):
            continue
        if header is None:
            header = [h.strip().lower() for h in row]
            if "puzzle" not in header and "quizzes" not in header:  # csv split it otherwise
                raise InvalidInputError(f"{source}:{no}: CSV header {row[:6]!r} has no "
                                        "'puzzle' (or 'quizzes') column")
            pcol = header.index("puzzle") if "puzzle" in header else header.index("quizzes")
            scol = next((header.index(k) for k in ("solution", "solutions") if k in header), None)
            continue
        where = f"{source}:{no}"
        if len(row) <= pcol:
            raise InvalidInputError(f"{where}: missing puzzle column")
        p = Puzzle.from_string(row[pcol].strip(), name=where)
        if scol is not None and len(row) > scol and row[scol].strip():
            s = Puzzle.from_string(row[scol].strip(), name=f"{where} (solution)")
            p = Puzzle(p.box, p.cells, name=where, solution=s.cells)
        out.append(p)
    if not out:
        raise InvalidInputError(f"{source}: no puzzle found")
    return out


def _csv_rows(reader: Iterable[list[str]], source: str) -> Iterable[list[str]]:
    """The rows of ``reader``; csv's own errors (a field over its size limit) as ours."""
    try:
        yield from reader
    except csv.Error as e:
        raise InvalidInputError(f"{source}: not CSV ({e})") from None


def write_puzzles(path: str | Path, puzzles: Iterable[Puzzle | np.ndarray],
                  box: int | None = None) -> None:
    """Write puzzles one per line (L81 style; LA-style numbers for sides above 35).

    The file is written to a temporary name and renamed, so it is never half-written.
    """
    p = Path(path)
    lines = []
    for item in puzzles:
        puz = item if isinstance(item, Puzzle) else Puzzle(box or 3, item)
        lines.append(puz.to_line())
    atomic_write_text(p, "\n".join(lines) + "\n")


def load_puzzle_arg(arg: str) -> list[Puzzle]:
    """A CLI argument that is either a puzzle string or the path of a puzzle file."""
    given = _argument(arg)
    return [given] if isinstance(given, Puzzle) else read_puzzles(given)


def load_puzzle_set(arg: str) -> PuzzleSet:
    """:func:`load_puzzle_arg` as a :class:`PuzzleSet` (a file of one box size)."""
    given = _argument(arg)
    return PuzzleSet.of([given]) if isinstance(given, Puzzle) else read_puzzle_set(given)


def _argument(arg: str) -> Puzzle | Path:
    """The puzzle written in ``arg``, or the path of an existing file."""
    path = Path(arg)
    stripped = arg.strip()
    try:
        exists = path.exists()
    except OSError:  # a name too long for the file system is no file: a puzzle, if any
        exists = False
    if len(stripped) >= 16 and not exists and "/" not in stripped:
        return Puzzle.from_string(stripped, name="puzzle")
    if not exists:
        raise InvalidInputError(f"{arg!r}: not a puzzle (16, 81, 256... cells) and no such file")
    return path
