"""Helpers shared by the subcommands: evolution parameter flags, output files, data dir."""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
from pathlib import Path
from typing import Any, TextIO

from gameopt.core.progress import Progress
from gameopt.localsearch.evolution import EvolutionParams

__all__ = ["TerminalProgress", "add_evolution_flags", "evolution_params", "default_data_dir",
           "progress_for"]


def add_evolution_flags(parser: argparse.ArgumentParser, defaults: EvolutionParams) -> None:
    """One ``--name`` flag per :class:`EvolutionParams` field (defaults shown in help)."""
    group = parser.add_argument_group("evolution parameters")
    for f in dataclasses.fields(EvolutionParams):
        value = getattr(defaults, f.name)
        flag = "--" + f.name.replace("_", "-")
        if isinstance(value, bool):
            group.add_argument(flag, dest="evo_" + f.name, default=None,
                               action=argparse.BooleanOptionalAction,
                               help=f"(default: {value})")
        else:
            group.add_argument(flag, dest="evo_" + f.name, type=type(value), default=None,
                               metavar=f.name.upper(), help=f"(default: {value})")
    group.add_argument("--article", action="store_true",
                       help="the article's exact algorithm: its values (strict acceptance), "
                            "no pruning, no clash focus")
    group.add_argument("--no-prune", dest="prune", action="store_false",
                       help="do not fix cells forced by singles nor restrict values to "
                            "candidate cells")
    group.add_argument("--no-focus", dest="focus", action="store_false",
                       help="any swap in a box is a neighbour (no preference for swaps that "
                            "move a clashing value)")


def evolution_params(args: argparse.Namespace, defaults: EvolutionParams) -> EvolutionParams:
    """The parameters chosen on the command line (validated by EvolutionParams)."""
    base = EvolutionParams() if args.article else defaults
    changes = {f.name: getattr(args, "evo_" + f.name) for f in dataclasses.fields(base)
               if getattr(args, "evo_" + f.name) is not None}
    return dataclasses.replace(base, **changes)


def default_data_dir() -> Path:
    """``../shared/data`` beside the project root, or ``$GAMEOPT_DATA``; else the cwd's."""
    env = os.environ.get("GAMEOPT_DATA")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").exists():
            return parent.parent / "shared" / "data"
    return Path("../shared/data")


class TerminalProgress:
    """Shows the library's progress reports as tqdm bars on stderr, one bar per task.

    A task with a known total gets a bar; one without gets a counter. ``best`` and ``info``
    are shown after the bar. Call :meth:`close` (or use it as a context manager) when the
    work is done.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self._bars: dict[str, Any] = {}

    def __call__(self, progress: Progress, /) -> None:
        from tqdm import tqdm

        bar = self._bars.get(progress.task)
        if bar is None or (progress.total is not None and bar.total != progress.total):
            if bar is not None:
                bar.close()
            bar = tqdm(total=progress.total, desc=progress.task, file=self.stream,
                       leave=False, ncols=_columns(), mininterval=0.2,
                       initial=progress.done)
            self._bars[progress.task] = bar
        elif progress.done >= bar.n:
            bar.update(progress.done - bar.n)  # tqdm's rate counts what was added
        else:
            bar.n = progress.done
        post = {k: v for k, v in progress.info.items()}
        if progress.best is not None:
            post = {"best": f"{progress.best:g}", **post}
        if post:
            bar.set_postfix(post, refresh=False)
        bar.refresh()

    def close(self) -> None:
        for bar in self._bars.values():
            bar.close()
        self._bars.clear()

    def __enter__(self) -> TerminalProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _columns() -> int:
    """The terminal's width; 100 where it reports none (a pty with 0 columns)."""
    return shutil.get_terminal_size((100, 24)).columns or 100


def progress_for(quiet: bool, stream: TextIO | None = None) -> TerminalProgress | None:
    """A progress display on stderr when it is a terminal, unless ``quiet``."""
    stream = stream if stream is not None else sys.stderr
    if quiet or not stream.isatty():
        return None
    return TerminalProgress(stream)
