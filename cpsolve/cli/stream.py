"""``count --list``: each solution printed as the engine finds it (a JSON line with
``--json``, its drawing in text), before the count's result.

Each solution is re-checked by the independent checker before it is printed, at the
engines' door (:mod:`cpsolve.engines.streamed`: one the checker refuses is not passed on,
and the result's own check then reports the engine bug); the result lists every solution
printed, which the limit does not cut (their check was done as they came).  When
the engine is stopped at once (a second Ctrl-C, or the clock past its grace) and its result
is lost, the solutions already printed still make a count: at least that many.  With
``--engine auto`` the solutions printed are those of the racer that sent one first; the
result lists the winner's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..answers.result import Result
    from ..puzzles.base import Puzzle
    from .session import Cli


class Stream:
    """The ``on_solution`` of :class:`~cpsolve.engines.Options` for ``count --list``."""

    def __init__(self, cli: Cli, puzzle: Puzzle) -> None:
        self.cli, self.puzzle = cli, puzzle
        self.found: list[dict[str, int]] = []
        self.racer: str | None = None
        """``--engine auto``: the racer whose solutions are printed (the first to send one;
        :func:`cpsolve.engines.auto.waiting.record`)."""

    def __call__(self, values: dict[str, int]) -> None:
        """Print one solution (checked at the door, :func:`cpsolve.engines.run`)."""
        from ..engines.runtime.alarms import printing

        self.found.append(dict(values))
        n = len(self.found)
        with printing():  # whole: the clock stops the engine after it, never halfway
            if self.cli.args.json:
                self.cli.line({"found": n, "solution": self.puzzle.json_solution(values)})
            else:
                from ..output.text import solution_panel

                self.cli.out.print(solution_panel(self.puzzle, values, n), crop=False)

    def salvage(self, engine: str, why: str, seconds: float) -> Result | None:
        """The count the printed solutions make when the engine's own result is lost
        (``None`` when none was printed): at least that many, each checked."""
        from ..answers.kinds import Count
        from ..answers.result import Result
        from ..answers.words import plural
        from ..engines import checked

        if not self.found:
            return None
        n = len(self.found)
        result = Result.counted(engine, Count(n, tuple(self.found)), False,
                                message=f"{why}; at least {plural(n, 'solution')} (those "
                                "printed as they were found)")
        return checked(engine, "count", self.puzzle.model, result, seconds)

    def unlisted(self, result: Result) -> Result:
        """``result`` without its list, for the text drawing, when every solution it lists
        is out (``auto``: unless a racer other than the one printed had more)."""
        from dataclasses import replace

        from ..answers.kinds import Count

        if not self.found or not isinstance(result.answer, Count) or \
                result.answer.solutions is None or \
                len(self.found) < len(result.answer.solutions):
            return result
        return result.but(answer=replace(result.answer, solutions=None))


def wanted(cli: Cli, puzzle: Puzzle, task: str) -> Stream | None:
    """A stream for ``count --list`` of a csp (with ``auto``, the solutions of the racer
    that sends one first), else ``None``."""
    if task != "count" or not getattr(cli.args, "list", False) or puzzle.model.kind != "csp":
        return None
    return Stream(cli, puzzle)
