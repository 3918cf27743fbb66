"""Running CP-SAT: solver set-up within a :class:`~cpsolve.engines.runtime.clock.Clock`, and
model size figures."""

from __future__ import annotations

import threading

from ..runtime import interrupt, memory
from ..runtime.clock import Clock
from .library import cp_model


def solver_for(budget: Clock, workers: int, **params: object) -> cp_model.CpSolver:
    """A solver limited to the time left of ``budget``, with ``workers`` threads and extra
    parameters."""
    solver = cp_model.CpSolver()
    left = budget.left()
    if left is not None:
        solver.parameters.max_time_in_seconds = max(left, 1e-3)
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.catch_sigint_signal = False  # cpsolve's own handler stops the search
    for name, value in params.items():
        setattr(solver.parameters, name, value)
    return solver


PLAN_SEARCH = {"use_feasibility_jump": False, "cp_model_presolve": False,
               "cp_model_probing_level": 0, "symmetry_level": 0,
               "search_branching": cp_model.FIXED_SEARCH, "use_sat_inprocessing": False}
"""Parameters for planning models, each measured on the bundled puzzles (8-puzzle,
ON-OFF, English 33, in-process seconds with everything else as here: 0.33, 0.74, 0.46).
The search follows the timeline's decision strategy, the steps' actions in order, first
one true, as a depth-first search of the plans would (CP-SAT's default search: 1.9,
4.4, 1.5; trying "false" first: English 33 7.5).  Presolve, probing and symmetry
detection cost more than they save, repeated for every horizon (0.9, 3.8, 1.4); so
does inprocessing, which runs each time the search returns to the root (0.6, 1.8);
feasibility jump only delays the other workers; the LP relaxation is off unless there
is a cost to bound (on: 0.8 s for the 8-puzzle, 2.3 times slower on the line puzzle)."""
PLAN_PORTFOLIO = ("fixed", "no_lp")
"""With several workers: that depth-first search, and CP-SAT's own search beside it."""


def plan_solver(budget: Clock, workers: int, objective: bool) -> cp_model.CpSolver:
    """A solver for a planning model (:data:`PLAN_SEARCH`, or :data:`PLAN_PORTFOLIO`
    with several workers); ``objective``: the model has a cost to minimize."""
    params: dict[str, object] = dict(PLAN_SEARCH)
    if not objective:
        params["linearization_level"] = 0
    if workers > 1:
        params.update(search_branching=cp_model.AUTOMATIC_SEARCH, num_full_subsolvers=workers)
    solver = solver_for(budget, workers, **params)
    if workers > 1:
        solver.parameters.subsolvers.extend(PLAN_PORTFOLIO)
    return solver


ALONE = 1.0
"""Deterministic time (about 0.7 s here) the depth-first search gets on one worker before
the others join in (only when ``workers`` asks for more than one).  Most horizons of
sliding puzzles are decided by then at one worker's speed (8-puzzle 0.33 s, ON-OFF
0.74 s; with every worker from the start 0.50 s and 0.95 s), while English 33 with its
actions declared in another order needs CP-SAT's own search beside it (depth-first
alone: 6 of 8 shuffled orders undecided after 30 s; staged: all 8 solved, 0.4 to 28 s)."""


def solve_staged(model: cp_model.CpModel, budget: Clock, workers: int,
                 staged: bool = True) -> tuple[cp_model.CpSolver, object]:
    """Depth-first search alone for a while, then (if undecided) the whole portfolio.

    Not ``staged``: one long proof (that no plan is shorter than a known one,
    :mod:`.descent`) — the portfolio at once, CP-SAT's own search on one worker, and
    presolve and inprocessing, which pay once in a single solve (Tower of Hanoi, 6
    discs, one worker: 2.3 s instead of 7.0 s depth-first; two workers: 2.8 s instead
    of 7.7 s staged, then 1.04 s instead of 1.84 s with presolve and inprocessing
    (7 discs: 8.2 s instead of 10.5 s), on a loaded machine)."""
    objective = model.has_objective()
    if not staged:
        solver = plan_solver(budget, workers, objective)
        solver.parameters.search_branching = cp_model.AUTOMATIC_SEARCH
        solver.parameters.cp_model_presolve = True
        solver.parameters.use_sat_inprocessing = True
        return solver, run(solver, model)
    if workers > 1 and ALONE > 0:
        solver = plan_solver(budget, 1, objective)
        solver.parameters.max_deterministic_time = ALONE
        status = run(solver, model)
        if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or budget.expired():
            return solver, status
    solver = plan_solver(budget, workers, objective)
    return solver, run(solver, model)


POLL = 0.05
"""Seconds between two looks, while CP-SAT solves, at the memory limit and a stop asked for."""


def run(solver: cp_model.CpSolver, model: cp_model.CpModel,
        callback: cp_model.CpSolverSolutionCallback | None = None) -> object:
    """``solver.solve(model, callback)``, stopped within a moment of an interruption.

    The solve runs in a helper thread while this one waits, so that signal handlers
    run (on the main thread), the memory limit is looked at, and a stop asked for
    (:func:`.interrupt.request`, here or in any thread) stops the search.  Whatever
    happens to the waiting thread (a second Ctrl-C, the clock's hard stop), it returns
    or raises only once the solve has returned: a process that ends while CP-SAT's
    threads still run aborts ("terminate called without an active exception").
    """
    if memory.stop_asked():  # a solve that returns at once (UNKNOWN), so that the solver's
        solver.parameters.max_time_in_seconds = 0.0  # response can be read; the memory
        # limit is looked at before the solve too: a solve shorter than a POLL has no other
    box: dict[str, object] = {}
    done = threading.Event()  # not Thread.join: interrupted, it takes the thread for ended

    def work() -> None:
        try:
            box["status"] = solver.solve(model, callback)
        except BaseException as err:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = err
        finally:
            done.set()

    with interrupt.running(solver.stop_search):
        try:
            threading.Thread(target=work, name="cp-sat", daemon=True).start()
            while not done.wait(POLL):
                if memory.stop_asked():  # asked again each time: a stop asked for before
                    solver.stop_search()  # the solve began is lost by CP-SAT
        finally:
            _wait(solver, done)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["status"]


def _wait(solver: cp_model.CpSolver, done: threading.Event) -> None:
    """Stop the solve and wait until it has returned (``done``; only when an exception
    leaves :func:`run`).  Exceptions raised meanwhile by signal handlers (another Ctrl-C,
    the clock's alarm, which fires again until its block is left) are dropped: the one
    already on its way out is raised once the solve is over."""
    while not done.is_set():
        try:
            solver.stop_search()
            done.wait(POLL)
        except BaseException:  # noqa: BLE001, S112 - CP-SAT must end first
            continue


def pin(model: cp_model.CpModel, lit: object, value: int) -> None:
    """Fix a Boolean variable of ``model`` to ``value`` (its domain, in place)."""
    domain = model.proto.variables[lit.index].domain  # type: ignore[attr-defined]
    domain[0] = domain[1] = value


def size(model: cp_model.CpModel) -> dict[str, int]:
    """Numbers of variables and constraints of a CP-SAT model."""
    proto = model.proto
    return {"variables": len(proto.variables), "constraints": len(proto.constraints)}


FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
"""Solver statuses that come with a solution."""
