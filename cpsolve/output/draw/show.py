"""What ``cpsolve show`` and notebooks display: a result drawn with its puzzle.

A :class:`~cpsolve.answers.result.Result` does not know its puzzle, and a plan's
states mean nothing without it, so the picture of an answer is the pair:
``Shown(puzzle, result)`` (or ``cpsolve.output.draw.show.shown``) displays in
Jupyter and writes ``.svg`` / ``.html`` files.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ...answers.kinds import Analysis, Assignment, Count, Plan
from ...answers.result import Result
from ...model import Planning
from ...puzzles.base import Puzzle
from . import page, picture, results
from .boards import Boards, Stop
from .chart import layers_svg
from .svg import captioned

FARTHEST_DRAWN = 6


def analysis_svg(puzzle: Puzzle, result: Result) -> str:
    """Bars of states per distance, and up to six of the farthest states drawn."""
    far = results.farthest(result)
    boards = [picture(puzzle, s, title=f"farthest state {i}").svg
              for i, s in enumerate(far[:FARTHEST_DRAWN], start=1)]
    more = f" (the first {FARTHEST_DRAWN} of {len(far):,})" if len(far) > FARTHEST_DRAWN else ""
    unit = puzzle.distance_unit
    return layers_svg(results.layers(result) or (), f"{puzzle.name}: states by distance",
                      results.analysis_words(result, unit), boards,
                      f"The farthest states{more}:" if boards else "", unit)


def answer_svg(puzzle: Puzzle, result: Result, message: bool = True) -> str:
    """One SVG for any result: the solved board, the plan's last state, the chart, the start
    (a plan of no steps); a run that ended with nothing to draw, its puzzle or start under
    what the run found instead (:func:`unanswered`; without the message when not
    ``message``: a page's header says it)."""
    answer = result.answer
    if isinstance(answer, Assignment):
        return picture(puzzle, answer.values).svg
    if isinstance(answer, Plan) and answer.steps:
        return picture(puzzle, answer.steps[-1].state, answer.steps[-1]).svg
    if isinstance(answer, Analysis):
        return analysis_svg(puzzle, result)
    if isinstance(answer, Count) and answer.solutions:
        return picture(puzzle, answer.solutions[0]).svg
    said = unanswered(puzzle, result)
    if said is None:
        return picture(puzzle).svg
    return captioned(picture(puzzle).svg, f"{puzzle.name}: {said[0]}",
                     said[1] if message else said[0])


def unanswered(puzzle: Puzzle, result: Result) -> tuple[str, str] | None:
    """What a picture of a run that ended with nothing to draw says above the puzzle (a
    csp's, or a planning model's start), in short (for its title) and in whole: no answer —
    ``infeasible (proven)``, ``unknown (stopped before a proof)`` —, with the message in the
    puzzle's words (:meth:`~.Puzzle.message_text`: why there is none, the limit that stopped
    it), or a count that listed no solution (``exactly 0 solutions``).  ``None`` when there
    is an answer to draw (a plan of no steps too: the start is a goal)."""
    answer = result.answer
    if isinstance(answer, (Assignment, Plan, Analysis)) or results.listed_solutions(result):
        return None
    said = answer_words(puzzle, result) if isinstance(answer, Count) else \
        results.status_words(result)
    message = puzzle.message_text(result)
    if not message or message in said:
        return said, said
    return said, f"{said}: {message}"


def answer_page(puzzle: Puzzle, result: Result) -> str:
    """One HTML page for any result: a player, a gallery, a chart or a board."""
    return answer_drawing(puzzle, result).text


@dataclass(frozen=True)
class Drawing:
    """A picture or page of an answer, and the boards of it drawn one by one (a player's
    states, a gallery's solutions: :mod:`.boards`), if any; ``what`` names them in words."""

    text: str
    boards: Boards | None = None
    what: str = ""

    @property
    def cut(self) -> bool:
        """True when the drawing stopped before the last board (a limit, Ctrl-C)."""
        return self.boards is not None and self.boards.cut

    def said(self) -> str:
        """How many boards of how many were drawn, when not all (``57 of 2,000 drawn: time
        limit 1 s reached``, a plan's ``... states drawn ...``); else nothing."""
        return "" if self.boards is None else self.boards.said(self.what)


def answer_drawing(puzzle: Puzzle, result: Result, svg: bool = False,
                   stop: Stop | None = None) -> Drawing:
    """:func:`answer_svg` (``svg``; no XML declaration) or :func:`answer_page`, with the
    boards a page draws one by one — a plan's states, a gallery's solutions — drawn while
    ``stop`` lets the drawing go on (:func:`.boards.drawn`): a page cut short says how many
    it drew."""
    answer = result.answer
    if svg:
        return Drawing(answer_svg(puzzle, result))
    if isinstance(answer, Plan):
        frames = page.plan_frames(puzzle, result, stop)
        return Drawing(page.plan_page(puzzle, result, frames), frames, "states")
    if isinstance(answer, Count) and answer.solutions:
        cards = page.gallery_cards(puzzle, result, stop)
        return Drawing(page.gallery_page(puzzle, result, cards), cards)
    return Drawing(_board_page(puzzle, result))


def _board_page(puzzle: Puzzle, result: Result) -> str:
    """The page of a result with one picture: a chart, a board, the puzzle or its start."""
    answer = result.answer
    if isinstance(answer, Analysis):
        return page.analysis_page(puzzle, result, analysis_svg(puzzle, result))
    drawn = "the start" if isinstance(puzzle.model, Planning) else "the puzzle"
    said = unanswered(puzzle, result)
    words = "a solution" if said is None else f"{drawn} ({said[0]})"
    return page.board_page(puzzle, answer_svg(puzzle, result, False), result, words)


def answer_words(puzzle: Puzzle, result: Result) -> str:
    """What a drawn answer is, in words, for the line that says where it was written: a
    plan's size in the family's metric and its status (``10 moves, optimal (proven)``), a
    count's figure (``at least 8 solutions``, ``exactly 1 solution``), or a solution's
    (``unique solution``; an objective's value, ``not proven optimal`` when it is not):
    :func:`cpsolve.output.text.answer_words` (the headline's words), with how sure it is."""
    from ..text import answer_words as in_words  # here: text loads rich, a picture needs none

    answer, words = result.answer, in_words(puzzle, result)
    if isinstance(answer, Plan):
        return f"{words}, {results.status_words(result)}"
    if isinstance(answer, Count) and result.exact and result.proof is None:
        words = f"exactly {words}"
    if isinstance(answer, Assignment) and answer.objective is not None \
            and not result.exact:
        words += ", not proven optimal"
    return words


def wrote_words(puzzle: Puzzle, result: Result, drawing: Drawing | None = None) -> str:
    """What the line after a written picture or page says of it, ``wrote FILE (...)``: the
    answer in words (:func:`answer_words`) and what answered it, named as ``solve`` names
    it: the engine, or ``invariant`` for the family's own proof (a sliding puzzle's
    parity) that no engine was run for; and how much of the ``drawing`` was drawn, when a
    limit or Ctrl-C cut it short."""
    cut = f"; {drawing.said()}" if drawing is not None and drawing.cut else ""
    return f"{answer_words(puzzle, result)}, by {result.engine}{cut}"


@dataclass(frozen=True)
class Shown:
    """A result with its puzzle: displays in a notebook, saves as SVG or HTML."""

    puzzle: Puzzle
    result: Result

    def _repr_html_(self) -> str:
        answer = self.result.answer
        if isinstance(answer, Plan):
            digest = hashlib.sha1(repr((self.puzzle.name, [s.action for s in answer.steps]))
                                  .encode()).hexdigest()[:10]
            root = f"cpsolve-plan-{digest}"
            body = page.player(self.puzzle, self.result, root)
        else:
            body = page.header(self.puzzle, self.result) + answer_svg(self.puzzle, self.result,
                                                                      False)
        return page.xml_safe(f"<div class=\"cpsolve\"><style>{page.style('.cpsolve')}</style>"
                             f"{body}</div>")

    def save(self, path: str | Path) -> None:
        """``.html``: the page of :func:`answer_page`; ``.svg``: :func:`answer_svg`."""
        target = Path(path)
        svg = target.suffix.lower() == ".svg"
        text = answer_drawing(self.puzzle, self.result, svg).text
        from ...engines.runtime.output_files import write_output

        write_output(target, ('<?xml version="1.0" encoding="UTF-8"?>\n' if svg else "") + text)


def shown(puzzle: Puzzle, result: Result) -> Shown:
    """``result`` drawn with ``puzzle`` (for notebooks: the cell's last expression)."""
    return Shown(puzzle, result)
