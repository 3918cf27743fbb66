"""Engines: each knows models, never puzzles.

An engine is a module exposing ``CAPABILITIES`` — a set of ``(model kind,
task)`` pairs such as ``("planning", "solve")`` — and one function per task
it supports: ``solve(model, options)``, ``count(model, options)`` or
``analyze(model, options)``, each returning a :class:`~cpsolve.answers.result.Result`;
optionally ``supports(model) -> reason | None`` for models that use
something it lacks.

:func:`run` is the one door to them: it imports the engine lazily (so the
search engine never pays for ortools), checks the capability, times the call
and passes the answer through the independent checker.
"""

from __future__ import annotations

import importlib
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:  # the door itself imports them when an engine runs: --help needs none
    from collections.abc import Callable, Mapping

    from ..answers.result import Result
    from ..model import Csp, Planning
    from .options import Options

ENGINES: dict[str, str] = {
    "cpsat": "cpsolve.engines.cpsat",
    "search": "cpsolve.engines.search.engine",
    "pyconstraint": "cpsolve.engines.pyconstraint",
}
"""Built-in engine name -> module; the CLI, the docs and the tests all read this."""

AUTO = "cpsolve.engines.auto"
"""The module of ``auto``, the race of the engines (:func:`run` takes its name too)."""

PEERS: dict[str, str] = {
    "fd": "cpsolve.engines.fd",
    "minizinc": "cpsolve.engines.minizinc",
}
"""Engines that run another system (Fast Downward, MiniZinc with Gecode), optional: each
says in ``supports`` when its tool is not installed; :func:`engines_for` lists them only
when ``peers`` is asked for and the tool is there."""


START_COST: dict[str, tuple[str, float]] = {"cpsat": ("cpsolve.engines.cpsat.library", 0.35)}
"""Engine name -> (the module through which its first run imports its library, CPU seconds
that import takes here; :func:`run` imports it before the engine's run, whose memory is
held to the limit, begins — a library's import is the process's start-up, not the run's):
a command does not start an engine whose start alone would not fit in the time left
(CP-SAT: OR-Tools' cp_model, 0.22 CPU s measured, and the engine's own modules, 0.05 s,
with a margin: at 0.25 s one start in 60 beside 8 busy processes still ended 0.05 s late)."""


def start_cost(name: str) -> float:
    """CPU seconds before engine ``name`` can look at its clock: its library's import, when
    this process has not loaded it yet (an import of compiled code cannot be stopped)."""
    import sys

    library, seconds = START_COST.get(name, ("", 0.0))
    return seconds if library and library not in sys.modules else 0.0


def late_start(name: str, seconds: float | None, share: float | None = None,
               limit: float | None = None) -> str | None:
    """Why engine ``name`` must not start with ``seconds`` left (``None``: it may): its start
    (:func:`start_cost`), at ``share`` of a core (default: what this process has had,
    :func:`~.runtime.cpu.process_share`), would take them all — an import of compiled
    code cannot be stopped, and the time limit would not hold.  The words name the time
    limit ``seconds`` are left of (``limit``, by default ``seconds``) as the user gave it
    (:func:`~.runtime.clock.reached`: ``time limit 5 s reached before cpsat started``)."""
    cost = start_cost(name)
    if seconds is None or not cost:
        return None
    if share is None:
        from .runtime.cpu import process_share

        share = process_share()
    if cost / share < seconds:
        return None
    from .runtime.clock import reached

    return (f"{reached(seconds if limit is None else limit)} before {name} started (its start "
            f"would take about {cost / share:.1f} s here, {seconds:.1f} s was left)")


def every() -> dict[str, str]:
    """Every engine a user may name (the CLI's choices), built-in then peers, as the
    registries are now."""
    return {**ENGINES, **PEERS}

TASKS = ("solve", "count", "analyze")

_LAZY = {"Options": "options", "Progress": "options"}
"""Names of this door defined in a module of their own, imported on first use: the
command line's start-up (``cpsolve --help``) loads no dataclass machinery."""


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def kind_of(model: Csp | Planning) -> str:
    """``"csp"`` or ``"planning"``."""
    return model.kind


def load(name: str):
    """The engine module called ``name``."""
    from ..answers.result import Unsupported

    engines = every()
    if name not in engines:
        raise Unsupported(f"unknown engine {name!r} (known: {', '.join(engines)})")
    return importlib.import_module(engines[name])


def capabilities(name: str) -> set[tuple[str, str]]:
    """The ``(kind, task)`` pairs an engine supports (imports only that engine)."""
    return set(load(name).CAPABILITIES)


def engines_for(model: Csp | Planning, task: str, peers: bool = False) -> list[str]:
    """Names of the engines that can do ``task`` on ``model``; with ``peers``, also the
    peer engines whose tool is installed (:data:`PEERS`).

    Every built-in engine is a dependency of cpsolve: one that fails to import is a
    broken installation, raised as an :class:`ImportError` naming the engine,
    never skipped.
    """
    return [name for name in (every() if peers else ENGINES)
            if (kind_of(model), task) in _capabilities(name) and installed(name)]


def not_applicable(model: Csp | Planning, task: str) -> list[str]:
    """Engines (built-in, and installed peers) that cannot do ``task`` on a model of this kind."""
    return [name for name in every() if (kind_of(model), task) not in _capabilities(name)
            and installed(name)]


def installed(name: str) -> bool:
    """True when a peer engine's external tool is there (built-in engines always are)."""
    return name not in PEERS or not load(name).tool_missing()


def _capabilities(name: str) -> set[tuple[str, str]]:
    try:
        return capabilities(name)
    except ImportError as err:
        raise ImportError(f"engine {name!r} ({every()[name]}) cannot be imported: {err}") \
            from err


def run(name: str, task: str, model: Csp | Planning, options: Options | None = None,
        late: str | None = None) -> Result:
    """Run one engine on one task and return its checked result; ``"auto"`` races CP-SAT
    and search as the command line's default does, and returns the race's answer
    (:func:`cpsolve.engines.auto.racing.answer`).

    A planning model that carries its family's own argument that no plan exists
    (:attr:`~cpsolve.model.planning.Planning.unsolvable`: the sliding puzzles' permutation
    parity) is answered with it before any engine starts, whichever engine (or ``auto``) is
    named: ``infeasible`` for a solve, an exact count of 0 for a count, proof ``parity``,
    engine name ``invariant`` (:func:`argued`), checked as every answer is.

    ``late``: the caller knows the engine cannot start in the time left (why, in words);
    :func:`late_start` may find so too.  The engine is then not started, but a proof that
    needs none still answers (:func:`not_started`).

    What engines handed over to be freed later (:mod:`.runtime.release`: their big tables,
    kept out of their way back) is freed before the engine starts and once its result is
    built (not in a process that ends right after its answer, :func:`~.release.until_exit`).

    Raises ``TypeError`` for arguments of the wrong kind (a puzzle for its model, a dict
    for :class:`Options`), saying what it takes; ``ValueError`` for an unknown task (one
    of :data:`TASKS`); :class:`Unsupported` when the engine
    cannot do the task, an option chooses what only another engine has
    (:func:`.option_choices.lacking`: ``algorithm`` for ``cpsat``) or applies to the other
    kind of model (:func:`.option_choices.wrong_kind`: ``unique`` for a planning model), and
    :class:`~cpsolve.answers.result.EngineBug` when its answer fails the check.

    Outside the command line (which states its own), the run's messages name
    ``options.time_limit`` as the limit, whatever share of it an engine had, and
    ``options.memory_limit`` holds the process as ``--memory-limit`` does
    (:func:`.runtime.memory.adopted`).
    """
    from dataclasses import replace

    from .options import Options
    from .runtime import clock, memory

    _arguments(task, model, options)
    options = options or Options()
    with clock.naming(options.time_limit), memory.adopted(options.memory_limit) as own:
        if own:  # an on-disk analysis's arrays: half of it, as the command line gives them
            options = replace(options, memory_limit=max(1, own // 2))
        if name == "auto":  # the race, loaded by name as the engines are: it runs them here
            return importlib.import_module(AUTO).answer(task, model, options, late)
        return _run(name, task, model, options, late)


def _run(name: str, task: str, model: Csp | Planning, options: Options,
         late: str | None) -> Result:
    """:func:`run`, its arguments checked and its limits in force."""
    from dataclasses import replace

    from ..answers.result import Unsupported
    from .option_choices import lacking, wrong_kind
    from .runtime import release

    release.now(before_next=True)  # what earlier runs left: before this one's clock starts
    module = load(name)
    if (kind_of(model), task) not in module.CAPABILITIES:
        raise Unsupported(f"engine {name!r} cannot {task} a {kind_of(model)} model")
    reason = module.supports(model) if hasattr(module, "supports") else None
    reason = reason or lacking(name, options) or wrong_kind(kind_of(model), options)
    if reason:
        raise Unsupported(f"engine {name!r}: {reason}")
    if (proven := argued(model, task, options.keep)) is not None:  # the model's own claim
        return proven  # needs no engine: answered (checked) before one starts, or is late
    start = time.perf_counter()
    late = late or late_start(name, options.time_limit)
    if late is not None:
        return not_started(name, task, model, options, late, start)
    if task == "count" and options.optimal and model.kind == "csp":
        return count_optimal(name, model, options)  # type: ignore[arg-type]
    streamed = None
    if options.on_solution is not None and model.kind == "csp":  # each checked as it comes
        from .streamed import Streamed

        streamed = Streamed(model, options.on_solution)  # type: ignore[arg-type]
        options = replace(options, on_solution=streamed)
    passed = None if streamed is None else streamed.passed
    audited, options = _audited(model, task, options, start)
    result: Result = _engine(module, name, task, model, options, start)
    if audited is not False:
        from .estimates import qualified

        result = qualified(result, audited)
    if options.time_limit is not None:  # the check may take 5 % more than the engine's time
        result = _checkable_in_time(model, result, start + 1.05 * options.time_limit, passed)
    result = checked(name, task, model, result, time.perf_counter() - start, passed)
    release.now()  # the engine's tables, now that nothing stands between a stop and the result
    return result


def _engine(module, name: str, task: str, model: Csp | Planning, options: Options,
            start: float) -> Result:
    """The engine's own answer, its run holding the memory limit
    (:func:`.runtime.memory.holding`): one cut off past it says so, having nothing to
    show; a first Ctrl-C it does not answer in time is followed by a second
    (:func:`.runtime.interrupt.escalating`)."""
    from ..answers.result import Result
    from .runtime import interrupt, memory

    try:
        with interrupt.escalating():
            if name in START_COST:
                importlib.import_module(START_COST[name][0])
            with memory.holding(f"running {name}"):
                return getattr(module, task)(model, options)
    except memory.MemoryUp:
        why = (f"{memory.reason(memory.limit() or 0)}; {name} did not stop within a tenth "
               "past it: what it had is lost")
        return Result.stopped(task, name, why, time.perf_counter() - start)


def _audited(model: Csp | Planning, task: str, options: Options, start: float
             ) -> tuple[int | None | bool, Options]:
    """A planning model's declared estimate audited before an engine rests a proof on it
    (:func:`.estimates.audit`: raises ``ModelError`` when it is not admissible), and the
    options with the time it took taken off the limit.  ``False``: no estimate, or one
    vouched for by its construction (``Planning.estimate_vouched``: a family's)."""
    from dataclasses import replace

    if model.kind != "planning" or task not in ("solve", "count") \
            or model.estimate is None or model.estimate_vouched:  # type: ignore[union-attr]
        return False, options
    from .estimates import audit

    audited = audit(model, options.time_limit)  # type: ignore[arg-type]
    if options.time_limit is not None:
        left = options.time_limit - (time.perf_counter() - start)
        options = replace(options, time_limit=max(left, 0.01))
    return audited, options


def _arguments(task: object, model: object, options: object) -> None:
    """``TypeError`` for an argument of :func:`run` of the wrong kind, in a sentence that
    says what it takes (a puzzle has no ``kind``, a dict no ``time_limit``: the error
    would come from deep inside, naming neither); ``ValueError`` for a task that is none
    of :data:`TASKS` (``"Solve"``), listing them."""
    from ..model import Csp, Planning
    from .options import Options

    if not isinstance(model, (Csp, Planning)):
        hint = ": puzzle.model" if hasattr(model, "model") else ""
        raise TypeError(f"run() takes a model (a Csp or Planning{hint}), not "
                        f"a {type(model).__name__}")
    if options is not None and not isinstance(options, Options):
        raise TypeError("run() takes its options as cpsolve.engines.Options(...) (or None), "
                        f"not a {type(options).__name__}")
    if not isinstance(task, str):
        raise TypeError(f"run() takes a task name ({', '.join(TASKS)}), not "
                        f"a {type(task).__name__}")
    if task not in TASKS:  # as an unknown engine is named (load): not "cannot Solve"
        from ..language.quoting import shown

        raise ValueError(f"unknown task {shown(task)} (known: {', '.join(TASKS)})")


def not_started(name: str, task: str, model: Csp | Planning, options: Options, late: str,
                start: float | None = None) -> Result:
    """The result of engine ``name`` (or of ``auto``, which starts none) when it cannot start
    in the time left (``late`` says why): the invariant proof every planning engine tries
    first (:func:`.unsolvable.before_search`) needs no engine, so a model it settles is
    answered all the same; otherwise nothing proven (the model's own argument,
    :func:`argued`, answered before: :func:`run`, :func:`.auto.racing.not_raced`)."""
    from ..answers.result import Result

    start = time.perf_counter() if start is None else start
    if model.kind == "planning" and task in ("solve", "count"):
        from .unsolvable import before_search

        proven = before_search(model, name, task, options.keep)  # type: ignore[arg-type]
        if proven is not None:
            return checked(name, task, model, proven, time.perf_counter() - start)
    return Result.stopped(task, name, late)


SAMPLE = 64
"""Listed solutions timed to learn what checking one costs (:func:`_checkable_in_time`)."""


def _checkable_in_time(model: Csp | Planning, result: Result, deadline: float,
                       passed: Callable[[Mapping[str, int]], bool] | None = None) -> Result:
    """A count under a time limit lists only the solutions the checker can re-check by
    ``deadline`` (``time.perf_counter()``), its first ones: checking thousands of them
    past the limit would make the limit not hold.  Those ``passed`` tells the checker already
    passed as they were streamed (:mod:`.streamed`) cost nothing more and are all kept.  The
    count itself stands (an exact count whose list is cut is no longer verified, and its
    message says so)."""
    from dataclasses import replace

    from ..answers.check.assignments import violations
    from ..answers.kinds import Count

    answer = result.answer
    if not isinstance(answer, Count) or not answer.solutions or model.kind != "csp":
        return result
    fresh = [i for i, values in enumerate(answer.solutions)
             if passed is None or not passed(values)]  # the ones still to re-check
    sample = [answer.solutions[i] for i in fresh[:SAMPLE]]
    if not sample:
        return result
    began = time.perf_counter()
    for values in sample:
        violations(model, values)
    each = (time.perf_counter() - began) / len(sample)
    room = deadline - time.perf_counter() - each * len(sample)
    fit = len(fresh) if each == 0 else max(0, int(room / each))
    if fit >= len(fresh):
        return result
    keep = fresh[fit]  # the first solution still to re-check that does not fit
    return result.but(answer=replace(answer, solutions=answer.solutions[:keep]),
                      message="; ".join(m for m in (result.message, list_cut(keep)) if m))


def list_cut(kept: int) -> str:
    """The words that end the message of a count whose list :func:`run` cut to its first
    ``kept`` solutions (:func:`_checkable_in_time`); a caller that asked for the solutions
    for its own use, not to list them (:func:`~cpsolve.workflows.grids.counting.count_up_to`
    sorts them into classes), says in its own words what the cut leaves it."""
    return (f"only the first {kept:,} of the solutions are listed: the checker could re-check "
            "no more within the time limit")


def count_optimal(name: str, model: Csp, options: Options) -> Result:
    """The optimal solutions of a csp with an objective, counted by engine ``name``: its
    proven optimum first (a checked solve), then the count of the solutions of that
    value (:meth:`~cpsolve.model.csp.Csp.with_objective`), in the time that is left."""
    from dataclasses import replace

    from ..answers.kinds import Assignment, Count
    from ..answers.result import Result, Status, Unsupported

    if model.objective is None:
        raise Unsupported("count --optimal: the model has no objective (minimize or maximize)")
    start = time.perf_counter()
    best = run(name, "solve", model, replace(options, optimal=False, on_solution=None))
    spent = time.perf_counter() - start
    if best.status is Status.INFEASIBLE:
        return checked(name, "count", model, Result.counted(
            name, Count(0), True, message="no solution exists"), spent)
    if best.status is not Status.OPTIMAL or not isinstance(best.answer, Assignment):
        return checked(name, "count", model, Result(
            Status.UNKNOWN, name, "count", message=f"the optimum was not proven: "
            f"{best.message or best.status.value}"), spent)
    value = best.answer.objective
    assert value is not None
    left = None if options.time_limit is None else max(options.time_limit - spent, 1e-3)
    counted = run(name, "count", model.with_objective(value),
                  replace(options, optimal=False, time_limit=left))
    what = f"{model.objective.sense} {model.objective.label}: optimum {value}"
    result = counted.but(message=f"{what}; {counted.message}".rstrip("; "),
                         details={**counted.details, "optimum": value},
                         verified=None, seconds=0.0)
    return checked(name, "count", model, result, time.perf_counter() - start)


def argued(model: Csp | Planning, task: str, keep: bool = False) -> Result | None:
    """The checked answer to ``task`` when the argument the model carries
    (:attr:`Planning.unsolvable <cpsolve.model.planning.Planning.unsolvable>`) proves that
    no plan exists (:func:`.unsolvable.claimed`: ``infeasible``, or an exact count of 0;
    proof ``parity``; engine name ``invariant``); None when it carries none.  :func:`run`
    gives it before any engine starts, and so does ``auto``'s race
    (:func:`.auto.racing.argued_race`).

    The answer goes through :func:`checked`: the checker re-derives the parity from the
    model (:func:`cpsolve.answers.check.proofs.parity_problem`) and the answer is
    ``verified``, or a wrong argument is an :class:`~cpsolve.answers.result.EngineBug`.
    """
    from .unsolvable import ARGUED, claimed

    result = claimed(model, task, keep)  # type: ignore[arg-type]
    if result is None:  # (the door's clock is not read: the engine's start is its first look)
        return None
    start = time.perf_counter()
    return checked(ARGUED, task, model, result, time.perf_counter() - start)


def checked(name: str, task: str, model: Csp | Planning, result: Result,
            seconds: float, passed: Callable[[Mapping[str, int]], bool] | None = None) -> Result:
    """``result``, the answer of ``name`` to ``task``, once the independent checker passed it
    (:func:`~cpsolve.answers.check.verify`), with its time and engine name: the last stage
    of :func:`run`, and of every answer given without an engine
    (:func:`argued`).

    ``passed`` tells the listed solutions the checker already passed as they were streamed
    (:class:`.streamed.Streamed`): they are not checked again.

    Raises :class:`~cpsolve.answers.result.EngineBug` when the answer is not one to
    ``task`` or fails the check.
    """
    from ..answers.check import verify
    from ..answers.result import EngineBug

    if result.task != task:
        raise EngineBug(f"engine {name!r} answered {result.task!r} when asked to {task}")
    return verify(model, result.but(seconds=seconds, engine=name), passed)
