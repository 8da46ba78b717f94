"""FIDE's Tournament Report File (TRF-16), read and written, with our extension records.

What FIDE's TRF-16 carries is written in its own columns, so other pairing programs
(bbpPairings, JaVaFo, Swiss-Manager) read our files and we read theirs; what it has no
room for goes into extension records whose codes start with ``XX``, which those programs
skip.

Records (FIDE, "TRF16: Tournament Report File", FIDE Handbook C.04 Annex 2; the ``XXR``
and ``XXP`` records as bbpPairings reads them):

* ``012`` tournament name, ``032`` federation (country), ``042`` start date
  (``YYYY/MM/DD``), ``062`` number of players, ``XXR`` planned rounds;
* ``001`` a player, fixed columns (1-based): 5-8 start rank, 15-47 name, 49-52 rating,
  54-56 federation, 58-68 id (FIDE number), 81-84 points, 86-89 rank; then one block of
  10 characters per round from column 90: ``␣␣oooo␣c␣r``, the opponent's start rank
  (``0000`` for none), the colour (``b``, ``w``, ``-``) and the result: ``1`` ``=``
  ``0`` for a game played, ``+``/``-`` a forfeit won/lost (``-`` on both sides when
  neither came), ``U`` the bye (a win), ``Z``/``H``/``F`` not paired with 0, ½ or 1
  point (our late entrants' given points are written as ``F``/``H`` in the rounds they
  missed). Only rounds whose results are all in are written in these blocks, so another
  program can pair the next round from the file;
* ``XXP r1 r2`` a forbidden pair (start ranks).

Our extension records: ``XXT round table black white [bd-wd]`` every table with its
number, the two start ranks (``0000`` for the bye's empty seat) and the discs as entered
(paired rounds without results included); ``XXI rank id`` a player id that does not fit
columns 58-68; ``XXN rank name`` a name longer than 33 characters; ``XXK rank country``
a country longer than 3; ``XXE rank rating`` a rating that is not a whole number up to
9999; ``XXL rank round half-points`` a late entry; ``XXD rank round`` a withdrawal;
``XXM round method cost`` the pairing method and the round's total penalty.

Colours: Othello's black, who moves first, is ``b``. A file from another program has no
disc counts: its games are read as score-only results (32 discs each for the
tie-breaks); a forfeit shown without colours (``-``) gets black for the lower start
rank. Its ids are the FIDE numbers, or the start ranks when that column is blank.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE
from gameopt.pairing.records import GameRecord, Outcome, PlayerRecord
from gameopt.pairing.standings import compute_standings
from gameopt.pairing.store import RoundRecord, TournamentData, TournamentInfo

__all__ = ["format_trf16", "parse_trf16"]

_NAME, _RATING, _FED, _ID = (14, 33), (48, 4), (53, 3), (57, 11)
_POINTS, _RANK, _FIRST, _STRIDE = (80, 4), (85, 4), 89, 10
_PLAYED = {"1": Outcome.BLACK, "0": Outcome.WHITE, "=": Outcome.DRAW,
           "W": Outcome.BLACK, "L": Outcome.WHITE, "D": Outcome.DRAW}
_CODE = {2: "1", 1: "=", 0: "0"}


def _rating_text(r: float | None) -> str | None:
    """The rating as columns 49-52 take it, or None when it does not fit."""
    if r is None:
        return ""
    if float(r).is_integer() and 0 <= r <= 9999:
        return str(int(r))
    return None


def _complete_rounds(games: Sequence[GameRecord]) -> int:
    """The last round k such that every game of rounds 1..k has a result."""
    rounds = sorted({g.round_no for g in games})
    done = 0
    for k in rounds:
        if k != done + 1 or any(not g.has_result for g in games if g.round_no == k):
            break
        done = k
    return done


def format_trf16(data: TournamentData) -> str:
    """The TRF-16 file of ``data`` (records in the module docstring)."""
    players = sorted(data.players, key=lambda p: p.seq)
    if len(players) > 9999:
        raise InvalidInputError(f"TRF: {len(players)} players, at most 9999")
    rank_of = {p.id: i for i, p in enumerate(players, start=1)}
    info = data.info
    out = [f"012 {info.name}"]
    if info.country:
        out.append(f"032 {info.country}")
    if info.date:
        out.append(f"042 {info.date.replace('-', '/')}")
    out.append(f"062 {len(players)}")
    if info.rounds is not None:
        out.append(f"XXR {info.rounds}")
    out += [f"XXP {' '.join(str(r) for r in sorted(rank_of[x] for x in pair))}"
            for pair in sorted(data.forbidden, key=sorted)
            if all(x in rank_of for x in pair)]
    out += [f"XXM {r.round_no} {r.method} {r.total_cost}"
            for r in sorted(data.rounds, key=lambda r: r.round_no)]
    for p in players:
        r = rank_of[p.id]
        if len(p.id) > _ID[1]:
            out.append(f"XXI {r} {p.id}")
        if len(p.name) > _NAME[1]:
            out.append(f"XXN {r} {p.name}")
        if p.country and len(p.country) > _FED[1]:
            out.append(f"XXK {r} {p.country}")
        if _rating_text(p.rating) is None:
            out.append(f"XXE {r} {p.rating!r}")
        if p.joined_round > 1 or p.initial_score:
            out.append(f"XXL {r} {p.joined_round} {p.initial_score}")
        if p.withdrawn_round is not None:
            out.append(f"XXD {r} {p.withdrawn_round}")
    for g in sorted(data.games, key=lambda g: (g.round_no, g.table)):
        white = "0000" if g.is_bye else f"{rank_of[g.white]:04d}"
        discs = "" if g.black_discs is None else f" {g.black_discs}-{g.white_discs}"
        out.append(f"XXT {g.round_no} {g.table} {rank_of[g.black]:04d} {white}{discs}")
    done = _complete_rounds(data.games)
    counted = [g for g in data.games if g.round_no <= done]
    table = {s.id: s for s in compute_standings(players, counted, through_round=done)}
    seat = {(g.round_no, pid): g for g in counted for pid in g.players()}
    for p in players:
        s = table[p.id]
        rating = _rating_text(p.rating) or ""
        fed = p.country if p.country and len(p.country) <= _FED[1] else ""
        pid = p.id if len(p.id) <= _ID[1] else ""
        points = f"{s.score / 2:.1f}"
        if len(points) > _POINTS[1]:
            raise InvalidInputError(f"TRF: player {p.id}: {points} points do not fit")
        line = (f"001 {rank_of[p.id]:>4}      {p.name[:_NAME[1]]:<33} {rating:>4} "
                f"{fed:<3} {pid:>11} {'':10} {points:>4} {s.rank:>4}")
        given = _given_blocks(p)
        for k in range(1, done + 1):
            line += given.get(k) or _block(seat.get((k, p.id)), p.id, rank_of)
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


def _given_blocks(p: PlayerRecord) -> dict[int, str]:
    """A late entrant's given points as full/half-point byes in the rounds missed."""
    half = p.initial_score
    out: dict[int, str] = {}
    for k in range(1, p.joined_round):
        code = "F" if half >= 2 else "H" if half == 1 else "Z"
        half -= min(half, 2)
        out[k] = f"  0000 - {code}"
    return out


def _block(g: GameRecord | None, pid: str, rank_of: dict[str, int]) -> str:
    if g is None:
        return "  0000 - Z"
    if g.is_bye:
        return "  0000 - U"
    colour = "b" if g.black == pid else "w"
    opp = rank_of[g.opponent(pid)]
    if g.forfeit:
        code = "+" if g.score_of(pid) == 2 else "-"
    else:
        code = _CODE[g.score_of(pid)]
    return f"  {opp:>4} {colour} {code}"


# ------------------------------------------------------------------ reading
@dataclass(frozen=True)
class _Block:
    round_no: int
    opp: int  # 0: none
    colour: str
    code: str


_BLOCK = re.compile(r"  ([ 0-9]{4}) ([bwBW\- ]) ([10=+\-WDLUZHF ])")  # ASCII digits only
_ASCII_INT = re.compile(r"[-+]?[0-9]{1,18}")
_ASCII_NUM = re.compile(r"[-+]?([0-9]{1,18}(\.[0-9]*)?|\.[0-9]+)")


def _int(text: str) -> int:
    """An integer in ASCII, spaces around it allowed (``int`` alone takes ``١٢``, ``1_0``):
    ValueError else. Shared with the legacy TRF reader of :mod:`gameopt.pairing.formats`."""
    if not _ASCII_INT.fullmatch(text.strip(" ")):
        raise ValueError(text)
    return int(text)


def _float(text: str) -> float:
    """A finite decimal in ASCII (``float`` alone takes ``nan``, ``inf``, ``١``)."""
    if not _ASCII_NUM.fullmatch(text.strip(" ")):
        raise ValueError(text)
    return float(text)


def parse_trf16(text: str, source: str = "<text>") -> TournamentData:
    """Read a TRF-16 file: ours (with the extension records) or another program's.

    Raises
    ------
    InvalidInputError
        One line naming the file and line (or the player and round): an unknown or
        malformed record, two sides of a game that disagree, a half- or full-point bye
        in the middle of an event (not in this model).
    """
    head: dict[str, str] = {}
    ext: list[tuple[int, str, list[str]]] = []
    rows: list[tuple[int, str]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        code, value = raw[:3], raw[4:].strip()
        if code == "001":
            rows.append((lineno, raw.rstrip()))
        elif code in ("XXT", "XXI", "XXN", "XXK", "XXE", "XXL", "XXD", "XXM", "XXP"):
            ext.append((lineno, code, value.split()))
        elif code.isdigit() or code.startswith("XX"):
            head[code] = value
        else:
            raise InvalidInputError(f"{source}:{lineno}: unknown record {code!r}")
    counts = {code: _head_count(head[code], code, source) for code in ("062", "XXR", "142")
              if head.get(code, "").strip()}
    if not rows:
        raise InvalidInputError(f"{source}: no player (001) record")
    players: dict[int, PlayerRecord] = {}
    blocks: dict[int, list[_Block]] = {}
    for lineno, raw in rows:
        p, bl = _read_player(raw, f"{source}:{lineno}")
        if p.seq in players:
            raise InvalidInputError(f"{source}:{lineno}: start rank {p.seq} repeated")
        players[p.seq] = p
        blocks[p.seq] = bl
    extra = _read_extensions(ext, players, source)
    players = extra.players
    games = _games(blocks, players, extra, source)
    ids = [p.id for p in players.values()]
    if len(set(ids)) != len(ids):
        dup = sorted({x for x in ids if ids.count(x) > 1})[0]
        raise InvalidInputError(f"{source}: player id {dup!r} repeated")
    if "062" in counts and counts["062"] != len(players):
        raise InvalidInputError(f"{source}: 062 says {counts['062']} players, found "
                                f"{len(players)}")
    rounds = counts.get("XXR") or counts.get("142")
    info = TournamentInfo(head.get("012") or "(unnamed)", head.get("032") or None,
                          _date(head.get("042", ""), source), rounds or None)
    return TournamentData(info, tuple(sorted(players.values(), key=lambda p: p.seq)),
                          tuple(sorted(games, key=lambda g: (g.round_no, g.table))),
                          tuple(extra.methods), frozenset(extra.forbidden))


def _head_count(value: str, code: str, source: str) -> int:
    """A header count (players, rounds): ASCII digits, at most 6 of them."""
    text = value.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise InvalidInputError(f"{source}: {code} {shown!r} is not an integer "
                                "(up to 6 digits)")
    return int(text)


def _date(value: str, source: str) -> str | None:
    if not value.strip():
        return None
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y"):
        try:
            return _dt.datetime.strptime(value.strip(), fmt).date().isoformat()
        except ValueError:
            pass
    raise InvalidInputError(f"{source}: 042: date {value!r} is not YYYY/MM/DD")


def _read_player(raw: str, where: str) -> tuple[PlayerRecord, list[_Block]]:
    line = raw.ljust(_FIRST)

    def col(span: tuple[int, int]) -> str:
        return line[span[0]:span[0] + span[1]].strip()

    rank_s = line[4:8].strip()
    if not _ASCII_INT.fullmatch(rank_s) or int(rank_s) < 1:
        raise InvalidInputError(f"{where}: start rank {rank_s!r} is not a number >= 1")
    seq = int(rank_s)
    rating_s = col(_RATING)
    try:
        rating = _float(rating_s) if rating_s else None
    except ValueError:
        raise InvalidInputError(f"{where}: rating {rating_s!r} is not a number") from None
    name = col(_NAME) or f"Player {seq}"
    pid = col(_ID) or str(seq)
    try:
        p = PlayerRecord(pid, name, col(_FED) or None, rating, seq)
    except InvalidInputError as e:
        raise InvalidInputError(f"{where}: {e}") from None
    out = []
    rest = raw[_FIRST:]
    for i in range(0, len(rest), _STRIDE):
        chunk = rest[i:i + _STRIDE].ljust(_STRIDE)
        k = i // _STRIDE + 1
        if not chunk.strip():
            continue
        m = _BLOCK.fullmatch(chunk)
        if m is None:
            raise InvalidInputError(f"{where}: round {k}: bad block {chunk!r}")
        opp, colour, code = m.groups()
        if opp.strip() and not opp.strip().isdigit():  # '9  9'
            raise InvalidInputError(f"{where}: round {k}: bad block {chunk!r}")
        opp_n = int(opp) if opp.strip() else 0
        out.append(_Block(k, opp_n, colour.lower(), code))
    return p, out


@dataclass
class _Extra:
    players: dict[int, PlayerRecord]
    tables: dict[tuple[int, int], tuple[int, int, tuple[int, int] | None]]
    methods: list[RoundRecord]
    forbidden: set[frozenset[str]]


def _read_extensions(ext: list[tuple[int, str, list[str]]], players: dict[int, PlayerRecord],
                     source: str) -> _Extra:
    """Apply ``XXI``/``XXN``/``XXK``/``XXE``/``XXL``/``XXD``; collect tables, methods and
    forbidden pairs."""
    changes: dict[int, dict[str, object]] = {}
    out = _Extra(dict(players), {}, [], set())
    pairs: list[tuple[int, list[int]]] = []
    for lineno, code, parts in ext:
        where = f"{source}:{lineno}"
        try:
            if code == "XXT":
                if len(parts) not in (4, 5):
                    raise ValueError
                k, table, black, white = (_int(x) for x in parts[:4])
                discs = None
                if len(parts) == 5:
                    bd, _, wd = parts[4].partition("-")
                    discs = (_int(bd), _int(wd))
                out.tables[(k, black)] = (table, white, discs)
            elif code == "XXM" and len(parts) in (2, 3):
                cost = _int(parts[2]) if len(parts) == 3 else 0
                out.methods.append(RoundRecord(_int(parts[0]), parts[1], cost))
            elif code == "XXP" and len(parts) >= 2:
                pairs.append((lineno, [_int(x) for x in parts]))
            else:
                rank = _int(parts[0])
                if rank not in players:
                    raise InvalidInputError(f"{where}: {code}: no player with start rank "
                                            f"{rank}")
                value = " ".join(parts[1:])
                key = {"XXI": "id", "XXN": "name", "XXK": "country"}.get(code)
                if key and value:
                    changes.setdefault(rank, {})[key] = value
                elif code == "XXE" and len(parts) == 2:
                    changes.setdefault(rank, {})["rating"] = _float(parts[1])
                elif code == "XXL" and len(parts) == 3:
                    changes.setdefault(rank, {}).update(joined_round=_int(parts[1]),
                                                        initial_score=_int(parts[2]))
                elif code == "XXD" and len(parts) == 2:
                    changes.setdefault(rank, {})["withdrawn_round"] = _int(parts[1])
                else:
                    raise ValueError
        except (ValueError, IndexError):
            raise InvalidInputError(f"{where}: bad {code} record {' '.join(parts)!r}"
                                    ) from None
    for rank, ch in changes.items():
        try:
            out.players[rank] = replace(players[rank], **ch)  # type: ignore[arg-type]
        except InvalidInputError as e:
            raise InvalidInputError(f"{source}: start rank {rank}: {e}") from None
    for lineno, ranks in pairs:
        unknown = [r for r in ranks if r not in out.players]
        if unknown:
            raise InvalidInputError(f"{source}:{lineno}: XXP: no player with start rank "
                                    f"{unknown[0]}")
        ids = [out.players[r].id for r in ranks]
        out.forbidden |= {frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1:]}
    return out


def _games(blocks: dict[int, list[_Block]], players: dict[int, PlayerRecord], extra: _Extra,
           source: str) -> list[GameRecord]:
    """The games of the ``001`` blocks, each side checked against the other, plus the
    ``XXT`` tables of rounds the blocks do not cover (paired, no results yet)."""
    games: list[GameRecord] = []
    late: dict[int, tuple[int, int]] = {}
    seen: set[tuple[int, int]] = set()
    count: dict[int, int] = {}

    def table_of(k: int, black: int) -> tuple[int, tuple[int, int] | None]:
        t = extra.tables.get((k, black))
        if t is None:
            count[k] = count.get(k, 0) + 1
            return count[k], None
        return t[0], t[2]

    by_round = {(b.round_no, rank): b for rank, bl in blocks.items() for b in bl}
    for rank, bl in sorted(blocks.items()):
        pid = players[rank].id
        first_paired = next((b.round_no for b in bl if b.opp or b.code == "U"), None)
        if first_paired is not None and first_paired > 1:
            given = sum({"F": 2, "H": 1}.get(b.code, 0) for b in bl
                        if b.round_no < first_paired)
            late[rank] = (first_paired, given)
        for b in bl:
            where = f"{source}: player {pid} round {b.round_no}"
            if b.opp == 0:
                if b.code == "U":
                    table, _ = table_of(b.round_no, rank)
                    games.append(GameRecord(b.round_no, table, pid, BYE))
                elif b.code in "FH" and (first_paired is None or b.round_no < first_paired):
                    continue  # a late entrant's given points (above)
                elif b.code in "FH":
                    raise InvalidInputError(f"{where}: a {'full' if b.code == 'F' else 'half'}"
                                            "-point bye in the middle of the event is not "
                                            "supported")
                continue
            if b.opp not in players:
                raise InvalidInputError(f"{where}: no player with start rank {b.opp}")
            mirror = by_round.get((b.round_no, b.opp))
            if mirror is None or mirror.opp != rank:
                raise InvalidInputError(f"{where}: start rank {b.opp}'s record does not "
                                        "show this game")
            key = (b.round_no, min(rank, b.opp))
            if key in seen:
                continue
            seen.add(key)
            games.append(_game(b, mirror, rank, players, table_of, where))
    for rank, (joined, score) in late.items():
        p = players[rank]
        if p.joined_round == 1 and p.initial_score == 0:  # no XXL record: from the blocks
            try:
                players[rank] = replace(p, joined_round=joined, initial_score=score)
            except InvalidInputError as e:
                raise InvalidInputError(f"{source}: {e}") from None
    done = max((g.round_no for g in games), default=0)
    for (k, black), (table, white, discs) in sorted(extra.tables.items()):
        if k <= done:
            continue
        if black not in players or (white and white not in players):
            raise InvalidInputError(f"{source}: XXT round {k} table {table}: unknown start "
                                    "rank")
        bd, wd = discs if discs else (None, None)
        try:
            games.append(GameRecord(k, table, players[black].id,
                                    players[white].id if white else BYE,
                                    None if white == 0 else bd, None if white == 0 else wd))
        except InvalidInputError as e:
            raise InvalidInputError(f"{source}: XXT: {e}") from None
    return games


def _game(b: _Block, mirror: _Block, rank: int, players: dict[int, PlayerRecord],
          table_of: object, where: str) -> GameRecord:
    """One game from its two blocks (``b`` is the lower start rank's)."""
    codes = (b.code, mirror.code)
    if b.colour == "b" or (b.colour == "-" and mirror.colour != "b"):
        black, white, bcode, wcode = rank, b.opp, b.code, mirror.code
    else:
        black, white, bcode, wcode = b.opp, rank, mirror.code, b.code
    if {b.colour, mirror.colour} not in ({"b", "w"}, {"-"}):
        raise InvalidInputError(f"{where}: colours {b.colour!r} and {mirror.colour!r} "
                                "do not match")
    assert callable(table_of)
    table, discs = table_of(b.round_no, black)
    bid, wid = players[black].id, players[white].id
    try:
        if set(codes) <= {"+", "-"}:
            result = {("+", "-"): Outcome.BLACK, ("-", "+"): Outcome.WHITE,
                      ("-", "-"): Outcome.NEITHER}.get((bcode, wcode))
            if result is None:
                raise InvalidInputError(f"{where}: forfeit codes {bcode}/{wcode} do not "
                                        "match")
            return GameRecord(b.round_no, table, bid, wid, result=result, forfeit=True)
        if bcode not in _PLAYED or wcode not in _PLAYED or b.colour == "-":
            raise InvalidInputError(f"{where}: result codes {bcode!r}/{wcode!r}")
        result = _PLAYED[bcode]
        if _PLAYED[wcode] is not {Outcome.BLACK: Outcome.WHITE, Outcome.WHITE: Outcome.BLACK,
                                  Outcome.DRAW: Outcome.DRAW}[result]:
            raise InvalidInputError(f"{where}: results {bcode!r} and {wcode!r} do not "
                                    "match")
        if discs is not None:
            return GameRecord(b.round_no, table, bid, wid, discs[0], discs[1], result)
        return GameRecord(b.round_no, table, bid, wid, result=result)
    except InvalidInputError as e:
        if str(e).startswith(where):
            raise
        raise InvalidInputError(f"{where}: {e}") from None
