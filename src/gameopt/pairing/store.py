"""A tournament's state in one SQLite file: players, rounds, games, byes, standings.

One file per tournament. Every change is one transaction (``BEGIN IMMEDIATE`` ...
``COMMIT``): the checks run inside it, and any failure rolls it back, so a rejected
command leaves the file byte for byte as it was. The file uses SQLite's rollback journal
with ``synchronous=FULL``: a commit that has returned is on disk, and a crash (even a
``SIGKILL`` in the middle of a commit) leaves either the old or the new state, never half
of it — the next opener rolls a hot journal back. Between transactions the tournament is
this single file (no ``-wal``/``-shm`` sidecars), so it can be copied or mailed.

A damaged file is refused with one :class:`~gameopt.errors.InvalidInputError` line:
:meth:`Tournament.open` runs SQLite's ``quick_check`` (pages and records), and the
first change made through an opened tournament runs the full ``integrity_check``
inside its transaction, before anything is written (it also compares every index with
its table: ``games_white`` is what allows one game per player per round).

Schema (version :data:`SCHEMA_VERSION`, also in ``PRAGMA user_version``):

* ``meta(key, value)``: ``format``, ``schema_version``, ``name``, ``country``, ``date``
  (ISO), ``rounds`` (planned), ``penalties`` (the penalty weights the tournament pairs
  with, JSON of :meth:`~gameopt.pairing.penalties.PenaltyParams.to_dict`: the defaults
  when the file was made; a file without it was made before the weights were stored, when
  the defaults were PAPP's, and keeps pairing with ``PenaltyParams.papp()``);
* ``players(seq, id, name, name_key, country, rating, joined_round, initial_score,
  withdrawn_round)``: ``seq`` is the entry order, ``name_key`` the case-folded name that
  makes names unique;
* ``rounds(round_no, method, total_cost)``: one row per paired round;
* ``games(round_no, table_no, black, white, black_discs, white_discs, result, cost,
  terms, forfeit)``: one row per table; a bye is a game against ``'BYE'`` (``white``)
  with result ``'B'`` and no discs; ``result`` is ``'B'``/``'W'``/``'D'`` from the
  discs, checked by the schema as well as by the code; a forfeit (``forfeit = 1``) has
  no discs and ``'B'``/``'W'`` for the player present, ``'0'`` when neither came; a
  result without discs and without ``forfeit`` came from a score-only file (TRF);
  ``terms`` is the engine's penalty breakdown (JSON);
* ``forbidden(a, b)``: pairs that must not meet (``a < b``).

Results follow :mod:`gameopt.pairing.records`: discs are stored as entered, the winner
is the side with more discs, and the tie-breaks give the empty squares to the winner.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gameopt.errors import GameoptError, InvalidInputError
from gameopt.pairing.model import BYE, Pairing, RoundInput, Table
from gameopt.pairing.penalties import PenaltyParams
from gameopt.pairing.records import (
    GameRecord,
    Outcome,
    PairingWarning,
    PlayerRecord,
    check_country,
    check_discs,
    check_pairing,
    pairing_warnings,
    require_complete,
    result_text,
)
from gameopt.pairing.standings import (
    DEFAULT_TIEBREAKS,
    Standing,
    build_round_input,
    compute_standings,
)

__all__ = [
    "SCHEMA_VERSION",
    "TournamentInfo",
    "RoundRecord",
    "TournamentData",
    "PairingWarning",
    "Tournament",
    "build_round_input",
]

#: Version of the file layout. Version 2 added forfeits (``games.forfeit``) and results
#: without discs; :meth:`Tournament.open` upgrades a version-1 file in place (one
#: transaction) and refuses any other version.
SCHEMA_VERSION = 2
_FORMAT = "gameopt-pairing"
_APPLICATION_ID = 0x67505452  # "gPTR", marks the file as a gameopt tournament
_MANUAL = "manual"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE players (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    country TEXT,
    rating REAL,
    joined_round INTEGER NOT NULL DEFAULT 1 CHECK (joined_round >= 1),
    initial_score INTEGER NOT NULL DEFAULT 0 CHECK (initial_score >= 0),
    withdrawn_round INTEGER CHECK (withdrawn_round IS NULL OR withdrawn_round >= joined_round)
);
CREATE TABLE rounds (
    round_no INTEGER PRIMARY KEY CHECK (round_no >= 1),
    method TEXT NOT NULL,
    total_cost INTEGER NOT NULL
);
"""
_GAMES_TABLE = """
CREATE TABLE games (
    round_no INTEGER NOT NULL REFERENCES rounds(round_no),
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    black TEXT NOT NULL REFERENCES players(id),
    white TEXT NOT NULL,
    black_discs INTEGER,
    white_discs INTEGER,
    result TEXT,
    cost INTEGER NOT NULL DEFAULT 0,
    terms TEXT NOT NULL DEFAULT '{}',
    forfeit INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    PRIMARY KEY (round_no, table_no),
    CHECK (black <> white),
    CHECK ((white = 'BYE' AND black_discs IS NULL AND white_discs IS NULL AND result = 'B'
            AND forfeit = 0)
        OR (white <> 'BYE' AND forfeit = 1 AND black_discs IS NULL AND white_discs IS NULL
            AND result IN ('B', 'W', '0'))
        OR (white <> 'BYE' AND forfeit = 0 AND black_discs IS NULL AND white_discs IS NULL
            AND (result IS NULL OR result IN ('B', 'W', 'D')))
        OR (white <> 'BYE' AND forfeit = 0 AND black_discs BETWEEN 0 AND 64
            AND white_discs BETWEEN 0 AND 64 AND black_discs + white_discs <= 64
            AND result = CASE WHEN black_discs > white_discs THEN 'B'
                              WHEN black_discs < white_discs THEN 'W' ELSE 'D' END))
);
"""
_GAMES_INDEXES = """
CREATE UNIQUE INDEX games_black ON games(round_no, black);
CREATE UNIQUE INDEX games_white ON games(round_no, white) WHERE white <> 'BYE';
"""
_SCHEMA += _GAMES_TABLE + _GAMES_INDEXES + """
CREATE TABLE forbidden (
    a TEXT NOT NULL REFERENCES players(id),
    b TEXT NOT NULL REFERENCES players(id),
    PRIMARY KEY (a, b),
    CHECK (a < b)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class TournamentInfo:
    """The tournament's header: name, country, ISO date, planned number of rounds."""

    name: str
    country: str | None = None
    date: str | None = None
    rounds: int | None = None


@dataclass(frozen=True)
class RoundRecord:
    """A paired round: the method that chose it (``+manual`` once changed by hand)."""

    round_no: int
    method: str
    total_cost: int = 0


@dataclass(frozen=True)
class TournamentData:
    """Everything a file holds, as plain records (what exports write and imports read)."""

    info: TournamentInfo
    players: tuple[PlayerRecord, ...]
    games: tuple[GameRecord, ...]
    rounds: tuple[RoundRecord, ...] = ()
    forbidden: frozenset[frozenset[str]] = frozenset()


class Tournament:
    """A tournament stored in one SQLite file.

    Create one with :meth:`create` (or :meth:`from_data` for an import), reopen it with
    :meth:`open`; use it as a context manager or call :meth:`close`. Players are named by
    id or by name wherever a ``player`` argument is taken (an id wins over a name).

    Every method that changes the file runs in one ``BEGIN IMMEDIATE`` transaction and
    raises :class:`~gameopt.errors.InvalidInputError` (one line naming the round, table
    or player) with the file unchanged when the change is not allowed.
    """

    def __init__(self, path: Path, con: sqlite3.Connection) -> None:
        self.path = path
        self._con = con
        self._verified = False  # a full integrity check has passed (see _write)

    # ----------------------------------------------------------------- files
    @classmethod
    def create(cls, path: str | Path, name: str, country: str | None = None,
               date: str | None = None, rounds: int | None = None,
               penalties: PenaltyParams | None = None) -> Tournament:
        """Create a new tournament file; refuse to overwrite an existing one.

        ``date`` is ISO (``YYYY-MM-DD``); ``rounds`` the planned number of rounds;
        ``penalties`` the weights it pairs with (stored; default ``PenaltyParams()``).
        """
        info = _clean_info(TournamentInfo(name, country, date, rounds))
        return cls._build(Path(path), lambda con: _write_meta(con, info, penalties))

    @classmethod
    def from_data(cls, path: str | Path, data: TournamentData,
                  penalties: PenaltyParams | None = None) -> Tournament:
        """Create a new tournament file holding ``data`` (an import): all or nothing.

        Unlike :meth:`store_pairing`, rounds need not hold every active player (files
        from other programs leave absences implicit); each record is still checked.
        ``penalties`` as in :meth:`create`.
        """
        def fill(con: sqlite3.Connection) -> None:
            _write_meta(con, _clean_info(data.info), penalties)
            ordered = sorted(data.players, key=lambda p: p.seq)
            try:
                for seq, p in enumerate(ordered, start=1):
                    _insert_player(con, replace(p, seq=seq))
                _insert_history(con, data)
            except OverflowError:  # a number over SQLite's 64 bits (a round 10^20...)
                raise InvalidInputError(f"{path}: a number in the data is too large to "
                                        "store (over 64 bits)") from None

        return cls._build(Path(path), fill)

    @classmethod
    def open(cls, path: str | Path) -> Tournament:
        """Open an existing tournament file, checking that it is one and its schema version.
        """
        p = Path(path)
        if not p.is_file():
            raise InvalidInputError(f"{p}: no such tournament file")
        con = _connect(p, uri=True)
        try:
            _check_schema(con, p)
        except BaseException:
            con.close()
            raise
        return cls(p, con)

    @classmethod
    def _build(cls, path: Path, fill: Callable[[sqlite3.Connection], None]) -> Tournament:
        # Built under a temporary name, then linked into place: a crash never leaves a
        # half-made tournament, and an existing file is never overwritten.
        if path.exists():
            raise InvalidInputError(f"{path}: file exists; not overwriting it")
        if not path.parent.is_dir():
            raise InvalidInputError(f"{path}: directory {path.parent} does not exist")
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        try:
            con = _connect(tmp)
            try:
                con.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
                con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                con.executescript(_SCHEMA)
                with _transaction(con, path):
                    fill(con)
            finally:
                con.close()
            _link_new(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        return cls.open(path)

    def close(self) -> None:
        """Close the file (every change is already committed)."""
        self._con.close()

    def __enter__(self) -> Tournament:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Tournament.open({str(self.path)!r})"

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with _transaction(self._con, self.path):
            if not self._verified:  # the first change of this opening: check it all
                _integrity_check(self._con, self.path)
                self._verified = True
            yield self._con

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        try:
            self._con.execute("BEGIN")
            try:
                yield self._con
            finally:
                self._con.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            raise _damaged(self.path, e) from None
        except GameoptError:
            raise
        except ValueError as e:  # damaged text or JSON in a record (bad UTF-8, cut JSON),
            raise _damaged(self.path, e) from None  # a record of the wrong types (_typed)

    # --------------------------------------------------------------- queries
    @property
    def info(self) -> TournamentInfo:
        with self._read() as con:
            return _read_info(con)

    @property
    def penalties(self) -> PenaltyParams:
        """The penalty weights the tournament pairs with: those stored when it was made
        (or by :meth:`set_penalties`); PAPP's (``PenaltyParams.papp()``) for a file made
        before the weights were stored, which paired with PAPP's defaults."""
        with self._read() as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'penalties'").fetchone()
        if row is None or row[0] is None:
            return PenaltyParams.papp()
        try:
            data = json.loads(row[0]) if isinstance(row[0], str) else None
        except (ValueError, RecursionError) as e:  # cut JSON; nested too deeply
            raise _damaged(self.path, e) from None
        if not isinstance(data, dict):
            raise InvalidInputError(f"{self.path}: damaged tournament file (stored "
                                    "penalties are not a JSON object); use a backup copy")
        return PenaltyParams.from_dict(data, f"{self.path}: stored penalties")

    def set_penalties(self, params: PenaltyParams) -> None:
        """Store ``params`` as the weights the next rounds are paired with."""
        with self._write() as con:
            con.execute("INSERT OR REPLACE INTO meta VALUES ('penalties', ?)",
                        (_penalties_json(params),))

    @property
    def last_round(self) -> int:
        """The highest paired round (0 before the first pairing)."""
        with self._read() as con:
            return _last_round(con)

    @property
    def next_round(self) -> int:
        return self.last_round + 1

    def players(self) -> tuple[PlayerRecord, ...]:
        """Every registered player, in entry order."""
        with self._read() as con:
            return _players(con)

    def player(self, key: str) -> PlayerRecord:
        """The player with id ``key`` or, failing that, with name ``key``."""
        with self._read() as con:
            return _resolve(con, key)

    def games(self, round_no: int | None = None) -> tuple[GameRecord, ...]:
        """The tables of one round, or of all rounds, by round then table."""
        with self._read() as con:
            return _games(con, round_no)

    def rounds(self) -> tuple[RoundRecord, ...]:
        with self._read() as con:
            return _rounds(con)

    def forbidden_pairs(self) -> frozenset[frozenset[str]]:
        with self._read() as con:
            return _forbidden(con)

    def pairing(self, round_no: int) -> Pairing:
        """A stored round as a :class:`Pairing` (changed tables carry ``terms={"manual": 0}``).
        """
        with self._read() as con:
            row = con.execute("SELECT method, total_cost FROM rounds WHERE round_no = ?",
                              (round_no,)).fetchone()
            if row is None:
                raise InvalidInputError(f"round {round_no} is not paired")
            tables = tuple(
                Table(number=t, black=b, white=w, cost=c, terms=json.loads(terms))
                for t, b, w, c, terms in con.execute(
                    "SELECT table_no, black, white, cost, terms FROM games "
                    "WHERE round_no = ? ORDER BY table_no", (round_no,)))
        return Pairing(round_no=round_no, tables=tables, total_cost=row[1], method=row[0])

    def missing_results(self, round_no: int) -> tuple[int, ...]:
        """Tables of ``round_no`` still waiting for a result."""
        return tuple(g.table for g in self.games(round_no) if not g.has_result)

    def standings(self, through_round: int | None = None, *,
                  tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
                  brightwell_factor: int = 6) -> tuple[Standing, ...]:
        """:func:`~gameopt.pairing.standings.compute_standings` over the stored games."""
        with self._read() as con:
            players, games = _players(con), _games(con)
            last = _last_round(con)
        through = last if through_round is None else through_round
        return compute_standings(players, games, through_round=through, tiebreaks=tiebreaks,
                                 brightwell_factor=brightwell_factor)

    def snapshot(self) -> TournamentData:
        """Everything in the file as plain records (for exports and comparisons)."""
        with self._read() as con:
            return TournamentData(info=_read_info(con), players=_players(con),
                                  games=_games(con), rounds=_rounds(con),
                                  forbidden=_forbidden(con))

    def round_input(self, round_no: int | None = None) -> RoundInput:
        """The pairing engine's input for ``round_no`` (default: the next round).

        Built from the rounds before ``round_no`` only, so re-pairing a stored round
        sees the same input it had. Every earlier result must be in.

        Raises
        ------
        InvalidInputError
            A round beyond the next one, or missing results (names the tables).
        """
        with self._read() as con:
            last = _last_round(con)
            k = last + 1 if round_no is None else round_no
            if not 1 <= k <= last + 1:
                raise InvalidInputError(f"round {k}: cannot pair (rounds 1..{last + 1})")
            players, games = _players(con), _games(con)
            forbidden = _forbidden(con)
        require_complete(games, k)
        return build_round_input(k, players, games, forbidden)

    # -------------------------------------------------------------- changes
    def add_player(self, name: str, id: str | None = None, country: str | None = None,
                   rating: float | None = None, *, joined_round: int | None = None,
                   score: int = 0) -> PlayerRecord:
        """Register a player (a late entry once rounds are paired).

        Parameters
        ----------
        name, id, country, rating
            ``id`` defaults to the smallest unused positive integer; ids may not contain
            blanks, nor be ``BYE``; names and ids must be unique (names case-blind).
        joined_round : int, optional
            First round the player can be paired in; default the next round.
        score : int
            Half points given on a late entry, at most ``2 × (joined_round − 1)``.
        """
        with self._write() as con:
            return _add_player(con, name, id, country, rating, joined_round, score)

    def add_players(self, entries: Iterable[Mapping[str, Any]]) -> tuple[PlayerRecord, ...]:
        """Several :meth:`add_player` (keyword arguments in each mapping) in one
        transaction: all are registered, or none (a registration list)."""
        with self._write() as con:
            out = []
            for e in entries:
                unknown = set(e) - _ADD_KEYS
                if unknown:
                    raise InvalidInputError(f"player entry {dict(e)!r}: unknown field "
                                            f"{sorted(unknown)[0]!r}")
                out.append(_add_player(con, **e))
            return tuple(out)

    def withdraw(self, player: str, from_round: int | None = None) -> PlayerRecord:
        """Withdraw a player from ``from_round`` on (default: the next round to pair).

        Refused while the player is still paired in that round or a later one (change
        the pairing first).
        """
        with self._write() as con:
            p = _resolve(con, player)
            k = _last_round(con) + 1 if from_round is None else from_round
            if p.withdrawn_round is not None:
                raise InvalidInputError(f"player {p.id} ({p.name}) already withdrawn from "
                                        f"round {p.withdrawn_round}")
            if k < p.joined_round:
                raise InvalidInputError(f"player {p.id} ({p.name}): round {k} is before "
                                        f"their first round {p.joined_round}")
            row = con.execute("SELECT round_no, table_no FROM games WHERE round_no >= ? AND "
                              "(black = ? OR white = ?) ORDER BY round_no",
                              (k, p.id, p.id)).fetchone()
            if row is not None:
                raise InvalidInputError(f"player {p.id} ({p.name}) is paired in round "
                                        f"{row[0]} table {row[1]}; change that pairing first")
            con.execute("UPDATE players SET withdrawn_round = ? WHERE id = ?", (k, p.id))
            return _resolve(con, p.id)

    def forbid(self, a: str, b: str) -> None:
        """Forbid ``a`` and ``b`` from meeting (from the next pairing on)."""
        with self._write() as con:
            pa, pb = _resolve(con, a), _resolve(con, b)
            if pa.id == pb.id:
                raise InvalidInputError(f"forbidden pair: {pa.id} twice")
            lo, hi = sorted((pa.id, pb.id))
            con.execute("INSERT OR IGNORE INTO forbidden VALUES (?, ?)", (lo, hi))

    def allow(self, a: str, b: str) -> None:
        """Remove a forbidden pair."""
        with self._write() as con:
            lo, hi = sorted((_resolve(con, a).id, _resolve(con, b).id))
            if con.execute("DELETE FROM forbidden WHERE a = ? AND b = ?",
                           (lo, hi)).rowcount == 0:
                raise InvalidInputError(f"pair {lo}, {hi} is not forbidden")

    def check_planned(self, round_no: int, *, extra_round: bool = False) -> None:
        """Refuse ``round_no`` beyond the planned rounds unless ``extra_round``."""
        with self._read() as con:
            _check_planned(con, round_no, extra_round)

    def store_pairing(self, pairing: Pairing, *, extra_round: bool = False) -> None:
        """Save the next round's tables (a bye is won at once).

        A round beyond the planned number (:attr:`TournamentInfo.rounds`) needs
        ``extra_round=True``.

        Raises
        ------
        InvalidInputError
            Not the next round, a round past the planned ones, earlier results missing,
            an active player missing or twice, an unknown or inactive player, a wrong
            number of byes, a forbidden pair, or repeated table numbers.
        """
        with self._write() as con:
            k = pairing.round_no
            last = _last_round(con)
            if k != last + 1:
                raise InvalidInputError(f"round {k}: the next round to pair is {last + 1}")
            _check_planned(con, k, extra_round)
            require_complete(_games(con, None), k)
            tables = [_normalise(t) for t in pairing.tables]
            check_pairing(k, tables, _players(con), _forbidden(con))
            con.execute("INSERT INTO rounds VALUES (?, ?, ?)",
                        (k, pairing.method, pairing.total_cost))
            for t in tables:
                _insert_table(con, k, t)

    def delete_round(self, round_no: int) -> None:
        """Delete the last paired round, if none of its games has a result."""
        with self._write() as con:
            last = _last_round(con)
            if round_no != last or last == 0:
                raise InvalidInputError(f"round {round_no}: only the last paired round "
                                        f"({last}) can be deleted")
            done = [g.table for g in _games(con, round_no) if g.has_result and not g.is_bye]
            if done:
                raise InvalidInputError(f"round {round_no}: results already entered at "
                                        f"table {', '.join(map(str, done))}")
            con.execute("DELETE FROM games WHERE round_no = ?", (round_no,))
            con.execute("DELETE FROM rounds WHERE round_no = ?", (round_no,))

    def set_result(self, round_no: int, who: int | str, black_discs: int, white_discs: int,
                   *, replace: bool = False, by: str = "auto") -> GameRecord:
        """Enter a game's disc counts.

        ``who`` names the game, read according to ``by``: ``"table"`` (a table number),
        ``"player"`` (a player's id or name) or ``"auto"``: an ``int`` is a table; a
        string of digits is whichever of table or player id it can be in the round, and
        is refused when it could be both (two different games); any other string is a
        player. ``replace=True`` corrects a result already entered; otherwise a second
        result for the same game is refused.

        Raises
        ------
        InvalidInputError
            Round not paired, no such table, player not paired in the round, an
            ambiguous number, a bye, a result already entered, or discs that do not add
            up (each 0..64, sum ≤ 64).
        """
        with self._write() as con:
            return _set_result(con, round_no, _which(con, round_no, who, by), black_discs,
                               white_discs, replace)

    def set_results(self, round_no: int, results: Sequence[tuple[int | str, int, int]], *,
                    forfeits: Sequence[tuple[str, bool]] = (), replace: bool = False,
                    by: str = "auto") -> tuple[GameRecord, ...]:
        """Several :meth:`set_result` of one round ``(who, black_discs, white_discs)``
        and several :meth:`set_forfeit` ``(absent, both)`` in one transaction: all are
        entered, or none (a results sheet). Returns the games, results first."""
        with self._write() as con:
            games = [_set_result(con, round_no, _which(con, round_no, who, by), b, w,
                                 replace)
                     for who, b, w in results]
            games += [_set_forfeit(con, round_no, absent, both, replace)
                      for absent, both in forfeits]
            return tuple(games)

    def set_forfeit(self, round_no: int, absent: str, *, both: bool = False,
                    replace: bool = False) -> GameRecord:
        """Score ``absent``'s game of ``round_no`` as a forfeit: they did not turn up, the
        opponent wins (``both=True``: neither came, both lose). Scoring in
        :mod:`gameopt.pairing.records` ("Forfeits"). ``replace=True`` overwrites a result
        already entered. Withdraw the absent player separately if they are gone.

        Raises
        ------
        InvalidInputError
            Round not paired, unknown player, player not paired in the round, a bye, a
            result already entered.
        """
        with self._write() as con:
            return _set_forfeit(con, round_no, absent, both, replace)

    def swap_players(self, round_no: int, a: str, b: str) -> list[PairingWarning]:
        """Exchange the seats of two players of the last round (same table: colours).

        Only tables without a result can change. Returns what the change did that the
        engine would avoid (rematch, forbidden pair, colour imbalance, second bye).
        """
        with self._write() as con:
            _require_changeable(con, round_no)
            pa, pb = _resolve(con, a), _resolve(con, b)
            if pa.id == pb.id:
                raise InvalidInputError(f"round {round_no}: swapping {pa.id} with itself")
            ga, gb = (_game_of(con, round_no, p.id) for p in (pa, pb))
            for g in (ga, gb):
                if g.has_result and not g.is_bye:
                    raise InvalidInputError(f"round {round_no} table {g.table}: already "
                                            "played; cannot change")
            if ga.table == gb.table:
                if ga.is_bye:
                    raise InvalidInputError(f"round {round_no} table {ga.table}: a bye")
                new = [(ga.table, ga.white, ga.black)]
            else:
                seat = {pa.id: pb.id, pb.id: pa.id}
                new = [(g.table, seat.get(g.black, g.black), seat.get(g.white, g.white))
                       for g in (ga, gb)]
            return _rewrite_tables(con, round_no, new)

    def replace_player(self, round_no: int, old: str, new: str) -> list[PairingWarning]:
        """Put ``new`` in ``old``'s seat of the last round; either may be ``BYE``.

        ``new`` must be active in the round and not paired in it; ``old`` is left
        without a game (an ``"absent"`` warning). Replacing the bye's empty seat with a
        player turns the bye into a game; replacing a player with ``BYE`` gives the
        opponent the bye.
        """
        with self._write() as con:
            _require_changeable(con, round_no)
            old_id = BYE if old == BYE else _resolve(con, old).id
            if new == BYE:
                new_id = BYE
            else:
                pn = _resolve(con, new)
                new_id = pn.id
                if not pn.active_in(round_no):
                    raise InvalidInputError(f"player {pn.id} ({pn.name}) is not active in "
                                            f"round {round_no}")
                if _game_or_none(con, round_no, pn.id) is not None:
                    raise InvalidInputError(f"player {pn.id} ({pn.name}) is already paired "
                                            f"in round {round_no}")
            if old_id == new_id:
                raise InvalidInputError(f"round {round_no}: replacing {old_id} by itself")
            g = (_bye_table(con, round_no) if old_id == BYE
                 else _game_of(con, round_no, old_id))
            if g.has_result and not g.is_bye:
                raise InvalidInputError(f"round {round_no} table {g.table}: already played; "
                                        "cannot change")
            black = new_id if g.black == old_id else g.black
            white = new_id if g.white == old_id else g.white
            if black == BYE and white == BYE:
                raise InvalidInputError(f"round {round_no} table {g.table}: would be empty")
            warnings = _rewrite_tables(con, round_no, [(g.table, black, white)])
            if old_id != BYE:
                warnings.append(PairingWarning(
                    "absent", round_no, g.table, (old_id,),
                    f"round {round_no}: {old_id} has no game (withdraw or pair them)"))
            return warnings


# ------------------------------------------------------------------ connection
def _connect(path: Path, uri: bool = False) -> sqlite3.Connection:
    target = f"file:{quote(str(path.resolve()))}?mode=rw" if uri else str(path)
    con = sqlite3.connect(target, uri=uri, isolation_level=None, timeout=10.0)
    try:
        con.execute("PRAGMA journal_mode = DELETE")
        con.execute("PRAGMA synchronous = FULL")
        con.execute("PRAGMA foreign_keys = ON")
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        con.close()
        raise InvalidInputError(f"{path}: not a tournament file ({' '.join(str(e).split())})"
                                ) from None
    return con


@contextmanager
def _transaction(con: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls everything back."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield
        con.execute("COMMIT")
    except sqlite3.IntegrityError as e:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise InvalidInputError(f"{path}: change refused by the schema ({e})") from None
    except (sqlite3.DatabaseError, _DamagedRow) as e:
        with suppress(sqlite3.DatabaseError):
            if con.in_transaction:
                con.execute("ROLLBACK")
        raise _damaged(path, e) from None
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


def _check_schema(con: sqlite3.Connection, path: Path) -> None:
    try:
        rows = dict(con.execute("SELECT key, value FROM meta").fetchall())
    except (ValueError, TypeError) as e:  # bad UTF-8 in a value, or not key/value rows
        raise _damaged(path, e) from None
    except sqlite3.DatabaseError as e:
        if "malformed" in str(e):
            raise _damaged(path, e) from None
        raise InvalidInputError(f"{path}: not a gameopt tournament file") from None
    if rows.get("format") != _FORMAT:
        raise InvalidInputError(f"{path}: not a gameopt tournament file")
    version = rows.get("schema_version")
    if version not in ("1", str(SCHEMA_VERSION)):
        raise InvalidInputError(f"{path}: schema version {version}, this gameopt reads "
                                f"versions 1 and {SCHEMA_VERSION}")
    _integrity_check(con, path, "quick_check")
    if version == "1":
        _upgrade_v1(con, path)


def _upgrade_v1(con: sqlite3.Connection, path: Path) -> None:
    """Version 1 to 2 in one transaction: ``games`` rebuilt with the ``forfeit`` column
    and the wider check (SQLite cannot alter a check), every row copied."""
    cols = ("round_no, table_no, black, white, black_discs, white_discs, result, cost, "
            "terms")
    con.execute("PRAGMA foreign_keys = OFF")
    try:
        with _transaction(con, path):
            _integrity_check(con, path)
            con.execute("ALTER TABLE games RENAME TO games_v1")
            con.execute("DROP INDEX games_black")
            con.execute("DROP INDEX games_white")
            for stmt in (_GAMES_TABLE + _GAMES_INDEXES).split(";"):
                if stmt.strip():
                    con.execute(stmt)
            con.execute(f"INSERT INTO games ({cols}) SELECT {cols} FROM games_v1")
            con.execute("DROP TABLE games_v1")
            con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                        (str(SCHEMA_VERSION),))
            con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            bad = con.execute("PRAGMA foreign_key_check").fetchall()
            if bad:
                raise InvalidInputError(f"{path}: cannot upgrade (foreign key {bad[0]})")
    finally:
        con.execute("PRAGMA foreign_keys = ON")


def _integrity_check(con: sqlite3.Connection, path: Path, pragma: str = "integrity_check"
                     ) -> None:
    """Refuse a damaged file: SQLite's ``quick_check`` (on opening; pages and records)
    or full ``integrity_check`` (before the first change; also every index against its
    table, such as the unique index that allows one game per player per round)."""
    try:
        rows = con.execute(f"PRAGMA {pragma}").fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:  # bad UTF-8 in its report
        raise _damaged(path, e) from None
    if [r[0] for r in rows] != ["ok"]:
        more = f"; {len(rows) - 1} more problems" if len(rows) > 1 else ""
        first = " ".join(str(rows[0][0]).replace("*** in database main ***", "").split())
        raise InvalidInputError(f"{path}: damaged tournament file ({first}{more}); "
                                "use a backup copy")


def _damaged(path: Path, e: Exception) -> InvalidInputError:
    msg = " ".join(str(e).split())
    return InvalidInputError(f"{path}: damaged tournament file ({msg}); use a backup copy")


def _link_new(tmp: Path, path: Path) -> None:
    """Move ``tmp`` to ``path`` unless ``path`` exists (atomic where links exist)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise InvalidInputError(f"{path}: file exists; not overwriting it") from None
    except OSError:  # a file system without hard links
        if path.exists():
            raise InvalidInputError(f"{path}: file exists; not overwriting it") from None
        os.replace(tmp, path)
    with suppress(OSError):  # make the new directory entry durable
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# ------------------------------------------------------------------ validation
def _clean_info(info: TournamentInfo) -> TournamentInfo:
    name = " ".join(str(info.name).split())
    if not name:
        raise InvalidInputError("tournament name is empty")
    country = check_country(info.country, "tournament")
    date = None
    if info.date is not None and str(info.date).strip():
        try:
            date = _dt.date.fromisoformat(str(info.date).strip()).isoformat()
        except ValueError:
            raise InvalidInputError(f"tournament date {info.date!r} is not YYYY-MM-DD") from None
    if info.rounds is not None and (isinstance(info.rounds, bool)
                                    or not isinstance(info.rounds, int) or info.rounds < 1):
        raise InvalidInputError(f"number of rounds {info.rounds!r} must be a positive integer")
    return TournamentInfo(name, country, date, info.rounds)


def _normalise(t: Table) -> Table:
    """Put the bye's player on the black side (``white == BYE``)."""
    if t.black == BYE and t.white != BYE:
        return Table(t.number, t.white, BYE, t.cost, dict(t.terms))
    return t


def _require_changeable(con: sqlite3.Connection, round_no: int) -> None:
    last = _last_round(con)
    if round_no != last or last == 0:
        raise InvalidInputError(f"round {round_no}: only the last paired round ({last}) "
                                "can be changed")


# ------------------------------------------------------------------ rows
def _write_meta(con: sqlite3.Connection, info: TournamentInfo,
                penalties: PenaltyParams | None) -> None:
    rows = {"format": _FORMAT, "schema_version": str(SCHEMA_VERSION), "name": info.name,
            "country": info.country, "date": info.date,
            "rounds": None if info.rounds is None else str(info.rounds),
            "penalties": _penalties_json(penalties or PenaltyParams())}
    con.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", rows.items())


def _penalties_json(params: PenaltyParams) -> str:
    return json.dumps(params.to_dict(), sort_keys=True)


def _read_info(con: sqlite3.Connection) -> TournamentInfo:
    m = dict(con.execute("SELECT key, value FROM meta").fetchall())
    if not isinstance(m.get("name"), str):
        raise _DamagedRow(f"meta record 'name' is {m.get('name')!r:.40}")
    return TournamentInfo(m["name"], m.get("country"), m.get("date"),
                          None if m.get("rounds") is None else int(m["rounds"]))


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


_ADD_KEYS = {"name", "id", "country", "rating", "joined_round", "score"}


def _add_player(con: sqlite3.Connection, name: str, id: str | None = None,
                country: str | None = None, rating: float | None = None,
                joined_round: int | None = None, score: int = 0) -> PlayerRecord:
    seq = con.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM players").fetchone()[0]
    if id is None:
        taken = {r[0] for r in con.execute("SELECT id FROM players")}
        id = str(next(i for i in range(1, len(taken) + 2) if str(i) not in taken))
    k = _last_round(con) + 1 if joined_round is None else joined_round
    rec = PlayerRecord(id=id, name=name, country=country, rating=rating, seq=seq,
                       joined_round=k, initial_score=score)
    return _insert_player(con, rec)


def _insert_player(con: sqlite3.Connection, p: PlayerRecord) -> PlayerRecord:
    if con.execute("SELECT 1 FROM players WHERE id = ?", (p.id,)).fetchone():
        raise InvalidInputError(f"player id {p.id} already taken")
    other = con.execute("SELECT id FROM players WHERE name_key = ?",
                        (_name_key(p.name),)).fetchone()
    if other:
        raise InvalidInputError(f"player name {p.name!r} already taken (id {other[0]})")
    con.execute("INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (p.seq, p.id, p.name, _name_key(p.name), p.country, p.rating,
                 p.joined_round, p.initial_score, p.withdrawn_round))
    return p


def _insert_table(con: sqlite3.Connection, k: int, t: Table) -> None:
    result = "B" if t.white == BYE else None
    con.execute("INSERT INTO games (round_no, table_no, black, white, result, cost, terms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (k, t.number, t.black, t.white, result, int(t.cost),
                 json.dumps({str(n): int(v) for n, v in t.terms.items()}, sort_keys=True)))


def _insert_history(con: sqlite3.Connection, data: TournamentData) -> None:
    known = {p.id for p in data.players}
    methods = {r.round_no: r for r in data.rounds}
    for k in sorted({g.round_no for g in data.games} | set(methods)):
        r = methods.get(k, RoundRecord(k, "import"))
        con.execute("INSERT INTO rounds VALUES (?, ?, ?)", (k, r.method, r.total_cost))
    seen: set[tuple[int, str]] = set()
    for g in data.games:
        where = f"round {g.round_no} table {g.table}"
        for pid in g.players():
            if pid not in known:
                raise InvalidInputError(f"{where}: unknown player {pid!r}")
            if (g.round_no, pid) in seen:
                raise InvalidInputError(f"{where}: player {pid} plays twice in the round")
            seen.add((g.round_no, pid))
        con.execute("INSERT INTO games (round_no, table_no, black, white, black_discs, "
                    "white_discs, result, forfeit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (g.round_no, g.table, g.black, g.white, g.black_discs, g.white_discs,
                     None if g.result is None else g.result.value, int(g.forfeit)))
    for pair in data.forbidden:
        lo, hi = sorted(pair)
        for pid in (lo, hi):
            if pid not in known:
                raise InvalidInputError(f"forbidden pair: unknown player {pid!r}")
        con.execute("INSERT OR IGNORE INTO forbidden VALUES (?, ?)", (lo, hi))


def _last_round(con: sqlite3.Connection) -> int:
    return int(con.execute("SELECT COALESCE(MAX(round_no), 0) FROM rounds").fetchone()[0])


class _DamagedRow(ValueError):
    """A record whose values do not have their columns' types (a damaged file)."""


_OPT_INT = (int, type(None))
_OPT_STR = (str, type(None))
_OPT_NUM = (int, float, type(None))
_PLAYER_TYPES = (int, str, str, _OPT_STR, _OPT_NUM, int, int, _OPT_INT)
_GAME_TYPES = (int, int, str, str, _OPT_INT, _OPT_INT, _OPT_STR, _OPT_INT)


def _typed(row: Any, types: tuple[Any, ...], what: str) -> Any:
    """``row`` when each value has its column's type, else :class:`_DamagedRow`."""
    for k, (v, t) in enumerate(zip(row, types, strict=True)):
        if not isinstance(v, t) or isinstance(v, bool):
            raise _DamagedRow(f"{what} record with {type(v).__name__} {v!r:.40} in "
                              f"column {k + 1}")
    return row


def _player_row(row: Any) -> PlayerRecord:
    seq, pid, name, country, rating, joined, initial, withdrawn = _typed(
        row, _PLAYER_TYPES, "player")
    return PlayerRecord(id=pid, name=name, country=country, rating=rating, seq=seq,
                        joined_round=joined, initial_score=initial, withdrawn_round=withdrawn)


_PLAYER_COLS = ("seq, id, name, country, rating, joined_round, initial_score, "
                "withdrawn_round")


def _players(con: sqlite3.Connection) -> tuple[PlayerRecord, ...]:
    return tuple(_player_row(r) for r in con.execute(
        f"SELECT {_PLAYER_COLS} FROM players ORDER BY seq"))


def _resolve(con: sqlite3.Connection, key: str) -> PlayerRecord:
    key = str(key).strip()
    row = con.execute(f"SELECT {_PLAYER_COLS} FROM players WHERE id = ?", (key,)).fetchone()
    if row is None:
        row = con.execute(f"SELECT {_PLAYER_COLS} FROM players WHERE name_key = ?",
                          (_name_key(key),)).fetchone()
    if row is None:
        raise InvalidInputError(f"unknown player {key!r} (neither an id nor a name)")
    return _player_row(row)


_GAME_COLS = "round_no, table_no, black, white, black_discs, white_discs, result, forfeit"


def _game_row(row: Any) -> GameRecord:
    r, t, b, w, bd, wd, res, ff = _typed(row, _GAME_TYPES, "game")
    return GameRecord(r, t, b, w, bd, wd, None if res is None else Outcome(res), bool(ff))


def _games(con: sqlite3.Connection, round_no: int | None = None) -> tuple[GameRecord, ...]:
    if round_no is None:
        rows = con.execute(f"SELECT {_GAME_COLS} FROM games ORDER BY round_no, table_no")
    else:
        rows = con.execute(f"SELECT {_GAME_COLS} FROM games WHERE round_no = ? "
                           "ORDER BY table_no", (round_no,))
    return tuple(_game_row(r) for r in rows)


def _rounds(con: sqlite3.Connection) -> tuple[RoundRecord, ...]:
    return tuple(RoundRecord(*r) for r in con.execute(
        "SELECT round_no, method, total_cost FROM rounds ORDER BY round_no"))


def _forbidden(con: sqlite3.Connection) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(_typed(r, (str, str), "forbidden pair"))
                     for r in con.execute("SELECT a, b FROM forbidden"))


def _find_game(con: sqlite3.Connection, round_no: int, who: int | str) -> GameRecord:
    if not con.execute("SELECT 1 FROM rounds WHERE round_no = ?", (round_no,)).fetchone():
        raise InvalidInputError(f"round {round_no} is not paired")
    if isinstance(who, bool) or not isinstance(who, int | str):
        raise InvalidInputError(f"round {round_no}: {who!r} is neither a table nor a player")
    if isinstance(who, int):
        row = con.execute(f"SELECT {_GAME_COLS} FROM games WHERE round_no = ? AND "
                          "table_no = ?", (round_no, who)).fetchone()
        if row is None:
            raise InvalidInputError(f"round {round_no} has no table {who}")
        return _game_row(row)
    return _game_of(con, round_no, _resolve(con, who).id)


_BY = ("auto", "table", "player")


def _is_table(text: str) -> bool:
    """A table number as sheets write it: ASCII digits (not ٣), at most 9."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _which(con: sqlite3.Connection, round_no: int, who: int | str, by: str) -> int | str:
    """``who`` as :func:`_find_game` takes it (int: a table, str: a player), per ``by``."""
    if by not in _BY:
        raise InvalidInputError(f"result by {by!r}: choose {', '.join(_BY)}")
    if not con.execute("SELECT 1 FROM rounds WHERE round_no = ?", (round_no,)).fetchone():
        raise InvalidInputError(f"round {round_no} is not paired")
    if isinstance(who, bool) or not isinstance(who, int | str):
        raise InvalidInputError(f"round {round_no}: {who!r} is neither a table nor a player")
    text = str(who).strip()
    if by == "table":
        if not _is_table(text):
            raise InvalidInputError(f"round {round_no}: table {text!r} is not a number")
        return int(text)
    if by == "player" or isinstance(who, str) and not _is_table(text):
        return text
    if isinstance(who, int):
        return who
    table = con.execute(f"SELECT {_GAME_COLS} FROM games WHERE round_no = ? AND "
                        "table_no = ?", (round_no, int(text))).fetchone()
    try:
        player: PlayerRecord | None = _resolve(con, text)
    except InvalidInputError:
        player = None
    seat = None if player is None else _game_or_none(con, round_no, player.id)
    if table is None and seat is None:
        raise InvalidInputError(f"round {round_no}: {text!r} is neither a table nor a "
                                "player paired in the round")
    if seat is None:
        return int(text)
    if table is None or _game_row(table).table == seat.table:
        return text
    g = _game_row(table)
    assert player is not None
    raise InvalidInputError(
        f"round {round_no}: {text!r} could be table {g.table} ({g.black} - {g.white}) or "
        f"player {player.id} ({player.name}, table {seat.table}); say which "
        f"(--table {g.table} or --player {player.id})")


def _check_planned(con: sqlite3.Connection, round_no: int, extra_round: bool) -> None:
    planned = _read_info(con).rounds
    if planned is not None and round_no > planned and not extra_round:
        raise InvalidInputError(f"round {round_no}: the event has {planned} planned "
                                f"round{'' if planned == 1 else 's'}; pair an extra round "
                                "with --extra-round")


def _set_result(con: sqlite3.Connection, round_no: int, who: int | str, black_discs: int,
                white_discs: int, replace: bool) -> GameRecord:
    g = _find_game(con, round_no, who)
    where = f"round {round_no} table {g.table}"
    if g.is_bye:
        raise InvalidInputError(f"{where}: {g.black} has a bye; there is no result")
    if g.has_result and not replace:
        raise InvalidInputError(f"{where}: result already entered ({result_text(g)}); use "
                                "--replace to correct it")
    check_discs(black_discs, white_discs, where)
    new = GameRecord(round_no, g.table, g.black, g.white, black_discs, white_discs)
    assert new.result is not None
    con.execute("UPDATE games SET black_discs = ?, white_discs = ?, result = ?, forfeit = 0 "
                "WHERE round_no = ? AND table_no = ?",
                (black_discs, white_discs, new.result.value, round_no, g.table))
    return new


def _set_forfeit(con: sqlite3.Connection, round_no: int, absent: str, both: bool,
                 replace: bool) -> GameRecord:
    p = _resolve(con, absent)
    g = _game_of(con, round_no, p.id)
    where = f"round {round_no} table {g.table}"
    if g.is_bye:
        raise InvalidInputError(f"{where}: {g.black} has a bye; there is no game to forfeit")
    if g.has_result and not replace:
        raise InvalidInputError(f"{where}: result already entered ({result_text(g)}); use "
                                "--replace to correct it")
    if both:
        result = Outcome.NEITHER
    else:
        result = Outcome.WHITE if p.id == g.black else Outcome.BLACK
    new = GameRecord(round_no, g.table, g.black, g.white, None, None, result, forfeit=True)
    con.execute("UPDATE games SET black_discs = NULL, white_discs = NULL, result = ?, "
                "forfeit = 1 WHERE round_no = ? AND table_no = ?",
                (result.value, round_no, g.table))
    return new



def _game_or_none(con: sqlite3.Connection, round_no: int, pid: str) -> GameRecord | None:
    row = con.execute(f"SELECT {_GAME_COLS} FROM games WHERE round_no = ? AND "
                      "(black = ? OR white = ?)", (round_no, pid, pid)).fetchone()
    return None if row is None else _game_row(row)


def _game_of(con: sqlite3.Connection, round_no: int, pid: str) -> GameRecord:
    g = _game_or_none(con, round_no, pid)
    if g is None:
        raise InvalidInputError(f"player {pid} is not paired in round {round_no}")
    return g


def _bye_table(con: sqlite3.Connection, round_no: int) -> GameRecord:
    row = con.execute(f"SELECT {_GAME_COLS} FROM games WHERE round_no = ? AND white = ? "
                      "ORDER BY table_no", (round_no, BYE)).fetchone()
    if row is None:
        raise InvalidInputError(f"round {round_no} has no bye")
    return _game_row(row)


def _rewrite_tables(con: sqlite3.Connection, k: int,
                    new: list[tuple[int, str, str]]) -> list[PairingWarning]:
    """Replace tables of round ``k`` by hand; the round's method gets ``+manual``."""
    for number, _, _ in new:
        con.execute("DELETE FROM games WHERE round_no = ? AND table_no = ?", (k, number))
    tables = [_normalise(Table(n, b, w, 0, {_MANUAL: 0})) for n, b, w in new]
    for t in tables:
        _insert_table(con, k, t)
    method = con.execute("SELECT method FROM rounds WHERE round_no = ?", (k,)).fetchone()[0]
    if not method.endswith("+" + _MANUAL):
        method += "+" + _MANUAL
    total = con.execute("SELECT SUM(cost) FROM games WHERE round_no = ?", (k,)).fetchone()[0]
    con.execute("UPDATE rounds SET method = ?, total_cost = ? WHERE round_no = ?",
                (method, total or 0, k))
    return pairing_warnings(k, tables, _games(con), _forbidden(con))
