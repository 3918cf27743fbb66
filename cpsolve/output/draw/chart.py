"""A state space drawn: bars of states per distance, and the farthest states beside them."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...answers.words import plural
from .svg import ACCENT, BLUE, INK, LINE, MUTED, Svg, num, size

LEFT, TOP, BOTTOM, RIGHT = 70, 40, 46, 16
HEIGHT = 220


def ticks(top: int) -> list[int]:
    """Round tick values from 0 to at least ``top`` (1, 2 or 5 times a power of ten apart)."""
    if top <= 0:
        return [0, 1]
    raw = top / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(k * power for k in (1, 2, 5, 10) if k * power >= raw)
    step = max(1, int(step))
    return list(range(0, top + step, step)) if top % step else list(range(0, top + 1, step))


def layers_svg(layers: Sequence[int], title: str, caption: str,
               boards: Sequence[str] = (), board_caption: str = "",
               unit: str = "moves") -> str:
    """Bars of ``layers[d]`` states at distance ``d`` (counted in ``unit``, named on the
    axis); the last bar (the farthest) accented.

    ``boards`` (SVG pictures of the farthest states) are placed in a row
    under the chart, each in its own nested ``<svg>``.
    """
    n = max(len(layers), 1)
    bar = max(6.0, min(28.0, 720 / n))
    sizes = [size(b) for b in boards]
    row_w = sum(w for w, _ in sizes) + 12 * max(len(sizes) - 1, 0)
    row_h = max((h for _, h in sizes), default=0)
    width = max(LEFT + n * bar + RIGHT, row_w + 2 * RIGHT, 360)
    svg = Svg(width, TOP + HEIGHT + BOTTOM + (row_h + 36 if boards else 0), title, caption)
    # the caption wraps within the picture; the chart moves down by its extra lines
    below = svg.caption(LEFT, 22, caption, 14, width - LEFT - RIGHT, fill=INK,
                        class_="caption")
    svg.height += below
    svg.open(transform=f"translate(0 {num(below)})")
    top = max(layers, default=0)
    marks = ticks(top)
    scale = HEIGHT / max(marks[-1], 1)
    _axes(svg, marks, scale, n, bar)
    for d, count in enumerate(layers):
        h = count * scale
        x, y = LEFT + d * bar, TOP + HEIGHT - h
        svg.open(class_="bar")
        svg.add("title", f"distance {d}: {plural(count, 'state')}")
        svg.rect(x + 1, y, bar - 2, max(h, 2.0 if count else 0.0),
                 fill=ACCENT if d == n - 1 else BLUE)
        svg.close()
        if n <= 40 or d % 5 == 0:
            svg.text(x + bar / 2, TOP + HEIGHT + 12, str(d), 10, fill=MUTED)
    svg.text(LEFT + n * bar / 2, TOP + HEIGHT + 32, f"distance ({unit})", 12, fill=MUTED)
    _boards(svg, boards, sizes, TOP + HEIGHT + BOTTOM, board_caption)
    svg.close()
    return svg.text_of()


def _axes(svg: Svg, marks: list[int], scale: float, n: int, bar: float) -> None:
    for value in marks:
        y = TOP + HEIGHT - value * scale
        svg.line(LEFT, y, LEFT + n * bar, y, stroke=LINE, stroke_width="0.5")
        svg.add("text", f"{value:,}", x=float(LEFT - 6), y=float(y + 4), font_size="10",
                fill=MUTED, text_anchor="end")
    svg.line(LEFT, TOP + HEIGHT, LEFT + n * bar, TOP + HEIGHT, stroke=INK)


def _boards(svg: Svg, boards: Sequence[str], sizes: list, top: float, caption: str) -> None:
    if not boards:
        return
    below = svg.caption(RIGHT, top + 20, caption, 13, svg.width - 2 * RIGHT, fill=INK,
                        class_="caption")
    svg.height += below
    x = float(RIGHT)
    for board, (w, _) in zip(boards, sizes):
        svg.parts.append(board.strip().replace("<svg ", f'<svg x="{x:g}" y="{top + 30 + below:g}" '
                                                         'class="farthest" ', 1))
        x += w + 12
