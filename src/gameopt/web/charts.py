"""Small SVG charts drawn on the server: a line over epochs and a bar chart.

Plain SVG text with presentation attributes only (the pages' Content-Security-Policy
allows no inline style), every label escaped. The live Sudoku plot is drawn by
``static/pages.js`` in the same shape, so the final picture replaces it seamlessly.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

__all__ = ["bar_chart", "line_chart"]


def line_chart(points: Sequence[tuple[float, float]], *, restarts: Sequence[float] = (),
               width: int = 560, height: int = 220, x_label: str = "epochs",
               y_label: str = "best error", title: str = "") -> str:
    """A step line through ``points`` (x, y) with a dashed vertical line at each x of
    ``restarts``; axes from 0 to the largest x and y."""
    left, right, top, bottom = 44, 12, 12, 34
    xmax = max([1.0, *(x for x, _ in points), *restarts])
    ymax = max([1.0, *(y for _, y in points)])
    w, h = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + w * x / xmax

    def sy(y: float) -> float:
        return top + h * (1 - y / ymax)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fff" '
               f'stroke="#aab5bb"/>')
    for k in range(5):
        y = ymax * k / 4
        out.append(f'<text x="{left - 4}" y="{sy(y) + 4:.1f}" font-size="11" '
                   f'text-anchor="end" fill="#5f6b73">{y:g}</text>')
    out.append(f'<text x="{left + w}" y="{height - 18}" font-size="11" text-anchor="end" '
               f'fill="#5f6b73">{xmax:g}</text>')
    out.append(f'<text x="{left}" y="{height - 18}" font-size="11" fill="#5f6b73">0</text>')
    out.append(f'<text x="{left + w / 2:.0f}" y="{height - 4}" font-size="12" '
               f'text-anchor="middle">{escape(x_label)}</text>')
    out.append(f'<text x="12" y="{top + h / 2:.0f}" font-size="12" text-anchor="middle" '
               f'transform="rotate(-90 12 {top + h / 2:.0f})">{escape(y_label)}</text>')
    for x in restarts:
        out.append(f'<line class="restart" x1="{sx(x):.1f}" x2="{sx(x):.1f}" y1="{top}" '
                   f'y2="{top + h}" stroke="#8a5a00" stroke-dasharray="4 3"/>')
    if points:
        path = [f"M{sx(0):.1f} {sy(points[0][1]):.1f}"]
        for x, y in points:
            path.append(f"H{sx(x):.1f}V{sy(y):.1f}")
        out.append(f'<path class="line" d="{"".join(path)}" fill="none" stroke="#1f6f50" '
                   f'stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)


def bar_chart(bars: Sequence[tuple[str, float, bool]], *, width: int = 560,
              bar: int = 18, title: str = "") -> str:
    """Horizontal bars ``(label, value, highlighted)`` from a zero line; negative values
    go left of it. Highlighted bars (the leader, a must-include piece) are drawn darker."""
    label_w, right, top = 170, 56, 6
    lo = min([0.0, *(v for _, v, _ in bars)])
    hi = max([0.0, *(v for _, v, _ in bars)])
    span = (hi - lo) or 1.0
    w = width - label_w - right
    height = top * 2 + bar * len(bars)

    def sx(v: float) -> float:
        return label_w + w * (v - lo) / span

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for k, (label, value, strong) in enumerate(bars):
        y = top + k * bar
        x0, x1 = sorted((sx(0), sx(value)))
        fill = "#16392c" if strong else "#4f9c7c"
        out.append(f'<text x="{label_w - 6}" y="{y + bar * 0.7:.1f}" font-size="12" '
                   f'text-anchor="end">{escape(label)}</text>')
        out.append(f'<rect x="{x0:.1f}" y="{y + 2}" width="{max(x1 - x0, 0.5):.1f}" '
                   f'height="{bar - 4}" fill="{fill}"><title>{escape(label)}: '
                   f'{value:.3f}</title></rect>')
        out.append(f'<text x="{x1 + 4:.1f}" y="{y + bar * 0.7:.1f}" font-size="11" '
                   f'fill="#5f6b73">{value:.2f}</text>')
    out.append(f'<line x1="{sx(0):.1f}" x2="{sx(0):.1f}" y1="{top}" y2="{height - top}" '
               f'stroke="#1d2327"/>')
    out.append("</svg>")
    return "\n".join(out)
