"""Engine ``minizinc``: MiniZinc on a csp model (:mod:`cpsolve.interop.minizinc`), driven
through MiniZinc's own Python package (``minizinc`` on PyPI, the ``peers`` extra).

The ``minizinc`` binary and Gecode come from the distribution's packages (Debian:
``apt-get install minizinc``, which brings Gecode); the package drives that binary.  The
exported model and its data become a :class:`minizinc.Instance` of the solver named by
``--solver`` (:meth:`minizinc.Solver.lookup`: an id, its last part or a tag; Gecode by
default).  ``solve`` asks for two solutions (the second one, or the search's end after
the first, settles uniqueness); on a model with an objective (exported as ``solve
minimize``/``maximize``) it asks for the intermediate solutions, each better than the last,
and the package's ``OPTIMAL_SOLUTION`` is the proof of the last one (:func:`_optimise`);
``count`` (the model exported as ``solve satisfy``, whatever its objective) asks for all
(``all_solutions``, or ``nr_solutions`` for ``-n LIMIT``), each passed to
``Options.on_solution`` as the package yields it.  The package's final status says whether
the search was complete (``ALL_SOLUTIONS``, ``OPTIMAL_SOLUTION``, ``UNSATISFIABLE``);
otherwise the statuses say it was cut short (``solved`` with uniqueness unknown or without
the optimality proof, ``at_least``, ``unknown``).  The package's
statistics (nodes, failures, propagations, times) become the result's ``details``.

Stopping (:func:`_drive`): MiniZinc gets the time limit as its own ``time_limit``; cpsolve's
clock (the limit plus :data:`GRACE`, Ctrl-C, the memory watcher) is watched beside it and
cancels the package's solution stream, which terminates MiniZinc (SIGTERM: MiniZinc stops
its solver's process group); a MiniZinc still there after :data:`GRACE` is killed.
"""

from __future__ import annotations

import asyncio
import math
import re
import shutil
import warnings
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from importlib.util import find_spec

from ..answers.result import Assignment, Count, EngineFailed, Result, Status, Unsupported
from ..answers.words import counted, optimised
from ..language.quoting import shown
from ..model import Csp
from .runtime.clock import Clock

CAPABILITIES = {("csp", "solve"), ("csp", "count")}

SOLVER = "gecode"

INSTALL = "MiniZinc is not installed (apt-get install minizinc: MiniZinc with Gecode)"

INSTALL_PACKAGE = ("the minizinc engine needs MiniZinc's Python package (pip install "
                   "'cpsolve[peers]', or pip install minizinc)")

GRACE = 2.0
"""Seconds MiniZinc gets past its own time limit to print what it found before it is
stopped, and after a stop before it is killed."""

POLL = 0.05
"""Seconds between two looks at the clock and the interrupt flag."""


def tool_missing() -> str | None:
    """What to install when the ``minizinc`` binary or its Python package is missing, or
    ``None`` (the package is not imported here: only looked for)."""
    if not shutil.which("minizinc"):
        return INSTALL
    return None if find_spec("minizinc") is not None else INSTALL_PACKAGE


def supports(model: Csp) -> str | None:
    """Why this engine cannot take ``model`` (MiniZinc or its package is missing), or
    ``None``."""
    return tool_missing()


@dataclass
class _Search:
    """What one MiniZinc run found: its solutions (each passed to ``on_solution`` as it
    comes), how it ended, its statistics, and why it was stopped (``""``: it ended)."""

    names: dict[str, str]
    on_solution: Callable[[dict[str, int]], None] | None = None
    solutions: list[dict[str, int]] = field(default_factory=list)
    objectives: list[int] = field(default_factory=list)
    """MiniZinc's value of the objective at each solution (a model with one)."""
    complete: bool = False
    infeasible: bool = False
    statistics: dict[str, object] = field(default_factory=dict)
    stopped: str = ""

    def take(self, found) -> None:
        """One item of the package's solution stream (a ``minizinc.Result``)."""
        import minizinc

        self.statistics.update(found.statistics)
        if found.solution is not None:
            values = {self.names[k]: int(v) for k, v in vars(found.solution).items()
                      if k in self.names}
            self.solutions.append(values)
            objective = getattr(found.solution, "objective", None)
            if objective is not None:
                self.objectives.append(int(objective))
            if self.on_solution is not None:
                self.on_solution(values)
        if found.status is minizinc.Status.UNSATISFIABLE:
            self.infeasible = self.complete = True
        elif found.status in (minizinc.Status.ALL_SOLUTIONS, minizinc.Status.OPTIMAL_SOLUTION):
            self.complete = True

    def details(self) -> dict[str, object]:
        """The statistics as plain values under snake_case keys (``solveTime`` ->
        ``solve_time``, in seconds)."""
        out: dict[str, object] = {}
        for key, value in self.statistics.items():
            if key.startswith("_"):
                continue
            if isinstance(value, timedelta):
                value = round(value.total_seconds(), 4)
            if isinstance(value, (bool, int, float, str)):
                out[re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()] = value
        return out


def _driver():
    """The package's driver of the ``minizinc`` binary, remembering the processes it
    starts (so that a stop can make sure none is left: :func:`_reap`)."""
    if not _drivers:
        import minizinc

        class Driver(minizinc.Driver):
            """The default driver, keeping a handle on each MiniZinc process it starts
            (in the list of the run that started it: :data:`_started`)."""

            async def _create_process(self, args, solver=None):
                proc = await super()._create_process(args, solver)
                _started.get().append(proc)
                return proc

        found = minizinc.default_driver
        if found is None:
            raise Unsupported(INSTALL)
        driver = Driver.__new__(Driver)  # the default driver's state: no second
        driver.__dict__.update(found.__dict__)  # ``minizinc --version`` to check it
        _drivers.append(driver)
    return _drivers[0]


_drivers: list = []

_started: ContextVar[list] = ContextVar("minizinc_started")
"""The MiniZinc processes of the run in progress (each run, :func:`_drive`, sets its own)."""


def installed_solvers() -> list[str]:
    """The solvers of this MiniZinc installation (their ids' last parts), as the package's
    driver lists them (``minizinc --solvers-json``)."""
    return sorted(_short(s) for s in _configured())


def unusable_solvers() -> list[str]:
    """The solvers MiniZinc lists but cannot run as they stand: those that ask for a flag
    it could not fill itself (``requiredFlags``, e.g. ``--cplex-dll``: MiniZinc did not
    find the solver's library)."""
    return sorted(_short(s) for s in _configured() if s.requiredFlags)


def _configured() -> list:
    """The package's solver configurations, one per id."""
    listed = _driver().available_solvers()
    return list({s.id: s for found in listed.values() for s in found}.values())


def _short(solver) -> str:
    """A solver configuration's id's last part (``gecode``)."""
    return solver.id.rsplit(".", 1)[-1]


def _solver(name: str):
    """The package's solver configuration for ``name`` (an id, its last part or a tag);
    an ``Unsupported`` (one line, exit 2) when MiniZinc has none such here, or one it
    cannot run as it stands (:func:`unusable_solvers`)."""
    import minizinc

    unusable = unusable_solvers()
    usable = ", ".join(s for s in installed_solvers() if s not in unusable) or "none"
    try:
        solver = minizinc.Solver.lookup(name, driver=_driver())
    except LookupError:
        listed = f"; listed but asking for a library, most likely not installed: " \
            f"{', '.join(unusable)}" if unusable else ""
        raise Unsupported(f"MiniZinc has no solver {shown(name)} here (usable: {usable}{listed}; "
                          "see minizinc --solvers)") from None
    if solver.requiredFlags:
        raise Unsupported(f"MiniZinc's solver {name!r} cannot run here: MiniZinc lists it "
                          f"but asks for {' '.join(solver.requiredFlags)}, most likely "
                          f"because its library is not installed (usable: {usable})")
    return solver


def _run(model: Csp, options, how: dict, stream=None, objective: bool = False) -> _Search:
    """Run MiniZinc on ``model`` with the package's solution options ``how``; what it
    found (``stream`` is called with each solution as the package yields it).  With
    ``objective`` the model's objective is exported (``solve minimize``), else ``solve
    satisfy``."""
    from ..interop import ExportError
    from ..interop.minizinc import export

    missing = tool_missing()
    if missing:
        raise Unsupported(missing)
    clock = Clock(options.time_limit)
    try:
        mzn = export(model, output_item=False, objective=objective)  # JSON output
    except ExportError as err:
        raise Unsupported(f"cannot export to MiniZinc: {err}") from None
    import minizinc

    search = _Search(dict(mzn.names), stream)
    name = options.solver or SOLVER
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
        try:
            solver = _solver(name)
            package_model = minizinc.Model()
            package_model.add_string(mzn.model)
            package_model.add_string(mzn.data)
            instance = minizinc.Instance(solver, package_model, driver=_driver())
            if clock.limit is not None:
                how = {**how, "time_limit": timedelta(seconds=max(0.001, clock.left()))}
            asyncio.run(_drive(instance, how, search, Clock(_hard_limit(clock))))
        except NotImplementedError as err:  # the package: the solver lacks -a or -n
            raise Unsupported(f"MiniZinc's solver {name!r} cannot do this task: {err} "
                              "(each solver's flags: minizinc --solvers-json)") from None
        except (minizinc.MiniZincError, AssertionError) as err:  # the package: MiniZinc died
            _ended_badly(err, search, clock, name)
    if not search.stopped and not search.complete:
        search.stopped = clock.why()
    return search


def _hard_limit(clock: Clock) -> float | None:
    """When cpsolve stops MiniZinc itself: :data:`GRACE` past what is left of ``clock``."""
    left = clock.left()
    return None if left is None else left + GRACE


async def _drive(instance, how: dict, search: _Search, clock: Clock) -> None:
    """Read the package's solution stream into ``search`` until it ends or ``clock``
    expires (its limit, Ctrl-C, the memory watcher); then cancel it (the package
    terminates MiniZinc) and make sure no MiniZinc process is left (:func:`_reap`)."""

    async def read() -> None:
        async for found in instance.solutions(**how):
            search.take(found)

    started: list = []
    _started.set(started)
    task = asyncio.ensure_future(read())  # the task shares ``started`` (its context's copy)
    try:
        while not task.done():
            await asyncio.wait({task}, timeout=POLL)
            if not task.done() and clock.expired():
                search.stopped = clock.why()
                task.cancel()
                drains = [asyncio.ensure_future(_drain(proc)) for proc in started]
                await asyncio.wait({task}, timeout=GRACE)
                for drain in drains:
                    drain.cancel()
                break
        if task.done() and not task.cancelled():
            task.result()  # what the package raised (a MiniZincError), if anything
    finally:
        await _reap(started)


async def _drain(proc) -> None:
    """Read what is left of a stopped MiniZinc's output (unread, once the package stopped
    reading, it holds the pipe open and asyncio's ``wait()`` never returns)."""
    try:
        while await proc.stdout.read(1 << 16):
            pass
    except (RuntimeError, OSError):  # someone else reads it: nothing to unblock
        pass


async def _reap(started: list) -> None:
    """Kill (SIGKILL) every MiniZinc process of this run still alive :data:`GRACE` after
    its stop (SIGTERM went first: MiniZinc stops its solver then), and wait for each."""
    while started:
        proc = started.pop()
        drain = asyncio.ensure_future(_drain(proc))
        for last in (False, True):
            try:
                await asyncio.wait_for(proc.wait(), GRACE)
                break
            except TimeoutError:
                if not last and proc.returncode is None:
                    proc.kill()
        drain.cancel()


def _ended_badly(err: Exception, search: _Search, clock: Clock, solver: str) -> None:
    """MiniZinc (its solver lookup, ``--solvers-json``, or its run) failed: once a stop was
    asked for (Ctrl-C or SIGTERM reach MiniZinc too, in cpsolve's process group; the clock;
    the memory watcher) it was stopped — ``search`` ends with what it found; after a stop of
    its own or what was found, what was found stands; otherwise :func:`_failed`."""
    from .runtime import interrupt

    if interrupt.requested():
        search.stopped = search.stopped or interrupt.reason()
    elif not (search.stopped or search.solutions or clock.time_up()):
        _failed(err, solver)


def _failed(err: Exception, solver: str) -> None:
    """Raise what a MiniZinc failure means here, in one line: :class:`EngineFailed` (exit 3,
    never "internal error"), or ``Unsupported`` for a solver that cannot run here."""
    last = (str(err).strip() or type(err).__name__).splitlines()[-1]
    if "plugin" in str(err).lower():  # a MIP solver listed without its library
        raise Unsupported(f"MiniZinc's solver {solver!r} cannot run here: {last}") from None
    raise EngineFailed(f"MiniZinc failed: {last}") from None


def _with_statistics(search: _Search) -> dict[str, object]:
    """The result fields that carry the package's statistics (``explored``: its nodes)."""
    details = search.details()
    nodes = details.get("nodes")
    return {"details": details,
            "explored": nodes if isinstance(nodes, int) and not isinstance(nodes, bool)
            else None}


def solve(model: Csp, options) -> Result:
    """One solution and whether it is unique; on a model with an objective, the optimum
    (:func:`_optimise`)."""
    if model.objective is not None:
        return _optimise(model, options)
    search = _run(model, options, {"nr_solutions": 2})
    found, why = search.solutions, search.stopped
    stats = _with_statistics(search)
    if search.infeasible:
        return Result(Status.INFEASIBLE, "minizinc", proof="exhausted search",
                      message=f"MiniZinc ({options.solver or SOLVER}): no assignment "
                      "satisfies every constraint", **stats)
    if not found:
        return Result(Status.UNKNOWN, "minizinc", message=why, **stats)
    unique = False if len(found) > 1 else (True if search.complete else None)
    second = found[1] if len(found) > 1 else None
    return Result(Status.SOLVED, "minizinc", answer=Assignment(found[0], unique, second),
                  message="" if unique is not None else why, **stats)


def count(model: Csp, options) -> Result:
    """Count (and optionally keep) every solution (of a model with an objective too,
    whatever their value: ``count --optimal`` is :func:`cpsolve.engines.count_optimal`,
    which counts the model with the objective fixed to the optimum :func:`solve` proved)."""
    how = {"all_solutions": True} if options.limit is None else {"nr_solutions": options.limit}
    search = _run(model, options, how, getattr(options, "on_solution", None))
    found, complete, why = search.solutions, search.complete, search.stopped
    listed = tuple(found) if options.keep else None
    stats = _with_statistics(search)
    if search.infeasible:
        return Result.counted("minizinc", Count(0, listed), True, message=counted(0, True),
                              **stats)
    at_limit = options.limit is not None and len(found) >= options.limit and not complete
    return Result.counted("minizinc", Count(len(found), listed), complete,
                          message=counted(len(found), complete, why,
                                          options.limit if at_limit else None), **stats)



def _optimise(model: Csp, options) -> Result:
    """The optimum of ``model``'s objective: MiniZinc's last intermediate solution,
    ``OPTIMAL`` when the package says MiniZinc proved it, ``SOLVED`` when a limit came
    first (with the bound on the optimum when the solver reports one).  The answer carries
    MiniZinc's own value of the objective, which the checker re-evaluates (an objective
    exported wrong fails the check)."""
    objective = model.objective
    assert objective is not None
    search = _run(model, options, {"intermediate_solutions": True}, objective=True)
    stats = _with_statistics(search)
    name = f"MiniZinc ({options.solver or SOLVER})"
    if search.infeasible:
        return Result(Status.INFEASIBLE, "minizinc", proof="exhausted search",
                      message=f"{name}: no assignment satisfies every constraint", **stats)
    if not search.solutions:
        return Result(Status.UNKNOWN, "minizinc", message=f"{search.stopped or 'stopped'}: "
                      "no solution found", **stats)
    value = search.objectives[-1] if len(search.objectives) == len(search.solutions) \
        else None  # no objective in MiniZinc's output: the checker finds it missing
    answer = Assignment(search.solutions[-1], objective=value,
                        minimizing=objective.minimizing)
    proven = search.complete
    bound = None if proven else _bound(search.details(), objective.minimizing)
    message = optimised(f"{objective.sense} {objective.label}", value, proven,
                        search.stopped or "stopped", bound=bound,
                        minimizing=objective.minimizing, by=name)
    return Result(Status.OPTIMAL if proven else Status.SOLVED, "minizinc", answer=answer,
                  bound=bound, message=message, **stats)


def _bound(details: dict[str, object], minimizing: bool) -> int | None:
    """The bound on the optimum the solver reported (MiniZinc's ``objectiveBound``
    statistic: MIP solvers give it, Gecode does not), rounded inwards to an integer (the
    objective is one), or ``None``."""
    bound = details.get("objective_bound")
    if isinstance(bound, bool) or not isinstance(bound, (int, float)) \
            or not math.isfinite(bound):
        return None
    return math.ceil(bound - 1e-9) if minimizing else math.floor(bound + 1e-9)
