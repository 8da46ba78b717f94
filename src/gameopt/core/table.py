"""Plain-text tables for reports and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["format_table"]


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown-compatible table, columns padded; floats shown with 4 significant digits."""
    def cell(v: object) -> str:
        if isinstance(v, float):
            return f"{v:.4g}" if abs(v) < 1e5 else f"{v:,.0f}"
        return str(v)

    body = [[cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h)
              for i, h in enumerate(headers)]

    def line(vals: Sequence[str]) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(vals, widths, strict=True)) + " |"

    out = [line(list(headers)), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in body]
    return "\n".join(out)
