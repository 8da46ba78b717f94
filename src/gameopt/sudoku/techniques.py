"""Human solving techniques over candidate bitmasks, each returning one explained step.

A :class:`Candidates` state holds, for every cell, its value (0 when empty) and a bitmask
of the values it may still take (bit ``v-1`` for value ``v``; 0 once the cell is filled).
Each technique is a function ``f(state) -> LogicStep | None`` that finds the first
instance of its pattern that changes the state (a placement, or at least one
elimination) and describes it; it never changes the state itself.
:data:`TECHNIQUES` lists them in order of difficulty with their tier.

Rows, columns and boxes are numbered from 1 in the text (``r4c7``, ``box 6``, box numbers
row-major). Every technique applies to any box size; subsets and fish go up to size
``n // 2`` (a larger one is the complement of a smaller one).

References
----------
.. [1] A. Stuart, "Sudoku Solver" strategy pages, https://www.sudokuwiki.org (the names,
   the order of difficulty and the examples of each technique).
.. [2] Sudopedia, the Sudoku wiki (naked/hidden subsets, locked candidates, fish,
   XY-Wing, XYZ-Wing, W-Wing, simple colouring, unique rectangles, X-Chains, XY-Chains).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from gameopt.sudoku.grid import cell_name, units

__all__ = ["RATINGS", "Candidates", "LogicStep", "TECHNIQUES", "TIERS", "Technique", "applicable",
           "tier_of"]

#: Difficulty tiers, easiest first (a puzzle's rating is the tier of its hardest step).
TIERS = ("easy", "medium", "hard", "expert", "extreme")

#: Every rating, easiest first: the technique tiers, then ``"guessing"``.
RATINGS = (*TIERS, "guessing")

_KINDS = ("row", "column", "box")
_N = TypeVar("_N")
_SUBSET = {2: "pair", 3: "triple", 4: "quad"}
_FISH = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


@dataclass(frozen=True)
class LogicStep:
    """One explained step of a logical solve.

    Attributes
    ----------
    technique : str
        Its usual name (``"hidden single"``, ``"X-Wing"``...).
    placements : tuple of (cell, value)
        Values placed (flat cell index, value 1..n).
    eliminations : tuple of (cell, value)
        Candidates removed.
    cells : tuple of int
        The cells of the pattern (flat indices).
    units : tuple of str
        The rows, columns and boxes of the pattern (``"row 2"``, ``"box 6"``).
    text : str
        A sentence a person can follow (``"r4c7 = 3: hidden single in box 6"``).
    """

    technique: str
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    cells: tuple[int, ...]
    units: tuple[str, ...]
    text: str

    @property
    def tier(self) -> str:
        """The difficulty tier of the technique (one of :data:`TIERS`)."""
        return tier_of(self.technique)

    def __str__(self) -> str:
        return self.text


class Candidates:
    """Values and candidate bitmasks of a grid of box size ``box`` (mutable).

    Attributes
    ----------
    values : list of int, length n*n
        0 for an empty cell, else its value.
    cands : list of int, length n*n
        Bit ``v-1`` set when ``v`` is still possible; 0 for a filled cell.
    """

    def __init__(self, cells: npt.NDArray[np.int8], box: int) -> None:
        self.box = box
        self.n = n = box * box
        self.units: list[list[int]] = [list(map(int, u)) for u in units(box).tolist()]
        self.unit_names = [f"{_KINDS[u // n]} {u % n + 1}" for u in range(3 * n)]
        self.cell_units: list[tuple[int, int, int]] = [
            (c // n, n + c % n, 2 * n + (c // n // box) * box + c % n // box)
            for c in range(n * n)]
        self.peers: list[frozenset[int]] = [
            frozenset(x for u in self.cell_units[c] for x in self.units[u]) - {c}
            for c in range(n * n)]
        self.values = [int(v) for v in cells.tolist()]
        full = (1 << n) - 1
        self.cands = [0 if v else full for v in self.values]
        for c, v in enumerate(self.values):
            if v:
                self._clear_peers(c, v)

    def _clear_peers(self, cell: int, value: int) -> None:
        off = ~(1 << (value - 1))
        for p in self.peers[cell]:
            self.cands[p] &= off

    def place(self, cell: int, value: int) -> None:
        """Fill ``cell`` with ``value`` and remove ``value`` from its peers."""
        self.values[cell] = value
        self.cands[cell] = 0
        self._clear_peers(cell, value)

    def apply(self, step: LogicStep) -> None:
        """Carry out the placements and eliminations of ``step``."""
        for cell, value in step.placements:
            self.place(cell, value)
        for cell, value in step.eliminations:
            self.cands[cell] &= ~(1 << (value - 1))

    def empty(self) -> int:
        return self.values.count(0)

    def grid(self) -> npt.NDArray[np.int8]:
        return np.array(self.values, dtype=np.int8)

    def name(self, cell: int) -> str:
        return cell_name(cell, self.n)

    def with_value(self, unit: int, value: int) -> list[int]:
        """Cells of ``unit`` where ``value`` is a candidate."""
        bit = 1 << (value - 1)
        return [c for c in self.units[unit] if self.cands[c] & bit]

    def sees(self, a: int, b: int) -> bool:
        return b in self.peers[a]


# --- text helpers -------------------------------------------------------------------------

def _vals(mask: int) -> list[int]:
    """Values (1-based) of the bits of ``mask``."""
    out = []
    v = 1
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


def _set(mask: int) -> str:
    return "{" + ", ".join(map(str, _vals(mask))) + "}"


def _names(s: Candidates, cells: list[int] | tuple[int, ...]) -> str:
    return ", ".join(s.name(c) for c in cells)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _removal(s: Candidates, elims: list[tuple[int, int]]) -> str:
    """``remove 5 from r5c3, r6c7; remove 7 from r1c1``: eliminations grouped by value."""
    by_value: dict[int, list[int]] = {}
    for cell, value in elims:
        by_value.setdefault(value, []).append(cell)
    return "; ".join(f"remove {v} from {_names(s, sorted(cs))}"
                     for v, cs in sorted(by_value.items()))


def _elims(s: Candidates, cells: list[int] | set[int], mask: int) -> list[tuple[int, int]]:
    """Every (cell, value) of ``cells`` with ``value`` in ``mask`` still a candidate."""
    return [(c, v) for c in sorted(cells) for v in _vals(s.cands[c] & mask)]


def _step(s: Candidates, technique: str, elims: list[tuple[int, int]], cells: list[int],
          unit_ids: list[int] | list[str], head: str) -> LogicStep:
    names = tuple(u if isinstance(u, str) else s.unit_names[u] for u in unit_ids)
    return LogicStep(technique, (), tuple(elims), tuple(cells), names,
                     f"{head}: {_removal(s, elims)}")


# --- singles ------------------------------------------------------------------------------

def hidden_single(s: Candidates) -> LogicStep | None:
    """A value with one place left in a box, then in a row, then in a column."""
    n = s.n
    for u in itertools.chain(range(2 * n, 3 * n), range(2 * n)):
        seen = 0
        for c in s.units[u]:
            seen |= s.cands[c]
        for v in _vals(seen):
            where = s.with_value(u, v)
            if len(where) == 1:
                c = where[0]
                return LogicStep("hidden single", ((c, v),), (), (c,), (s.unit_names[u],),
                                 f"{s.name(c)} = {v}: hidden single in {s.unit_names[u]}")
    return None


def naked_single(s: Candidates) -> LogicStep | None:
    """A cell with one candidate left."""
    for c, m in enumerate(s.cands):
        if m and m & (m - 1) == 0:
            v = m.bit_length()
            return LogicStep("naked single", ((c, v),), (), (c,), (),
                             f"{s.name(c)} = {v}: naked single (the only candidate left "
                             f"in the cell)")
    return None


# --- subsets ------------------------------------------------------------------------------

def _naked(k: int) -> Callable[[Candidates], LogicStep | None]:
    def naked_subset(s: Candidates) -> LogicStep | None:
        for u, unit in enumerate(s.units):
            small = [c for c in unit if 2 <= s.cands[c].bit_count() <= k]
            for combo in itertools.combinations(small, k):
                union = 0
                for c in combo:
                    union |= s.cands[c]
                if union.bit_count() != k:
                    continue
                others = [c for c in unit if c not in combo and s.cands[c] & union]
                if others:
                    elims = _elims(s, others, union)
                    return _step(s, f"naked {_SUBSET[k]}", elims, list(combo), [u],
                                 f"Naked {_SUBSET[k]} {_set(union)} in {_names(s, combo)} "
                                 f"({s.unit_names[u]})")
        return None
    naked_subset.__name__ = f"naked_{_SUBSET[k]}"
    return naked_subset


def _hidden(k: int) -> Callable[[Candidates], LogicStep | None]:
    def hidden_subset(s: Candidates) -> LogicStep | None:
        for u in range(len(s.units)):
            places = {v: s.with_value(u, v) for v in range(1, s.n + 1)}
            few = [v for v, cs in places.items() if 2 <= len(cs) <= k]
            for combo in itertools.combinations(few, k):
                cells = sorted(set().union(*(places[v] for v in combo)))
                if len(cells) != k:
                    continue
                mask = sum(1 << (v - 1) for v in combo)
                elims = _elims(s, cells, ~mask)
                if elims:
                    return _step(s, f"hidden {_SUBSET[k]}", elims, cells, [u],
                                 f"Hidden {_SUBSET[k]} {_set(mask)} in {s.unit_names[u]} "
                                 f"(only in {_names(s, cells)})")
        return None
    hidden_subset.__name__ = f"hidden_{_SUBSET[k]}"
    return hidden_subset


# --- locked candidates --------------------------------------------------------------------

def pointing(s: Candidates) -> LogicStep | None:
    """Locked candidates type 1: a value of a box confined to one row or column."""
    n = s.n
    for b in range(2 * n, 3 * n):
        for v in range(1, n + 1):
            where = s.with_value(b, v)
            if len(where) < 2:
                continue
            for kind in (0, 1):
                lines = {s.cell_units[c][kind] for c in where}
                if len(lines) != 1:
                    continue
                line = lines.pop()
                others = [c for c in s.with_value(line, v) if c not in where]
                if others:
                    return _step(s, "pointing", [(c, v) for c in others], where, [b, line],
                                 f"Pointing: in {s.unit_names[b]}, {v} can only be in "
                                 f"{s.unit_names[line]} ({_names(s, where)})")
    return None


def box_line(s: Candidates) -> LogicStep | None:
    """Locked candidates type 2: a value of a row or column confined to one box."""
    n = s.n
    for line in range(2 * n):
        for v in range(1, n + 1):
            where = s.with_value(line, v)
            if len(where) < 2:
                continue
            boxes = {s.cell_units[c][2] for c in where}
            if len(boxes) != 1:
                continue
            b = boxes.pop()
            others = [c for c in s.with_value(b, v) if c not in where]
            if others:
                return _step(s, "box-line reduction", [(c, v) for c in others], where,
                             [line, b],
                             f"Box-line reduction: in {s.unit_names[line]}, {v} can only be "
                             f"in {s.unit_names[b]} ({_names(s, where)})")
    return None


# --- fish ---------------------------------------------------------------------------------

def _fish(k: int) -> Callable[[Candidates], LogicStep | None]:
    def fish(s: Candidates) -> LogicStep | None:
        n = s.n
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            for base in (0, 1):  # 0: rows are the base, columns the cover; 1: the reverse
                lines = {}
                for i in range(n):
                    u = base * n + i
                    mask = 0
                    for c in s.units[u]:
                        if s.cands[c] & bit:
                            mask |= 1 << s.cell_units[c][1 - base] - (1 - base) * n
                    if 2 <= mask.bit_count() <= k:
                        lines[i] = mask
                for combo in itertools.combinations(sorted(lines), k):
                    cover = 0
                    for i in combo:
                        cover |= lines[i]
                    if cover.bit_count() != k:
                        continue
                    cover_units = [(1 - base) * n + j for j in range(n) if cover >> j & 1]
                    base_units = [base * n + i for i in combo]
                    pattern = [c for u in base_units for c in s.units[u] if s.cands[c] & bit]
                    others = [c for u in cover_units for c in s.units[u]
                              if s.cands[c] & bit and s.cell_units[c][base] - base * n
                              not in combo]
                    if others:
                        kinds = ("rows", "columns")
                        head = (f"{_FISH[k]} on {v} in {kinds[base]} "
                                f"{_and([str(i + 1) for i in combo])} ({kinds[1 - base]} "
                                f"{', '.join(str(u - (1 - base) * n + 1) for u in cover_units)})")
                        return _step(s, _FISH[k], [(c, v) for c in sorted(others)],
                                     sorted(pattern), base_units + cover_units, head)
        return None
    fish.__name__ = _FISH[k].lower().replace("-", "_")
    return fish


# --- wings --------------------------------------------------------------------------------

def _common_peers(s: Candidates, cells: list[int]) -> set[int]:
    out = set(s.peers[cells[0]])
    for c in cells[1:]:
        out &= s.peers[c]
    return out - set(cells)


def xy_wing(s: Candidates) -> LogicStep | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: a cell seeing both pincers is not z."""
    bivalue = [c for c, m in enumerate(s.cands) if m.bit_count() == 2]
    for p in bivalue:
        mp = s.cands[p]
        wings = [q for q in bivalue if q in s.peers[p] and (s.cands[q] & mp).bit_count() == 1]
        for q, r in itertools.combinations(wings, 2):
            mq, mr = s.cands[q], s.cands[r]
            z = mq & mr
            if z.bit_count() != 1 or z & mp or (mq | mr) & mp != mp:
                continue
            elims = _elims(s, _common_peers(s, [q, r]), z)
            if elims:
                zv = z.bit_length()
                return _step(s, "XY-Wing", elims, [p, q, r], [],
                             f"XY-Wing: pivot {s.name(p)} {_set(mp)} with pincers "
                             f"{s.name(q)} {_set(mq)} and {s.name(r)} {_set(mr)}; one pincer "
                             f"is {zv}, so {zv} leaves the cells that see both")
    return None


def xyz_wing(s: Candidates) -> LogicStep | None:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: a cell seeing all three is not z."""
    bivalue = [c for c, m in enumerate(s.cands) if m.bit_count() == 2]
    for p, mp in enumerate(s.cands):
        if mp.bit_count() != 3:
            continue
        wings = [q for q in bivalue if q in s.peers[p] and s.cands[q] & mp == s.cands[q]]
        for q, r in itertools.combinations(wings, 2):
            mq, mr = s.cands[q], s.cands[r]
            z = mq & mr
            if z.bit_count() != 1:
                continue
            elims = _elims(s, _common_peers(s, [p, q, r]), z)
            if elims:
                zv = z.bit_length()
                return _step(s, "XYZ-Wing", elims, [p, q, r], [],
                             f"XYZ-Wing: pivot {s.name(p)} {_set(mp)} with pincers "
                             f"{s.name(q)} {_set(mq)} and {s.name(r)} {_set(mr)}; one of the "
                             f"three is {zv}, so {zv} leaves the cells that see all three")
    return None


def w_wing(s: Candidates) -> LogicStep | None:
    """Two far-apart {x,y} cells joined by a strong link on x: a cell seeing both is not y."""
    bivalue = [c for c, m in enumerate(s.cands) if m.bit_count() == 2]
    links = _strong_links(s)
    for a, b in itertools.combinations(bivalue, 2):
        m = s.cands[a]
        if s.cands[b] != m or s.sees(a, b):
            continue
        targets = _common_peers(s, [a, b])
        for x in _vals(m):
            y = (m & ~(1 << (x - 1))).bit_length()
            if not _elims(s, targets, 1 << (y - 1)):
                continue
            for u, c, d in links.get(x, []):
                if {c, d} & {a, b}:
                    continue
                for e, f in ((c, d), (d, c)):
                    if s.sees(a, e) and s.sees(b, f):
                        elims = _elims(s, targets, 1 << (y - 1))
                        return _step(s, "W-Wing", elims, [a, b, e, f], [u],
                                     f"W-Wing: {s.name(a)} and {s.name(b)} are both "
                                     f"{_set(m)}, joined by the strong link on {x} in "
                                     f"{s.unit_names[u]} ({s.name(e)}-{s.name(f)}); one of "
                                     f"them is {y}")
    return None


def _strong_links(s: Candidates) -> dict[int, list[tuple[int, int, int]]]:
    """For each value, the units where it has exactly two places: (unit, cell, cell)."""
    out: dict[int, list[tuple[int, int, int]]] = {}
    for u in range(len(s.units)):
        for v in range(1, s.n + 1):
            where = s.with_value(u, v)
            if len(where) == 2:
                out.setdefault(v, []).append((u, where[0], where[1]))
    return out


# --- colouring ----------------------------------------------------------------------------

def simple_colouring(s: Candidates) -> LogicStep | None:
    """Single chains: colour a value's conjugate pairs in two colours; one colour is true."""
    links = _strong_links(s)
    for v, pairs in sorted(links.items()):
        graph: dict[int, set[int]] = {}
        for _, c, d in pairs:
            graph.setdefault(c, set()).add(d)
            graph.setdefault(d, set()).add(c)
        done: set[int] = set()
        for start in sorted(graph):
            if start in done:
                continue
            colour = _two_colour(graph, start)
            done |= colour.keys()
            if len(colour) < 3:
                continue
            step = _colour_step(s, v, colour)
            if step is not None:
                return step
    return None


def _two_colour(graph: dict[int, set[int]], start: int) -> dict[int, int]:
    colour = {start: 0}
    stack = [start]
    while stack:
        c = stack.pop()
        for d in graph[c]:
            if d not in colour:
                colour[d] = 1 - colour[c]
                stack.append(d)
    return colour


def _colour_step(s: Candidates, v: int, colour: dict[int, int]) -> LogicStep | None:
    groups = [sorted(c for c, k in colour.items() if k == side) for side in (0, 1)]
    chain = f"colour A {_names(s, groups[0])}; colour B {_names(s, groups[1])}"
    cells = sorted(colour)
    bit = 1 << (v - 1)
    for side in (0, 1):  # colour wrap: two cells of one colour see each other
        for a, b in itertools.combinations(groups[side], 2):
            if s.sees(a, b):
                elims = [(c, v) for c in groups[side]]
                return _step(s, "simple colouring", elims, cells, [],
                             f"Simple colouring on {v} ({chain}): {s.name(a)} and "
                             f"{s.name(b)} are both colour {'AB'[side]} and see each other, "
                             f"so colour {'AB'[side]} is false")
    trapped = [c for c, m in enumerate(s.cands) if m & bit and c not in colour
               and s.peers[c] & set(groups[0]) and s.peers[c] & set(groups[1])]
    if trapped:
        return _step(s, "simple colouring", [(c, v) for c in trapped], cells, [],
                     f"Simple colouring on {v} ({chain}): one colour is {v}, and "
                     f"{_names(s, trapped)} {'sees' if len(trapped) == 1 else 'see'} both")
    return None


# --- uniqueness and chains ----------------------------------------------------------------

def unique_rectangle(s: Candidates) -> LogicStep | None:
    """Type 1: three corners of a rectangle over two boxes are {x,y}; the fourth is not x, y.

    If the fourth corner took x or y, x and y could swap around the rectangle and the
    puzzle would have two solutions; :func:`gameopt.sudoku.explain` only takes unique ones.
    """
    n = s.n
    bivalue = [c for c, m in enumerate(s.cands) if m.bit_count() == 2]
    for p, q in itertools.combinations(bivalue, 2):
        m = s.cands[p]
        if s.cands[q] != m or p // n != q // n:
            continue
        for r2 in range(n):
            p2, q2 = r2 * n + p % n, r2 * n + q % n
            corners = [p, q, p2, q2]
            if r2 == p // n or len({s.cell_units[c][2] for c in corners}) != 2:
                continue
            for a, b in ((p2, q2), (q2, p2)):
                if s.cands[a] == m and s.cands[b] & m == m and s.cands[b] != m:
                    return _step(s, "unique rectangle", _elims(s, [b], m), sorted(corners), [],
                                 f"Unique rectangle on {_set(m)} in {_names(s, sorted(corners))}: "
                                 f"if {s.name(b)} were {' or '.join(map(str, _vals(m)))}, the "
                                 f"two values could swap and the puzzle would have two solutions")
    return None


def _path(parent: dict[_N, _N | None], end: _N) -> list[_N]:
    """The chain from the search's root to ``end``, following ``parent``."""
    out = [end]
    while (prev := parent[out[-1]]) is not None:
        out.append(prev)
    return out[::-1]


def x_chain(s: Candidates) -> LogicStep | None:
    """Strong and weak links on one value, strong at both ends: one end holds the value.

    Search: from each cell a of a strong link, assume a is not v; a strong link makes the
    other cell v (on), a weak link (any peer) makes a cell not v (off). Reaching an "on"
    cell d at least three links away proves a or d is v; v leaves the cells seeing both.
    Skyscrapers and 2-string kites are the X-Chains of three links.
    """
    links = _strong_links(s)
    for v, pairs in sorted(links.items()):
        strong: dict[int, set[int]] = {}
        for _, c, d in pairs:
            strong.setdefault(c, set()).add(d)
            strong.setdefault(d, set()).add(c)
        for a in sorted(strong):
            parent: dict[tuple[int, int], tuple[int, int] | None] = {(a, 0): None}
            frontier = [(a, 0)]
            while frontier:
                nxt = []
                for cell, on in frontier:
                    for d in (strong.get(cell, set()) if not on else
                              [x for x in s.peers[cell] if x in strong]):
                        if (d, 1 - on) in parent:
                            continue
                        parent[(d, 1 - on)] = (cell, on)
                        nxt.append((d, 1 - on))
                        if on == 0 and d != a and len(_path(parent, (d, 1))) >= 4:
                            elims = _elims(s, _common_peers(s, [a, d]), 1 << (v - 1))
                            if elims:
                                chain = _path(parent, (d, 1))
                                text = "".join(
                                    s.name(c) + ("" if i == len(chain) - 1 else
                                                 " = " if i % 2 == 0 else " - ")
                                    for i, (c, _) in enumerate(chain))
                                return _step(s, "X-Chain", elims, [c for c, _ in chain], [],
                                             f"X-Chain on {v} ({text}; = strong, - weak): "
                                             f"{s.name(a)} or {s.name(d)} is {v}")
                frontier = nxt
    return None


def xy_chain(s: Candidates) -> LogicStep | None:
    """A chain of two-valued cells, each seeing the next: one end holds x, so x leaves the
    cells that see both ends.

    Search: assume the start cell a is not x, so it is its other value y; each next cell
    sees the last and shares its value, so it is not that value and is its own other one.
    Reaching a cell that is then x proves a or it is x.
    """
    bivalue = [c for c, m in enumerate(s.cands) if m.bit_count() == 2]
    biset = set(bivalue)
    for a in bivalue:
        for x in _vals(s.cands[a]):
            y = (s.cands[a] & ~(1 << (x - 1))).bit_length()
            parent: dict[tuple[int, int], tuple[int, int] | None] = {(a, y): None}
            frontier = [(a, y)]
            while frontier:
                nxt = []
                for cell, w in frontier:
                    for b in sorted(s.peers[cell] & biset):
                        if not s.cands[b] >> (w - 1) & 1:
                            continue
                        other = (s.cands[b] & ~(1 << (w - 1))).bit_length()
                        if (b, other) in parent:
                            continue
                        parent[(b, other)] = (cell, w)
                        nxt.append((b, other))
                        if other == x and b != a:
                            elims = _elims(s, _common_peers(s, [a, b]), 1 << (x - 1))
                            if elims:
                                chain = [c for c, _ in _path(parent, (b, other))]
                                text = " - ".join(f"{s.name(c)} {_set(s.cands[c])}"
                                                  for c in chain)
                                return _step(s, "XY-Chain", elims, chain, [],
                                             f"XY-Chain {text}: one end is {x}")
                frontier = nxt
    return None


def _aic_graph(s: Candidates) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """Strong links between (cell, value) nodes: two-valued cells and bilocal values."""
    strong: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for c, m in enumerate(s.cands):
        if m.bit_count() == 2:
            v, w = _vals(m)
            strong.setdefault((c, v), set()).add((c, w))
            strong.setdefault((c, w), set()).add((c, v))
    for v, pairs in _strong_links(s).items():
        for _, c, d in pairs:
            strong.setdefault((c, v), set()).add((d, v))
            strong.setdefault((d, v), set()).add((c, v))
    return strong


def _aic_elims(s: Candidates, a: tuple[int, int], d: tuple[int, int]
               ) -> list[tuple[int, int]]:
    """What "a is true or d is true" removes (a != d)."""
    (ca, x), (cd, y) = a, d
    if x == y:
        return _elims(s, _common_peers(s, [ca, cd]), 1 << (x - 1))
    if ca == cd:
        return _elims(s, [ca], ~((1 << (x - 1)) | (1 << (y - 1))))
    if s.sees(ca, cd):
        return [e for e in ((ca, y), (cd, x)) if s.cands[e[0]] >> (e[1] - 1) & 1]
    return []


def aic(s: Candidates) -> LogicStep | None:
    """Alternating inference chain over (cell, value) nodes, strong link at both ends.

    Assume the start node false; a strong link makes the next one true, a weak link (same
    cell, or same value in a peer) the one after false. Reaching a true node proves the
    start or the end holds: a value both ends share leaves the cells seeing both; two
    values of one cell leave it only those two; two peers lose each other's value.
    Chains are searched breadth first, at most :data:`AIC_NODES` nodes long.
    """
    strong = _aic_graph(s)
    for start in sorted(strong):
        parent: dict[tuple[tuple[int, int], int], tuple[tuple[int, int], int] | None] = {
            (start, 0): None}
        frontier = [(start, 0)]
        for depth in range(AIC_NODES - 1):
            nxt = []
            for node, on in frontier:
                for other in (strong[node] if not on else _weak(s, node, strong)):
                    if (other, 1 - on) in parent:
                        continue
                    parent[(other, 1 - on)] = (node, on)
                    nxt.append((other, 1 - on))
                    if on or depth < 2 or other == start:
                        continue
                    elims = _aic_elims(s, start, other)
                    if elims:
                        return _aic_step(s, elims, _path(parent, (other, 1)))
            frontier = nxt
    return None


#: The longest alternating inference chain searched, in nodes.
AIC_NODES = 12


def _weak(s: Candidates, node: tuple[int, int],
          strong: dict[tuple[int, int], set[tuple[int, int]]]) -> list[tuple[int, int]]:
    c, v = node
    out = [(c, w) for w in _vals(s.cands[c]) if w != v]
    out += [(d, v) for d in s.peers[c] if s.cands[d] >> (v - 1) & 1]
    return [x for x in out if x in strong]


def _aic_step(s: Candidates, elims: list[tuple[int, int]],
              chain: list[tuple[tuple[int, int], int]]) -> LogicStep:
    words = []
    for i, ((c, v), _) in enumerate(chain):
        words.append(f"{s.name(c)}({v})")
        if i < len(chain) - 1:
            words.append("=" if i % 2 == 0 else "-")
    (ca, x), (cd, y) = chain[0][0], chain[-1][0]
    return _step(s, "AIC", elims, sorted({c for (c, _), _ in chain}), [],
                 f"Alternating inference chain {' '.join(words)} (= strong, - weak): "
                 f"{s.name(ca)} is {x} or {s.name(cd)} is {y}")


# --- the table ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Technique:
    """A named technique, its tier, the smallest box size it applies to, and its finder."""

    name: str
    tier: str
    find: Callable[[Candidates], LogicStep | None]
    size: int = 0  # subset or fish size: used only when size <= n // 2


#: Every technique, in the order they are tried (easiest first).
TECHNIQUES: tuple[Technique, ...] = (
    Technique("hidden single", "easy", hidden_single),
    Technique("naked single", "easy", naked_single),
    Technique("pointing", "medium", pointing),
    Technique("box-line reduction", "medium", box_line),
    Technique("naked pair", "medium", _naked(2), 2),
    Technique("hidden pair", "medium", _hidden(2), 2),
    Technique("naked triple", "medium", _naked(3), 3),
    Technique("hidden triple", "medium", _hidden(3), 3),
    Technique("naked quad", "hard", _naked(4), 4),
    Technique("hidden quad", "hard", _hidden(4), 4),
    Technique("X-Wing", "hard", _fish(2), 2),
    Technique("simple colouring", "hard", simple_colouring),
    Technique("XY-Wing", "hard", xy_wing),
    Technique("Swordfish", "hard", _fish(3), 3),
    Technique("XYZ-Wing", "hard", xyz_wing),
    Technique("unique rectangle", "hard", unique_rectangle),
    Technique("W-Wing", "expert", w_wing),
    Technique("X-Chain", "expert", x_chain),
    Technique("Jellyfish", "expert", _fish(4), 4),
    Technique("XY-Chain", "extreme", xy_chain),
    Technique("AIC", "extreme", aic),
)

_TIER = {t.name: t.tier for t in TECHNIQUES}


def tier_of(technique: str) -> str:
    """The tier of a technique named in :data:`TECHNIQUES`."""
    return _TIER[technique]


def applicable(box: int) -> Iterator[Technique]:
    """The techniques that make sense for box size ``box``, in order."""
    n = box * box
    return (t for t in TECHNIQUES if t.size <= n // 2)
