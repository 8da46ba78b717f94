"""One run control for every search: what may be spent, and a stop switch kernels poll.

A :class:`Limit` says what a search may spend — time (on a clock named explicitly: process
``"cpu"`` time or ``"wall"`` time), nodes, depth, a target objective — and carries an
optional external :class:`StopFlag`. It is an immutable description (python-chess's
``chess.engine.Limit`` is the model); :meth:`Limit.start` turns it into a running
:class:`~gameopt.core.stop.StopRule` whose clock starts then.

Numbers given by users (time limits, counts, targets) go through :func:`check_seconds`,
:func:`check_count` and :func:`check_finite`, so NaN, infinities, negatives and zero mean
the same thing in every command:

==========  ==============================  ==============================
value       time limit (seconds)            count (nodes, depth, games...)
==========  ==============================  ==============================
``None``    no limit                        no limit
``inf``     no limit                        refused
NaN         refused                         refused
``<= 0``    refused                         refused (``0`` allowed where the caller says)
non-number  refused                         refused, as are fractions
==========  ==============================  ==============================

Refusals raise :class:`~gameopt.errors.InvalidInputError` whose message names the value and
where it came from (``what``: an option, a field, a file and line).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Literal

from gameopt.core.stop import Deadline, StopFlag, StopRule
from gameopt.errors import InvalidInputError

__all__ = ["CLOCKS", "Clock", "Limit", "StopFlag", "check_count", "check_finite",
           "check_seconds"]

#: The clocks a time limit or a reported time can be measured on.
Clock = Literal["cpu", "wall"]
CLOCKS: tuple[Clock, ...] = ("cpu", "wall")


def check_seconds(value: object, what: str = "time limit") -> float | None:
    """A time limit in seconds from user input: ``None`` or ``inf`` means none.

    Raises
    ------
    InvalidInputError
        If ``value`` is not a number, is NaN, negative or zero.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidInputError(f"{what} {value!r}: expected a number of seconds")
    seconds = float(value)
    if math.isnan(seconds):
        raise InvalidInputError(f"{what} nan: expected a number of seconds > 0")
    if math.isinf(seconds) and seconds > 0:
        return None
    if seconds <= 0:
        raise InvalidInputError(
            f"{what} {value!r}: expected seconds > 0 (leave it out for no limit)")
    return seconds


def check_count(value: object, what: str = "count", *, minimum: int = 1,
                maximum: int | None = None) -> int | None:
    """A whole number from user input (nodes, depth, games...): ``None`` means none.

    Accepts Python and numpy integers, and floats with no fractional part (``1e6``).

    Raises
    ------
    InvalidInputError
        If ``value`` is not a whole number, is NaN or infinite, or lies outside
        ``[minimum, maximum]``.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidInputError(f"{what} {value!r}: expected a whole number")
    if isinstance(value, numbers.Integral):
        count = int(value)
    else:
        f = float(value)
        if not math.isfinite(f) or f != math.floor(f):
            raise InvalidInputError(f"{what} {value!r}: expected a whole number")
        count = int(f)
    if count < minimum or (maximum is not None and count > maximum):
        upper = f" and <= {maximum}" if maximum is not None else ""
        raise InvalidInputError(f"{what} {value!r}: expected >= {minimum}{upper}")
    return count


def check_finite(value: object, what: str = "value") -> float | None:
    """A finite real number from user input (a target, a weight): ``None`` means none.

    Raises
    ------
    InvalidInputError
        If ``value`` is not a number, or is NaN or infinite.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidInputError(f"{what} {value!r}: expected a number")
    f = float(value)
    if not math.isfinite(f):
        raise InvalidInputError(f"{what} {value!r}: expected a finite number")
    return f


@dataclass(frozen=True)
class Limit:
    """What a search may spend. Every field is optional; none set means "until done".

    Parameters
    ----------
    time : float or None
        Seconds on ``clock``; ``None`` (or ``inf``) for no time limit.
    clock : {"cpu", "wall"}
        The clock ``time`` is measured on: this process's CPU time or wall time. Results
        report their ``seconds`` on the clock their search was limited by.
    nodes : int or None
        Work units (search nodes, epochs, moves tried: each method documents its unit).
    depth : int or None
        Search depth, where a method has one (plies, levels).
    target : float or None
        Stop once the objective reaches this value (the method says in which direction).
    stop : StopFlag or None
        An external stop switch (a GUI button, a protocol command, a disconnected client).

    Raises
    ------
    InvalidInputError
        If a field is out of range (see the module's table), or ``clock`` is unknown.

    Examples
    --------
    >>> Limit(time=2.5, clock="cpu")
    Limit(time=2.5, clock='cpu', nodes=None, depth=None, target=None, stop=None)
    >>> Limit(time=float("inf")).time is None
    True
    """

    time: float | None = None
    clock: Clock = "wall"
    nodes: int | None = None
    depth: int | None = None
    target: float | None = None
    stop: StopFlag | None = None

    def __post_init__(self) -> None:
        if self.clock not in CLOCKS:
            raise InvalidInputError(f"clock {self.clock!r}: expected 'cpu' or 'wall'")
        object.__setattr__(self, "time", check_seconds(self.time, "time limit"))
        object.__setattr__(self, "nodes", check_count(self.nodes, "node limit"))
        object.__setattr__(self, "depth", check_count(self.depth, "depth", minimum=0))
        object.__setattr__(self, "target", check_finite(self.target, "target"))

    @property
    def cpu(self) -> bool:
        """True when ``time`` is CPU time."""
        return self.clock == "cpu"

    def start(self) -> StopRule:
        """A running stop rule for this limit, its clock started now."""
        return StopRule(deadline=Deadline(self.time, cpu=self.cpu), max_iterations=self.nodes,
                        target=self.target, flag=self.stop or StopFlag())

