"""A transition model's declared drawing (``[draw]``, :mod:`cpsolve.puzzles.drawing`): a board,
stacks or levels, with the file's ``show`` line above it."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...puzzles.drawing import Drawing
from ...puzzles.widths import cells
from .svg import BLUE, INK, LINE, MUTED, PAPER, Svg

MARGIN = 14
CELL = 46
FILLED = "#f1c27d"
WATER = "#8ec5f0"
Label = Callable[[str, int], str]


def drawing_svg(drawing: Drawing, env: Mapping[str, int], shown: str, title: str,
                label: Label) -> str:
    """The state ``env`` drawn as ``drawing`` declares, under the ``shown`` text."""
    # a board draws what a show template would write out cell by cell: one of them
    lines = [] if drawing.kind == "board" else [ln for ln in shown.splitlines() if ln.strip()]
    top = MARGIN + len(lines) * 22
    draw = {"board": _board, "stacks": _stacks, "levels": _levels}[drawing.kind]
    width, height, parts = draw(drawing, env, label, top)
    longest = max((cells(line) for line in lines), default=0) * 8.5 + 2 * MARGIN
    svg = Svg(max(width, longest), height + MARGIN, title, f"{drawing.kind} of {drawing.array}")
    for i, line in enumerate(lines):
        svg.add("text", line, x=float(MARGIN), y=float(MARGIN + 14 + i * 22), font_size="15",
                fill=INK, class_="shown", style="white-space:pre")
    for part in parts:
        part(svg)
    return svg.text_of()


Part = Callable[[Svg], None]


def _board(d: Drawing, env: Mapping[str, int], label: Label, top: float):
    cols = len(d.cells) // d.rows
    parts: list[Part] = []
    for k, var in enumerate(d.cells):
        x, y = MARGIN + (k % cols) * CELL, top + (k // cols) * CELL
        value = env[var]

        def cell(svg: Svg, x=x, y=y, var=var, value=value) -> None:
            svg.open(class_="cell")
            svg.add("title", f"{var} = {label(var, value)}")
            svg.rect(x + 2, y + 2, CELL - 4, CELL - 4, rx=5.0, stroke=LINE,
                     fill=FILLED if value else PAPER)
            svg.text(x + CELL / 2, y + CELL / 2, label(var, value), 15, room=CELL - 10)
            svg.close()
        parts.append(cell)
    return 2 * MARGIN + cols * CELL, top + d.rows * CELL, parts


def _stacks(d: Drawing, env: Mapping[str, int], label: Label, top: float):
    items = len(d.cells)
    names = [label(d.cells[0], v) for v in d.stacks]  # from the domain: the same every state
    unit, height = 12.0, 18.0
    slot = 2 * unit * (items + 1) + 16
    base = top + (items + 1) * height + 10
    parts: list[Part] = []
    for s, (value, name) in enumerate(zip(d.stacks, names)):
        cx = MARGIN + s * slot + slot / 2
        on = sorted((i for i, c in enumerate(d.cells) if env[c] == value), reverse=True)

        def stack(svg: Svg, cx=cx, name=name, on=on) -> None:
            svg.open(class_="stack")
            svg.line(cx, top + 4, cx, base, stroke=MUTED, stroke_width=4.0)
            for level, i in enumerate(on):  # the largest at the bottom
                w = 2 * unit * (i + 1)
                y = base - (level + 1) * height
                svg.open(class_="item")
                svg.add("title", f"{d.cells[i]} on {name}")
                svg.rect(cx - w / 2, y, w, height - 2, rx=4.0, fill=FILLED, stroke=INK)
                svg.text(cx, y + height / 2 - 1, str(i), 11)
                svg.close()
            svg.text(cx, base + 14, name, 14, room=slot - 4)
            svg.close()
        parts.append(stack)

    def floor(svg: Svg) -> None:
        svg.line(MARGIN, base, MARGIN + len(names) * slot, base, stroke=INK, stroke_width=2.0)
    parts.append(floor)
    return 2 * MARGIN + len(names) * slot, base + 24, parts


def _levels(d: Drawing, env: Mapping[str, int], label: Label, top: float):
    unit = min(16.0, 180.0 / max(d.capacity))
    tallest = max(d.capacity) * unit
    width = 64.0
    parts: list[Part] = []
    for k, (var, cap) in enumerate(zip(d.cells, d.capacity)):
        x = MARGIN + k * (width + 24)
        bottom = top + 8 + tallest
        value = env[var]

        def vessel(svg: Svg, x=x, bottom=bottom, var=var, cap=cap, value=value) -> None:
            svg.open(class_="vessel")
            svg.add("title", f"{var} = {label(var, value)} of {cap}")
            svg.rect(x, bottom - value * unit, width, value * unit, fill=WATER)
            svg.rect(x, bottom - cap * unit, width, cap * unit, fill="none", stroke=BLUE,
                     stroke_width=2.0)
            svg.text(x + width / 2, bottom + 14, f"{label(var, value)} / {cap}", 13,
                     room=width + 20)
            svg.close()
        parts.append(vessel)
    return 2 * MARGIN + len(d.cells) * (width + 24) - 24, top + 8 + tallest + 26, parts
