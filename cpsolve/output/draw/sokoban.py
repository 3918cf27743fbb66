"""Sokoban boards: walls, floor with its targets, boxes (darker on a target), the player."""

from __future__ import annotations

from ...answers.kinds import Step
from ...answers.words import plural
from ...puzzles.sokoban import DIRECTIONS, SokobanPuzzle
from .svg import ACCENT, INK, Svg

MARGIN = 10
SIZE = 36
WALL, FLOOR, DEAD, TARGET = "#3b3f47", "#efe9dc", "#e2dccd", "#2f9e44"
BOX, BOX_DONE, BOX_EDGE, PLAYER = "#d9a441", "#8a6d3b", "#5c4a25", "#1c5fb8"


def sokoban_svg(puzzle: SokobanPuzzle, state: tuple[int, ...], step: Step | None,
                title: str) -> str:
    """The map in ``state``; the box ``step`` pushed is outlined in the accent colour."""
    rows = puzzle.board.rows
    cols = max(len(row) for row in rows)
    on = {cell for i, cell in enumerate(puzzle.cells) if state[1 + i]}
    done = len(on & puzzle.board.targets)
    svg = Svg(cols * SIZE + 2 * MARGIN, len(rows) * SIZE + 2 * MARGIN, title,
              f"{plural(len(on), 'box', 'boxes')}, {done} on target; " + puzzle.metric)
    for r, c in sorted(puzzle.board.walls):
        svg.rect(MARGIN + c * SIZE, MARGIN + r * SIZE, SIZE, SIZE, fill=WALL, class_="wall")
    for r, c in puzzle.cells:
        x, y = MARGIN + c * SIZE, MARGIN + r * SIZE
        svg.rect(x, y, SIZE, SIZE, fill=DEAD if (r, c) in puzzle.dead else FLOOR,
                 class_="cell dead" if (r, c) in puzzle.dead else "cell floor")
        if (r, c) in puzzle.board.targets:
            svg.circle(x + SIZE / 2, y + SIZE / 2, SIZE * 0.18, fill=TARGET, class_="target")
    pushed = _pushed(puzzle, step)
    for r, c in sorted(on):
        target = (r, c) in puzzle.board.targets
        svg.rect(MARGIN + c * SIZE + 4, MARGIN + r * SIZE + 4, SIZE - 8, SIZE - 8, rx=4.0,
                 fill=BOX_DONE if target else BOX, stroke=ACCENT if (r, c) == pushed else BOX_EDGE,
                 stroke_width="2.5" if (r, c) == pushed else "1.5", class_="box")
    r, c = puzzle.cells[state[0]]
    svg.circle(MARGIN + c * SIZE + SIZE / 2, MARGIN + r * SIZE + SIZE / 2, SIZE * 0.3,
               fill=PLAYER, stroke=INK, stroke_width="1.5", class_="player")
    return svg.text_of()


def _pushed(puzzle: SokobanPuzzle, step: Step | None) -> tuple[int, int] | None:
    """Where the box pushed by ``step`` landed (None: no push)."""
    move = None if step is None else puzzle.actions.get(step.action)
    if move is None or not move.push:
        return None
    dr, dc = DIRECTIONS[move.direction]
    return move.start[0] + 2 * dr, move.start[1] + 2 * dc
