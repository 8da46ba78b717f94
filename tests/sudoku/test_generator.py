"""Puzzle generator: same seed same puzzle, unique solution, target or minimal givens."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.sudoku.exact import count_many, count_solutions
from gameopt.sudoku.generator import default_givens, generate, min_givens, random_grid
from gameopt.sudoku.grid import Puzzle
from gameopt.sudoku.reference import count_solutions_reference
from gameopt.sudoku.verify import verify


@pytest.mark.parametrize("box", [2, 3, 4])
def test_same_seed_same_puzzle(box: int) -> None:
    a = generate(box, seed=11)
    b = generate(box, seed=11)
    assert np.array_equal(a.cells, b.cells) and np.array_equal(a.solution, b.solution)
    c = generate(box, seed=12)
    assert not np.array_equal(a.solution, c.solution)


@pytest.mark.parametrize(("box", "givens"), [(2, 6), (3, 30), (3, 26), (4, 120), (5, 400)])
def test_target_givens_unique_and_consistent(box: int, givens: int) -> None:
    for seed in range(3):
        p = generate(box, givens, seed=seed)
        assert p.box == box and p.givens == givens
        assert p.solution is not None and verify(p, p.solution)
        out = count_solutions(p)
        assert out.status == "unique" and np.array_equal(out.solution, p.solution)
        assert f"box={box} seed={seed}" in p.name


@pytest.mark.parametrize("box", [2, 3])
def test_default_is_minimal(box: int) -> None:
    assert default_givens(box) is None
    for seed in range(4):
        p = generate(box, seed=seed)
        assert count_solutions(p).status == "unique"
        # every given is needed: blanking any one of them gives several solutions
        blanked = []
        for i in np.flatnonzero(p.cells):
            cells = p.cells.copy()
            cells[i] = 0
            blanked.append(Puzzle(box, cells))
        assert all(o.status == "multiple" for o in count_many(blanked))
        if box == 2:
            assert all(count_solutions_reference(q, 2)[0] == 2 for q in blanked)


def test_unreachable_target_returns_a_minimal_puzzle() -> None:
    p = generate(3, givens=17, seed=5)  # 17-clue puzzles are far too rare to hit by removal
    assert p.givens > 17 and count_solutions(p).status == "unique"
    assert p.givens == generate(3, seed=5).givens  # the same removal order, run to its end


def test_16x16_and_25x25_defaults() -> None:
    p = generate(4, seed=1)
    assert count_solutions(p).status == "unique" and p.givens < 256 * 0.5
    q = generate(5, seed=1)
    assert q.givens == default_givens(5) == int(0.6 * 625)
    assert count_solutions(q).status == "unique" and verify(q, q.solution)


def test_random_grid_is_valid() -> None:
    rng = np.random.default_rng(0)
    for box in (2, 3, 4):
        grid = random_grid(box, rng)
        assert verify(Puzzle(box, np.zeros(box ** 4, dtype=np.int8)), grid)


@pytest.mark.parametrize(("box", "givens", "match"), [
    (1, None, "box size must be an integer 2..6, got 1"),
    (7, None, "box size must be an integer 2..6, got 7"),
    (True, None, "box size must be an integer 2..6, got True"),
    (3, 16, "givens must be an integer 17..81 for box 3, got 16"),
    (3, 82, "givens must be an integer 17..81 for box 3, got 82"),
    (2, 3, "givens must be an integer 4..16 for box 2, got 3"),
    (4, 14, "givens must be an integer 15..256 for box 4, got 14"),
    (3, 30.0, "givens must be an integer 17..81 for box 3, got 30.0"),
])
def test_bad_arguments_are_named(box: object, givens: object, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        generate(box, givens, seed=0)  # type: ignore[arg-type]


def test_bad_seed_is_named() -> None:
    with pytest.raises(InvalidInputError, match="seed must be a non-negative integer"):
        generate(3, seed=-1)
    assert min_givens(3) == 17 and min_givens(5) == 24
