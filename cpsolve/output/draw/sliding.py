"""Sliding boards: every piece one shape with its label; a multi-cell block is one shape."""

from __future__ import annotations

from ...answers.kinds import Step
from ...puzzles.sliding import SlidingPuzzle
from .svg import ACCENT, INK, Svg

MARGIN = 12
TRAY, WALL, PIECE, BLOCK, EDGE = "#cfd5df", "#3b3f47", "#f6e7c8", "#f2c48d", "#8a6d3b"
INSET = 3


def sliding_svg(puzzle: SlidingPuzzle, state: tuple[int, ...], step: Step | None,
                title: str) -> str:
    """The board in ``state``; the piece ``step`` moved is outlined in the accent colour."""
    board = puzzle.board
    width = max(len(t) for t in puzzle.tokens)
    size = 44 + 10 * max(0, width - 2)
    svg = Svg(board.cols * size + 2 * MARGIN, board.rows * size + 2 * MARGIN, title,
              "pieces with their labels; a multi-cell piece is one shape; "
              + puzzle.metric)
    svg.rect(MARGIN - 4, MARGIN - 4, board.cols * size + 8, board.rows * size + 8, rx=6.0,
             fill=TRAY, stroke=INK, stroke_width="1.5", class_="tray")
    cells = set(board.cells)
    for r in range(board.rows):
        for c in range(board.cols):
            if (r, c) not in cells:
                svg.rect(MARGIN + c * size, MARGIN + r * size, size, size, fill=WALL,
                         class_="wall")
    moved = _moved_cell(puzzle, step)
    for token, where in puzzle.pieces(state):  # the family tells pieces apart
        _piece(svg, token, where, size, moved in where)
    return svg.text_of()


def _moved_cell(puzzle: SlidingPuzzle, step: Step | None) -> tuple[int, int] | None:
    if step is None or step.action not in puzzle.moves:
        return None
    return puzzle.board.cells[puzzle.moves[step.action].to]


def _piece(svg: Svg, token: str, where: list, size: int, moved: bool) -> None:
    """One piece: a rounded rectangle per cell, bridged to its neighbours, one label."""
    block = len(where) > 1
    stroke = ACCENT if moved else EDGE
    svg.open(class_="piece", fill=BLOCK if block else PIECE, stroke=stroke,
             stroke_width="2.5" if moved else "1.5")
    svg.add("title", f"piece {token}")
    rows = [r for r, _ in where]
    cols = [c for _, c in where]
    full = len(where) == (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)
    if full:
        svg.rect(MARGIN + min(cols) * size + INSET, MARGIN + min(rows) * size + INSET,
                 (max(cols) - min(cols) + 1) * size - 2 * INSET,
                 (max(rows) - min(rows) + 1) * size - 2 * INSET, rx=7.0)
    else:
        for r, c in where:
            svg.rect(MARGIN + c * size + INSET, MARGIN + r * size + INSET, size - 2 * INSET,
                     size - 2 * INSET, rx=7.0)
        for r, c in where:  # bridges hide the seams between cells of one block
            if (r, c + 1) in where:
                svg.rect(MARGIN + (c + 1) * size - 2 * INSET, MARGIN + r * size + INSET,
                         4 * INSET, size - 2 * INSET, stroke="none")
            if (r + 1, c) in where:
                svg.rect(MARGIN + c * size + INSET, MARGIN + (r + 1) * size - 2 * INSET,
                         size - 2 * INSET, 4 * INSET, stroke="none")
    x = MARGIN + (min(cols) + max(cols) + 1) * size / 2
    y = MARGIN + (min(rows) + max(rows) + 1) * size / 2
    room = (max(cols) - min(cols) + 1) * size - 2 * INSET - 8
    svg.text(x, y, token, size * (0.45 if len(token) < 3 else 0.32), room=room, stroke="none",
             font_weight="600")
    svg.close()
