"""The desk's data: tournament files in the data directory and what the pages show of them.

A tournament called ``SLUG`` is the file ``DATA_DIR/SLUG.sqlite`` (the same file ``gameopt
pair`` works on), with two optional companions the store has no room for:
``SLUG.penalties.toml`` (the penalty preset and overrides as the director wrote them,
over the weights stored in the tournament file, which are those of the penalties given at
creation; readable by ``gameopt pair pair --params``; without it the desk pairs with the
stored weights) and ``SLUG.clubs.json`` (players' clubs by id). A slug is 1 to 64 letters,
digits, ``-`` or ``_`` starting with a letter or digit, so no name from a URL or a form
can reach outside the data directory.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from gameopt.errors import InvalidInputError
from gameopt.web._pairing import (
    BYE,
    GameRecord,
    PairingWarning,
    PenaltyParams,
    PlayerRecord,
    Standing,
    Tournament,
    params_toml,
)

__all__ = ["SLUG", "check_slug", "tournament_path", "list_events", "open_event",
           "create_event", "penalty_params", "round_etag", "parse_players_csv",
           "round_totals", "crosstable", "player_history", "preview"]

T = TypeVar("T")
SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
SUFFIX = ".sqlite"
PLAYER_FIELDS = ("name", "id", "country", "rating", "club")


def check_slug(slug: str) -> str:
    """``slug`` if it names a file inside the data directory; else InvalidInputError."""
    if not SLUG.fullmatch(slug):
        raise InvalidInputError(f"file name {slug!r}: 1 to 64 letters, digits, '-' or '_', "
                                "starting with a letter or digit")
    return slug


def tournament_path(data_dir: Path, slug: str) -> Path:
    path = data_dir / (check_slug(slug) + SUFFIX)
    assert path.parent == data_dir  # the slug has no separator
    return path


@dataclass(frozen=True)
class EventEntry:
    slug: str
    name: str
    players: int
    rounds: int
    planned: int | None
    error: str | None = None


def list_events(data_dir: Path) -> list[EventEntry]:
    """Every tournament file of the data directory, by slug (unreadable ones flagged)."""
    out = []
    for f in sorted(data_dir.glob("*" + SUFFIX)):
        slug = f.name.removesuffix(SUFFIX)
        if not SLUG.fullmatch(slug):
            continue
        try:
            with Tournament.open(f) as t:
                info = t.info
                out.append(EventEntry(slug, info.name, len(t.players()), t.last_round,
                                      info.rounds))
        except InvalidInputError as e:
            out.append(EventEntry(slug, slug, 0, 0, None, str(e)))
    return out


@contextmanager
def open_event(data_dir: Path, slug: str) -> Iterator[Tournament]:
    """The tournament ``slug``, closed on exit (InvalidInputError if there is none)."""
    path = tournament_path(data_dir, slug)
    if not path.is_file():
        raise LookupError(slug)
    t = Tournament.open(path)
    try:
        yield t
    finally:
        t.close()


def version(data_dir: Path, slug: str) -> str:
    """Changes whenever the file does (every committed change rewrites it)."""
    st = tournament_path(data_dir, slug).stat()
    return f"{st.st_mtime_ns:x}-{st.st_size:x}-{st.st_ino:x}"


_CACHE: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_CACHE_SIZE = 64
_CACHE_LOCK = threading.Lock()


def cached(data_dir: Path, slug: str, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """``compute()``, remembered until the tournament file changes (its :func:`version`).

    Pages that many read between two saves (the standings, the public page) are computed
    once per change of the file. A value computed while a save lands is stored under the
    version seen before it, which no later request asks for again.
    """
    full = (str(data_dir), slug, version(data_dir, slug), *key)
    with _CACHE_LOCK:
        if full in _CACHE:
            _CACHE.move_to_end(full)
            return cast(T, _CACHE[full])
    value = compute()
    with _CACHE_LOCK:
        _CACHE[full] = value
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


# ------------------------------------------------------------------ penalties and clubs
def _companion(data_dir: Path, slug: str, suffix: str) -> Path:
    return data_dir / (check_slug(slug) + suffix)


def check_penalties(preset: str, overrides: str) -> str:
    """The penalty file's text for ``preset`` + the TOML ``overrides``, once it parses."""
    if preset not in ("tuned", "papp", "slim"):
        raise InvalidInputError(f"penalty preset {preset!r}: choose tuned, papp or slim")
    return check_penalty_text(f'preset = "{preset}"\n' + overrides)


def check_penalty_text(text: str, base: PenaltyParams | None = None) -> str:
    """``text`` (a whole penalty file) once :meth:`PenaltyParams.from_toml` reads it."""
    return _read_penalty_text(text, base)[0]


def _read_penalty_text(text: str, base: PenaltyParams | None
                       ) -> tuple[str, PenaltyParams]:
    text = text.replace("\r\n", "\n").strip() + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "penalties.toml"
        p.write_text(text, encoding="utf-8")
        try:
            params = PenaltyParams.from_toml(p, base=base)
        except InvalidInputError as e:
            raise InvalidInputError(str(e).replace(str(p), "penalty overrides")) from None
    return text, params


def penalty_params(data_dir: Path, slug: str, t: Tournament) -> PenaltyParams:
    """The weights ``t`` pairs with: its penalty file's (over its stored weights), or
    the stored weights when it has no penalty file."""
    p = _companion(data_dir, slug, ".penalties.toml")
    return PenaltyParams.from_toml(p, base=t.penalties) if p.is_file() else t.penalties


def penalty_text(data_dir: Path, slug: str, t: Tournament) -> str:
    p = _companion(data_dir, slug, ".penalties.toml")
    if p.is_file():
        return p.read_text(encoding="utf-8")
    params = t.penalties
    name = params.preset_name
    return f'preset = "{name}"\n' if name else params_toml(params)


def set_penalty_text(data_dir: Path, slug: str, t: Tournament, text: str) -> None:
    """Replace the tournament's penalty file (checked first, over the weights stored in
    ``t``; written atomically)."""
    text = check_penalty_text(text, t.penalties)
    p = _companion(data_dir, slug, ".penalties.toml")
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)


def clubs(data_dir: Path, slug: str) -> dict[str, str]:
    p = _companion(data_dir, slug, ".clubs.json")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def add_clubs(data_dir: Path, slug: str, new: dict[str, str]) -> None:
    if not new:
        return
    merged = clubs(data_dir, slug) | new
    p = _companion(data_dir, slug, ".clubs.json")
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(merged, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    os.replace(tmp, p)


def create_event(data_dir: Path, slug: str, name: str, rounds: int | None,
                 country: str | None, date: str | None, penalties: str) -> None:
    """A new tournament file and its penalty file (both or neither)."""
    path = tournament_path(data_dir, slug)
    pen = _companion(data_dir, slug, ".penalties.toml")
    params = _read_penalty_text(penalties, None)[1]
    Tournament.create(path, name, country or None, date or None, rounds,
                      penalties=params).close()
    try:
        pen.write_text(penalties, encoding="utf-8")
    except OSError:
        path.unlink(missing_ok=True)
        raise


# ------------------------------------------------------------------ players CSV
#: A rating as a sheet writes it: ASCII, finite (``float`` alone takes ``nan``, ``١٥٠٠``).
_RATING = re.compile(r"[-+]?([0-9]{1,9}(\.[0-9]*)?|\.[0-9]+)", re.ASCII)


def parse_players_csv(text: str, source: str) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Registration entries from CSV text, and clubs by player (where an id is given).

    Columns ``name[,id,country,rating,club]`` as ``gameopt pair add --csv`` (plus the
    club), or any order named by a header row whose first cell is ``name``. Blank lines
    and lines starting with ``#`` are skipped. Errors name ``source`` and the line.
    """
    fields: tuple[str, ...] = PLAYER_FIELDS
    entries: list[dict[str, Any]] = []
    club_of: dict[str, str] = {}
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # old Mac and Windows line ends
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as e:  # a field over csv's size limit, a NUL
        raise InvalidInputError(f"{source}: not CSV ({e})") from None
    for lineno, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip() or row[0].strip().startswith("#"):
            continue
        cells = [c.strip() for c in row]
        if not entries and cells[0].lower() == "name":
            unknown = [c for c in cells if c.lower() not in PLAYER_FIELDS]
            if unknown:
                raise InvalidInputError(f"{source}:{lineno}: unknown column {unknown[0]!r} "
                                        f"(known: {', '.join(PLAYER_FIELDS)})")
            fields = tuple(c.lower() for c in cells)
            continue
        if len(cells) > len(fields):
            raise InvalidInputError(f"{source}:{lineno}: expected 1 to {len(fields)} fields "
                                    f"({', '.join(fields)}), got {len(cells)}")
        entry: dict[str, Any] = {f: c for f, c in zip(fields, cells, strict=False) if c}
        if "name" not in entry:
            raise InvalidInputError(f"{source}:{lineno}: no name")
        if "rating" in entry:
            if not _RATING.fullmatch(entry["rating"]):  # float() takes nan, inf, ١٥٠٠, 1_5
                raise InvalidInputError(f"{source}:{lineno}: rating {entry['rating']!r} is "
                                        "not a number")
            entry["rating"] = float(entry["rating"])
        club = entry.pop("club", None)
        if club:
            club_of[entry.get("id") or f"#{len(entries)}"] = club
        entries.append(entry)
    if not entries:
        raise InvalidInputError(f"{source}: no players")
    return entries, club_of


# ------------------------------------------------------------------ rounds
def round_etag(t: Tournament, round_no: int) -> str:
    """Identifies what a director saw of a round: its method and seats (who sits at
    which table, in which colour). A re-paired or hand-changed round gets another."""
    try:
        p = t.pairing(round_no)
    except InvalidInputError:
        return "unpaired"
    seats = [[x.number, x.black, x.white] for x in p.tables]
    blob = json.dumps([round_no, p.method, seats], separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def result_tag(g: GameRecord) -> str:
    """A table's result as the correction form saw it (``-`` before one is entered,
    ``F`` and the winner's colour for a forfeit)."""
    if g.forfeit and g.result is not None:
        return f"F{g.result.value}"
    if g.black_discs is None:
        return "-" if g.result is None else g.result.value
    return f"{g.black_discs}-{g.white_discs}"


def score_text(g: GameRecord) -> str:
    """A table's result as the pages show it: ``40–24``, ``bye``, ``+:− forfeit``
    (black was there), ``−:+ forfeit``, ``−:− forfeit`` (neither came), ``–`` before one
    is entered; a score-only result (from a TRF) shows the outcome."""
    if g.is_bye:
        return "bye"
    if g.forfeit and g.result is not None:
        return {"B": "+:− forfeit", "W": "−:+ forfeit"}.get(g.result.value, "−:− forfeit")
    if g.black_discs is not None:
        return f"{g.black_discs}–{g.white_discs}"
    return "–" if g.result is None else g.result.value


@dataclass(frozen=True)
class RoundTotals:
    """What the director checks at a glance after pairing."""

    tables: int
    byes: int
    rematches: int
    floats: int
    max_float: float
    colour_max: int
    colour_over: int
    total_cost: int


def round_totals(t: Tournament, round_no: int) -> RoundTotals:
    """Rematches, floats (games between different scores, and the largest gap in
    points), and colour imbalance (blacks − whites after the round: the largest, and
    how many players reach 2 or more) of a stored round."""
    ri = t.round_input(round_no)
    state = {p.id: p for p in ri.players}
    pairing = t.pairing(round_no)
    rematches = floats = byes = 0
    gap = 0
    balance = {pid: sum(1 if c.value == "B" else -1 if c.value == "W" else 0
                        for c in p.colours) for pid, p in state.items()}
    for x in pairing.tables:
        if x.white == BYE:
            byes += 1
            continue
        b, w = state.get(x.black), state.get(x.white)
        if b is None or w is None:
            continue
        rematches += x.white in b.opponents
        if b.score != w.score:
            floats += 1
            gap = max(gap, abs(b.score - w.score))
        balance[x.black] += 1
        balance[x.white] -= 1
    mags = [abs(v) for v in balance.values()] or [0]
    return RoundTotals(len(pairing.tables), byes, rematches, floats, gap / 2, max(mags),
                       sum(m >= 2 for m in mags), pairing.total_cost)


def _seat(g: GameRecord, pid: str) -> tuple[str, str, int | None, int | None]:
    """(colour, opponent, own discs, opponent's discs) of ``pid`` at ``g``."""
    if g.is_bye:
        return "-", BYE, None, None
    if g.black == pid:
        return "B", g.white, g.black_discs, g.white_discs
    return "W", g.black, g.white_discs, g.black_discs


def crosstable(standings: Sequence[Standing], games: Sequence[GameRecord],
               rounds: int) -> list[dict[str, Any]]:
    """One row per player in standings order: per round ``"W3 +12"`` style cells
    (colour, opponent's rank, disc margin; ``bye``; blank when absent)."""
    rank = {s.id: s.rank for s in standings}
    cells: dict[str, list[str]] = {s.id: [""] * rounds for s in standings}
    for g in games:
        for pid in g.players():
            if pid not in cells or not 1 <= g.round_no <= rounds:
                continue
            colour, opp, mine, theirs = _seat(g, pid)
            if colour == "-":
                text = "bye"
            elif g.forfeit:
                won = g.has_result and g.score_of(pid) > 0
                text = f"{'+' if won else '−'}F"
            elif mine is None or theirs is None:
                text = f"{colour}{rank.get(opp, '?')} ?"
            else:
                text = f"{colour}{rank.get(opp, '?')} {mine - theirs:+d}"
            cells[pid][g.round_no - 1] = text
    return [{"s": s, "cells": cells[s.id]} for s in standings]


def player_history(player: PlayerRecord, players: Sequence[PlayerRecord],
                   games: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Round by round: colour, opponent, discs, score before, opponent's score before,
    and the float (``up``/``down`` when the opponent's score differed)."""
    names = {p.id: p.name for p in players}
    score = {p.id: 0 for p in players}
    rows = []
    last = max((g.round_no for g in games), default=0)
    by_round: dict[int, list[GameRecord]] = {}
    for g in games:
        by_round.setdefault(g.round_no, []).append(g)
    for r in range(1, last + 1):
        for p in players:
            if p.joined_round == r:
                score[p.id] += p.initial_score
        before = dict(score)
        mine = next((g for g in by_round.get(r, ()) if player.id in g.players()), None)
        if mine is not None:
            colour, opp, own, theirs = _seat(mine, player.id)
            opp_before = before.get(opp)
            drift = "" if opp_before is None or opp_before == before[player.id] else (
                "up" if opp_before > before[player.id] else "down")
            rows.append({"round": r, "table": mine.table, "colour": colour, "opponent": opp,
                         "opponent_name": names.get(opp, opp), "own": own, "theirs": theirs,
                         "forfeit": ("won by forfeit" if mine.score_of(player.id)
                                     else "lost by forfeit") if mine.forfeit else "",
                         "before": before[player.id] / 2,
                         "opp_before": None if opp_before is None else opp_before / 2,
                         "float": drift, "points": mine.score_of(player.id) / 2
                         if mine.has_result else None})
        else:
            rows.append({"round": r, "table": None, "colour": "", "opponent": None,
                         "opponent_name": _absence(player, r), "own": None, "theirs": None,
                         "forfeit": "",
                         "before": before[player.id] / 2, "opp_before": None,
                         "float": "", "points": None})
        for g in by_round.get(r, ()):
            for pid in g.players():
                if pid in score:
                    score[pid] += g.score_of(pid)
    return rows


def _absence(player: PlayerRecord, round_no: int) -> str:
    if round_no < player.joined_round:
        return "not entered yet"
    if player.withdrawn_round is not None and round_no >= player.withdrawn_round:
        return "withdrawn"
    return "absent"


def preview(t: Tournament, action: str, round_no: int, a: str, b: str
            ) -> tuple[list[PairingWarning], list[tuple[int, str, str, str, str]]]:
    """What a swap (``action="swap"``) or replacement (``"replace"``) would do, tried on
    a copy of the tournament (the file itself is not touched): the store's warnings, and
    each changed table as ``(table, black, white, new black, new white)``.

    Raises
    ------
    InvalidInputError
        The store refuses the change (the same one-line message as the CLI's).
    """
    old = {x.number: (x.black, x.white) for x in t.pairing(round_no).tables}
    with tempfile.TemporaryDirectory() as tmp:
        with Tournament.from_data(Path(tmp) / "copy.sqlite", t.snapshot()) as copy:
            if action == "swap":
                warnings = copy.swap_players(round_no, a, b)
            else:
                warnings = copy.replace_player(round_no, a, b)
            new = {x.number: (x.black, x.white) for x in copy.pairing(round_no).tables}
    changed = [(n, *old.get(n, ("", "")), *new.get(n, ("", "")))
               for n in sorted(old.keys() | new.keys()) if old.get(n) != new.get(n)]
    return warnings, changed
