"""Tour boards: squares checkered, blocked squares dark, the tour as a path of numbered leaps."""

from __future__ import annotations

from collections.abc import Mapping

from ...puzzles.tour import TourPuzzle
from .svg import ACCENT, INK, PAPER, Svg, points

MARGIN = 12
LIGHT, DARK, BLOCKED = "#f3ead7", "#d8c3a0", "#3b3f47"
SIZE = 44
"""A square's side (pixels)."""

KIND = "tour-board"
STYLE = (KIND, "".join(f".{KIND} {rule}" for rule in (
    f".square{{fill:{LIGHT}}}", f".square.dark{{fill:{DARK}}}", f".blocked{{fill:{BLOCKED}}}",
    f".visit circle{{fill:{PAPER};stroke:{ACCENT};stroke-width:1.5px}}",
    f".visit text{{fill:{INK};font-size:{SIZE * 0.3:g}px;font-weight:600;"
    "text-anchor:middle;dominant-baseline:central}",
    f".visit.first circle{{fill:{ACCENT}}}", f".visit.first text{{fill:{PAPER}}}")))
"""How squares and visits look, said once a picture (:attr:`.svg.Svg.style`), not on each of
them: a solved 8x8 board is 11 KB instead of 21 KB."""


def tour_svg(puzzle: TourPuzzle, values: Mapping[str, int] | None, title: str) -> str:
    """The board; with ``values`` (a solved tour) the path and each square's visiting number."""
    rows, cols = puzzle.shape
    size = SIZE
    svg = Svg(cols * size + 2 * MARGIN, rows * size + 2 * MARGIN, title,
              _description(puzzle, values), style=STYLE)
    open_squares = set(puzzle.squares)
    for r in range(rows):
        for c in range(cols):
            x, y = MARGIN + c * size, MARGIN + r * size
            if (r, c) in open_squares:
                svg.rect(x, y, size, size, class_="square" if (r + c) % 2 == 0 else "square dark")
            else:
                svg.rect(x, y, size, size, class_="blocked")
    svg.rect(MARGIN, MARGIN, cols * size, rows * size, fill="none", stroke=INK,
             stroke_width="2")
    if values is not None:
        _path(svg, puzzle, puzzle.order(values), size)
    return svg.text_of()


def _description(puzzle: TourPuzzle, values: Mapping[str, int] | None) -> str:
    a, b = puzzle.leaper
    kind = "closed tour" if puzzle.closed else "open tour"
    text = f"{len(puzzle.squares)} squares to visit by ({a},{b}) leaps, a {kind}"
    if values is None:
        return text + "; dark squares are blocked"
    return text + "; each square shows when it is visited"


def _centre(square: tuple[int, int], size: int) -> tuple[float, float]:
    return MARGIN + (square[1] + 0.5) * size, MARGIN + (square[0] + 0.5) * size


def _path(svg: Svg, puzzle: TourPuzzle, order: list[int], size: int) -> None:
    """The leaps as one line, then a numbered disc on each square (the first one accented)."""
    coords = [_centre(puzzle.squares[node], size) for node in order]
    tag = "polygon" if puzzle.closed else "polyline"
    svg.add(tag, class_="path", points=points(coords), fill="none", stroke=ACCENT,
            stroke_width="2.5", stroke_opacity="0.75", stroke_linejoin="round")
    radius = size * 0.3
    for k, (x, y) in enumerate(coords, start=1):  # how they look: STYLE
        svg.open(class_="visit first" if k == 1 else "visit")
        svg.circle(x, y, radius)
        svg.add("text", str(k), x=float(x), y=float(y))
        svg.close()
