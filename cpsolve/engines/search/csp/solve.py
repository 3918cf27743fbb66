"""Solve and count a :class:`~cpsolve.model.csp.Csp` by backtracking (:mod:`.backtrack`)."""

from __future__ import annotations

from collections.abc import Callable

from ....answers.result import Assignment, Count, Result, Status, Unsupported
from ....answers.words import counted, optimised
from ....language.expr import Expr
from ....language.interpret import evaluate
from ....language.intervals import bounds
from ....model import Csp
from ... import Options
from ..common import Budget
from .backtrack import Backtracker
from .components import parts
from .counts import summed
from .cover import cover_bound
from .tally import Stop, Tally


def _backtracker(model: Csp, options: Options) -> Backtracker:
    if options.algorithm not in (None, "backtracking"):  # a planning algorithm's name, or
        from ..choosing import pick_algorithm  # none: refused (circuit's models never come here)

        pick_algorithm(options.algorithm, "csp")
        raise Unsupported(f"search: the {options.algorithm} algorithm does not apply to this "
                          "model; backtracking does")
    return Backtracker(model)


def solve_csp(model: Csp, options: Options) -> Result:
    """A solution, and a search for a second one to decide uniqueness.

    ``SOLVED`` with ``unique`` True / False (and ``second``), or ``None`` when
    the time limit struck between the two; ``INFEASIBLE`` when the whole
    tree holds no solution.  ``options.limit`` does not apply.
    """
    if model.objective is not None:
        return optimize_csp(model, options)
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


def optimize_csp(model: Csp, options: Options) -> Result:
    """Branch and bound: every solution found tightens the bound, and a node whose
    objective cannot beat it (interval bounds over its domains) is cut off.  ``OPTIMAL``
    once the whole tree is explored; stopped earlier, ``SOLVED`` with the best found."""
    objective = model.objective
    assert objective is not None
    bt = _backtracker(model, options)
    budget = Budget(options.time_limit, None, options.progress)
    sign = 1 if objective.minimizing else -1
    best: list = [None, None]  # the best value (signed: less is better) and its solution
    interval = objective_bounds(bt, objective.expr)
    cuts = _cover(bt, objective.expr) if sign > 0 else None

    def prune(doms: list[int]) -> bool:
        if best[0] is None:
            return False
        lo, hi = interval(doms)
        return (lo if sign > 0 else -hi) >= best[0] or (
            cuts is not None and cuts(doms, best[0]))

    def keep(solution: dict[str, int]) -> None:
        value = sign * evaluate(objective.expr, solution)
        if best[0] is None or value < best[0]:
            best[0], best[1] = value, solution

    bt.prune = prune
    complete = _run(bt, keep, budget)
    details = {"nodes": bt.nodes}
    if best[1] is None:
        if complete:
            return Result(status=Status.INFEASIBLE, engine="search", explored=bt.nodes,
                          proof="exhausted search", details=details,
                          message="no solution: the whole search tree was explored")
        return Result(status=Status.UNKNOWN, engine="search", explored=bt.nodes,
                      message=f"stopped: {budget.reason}; no solution found yet",
                      details=details)
    value = sign * best[0]
    answer = Assignment(best[1], objective=value, minimizing=sign > 0)
    message = optimised(f"{objective.sense} {objective.label}", value, complete,
                        f"stopped: {budget.reason}", by="branch and bound")
    return Result(status=Status.OPTIMAL if complete else Status.SOLVED, engine="search",
                  answer=answer, explored=bt.nodes, details=details, message=message)


def count_csp(model: Csp, options: Options) -> Result:
    """Count every solution (at most ``options.limit``); keep them with ``options.keep``.

    ``EXACT`` = the count is exact; ``AT_LEAST`` = stopped at a limit (the
    count or the time limit; 0 when nothing was found before it).
    """
    bt = _backtracker(model, options)
    budget = Budget(options.time_limit, None, options.progress)
    if _plain(model, options) and (split := parts(model)) is not None:
        return _count_parts(split, budget)
    tally = Tally(options)
    complete = _run(bt, tally, budget)
    solutions = tally.solutions()
    details = {"nodes": bt.nodes}
    n = tally.total
    message = counted(n, complete, budget.reason,
                      None if complete or budget.stop is not None else n)
    return Result.counted("search", Count(n, solutions), complete, explored=bt.nodes,
                          message=message, details=details)


def _plain(model: Csp, options: Options) -> bool:
    """Whether a count may split ``model`` into parts (:mod:`.components`): it is a count
    alone, no solution listed, streamed or limited, no symmetry or objective declared."""
    return not (options.keep or options.on_solution is not None or options.limit is not None
                or model.symmetries or model.objective is not None)


def _count_parts(split: list[Csp], budget: Budget) -> Result:
    """The count of a model whose ``split`` parts share no variable: the product of theirs.
    Stopped before the end, at least the product of what each part found (0 while a part
    has found none: it may have none)."""
    total, nodes, complete = 1, 0, True
    for part in split:
        bt, tally = Backtracker(part), Tally(Options())
        done = _run(bt, tally, budget)
        nodes, total, complete = nodes + bt.nodes, total * tally.total, complete and done
        if tally.total == 0:
            complete = complete or done  # a part with no solution: none at all, if proven
            break
    details = {"nodes": nodes, "parts": len(split)}
    message = counted(total, complete, budget.reason)
    return Result.counted("search", Count(total, None), complete, explored=nodes,
                          message=message, details=details)


def _run(bt: Backtracker, on_solution: Callable[[dict[str, int]], None],
         budget: Budget) -> bool:
    """Run the search; True when it explored the whole tree."""
    try:
        bt.run(on_solution, budget)
    except Stop:
        return False
    return True


def _cover(bt: Backtracker, expr: Expr) -> Callable[[list[int], int], bool] | None:
    """The counts' bound on a minimised sum of distinct 0/1 variables (:mod:`.cover`)."""
    names = summed(expr)
    index = {name: i for i, name in enumerate(bt.names)}
    if names is None or len(set(names)) != len(names) or not bt.counts:
        return None
    xs = [index[n] for n in names]
    if not all(x in bt.binary for x in xs):
        return None
    return cover_bound(bt.counts, xs, bt.base)


def objective_bounds(bt: Backtracker, expr: Expr) -> Callable[[list[int]], tuple[int, int]]:
    """The interval an expression can still take given a node's domains (bit masks)."""
    index = {name: i for i, name in enumerate(bt.names)}
    base = bt.base

    def of(doms: list[int]) -> tuple[int, int]:
        def domain(name: str) -> tuple[int, int]:
            d = doms[index[name]]
            return (d & -d).bit_length() - 1 + base, d.bit_length() - 1 + base

        return bounds(expr, domain)

    return of
