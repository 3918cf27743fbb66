"""The search engine: plain state-space search on Planning, backtracking on Csp.

One algorithm per module, one function per algorithm, listed in
:data:`ALGORITHMS` (planning ``solve``) and :data:`ANALYSES` (planning
``analyze``); the CLI and the tests read these dicts.  Adding a search is
one module and one line here.

* planning models are compiled once by :mod:`.compile` into a
  :class:`~.compile.Task` (states are tuples of ints in ``model.names``
  order); every algorithm is ``fn(task, budget) -> Result``;
* csp models are solved by :mod:`.csp` (backtracking with forward checking),
  or by :mod:`.circuit` (Hamiltonian-circuit search) when the model is one
  circuit plus conditions (``Options.algorithm`` ``"backtracking"`` forces
  the general one).

Imports stay light (numpy only when the vectorised analysis runs, and
never the CP-SAT solver's package): ``cpsolve solve ... --engine search``
starts fast.
"""

from __future__ import annotations

from collections.abc import Callable

from ...answers import Direction
from ...model import Csp, Planning
from ...result import Result, Unsupported
from .. import Options
from .common import Budget
from .compile import Task, compile_planning
from .lengths import any_plan_is_optimal
from .planning.anytime import anytime
from .planning.astar import astar
from .planning.bfs import bfs
from .planning.bidir import bidir
from .planning.dfs import dfs
from .planning.dijkstra import dijkstra
from .planning.idastar import idastar
from .planning.iddfs import iddfs
from .planning.memo_dfs import memo_dfs
from .planning.wastar import wastar
from .planning.widening import widening
from .statespace.layers import layers

CAPABILITIES = {("planning", "solve"), ("planning", "analyze"), ("planning", "count"),
                ("csp", "solve"), ("csp", "count")}

Algorithm = Callable[[Task, Budget], Result]

ALGORITHMS: dict[str, Algorithm] = {
    "bfs": bfs,
    "bidir": bidir,
    "iddfs": iddfs,
    "dfs": dfs,
    "dijkstra": dijkstra,
    "astar": astar,
    "idastar": idastar,
    "wastar": wastar,
    "anytime": anytime,
    "memo_dfs": memo_dfs,
    "widening": widening,
}
"""Planning search algorithms by name (``Options.algorithm``)."""

ANY_PLAN = frozenset({"dfs", "memo_dfs", "widening"})
"""Algorithms that look for some plan, not a shortest one (``memo_dfs`` and
``widening`` say ``OPTIMAL`` when every plan provably has the same length and cost)."""


def _numpy_layers(task: Task, budget: Budget, direction: Direction | None = None) -> Result:
    from .statespace.vector import numpy_layers  # numpy is imported only here

    return numpy_layers(task, budget, direction)


ANALYSES: dict[str, Algorithm] = {
    "numpy": _numpy_layers,
    "python": layers,
}
"""State-space analyses by name; ``numpy`` (whole frontiers at once) is the default
and falls back to ``python`` for models it cannot pack."""


def default_algorithm(model: Planning) -> str:
    """The algorithm :func:`solve` runs when the caller names none.

    * ``anytime`` when the model declares an estimate: a plan at once
      (weighted A*), then an optimality proof within the time limit;
    * ``widening`` when every plan provably has the same length and cost
      (:func:`.lengths.any_plan_is_optimal`): any plan is optimal, so the
      search only has to find one (English 33-hole solitaire: 31 jumps);
    * ``bidir`` when every action costs 1 and the goal is a single state
      (two small frontiers instead of one big one);
    * ``bfs`` when every action costs 1, else ``dijkstra``.
    """
    if model.estimate is not None:
        return "anytime"
    if any_plan_is_optimal(model):
        return "widening"
    if model.unit_costs():
        return "bidir" if model.goal_state() is not None else "bfs"
    return "dijkstra"


def _pick(table: dict[str, Algorithm], name: str, what: str) -> Algorithm:
    if name not in table:
        raise Unsupported(f"search: unknown {what} {name!r} (known: {', '.join(table)})")
    return table[name]


def solve(model: Csp | Planning, options: Options) -> Result:
    """A plan (planning) or a solution and whether it is unique (csp)."""
    if isinstance(model, Csp):
        from .csp.circuit import chosen, solve_circuit
        from .csp.solve import solve_csp

        circuit = chosen(model, options)
        return solve_circuit(model, circuit, options) if circuit else solve_csp(model, options)
    name = options.algorithm or default_algorithm(model)
    algorithm = _pick(ALGORITHMS, name, "algorithm")
    task = compile_planning(model)
    if name == "bidir" and options.algorithm is None and not _backward_ok(task):
        name, algorithm = "bfs", bfs
    return _finish(task, name, algorithm(task, Budget.of(options, len(task.actions))))


def _backward_ok(task: Task) -> bool:
    """True when predecessors can be enumerated (bidir needs them)."""
    goal = task.goal_state
    try:
        if goal is not None and task.in_domain(goal):
            task.predecessors(goal)
    except Unsupported:
        return False
    return True


def count(model: Csp | Planning, options: Options) -> Result:
    """Count (and with ``options.keep`` list) every solution of a csp, or every optimal plan.

    Planning: the count is exact (:mod:`.count_plans`); ``options.limit`` only caps
    how many plans are listed.
    """
    if isinstance(model, Planning):
        from .planning.count_plans import count_optimal

        budget = Budget(options.time_limit, None, options.progress)
        return count_optimal(compile_planning(model), budget, options.keep, options.limit)
    from .csp.circuit import chosen, count_circuit
    from .csp.solve import count_csp

    circuit = chosen(model, options)
    return count_circuit(model, circuit, options) if circuit else count_csp(model, options)


ANALYZE_LIMIT = 5_000_000
"""States an analysis explores when the caller sets no limit (~1 GB with Python sets)."""


def analyze(model: Csp | Planning, options: Options) -> Result:
    """State-space analysis of a planning model (see :func:`.analyze.layers`).

    Without ``options.limit``, at most :data:`ANALYZE_LIMIT` states are
    explored (the message says so when that stops the analysis).
    """
    if not isinstance(model, Planning):
        raise Unsupported("search: analyze applies to planning models")
    name = options.algorithm or "numpy"
    analysis = _pick(ANALYSES, name, "analysis")
    task = compile_planning(model)
    budget = Budget.of(options, len(task.actions))
    if options.limit is None:
        budget.limit = ANALYZE_LIMIT
    result = _finish(task, name, analysis(task, budget, options.direction))
    if options.limit is None and budget.reason.startswith("state limit"):
        result = result.but(message=f"{result.message} (the default limit for analyze; "
                            "set one with --limit)")
    return result


def _finish(task: Task, name: str, result: Result) -> Result:
    """Add what every planning result reports: the algorithm and skipped successors."""
    details = {"algorithm": name, **result.details}
    if task.skipped[0]:
        details["skipped_out_of_domain"] = task.skipped[0]
    return result.but(details=details)
