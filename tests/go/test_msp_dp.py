"""Grid domination DP: kernels against a plain-Python reference, the DP against brute force
and known values, recovered sets, and bad input."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from gameopt.core import Progress
from gameopt.errors import InvalidInputError
from gameopt.go import _dp_kernel as kernel
from gameopt.go.msp_brute import (
    MAX_CELLS,
    brute_dominating_set,
    brute_domination_number,
    brute_msp,
    is_dominating,
)
from gameopt.go.msp_dp import (
    DPResult,
    _transition,
    domination_number,
    optimal_dominating_set,
)

#: γ(G_{n,n}) and MSP(n) for n = 1..12 (issue 7; Alanko et al. 2011).
GAMMA = [1, 2, 3, 4, 7, 10, 12, 16, 20, 24, 29, 35]
MSP = [0, 2, 6, 12, 18, 26, 37, 48, 61, 76, 92, 109]
#: γ(G_{n,n}) for n = 13..19 (Alanko et al. 2011; from 16 on, Gonçalves et al. 2011).
GAMMA_13_19 = {13: 40, 14: 47, 15: 53, 16: 60, 17: 68, 18: 76, 19: 84}


def dominates(mask: npt.NDArray[np.bool_]) -> bool:
    """Vectorised check, independent of :func:`is_dominating`'s loops."""
    d = mask.copy()
    d[1:] |= mask[:-1]
    d[:-1] |= mask[1:]
    d[:, 1:] |= mask[:, :-1]
    d[:, :-1] |= mask[:, 1:]
    return bool(d.all())


# --------------------------------------------------------------------------------------
# Kernels against the plain-Python statement of one cell
# --------------------------------------------------------------------------------------


def reference_cell(table: npt.NDArray[np.uint8], c: int, w: int) -> npt.NDArray[np.uint8]:
    """One cell by enumerating states and choices with ``_transition`` (INF = 255)."""
    out = np.full_like(table, 255)
    for s in range(3**w):
        if table[s] == 255:
            continue
        digits = [s // 3**j % 3 for j in range(w)]
        u, left = digits[c], digits[c - 1] if c else 0
        for place in (False, True):
            nxt = _transition(u, left, place, c > 0)
            if nxt is None:
                continue
            new = list(digits)
            new[c] = nxt[0]
            if c:
                new[c - 1] = nxt[1]
            t = sum(d * 3**j for j, d in enumerate(new))
            out[t] = min(int(out[t]), int(table[s]) + place)
    return out


def random_table(w: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """Values 0..200 with most entries INF, and whole regions INF (so skipping happens)."""
    t = rng.integers(0, 200, 3**w).astype(np.uint8)
    t[rng.random(3**w) < 0.7] = 255
    for _ in range(4):
        a = int(rng.integers(0, 3**w))
        t[a:a + int(rng.integers(1, 3 ** max(1, w - 2)))] = 255
    return t


def scratch(size: int = 64) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    return np.empty(size, np.uint8), np.empty(size, np.uint8)


@pytest.mark.parametrize("w", [1, 2, 3, 5, 6])
def test_cell_step_matches_reference(w: int) -> None:
    rng = np.random.default_rng(w)
    for c in range(w):
        t = random_table(w, rng)
        want = reference_cell(t, c, w)
        kernel.cell_step(t, c, *scratch(5))  # scratch shorter than the streams: chunked
        assert np.array_equal(t, want), f"cell {c} of width {w}"


@pytest.mark.parametrize(("w", "k", "cuts", "chunk"), [
    (5, 5, [], 4),
    (7, 7, [], 4),
    (7, 5, [5, 7], 4),
    (8, 5, [5, 6, 8], 7),
    (9, 6, [6, 9], 5),
    (9, 5, [5, 7, 8, 9], 64),
])
def test_blocked_row_matches_plain_row(w: int, k: int, cuts: list[int], chunk: int) -> None:
    rng = np.random.default_rng(100 + w + k)
    for _ in range(3):
        t = random_table(w, rng)
        plain = t.copy()
        for c in range(w):
            kernel.cell_step(plain, c, *scratch())
        kernel.phase1(t, k, 0, 3 ** (w - k), *scratch())
        for a, b in itertools.pairwise(cuts):
            units = -(-(3 ** (a - 1)) // chunk) * 3 ** (w - b)
            half = units // 2  # two ranges, as the threads do
            kernel.phase2(t, a, b, chunk, 0, half, *scratch())
            kernel.phase2(t, a, b, chunk, half, units, *scratch())
        assert np.array_equal(t, plain)


def test_all_unreachable_blocks_are_skipped() -> None:
    for phase in ("1", "2"):
        t = np.full(3**7, 255, np.uint8)
        t[3**6 + 5] = 3  # block 3 of 9 (phase 1); chunk 0 of 9, value 9 of digits 4..6
        if phase == "1":
            assert kernel.phase1(t, 5, 0, 9, *scratch()) == 1
        else:
            assert kernel.phase2(t, 5, 7, 9, 0, 9, *scratch()) == 1


def test_renormalising_helpers() -> None:
    t = np.array([255, 7, 9, 255, 12], np.uint8)
    assert tuple(int(v) for v in kernel.minmax(t)) == (7, 12)
    kernel.shift_down(t, 7)
    assert t.tolist() == [255, 0, 2, 255, 5]


# --------------------------------------------------------------------------------------
# The DP against brute force and known values
# --------------------------------------------------------------------------------------

SMALL = [(m, n) for m in range(1, 5) for n in range(1, 5)] + [(2, 5), (3, 5), (5, 4),
                                                              (4, 5), (5, 2)]


@pytest.mark.parametrize(("m", "n"), SMALL)
def test_dp_equals_brute_force(m: int, n: int) -> None:
    gamma = brute_domination_number(m, n)
    r = domination_number(m, n)
    assert (r.gamma, r.msp) == (gamma, m * n - gamma)
    assert r.msp == brute_msp(m, n)
    s = optimal_dominating_set(m, n)
    assert s.dominating_set is not None and s.dominating_set.shape == (m, n)
    assert int(s.dominating_set.sum()) == gamma and is_dominating(s.dominating_set)


@pytest.mark.parametrize("n", range(1, 13))
def test_known_square_values(n: int) -> None:
    r = domination_number(n)
    assert (r.gamma, r.msp) == (GAMMA[n - 1], MSP[n - 1])
    assert (r.m, r.n, r.states) == (n, n, 3**n)
    assert r.seconds >= 0


@pytest.mark.parametrize("n", [13, 14])
def test_known_values_through_phase_two(n: int) -> None:
    assert domination_number(n, threads=1).gamma == GAMMA_13_19[n]
    assert domination_number(n, threads=2).gamma == GAMMA_13_19[n]


@pytest.mark.parametrize("n", range(1, 13))
def test_optimal_sets_dominate_with_gamma_cells(n: int) -> None:
    r = optimal_dominating_set(n)
    mask = r.dominating_set
    assert mask is not None and mask.dtype == np.bool_ and mask.shape == (n, n)
    assert int(mask.sum()) == r.gamma == GAMMA[n - 1]
    assert dominates(mask)


def test_rectangular_known_values() -> None:
    for n in range(1, 40):
        assert domination_number(1, n).gamma == (n + 2) // 3
        assert domination_number(2, n).gamma == (n + 2) // 2
        assert domination_number(n, 3).gamma == (3 * n + 4) // 4
    for n in range(4, 40):
        assert domination_number(4, n).gamma == n + (n in (5, 6, 9))
    # Chang 1992: 5xn and 6xn
    for n in range(2, 40):
        five = (6 * n + 6) // 5 if n in (2, 3, 7) else (6 * n + 8) // 5
        assert domination_number(5, n).gamma == five, n
    for n in range(6, 40):
        six = (10 * n + 10) // 7 if n % 7 == 1 else (10 * n + 12) // 7
        assert domination_number(n, 6).gamma == six, n


def test_transposed_boards() -> None:
    for m, n in [(3, 8), (8, 3), (6, 11), (11, 6)]:
        r = optimal_dominating_set(m, n)
        assert r.gamma == domination_number(n, m).gamma
        assert r.dominating_set is not None and r.dominating_set.shape == (m, n)
        assert dominates(r.dominating_set) and int(r.dominating_set.sum()) == r.gamma


def test_long_boards_past_a_byte() -> None:
    """Values beyond 255: the table is shifted down and the offset kept."""
    assert domination_number(2, 600).gamma == 301  # plain path (width 2)
    assert domination_number(300, 5).gamma == (6 * 300 + 8) // 5  # blocked path
    r = optimal_dominating_set(5, 300)
    assert r.gamma == 361 and r.dominating_set is not None
    assert dominates(r.dominating_set) and int(r.dominating_set.sum()) == 361


def test_progress_reports_each_row() -> None:
    seen: list[Progress] = []
    domination_number(3, 7, progress=seen.append)
    assert [p.done for p in seen] == list(range(1, 8))
    assert {(p.task, p.total) for p in seen} == {("msp-dp", 7)}


def test_result_is_a_small_value_type() -> None:
    r = domination_number(4)
    assert isinstance(r, DPResult) and r.dominating_set is None
    assert "gamma=4" in repr(r) and "msp=12" in repr(r)


@pytest.mark.slow
@pytest.mark.parametrize("n", [15, 16, 17])
def test_known_values_slow(n: int) -> None:
    assert domination_number(n).gamma == GAMMA_13_19[n]


@pytest.mark.slow
def test_optimal_set_16() -> None:
    r = optimal_dominating_set(16)
    assert r.gamma == 60 and r.dominating_set is not None and dominates(r.dominating_set)


@pytest.mark.slow
def test_msp_19_is_277() -> None:
    """The seed's 40-day CPLEX result, here in well under a minute (1.2 GB table)."""
    r = domination_number(19)
    assert (r.gamma, r.msp) == (84, 277)


# --------------------------------------------------------------------------------------
# Brute force on its own, and bad input
# --------------------------------------------------------------------------------------


def test_brute_force_reference() -> None:
    assert [brute_domination_number(n) for n in range(1, 5)] == GAMMA[:4]
    assert [brute_msp(n) for n in range(1, 5)] == MSP[:4]
    assert brute_dominating_set(1, 4).tolist() == [[True, False, True, False]]
    assert is_dominating(np.eye(1, dtype=bool))
    assert not is_dominating(np.zeros((2, 3), dtype=bool))
    assert is_dominating([[False, True, False]]) and not is_dominating([[True, False, False]])


@pytest.mark.parametrize("bad", [0, -3, True, 2.5, "4", None])
def test_bad_sizes(bad: object) -> None:
    with pytest.raises(InvalidInputError, match=r"domination_number: m must be a positive "
                       r"integer, got " + repr(bad).replace(".", r"\.")):
        domination_number(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=r"optimal_dominating_set: n must be"):
        optimal_dominating_set(3, bad if bad is not None else 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match=r"brute_dominating_set: n must be"):
        brute_dominating_set(2, bad if bad is not None else 0)  # type: ignore[arg-type]


def test_table_larger_than_memory_is_refused() -> None:
    with pytest.raises(InvalidInputError,
                       match=r"^domination_number: 40x30 needs [0-9.]+ GB of 3\*\*30 one-byte "
                             r"DP states, only [0-9.]+ GB of memory available$"):
        domination_number(40, 30)


def test_sets_beyond_the_layer_limit_are_refused() -> None:
    with pytest.raises(InvalidInputError,
                       match=r"^optimal_dominating_set: 17x17 needs 4\.5 GB of DP tables .* "
                             r"limit of 2\.0 GB; domination_number gives the value alone$"):
        optimal_dominating_set(17)


def test_bad_threads() -> None:
    with pytest.raises(InvalidInputError, match=r"threads must be a positive integer, got 0"):
        domination_number(3, threads=0)


def test_brute_force_refuses_large_boards() -> None:
    assert MAX_CELLS == 20
    with pytest.raises(InvalidInputError, match=r"5x5 has 25 cells, more than the 20"):
        brute_domination_number(5)
    with pytest.raises(InvalidInputError, match=r"shape \(4,\)"):
        is_dominating(np.ones(4, dtype=bool))
