"""Every rule a stored or imported round breaks: the director's audit of a pairing.

:func:`check_round` looks at one round of a tournament's records (from the store, a
TRF-16 file from another program, an ``.ELO`` file) against the games before it and
names each breach, one :class:`Breach` per rule and table:

``"unpaired"``
    an active player without a table, a player paired twice, an inactive player paired;
``"forbidden"``
    a forbidden pair meets;
``"rematch"``
    two players who already played a game meet again (a forfeit is not a game played);
``"second-bye"``
    a bye for a player who already scored a point without playing (a bye or a forfeit
    win);
``"bye-order"``
    the bye is not with the lowest-ranked player of the lowest score group who has not
    had one, although a pairing without a rematch or a second bye allowed it (the bye
    tier of :func:`~gameopt.pairing.pairer.pair_round`);
``"colour-run"``
    a third same colour in a row of played games (a bye between them does not reset
    the run);
``"colour-difference"``
    a colour difference (blacks − whites) beyond 2;
``"not-optimal"``
    a pairing exists that is better in the exact order of
    :func:`~gameopt.pairing.pairer.pair_round` (the terms other than colour, then the
    colour tier, then colour), with the same bye rule: the message gives both keys.
    Only with ``optimality=True``; it takes one exact pairing of the round.

The colour rules name breaches even where every good pairing has them (the colour tier
allows them then); ``"not-optimal"`` says whether they could have been avoided.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE, Colour, PlayerState, RoundInput
from gameopt.pairing.penalties import MAX_COLOUR_DIFFERENCE, PenaltyParams, cost_matrix
from gameopt.pairing.records import GameRecord, PlayerRecord
from gameopt.pairing.standings import build_round_input

__all__ = ["RULES", "Breach", "check_round"]

#: The rules :func:`check_round` checks, in the order it reports them.
RULES = ("unpaired", "forbidden", "rematch", "second-bye", "bye-order", "colour-run",
         "colour-difference", "not-optimal")


@dataclass(frozen=True)
class Breach:
    """One rule a round breaks: the rule (of :data:`RULES`), where, and a sentence."""

    rule: str
    round_no: int
    table: int | None
    players: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        where = f"round {self.round_no}" + (f" table {self.table}" if self.table else "")
        return f"{where}: {self.rule}: {self.message}"


def check_round(players: Sequence[PlayerRecord], games: Sequence[GameRecord], k: int,
                forbidden: frozenset[frozenset[str]] = frozenset(), *,
                params: PenaltyParams | None = None,
                optimality: bool = True) -> list[Breach]:
    """The breaches of round ``k`` (module docstring), by rule, then table.

    Parameters
    ----------
    players, games
        The tournament's records (every round; only rounds ``≤ k`` are read).
    k : int
        The round to check; it must have tables.
    forbidden : frozenset of frozenset of str
        Pairs that must not meet.
    params : PenaltyParams, optional
        The penalties for ``"not-optimal"`` (default ``PenaltyParams()``).
    optimality : bool
        Check ``"not-optimal"`` (one exact pairing of the round).

    Raises
    ------
    InvalidInputError
        Round ``k`` has no table, or a table names an unknown player.
    """
    tables = sorted((g for g in games if g.round_no == k), key=lambda g: g.table)
    if not tables:
        raise InvalidInputError(f"round {k} has no table")
    ri = build_round_input(k, players, games, forbidden)
    state = {p.id: p for p in ri.players}
    known = {p.id for p in players}
    out: list[Breach] = []
    out += _unpaired(k, tables, state, known)
    for g in tables:
        if not g.is_bye:
            out += _pair_rules(k, g, state, forbidden)
    out += _byes(k, tables, state, ri)
    for g in tables:
        if g.played:
            out += _colours(k, g, state)
    if optimality and not any(b.rule == "unpaired" for b in out):
        out += _optimality(k, tables, ri, params)
    order = {r: i for i, r in enumerate(RULES)}
    return sorted(out, key=lambda b: (order[b.rule], b.table or 0))


def _unpaired(k: int, tables: list[GameRecord], state: dict[str, PlayerState],
              known: set[str]) -> list[Breach]:
    out = []
    seen: Counter[str] = Counter(pid for g in tables for pid in g.players())
    for g in tables:
        for pid in g.players():
            if pid not in known:
                raise InvalidInputError(f"round {k} table {g.table}: unknown player {pid!r}")
            if pid not in state:
                out.append(Breach("unpaired", k, g.table, (pid,),
                                  f"{pid} is not active in round {k}"))
    for pid, c in sorted(seen.items()):
        if c > 1:
            out.append(Breach("unpaired", k, None, (pid,), f"{pid} is paired {c} times"))
    for pid in sorted(set(state) - set(seen)):
        out.append(Breach("unpaired", k, None, (pid,), f"{pid} is active but not paired"))
    return out


def _pair_rules(k: int, g: GameRecord, state: dict[str, PlayerState],
                forbidden: frozenset[frozenset[str]]) -> list[Breach]:
    out = []
    pair = (g.black, g.white)
    if frozenset(pair) in forbidden:
        out.append(Breach("forbidden", k, g.table, pair,
                          f"{g.black} and {g.white} are a forbidden pair"))
    p = state.get(g.black)
    if p is not None:
        met = [r for r, o in enumerate(p.opponents, start=1) if o == g.white]
        if met:
            out.append(Breach("rematch", k, g.table, pair,
                              f"{g.black} and {g.white} already played in round "
                              f"{', '.join(map(str, met))}"))
    return out


def _byes(k: int, tables: list[GameRecord], state: dict[str, PlayerState],
          ri: RoundInput) -> list[Breach]:
    from gameopt.pairing.pairer import bye_order, legal_bye

    out = []
    byes = [g for g in tables if g.is_bye]
    for g in byes:
        p = state.get(g.black)
        if p is not None and p.byes:
            out.append(Breach("second-bye", k, g.table, (g.black,),
                              f"{g.black} already scored {p.byes} point"
                              f"{'s' if p.byes > 1 else ''} without playing"))
    if len(byes) == 1 and len(ri.players) % 2:
        pc = cost_matrix(ri)
        for idx in bye_order(pc):
            if legal_bye(pc, idx):
                expected = pc.players[idx].id
                if byes[0].black != expected:
                    out.append(Breach("bye-order", k, byes[0].table, (byes[0].black,),
                                      f"the bye is with {byes[0].black}; {expected} is "
                                      "the lowest-ranked of the lowest score group "
                                      "without one, and a legal pairing allows it"))
                break
    return out


def _colours(k: int, g: GameRecord, state: dict[str, PlayerState]) -> list[Breach]:
    out = []
    for pid, colour in ((g.black, Colour.BLACK), (g.white, Colour.WHITE)):
        p = state.get(pid)
        if p is None:
            continue
        played = [c for c in p.colours if c is not Colour.BYE_]
        if played[-2:] == [colour, colour]:
            out.append(Breach("colour-run", k, g.table, (pid,),
                              f"{pid} has {colour.name.lower()} a third time in a row"))
        d = sum(1 if c is Colour.BLACK else -1 for c in played)
        d += 1 if colour is Colour.BLACK else -1
        if abs(d) > MAX_COLOUR_DIFFERENCE:
            out.append(Breach("colour-difference", k, g.table, (pid,),
                              f"{pid} has {d:+d} blacks over whites"))
    return out


def _optimality(k: int, tables: list[GameRecord], ri: RoundInput,
                params: PenaltyParams | None) -> list[Breach]:
    from gameopt.pairing.pairer import pair_round, pairing_key

    best = pair_round(ri, params)
    bye = next((g.black for g in tables if g.is_bye), None)
    best_bye = next((t.black for t in best.tables if t.white == BYE), None)
    pairs = [(g.black, g.white) for g in tables]
    mine = pairing_key(ri, pairs, params)
    theirs = pairing_key(ri, [(t.black, t.white) for t in best.tables], params)
    if bye != best_bye or mine <= theirs:
        return []  # another bye: the bye rules above say what is wrong
    third = "colour and halves" if "halves" in (params or PenaltyParams()).terms else "colour"
    return [Breach("not-optimal", k, None, (),
                   f"(other terms, colour-tier breaks, {third}) = {mine}; the exact pairing "
                   f"has {theirs}")]
