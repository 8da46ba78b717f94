"""A tournament's plain records: players, games and their results, and the checks of a round.

The store (or a test, or an importer) keeps a tournament as :class:`PlayerRecord` and
:class:`GameRecord` values; each checks itself on construction, so a bad record is refused
wherever it comes from, with a message naming the player or the round and table. The
checks of a round's tables against the records (:func:`check_pairing`,
:func:`require_complete`, :func:`pairing_warnings`) live here too. Nothing here touches SQL
or files. Standings and tie-breaks over these records are in
:mod:`gameopt.pairing.standings`.

Scores are kept in half points, as the pairing engine does: ``S = 2·wins + draws`` (a bye
is a win, ``S`` += 2); the points shown to players are ``S / 2``.

Disc counts
-----------
A result is stored exactly as entered (black's and white's discs, each ``0..64``, sum
``≤ 64``). The winner is the player with more discs; equal discs are a draw. For the
tie-breaks we apply the WOF rule for games that end before the board is full: **the empty
squares go to the winner** (winner ``64 − loser's discs``); in a draw they are shared,
``32–32``. :func:`final_discs` does that conversion. A bye counts 32 discs.

Forfeits
--------
A game one player (or both) did not turn up for is a *forfeit* (``forfeit=True``, no
discs): the player present wins it (``result`` ``B``/``W``); when neither came, both
lose (:attr:`Outcome.NEITHER`). The World Othello Championship rules score games as
won, drawn or lost, two, one and zero half points here, and their tie-break (the
Brightwell quotient) leaves games that were not played — a bye, a game against a player
who withdrew — out of the opponents' sums, counting them ``32 + C × own points``
instead. We score a forfeit the same way, which is our reading of those rules, not a
quotation: the winner gets a win (2 half points) and **32 discs**, as for a bye; the
absent player a loss and **0 discs**; in the Brightwell quotient and the Buchholz
score the game counts like a bye on both sides (``discs + C × own points``). For the
pairing, as FIDE's basic rules for Swiss systems (Handbook C.04.1) say of games not
played, a forfeit gives neither player a colour nor an opponent (the two may be paired
again), and the winner's point without playing counts as a bye: no further bye for them
while anyone else can take it.

A result may also have no discs at all (``forfeit=False``, ``result`` set): a game read
from a file that carries scores only (a FIDE TRF); each side then counts 32 discs.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE, Table

__all__ = [
    "BOARD_SQUARES",
    "BYE_DISCS",
    "GameRecord",
    "MAX_NAME",
    "Outcome",
    "PairingWarning",
    "PlayerRecord",
    "check_country",
    "check_discs",
    "check_pairing",
    "final_discs",
    "pairing_warnings",
    "require_complete",
    "result_text",
]

#: Squares of the Othello board: the most discs a game can end with.
BOARD_SQUARES = 64
#: Discs a bye (and, in the Brightwell quotient, a withdrawn opponent) counts for.
BYE_DISCS = 32


class Outcome(StrEnum):
    """Result of a game from the board: who won (a bye is a win for black, the player)."""

    BLACK = "B"
    WHITE = "W"
    DRAW = "D"
    #: Both players lost: a double forfeit (neither turned up).
    NEITHER = "0"

    @classmethod
    def from_discs(cls, black_discs: int, white_discs: int) -> Outcome:
        """The player with more discs wins; equal counts are a draw."""
        if black_discs > white_discs:
            return cls.BLACK
        if white_discs > black_discs:
            return cls.WHITE
        return cls.DRAW


def check_discs(black_discs: object, white_discs: object, where: str = "result") -> None:
    """Raise unless both counts are integers in ``0..64`` whose sum is at most 64.

    Raises
    ------
    InvalidInputError
        Naming ``where`` (e.g. ``"round 3 table 5"``) and the counts.
    """
    for side, v in (("black", black_discs), ("white", white_discs)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidInputError(f"{where}: {side} discs must be an integer, got {v!r}")
        if not 0 <= v <= BOARD_SQUARES:
            raise InvalidInputError(f"{where}: {side} discs {v} not in 0..{BOARD_SQUARES}")
    assert isinstance(black_discs, int) and isinstance(white_discs, int)
    if black_discs + white_discs > BOARD_SQUARES:
        raise InvalidInputError(
            f"{where}: discs {black_discs}-{white_discs} add up to "
            f"{black_discs + white_discs} > {BOARD_SQUARES}")


def final_discs(black_discs: int, white_discs: int) -> tuple[int, int]:
    """Disc counts with the empty squares given to the winner (shared in a draw).

    >>> final_discs(40, 20)
    (44, 20)
    >>> final_discs(30, 30)
    (32, 32)
    """
    if black_discs > white_discs:
        return BOARD_SQUARES - white_discs, white_discs
    if white_discs > black_discs:
        return black_discs, BOARD_SQUARES - black_discs
    return BOARD_SQUARES // 2, BOARD_SQUARES // 2


_WORD = re.compile(r"\S{1,40}")


def check_country(country: str | None, who: str) -> str | None:
    """A country as one word (``JPN``), or ``None`` for an empty value."""
    if country is None or not str(country).strip():
        return None
    c = str(country).strip()
    if not _WORD.fullmatch(c) or c == "-":
        raise InvalidInputError(f"{who}: country {country!r} must be one word (e.g. JPN)")
    return c


def _check_rating(rating: object, pid: str) -> float | None:
    if rating is None:
        return None
    try:
        value = float(rating)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidInputError(f"player {pid}: rating {rating!r} not a number") from None
    if not math.isfinite(value):
        raise InvalidInputError(f"player {pid}: rating {rating!r} not a number")
    return value


#: Longest player name accepted (characters, after blanks are collapsed).
MAX_NAME = 100


@dataclass(frozen=True)
class PlayerRecord:
    """A registered player, as stored; checked and normalised on construction.

    Attributes
    ----------
    id, name, country, rating
        As entered (``country``/``rating`` may be ``None``).
    seq : int
        Entry order (1-based), the last key of the standings order.
    joined_round : int
        First round the player can be paired in (1, or later for a late entry).
    initial_score : int
        Half points given on a late entry (0 unless the director said otherwise).
    withdrawn_round : int or None
        The player is absent from this round on (``None``: not withdrawn).
    """

    id: str
    name: str
    country: str | None = None
    rating: float | None = None
    seq: int = 0
    joined_round: int = 1
    initial_score: int = 0
    withdrawn_round: int | None = None

    def __post_init__(self) -> None:
        pid = str(self.id).strip()
        if not _WORD.fullmatch(pid) or pid.upper() == BYE:
            raise InvalidInputError(f"player id {self.id!r}: 1 to 40 characters, no blanks, "
                                    "not BYE")
        name = " ".join(str(self.name).split())
        if not name or not name.isprintable():
            raise InvalidInputError(f"player {pid}: name {self.name!r} is empty or not "
                                    "printable")
        if len(name) > MAX_NAME:
            raise InvalidInputError(f"player {pid}: name {name[:20]!r}... has {len(name)} "
                                    f"characters (at most {MAX_NAME})")
        object.__setattr__(self, "id", pid)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "country", check_country(self.country, f"player {pid}"))
        object.__setattr__(self, "rating", _check_rating(self.rating, pid))
        for field, v in (("joined_round", self.joined_round),
                         ("initial_score", self.initial_score)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidInputError(f"player {pid}: {field} {v!r} must be an integer >= 0")
        if self.joined_round < 1:
            raise InvalidInputError(f"player {pid}: joined_round {self.joined_round} must be "
                                    ">= 1")
        if self.initial_score > 2 * (self.joined_round - 1):
            raise InvalidInputError(
                f"player {pid}: given score {self.initial_score} half points is more than "
                f"{2 * (self.joined_round - 1)}, all wins before round {self.joined_round}")
        if self.withdrawn_round is not None and self.withdrawn_round < self.joined_round:
            raise InvalidInputError(f"player {pid}: withdrawn before joining")

    def active_in(self, round_no: int) -> bool:
        """Whether the player is to be paired in ``round_no``."""
        return self.joined_round <= round_no and (
            self.withdrawn_round is None or round_no < self.withdrawn_round)


@dataclass(frozen=True)
class GameRecord:
    """One table of a round: a game, or a bye (``white == BYE``, won by ``black``).

    ``black_discs``/``white_discs`` are ``None`` until the result is entered (and always
    for a bye and a forfeit); ``result`` is then :class:`Outcome` of the discs (``BLACK``
    for a bye). ``forfeit`` marks a game not played (module notes): ``result`` says who
    was there (``BLACK``, ``WHITE``, ``NEITHER``). A result without discs that is not a
    forfeit is a score-only result (from a TRF). The record checks its own consistency on
    construction.
    """

    round_no: int
    table: int
    black: str
    white: str
    black_discs: int | None = None
    white_discs: int | None = None
    result: Outcome | None = None
    forfeit: bool = False

    def __post_init__(self) -> None:
        where = f"round {self.round_no} table {self.table}"
        if self.black == BYE or self.black == self.white:
            raise InvalidInputError(f"{where}: bad players {self.black!r} v {self.white!r}")
        if self.result is not None:
            try:
                object.__setattr__(self, "result", Outcome(self.result))
            except ValueError:
                raise InvalidInputError(f"{where}: result {self.result!r} is none of "
                                        "B, W, D, 0") from None
        if self.white == BYE:
            if self.black_discs is not None or self.white_discs is not None:
                raise InvalidInputError(f"{where}: a bye has no disc counts")
            if self.result not in (None, Outcome.BLACK) or self.forfeit:
                raise InvalidInputError(f"{where}: a bye is won by {self.black}")
            object.__setattr__(self, "result", Outcome.BLACK)
            return
        if (self.black_discs is None) != (self.white_discs is None):
            raise InvalidInputError(f"{where}: only one disc count given")
        if self.forfeit:
            if self.black_discs is not None or self.result not in (
                    Outcome.BLACK, Outcome.WHITE, Outcome.NEITHER):
                raise InvalidInputError(f"{where}: a forfeit has no discs and is won by "
                                        "black, white or neither")
            return
        if self.result is Outcome.NEITHER:
            raise InvalidInputError(f"{where}: only a forfeit is lost by both players")
        if self.black_discs is None or self.white_discs is None:
            return
        check_discs(self.black_discs, self.white_discs, where)
        outcome = Outcome.from_discs(self.black_discs, self.white_discs)
        if self.result is not None and Outcome(self.result) is not outcome:
            raise InvalidInputError(
                f"{where}: result {Outcome(self.result).value} contradicts discs "
                f"{self.black_discs}-{self.white_discs}")
        object.__setattr__(self, "result", outcome)

    @property
    def is_bye(self) -> bool:
        return self.white == BYE

    @property
    def has_result(self) -> bool:
        return self.result is not None

    @property
    def played(self) -> bool:
        """A game that took place (not a bye, not a forfeit); result or not."""
        return not self.is_bye and not self.forfeit

    def unearned_point(self, player: str) -> bool:
        """``player`` scored without playing: a bye or a forfeit win."""
        return self.is_bye or (self.forfeit and self.score_of(player) == 2)

    def players(self) -> tuple[str, ...]:
        """The real players of the table (one for a bye)."""
        return (self.black,) if self.is_bye else (self.black, self.white)

    def opponent(self, player: str) -> str:
        """The other side of the table (:data:`~gameopt.pairing.model.BYE` for a bye)."""
        if player == self.black:
            return self.white
        if player == self.white:
            return self.black
        raise InvalidInputError(f"round {self.round_no} table {self.table}: "
                                f"{player!r} does not play here")

    def score_of(self, player: str) -> int:
        """Half points the game gave ``player`` (2 win, 1 draw, 0 loss); 0 if unplayed."""
        if self.result is None or self.result is Outcome.NEITHER:
            return 0
        if self.result is Outcome.DRAW:
            return 1
        winner = self.black if self.result is Outcome.BLACK else self.white
        return 2 if player == winner else 0

    def discs_of(self, player: str) -> int:
        """``player``'s discs for the tie-breaks: :func:`final_discs`; a bye counts 32,
        a forfeit 32 to the winner and 0 to the absent, a score-only result 32 each."""
        if self.is_bye:
            return BYE_DISCS
        if self.forfeit:
            return BYE_DISCS if self.score_of(player) == 2 else 0
        if self.black_discs is None or self.white_discs is None:
            return BYE_DISCS if self.result is not None else 0
        b, w = final_discs(self.black_discs, self.white_discs)
        return b if player == self.black else w


def result_text(g: GameRecord) -> str:
    """A game's result in one line: ``3 40-24 7``, ``3 +:- 7, won by 3 by forfeit``.

    >>> result_text(GameRecord(1, 1, "3", "7", result=Outcome.WHITE, forfeit=True))
    '3 -:+ 7, won by 7 by forfeit'
    """
    if g.forfeit:
        if g.result is Outcome.NEITHER:
            return f"{g.black} -:- {g.white}, both forfeit"
        winner = g.black if g.result is Outcome.BLACK else g.white
        sign = "+:-" if g.result is Outcome.BLACK else "-:+"
        return f"{g.black} {sign} {g.white}, won by {winner} by forfeit"
    if g.black_discs is None and g.result is not None:
        return f"{g.black} {g.result.value} {g.white}"
    return f"{g.black} {g.black_discs}-{g.white_discs} {g.white}"


# ------------------------------------------------------------------ checks of a round's tables
@dataclass(frozen=True)
class PairingWarning:
    """Something a manual pairing change did that the engine would have avoided.

    ``kind`` is ``"rematch"``, ``"forbidden"``, ``"colour"``, ``"bye"`` (a second bye)
    or ``"absent"`` (a replaced player left without a game).
    """

    kind: str
    round_no: int
    table: int
    players: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        return self.message


def check_pairing(k: int, tables: Sequence[Table], players: Sequence[PlayerRecord],
                  forbidden: frozenset[frozenset[str]]) -> None:
    """Raise unless ``tables`` pair every player active in round ``k`` exactly once.

    Also refused: unknown or inactive players, repeated table numbers, a forbidden pair,
    and a number of byes other than ``len(active) % 2`` (byes have ``white == BYE``).

    Raises
    ------
    InvalidInputError
        Naming the round, and the table or player at fault.
    """
    by_id = {p.id: p for p in players}
    active = {p.id for p in players if p.active_in(k)}
    if not active:
        raise InvalidInputError(f"round {k}: no active players to pair")
    numbers = Counter(t.number for t in tables)
    dup = [n for n, c in numbers.items() if c > 1 or n < 1]
    if dup:
        raise InvalidInputError(f"round {k}: table number {dup[0]} repeated or below 1")
    seen: Counter[str] = Counter()
    for t in tables:
        if t.black == t.white:
            raise InvalidInputError(f"round {k} table {t.number}: {t.black} against itself")
        for pid in (t.black, t.white):
            if pid == BYE:
                continue
            if pid not in by_id:
                raise InvalidInputError(f"round {k} table {t.number}: unknown player {pid!r}")
            if pid not in active:
                raise InvalidInputError(f"round {k} table {t.number}: player {pid} is not "
                                        f"active in round {k}")
            seen[pid] += 1
        if frozenset((t.black, t.white)) in forbidden:
            raise InvalidInputError(f"round {k} table {t.number}: {t.black} and {t.white} "
                                    "are a forbidden pair")
    twice = sorted(pid for pid, c in seen.items() if c > 1)
    missing = sorted(active - set(seen))
    if twice:
        raise InvalidInputError(f"round {k}: player {twice[0]} paired twice")
    if missing:
        raise InvalidInputError(f"round {k}: active player {', '.join(missing)} not paired")
    byes = sum(t.white == BYE for t in tables)
    if byes != len(active) % 2:
        raise InvalidInputError(f"round {k}: {byes} byes for {len(active)} players")


def require_complete(games: Sequence[GameRecord], k: int) -> None:
    """Raise unless every game of the rounds before ``k`` has a result (names them)."""
    missing = [g for g in games if g.round_no < k and not g.has_result]
    if missing:
        r = missing[0].round_no
        tables = ", ".join(str(g.table) for g in missing if g.round_no == r)
        raise InvalidInputError(f"round {r}: no result yet at table {tables}")


def pairing_warnings(k: int, tables: Sequence[Table], games: Sequence[GameRecord],
                     forbidden: frozenset[frozenset[str]]) -> list[PairingWarning]:
    """What ``tables`` of round ``k`` do that a pairing should avoid, given the earlier
    ``games``: a rematch, a forbidden pair, a colour balance (blacks − whites, this round
    included) of 2 or more either way, a second bye. Per table, in that order.
    """
    past = [g for g in games if g.round_no < k]
    out: list[PairingWarning] = []
    for t in tables:
        if t.white == BYE:
            if any(t.black in g.players() and g.unearned_point(t.black) for g in past):
                out.append(PairingWarning("bye", k, t.number, (t.black,),
                                          f"round {k} table {t.number}: second bye for "
                                          f"{t.black}"))
            continue
        pair = (t.black, t.white)
        met = [g.round_no for g in past if g.played and set(g.players()) == set(pair)]
        if met:
            out.append(PairingWarning("rematch", k, t.number, pair,
                                      f"round {k} table {t.number}: {t.black} and {t.white} "
                                      f"already met in round {', '.join(map(str, met))}"))
        if frozenset(pair) in forbidden:
            out.append(PairingWarning("forbidden", k, t.number, pair,
                                      f"round {k} table {t.number}: {t.black} and {t.white} "
                                      "are a forbidden pair"))
        for pid, sign in ((t.black, 1), (t.white, -1)):
            delta = sign + sum(1 if g.black == pid else -1 for g in past
                               if g.played and pid in g.players())
            if abs(delta) >= 2:
                out.append(PairingWarning(
                    "colour", k, t.number, (pid,),
                    f"round {k} table {t.number}: {pid} would have {delta:+d} "
                    "blacks over whites"))
    return out
