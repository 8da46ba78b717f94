"""PAPP's and SLIM's penalty terms: worked examples from the seed's definitions, the tiers
the defaults promise, TOML overrides and their errors, and the numpy cost matrix against
the scalar pair cost."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing import penalties
from gameopt.pairing.model import BYE, Colour, PlayerState, RoundInput
from gameopt.pairing.pairer import pair_round
from gameopt.pairing.penalties import (
    DEFAULT_P_UND,
    PAPP_TERMS,
    PRESETS,
    SLIM_TERMS,
    TUNED_TERMS,
    PenaltyParams,
    colour_balance,
    cost_matrix,
    float_direction,
    group_positions,
    pair_cost,
    pecorr_flood,
    pen_bye,
    pen_chauvinism,
    pen_color,
    pen_elitism,
    pen_halves,
    pen_repetition,
    pen_undulation,
    pen_undulation2,
)

B, W, X = Colour.BLACK, Colour.WHITE, Colour.BYE_
#: PAPP's weights: the terms and tiers this file checks (the defaults, the ``tuned``
#: preset, are PAPP's with the halves term and the colour alternation; tested apart).
DEF = PenaltyParams.papp()


def player(pid: str = "a", score: int = 0, colours: tuple[Colour, ...] = (),
           opponents: tuple[str | None, ...] | None = None,
           scores_before: tuple[int, ...] | None = None,
           opponent_scores_before: tuple[int | None, ...] | None = None,
           **kw: object) -> PlayerState:
    """A player; missing history tuples are filled to the length of ``colours``."""
    k = len(colours)
    opponents = opponents if opponents is not None else tuple(
        None if c is X else f"o{r}" for r, c in enumerate(colours))
    scores_before = scores_before if scores_before is not None else (0,) * k
    opponent_scores_before = (opponent_scores_before if opponent_scores_before is not None
                              else tuple(None if o is None else 0 for o in opponents))
    return PlayerState(id=pid, name=pid.upper(), score=score, colours=colours,
                       opponents=opponents, scores_before=scores_before,
                       opponent_scores_before=opponent_scores_before,
                       **kw)  # type: ignore[arg-type]


def floater(pid: str, score: int, last: int) -> PlayerState:
    """A player whose previous game was against a higher (+1), lower (−1) or equal score."""
    return player(pid, score, (B,), opponents=("z",), scores_before=(score - 1,),
                  opponent_scores_before=(score - 1 + 2 * last,))


# --------------------------------------------------------------------------------------
# Worked examples, one per term
# --------------------------------------------------------------------------------------


def test_pen_color_follows_the_imbalance_and_the_repeat() -> None:
    fresh = player()
    assert pen_color(fresh, B, DEF) == DEF.p_col[1] == 0
    # δ = +1 (B, W, B): black gives |δ+1| = 2, white |δ−1| = 0; black repeats last round's.
    p = player(colours=(B, W, B))
    assert colour_balance(p) == 1
    assert pen_color(p, B, DEF) == 5 + 2  # p_col[2] + p_repcl
    assert pen_color(p, W, DEF) == 0
    # δ = −2 then white: p_col[3] = 15, plus the repeat.
    q = player(colours=(W, W))
    assert pen_color(q, W, DEF) == 15 + 2 and pen_color(q, B, DEF) == DEF.p_col[1]
    # Past the table's end the last entry applies; a bye is no colour and does not
    # reset the repeat (the last played game was black).
    far = player(colours=(B,) * 9 + (X,))
    assert pen_color(far, B, DEF) == DEF.p_col[-1] + DEF.p_repcl
    assert pen_color(far, W, DEF) == DEF.p_col[-1]


def test_pecorr_flood_same_way_costs_other_way_rewards() -> None:
    down = floater("d", 6, -1)  # met a lower score last round
    up = floater("u", 4, +1)
    level = floater("l", 4, 0)
    assert float_direction(down) == -1 and float_direction(up) == 1
    assert float_direction(level) == 0
    assert pecorr_flood(down, 4, DEF) == DEF.p_flcum  # down again
    assert pecorr_flood(down, 8, DEF) == -DEF.min_fac  # now up
    assert pecorr_flood(down, 6, DEF) == 0  # no float now
    assert pecorr_flood(level, 2, DEF) == 0  # no float then
    assert float_direction(player(colours=(X,))) == 0  # bye last round


def test_pen_undulation_worked_example() -> None:
    i = floater("i", 6, -1)  # floats down again (+20)
    j = floater("j", 4, -1)  # floated down, now up (−10)
    assert pen_undulation(i, j, DEF) == 400 + 20 - 10
    assert pen_undulation(player("a", 4), player("b", 4), DEF) == 0  # p_und[0] = 0
    custom = PenaltyParams(p_und=(0, 7, 30), p_flcum=0, min_fac=0)
    assert pen_undulation(player("a", 9), player("b", 1), custom) == 30  # past the end


def test_pen_repetition_same_colours_swapped_and_last_round() -> None:
    # a was black against b in round 1, white in round 3 (the last round).
    a = player("a", colours=(B, W, W), opponents=("b", "c", "b"))
    b = player("b", colours=(W, B, B), opponents=("a", "d", "a"))
    once_each = DEF.p_mcoul + DEF.p_clopp + DEF.p_desuite
    assert pen_repetition(a, b, DEF) == once_each
    assert pen_repetition(b, a, DEF) == once_each
    # Met once, not last round: colours as then → p_mcoul, swapped → p_clopp.
    c = player("c", colours=(B, W), opponents=("d", "x"))
    d = player("d", colours=(W, B), opponents=("c", "y"))
    assert pen_repetition(c, d, DEF) == 1_200_000
    assert pen_repetition(d, c, DEF) == 1_000_000
    assert pen_repetition(c, player("x2"), DEF) == 0


def test_pen_chauvinism_by_round() -> None:
    params = PenaltyParams(p_chauv=(0, 5, 1_000_000))
    a, b = player("a", country="JPN"), player("b", country="JPN")
    assert pen_chauvinism(a, b, 1, params) == 0
    assert pen_chauvinism(a, b, 2, params) == 5
    assert pen_chauvinism(a, b, 13, params) == 1_000_000  # the last entry onwards
    assert pen_chauvinism(a, player("c", country="FRA"), 13, params) == 0
    assert pen_chauvinism(player("x"), player("y"), 13, params) == 0  # unknown countries


def test_pen_elitism_top_floats_cost_more() -> None:
    # The seed's example: 5 wins against 4 and 1 win against 0, same p_und, unequal here.
    top = pen_elitism(player("a", 10), player("b", 8), 1, DEF)
    bottom = pen_elitism(player("c", 2), player("d", 0), 1, DEF)
    assert (top, bottom) == (18 * 2, 2 * 2)
    assert pen_elitism(player("a", 6), player("b", 6), 1, DEF) == 0
    assert pen_elitism(player("a", 10), player("b", 8), 3, PenaltyParams(p_elects=(1, 1, 3))) \
        == 3 * 36


def test_group_positions_and_pen_undulation2() -> None:
    field = [player(f"p{k}", score=s, rank=k + 1)
             for k, s in enumerate([6, 6, 6, 4, 4, 4, 4, 2])]
    pos = group_positions(field)
    assert pos["p0"] == (1, 3) and pos["p2"] == (3, 1)
    assert pos["p3"] == (1, 4) and pos["p6"] == (4, 1) and pos["p7"] == (1, 1)
    by = {p.id: p for p in field}

    def u2(a: str, b: str) -> int:
        return pen_undulation2(by[a], by[b], pos[a], pos[b], DEF)

    assert u2("p0", "p1") == 1 and u2("p0", "p2") == 4  # (P_i − P_j)²
    assert u2("p2", "p3") == (1 + 1) ** 2  # S_i > S_j: (R_i + P_j)²
    assert u2("p0", "p4") == (3 + 2) ** 2
    assert u2("p4", "p0") == (2 + 3) ** 2  # S_i < S_j: (P_i + R_j)²
    assert pen_undulation2(by["p0"], by["p1"], pos["p0"], pos["p1"],
                           PenaltyParams(p_rank=7)) == 7


def test_pen_halves_zero_for_the_dutch_pairs() -> None:
    field = [player(f"p{k}", score=s, rank=k + 1)
             for k, s in enumerate([6] * 8 + [4] * 3)]
    pos = group_positions(field)
    by = {p.id: p for p in field}
    on = PenaltyParams(terms=PAPP_TERMS | {"halves"}, p_halves=3)

    def h(a: str, b: str, params: PenaltyParams = DEF) -> int:
        return pen_halves(by[a], by[b], pos[a], pos[b], params)

    assert [h(f"p{k}", f"p{k + 4}") for k in range(4)] == [0, 0, 0, 0]  # 1-5 ... 4-8
    assert h("p0", "p1") == h("p3", "p4") == h("p0", "p7") == 3  # | |ΔP| − 4 |
    assert h("p1", "p0", on) == 9  # times p_halves, either order
    assert h("p8", "p9") == 0 and h("p8", "p10") == 1  # group of 3: ⌊3/2⌋ = 1 apart
    assert h("p0", "p8") == 0  # different scores: the float terms price it
    cost, _, _, terms = pair_cost(by["p0"], by["p1"], RoundInput(2, tuple(field)), on)
    assert terms["halves"] == 9 and cost == sum(terms.values())


def test_pen_halves_past_its_rounds() -> None:
    a, b = player("a", 2, rank=1), player("b", 2, rank=2)
    pos = {"a": (1, 4), "b": (2, 3)}  # places 1 and 2 of a group of 4
    assert pen_halves(a, b, pos["a"], pos["b"], DEF, round_no=5) == 1
    late = PenaltyParams(p_halfrnd=4)
    assert pen_halves(a, b, pos["a"], pos["b"], late, round_no=4) == 1
    assert pen_halves(a, b, pos["a"], pos["b"], late, round_no=5) == 0


def test_tuned_preset_and_the_first_colours_alternating(tmp_path: Path) -> None:
    tuned = PenaltyParams.tuned()
    assert tuned.terms == PAPP_TERMS | {"halves"} and tuned.p_colalt == 1
    assert PenaltyParams.from_toml(write(tmp_path, 'preset = "tuned"\n')) == tuned
    field = tuple(player(f"p{k}", rank=k) for k in range(1, 9))
    ri = RoundInput(1, field)
    got = {(t.black, t.white) for t in pair_round(ri, tuned).tables}
    # top half against bottom half, black to 1, 3 and to the opponents of 2, 4
    assert got == {("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4")}
    assert {(t.black, t.white) for t in pair_round(ri).tables} == got  # the default
    brute = pair_round(ri, tuned, method="brute")  # optimal for these weights
    assert {(t.black, t.white) for t in brute.tables} == got
    old = {(t.black, t.white) for t in pair_round(ri, PenaltyParams.papp()).tables}
    assert old == {("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7", "p8")}


def test_pen_bye_prefers_low_scores_low_places_and_first_byes() -> None:
    assert pen_bye(player(score=0), (3, 1), DEF) == 0
    assert pen_bye(player(score=0), (1, 3), DEF) == 150
    assert pen_bye(player(score=2), (3, 1), DEF) == 500
    assert pen_bye(player(score=0, byes=1), (3, 1), DEF) == 100_000_000


# --------------------------------------------------------------------------------------
# pair_cost
# --------------------------------------------------------------------------------------


def test_pair_cost_takes_the_cheaper_colours_and_its_terms_sum() -> None:
    a = player("a", 4, (B, W, B), rank=1, country="JPN")  # δ = +1, black last
    b = player("b", 4, (W, B, W), rank=2, country="JPN")  # δ = −1, white last
    ri = RoundInput(4, (a, b))
    cost, black, white, terms = pair_cost(a, b, ri, DEF)
    assert (black, white) == ("b", "a")
    assert terms == {"colour": 0, "colour_tier": 0, "undulation": 0, "repetition": 0,
                     "chauvinism": 20, "elitism": 0}
    assert cost == sum(terms.values()) == 20
    assert pair_cost(b, a, ri, DEF)[:3] == (20, "b", "a")
    # The defaults add the halves term: two players of a group of two are half the group
    # apart (0); the colours are chosen as before.
    cost, black, white, terms = pair_cost(a, b, ri)
    assert (black, white) == ("b", "a") and cost == 20
    assert set(terms) == TUNED_TERMS | {"colour_tier"} and terms["halves"] == 0
    # SLIM's set: no colour or country term, the rank term instead; colours still balance.
    cost, black, white, terms = pair_cost(a, b, ri, PenaltyParams.slim())
    assert (black, white) == ("b", "a") and set(terms) == SLIM_TERMS
    assert cost == terms["rank"] == 1


def test_pair_cost_tie_gives_black_to_the_better_ranked() -> None:
    a, b = player("a", rank=2), player("b", rank=1)
    assert pair_cost(a, b, RoundInput(1, (a, b)), DEF)[1:3] == ("b", "a")
    c = player("c", rank=3)
    assert pair_cost(a, c, RoundInput(1, (a, c)), DEF)[1:3] == ("a", "c")
    # The defaults alternate the first colour down the boards: rank 1 black, rank 2 white.
    assert pair_cost(a, b, RoundInput(1, (a, b)))[1:3] == ("b", "a")
    assert pair_cost(a, c, RoundInput(1, (a, c)))[1:3] == ("c", "a")


def test_pair_cost_rematch_colours_decide() -> None:
    a = player("a", 2, (B,), opponents=("b",))
    b = player("b", 2, (W,), opponents=("a",))
    cost, black, white, terms = pair_cost(a, b, RoundInput(2, (a, b)))
    # Swapped colours cost p_clopp + p_desuite and no repeated colour; same colours more.
    assert (black, white) == ("b", "a")
    assert terms["repetition"] == 1_500_000 and cost == 1_500_000


def test_pair_cost_bye() -> None:
    a = player("a", 2, rank=1)
    z = player("z", 0, rank=2)
    ri = RoundInput(2, (a, z))
    assert pair_cost(z, BYE, ri) == (0, "z", BYE, {"bye": 0})
    assert pair_cost(a, BYE, ri)[0] == 500
    with pytest.raises(InvalidInputError, match="opponent must be a PlayerState or BYE"):
        pair_cost(a, "nobody", ri)


# --------------------------------------------------------------------------------------
# Tiers of the defaults (events of up to 20 rounds: S ≤ 40, F ≤ 40)
# --------------------------------------------------------------------------------------

MAX_S = 40


def worst_colour(params: PenaltyParams) -> int:
    """The most one player's colour can cost (any δ within 20 rounds, any last colour)."""
    worst = 0
    for d in range(-20, 21):
        for last in (B, W):
            hist = (last,) + ((B,) * d if d > 0 else (W,) * -d)
            # order: last colour must be the final entry
            hist = hist[1:] + hist[:1]
            for col in (B, W):
                worst = max(worst, pen_color(player(colours=hist), col, params))
    return worst


def float_cost(si: int, sj: int, way: int, params: PenaltyParams) -> int:
    """Undulation + elitism of a float, both players' previous floats in ``way``
    (+1: each floats the same way as before, −1: the other way)."""
    up_now = 1 if sj > si else -1
    i = floater("i", si, up_now * way)
    j = floater("j", sj, -up_now * way)
    return pen_undulation(i, j, params) + pen_elitism(i, j, 1, params)


def test_tier_rematch_worse_than_any_float() -> None:
    rematch = min(DEF.p_mcoul, DEF.p_clopp)
    colour = 2 * worst_colour(DEF)
    chauv = max(DEF.p_chauv)
    worst_float = max(float_cost(si, sj, +1, DEF) for si in range(MAX_S + 1)
                      for sj in range(si))
    assert rematch > worst_float + colour + chauv


def test_tier_two_small_floats_beat_one_big_float() -> None:
    # Two one-win floats (F = 2), each at its worst (top of the event, same-way floaters),
    # against one two-win float at its cheapest (bottom, other-way floaters).
    worst_two = 2 * max(float_cost(s, s - 2, +1, DEF) for s in range(2, MAX_S + 1))
    best_one = min(float_cost(s, s - 4, -1, DEF) for s in range(4, MAX_S + 1))
    assert worst_two < best_one
    assert 2 * DEF.p_und[2] < DEF.p_und[4]


def test_tier_colour_never_outweighs_a_float() -> None:
    cheapest_float = min(float_cost(s, s - 1, -1, DEF) for s in range(1, MAX_S + 1))
    assert 2 * worst_colour(DEF) + max(DEF.p_chauv) < DEF.p_byerank < cheapest_float


def test_tier_second_bye_worse_than_rematches() -> None:
    assert DEF.p_bye2 > 10 * (DEF.p_mcoul + DEF.p_desuite)


def test_tiers_decide_a_small_round() -> None:
    """Three players on 4 and one on 2 who already met the leader: the float goes to a
    fresh opponent, not the rematch, whatever the colours."""
    lead = player("lead", 4, (B, B), opponents=("low", "x"), rank=1)
    m1 = player("m1", 4, (B, B), rank=2)
    m2 = player("m2", 4, (B, B), rank=3)
    low = player("low", 2, (W, W), opponents=("lead", "y"), rank=4)
    ri = RoundInput(3, (lead, m1, m2, low))
    c = cost_matrix(ri).cost
    best = min(((c[0, 1] + c[2, 3]), (c[0, 2] + c[1, 3]), (c[0, 3] + c[1, 2])))
    assert best == c[0, 1] + c[2, 3] < c[0, 3] + c[1, 2]


# --------------------------------------------------------------------------------------
# Parameters: validation and TOML
# --------------------------------------------------------------------------------------


def test_presets_and_defaults() -> None:
    default = PenaltyParams()
    assert default == PenaltyParams.tuned() == PenaltyParams.preset("tuned")
    assert default.terms == TUNED_TERMS == PAPP_TERMS | {"halves"}
    assert default.p_colalt == 1 and default.p_halves == 1
    assert DEF.terms == PAPP_TERMS and DEF.p_colalt == 0 and DEF != default
    # PAPP's preset is the defaults before the tuned ones, field for field
    assert DEF == PenaltyParams(terms=PAPP_TERMS, p_colalt=0)
    assert [PenaltyParams.preset(k).preset_name for k in PRESETS] == list(PRESETS)
    assert PenaltyParams.papp(p_bye2=7).preset_name is None
    with pytest.raises(InvalidInputError, match="penalty preset 'fide': choose tuned"):
        PenaltyParams.preset("fide")
    assert PenaltyParams.slim().terms == SLIM_TERMS
    assert DEF.p_und == DEFAULT_P_UND and DEF.p_und[:5] == (0, 100, 400, 900, 1600)
    assert PenaltyParams.slim(p_rank=3).p_rank == 3


@pytest.mark.parametrize(("kw", "message"), [
    ({"p_repcl": -1}, "p_repcl must be a non-negative integer, got -1"),
    ({"p_flcum": 1.5}, "p_flcum must be a non-negative integer, got 1.5"),
    ({"p_mcoul": True}, "p_mcoul must be a non-negative integer, got True"),
    ({"p_col": ()}, "p_col must be a non-empty list"),
    ({"p_und": (5, 10)}, r"p_und\[0\] must be 0"),
    ({"p_chauv": (1, -2)}, "p_chauv must be a non-empty list of non-negative integers"),
    ({"terms": {"colour", "luck"}}, "terms: unknown term 'luck'"),
])
def test_bad_parameters(kw: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        PenaltyParams(**kw)  # type: ignore[arg-type]


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "penalties.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_from_toml_overrides(tmp_path: Path) -> None:
    p = write(tmp_path, 'preset = "slim"\np_und = [0, 50, 200]\np_chauv = [0, 0, 99]\n'
                        "p_bye2 = 7\n")
    params = PenaltyParams.from_toml(p)
    assert params.terms == SLIM_TERMS and params.p_und == (0, 50, 200)
    assert params.p_chauv == (0, 0, 99) and params.p_bye2 == 7
    assert params.p_col == DEF.p_col
    q = write(tmp_path, 'terms = ["colour", "undulation"]\n')
    assert PenaltyParams.from_toml(q).terms == {"colour", "undulation"}
    assert PenaltyParams.from_toml(write(tmp_path, "")) == PenaltyParams()


def test_from_toml_without_a_preset_overrides_the_base(tmp_path: Path) -> None:
    p = write(tmp_path, "p_bye2 = 7\n")
    assert PenaltyParams.from_toml(p) == PenaltyParams(p_bye2=7)
    assert PenaltyParams.from_toml(p, base=DEF) == PenaltyParams.papp(p_bye2=7)
    q = write(tmp_path, 'preset = "tuned"\np_bye2 = 7\n')  # a preset replaces the base
    assert PenaltyParams.from_toml(q, base=DEF) == PenaltyParams.tuned(p_bye2=7)


def test_from_dict_round_trips_and_checks() -> None:
    for params in (PenaltyParams(), DEF, PenaltyParams.slim(p_und=(0, 5), p_chauv=(1, 2))):
        assert PenaltyParams.from_dict(params.to_dict(), "x") == params
    with pytest.raises(InvalidInputError, match="stored: unknown key 'p_luck'"):
        PenaltyParams.from_dict({"p_luck": 1}, "stored")
    with pytest.raises(InvalidInputError, match="stored: p_bye2 must be a non-negative"):
        PenaltyParams.from_dict({"p_bye2": -1}, "stored")


@pytest.mark.parametrize(("text", "message"), [
    ("p_foo = 3\n", r"penalties\.toml: unknown key 'p_foo' \(known: preset, min_fac"),
    ("p_col = 3\n", r"penalties\.toml: p_col must be a non-empty list"),
    ('p_repcl = "two"\n', r"penalties\.toml: p_repcl must be a non-negative integer, "
                          r"got 'two'"),
    ("p_und = [1, 2]\n", r"penalties\.toml: p_und\[0\] must be 0"),
    ('terms = ["colour", "karma"]\n', r"penalties\.toml: terms: unknown term 'karma'"),
    ('preset = "fide"\n', r"penalties\.toml: preset must be 'tuned', 'papp' or 'slim', got 'fide'"),
    ("p_und = [0, \n", r"penalties\.toml: not valid TOML"),
])
def test_from_toml_errors_name_the_key_and_file(tmp_path: Path, text: str,
                                                message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as info:
        PenaltyParams.from_toml(write(tmp_path, text))
    assert "\n" not in str(info.value)


def test_from_toml_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"^penalty file .*nope\.toml: no such file$"):
        PenaltyParams.from_toml(tmp_path / "nope.toml")


def test_to_dict_round_trips() -> None:
    params = PenaltyParams.slim(p_col=(0, 1, 2))
    assert PenaltyParams(**params.to_dict()) == params


# --------------------------------------------------------------------------------------
# The numpy matrix against the scalar statement
# --------------------------------------------------------------------------------------


def random_round(n: int, rounds: int, seed: int, *, draws: float = 0.1,
                 countries: int = 3) -> RoundInput:
    """A random (not Swiss) history: random opponents, colours, results and byes."""
    rng = np.random.default_rng(seed)
    ids = [f"p{k:02d}" for k in range(n)]
    score = [0] * n
    hist: list[list[tuple[Colour, str | None, int, int | None]]] = [[] for _ in range(n)]
    byes = [0] * n
    for _ in range(rounds):
        perm = [int(x) for x in rng.permutation(n)]
        before = list(score)
        if n % 2:
            b = perm.pop()
            hist[b].append((X, None, before[b], None))
            byes[b] += 1
            score[b] += 2
        for a, c in zip(perm[::2], perm[1::2], strict=True):
            hist[a].append((B, ids[c], before[a], before[c]))
            hist[c].append((W, ids[a], before[c], before[a]))
            u = rng.random()
            if u < draws:
                score[a] += 1
                score[c] += 1
            else:
                score[a if u < (1 + draws) / 2 else c] += 2
    order = sorted(range(n), key=lambda k: (-score[k], ids[k]))
    players = tuple(
        PlayerState(id=ids[k], name=ids[k].upper(),
                    country=None if k % (countries + 1) == 0 else f"C{k % countries}",
                    score=score[k], colours=tuple(h[0] for h in hist[k]),
                    opponents=tuple(h[1] for h in hist[k]),
                    scores_before=tuple(h[2] for h in hist[k]),
                    opponent_scores_before=tuple(h[3] for h in hist[k]),
                    rank=r + 1, byes=byes[k])
        for r, k in enumerate(order))
    return RoundInput(rounds + 1, players)


@pytest.mark.parametrize("params", [PenaltyParams(), PenaltyParams.slim(),
                                    PenaltyParams(terms=PAPP_TERMS | SLIM_TERMS,
                                                  p_elects=(0, 2, 5), p_chauv=(9, 0)),
                                    PenaltyParams.tuned(p_halves=7, p_halfrnd=3, p_halfcol=2)],
                         ids=["papp", "slim", "all", "halves"])
@pytest.mark.parametrize("seed", range(4))
def test_cost_matrix_equals_pair_cost(params: PenaltyParams, seed: int) -> None:
    ri = random_round(13 + seed, 3 + seed, seed)
    pc = cost_matrix(ri, params)
    pos = group_positions(ri.players)
    for i, pi in enumerate(pc.players):
        assert pc.bye[i] == pair_cost(pi, BYE, ri, params, positions=pos)[0]
        for j, pj in enumerate(pc.players):
            if i == j:
                continue
            cost, black, _, terms = pair_cost(pi, pj, ri, params, positions=pos)
            assert pc.cost[i, j] == cost == sum(terms.values()), (i, j)
            assert bool(pc.black[i, j]) == (black == pi.id), (i, j)


def test_cost_matrix_order_forbidden_and_rematches() -> None:
    a = player("a", 2, (B,), opponents=("b",), rank=2)
    b = player("b", 0, (W,), opponents=("a",), rank=3)
    c = player("c", 2, (X,), rank=1, byes=1)
    ri = RoundInput(2, (a, b, c), forbidden=frozenset({frozenset({"a", "c"}),
                                                       frozenset({"b", BYE}),
                                                       frozenset({"gone", "a"})}))
    pc = cost_matrix(ri)
    assert [p.id for p in pc.players] == ["c", "a", "b"]
    assert pc.allowed.tolist() == [[False, False, True], [False, False, True],
                                   [True, True, False]]
    assert pc.bye_allowed.tolist() == [True, True, False]
    assert pc.rematch[1, 2] and pc.rematch[2, 1] and not pc.rematch[0, 1]
    assert (pc.cost == pc.cost.T).all() and (np.diag(pc.cost) == 0).all()


def test_cost_matrix_bad_field() -> None:
    a = player("a")
    with pytest.raises(InvalidInputError, match="round 1: duplicate player id 'a'"):
        cost_matrix(RoundInput(1, (a, a)))
    with pytest.raises(InvalidInputError, match="may not be called 'BYE'"):
        cost_matrix(RoundInput(1, (a, player(BYE))))


@pytest.mark.parametrize("params", [PenaltyParams(), PenaltyParams.papp(), PenaltyParams.slim(),
                                    PenaltyParams(terms=PAPP_TERMS | SLIM_TERMS,
                                                  p_elects=(0, 2, 5), p_chauv=(9, 0)),
                                    PenaltyParams.tuned(p_halves=7, p_halfrnd=3, p_halfcol=2),
                                    PenaltyParams.tuned(p_halves=5, p_halfrnd=0, p_colalt=0)],
                         ids=["default", "papp", "slim", "all", "halves-late", "halves"])
@pytest.mark.parametrize("seed", range(3))
def test_cost_kernel_equals_the_numpy_reference(params: PenaltyParams, seed: int) -> None:
    # every matrix of the round (cost, upper, breaks, colour, black), not only the cost
    ri = random_round(40 + 21 * seed, 2 + 2 * seed, seed)
    players = tuple(sorted(ri.players, key=lambda p: (p.rank, p.id)))
    pos = group_positions(players)
    as_black, last = penalties._history(players)
    got = penalties._matrices_kernel(players, ri.round_no, params, pos, as_black, last)
    ref = penalties._matrices_numpy(players, ri.round_no, params, pos, as_black, last)
    for name, a, b in zip(("cost", "upper", "breaks", "colour", "black"), got, ref,
                          strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b), name
