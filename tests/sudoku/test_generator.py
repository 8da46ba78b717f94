"""Puzzle generator: same seed same puzzle, unique solution, target or minimal givens."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import Limit, StopFlag
from gameopt.errors import BudgetExhaustedError, InvalidInputError
from gameopt.sudoku.exact import count_many, count_solutions
from gameopt.sudoku.generator import (
    default_givens,
    default_moves,
    generate,
    min_givens,
    random_grid,
)
from gameopt.sudoku.grid import Puzzle
from gameopt.sudoku.logic import explain
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


def _is_minimal(p: Puzzle) -> bool:
    blanked = []
    for i in np.flatnonzero(p.cells):
        cells = p.cells.copy()
        cells[i] = 0
        blanked.append(Puzzle(p.box, cells))
    return all(o.status == "multiple" for o in count_many(blanked))


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "expert"])
def test_difficulty_is_the_rating_and_the_puzzle_unique_and_minimal(difficulty: str) -> None:
    for seed in range(2):
        p = generate(3, seed=seed, difficulty=difficulty, moves=20)
        assert explain(p).rating == difficulty
        out = count_solutions(p)
        assert out.status == "unique" and np.array_equal(out.solution, p.solution)
        assert _is_minimal(p)
        assert f"difficulty={difficulty}" in p.name
    again = generate(3, seed=1, difficulty=difficulty, moves=20)
    assert np.array_equal(again.cells, p.cells)


def test_the_walk_keeps_puzzles_unique_and_minimal_with_fewer_givens() -> None:
    plain = [generate(3, seed=s, moves=0) for s in range(6)]
    walked = [generate(3, seed=s, moves=60) for s in range(6)]
    for p, q in zip(plain, walked, strict=True):
        assert np.array_equal(p.solution, q.solution)  # the same grid, walked from p
        assert q.givens <= p.givens and _is_minimal(q)
        assert count_solutions(q).status == "unique"
    assert sum(q.givens for q in walked) < sum(p.givens for p in plain)


@pytest.mark.slow
def test_minimal_9x9_puzzles_average_at_most_22_givens() -> None:
    givens = [generate(3, seed=s).givens for s in range(50)]
    assert sum(givens) / len(givens) <= 22


def test_difficulty_budget_and_bad_values() -> None:
    with pytest.raises(BudgetExhaustedError, match="no expert puzzle of box 2 in 3 full grids"):
        generate(2, seed=0, difficulty="expert", limit=Limit(nodes=3))
    with pytest.raises(InvalidInputError, match="difficulty 'tough': expected one of easy"):
        generate(3, seed=0, difficulty="tough")
    with pytest.raises(InvalidInputError, match="moves -1: expected >= 0"):
        generate(3, seed=0, moves=-1)
    assert default_moves(3) > 0 and default_moves(4) == 0


def test_cli_generate_by_difficulty(capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.cli.main import main

    assert main(["sudoku", "generate", "--difficulty", "medium", "--moves", "10",
                 "--count", "2", "--seed", "4", "--rate"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        puzzle, note = line.split("  # ")
        p = Puzzle.from_string(puzzle)
        assert note == f"medium, {p.givens} givens" and explain(p).rating == "medium"


@pytest.mark.parametrize(("args", "message"), [
    (["--count", "0"], "--count 0: expected >= 1"),
    (["--time-limit", "nan"], "--time-limit nan"),
    (["--moves", "-2"], "moves -2: expected >= 0"),
    (["--box", "2", "--difficulty", "expert", "--time-limit", "0.05"],
     "no expert puzzle of box 2"),
])
def test_cli_generate_bad_input_exit_2(args: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.cli.main import main

    assert main(["sudoku", "generate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_carved_from_a_given_solution() -> None:
    from .conftest import ARTICLE_SOLUTION

    grid = Puzzle.from_string(ARTICLE_SOLUTION).cells
    p = generate(3, seed=2, difficulty="hard", moves=10, solution=grid)
    assert np.array_equal(p.solution, grid) and explain(p).rating == "hard"
    assert count_solutions(p).status == "unique" and _is_minimal(p)
    assert np.array_equal(p.cells[p.cells > 0], grid[p.cells > 0])
    bad = grid.copy()
    bad[[0, 1]] = bad[[1, 0]]
    with pytest.raises(InvalidInputError, match="solution is not a full grid of box 3: column 1"):
        generate(3, seed=0, solution=bad)
    with pytest.raises(InvalidInputError, match="solution has 80 cells, expected 81"):
        generate(3, seed=0, solution=grid[:80])


def test_cli_generate_from_a_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.cli.main import main

    from .conftest import ARTICLE, ARTICLE_SOLUTION

    assert main(["sudoku", "generate", "--from", ARTICLE, "--moves", "5", "--seed", "1"]) == 0
    p = Puzzle.from_string(capsys.readouterr().out.strip())
    assert np.array_equal(count_solutions(p).solution,
                          Puzzle.from_string(ARTICLE_SOLUTION).cells)
    assert main(["sudoku", "generate", "--from", "12345678." + "........9" + "." * 63]) == 2
    assert "the puzzle has no solution" in capsys.readouterr().err


def test_a_set_stop_flag_stops_the_generator() -> None:
    flag = StopFlag()
    flag.set()
    with pytest.raises(BudgetExhaustedError, match="in 0 full grids tried"):
        generate(3, seed=1, difficulty="easy", limit=Limit(stop=flag))
    walked = generate(3, seed=1, limit=Limit(stop=flag))  # the walk to fewer givens skipped
    assert walked.givens > generate(3, seed=1).givens
