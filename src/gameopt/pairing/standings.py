"""Standings and Othello tie-breaks, as pure functions over a tournament's records.

:func:`compute_standings` ranks the players of :class:`~gameopt.pairing.records.PlayerRecord`
and :class:`~gameopt.pairing.records.GameRecord` values (nothing here touches SQL or files,
so every number can be checked against a hand-computed example), and
:func:`build_round_input` turns the same records into the engine's view of the next round.
Scores are in half points (``S = 2·wins + draws``, a bye a win); disc counts follow
:func:`~gameopt.pairing.records.final_discs` (the empty squares go to the winner).

Order of the standings
----------------------
1. score (points = wins + draws/2, plus a late entrant's given score);
2. the tie-breaks, in the order asked, by default the Brightwell quotient then the total
   discs (``"buchholz"`` may be added or put first);
3. players still tied share a rank; their order in the table (and the 1-based position
   the pairing engine sees) is by rating, highest first (no rating last), then entry order.

References
----------
World Othello Championship rules, "Resolving ties" (Brightwell quotient): the wiki of the
Othello Book Project, http://othello.dk/book/index.php/BQ .
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from gameopt.errors import InvalidInputError
from gameopt.pairing.model import Colour, PlayerState, RoundInput
from gameopt.pairing.records import BYE_DISCS, GameRecord, PlayerRecord

__all__ = [
    "DEFAULT_TIEBREAKS",
    "TIEBREAKS",
    "Standing",
    "build_round_input",
    "compute_standings",
]

#: Tie-breaks :func:`compute_standings` knows.
TIEBREAKS = ("brightwell", "discs", "buchholz")
#: The WOF order: Brightwell quotient, then discs.
DEFAULT_TIEBREAKS = ("brightwell", "discs")


@dataclass(frozen=True)
class Standing:
    """One line of the standings.

    ``score`` and ``buchholz`` are in half points (``points = score / 2``);
    ``brightwell`` is exact (a multiple of 0.5); ``discs`` follows
    :func:`~gameopt.pairing.records.final_discs`.
    ``rank`` is shared by players tied on score and every tie-break asked for.
    ``forfeits`` counts the games won or lost by forfeit (they are in ``wins`` and
    ``losses`` too).
    """

    rank: int
    id: str
    name: str
    country: str | None
    score: int
    brightwell: float
    discs: int
    buchholz: int
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool
    forfeits: int = 0

    @property
    def points(self) -> float:
        return self.score / 2

    @property
    def games(self) -> int:
        """Games played (byes and forfeits not counted)."""
        return self.wins + self.draws + self.losses - self.forfeits


@dataclass
class _Tally:
    score: int = 0
    discs: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0


def compute_standings(players: Iterable[PlayerRecord], games: Iterable[GameRecord], *,
                      through_round: int | None = None,
                      tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
                      brightwell_factor: int = 6) -> tuple[Standing, ...]:
    """The standings after ``through_round`` (default: the last round in ``games``).

    Parameters
    ----------
    players : iterable of PlayerRecord
        Everyone registered (withdrawn players included: they stay in the table).
    games : iterable of GameRecord
        Games of any rounds; those after ``through_round`` and those without a result are
        ignored.
    through_round : int, optional
        Last round counted. An opponent counts as withdrawn when their
        ``withdrawn_round <= through_round``.
    tiebreaks : sequence of str
        Keys after the score, from :data:`TIEBREAKS`.
    brightwell_factor : int
        The constant ``C`` of the Brightwell quotient (6 at the WOC).

    Returns
    -------
    tuple of Standing
        In standings order.

    Raises
    ------
    InvalidInputError
        An unknown tie-break, a negative factor, or a game naming an unknown player.

    Notes
    -----
    Brightwell quotient (WOC rules): own discs over all games, plus ``C`` × the sum of
    the opponents' points; but a bye, and every game against an opponent who has
    withdrawn, is left out of both sums and counts instead ``32 + C × own points``; a
    forfeit likewise counts ``32 + C × own points`` to the winner and ``0 + C × own
    points`` to the absent player (:mod:`~gameopt.pairing.records`, "Forfeits").
    Buchholz (half points): the sum of the opponents' scores, a bye, a forfeit or a
    withdrawn opponent counting the player's own score (same convention). Total discs:
    the :func:`~gameopt.pairing.records.final_discs` of every game played (against
    withdrawn opponents too) plus 32 per bye or forfeit win. Time O(P + G log G).
    """
    bad = [t for t in tiebreaks if t not in TIEBREAKS]
    if bad:
        raise InvalidInputError(f"unknown tie-break {bad[0]!r} (known: {', '.join(TIEBREAKS)})")
    if brightwell_factor < 0:
        raise InvalidInputError(f"brightwell factor {brightwell_factor} must be >= 0")
    plist = list(players)
    by_id = {p.id: p for p in plist}
    counted = [g for g in games if g.has_result
               and (through_round is None or g.round_no <= through_round)]
    last = through_round if through_round is not None else max(
        (g.round_no for g in counted), default=0)
    tally = {p.id: _Tally(score=p.initial_score) for p in plist}
    for g in counted:
        for pid in g.players():
            if pid not in tally:
                raise InvalidInputError(f"round {g.round_no} table {g.table}: "
                                        f"unknown player {pid!r}")
            _add_game(tally[pid], g, pid)
    withdrawn = {p.id for p in plist
                 if p.withdrawn_round is not None and p.withdrawn_round <= last}
    bq2: dict[str, int] = {pid: 0 for pid in tally}  # twice the Brightwell quotient
    buch: dict[str, int] = {pid: 0 for pid in tally}
    for g in counted:
        for pid in g.players():
            own = tally[pid].score
            opp = g.opponent(pid)
            if g.is_bye or g.forfeit or opp in withdrawn:
                discs = g.discs_of(pid) if g.forfeit else BYE_DISCS
                bq2[pid] += 2 * discs + brightwell_factor * own
                buch[pid] += own
            else:
                bq2[pid] += 2 * g.discs_of(pid) + brightwell_factor * tally[opp].score
                buch[pid] += tally[opp].score
    rows = {pid: _row(by_id[pid], t, bq2[pid] / 2, buch[pid], pid in withdrawn)
            for pid, t in tally.items()}
    return _ranked(plist, rows, tiebreaks)


def _add_game(t: _Tally, g: GameRecord, pid: str) -> None:
    s = g.score_of(pid)
    t.score += s
    t.discs += g.discs_of(pid)
    if g.is_bye:
        t.byes += 1
        return
    t.forfeits += g.forfeit
    if s == 2:
        t.wins += 1
    elif s == 1:
        t.draws += 1
    else:
        t.losses += 1


def _row(p: PlayerRecord, t: _Tally, bq: float, buchholz: int, withdrawn: bool) -> Standing:
    return Standing(rank=0, id=p.id, name=p.name, country=p.country, score=t.score,
                    brightwell=bq, discs=t.discs, buchholz=buchholz, wins=t.wins,
                    draws=t.draws, losses=t.losses, byes=t.byes, withdrawn=withdrawn,
                    forfeits=t.forfeits)


def _ranked(plist: list[PlayerRecord], rows: dict[str, Standing],
            tiebreaks: Sequence[str]) -> tuple[Standing, ...]:
    def merit(s: Standing) -> tuple[float, ...]:
        return (s.score, *(float(getattr(s, t)) for t in tiebreaks))

    def order(p: PlayerRecord) -> tuple[object, ...]:
        s = rows[p.id]
        rating = -p.rating if p.rating is not None else float("inf")
        return (*(-m for m in merit(s)), rating, p.seq, p.id)

    ordered = sorted(plist, key=order)
    out: list[Standing] = []
    for i, p in enumerate(ordered):
        s = rows[p.id]
        if out and merit(out[-1]) == merit(s):
            rank = out[-1].rank
        else:
            rank = i + 1
        out.append(replace(s, rank=rank))
    return tuple(out)


# ------------------------------------------------------------------ the engine's view
def build_round_input(k: int, players: Sequence[PlayerRecord], games: Sequence[GameRecord],
                      forbidden: frozenset[frozenset[str]] = frozenset()) -> RoundInput:
    """The :class:`RoundInput` of round ``k`` from the games of rounds ``< k``.

    Every active player (:meth:`PlayerRecord.active_in`) gets one entry per earlier round
    (``Colour.BYE_`` and no opponent for a bye, a forfeit or an absence: only games
    played give colours and opponents), the score before each
    round (a late entrant's given score counts from their first round), their rank in the
    standings after round ``k − 1`` among the active players, and their byes (forfeit
    wins included: points scored without playing). Unplayed
    earlier games count as nothing (the store refuses to pair before they are in).
    Time O(P·k + G).
    """
    past = [g for g in games if g.round_no < k]
    seat: dict[tuple[int, str], GameRecord] = {}
    by_round: dict[int, list[GameRecord]] = {}
    for g in past:
        by_round.setdefault(g.round_no, []).append(g)
        for pid in g.players():
            seat[(g.round_no, pid)] = g
    score = {p.id: 0 for p in players}
    hist: dict[str, tuple[list[Colour], list[str | None], list[int], list[int | None]]] = {
        p.id: ([], [], [], []) for p in players}
    byes: Counter[str] = Counter()
    for r in range(1, k + 1):
        for p in players:
            if max(p.joined_round, 1) == r:
                score[p.id] += p.initial_score
        if r == k:
            break
        before = dict(score)
        for p in players:
            colours, opps, mine, theirs = hist[p.id]
            sat = seat.get((r, p.id))
            mine.append(before[p.id])
            if sat is None or not sat.played:
                colours.append(Colour.BYE_)
                opps.append(None)
                theirs.append(None)
                byes[p.id] += sat is not None and sat.unearned_point(p.id)
            else:
                opp = sat.opponent(p.id)
                colours.append(Colour.BLACK if sat.black == p.id else Colour.WHITE)
                opps.append(opp)
                theirs.append(before.get(opp))
        for g in by_round.get(r, ()):
            for pid in g.players():
                score[pid] += g.score_of(pid)
    order = compute_standings(players, past, through_round=k - 1)
    active = {p.id: p for p in players if p.active_in(k)}
    ranked = [s.id for s in order if s.id in active]
    states = tuple(
        PlayerState(id=pid, name=active[pid].name, country=active[pid].country,
                    rating=active[pid].rating, score=score[pid],
                    colours=tuple(hist[pid][0]), opponents=tuple(hist[pid][1]),
                    scores_before=tuple(hist[pid][2]),
                    opponent_scores_before=tuple(hist[pid][3]), rank=i + 1,
                    byes=byes[pid])
        for i, pid in enumerate(ranked))
    pairs = frozenset(f for f in forbidden if f <= active.keys())
    return RoundInput(round_no=k, players=states, forbidden=pairs)
