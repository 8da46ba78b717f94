"""The Sudoku page: enter or generate a puzzle, solve it three ways, watch evolution.

``/sudoku`` shows the form; ``POST /sudoku/solve`` solves in the page pool
(:class:`gameopt.web.page_jobs.Jobs`) and shows the verified grid with the solver's
verdict on uniqueness; ``POST /sudoku/solve/stream`` runs the evolution as server-sent
events (best error after each chunk of epochs, restarts marked) that ``static/pages.js``
plots live; ``POST /sudoku/generate`` makes a puzzle of a chosen box size;
``POST /sudoku/hint`` takes the next logical step (:func:`gameopt.sudoku.hint`).
Every page works without JavaScript: the plain form posts to ``/sudoku/solve`` and the
evolution's plot is drawn from the recorded progress.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from gameopt.core import Limit, StopFlag, check_count, check_seconds
from gameopt.core.progress import Progress
from gameopt.errors import InvalidInputError
from gameopt.sudoku import METHODS, SUDOKU_EVOLUTION, Puzzle
from gameopt.web.charts import line_chart
from gameopt.web.common import int_field, read_form, render, templates, text_field

__all__ = ["routes", "MAX_SECONDS", "EXACT_MAX_BOX"]

#: Largest time budget a visitor may give one solve (wall seconds).
MAX_SECONDS = 60.0
DEFAULT_SECONDS = 10.0
#: Largest box the exact solver takes here (sparse larger grids rarely finish within the
#: time limit: they go to CP-SAT or evolution).
EXACT_MAX_BOX = 4
#: Fewest givens of a generated 25x25 puzzle (60 % of the cells, the generator's default).
SPARSEST_25 = 375
#: Epochs between two points of the live plot.
PLOT_EPOCHS = 10
_ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
METHOD_NAMES = {"exact": "exact (backtracking with counting)",
                "evolution": "evolution (McCaffrey's combinatorial evolution)",
                "cpsat": "CP-SAT (OR-Tools)"}


def routes() -> list[BaseRoute]:
    return [Route("/sudoku", index, methods=["GET"]),
            Route("/sudoku/solve", solve_page, methods=["POST"]),
            Route("/sudoku/solve/stream", solve_stream, methods=["POST"]),
            Route("/sudoku/generate", generate_page, methods=["POST"]),
            Route("/sudoku/hint", hint_page, methods=["POST"])]


def _example() -> str:
    from gameopt.sudoku.examples import ARTICLE_PUZZLE

    return ARTICLE_PUZZLE


def _context(**kw: Any) -> dict[str, Any]:
    ctx: dict[str, Any] = {"puzzle_text": _example(), "method": "evolution", "seed": "0",
                           "seconds": f"{DEFAULT_SECONDS:g}", "article": True, "box": "3",
                           "givens": "", "methods": METHOD_NAMES, "error": None,
                           "field": None, "result": None, "grid": None, "step": None,
                           "max_seconds": f"{MAX_SECONDS:g}", "message": None}
    ctx.update(kw)
    return ctx


def index(request: Request) -> Response:
    return render(request, "sudoku/index.html", _context())


# --------------------------------------------------------------------------- the form


@dataclasses.dataclass(frozen=True)
class _Solve:
    """A checked solve request."""

    puzzle: Puzzle
    method: str
    seed: int | None
    seconds: float
    article: bool

    def limit(self, stop: StopFlag) -> Limit:
        return Limit(time=self.seconds, clock="wall", stop=stop)


def _form_context(form: FormData) -> dict[str, Any]:
    """The form's values, to show them again with the result or the error."""
    return {"puzzle_text": text_field(form, "puzzle"), "method": text_field(form, "method"),
            "seed": text_field(form, "seed"), "seconds": text_field(form, "seconds"),
            "article": text_field(form, "article") == "on"}


def _puzzle(form: FormData) -> Puzzle:
    text = text_field(form, "puzzle")
    if not text:
        raise InvalidInputError("puzzle: empty; paste a grid (81 characters for 9x9, "
                                "'.' or '0' for an empty cell)")
    return Puzzle.from_string(text, name="puzzle")


def _read_solve(form: FormData) -> _Solve:
    puzzle = _puzzle(form)
    method = text_field(form, "method")
    if method not in METHODS:
        raise InvalidInputError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    if method == "exact" and puzzle.box > EXACT_MAX_BOX:
        raise InvalidInputError(f"method: the exact solver here takes grids up to "
                                f"{EXACT_MAX_BOX ** 2}x{EXACT_MAX_BOX ** 2}; use cpsat or "
                                f"evolution for {puzzle.side}x{puzzle.side}")
    seed = int_field(form, "seed", "seed", "seed", default=None)
    if seed is not None:
        check_count(seed, "seed", minimum=0, maximum=2**32 - 1)
    raw = text_field(form, "seconds") or f"{DEFAULT_SECONDS:g}"
    try:
        seconds = float(raw)
    except ValueError:
        raise InvalidInputError(f"seconds: {raw!r} is not a number") from None
    checked = check_seconds(seconds, "seconds")
    if checked is None or checked > MAX_SECONDS:
        raise InvalidInputError(f"seconds: {raw} is outside 0..{MAX_SECONDS:g}")
    return _Solve(puzzle, method, seed, checked, text_field(form, "article") == "on")


def _field_of(message: str) -> str:
    return message.split(":", 1)[0] if ":" in message else "puzzle"


def _error_page(request: Request, form: FormData, e: InvalidInputError) -> Response:
    return render(request, "sudoku/index.html",
                  _context(**_form_context(form), error=str(e), field=_field_of(str(e))),
                  status_code=400)


# --------------------------------------------------------------------------- solving


def _run(job: _Solve, stop: StopFlag, report: Callable[[Progress], None] | None
         ) -> dict[str, Any]:
    """Solve, check uniqueness where the method did not, and describe the outcome."""
    from gameopt.sudoku import solve

    if job.method == "evolution":
        # the article's settings are gameopt's without the plateau moves
        params = dataclasses.replace(SUDOKU_EVOLUTION, chunk_epochs=PLOT_EPOCHS,
                                     accept_equal=SUDOKU_EVOLUTION.accept_equal
                                     and not job.article)
        trace: list[tuple[int, float, int]] = []

        def progress(p: Progress) -> None:
            trace.append((p.done, float(p.best if p.best is not None else 0),
                          int(str(p.info.get("run", 1)))))
            if report is not None:
                report(p)

        res = solve(job.puzzle, "evolution", seed=job.seed, limit=job.limit(stop),
                    params=params, prune=not job.article, focus=not job.article,
                    progress=progress)
    else:
        trace = []
        res = solve(job.puzzle, job.method, limit=job.limit(stop))
    unique = _uniqueness(job.puzzle, res.status, res.solution, stop)
    return {"method": res.method, "status": res.status, "seconds": res.seconds,
            "clock": res.clock, "stats": {k: v for k, v in res.stats.items()
                                          if isinstance(v, int | float | str)},
            "solution": None if res.solution is None else res.solution.tolist(),
            "unique": unique, "trace": trace}


def _uniqueness(puzzle: Puzzle, status: str, solution: npt.NDArray[np.int8] | None,
                stop: StopFlag) -> str:
    """One sentence on how many solutions the puzzle has."""
    if status == "unique":
        return "This solution is the only one (proven by counting up to 2)."
    if status == "multiple":
        return "The puzzle has more than one solution; this is one of them."
    if status == "none":
        return "The puzzle has no solution (proven): its givens contradict each other."
    if puzzle.box > EXACT_MAX_BOX:
        return "Uniqueness not examined (grid too large for the exact count here)."
    from gameopt.sudoku import count_solutions

    k = count_solutions(puzzle, 2, stop=stop).count
    return {-1: "Uniqueness not settled (the count was stopped).",
            0: "The puzzle has no solution.", 1: "This solution is the only one "
            "(checked by the exact solver)."}.get(k, "The puzzle has more than one "
                                                     "solution; this is one of them.")


def _view(job: _Solve, out: dict[str, Any]) -> dict[str, Any]:
    """What the result template shows: the grid, the verdict, the plot."""
    sol = out["solution"]
    grid = _grid(job.puzzle, np.asarray(sol, dtype=np.int8) if sol is not None else None)
    trace = out["trace"]
    chart = None
    if trace:
        points = [(float(d), b) for d, b, _ in trace]
        restarts = [float(trace[i - 1][0]) for i in range(1, len(trace))
                    if trace[i][2] != trace[i - 1][2]]
        chart = line_chart(points, restarts=restarts,
                           title="best error of the population over epochs")
    words = {"unique": "solved, unique", "multiple": "solved, several solutions",
             "none": "no solution", "solved": "solved", "unsolved": "not solved"}
    return {"result": {**out, "verdict": words.get(out["status"], out["status"]),
                       "chart": chart, "name": METHOD_NAMES[job.method]}, "grid": grid}


def _grid(puzzle: Puzzle, solution: npt.NDArray[np.int8] | None,
          placed: set[int] | None = None) -> dict[str, Any]:
    """Rows of cells ``{"v": text, "cls": classes}`` for ``templates/sudoku/_grid.html``."""
    n, b = puzzle.side, puzzle.box
    values = puzzle.cells if solution is None else solution
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            i = r * n + c
            v = int(values[i])
            cls = ["given" if puzzle.cells[i] else "found" if v else "empty"]
            if placed and i in placed:
                cls.append("placed")
            if c % b == 0 and c:
                cls.append("bl")
            if r % b == 0 and r:
                cls.append("bt")
            row.append({"v": _ALPHABET[v - 1] if v else "", "cls": " ".join(cls)})
        rows.append(row)
    return {"rows": rows, "side": n, "box": b}


async def solve_page(request: Request) -> Response:
    form = await read_form(request)
    try:
        job = _read_solve(form)
    except InvalidInputError as e:
        return _error_page(request, form, e)
    jobs = request.app.state.page_jobs
    try:
        out = await jobs.run(lambda stop: _run(job, stop, None))
    except InvalidInputError as e:
        return _error_page(request, form, e)
    return render(request, "sudoku/index.html", _context(**_form_context(form),
                                                         **_view(job, out)))


async def solve_stream(request: Request) -> Response:
    """Evolution as ``text/event-stream``: ``progress`` events ``{epochs, best, run}``,
    then ``done`` with the result's HTML (the same fragment as the plain page)."""
    form = await read_form(request)
    try:
        job = _read_solve(form)
    except InvalidInputError as e:
        return render(request, "sudoku/_error.html", {"error": str(e)}, status_code=400)

    def work(stop: StopFlag, report: Callable[[Progress], None]) -> dict[str, Any]:
        out = _run(job, stop, _Batches(report))
        html = templates.get_template("sudoku/_result.html").render(_view(job, out))
        return {"status": out["status"], "html": html}

    def event(p: Progress) -> dict[str, Any]:
        return {"epochs": p.done, "best": p.best, "points": p.info["points"]}

    response: Response = request.app.state.page_jobs.stream(work, event)
    return response


class _Batches:
    """Forwards the evolution's reports in batches, at most one every ``interval`` seconds
    (wall), each holding every point ``[epochs, best, run]`` since the last one: the live
    plot misses no point and the client gets a few events a second."""

    def __init__(self, report: Callable[[Progress], None], interval: float = 0.1) -> None:
        self.report, self.interval = report, interval
        self.points: list[list[float]] = []
        self.last = 0.0

    def __call__(self, p: Progress) -> None:
        self.points.append([p.done, float(p.best if p.best is not None else 0),
                            int(str(p.info.get("run", 1)))])
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            self.report(Progress(p.task, p.done, best=p.best, info={"points": self.points}))
            self.points = []


async def generate_page(request: Request) -> Response:
    from gameopt.sudoku import generate

    form = await read_form(request)
    ctx = {"box": text_field(form, "box"), "givens": text_field(form, "givens")}
    try:
        box = check_count(int_field(form, "box", "box size", "box", default=3), "box",
                          minimum=2, maximum=5)
        givens = int_field(form, "givens", "givens", "givens", default=None)
        seed = int_field(form, "seed", "seed", "seed", default=None)
        assert box is not None
        if box > EXACT_MAX_BOX and givens is not None and givens < SPARSEST_25:
            raise InvalidInputError(f"givens: {givens} is too few for 25x25 here (at least "
                                    f"{SPARSEST_25}: sparser grids take long to prove "
                                    f"unique, and the generator cannot be stopped)")
        puzzle = await request.app.state.page_jobs.run(
            lambda stop: generate(box, givens, seed=seed, limit=Limit(stop=stop)))
    except InvalidInputError as e:
        return render(request, "sudoku/index.html",
                      _context(**ctx, error=str(e), field="generate"), status_code=400)
    message = (f"Generated a {puzzle.side}x{puzzle.side} puzzle with {puzzle.givens} givens; "
               f"its solution is unique (the generator proves it).")
    return render(request, "sudoku/index.html",
                  _context(**ctx, puzzle_text=_lines(puzzle), message=message,
                           grid=_grid(puzzle, None), method="exact" if box <= 3 else "cpsat"))


def _lines(puzzle: Puzzle) -> str:
    """The puzzle as text rows (one character per cell up to 35x35)."""
    line = puzzle.to_line()
    n = puzzle.side
    return "\n".join(line[r * n:(r + 1) * n] for r in range(n))


async def hint_page(request: Request) -> Response:
    from gameopt.sudoku import hint

    form = await read_form(request)
    try:
        puzzle = _puzzle(form)
        if puzzle.givens == puzzle.side ** 2:
            raise InvalidInputError("puzzle: already full; nothing to do")
        if puzzle.box > EXACT_MAX_BOX:
            raise InvalidInputError(f"puzzle: the next logical step is offered up to "
                                    f"{EXACT_MAX_BOX ** 2}x{EXACT_MAX_BOX ** 2} here")
        step = await request.app.state.page_jobs.run(lambda stop: hint(puzzle, stop=stop))
    except InvalidInputError as e:
        return _error_page(request, form, e)
    ctx = _form_context(form)
    if step is None:
        return render(request, "sudoku/index.html", _context(
            **ctx, grid=_grid(puzzle, None),
            message="No logical step applies here: the rest needs guessing."))
    cells = puzzle.cells.copy()
    for i, v in step.placements:
        cells[i] = v
    after = Puzzle(puzzle.box, cells, name="puzzle")
    message = f"Next step: {step.text} [{step.technique}, {step.tier}]"
    if step.eliminations and not step.placements:
        message += f" ({len(step.eliminations)} candidates removed; no value placed yet)"
    ctx["puzzle_text"] = _lines(after)
    return render(request, "sudoku/index.html", _context(
        **ctx, grid=_grid(after, None, {i for i, _ in step.placements}), message=message,
        step=step.text))
