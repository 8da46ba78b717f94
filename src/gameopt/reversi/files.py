"""Othello files: OBF position suites (Edax) and GGF game records (GGS, NBoard).

OBF ("Othello Board File", Edax ``problem/*.obf``)
    One position per line: the board (64 squares ``X``/``O``/``-``, a1 to h8) and the side
    to move, then ``move:score`` pairs (the exact final disc difference for the side to move
    after that move, best first), each field ending in ``;``; text after ``%`` is a comment::

        O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;

    Blank lines and lines starting with ``%`` or ``#`` are skipped. Moves are written upper
    case (``G8``, ``PS`` for a pass) and scores signed (``+18``, ``+0``), as Edax does.

GGF ("Generic Game Format", GGS and the NBoard protocol)
    ``(;GM[Othello]PB[a]PW[b]RE[+4.000]BO[8 -------- ... ---O*--- ---*O--- ... *]B[F5//1.23]
    W[D6/0.5/2.1]B[PA];)``: ``BO`` holds the size, the 64 squares (``*`` black, ``O`` white,
    ``-`` empty; rows split by spaces or, as NBoard sends them, not) and the side to move;
    ``B``/``W`` the moves as ``square/eval/time`` (both optional; ``PA`` a pass); ``RE`` the
    result for black (``+4.000``, with ``:r``/``:t``/``:s`` for resigned, time out, agreed).
    Other properties are kept as tags. A text may hold several games, on one line or many.

References
----------
R. Delorme, Edax 4.4, ``src/obftest.c`` (the OBF format).
M. Buro, "Generic Game Format", GGS documentation, https://skatgame.net/mburo/ggsa/ggf.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import InitVar, dataclass, field
from pathlib import Path

from gameopt.core.files import atomic_write_text, read_text
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import BLACK, Board, Move

__all__ = [
    "ObfEntry", "parse_obf_line", "format_obf_line", "read_obf", "write_obf",
    "GgfGame", "parse_ggf", "format_ggf", "read_ggf", "write_ggf",
]

def _flat(text: str) -> str:
    """Property text on one line for a message (a line break written ``\\n``)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


_SCORE = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII: \d also takes ١ and ２


def _board(text: str, where: str) -> Board:
    """64 squares (spaces between rows allowed), a space, the side to move."""
    *rows, side = text.split() or [""]
    squares = "".join(rows) if rows else side[:64]
    side = side if rows else side[64:]
    if len(side) != 1 and len(squares) + len(side) == 64:
        raise InvalidInputError(f"{where}: the side to move (X or O) is missing after the "
                                "64 squares")
    if len(squares) != 64:
        raise InvalidInputError(f"{where}: {len(squares)} squares, expected 64")
    if len(side) != 1:
        raise InvalidInputError(f"{where}: side to move {side!r} is not X or O")
    return Board.from_str(squares + side, where)


def _move_name(move: Move) -> str:
    return str(move).upper()


# ---------------------------------------------------------------------------------- OBF
def _check_scores(board: Board, scores: tuple[tuple[Move, int], ...], where: str) -> None:
    """Raise unless every move is legal in ``board``, listed once, scored in -64..64."""
    legal = board.legal_moves()
    seen: set[Move] = set()
    for move, score in scores:
        if move not in legal:
            raise InvalidInputError(f"{where}: move {_move_name(move)} is illegal for "
                                    f"{board.side} in {board}")
        if move in seen:
            raise InvalidInputError(f"{where}: move {_move_name(move)} is listed twice")
        seen.add(move)
        if isinstance(score, bool) or not isinstance(score, int) or not -64 <= score <= 64:
            raise InvalidInputError(f"{where}: score {score!r} of {_move_name(move)} is not "
                                    "an integer in -64..64")


@dataclass(frozen=True)
class ObfEntry:
    """One OBF line: a position and the exact scores of some of its moves.

    Attributes
    ----------
    board : Board
        The position.
    scores : tuple of (Move, int)
        ``(move, score)`` pairs in file order (best first); the score is the final disc
        difference for the side to move with perfect play after that move.
    line : int
        Line number in the file it was read from (0 if none); not compared.
    comment : str
        The text after ``%`` on the line, ``""`` if none (stored stripped).
    where : str, optional
        Names the source in error messages (init only, not stored).

    Raises
    ------
    InvalidInputError
        If a move is illegal or repeated, a score is outside -64..64, or the comment holds
        a line break.
    """

    board: Board
    scores: tuple[tuple[Move, int], ...] = ()
    line: int = field(default=0, compare=False)
    comment: str = ""
    where: InitVar[str] = "ObfEntry"

    def __post_init__(self, where: str) -> None:
        object.__setattr__(self, "scores", tuple((m, s) for m, s in self.scores))
        object.__setattr__(self, "comment", self.comment.strip())
        _check_scores(self.board, self.scores, where)
        if "\n" in self.comment or "\r" in self.comment:
            raise InvalidInputError(f"{where}: comment {self.comment!r} holds a line break")

    @property
    def best_score(self) -> int | None:
        """The best listed score (the game value when all moves are listed), or ``None``."""
        return max((s for _, s in self.scores), default=None)

    @property
    def best_moves(self) -> list[Move]:
        """Every listed move whose score is :attr:`best_score`, in file order."""
        best = self.best_score
        return [m for m, s in self.scores if s == best]


def parse_obf_line(text: str, where: str = "OBF", line: int = 0) -> ObfEntry:
    """Read one OBF line, ``<64 squares> <side>; <move>:<score>; ... [% comment]``.

    Parameters
    ----------
    text : str
        The line.
    where, line : str, int
        Its file and line number (1-based; 0 if none), named in errors; ``line`` is stored.

    Raises
    ------
    InvalidInputError
        Naming ``where``, the line and the fault: board length, unknown character (with its
        square), missing or bad side, malformed ``move:score`` pair, score not an integer in
        -64..64, illegal or repeated move.
    """
    loc = f"{where}: line {line}" if line else where
    body, _, comment = text.partition("%")
    fields = [f.strip() for f in body.split(";")]
    board = _board(fields[0], loc)
    scores: list[tuple[Move, int]] = []
    for f in filter(None, fields[1:]):
        move_text, colon, score_text = f.partition(":")
        score_text = score_text.strip()
        if not colon or not move_text.strip():
            raise InvalidInputError(f"{loc}: {f!r} is not a move:score pair")
        move = Move.from_str(move_text, loc)
        if not _SCORE.fullmatch(score_text):
            raise InvalidInputError(f"{loc}: score {score_text!r} of {move_text.strip()} is "
                                    "not an integer")
        scores.append((move, int(score_text)))
    return ObfEntry(board, tuple(scores), line, comment.strip(), loc)


def format_obf_line(entry: ObfEntry) -> str:
    """The OBF line of ``entry`` (no newline), as Edax writes it: ``... X; G8:+18; H1:+12;``."""
    pairs = "".join(f" {_move_name(m)}:{s:+d};" for m, s in entry.scores)
    comment = f" % {entry.comment}" if entry.comment else ""
    return f"{entry.board};{pairs}{comment}"


def read_obf(path: str | Path) -> list[ObfEntry]:
    """Every position of an OBF file, skipping blank lines and ``%``/``#`` comment lines.

    Raises :class:`InvalidInputError` if the file cannot be read or a line is bad (naming
    the file and line number). O(lines): one legal-move generation per line.
    """
    entries = []
    for n, text in enumerate(read_text(path, "OBF file").splitlines(), 1):
        stripped = text.strip()
        if stripped and stripped[0] not in "%#":
            entries.append(parse_obf_line(stripped, str(path), n))
    return entries


def write_obf(path: str | Path, entries: Iterable[ObfEntry]) -> None:
    """Write ``entries`` one per line, whole or not at all (:func:`atomic_write_text`)."""
    atomic_write_text(path, "".join(format_obf_line(e) + "\n" for e in entries))


# ---------------------------------------------------------------------------------- GGF
def _replay(start: Board, moves: tuple[Move, ...], where: str) -> Board:
    """The board after ``moves``; raise naming the move number if one is illegal."""
    board = start
    for k, move in enumerate(moves, 1):
        legal = board.legal_moves()
        if move not in legal:
            colour = "B" if board.side == BLACK else "W"
            why = "the game is over" if not legal else f"illegal for {board.side} in {board}"
            raise InvalidInputError(f"{where}: move {k} {colour}[{_ggf_move(move)}]: {why}")
        board = board.play(move)
    return board


def _ggf_move(move: Move) -> str:
    return "PA" if move.is_pass else _move_name(move)


@dataclass(frozen=True)
class GgfGame:
    """A game record: start position, legal moves, properties, per-move evals and times.

    Attributes
    ----------
    start : Board
        The position of ``BO[...]``.
    moves : tuple of Move
        The moves in order, passes (:data:`PASS`) explicit; each legal in turn.
    tags : dict of str to str
        Every other property (``GM``, ``PB``, ``PW``, ``RE``, ``TI``...) in file order.
    evals, times : tuple of float or None
        The optional evaluation and time (seconds) of each move (empty: all ``None``).
    where : str, optional
        Names the source in error messages (init only, not stored).

    Raises
    ------
    InvalidInputError
        If a move is illegal (naming its number), ``evals``/``times`` do not match ``moves``
        in length or hold a non-finite number, a tag name is not upper-case letters or is
        ``B``/``W``/``BO``, or ``GM`` is not Othello.

    Notes
    -----
    Frozen but not hashable (``tags`` is a dict).
    """

    start: Board
    moves: tuple[Move, ...] = ()
    tags: dict[str, str] = field(default_factory=lambda: {"GM": "Othello"})
    evals: tuple[float | None, ...] = ()
    times: tuple[float | None, ...] = ()
    where: InitVar[str] = "GgfGame"

    def __post_init__(self, where: str) -> None:
        n = len(self.moves)
        object.__setattr__(self, "moves", tuple(self.moves))
        object.__setattr__(self, "tags", dict(self.tags))  # a copy: the caller's may change
        for name in ("evals", "times"):
            values = tuple(getattr(self, name)) or (None,) * n
            if len(values) != n:
                raise InvalidInputError(f"{where}: {len(values)} {name} for {n} moves")
            if any(x is not None and not math.isfinite(x) for x in values):
                raise InvalidInputError(f"{where}: {name} {values} hold a non-finite number")
            object.__setattr__(self, name, tuple(None if x is None else float(x) for x in values))
        for key in self.tags:
            if not re.fullmatch("[A-Z]+", key) or key in ("B", "W", "BO"):
                raise InvalidInputError(f"{where}: {key!r} is not a tag name (A-Z, not B/W/BO)")
        if self.tags.get("GM", "Othello").lower() != "othello":
            raise InvalidInputError(f"{where}: GM[{_flat(self.tags['GM'])}] is not an "
                                    "Othello game")
        _replay(self.start, self.moves, where)

    def final_board(self) -> Board:
        """The position after every move. O(moves)."""
        return _replay(self.start, self.moves, "GgfGame")

    @property
    def result(self) -> float | None:
        """Black's final disc difference, ``None`` if unknown.

        The number in ``RE`` if there is one, else counted on the final board if the game
        is over (empties to the winner).
        """
        m = re.match(r"\s*([+-]?\d+(?:\.\d*)?)", self.tags.get("RE", ""))
        if m:
            return float(m.group(1))
        board = self.final_board()
        score = board.black_score()
        return float(score) if board.is_game_over() else None


_NONSPACE = re.compile(r"\S")
_GAME_START = re.compile(r"\(\s*;")
_GAME_END = re.compile(r"\s*;\s*\)")
_PROPERTY = re.compile(r"\s*([A-Za-z]+)\[((?:[^\]\\]|\\.)*)\]", re.DOTALL)
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)


def _number(text: str, what: str, where: str) -> float | None:
    """``''`` -> None; a finite float; ``[[h:]m:]s`` clock times in seconds."""
    if not text.strip():
        return None
    try:
        value = 0.0
        for part in text.strip().split(":"):
            value = 60 * value + float(part)
    except ValueError:
        raise InvalidInputError(f"{where}: {what} {text!r} is not a number") from None
    if not math.isfinite(value):
        raise InvalidInputError(f"{where}: {what} {text!r} is not a finite number")
    return value


def _parse_move(value: str, where: str) -> tuple[Move, float | None, float | None]:
    """``square[/eval[/time]]`` of ``B[...]``/``W[...]``."""
    parts = value.split("/")
    if len(parts) > 3:
        raise InvalidInputError(f"{where}: expected square/eval/time")
    parts += [""] * (3 - len(parts))
    return Move.from_str(parts[0], where), _number(parts[1], "eval", where), \
        _number(parts[2], "time", where)


def _parse_game(props: list[tuple[str, str]], where: str) -> GgfGame:
    tags: dict[str, str] = {}
    start: Board | None = None
    raw: list[tuple[str, str]] = []  # (colour, value) of each move
    for key, value in props:
        if key in ("B", "W"):
            raw.append((key, value))
        elif key == "BO":
            size, _, squares = value.strip().partition(" ")
            if start is not None or size != "8":
                raise InvalidInputError(f"{where}: BO[{_flat(value)}]: a second BO or a size other "
                                        "than 8")
            start = _board(squares, f"{where}: BO")
        elif key in tags:
            raise InvalidInputError(f"{where}: property {key} given twice")
        else:
            tags[key] = value
    if start is None:
        raise InvalidInputError(f"{where}: no BO[...] start position")
    parsed = [_parse_move(v, f"{where}: move {k} {c}[{_flat(v)}]")
              for k, (c, v) in enumerate(raw, 1)]
    # Passes are explicit, so the colours alternate; check the moves before the first
    # wrong colour (an earlier illegal move is the error to report), then the colour.
    first = "B" if start.side == BLACK else "W"
    bad = next((k for k, (c, _) in enumerate(raw) if (c == first) != (k % 2 == 0)), None)
    moves, evals, times = zip(*parsed[:bad], strict=True) if parsed[:bad] else ((), (), ())
    game = GgfGame(start, tuple(moves), tags, tuple(evals), tuple(times), where)
    if bad is not None:
        mover = "white" if raw[bad][0] == "B" else "black"
        raise InvalidInputError(f"{where}: move {bad + 1} {raw[bad][0]}[{raw[bad][1]}]: "
                                f"{mover} is to move (a pass is written {mover[0].upper()}[PA])")
    return game


def parse_ggf(text: str, where: str = "GGF") -> list[GgfGame]:
    """Every game of a GGF text (``(;...;)`` records, on one line or many).

    Parameters
    ----------
    text : str
        One or more games, separated by white space (e.g. one NBoard ``set game`` line).
    where : str
        Where the text comes from (a file name), for error messages.

    Raises
    ------
    InvalidInputError
        Naming ``where``, the game number (1-based) and its line, and the fault: bad syntax,
        no or bad ``BO``, a game other than Othello, a repeated property, a move that is not
        a square, a colour that is not the side to move, an illegal move (with its number).

    Notes
    -----
    O(len(text) + moves); the moves of each game are replayed once.
    """
    games: list[GgfGame] = []
    pos = line_start = 0
    line = 1  # the line of ``line_start``, counted incrementally: O(len(text)) in all
    while nonspace := _NONSPACE.search(text, pos):
        pos = nonspace.start()
        line, line_start = line + text.count("\n", line_start, pos), pos
        ctx = f"{where}: game {len(games) + 1} (line {line})"
        if not (m := _GAME_START.match(text, pos)):
            found = text[pos:pos + 20]
            raise InvalidInputError(f"{ctx}: expected '(;' to start a game, found {found!r}")
        pos = m.end()
        props: list[tuple[str, str]] = []
        while not (end := _GAME_END.match(text, pos)):
            if not (p := _PROPERTY.match(text, pos)):
                at = line + text.count("\n", line_start, pos)
                rest = text[pos:].lstrip()[:20]
                found = repr(rest) if rest else "the end"
                raise InvalidInputError(f"{ctx}: line {at}: expected a property or ';)', "
                                        f"found {found}")
            props.append((p.group(1).upper(), _UNESCAPE.sub(r"\1", p.group(2))))
            pos = p.end()
        pos = end.end()
        games.append(_parse_game(props, ctx))
    return games


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _format_number(x: float | None) -> str:
    return "" if x is None else repr(float(x))


def format_ggf(game: GgfGame) -> str:
    """The game as one GGF line (no newline): tags in order, ``BO``, then the moves.

    Moves are written upper case (``F5``, ``PA`` for a pass) with ``/eval/time`` when
    known; :func:`parse_ggf` reads the line back to an equal game.
    """
    squares = str(game.start).replace("X", "*")
    rows = " ".join(squares[r:r + 8] for r in range(0, 64, 8))
    out = ["(;"]
    out += [f"{k}[{_escape(v)}]" for k, v in game.tags.items()]
    out.append(f"BO[8 {rows} {squares[-1]}]")
    colours = "BW" if game.start.side == BLACK else "WB"
    for k, (move, ev, t) in enumerate(zip(game.moves, game.evals, game.times, strict=True)):
        value = _ggf_move(move)
        if t is not None:
            value += f"/{_format_number(ev)}/{_format_number(t)}"
        elif ev is not None:
            value += f"/{_format_number(ev)}"
        out.append(f"{colours[k % 2]}[{value}]")
    out.append(";)")
    return "".join(out)


def read_ggf(path: str | Path) -> list[GgfGame]:
    """Every game of a GGF file; errors name the file, game, line and move number."""
    return parse_ggf(read_text(path, "GGF file"), str(path))


def write_ggf(path: str | Path, games: Iterable[GgfGame]) -> None:
    """Write ``games`` one per line, whole or not at all (:func:`atomic_write_text`)."""
    atomic_write_text(path, "".join(format_ggf(g) + "\n" for g in games))

