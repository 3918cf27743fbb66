"""Solve and count a :class:`~cpsolve.model.core.Csp` by backtracking (:mod:`.backtrack`)."""

from __future__ import annotations

from collections.abc import Callable

from ....answers.result import Assignment, Count, Result, Status, Unsupported
from ....model import Csp
from ....words import plural
from ... import Options
from ..common import Budget
from . import ALGORITHMS
from .backtrack import Backtracker, Stop


def _backtracker(model: Csp, options: Options) -> Backtracker:
    if options.algorithm not in (None, "backtracking"):
        raise Unsupported(f"search: unknown csp algorithm {options.algorithm!r} "
                          f"(known: {', '.join(ALGORITHMS)})")
    return Backtracker(model)


def solve_csp(model: Csp, options: Options) -> Result:
    """A solution, and a search for a second one to decide uniqueness.

    ``SOLVED`` with ``unique`` True / False (and ``second``), or ``None`` when
    the time limit struck between the two; ``INFEASIBLE`` when the whole
    tree holds no solution.  ``options.limit`` does not apply.
    """
    bt = _backtracker(model, options)
    budget = Budget(options.time_limit, None, options.progress)
    found: list[dict[str, int]] = []

    def keep(solution: dict[str, int]) -> None:
        found.append(solution)
        if len(found) == 2:
            raise Stop

    complete = _run(bt, keep, budget)
    details = {"nodes": bt.nodes}
    if not found:
        if complete:
            return Result(status=Status.INFEASIBLE, engine="search", explored=bt.nodes,
                          proof="exhausted search",
                          message="no solution: the whole search tree was explored",
                          details=details)
        return Result(status=Status.UNKNOWN, engine="search", explored=bt.nodes,
                      message=f"stopped: {budget.reason}; no solution found yet", details=details)
    second = found[1] if len(found) > 1 else None
    unique = False if second else (True if complete else None)
    message = "" if unique is not None else \
        f"stopped: {budget.reason} before uniqueness was decided"
    return Result(status=Status.SOLVED, engine="search",
                  answer=Assignment(found[0], unique, second), explored=bt.nodes,
                  message=message, details=details)


def count_csp(model: Csp, options: Options) -> Result:
    """Count every solution (at most ``options.limit``); keep them with ``options.keep``.

    ``EXACT`` = the count is exact; ``AT_LEAST`` = stopped at a limit (the
    count or the time limit; ``UNKNOWN`` when nothing was found before it).
    """
    bt = _backtracker(model, options)
    budget = Budget(options.time_limit, None, options.progress)
    kept: list[dict[str, int]] = []
    total = [0]

    def tally(solution: dict[str, int]) -> None:
        total[0] += 1
        if options.keep:
            kept.append(solution)
        if options.limit is not None and total[0] >= options.limit:
            raise Stop

    complete = _run(bt, tally, budget)
    solutions = tuple(kept) if options.keep else None
    details = {"nodes": bt.nodes}
    n = total[0]
    if complete:
        message = f"exactly {plural(n, 'solution')}"
    elif budget.stop is not None:
        message = f"stopped: {budget.reason}; at least {plural(n, 'solution')}"
    else:
        message = f"stopped at the limit of {plural(n, 'solution')}; there may be more"
    return Result.counted("search", Count(n, solutions), complete, explored=bt.nodes,
                          message=message, details=details)


def _run(bt: Backtracker, on_solution: Callable[[dict[str, int]], None],
         budget: Budget) -> bool:
    """Run the search; True when it explored the whole tree."""
    try:
        bt.run(on_solution, budget)
    except Stop:
        return False
    return True
