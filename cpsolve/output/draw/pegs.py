"""Peg boards on their lattice: holes and pegs placed as the jump vectors imply.

A hole ``(row, col)`` of the picture is drawn at ``(col, row * k)``: ``k = 1``
for square lattices (and for Hoppers' diagonal lattice, where holes sit on
every other cell of a square board), ``k = √3`` when the jumps are
``(0, ±2)`` and ``(±1, ±1)`` only — a triangular board written with
alternate columns, whose neighbours are then equally far apart.
"""

from __future__ import annotations

import math

from ...answers.kinds import Step
from ...answers.words import plural
from ...puzzles.pegs import PegsPuzzle, label
from .svg import ACCENT, INK, MUTED, Svg

MARGIN = 14
WOOD, WOOD_EDGE, PEG, PEG_EDGE, HOLE = "#ecd9b4", "#b89b6a", "#2f6fb5", "#1d4a7d", "#7a6446"
TRIANGULAR = {(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)}


def row_scale(puzzle: PegsPuzzle) -> float:
    """How far apart rows are drawn, in column widths (see the module's docstring)."""
    return math.sqrt(3) if set(puzzle.jumps) == TRIANGULAR else 1.0


def pegs_svg(puzzle: PegsPuzzle, state: tuple[int, ...], step: Step | None, title: str) -> str:
    """The board in ``state``; ``step`` (the jump that led here) is drawn as an arrow."""
    where = _positions(puzzle)
    gap = _nearest(list(where.values()))
    pad = gap * 0.6
    where = {cell: (x + pad, y + pad) for cell, (x, y) in where.items()}
    xs = [x for x, _ in where.values()]
    ys = [y for _, y in where.values()]
    svg = Svg(max(xs) + pad + 2 * MARGIN, max(ys) + pad + 2 * MARGIN, title,
              f"{plural(sum(state[:len(puzzle.cells)]), 'peg')} in "
              f"{plural(len(puzzle.cells), 'hole')}")
    svg.rect(MARGIN - pad + min(xs), MARGIN - pad + min(ys), max(xs) - min(xs) + 2 * pad,
             max(ys) - min(ys) + 2 * pad, rx=float(gap * 0.4), fill=WOOD, stroke=WOOD_EDGE,
             stroke_width="2", class_="board")
    jump = None if step is None else puzzle.actions.get(step.action)
    for i, cell in enumerate(puzzle.cells):
        x, y = where[cell]
        svg.circle(MARGIN + x, MARGIN + y, gap * 0.16, fill=HOLE, class_="hole")
        if jump and cell == jump.over:
            svg.circle(MARGIN + x, MARGIN + y, gap * 0.3, fill="none", stroke=MUTED,
                       stroke_width="1.5", stroke_dasharray="3 3", class_="taken")
        if state[i]:
            landed = jump is not None and cell == jump.end
            svg.circle(MARGIN + x, MARGIN + y, gap * 0.32, fill=ACCENT if landed else PEG,
                       stroke=INK if landed else PEG_EDGE, stroke_width="1.5", class_="peg")
    if jump:
        _arrow(svg, where[jump.start], where[jump.end], gap)
    _labels(svg, puzzle, where, gap)
    return svg.text_of()


def _positions(puzzle: PegsPuzzle) -> dict[tuple[int, int], tuple[float, float]]:
    k = row_scale(puzzle)
    unit = 40.0 if k == 1 and _spread(puzzle) == 1 else 30.0
    r0 = min(r for r, _ in puzzle.cells)
    c0 = min(c for _, c in puzzle.cells)
    return {(r, c): ((c - c0) * unit, (r - r0) * unit * k) for r, c in puzzle.cells}


def _spread(puzzle: PegsPuzzle) -> int:
    """1 when neighbouring holes are one column apart somewhere, else 2 (alternate columns)."""
    cells = set(puzzle.cells)
    return 1 if any((r, c + 1) in cells or (r + 1, c) in cells for r, c in cells) else 2


def _nearest(where: list[tuple[float, float]]) -> float:
    """The smallest distance between two holes (their spacing on the picture)."""
    best = math.inf
    for i, (x, y) in enumerate(where):
        for u, v in where[i + 1:]:
            best = min(best, math.hypot(x - u, y - v))
    return 40.0 if best == math.inf else best


def _arrow(svg: Svg, a: tuple[float, float], b: tuple[float, float], gap: float) -> None:
    """A curved arrow from the hole the peg left to the hole it landed in."""
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    mx, my = (x1 + x2) / 2 - dy * 0.25, (y1 + y2) / 2 + dx * 0.25
    svg.add("path", class_="jump", fill="none", stroke=ACCENT, stroke_width="2.5",
            stroke_linecap="round",
            d=f"M {MARGIN + x1:.1f} {MARGIN + y1:.1f} Q {MARGIN + mx:.1f} {MARGIN + my:.1f} "
              f"{MARGIN + x2:.1f} {MARGIN + y2:.1f}")
    svg.circle(MARGIN + x1, MARGIN + y1, gap * 0.1, fill=ACCENT, class_="left")


def _labels(svg: Svg, puzzle: PegsPuzzle, where: dict, gap: float) -> None:
    """Hole names (``r1c1``) as tooltips: present for readers, invisible in the picture."""
    svg.open(class_="names", fill="transparent")
    for cell in puzzle.cells:
        x, y = where[cell]
        svg.open("g")
        svg.add("title", label(cell))
        svg.circle(MARGIN + x, MARGIN + y, gap * 0.35)
        svg.close("g")
    svg.close()
