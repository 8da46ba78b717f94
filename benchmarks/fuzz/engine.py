"""The fuzz engine: targets, mutations, the contract every input is checked against.

A *target* is a function ``fn(data: bytes, ctx: Context) -> None`` registered with
:func:`target`. It feeds ``data`` to one parser or protocol of gameopt and returns when
the input was accepted or refused in the documented way. The engine calls it on seed
inputs and on mutations of them and records a *failure* when

* it raises anything other than a :class:`gameopt.errors.GameoptError` (a traceback for
  the user), or a ``GameoptError`` whose message is empty or spans several lines;
* it raises :class:`ContractError` (the target saw a broken promise: a CLI exit code other
  than 0/1/2, several lines on stderr, an output file or store changed on error, a raw
  Python exception text in a protocol reply...);
* one input takes more than the target's CPU budget (``seconds``), or, on the inputs
  measured with :mod:`tracemalloc` (one in ``memory_every``), allocates more than the
  target's ``memory`` bytes at its peak, or makes gameopt's code raise a warning
  (numpy's ``RuntimeWarning`` on a cast...: lines on the user's stderr);
* one input runs away: a CPU interval timer (``ITIMER_PROF``, the process's CPU time)
  interrupts it after :func:`hard_limit` seconds with :class:`Runaway`, which the
  engine records as a failure with that input, and the run goes on with the next one.
  The budget alone is checked after an input returns, so it cannot stop one that never
  does; a parser stuck in C code, where no Python signal handler runs, is killed from
  outside by the run's scheduler (``benchmarks/fuzz/__main__.py``).

Failures are *distinct* by their key: the exception type and the innermost frame inside
gameopt (file and line), so a thousand inputs that hit one bad line count once; the
shortest input of each key is kept as its example.

Mutations (Fuzzing: Brute Force Vulnerability Discovery, Sutton, Greene and Amini; the
havoc stage of AFL, Zalewski): bit flips, byte sets, truncation, deletion, duplication,
splicing with another seed, dictionary tokens (huge numbers, NaN and infinities, Unicode
digits and confusables, BOM, CRLF, NUL, deep nesting, giant lines) and line operations,
stacked one to four deep.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import signal
import sys
import threading
import time
import traceback
import tracemalloc
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gameopt.errors import GameoptError

__all__ = ["ContractError", "Context", "Target", "TARGETS", "target", "mutate", "run_target",
           "check_input", "Failure", "RunStats", "files_state", "unchanged", "Runaway",
           "hard_limit", "inputs_of"]

#: Largest mutated input, in bytes (giant-line tokens stay within it).
MAX_INPUT = 1 << 20


class ContractError(AssertionError):
    """A target saw a broken promise other than an exception (see the module notes)."""


class Runaway(BaseException):  # noqa: N818 - not an error of the code under test's making
    """Raised in the middle of an input by the CPU timer of :func:`check_input`. A
    ``BaseException``, so a target's (or the code under test's) ``except Exception``
    does not swallow it."""


def hard_limit(seconds: float, timed: bool = True) -> float:
    """CPU seconds after which one input is interrupted as a runaway: five times the
    target's budget and at least 10 s; 120 s for a seed, whose first run may compile
    numba kernels (a cold cache)."""
    return max(5.0 * seconds, 10.0) if timed else 120.0


def _on_timer(signum: int, frame: object) -> None:
    raise Runaway


@dataclass
class Context:
    """What a target may use: a private scratch folder (emptied before every input) and a
    ``random.Random`` for targets that build inputs (an NPZ's arrays, CLI options)."""

    tmp: Path
    rng: random.Random

    def write(self, name: str, data: bytes) -> Path:
        """``data`` as the file ``name`` in the scratch folder."""
        path = self.tmp / name
        path.write_bytes(data)
        return path


TargetFn = Callable[[bytes, Context], None]


@dataclass
class Target:
    """One parser or protocol under test.

    Attributes
    ----------
    name : str
        ``system.what`` (``sudoku.puzzles``, ``reversi.nboard-engine``...).
    fn : callable
        ``fn(data, ctx)``: raises only ``GameoptError`` (or nothing) on any input.
    seeds : callable
        Returns the seed inputs (valid files and lines); called once per run.
    tokens : sequence of bytes
        Words of the format, inserted by the dictionary mutation (``SZ[``, ``;``...).
    seconds : float
        CPU budget for one input.
    memory : int
        Peak bytes one input may allocate (measured with tracemalloc).
    """

    name: str
    fn: TargetFn
    seeds: Callable[[], list[bytes]]
    tokens: Sequence[bytes] = ()
    seconds: float = 2.0
    memory: int = 256 << 20


#: Every registered target by name, in registration order.
TARGETS: dict[str, Target] = {}


def target(name: str, seeds: Callable[[], list[bytes]], tokens: Sequence[bytes] = (),
           seconds: float = 2.0, memory: int = 256 << 20) -> Callable[[TargetFn], TargetFn]:
    """Register ``fn`` as the target ``name`` (a decorator). Adding a parser to the fuzzing
    is one such function: feed the bytes in, let documented errors out."""
    def register(fn: TargetFn) -> TargetFn:
        if name in TARGETS:
            raise ValueError(f"fuzz target {name!r} registered twice")
        TARGETS[name] = Target(name, fn, seeds, tuple(tokens), seconds, memory)
        return fn
    return register


# -- mutations ---------------------------------------------------------------------------

#: Tokens every target gets: numbers at the edges, NaN and infinities, Unicode digits
#: (Arabic-Indic, Eastern Arabic, fullwidth, superscript, mathematical), confusables
#: (Cyrillic and fullwidth letters), BOMs, line ends, NUL, deep nesting.
COMMON_TOKENS: tuple[bytes, ...] = tuple(t.encode("utf-8") for t in (
    "0", "-1", "-0", "1.5", "1e6", "1e20", "1e308", "1e309", "-1e309", "2147483647",
    "2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
    "99999999999999999999999999", "nan", "NaN", "inf", "-inf", "Infinity", "0x10", "1_000",
    "١", "٢٣", "۴", "２", "９", "²", "𝟗", "Ⅷ", "½", "О", "Х", "Ο", "ｈ８", "Ａ", "ǀ",
    "\ufeff", "\r\n", "\r", "\n", "\u2028", "\x00", "\t", " ", ",", ";", ":", "\"", "'",
    "\\", "#", "%", "[", "]", "(", ")", "{", "}", "=", "é", "\U0001f600",
)) + (b"\xff\xfe", b"\xef\xbb\xbf", b"\x80", b"\xc3", b"\xed\xa0\x80")

INTERESTING_BYTES = b"\x00\x01\x7f\x80\xff\n\r\t ,;:[]()\"'\\.-+0159eE"


def _giant(rng: random.Random) -> bytes:
    unit = rng.choice([b"A", b"9", b"(", b"[", b"{", b"[[", b"(;", b"1,", b"\x00", b"X"])
    return unit * rng.choice([1000, 10_000, 100_000, 400_000 // len(unit)])


def _number_token(rng: random.Random) -> bytes:
    return rng.choice([b"0", b"-1", b"-2147483649", b"1e999", b"nan", b"inf", b"-inf",
                       b"9" * rng.randint(10, 400), b"3.5", b"1e-400", b"\xd9\xa1",
                       b"\xef\xbc\x92", b"00000000000000000000001", b"+7", b"- 1", b"1e+",
                       str(rng.randint(-10**6, 10**6)).encode(), str(1 << rng.randint(
                           7, 70)).encode()])


def _mutate_once(data: bytes, rng: random.Random, seeds: Sequence[bytes],
                 tokens: Sequence[bytes]) -> bytes:
    n = len(data)
    op = rng.randrange(14)
    pos = rng.randrange(n + 1)
    if op == 0 and n:  # flip 1..8 bits
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(n)
            b[i] ^= 1 << rng.randrange(8)
        return bytes(b)
    if op == 1 and n:  # set interesting bytes
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(n)] = rng.choice(INTERESTING_BYTES)
        return bytes(b)
    if op == 2:  # truncate
        return data[:pos]
    if op == 3 and n:  # delete a range
        return data[:pos] + data[pos + rng.randint(1, max(1, min(64, n // 4 + 1))):]
    if op == 4 and n:  # duplicate a range
        a = rng.randrange(n)
        b2 = min(n, a + rng.randint(1, 256))
        return data[:pos] + data[a:b2] + data[pos:]
    if op == 5 and seeds:  # splice with another seed
        other = rng.choice(seeds)
        cut = rng.randrange(len(other) + 1)
        return data[:pos] + other[cut:cut + rng.randint(1, 4096)]
    if op in (6, 7):  # a dictionary token
        pool = tokens if (tokens and op == 6) else COMMON_TOKENS
        return data[:pos] + rng.choice(pool) + data[pos:]
    if op == 8:  # replace a number with an edge number
        digits = [i for i in range(n) if 48 <= data[i] <= 57]
        if digits:
            i = rng.choice(digits)
            j = i
            while j < n and 48 <= data[j] <= 57:
                j += 1
            while i > 0 and 48 <= data[i - 1] <= 57:
                i -= 1
            return data[:i] + _number_token(rng) + data[j:]
        return data + _number_token(rng)
    lines = data.split(b"\n")
    if op == 9 and len(lines) > 1:  # delete, duplicate or swap lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        kind = rng.randrange(3)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[j])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if op == 10:  # line ends and BOM
        kind = rng.randrange(4)
        if kind == 0:
            return data.replace(b"\n", b"\r\n")
        if kind == 1:
            return data.replace(b"\n", b"\r")
        if kind == 2:
            return b"\xef\xbb\xbf" + data
        return data.rstrip(b"\n")
    if op == 11:  # giant line or deep nesting
        return (data[:pos] + _giant(rng) + data[pos:])[:MAX_INPUT]
    if op == 12:  # another encoding
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data[::-1] if rng.random() < 0.1 else data + b"\n"
        enc = rng.choice(["utf-16", "utf-16-be", "latin-1", "utf-32", "cp1252"])
        return text.encode(enc, "replace")
    if op == 13 and n:  # overwrite with a token
        tok = rng.choice(tokens or COMMON_TOKENS)
        return data[:pos] + tok + data[pos + len(tok):]
    return data + rng.choice(COMMON_TOKENS)


def mutate(data: bytes, rng: random.Random, seeds: Sequence[bytes] = (),
           tokens: Sequence[bytes] = ()) -> bytes:
    """``data`` under one to four stacked random mutations (at most :data:`MAX_INPUT`)."""
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        data = _mutate_once(data, rng, seeds, tokens)
    return data[:MAX_INPUT]


# -- the contract --------------------------------------------------------------------------


@dataclass
class Failure:
    """One distinct failure: its key, a one-line description and the shortest input."""

    key: str
    what: str
    data: bytes
    count: int = 1


@dataclass
class RunStats:
    """What a run of one target found."""

    target: str
    inputs: int = 0
    refused: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    failures: dict[str, Failure] = field(default_factory=dict)

    def add(self, key: str, what: str, data: bytes) -> None:
        old = self.failures.get(key)
        if old is None:
            self.failures[key] = Failure(key, what, data)
        else:
            old.count += 1
            if len(data) < len(old.data):
                old.data, old.what = data, what


def _where(exc: BaseException) -> str:
    """The innermost frame inside gameopt (else the innermost frame), as path:line."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if "gameopt" in f.filename and "benchmarks" not in f.filename]
    f = (mine or frames or [None])[-1]
    if f is None:
        return "?"
    path = f.filename
    cut = path.rfind("gameopt" + os.sep)
    return f"{path[cut:] if cut >= 0 else os.path.basename(path)}:{f.lineno}"


#: Set by :func:`check_input`: whether the last input was refused with a documented error.
last_refused = [False]


@contextlib.contextmanager
def _cpu_timer(seconds: float) -> Iterator[None]:
    """Raise :class:`Runaway` in this (main) thread after ``seconds`` of process CPU."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only: no stop (the scheduler still kills)
        return
    old = signal.signal(signal.SIGPROF, _on_timer)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


class _Warned(Exception):
    """A warning gameopt's code raised (numpy's ``RuntimeWarning``, a ``UserWarning``...):
    two more lines on the user's stderr, and usually a value read wrong."""

    def __init__(self, w: warnings.WarningMessage) -> None:
        super().__init__(f"{w.category.__name__}: {str(w.message)[:200]}")
        path = w.filename
        cut = path.rfind("gameopt" + os.sep)
        self.key = f"{w.category.__name__} at {path[cut:]}:{w.lineno}"


def _ours(w: warnings.WarningMessage) -> bool:
    return ("gameopt" + os.sep in w.filename and "benchmarks" not in w.filename
            # a ResourceWarning comes from the garbage collector, at whatever line runs then
            and not issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning,
                                            ResourceWarning))
            and not w.category.__module__.startswith("numba"))


def _run(tgt: Target, data: bytes, ctx: Context, limit: float) -> float:
    """CPU seconds of one run of ``tgt`` on ``data``; exceptions pass through, and a
    warning from gameopt's code (before a result or a documented error) is raised as
    :class:`_Warned`."""
    t0 = time.process_time()
    seen: list[warnings.WarningMessage] = []
    try:
        with _cpu_timer(limit), warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            tgt.fn(data, ctx)
    except GameoptError:
        _warned(seen)
        raise
    finally:
        spent = time.process_time() - t0
    _warned(seen)
    return spent


def _warned(seen: list[warnings.WarningMessage]) -> None:
    for w in seen:
        if _ours(w):
            raise _Warned(w)


def check_input(tgt: Target, data: bytes, ctx: Context, *, trace_memory: bool = False,
                timed: bool = True) -> tuple[str, str] | None:
    """Run ``tgt`` on ``data``; ``None`` if the contract held, else ``(key, what)``."""
    _empty(ctx.tmp)
    last_refused[0] = False
    limit = hard_limit(tgt.seconds, timed)
    if trace_memory:
        tracemalloc.start()
    t0 = time.process_time()
    try:
        _run(tgt, data, ctx, limit)
    except Runaway:
        return "runaway", (f"interrupted after {time.process_time() - t0:.1f} CPU s on "
                           f"one input (hard limit {limit:g} s)")
    except GameoptError as e:
        last_refused[0] = True
        text = str(e)
        if not text.strip() or "\n" in text:
            return (f"{type(e).__name__} message at {_where(e)}",
                    f"{type(e).__name__} with a message of {text.count(chr(10)) + 1} lines: "
                    f"{text[:200]!r}")
    except ContractError as e:
        return f"contract: {str(e).split(':')[0]}", f"contract broken: {str(e)[:300]}"
    except _Warned as e:
        return e.key, f"warning: {e}"
    except RecursionError as e:
        return f"RecursionError at {_where(e)}", "RecursionError"
    except Exception as e:  # noqa: BLE001 - the point: anything else is a failure
        return (f"{type(e).__name__} at {_where(e)}",
                f"{type(e).__name__}: {str(e)[:200]}".replace("\n", " "))
    finally:
        spent = time.process_time() - t0
        peak = 0
        if trace_memory:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    if timed and spent > tgt.seconds:
        # confirmed on a second run: the first input to reach a numba kernel compiles or
        # loads it (a cold cache, as in CI), which costs once, not per input
        try:
            _empty(ctx.tmp)
            again = _run(tgt, data, ctx, limit)
        except Runaway:
            again = limit
        except Exception:  # noqa: BLE001 - the first run passed; only the time matters
            again = 0.0
        if again > tgt.seconds:
            return "slow", (f"{again:.2f} CPU s on one input, twice (budget "
                            f"{tgt.seconds} s)")
    if peak > tgt.memory:
        return "memory", f"{peak / 2**20:.0f} MiB peak on one input (ceiling " \
                         f"{tgt.memory / 2**20:.0f} MiB)"
    return None


def _empty(folder: Path) -> None:
    for p in folder.iterdir():
        if p.is_dir() and not p.is_symlink():
            _empty(p)
            p.rmdir()
        else:
            p.unlink()


def files_state(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` by relative path with the digest of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@contextlib.contextmanager
def unchanged(folder: Path, what: str) -> Iterator[None]:
    """On a ``GameoptError`` from the block, check no file under ``folder`` changed."""
    before = files_state(folder)
    try:
        yield
    except GameoptError:
        after = files_state(folder)
        if after != before:
            changed = sorted(k for k in set(before) | set(after)
                             if before.get(k) != after.get(k))
            raise ContractError(f"{what} changed on error: {', '.join(changed)}") from None
        raise


def inputs_of(tgt: Target, seed: int, start: int = 0) -> Iterator[tuple[int, bytes]]:
    """``(index, input)`` of run ``seed`` of ``tgt`` from index ``start`` on: its seeds,
    then mutations of them. The stream depends on ``seed`` only, so input ``i`` can be
    rebuilt (for a report) and a run resumed after it (the mutations before ``start``
    are drawn, not run)."""
    rng = random.Random(f"{tgt.name}:{seed}")
    seeds = [s[:MAX_INPUT] for s in tgt.seeds()] or [b""]
    i = 0
    while True:
        data = seeds[i] if i < len(seeds) else mutate(rng.choice(seeds), rng, seeds,
                                                     tgt.tokens)
        if i >= start:
            yield i, data
        i += 1


def seed_count(tgt: Target) -> int:
    """How many of the first inputs are seeds (run untimed: they warm numba up)."""
    return max(1, len(tgt.seeds()))


def run_target(tgt: Target, inputs: int, seed: int, tmp: Path, *,
               memory_every: int = 50, progress: Callable[[int], None] | None = None,
               budget: float | None = None, start: int = 0,
               at: Callable[[int], None] | None = None,
               found: Callable[[RunStats], None] | None = None) -> RunStats:
    """Run ``tgt`` on its seeds, then on mutations, up to input ``inputs`` (fewer when
    ``budget`` CPU seconds run out first), from input ``start``. ``at(i)`` is called
    before input ``i`` runs, ``found(stats)`` after an input that failed."""
    ctx = Context(tmp, random.Random(f"{tgt.name}:ctx:{seed}"))
    n_seeds = seed_count(tgt)
    stats = RunStats(tgt.name)
    w0, c0 = time.perf_counter(), time.process_time()
    recursion = sys.getrecursionlimit()
    if start >= inputs:
        return stats
    for i, data in inputs_of(tgt, seed, start):
        if at is not None:
            at(i)
        ctx.rng.seed(f"{seed}:{i}")
        bad = check_input(tgt, data, ctx, trace_memory=memory_every > 0
                          and i % memory_every == memory_every - 1,
                          timed=i >= n_seeds)  # the seeds warm up (numba kernels load)
        sys.setrecursionlimit(recursion)
        stats.inputs += 1
        stats.refused += last_refused[0]
        if bad is not None:
            old = stats.failures.get(bad[0])
            stats.add(bad[0], bad[1], data)
            if found is not None and (old is None or old.data is data):
                found(stats)  # a new failure, or a shorter input for one
        if progress is not None and i % 1000 == 999:
            progress(i + 1)
        if i + 1 >= inputs or (budget is not None and time.process_time() - c0 > budget):
            break
    stats.wall_seconds = time.perf_counter() - w0
    stats.cpu_seconds = time.process_time() - c0
    return stats
