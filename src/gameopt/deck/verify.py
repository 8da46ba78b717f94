"""An independent check of every deck rule, sharing no code with the builders.

Written plainly, one rule per block, so it can be read against the rules themselves.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import numpy.typing as npt

from gameopt.deck.problem import DeckProblem

__all__ = ["deck_problems", "is_feasible"]


def _name(problem: DeckProblem, i: int) -> str:
    return f"{i} ({problem.names[i]})" if i < len(problem.names) else str(i)


def deck_problems(problem: DeckProblem, deck: npt.ArrayLike) -> list[str]:
    """Every rule the deck breaks, one message each (empty: the deck is feasible).

    Parameters
    ----------
    problem : DeckProblem
    deck : array_like of int, shape (k,)
        Piece indices.

    Notes
    -----
    O(k + n) with Python ints.
    """
    items = [int(x) for x in np.asarray(deck).ravel()]
    out: list[str] = []
    n = problem.n
    # Indices in range
    bad = [i for i in items if not 0 <= i < n]
    if bad:
        out.append(f"indices {bad} outside 0..{n - 1}")
        return out
    # Size
    if len(items) != problem.size:
        out.append(f"size: {len(items)} pieces, {problem.size} required")
    # Distinct
    dup = sorted(i for i, c in Counter(items).items() if c > 1)
    if dup:
        out.append(f"distinct: pieces {dup} appear more than once")
    # Cost cap
    if problem.cost_cap is not None:
        if problem.cost is None:
            out.append("cost: a cap without piece costs")
        else:
            total = sum(int(problem.cost[i]) for i in items)
            if total > problem.cost_cap:
                out.append(f"cost: total {total} > cap {problem.cost_cap}")
    # Per-character limit
    if problem.character is not None:
        counts = Counter(int(problem.character[i]) for i in items)
        lim = problem.char_limit
        for ch, c in sorted(counts.items()):
            limit = int(lim) if isinstance(lim, int | np.integer) else int(lim[ch])
            if c > limit:
                out.append(f"character: {c} pieces of character {ch} > limit {limit}")
    # Attribute minimum
    if problem.attribute_min > 0:
        have = 0 if problem.attribute is None else sum(
            1 for i in items if int(problem.attribute[i]) != 0)
        if have < problem.attribute_min:
            out.append(f"attribute: {have} pieces with the attribute, "
                       f"{problem.attribute_min} required")
    # Forbidden pairs
    inset = set(items)
    for i, j in problem.forbidden_pairs:
        if i in inset and j in inset:
            out.append(f"forbidden pair: {_name(problem, i)} and {_name(problem, j)}")
    # Must-include
    missing = [m for m in problem.must if m not in set(items)]
    if missing:
        out.append("must-include: missing " + ", ".join(_name(problem, m) for m in missing))
    return out


def is_feasible(problem: DeckProblem, deck: npt.ArrayLike) -> bool:
    """True when :func:`deck_problems` finds nothing."""
    return not deck_problems(problem, deck)
