"""Brute force over whole families of boards, independent of every MSP method.

* every colouring of every point (3^(n²) boards) for n ≤ 4: the most strings on a legal
  board (each string with a liberty) — Theorem 1 checked, not assumed;
* every checkerboard board (2^(n²) sets of empty points) for n ≤ 5.

The kernels are written for these tests only: plain loops, a flood fill per board.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from gameopt.go.msp_solve import solve_msp


@njit(cache=True)
def _max_strings_all_boards(n):  # type: ignore[no-untyped-def]
    cells = n * n
    board = np.zeros(cells, dtype=np.int64)
    label = np.zeros(cells, dtype=np.int64)
    stack = np.zeros(cells, dtype=np.int64)
    best = 0
    total = 3 ** cells
    for code in range(total):
        x = code
        for c in range(cells):
            board[c] = x % 3
            x //= 3
        label[:] = -1
        strings = 0
        legal = True
        for s in range(cells):
            if board[s] == 0 or label[s] >= 0:
                continue
            # flood fill the string of s; note whether it touches an empty point
            top = 0
            stack[top] = s
            top += 1
            label[s] = s
            liberty = False
            while top > 0:
                top -= 1
                p = stack[top]
                r, c = p // n, p % n
                for k in range(4):
                    rr, cc = r, c
                    if k == 0:
                        rr -= 1
                    elif k == 1:
                        rr += 1
                    elif k == 2:
                        cc -= 1
                    else:
                        cc += 1
                    if rr < 0 or rr >= n or cc < 0 or cc >= n:
                        continue
                    q = rr * n + cc
                    if board[q] == 0:
                        liberty = True
                    elif board[q] == board[s] and label[q] < 0:
                        label[q] = s
                        stack[top] = q
                        top += 1
            if not liberty:
                legal = False
                break
            strings += 1
        if legal and strings > best:
            best = strings
    return best


@njit(cache=True)
def _max_strings_checkerboard(n):  # type: ignore[no-untyped-def]
    cells = n * n
    best = 0
    for empty in range(1 << cells):
        ok = True
        for p in range(cells):
            if (empty >> p) & 1:
                continue
            r, c = p // n, p % n
            near = False
            if r > 0 and (empty >> (p - n)) & 1:
                near = True
            elif r < n - 1 and (empty >> (p + n)) & 1:
                near = True
            elif c > 0 and (empty >> (p - 1)) & 1:
                near = True
            elif c < n - 1 and (empty >> (p + 1)) & 1:
                near = True
            if not near:
                ok = False
                break
        if ok:
            stones = cells - bin_count(empty)
            if stones > best:
                best = stones
    return best


@njit(cache=True)
def bin_count(x):  # type: ignore[no-untyped-def]
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@pytest.mark.parametrize("n", [1, 2, 3, 4])  # 4: 3^16 = 43 million boards, ~10 s
def test_all_boards(n: int) -> None:
    assert _max_strings_all_boards(n) == solve_msp(n, method="dp").msp


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_checkerboard_boards(n: int) -> None:
    best = _max_strings_checkerboard(n)
    for method in ("dp", "ip-basic", "ip-improved"):
        assert solve_msp(n, method=method).msp == best
