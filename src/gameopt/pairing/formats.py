"""The pairing system's files, read and written: CSV sheets, text tables, WOF ``.ELO``, TRF.

One module for every format, with one naming scheme: ``format_x(value) -> str`` and
``parse_x(text, source) -> value`` work on text; ``write_x(path, value)`` (path first)
writes a file atomically (a temporary file in the same directory, flushed to disk, then
renamed over the target, so a reader never sees half a file) and ``read_x(path)`` reads
one through :func:`gameopt.core.read_text` (one wording for a missing or unreadable
file). Every parser names the file and line of a bad record.

========================  =====================================  =====================
format                    text                                   file
========================  =====================================  =====================
pairing (text table)      :func:`format_pairing`
penalty terms (text)      :func:`format_pairing_terms`
the run (text)            :func:`format_pairing_run`
pairing (CSV)             :func:`format_pairing_csv`             :func:`write_pairing_csv`
standings (text table)    :func:`format_standings`
standings (CSV)           :func:`format_standings_csv`           :func:`write_standings_csv`
players sheet (CSV)       :func:`parse_players_csv`              :func:`read_players_csv`
results sheet (CSV)       :func:`parse_results_csv`              :func:`read_results_csv`
WOF ``.ELO``              :func:`format_elo`, :func:`parse_elo`  :func:`write_elo`
FIDE TRF-16               :func:`format_trf`, :func:`parse_trf`  :func:`write_trf`
either, by extension                                             :func:`read_tournament_file`,
                                                                 :func:`write_tournament_file`
========================  =====================================  =====================

Players sheet: one player a line, ``name[,id,country,rating]`` (an optional header line
naming the columns, blank lines and ``#`` comments skipped); the entries are what
:meth:`~gameopt.pairing.store.Tournament.add_players` takes. Results sheet: one game a
line, ``who,black,white``: the table number or a player's id or name, then black's and
white's discs; the rows are what :meth:`~gameopt.pairing.store.Tournament.set_results`
takes.

World Othello Federation results file (``.ELO``)
------------------------------------------------
As the WOF ratings officer asks (E. Lazard, "Results file format", World Othello
Federation ratings page): four header lines ::

    %%Tournament: Paris Open
    %%Country: FRA
    %%Date: 21/11/2002
    %%Sender: gameopt

then blank lines, comments (a line starting with ``%``) and one game per line ::

    3752 (42)>(22) 1024 B

the first player's id and discs, ``>``/``<``/``=`` for a win/loss/draw of the first
player, the second player's discs and id, and the first player's colour (``B``/``W``).
We write black first. Byes, forfeits and unplayed games are not rated, so they are not
games in the file. Our own comments carry what the format has no room for, and other
readers skip them: ``%Round k`` before each round's games, ``%Player: <id> <country or
-> <name>`` for each player, ``%Bye: <id>`` for a bye, ``%Forfeit: <black> <white>
<B|W|0>`` for a forfeit (who won: black, white, neither), ``%Withdrawn: <id> <round>``
and ``%Late: <id> <round> <half points>`` for withdrawals and late entries. A round
whose games have no result yet is not written (nor its bye). On reading, a file
without ``%Round`` lines is cut into rounds greedily (a new round starts when a player
would play twice); players not listed get their id as name. The result sign must agree
with the discs, and the discs must add up (each 0..64, sum ≤ 64).

TRF
---
:func:`format_trf` writes FIDE's TRF-16 with our extension records (described in
:mod:`gameopt.pairing.trf`); :func:`parse_trf` reads those, other programs' TRF-16
files, and the older TRF-like layout below, which earlier versions wrote (recognised
by its ``XXW`` record).

The older TRF-like layout, modelled on FIDE's Tournament Report File (TRF16): one record
per line, a three character code in columns 1-3. Header records (value from column 5)::

    012 tournament name          032 country          042 date (YYYY-MM-DD)
    062 number of players        XXR planned rounds
    XXW name=33 rating=4 country=3 id=11      widths of the text columns (see below)
    XXM <round> <method>          one per paired round (the pairing method)
    XXF <id> <id>                 a forbidden pair
    XXL <start rank> <first round> <given score in half points>   a late entry
    XXD <start rank> <round>      withdrawn from that round on

Player records ``001``, fixed columns (1-based; with the default widths they are TRF16's
columns up to the rank): 1-3 ``001``; 5-8 start rank (entry order); 10 sex and 11-13
title (blank); 15-47 name (``name`` wide); then, each after one blank, rating (``rating``
wide, blank if none), country (``country`` wide), id (``id`` wide, right-aligned),
birth date (10, blank), points (4, e.g. ``4.5``), rank (4) — points and rank are written
for people and ignored on reading. Then one 21-character block per round ::

    ␣␣oooo␣c␣r␣dd-ee␣tttt

``oooo`` the opponent's start rank (``0000`` for a bye), ``c`` the colour (``b``,
``w``, ``-`` for a bye), ``r`` the result (``1`` win, ``0`` loss, ``=`` draw, ``U`` bye,
``?`` not yet played), ``dd-ee`` own and opponent's discs as entered (blank until
played, and for a bye), ``tttt`` the table. A round without a game is 21 blanks. A
column is widened for the whole file (``XXW``) when a value does not fit, so a file
always reads back exactly. Pairing costs and their terms are not carried.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gameopt.core.files import atomic_write_text, read_bytes, read_text
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE, Pairing
from gameopt.pairing.records import MAX_NAME, GameRecord, Outcome, PlayerRecord, check_discs
from gameopt.pairing.standings import DEFAULT_TIEBREAKS, Standing, compute_standings
from gameopt.pairing.store import RoundRecord, Tournament, TournamentData, TournamentInfo
from gameopt.pairing.trf import _float as _ascii_float
from gameopt.pairing.trf import _int as _ascii_int
from gameopt.pairing.trf import format_trf16, parse_trf16

__all__ = [
    "format_elo",
    "format_pairing",
    "format_pairing_csv",
    "format_pairing_run",
    "format_pairing_terms",
    "format_standings",
    "format_standings_csv",
    "format_trf",
    "import_tournament",
    "parse_elo",
    "parse_players_csv",
    "parse_results_csv",
    "parse_trf",
    "read_players_csv",
    "read_results_csv",
    "read_sheet_text",
    "read_tournament_file",
    "write_elo",
    "write_pairing_csv",
    "write_standings_csv",
    "write_trf",
    "write_tournament_file",
]


# ------------------------------------------------------------------ files
def read_tournament_file(path: str | Path) -> TournamentData:
    """Read a ``.elo`` file (WOF) or any other extension as TRF (:func:`parse_trf`)."""
    p = Path(path)
    text = read_text(p, "tournament file")
    return parse_elo(text, str(p)) if p.suffix.lower() == ".elo" else parse_trf(text, str(p))


def write_tournament_file(path: str | Path, data: TournamentData) -> None:
    """Write ``data`` as ``.elo`` (WOF) or, for any other extension, FIDE TRF-16."""
    if Path(path).suffix.lower() == ".elo":
        write_elo(path, data)
    else:
        write_trf(path, data)


def write_elo(path: str | Path, data: TournamentData, sender: str = "gameopt") -> None:
    """Write the WOF results file of ``data`` (:func:`format_elo`), whatever the extension."""
    atomic_write_text(path, format_elo(data, sender))


def write_trf(path: str | Path, data: TournamentData) -> None:
    """Write the TRF-16 file of ``data`` (:func:`format_trf`), whatever the extension."""
    atomic_write_text(path, format_trf(data))


def write_pairing_csv(path: str | Path, pairing: Pairing, players: Sequence[PlayerRecord],
                      standings: Sequence[Standing] | None = None) -> None:
    """Write :func:`format_pairing_csv` of the round to ``path``."""
    atomic_write_text(path, format_pairing_csv(pairing, players, standings))


def write_standings_csv(path: str | Path, rows: Sequence[Standing],
                        tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS) -> None:
    """Write :func:`format_standings_csv` of the standings to ``path``."""
    atomic_write_text(path, format_standings_csv(rows, tiebreaks))


def import_tournament(source: str | Path, store_path: str | Path) -> Tournament:
    """A new tournament file at ``store_path`` from a ``.elo`` or TRF-like file."""
    return Tournament.from_data(store_path, read_tournament_file(source))


# ------------------------------------------------------------------ text and CSV
def _points(half: int) -> str:
    return f"{half / 2:.1f}"


def _pairing_rows(pairing: Pairing, players: Sequence[PlayerRecord],
                  standings: Sequence[Standing] | None) -> list[list[object]]:
    names = {p.id: p.name for p in players}
    score = {s.id: _points(s.score) for s in standings or ()}
    rows: list[list[object]] = []
    for t in sorted(pairing.tables, key=lambda t: t.number):
        white = ["BYE", "", ""] if t.white == BYE else [
            names.get(t.white, t.white), t.white, score.get(t.white, "")]
        rows.append([t.number, names.get(t.black, t.black), t.black,
                     score.get(t.black, ""), *white, t.cost])
    return rows


_PAIRING_HEAD = ["table", "black", "black_id", "black_points", "white", "white_id",
                 "white_points", "cost"]


def format_pairing(pairing: Pairing, players: Sequence[PlayerRecord],
                   standings: Sequence[Standing] | None = None) -> str:
    """The round's tables as a text table (points from ``standings`` if given)."""
    head = f"Round {pairing.round_no} ({pairing.method}, total cost {pairing.total_cost})"
    return head + "\n\n" + format_table(_PAIRING_HEAD,
                                        _pairing_rows(pairing, players, standings)) + "\n"


def format_pairing_terms(pairing: Pairing, players: Sequence[PlayerRecord]) -> str:
    """Why this pairing: one line per table with its cost and the penalty terms in it."""
    names = {p.id: p.name for p in players}
    lines = []
    for t in pairing.tables:
        terms = ", ".join(f"{k} {v}" for k, v in t.terms.items() if v) or "no penalty"
        lines.append(f"table {t.number}: {names.get(t.black, t.black)} - "
                     f"{names.get(t.white, t.white)}: cost {t.cost} = {terms}\n")
    return "".join(lines)


def format_pairing_run(pairing: Pairing) -> str:
    """The run that made ``pairing``: method, time and its clock, proof, statistics.

    >>> print(format_pairing_run(Pairing(3, (), 204, "exact", 0.0125, "cpu", True, 204.0,
    ...                                  {"players": 8, "edges": 28, "kept_edges": 9})),
    ...       end="")
    round 3: exact, 0.013 s (cpu), proven optimal (total 204); players 8, edges 28, kept_edges 9
    """
    proof = (f"proven optimal (total {pairing.total_cost})" if pairing.proven
             else f"not proven optimal (total {pairing.total_cost})")
    stats = ", ".join(f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
                      for k, v in pairing.stats.items())
    return (f"round {pairing.round_no}: {pairing.method}, {pairing.seconds:.3f} s "
            f"({pairing.clock}), {proof}" + (f"; {stats}" if stats else "") + "\n")


def format_pairing_csv(pairing: Pairing, players: Sequence[PlayerRecord],
                       standings: Sequence[Standing] | None = None) -> str:
    """The round's tables as CSV, one row per table, with a header row."""
    return _csv(["round", *_PAIRING_HEAD],
                [[pairing.round_no, *r] for r in _pairing_rows(pairing, players, standings)])


def _standing_rows(rows: Sequence[Standing], tiebreaks: Sequence[str]) -> list[list[object]]:
    out: list[list[object]] = []
    for s in rows:
        tb = [f"{s.brightwell:g}" if t == "brightwell" else _points(s.buchholz)
              if t == "buchholz" else s.discs for t in tiebreaks]
        out.append([s.rank, s.name, s.id, s.country or "", _points(s.score), *tb,
                    f"{s.wins}-{s.draws}-{s.losses}", s.byes, "W" if s.withdrawn else ""])
    return out


def format_standings(rows: Sequence[Standing],
                     tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS) -> str:
    """The standings as a text table: points, the tie-breaks, W-D-L, byes, withdrawn."""
    head = ["rank", "name", "id", "country", "points", *tiebreaks, "w-d-l", "byes", "out"]
    return format_table(head, _standing_rows(rows, tiebreaks)) + "\n"


def format_standings_csv(rows: Sequence[Standing],
                         tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS) -> str:
    """The standings as CSV (same columns as :func:`format_standings`)."""
    head = ["rank", "name", "id", "country", "points", *tiebreaks, "w-d-l", "byes",
            "withdrawn"]
    return _csv(head, _standing_rows(rows, tiebreaks))


# ------------------------------------------------------------------ players and results sheets
_PLAYER_FIELDS = ("name", "id", "country", "rating")
_RESULT_FIELDS = ("who", "black", "white")


def parse_players_csv(text: str, source: str = "<text>") -> list[dict[str, Any]]:
    """Player entries (``name`` and, when given, ``id``, ``country``, ``rating``) of a
    players sheet, for :meth:`~gameopt.pairing.store.Tournament.add_players`.

    Raises
    ------
    InvalidInputError
        A line with no field or more than four, or a rating that is not a number; the
        message names the file and line.
    """
    entries: list[dict[str, Any]] = []
    for where, row in _csv_rows(text, source, _PLAYER_FIELDS, 1):
        entry: dict[str, Any] = dict(row)
        if "name" not in row:
            raise InvalidInputError(f"{where}: the name field is empty")
        name = " ".join(row["name"].split())
        if len(name) > MAX_NAME:
            raise InvalidInputError(f"{where}: name {name[:20]!r}... has {len(name)} "
                                    f"characters (at most {MAX_NAME})")
        if "rating" in row:
            try:
                entry["rating"] = _ascii_float(row["rating"])  # not nan, inf or '١٥٠٠'
            except ValueError:
                raise InvalidInputError(f"{where}: rating {row['rating']!r} is not a "
                                        "number") from None
        entries.append(entry)
    return entries


def read_players_csv(path: str | Path) -> list[dict[str, Any]]:
    """:func:`parse_players_csv` of the file at ``path`` (:func:`read_sheet_text`)."""
    return parse_players_csv(read_sheet_text(path, "players file"), str(path))


_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def read_sheet_text(path: str | Path, what: str) -> str:
    """The text of a CSV sheet: UTF-8 (a byte-order mark dropped), or Windows-1252.

    Spreadsheets save CSV either as UTF-8 (with or without a BOM) or in the system's
    8-bit code page, Windows-1252 on Western Windows (a superset of Latin-1's printable
    characters: Excel's ``Zoë Müller``). A file that is not UTF-8 is read as
    Windows-1252 when that gives printable text; a file holding control characters
    (binary data) or bytes Windows-1252 leaves undefined is refused.

    Raises
    ------
    InvalidInputError
        Missing or unreadable file, or binary data; one line naming the file and the
        line of the first bad byte.
    """
    data = read_bytes(path, what)
    bad = _CONTROL.search(data)
    if bad:
        line = data.count(b"\n", 0, bad.start()) + 1
        raise InvalidInputError(f"{what} {path}:{line}: not a text file (control byte "
                                f"{bad.group()!r})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            line = data.count(b"\n", 0, e.start) + 1
            raise InvalidInputError(f"{what} {path}:{line}: neither UTF-8 nor Windows-1252 "
                                    f"text (byte {data[e.start:e.start + 1]!r}); save it "
                                    "as CSV UTF-8") from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def parse_results_csv(text: str, source: str = "<text>") -> list[tuple[int | str, int, int]]:
    """The ``(who, black discs, white discs)`` rows of a results sheet, for
    :meth:`~gameopt.pairing.store.Tournament.set_results` (``who`` as written: a table
    number or a player's id or name, which the store tells apart and refuses when a
    number could be both).

    Raises
    ------
    InvalidInputError
        A line without exactly three fields, or disc counts that are not integers; the
        message names the file and line.
    """
    results: list[tuple[int | str, int, int]] = []
    for where, row in _csv_rows(text, source, _RESULT_FIELDS, 3):
        for f in _RESULT_FIELDS:
            if f not in row:
                raise InvalidInputError(f"{where}: the {f} field is empty")
        results.append((row["who"], _int(row["black"], where, "black discs"),
                        _int(row["white"], where, "white discs")))
    return results


def read_results_csv(path: str | Path) -> list[tuple[int | str, int, int]]:
    """:func:`parse_results_csv` of the file at ``path``."""
    return parse_results_csv(read_sheet_text(path, "results file"), str(path))


def _csv_rows(text: str, source: str, fields: tuple[str, ...],
              required: int) -> list[tuple[str, dict[str, str]]]:
    """``(where, {field: cell})`` per data line: empty cells left out, an optional header
    line (first cell = ``fields[0]``), blank lines and ``#`` comments skipped."""
    rows = []
    lines = iter(enumerate(csv.reader(text.splitlines()), start=1))
    while True:
        try:
            lineno, row = next(lines)
        except StopIteration:
            break
        except csv.Error as e:  # a field over csv's size limit
            raise InvalidInputError(f"{source}: not CSV ({e})") from None
        if not row or row[0].strip().startswith("#"):
            continue
        cells = [c.strip() for c in row]
        if lineno == 1 and cells[0].lower() == fields[0]:
            continue  # header
        if len(cells) < required or len(cells) > len(fields):
            raise InvalidInputError(f"{source}:{lineno}: expected {required} to {len(fields)} "
                                    f"fields ({', '.join(fields)}), got {len(cells)}")
        rows.append((f"{source}:{lineno}",
                     {f: c for f, c in zip(fields, cells, strict=False) if c != ""}))
    return rows


def _int(value: str, where: str, what: str) -> int:
    digits = value.strip().removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18):  # not ٤٠, 1_0
        shown = repr(value) if len(value) <= 30 else repr(value[:26]) + "..."
        raise InvalidInputError(f"{where}: {what} {shown} is not an integer")
    return int(value)


def _csv(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)
    return buf.getvalue()


def _player(where: str, pid: str, name: str, country: str | None, rating: float | None,
            seq: int) -> PlayerRecord:
    """A :class:`PlayerRecord` whose errors name the file and line."""
    try:
        return PlayerRecord(pid, name, country, rating, seq)
    except InvalidInputError as e:
        raise InvalidInputError(f"{where}: {e}") from None


# ------------------------------------------------------------------ WOF .ELO
_ELO_GAME = re.compile(r"(\S+)\s*\(\s*(\d+)\s*\)\s*([<>=])\s*\(\s*(\d+)\s*\)\s*(\S+)\s+([BWbw])")
_ELO_SIGN = {Outcome.BLACK: ">", Outcome.WHITE: "<", Outcome.DRAW: "="}


def format_elo(data: TournamentData, sender: str = "gameopt") -> str:
    """The WOF results file of ``data`` (games with a result; black written first)."""
    info = data.info
    date = ""
    if info.date:
        date = _dt.date.fromisoformat(info.date).strftime("%d/%m/%Y")
    lines = [f"%%Tournament: {info.name}", f"%%Country: {info.country or ''}".rstrip(),
             f"%%Date: {date}".rstrip(), f"%%Sender: {sender}", "%"]
    lines += [f"%Player: {p.id} {p.country or '-'} {p.name}" for p in data.players]
    for p in data.players:
        if p.joined_round > 1 or p.initial_score:
            lines.append(f"%Late: {p.id} {p.joined_round} {p.initial_score}")
        if p.withdrawn_round is not None:
            lines.append(f"%Withdrawn: {p.id} {p.withdrawn_round}")
    for k in sorted({g.round_no for g in data.games}):
        games = sorted((g for g in data.games if g.round_no == k), key=lambda g: g.table)
        if not any(g.has_result and not g.is_bye for g in games) and len(games) > 1:
            continue  # not played yet: neither the games nor the bye
        lines.append(f"%Round {k}")
        for g in games:
            if g.is_bye:
                lines.append(f"%Bye: {g.black}")
            elif g.forfeit and g.result is not None:
                lines.append(f"%Forfeit: {g.black} {g.white} {g.result.value}")
            elif g.result is not None and g.black_discs is not None:
                lines.append(f"{g.black} ({g.black_discs}){_ELO_SIGN[g.result]}"
                             f"({g.white_discs}) {g.white} B")
    return "\n".join(lines) + "\n"


@dataclass
class _EloReader:
    source: str
    header: dict[str, str]
    players: dict[str, PlayerRecord]
    games: list[GameRecord]
    round_no: int = 0
    explicit_rounds: bool = False
    busy: frozenset[str] = frozenset()
    late: dict[str, tuple[int, int]] = field(default_factory=dict)
    withdrawn: dict[str, int] = field(default_factory=dict)

    def where(self, lineno: int) -> str:
        return f"{self.source}:{lineno}"

    def table(self) -> int:
        return sum(g.round_no == self.round_no for g in self.games) + 1

    def player(self, pid: str, lineno: int) -> None:
        if pid not in self.players:
            self.players[pid] = _player(self.where(lineno), pid, pid, None, None,
                                        len(self.players) + 1)

    def place(self, ids: Sequence[str], lineno: int) -> None:
        """Move to the next round if one of ``ids`` already plays in this one."""
        if self.round_no == 0 or (not self.explicit_rounds and self.busy & set(ids)):
            self.round_no += 1
            self.busy = frozenset()
        if self.busy & set(ids):
            raise InvalidInputError(f"{self.where(lineno)}: {', '.join(self.busy & set(ids))}"
                                    f" already plays in round {self.round_no}")
        self.busy |= set(ids)


def parse_elo(text: str, source: str = "<text>") -> TournamentData:
    """Read a WOF results file (see the module docstring) into plain records.

    Raises
    ------
    InvalidInputError
        A line that is neither blank, a comment nor a game; a sign that contradicts the
        discs; discs that do not add up; a bad date. The message names file and line.
    """
    r = _EloReader(source, {}, {}, [])
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("%%"):
            key, _, value = line[2:].partition(":")
            r.header[key.strip().lower()] = value.strip()
        elif line.startswith("%"):
            _elo_comment(r, line[1:].strip(), lineno)
        else:
            _elo_game(r, line, lineno)
    if "tournament" not in r.header:
        raise InvalidInputError(f"{source}: no %%Tournament: header line")
    info = TournamentInfo(r.header["tournament"] or "(unnamed)",
                          r.header.get("country") or None,
                          _elo_date(r.header.get("date", ""), source))
    players = []
    for p in r.players.values():
        joined, score = r.late.get(p.id, (1, 0))
        try:
            players.append(replace(p, joined_round=joined, initial_score=score,
                                   withdrawn_round=r.withdrawn.get(p.id)))
        except InvalidInputError as e:
            raise InvalidInputError(f"{source}: {e}") from None
    return TournamentData(info=info, players=tuple(players), games=tuple(r.games))


def _elo_comment(r: _EloReader, body: str, lineno: int) -> None:
    word, _, rest = body.partition(" ")
    if word == "Player:":
        parts = rest.split(None, 2)
        if len(parts) < 3:
            raise InvalidInputError(f"{r.where(lineno)}: %Player: needs an id, a country "
                                    "(or -) and a name")
        pid, country, name = parts
        r.players[pid] = _player(r.where(lineno), pid, name,
                                 None if country == "-" else country, None, len(r.players) + 1)
    elif word == "Round" and rest.strip().isdigit():
        r.explicit_rounds = True
        r.round_no = _int(rest, r.where(lineno), "round number")
        r.busy = frozenset()
    elif word == "Bye:" and rest.strip():
        pid = rest.strip()
        r.player(pid, lineno)
        r.place((pid,), lineno)
        r.games.append(GameRecord(r.round_no, r.table(), pid, BYE))
    elif word in ("Forfeit:", "Withdrawn:", "Late:"):
        _elo_extra(r, word, rest.split(), lineno)


def _elo_extra(r: _EloReader, word: str, parts: list[str], lineno: int) -> None:
    """``%Forfeit:``, ``%Withdrawn:`` and ``%Late:`` (our comments; module notes)."""
    shape = {"Forfeit:": "<black> <white> <B|W|0>", "Withdrawn:": "<id> <round>",
             "Late:": "<id> <round> <half points>"}[word]
    size = {"Forfeit:": 3, "Withdrawn:": 2, "Late:": 3}[word]
    if len(parts) != size or (word != "Forfeit:" and not all(x.isdigit()
                                                              for x in parts[1:])):
        raise InvalidInputError(f"{r.where(lineno)}: %{word} wants {shape}")
    if word == "Withdrawn:":
        r.withdrawn[parts[0]] = int(parts[1])
    elif word == "Late:":
        r.late[parts[0]] = (int(parts[1]), int(parts[2]))
    else:
        black, white, res = parts
        if res not in ("B", "W", "0"):
            raise InvalidInputError(f"{r.where(lineno)}: %Forfeit: result {res!r} is not "
                                    "B, W or 0")
        for pid in (black, white):
            r.player(pid, lineno)
        r.place((black, white), lineno)
        r.games.append(GameRecord(r.round_no, r.table(), black, white, None, None,
                                  Outcome(res), forfeit=True))


def _elo_game(r: _EloReader, line: str, lineno: int) -> None:
    m = _ELO_GAME.fullmatch(line)
    if m is None:
        raise InvalidInputError(f"{r.where(lineno)}: not a game line "
                                f"(want 'ID1 (discs1)>(discs2) ID2 B'): {line!r}")
    id1, d1, sign, d2, id2, colour = m.groups()
    d1n, d2n = _int(d1, r.where(lineno), "discs"), _int(d2, r.where(lineno), "discs")
    check_discs(d1n, d2n, r.where(lineno))
    if _ELO_SIGN[Outcome.from_discs(d1n, d2n)] != sign:
        raise InvalidInputError(f"{r.where(lineno)}: sign {sign!r} contradicts discs "
                                f"{d1n}-{d2n}")
    if id1 == id2 or BYE in (id1, id2):
        raise InvalidInputError(f"{r.where(lineno)}: bad players {id1} v {id2}")
    for pid in (id1, id2):
        r.player(pid, lineno)
    r.place((id1, id2), lineno)
    if colour.upper() == "B":
        g = GameRecord(r.round_no, r.table(), id1, id2, d1n, d2n)
    else:
        g = GameRecord(r.round_no, r.table(), id2, id1, d2n, d1n)
    r.games.append(g)


def _elo_date(value: str, source: str) -> str | None:
    if not value:
        return None
    for fmt in ("%d/%m/%Y", "%Y-%m-%d"):
        try:
            return _dt.datetime.strptime(value, fmt).date().isoformat()
        except ValueError:
            pass
    raise InvalidInputError(f"{source}: %%Date: {value!r} is not DD/MM/YYYY")


# ------------------------------------------------------------------ TRF-like
_TRF_WIDTHS = {"name": 33, "rating": 4, "country": 3, "id": 11}
_BLOCK = 21
_TRF_BLOCK = re.compile(r"  ([ \d]{4}) ([bw-]) ([10=U?]) ([ \d]{2})[- ]([ \d]{2}) ([ \d]{4})")
_RESULT_CODE = {2: "1", 1: "=", 0: "0"}


def _fmt_rating(r: float | None) -> str:
    if r is None:
        return ""
    return str(int(r)) if float(r).is_integer() else repr(float(r))


@dataclass(frozen=True)
class _Layout:
    """Where each field of a ``001`` record starts, for the widths of one file."""

    name: int
    rating: int
    country: int
    id: int

    @property
    def starts(self) -> dict[str, int]:
        s = {"name": 14}  # 0-based: column 15
        s["rating"] = s["name"] + self.name + 1
        s["country"] = s["rating"] + self.rating + 1
        s["id"] = s["country"] + self.country + 1
        s["birth"] = s["id"] + self.id + 1
        s["points"] = s["birth"] + 10 + 1
        s["rank"] = s["points"] + 4 + 1
        s["rounds"] = s["rank"] + 4
        return s


def format_trf(data: TournamentData) -> str:
    """FIDE's TRF-16 file of ``data`` with our extension records
    (:func:`gameopt.pairing.trf.format_trf16`)."""
    return format_trf16(data)


def format_trf_legacy(data: TournamentData) -> str:
    """The older TRF-like file of ``data`` (layout in the module docstring); kept so
    that the tests can write what earlier versions wrote."""
    players = sorted(data.players, key=lambda p: p.seq)
    rank_of = {p.id: i for i, p in enumerate(players, start=1)}
    if len(players) > 9999:
        raise InvalidInputError(f"TRF: {len(players)} players, at most 9999")
    widths = dict(_TRF_WIDTHS)
    for p in players:
        widths["name"] = max(widths["name"], len(p.name))
        widths["rating"] = max(widths["rating"], len(_fmt_rating(p.rating)))
        widths["country"] = max(widths["country"], len(p.country or ""))
        widths["id"] = max(widths["id"], len(p.id))
    lay = _Layout(**widths)
    info = data.info
    out = [f"012 {info.name}", f"032 {info.country or ''}".rstrip(),
           f"042 {info.date or ''}".rstrip(), f"062 {len(players)}"]
    if info.rounds is not None:
        out.append(f"XXR {info.rounds}")
    out.append("XXW " + " ".join(f"{k}={v}" for k, v in widths.items()))
    out += [f"XXM {r.round_no} {r.method}" for r in sorted(data.rounds,
                                                            key=lambda r: r.round_no)]
    out += [f"XXF {' '.join(sorted(pair))}" for pair in sorted(data.forbidden, key=sorted)]
    for p in players:
        if p.joined_round > 1 or p.initial_score:
            out.append(f"XXL {rank_of[p.id]} {p.joined_round} {p.initial_score}")
        if p.withdrawn_round is not None:
            out.append(f"XXD {rank_of[p.id]} {p.withdrawn_round}")
    table = {s.id: s for s in compute_standings(players, data.games)}
    last = max((g.round_no for g in data.games), default=0)
    seat = {(g.round_no, pid): g for g in data.games for pid in g.players()}
    for p in players:
        s = table[p.id]
        line = (f"001 {rank_of[p.id]:>4}      {p.name:<{lay.name}} "
                f"{_fmt_rating(p.rating):>{lay.rating}} {p.country or '':<{lay.country}} "
                f"{p.id:>{lay.id}} {'':10} {_points(s.score):>4} {s.rank:>4}")
        for k in range(1, last + 1):
            line += _trf_block(seat.get((k, p.id)), p.id, rank_of)
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


def _trf_block(g: GameRecord | None, pid: str, rank_of: dict[str, int]) -> str:
    if g is None:
        return " " * _BLOCK
    if g.is_bye:
        return f"  0000 - U       {g.table:>4}"
    black = g.black == pid
    opp = rank_of[g.opponent(pid)]
    colour = "b" if black else "w"
    if g.result is None:
        return f"  {opp:>4} {colour} ?       {g.table:>4}"
    own, their = (g.black_discs, g.white_discs) if black else (g.white_discs, g.black_discs)
    return (f"  {opp:>4} {colour} {_RESULT_CODE[g.score_of(pid)]} {own:>2}-{their:>2} "
            f"{g.table:>4}")


@dataclass(frozen=True)
class _Block:
    round_no: int
    opp: int
    colour: str
    result: str
    own: int | None
    their: int | None
    table: int


def parse_trf(text: str, source: str = "<text>") -> TournamentData:
    """Read a TRF file: FIDE's TRF-16 (ours or another program's,
    :func:`gameopt.pairing.trf.parse_trf16`), or the older TRF-like layout of this
    module's docstring when the file has an ``XXW`` record.
    """
    if not re.search(r"^XXW", text, re.MULTILINE):
        return parse_trf16(text, source)
    return parse_trf_legacy(text, source)


def parse_trf_legacy(text: str, source: str = "<text>") -> TournamentData:
    """Read the older TRF-like file (layout in the module docstring).

    Raises
    ------
    InvalidInputError
        An unknown or malformed record, or two sides of a game that disagree; the
        message names the file and line.
    """
    head: dict[str, str] = {}
    extra: list[tuple[int, str, str]] = []
    records: list[tuple[int, str]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        code, value = raw[:3], raw[4:].strip()
        if code in ("012", "022", "032", "042", "052", "062", "072", "082", "092", "102",
                    "XXR", "XXW"):
            head[code] = value
        elif code in ("XXM", "XXF", "XXL", "XXD"):
            extra.append((lineno, code, value))
        elif code == "001":
            records.append((lineno, raw.rstrip("\n")))
        else:
            raise InvalidInputError(f"{source}:{lineno}: unknown record {code!r}")
    lay = _trf_layout(head.get("XXW", ""), source)
    players: list[PlayerRecord] = []
    blocks: dict[str, list[_Block]] = {}
    by_rank: dict[int, str] = {}
    for lineno, raw in records:
        p, bl = _trf_player(raw, lay, f"{source}:{lineno}")
        if p.seq in by_rank:
            raise InvalidInputError(f"{source}:{lineno}: start rank {p.seq} repeated")
        by_rank[p.seq] = p.id
        players.append(p)
        blocks[p.id] = bl
    players, rounds, forbidden = _trf_extras(players, extra, by_rank, source)
    if "062" in head and head["062"] != str(len(players)):
        raise InvalidInputError(f"{source}: 062 says {head['062']} players, found "
                                f"{len(players)}")
    games = _trf_games(blocks, by_rank, source)
    info = TournamentInfo(head.get("012", "") or "(unnamed)", head.get("032") or None,
                          head.get("042") or None,
                          _int(head["XXR"], source, "XXR") if head.get("XXR") else None)
    return TournamentData(info, tuple(players), games, rounds, forbidden)


def _trf_layout(spec: str, source: str) -> _Layout:
    widths = dict(_TRF_WIDTHS)
    for item in spec.split():
        key, _, value = item.partition("=")
        if key not in widths or not (value.isascii() and value.isdigit() and len(value) < 4):
            raise InvalidInputError(f"{source}: XXW: bad width {item!r}")
        widths[key] = int(value)
    return _Layout(**widths)


def _field(raw: str, start: int, width: int) -> str:
    return raw[start:start + width].strip()


def _trf_player(raw: str, lay: _Layout, where: str) -> tuple[PlayerRecord, list[_Block]]:
    s = lay.starts
    try:
        seq = _ascii_int(raw[4:8])
        rating_s = _field(raw, s["rating"], lay.rating)
        rating = _ascii_float(rating_s) if rating_s else None
    except ValueError:
        raise InvalidInputError(f"{where}: bad start rank or rating") from None
    pid = _field(raw, s["id"], lay.id)
    name = _field(raw, s["name"], lay.name)
    if not pid or not name:
        raise InvalidInputError(f"{where}: player without id or name")
    country = _field(raw, s["country"], lay.country) or None
    rest = raw[s["rounds"]:]
    blocks = []
    for i in range(0, len(rest), _BLOCK):
        b = _trf_parse_block(rest[i:i + _BLOCK].ljust(_BLOCK), i // _BLOCK + 1, where)
        if b is not None:
            blocks.append(b)
    return _player(where, pid, name, country, rating, seq), blocks


def _trf_parse_block(chunk: str, k: int, where: str) -> _Block | None:
    if not chunk.strip():
        return None
    m = _TRF_BLOCK.fullmatch(chunk)
    if m is None:
        raise InvalidInputError(f"{where}: round {k}: bad block {chunk!r}")
    opp, colour, result, own, their, table = m.groups()
    try:
        own_n = _ascii_int(own) if own.strip() else None
        their_n = _ascii_int(their) if their.strip() else None
        return _Block(k, _ascii_int(opp), colour, result, own_n, their_n, _ascii_int(table))
    except ValueError:
        raise InvalidInputError(f"{where}: round {k}: bad block {chunk!r}") from None


def _trf_extras(players: list[PlayerRecord], extra: list[tuple[int, str, str]],
                by_rank: dict[int, str], source: str
                ) -> tuple[list[PlayerRecord], tuple[RoundRecord, ...],
                           frozenset[frozenset[str]]]:
    """Apply the XXL/XXD records to the players; read the XXM and XXF records."""
    late: dict[str, tuple[int, int]] = {}
    out: dict[str, int] = {}
    rounds: list[RoundRecord] = []
    forbidden: set[frozenset[str]] = set()
    for lineno, code, value in extra:
        parts = value.split()
        try:
            if code == "XXL" and len(parts) == 3:
                late[by_rank[_ascii_int(parts[0])]] = (_ascii_int(parts[1]),
                                                       _ascii_int(parts[2]))
            elif code == "XXD" and len(parts) == 2:
                out[by_rank[_ascii_int(parts[0])]] = _ascii_int(parts[1])
            elif code == "XXM" and len(parts) >= 2:
                rounds.append(RoundRecord(_ascii_int(parts[0]), value.split(None, 1)[1]))
            elif code == "XXF" and len(parts) == 2:
                forbidden.add(frozenset(parts))
            else:
                raise ValueError
        except (KeyError, ValueError):
            raise InvalidInputError(f"{source}:{lineno}: bad {code} record {value!r}"
                                    ) from None
    try:
        new = [PlayerRecord(p.id, p.name, p.country, p.rating, p.seq,
                            *late.get(p.id, (1, 0)), out.get(p.id)) for p in players]
    except InvalidInputError as e:
        raise InvalidInputError(f"{source}: {e}") from None
    return new, tuple(rounds), frozenset(forbidden)


def _trf_games(blocks: dict[str, list[_Block]], by_rank: dict[int, str],
               source: str) -> tuple[GameRecord, ...]:
    games: list[GameRecord] = []
    for pid, bl in blocks.items():
        for b in bl:
            where = f"{source}: player {pid} round {b.round_no}"
            if b.opp == 0:
                if b.colour != "-" or b.result != "U":
                    raise InvalidInputError(f"{where}: opponent 0000 must be a bye '- U'")
                games.append(GameRecord(b.round_no, b.table, pid, BYE))
                continue
            if b.opp not in by_rank:
                raise InvalidInputError(f"{where}: unknown opponent {b.opp}")
            if b.colour == "b":
                discs = (None, None) if b.result == "?" else (b.own, b.their)
                games.append(_trf_game(b, pid, by_rank[b.opp], discs, where))
    _trf_cross_check(games, blocks, by_rank, source)
    return tuple(sorted(games, key=lambda g: (g.round_no, g.table)))


def _trf_game(b: _Block, black: str, white: str, discs: tuple[int | None, int | None],
              where: str) -> GameRecord:
    g = GameRecord(b.round_no, b.table, black, white, discs[0], discs[1])
    code = "?" if g.result is None else _RESULT_CODE[g.score_of(black)]
    if code != b.result:
        raise InvalidInputError(f"{where}: result {b.result!r} contradicts discs "
                                f"{discs[0]}-{discs[1]}")
    return g


def _trf_cross_check(games: list[GameRecord], blocks: dict[str, list[_Block]],
                     by_rank: dict[int, str], source: str) -> None:
    """Every white block must mirror its black opponent's block."""
    rank_of = {pid: r for r, pid in by_rank.items()}
    by_seat = {(g.round_no, g.white): g for g in games if not g.is_bye}
    count = 0
    for pid, bl in blocks.items():
        for b in bl:
            if b.colour != "w":
                continue
            where = f"{source}: player {pid} round {b.round_no}"
            g = by_seat.get((b.round_no, pid))
            if (g is None or rank_of[g.black] != b.opp or g.table != b.table
                    or (g.white_discs, g.black_discs) != ((b.own, b.their)
                                                          if b.result != "?" else (None, None))):
                raise InvalidInputError(f"{where}: does not match the black player's record")
            count += 1
    if count != len(by_seat):
        raise InvalidInputError(f"{source}: a game has a black side but no white side")
