"""Helpers shared by the subcommands: evolution parameter flags, output files, data dir."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from gameopt.core.progress import ProgressCallback, StderrProgress
from gameopt.localsearch.evolution import EvolutionParams

__all__ = ["add_evolution_flags", "evolution_params", "default_data_dir", "progress_for"]


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


def progress_for(quiet: bool) -> ProgressCallback | None:
    """A stderr progress line every second for long runs, unless ``quiet``."""
    return None if quiet else StderrProgress(interval=1.0, stream=sys.stderr)
