"""What the drawings read from a result: the one place that knows the answer types.

Pages and pictures call these small functions instead of reading
:class:`~cpsolve.answers.result.Result` fields, so a change in the answer types is
ported here alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING

from ...answers.agreement import status_words
from ...answers.kinds import Analysis, Assignment, Count, Plan, Step
from ...answers.result import Result
from ...answers.words import plural

if TYPE_CHECKING:
    from ...puzzles.base import Puzzle


def plan_steps(result: Result) -> tuple[Step, ...] | None:
    """The plan's steps, or ``None`` when the answer is no plan."""
    return result.answer.steps if isinstance(result.answer, Plan) else None


def plan_cost(result: Result) -> int | None:
    """The plan's total cost in the puzzle's metric."""
    return result.answer.cost if isinstance(result.answer, Plan) else None


def assignment(result: Result) -> Mapping[str, int] | None:
    """The solved assignment, or ``None``."""
    return result.answer.values if isinstance(result.answer, Assignment) else None


def listed_solutions(result: Result) -> tuple[Mapping[str, int], ...]:
    """The solutions a count listed (empty when none were kept)."""
    if isinstance(result.answer, Count):
        return tuple(result.answer.solutions or ())
    return ()


def count(result: Result) -> int | None:
    """The number of solutions counted."""
    return result.answer.count if isinstance(result.answer, Count) else None


def layers(result: Result) -> tuple[int, ...] | None:
    """States per distance of an analysis."""
    return result.answer.layers if isinstance(result.answer, Analysis) else None


def farthest(result: Result) -> tuple[tuple[int, ...], ...]:
    """The states at the largest distance of an analysis."""
    return result.answer.farthest if isinstance(result.answer, Analysis) else ()


def analysis_words(result: Result, unit: str = "") -> str:
    """One sentence: how many states, measured from where, the largest distance (in
    ``unit``, the family's :attr:`distance_unit`, when given)."""
    answer = result.answer
    if not isinstance(answer, Analysis):
        return ""
    towards = "from the start" if answer.direction == "start" else "to the goal"
    largest = f"{answer.max_distance} {unit}".rstrip()
    far = "" if answer.max_distance is None else \
        f"; the largest distance is {largest}, reached by {plural(len(answer.farthest), 'state')}"
    return f"{plural(answer.states, 'state')}, by distance {towards}{far}"


def summary_html(result: Result, puzzle: Puzzle | None = None) -> str:
    """One line of HTML: task, status, engine, the answer's figure, check, time, and the
    message, in ``puzzle``'s words when it is given (:meth:`~.Puzzle.message_text`: an
    invariant proof names ``the box on r4c2``, not the model's ``box[8]``)."""
    answer = result.answer
    figure = ""
    if isinstance(answer, Plan):
        figure = f"{plural(len(answer.steps), 'step')}, cost {answer.cost:,}"
    elif isinstance(answer, Assignment):
        figure = f"{plural(len(answer.values), 'variable')} assigned"
    elif isinstance(answer, Count):
        figure = f"{answer.count:,} counted"
    elif isinstance(answer, Analysis):
        figure = analysis_words(result)
    parts = [f"<b>{escape(result.task)}</b>", escape(status_words(result)),
             f"engine {escape(result.engine)}", escape(figure),
             "verified" if result.verified else "", f"{result.seconds:.3f} s",
             escape(result.message if puzzle is None else puzzle.message_text(result))]
    return f"<p>{' · '.join(p for p in parts if p)}</p>"
