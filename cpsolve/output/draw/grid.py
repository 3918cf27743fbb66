"""Grid boards: givens bold on grey, filled cells blue, boxes in thick lines, diagonals tinted;
a file's ``[picture]`` adds thick region borders, notes in cells' corners and signs between
cells (:mod:`cpsolve.puzzles.grid_picture`)."""

from __future__ import annotations

from collections.abc import Mapping

from ...puzzles.grid_board import GridPuzzle, cell, groups
from .svg import BLUE, INK, LINE, PAPER, Svg, points

MARGIN = 12
TINTS = ("#fff1c2", "#dcefd9", "#e3e0f7", "#fde0dc", "#d8eef5")
"""Backgrounds of cells in diagonals and extra groups, one per group (cycled)."""


def grid_svg(puzzle: GridPuzzle, values: Mapping[str, int] | None, title: str) -> str:
    """The grid: ``values`` fills it (``None``: the givens only)."""
    n, shown = puzzle.size, puzzle.picture
    size = 36 + 8 * max(len(s) for s in puzzle.symbols) + (12 if shown.notes else 0)
    side = n * size
    svg = Svg(side + 2 * MARGIN, side + 2 * MARGIN, title,
              f"{n}x{n} grid; bold cells on grey are givens, blue cells were filled in"
              + "".join(words for part, words in (
                  (shown.regions, "; thick lines bound regions"),
                  (shown.notes, "; small text in a corner is a note on the cell"),
                  (shown.signs, "; a sign between two cells points to the smaller")) if part))
    svg.rect(MARGIN, MARGIN, side, side, fill=PAPER)
    _tints(svg, puzzle, size)
    for r in range(n):
        for c in range(n):
            _cell(svg, puzzle, values, r, c, size)
    _lines(svg, puzzle, size)
    _picture(svg, puzzle, size)
    return svg.text_of()


def _tints(svg: Svg, puzzle: GridPuzzle, size: int) -> None:
    """Cells of diagonals and of extra groups get a light background, one colour per group."""
    named = {tuple(cells) for _, cells in groups(puzzle.size, list(puzzle.kinds), puzzle.box)}
    diagonals = groups(puzzle.size, ["diagonals"], None) if "diagonals" in puzzle.kinds else []
    tinted = [tuple(cells) for _, cells in diagonals]
    tinted += [g for g in puzzle.groups if tuple(g) not in named]
    for i, group in enumerate(tinted):
        svg.open(class_="group", fill=TINTS[i % len(TINTS)], fill_opacity="0.8")
        for r, c in group:
            svg.rect(MARGIN + c * size, MARGIN + r * size, size, size)
        svg.close()


def _cell(svg: Svg, puzzle: GridPuzzle, values: Mapping[str, int] | None, r: int, c: int,
          size: int) -> None:
    x, y = MARGIN + c * size, MARGIN + r * size
    given = puzzle.givens.get((r, c))
    value = given if given else (values or {}).get(cell(r, c))
    kind = "given" if given else "filled" if value else "empty"
    svg.open(class_=f"cell {kind}")
    if given:
        svg.rect(x, y, size, size, fill="#e6e8ec", fill_opacity="0.85")
    if value:
        svg.text(x + size / 2, y + size / 2, puzzle.symbols[value - 1], size * 0.55,
                 room=size * 0.86, fill=INK if given else BLUE,
                 font_weight="700" if given else "400")
    svg.close()


def _lines(svg: Svg, puzzle: GridPuzzle, size: int) -> None:
    """Thin cell lines, thick box lines and frame."""
    n = puzzle.size
    box = puzzle.box
    svg.open(class_="lines", stroke_linecap="square")
    for i in range(n + 1):
        thick = i in (0, n) or bool(box and i % box[0] == 0)
        y = MARGIN + i * size
        svg.line(MARGIN, y, MARGIN + n * size, y, stroke=INK if thick else LINE,
                 stroke_width="2.5" if thick else "1")
        thick = i in (0, n) or bool(box and i % box[1] == 0)
        x = MARGIN + i * size
        svg.line(x, MARGIN, x, MARGIN + n * size, stroke=INK if thick else LINE,
                 stroke_width="2.5" if thick else "1")
    svg.close()


def _picture(svg: Svg, puzzle: GridPuzzle, size: int) -> None:
    """The ``[picture]``: thick borders between regions, notes, signs (each in a group)."""
    shown = puzzle.picture
    if shown.regions is not None:
        svg.open(class_="regions", stroke=INK, stroke_width="3", stroke_linecap="square")
        for (r, c), (r2, c2) in shown.borders():
            x, y = MARGIN + c2 * size, MARGIN + r2 * size  # the second cell's left or top side
            svg.line(x, y, x + (size if r2 > r else 0), y + (size if c2 > c else 0),
                     class_="border")
        svg.close()
    if shown.notes:
        svg.open(class_="notes")
        for r, c, text in shown.notes:
            svg.add("text", text, class_="note", x=float(MARGIN + c * size + 3),
                    y=float(MARGIN + r * size + 3), font_size=float(size * 0.22),
                    dominant_baseline="hanging", fill=INK)
        svg.close()
    if shown.signs:
        svg.open(class_="signs", fill="none", stroke=INK, stroke_width="2",
                 stroke_linejoin="round")
        for small, large in shown.signs:
            dr, dc = small[0] - large[0], small[1] - large[1]  # towards the smaller cell
            x = MARGIN + (max(small[1], large[1]) + (0.5 if dr else 0)) * size
            y = MARGIN + (max(small[0], large[0]) + (0.5 if dc else 0)) * size
            a, b = size * 0.08, size * 0.14
            svg.add("polyline", class_="sign", points=points([
                (x - dc * a - dr * b, y - dr * a - dc * b), (x + dc * a, y + dr * a),
                (x - dc * a + dr * b, y - dr * a + dc * b)]))
        svg.close()
