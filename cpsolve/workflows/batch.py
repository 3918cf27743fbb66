"""Batches: many model files, a directory of them, or a collection file (one puzzle per line).

:func:`instances` lists what a batch holds, file by file and instance by
instance (a bad file is a row of its own, never the end of the batch);
:func:`solve_all` solves them in this process or in ``jobs`` worker
processes and yields one :class:`Row` per instance, in order.

In a batch, ``auto`` runs the search engine and hands an instance it could
not prove to CP-SAT (one process per instance would cost more than most
instances take); ``compare`` is the command for cross-checks.

On a Dask cluster (:func:`on_cluster`, through :mod:`cpsolve.engines.runtime.dask_client`) each
instance is one task — :func:`solve_one`, or :func:`compare_one` for
``compare`` — and results come back as they finish: an instance whose task
fails (its worker died) or is still running at the time limit becomes an
error row of its own, one that the time limit or Ctrl-C came before a row not started
(:attr:`Row.status`); the others are never lost.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from ..answers.agreement import cross_check, disagreements
from ..answers.result import STATUSES, EngineBug, EngineFailed, Result, Skipped, Unsupported
from ..engines import Options, engines_for, not_applicable, run
from ..engines.auto import proven
from ..engines.proofs import ARGUED
from ..engines.runtime import interrupt
from ..engines.runtime.clock import FLOOR, Clock, TimeUp
from ..engines.runtime.memory import MemoryUp
from ..puzzles.base import Puzzle
from ..puzzles.data import ModelFileError
from ..puzzles.files import load_many, resolve
from .impossible import by_invariant
from .jobs import in_order, not_started

CLUSTER_GRACE = 10.0
"""Seconds past a cluster task's budget before the batch gives up waiting for it — never
past the batch's own end under a time limit (:func:`cluster_time`)."""

CLUSTER_RETURN = 1.0
"""Seconds of a command's time limit kept, on a cluster, between the end of the tasks'
budgets and the end of the batch's waiting: a task's answer comes back to the client
(a worker's engine stops at its next step, on a loaded machine too).  At most a quarter of
the time left (:func:`cluster_time`)."""

CLUSTER_CLOSE = 0.5
"""Seconds of a command's time limit kept, on a cluster, after the batch's waiting: the
client closed (a local cluster's workers killed or closed), before the command's own tail
(the summary printed).  At most an eighth of the time left (:func:`cluster_time`)."""


@dataclass(frozen=True)
class Item:
    """One instance of a batch: where it comes from, and its puzzle or why there is none."""

    source: str
    puzzle: Puzzle | None = None
    error: str = ""
    at_limit: bool = False
    """The error is a limit of the command (its time limit, the memory limit), reached while
    the file loaded: a limit, not a bad file."""


@dataclass(frozen=True)
class Row:
    """One solved instance: its source, puzzle and result, or why there is none (``error``:
    an error, or what came before it started)."""

    source: str
    puzzle: Puzzle | None
    result: Result | None
    error: str = ""
    at_limit: bool = False
    """The instance's file was still loading at the command's time limit (or not loaded
    after that), or passed the memory limit as it loaded: a limit, not a bad file."""
    started: bool = True
    """False: the command's time limit or a stop (Ctrl-C) came before the instance was
    solved — its file still loading or not loaded, or no engine started on it."""

    @property
    def status(self) -> str:
        """The row's status: its result's (``optimal``, ``unknown``, ...), or without one
        :data:`NOT_STARTED` (a limit or a stop came first: not an error) or ``error`` (a bad
        file, a model no engine takes, a worker that failed)."""
        if self.result is not None:
            return self.result.status.value
        return NOT_STARTED if not self.started else "error"


NOT_STARTED = "not_started"
"""The status of a batch row that the time limit or a stop came before."""

ROW_STATUSES = (*(s.value for s in STATUSES["solve"]), NOT_STARTED, "error")
"""Every status a batch row can have (:attr:`Row.status`)."""


def is_batch(names: list[str]) -> bool:
    """True unless ``names`` is one model file holding one puzzle."""
    if len(names) != 1:
        return True
    path = resolve(names[0])
    return path.is_dir()


def files_of(names: Iterable[str]) -> list[tuple[str, Path]]:
    """The model files named, each with the name the output gives it: a file (or bundled
    model) as the user named it, a directory expanded to its model files (named by the
    directory as given and the file's name).  A directory's model files are its entries
    named ``*.toml`` or ``*.py`` that are not directories: one that is no regular file (a
    pipe, a device, a link that leads nowhere or round in a loop) is listed too, and its
    loading says why it is refused — a row of its own, never silently left out."""
    out: list[tuple[str, Path]] = []
    for name in names:
        path = resolve(name)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.suffix in (".toml", ".py") and not p.is_dir())
            if not found:
                raise ModelFileError(path, "a directory with no model files (*.toml, *.py)")
            out.extend((os.path.join(name, p.name), p) for p in found)
        else:
            out.append((name, path))
    return out


def instances(names: Iterable[str] | list[tuple[str, str]],
              loading: Callable[[str], AbstractContextManager] | None = None) -> Iterator[Item]:
    """Every instance of every named file or directory, in order; or of every PDDL
    ``(domain, problem)`` pair (one problem per row).

    ``loading(what)`` guards each file's loading (the command's clock: a model file that
    loads for ever — a Python ``build()`` that never returns — stops at the time limit);
    a file stopped there, and every file after it, is an error item of its own.  A file
    that passes the memory limit as it loads is one too; what it held is freed, and the
    next files load."""
    names = list(names)
    if names and isinstance(names[0], tuple):
        yield from _pddl_instances(names)
        return
    late = ""
    for name, path in files_of(names):
        if late:
            yield Item(name, error=f"not loaded: {late}", at_limit=True)
            continue
        try:
            with loading(f"loading {name}") if loading else nullcontext():
                puzzles = list(load_many(path))
        except ModelFileError as err:
            yield Item(name, error=str(err))
            continue
        except TimeUp as err:
            late = "time limit reached"
            yield Item(name, error=str(err), at_limit=True)
            continue
        except MemoryUp as err:
            yield Item(name, error=str(err), at_limit=True)
            continue
        if len(puzzles) == 1:
            yield Item(name, puzzles[0])
        else:
            for i, puzzle in enumerate(puzzles, start=1):
                if isinstance(puzzle, ModelFileError):  # a bad line: its own error row
                    yield Item(f"{name}#{i}", error=str(puzzle))
                else:
                    yield Item(f"{name}#{i}", puzzle)


def _pddl_instances(pairs: list[tuple[str, str]]) -> Iterator[Item]:
    from ..puzzles.pddl_task import load as load_pddl

    for domain, problem in pairs:
        try:
            yield Item(str(problem), load_pddl(domain, problem))
        except ModelFileError as err:
            yield Item(str(problem), error=str(err))


def unloaded(item: Item) -> Row | None:
    """The row of an item whose file did not load (its error, and whether that is the time
    limit), or ``None`` for an item that did."""
    if item.puzzle is not None:
        return None
    return Row(item.source, None, None, item.error, item.at_limit, started=not item.at_limit)


def answering(engine: str) -> list[str]:
    """The engines a batch row can name when the batch runs ``engine``: ``auto``'s two
    (:func:`solve_one`) or ``engine`` itself, and the puzzle's own argument."""
    return [*(("search", "cpsat") if engine == "auto" else (engine,)), ARGUED]


def solve_one(item: Item, engine: str, options: Options) -> Row:
    """Solve one instance (``auto``: search with half of the time limit, then CP-SAT with
    what is left when search proved nothing)."""
    if (row := unloaded(item)) is not None:
        return row
    model = item.puzzle.model
    try:
        proof = by_invariant(item.puzzle, "solve")  # the puzzle's own argument, as in `solve`
        if proof is not None:
            return Row(item.source, item.puzzle, proof)
        if engine != "auto":
            return Row(item.source, item.puzzle, run(engine, "solve", model, options))
        clock = Clock(options.time_limit)
        result = run("search", "solve", model, replace(options, time_limit=clock.share(2)))
        if not proven(result) and not interrupt.requested():
            try:
                other = run("cpsat", "solve", model, replace(options, time_limit=clock.left()))
                result = better(result, other)
            except Unsupported:
                pass
        return Row(item.source, item.puzzle, result)
    except (Unsupported, EngineBug) as err:
        return Row(item.source, item.puzzle, None, str(err))


def better(first: Result, second: Result) -> Result:
    """The result of ``auto`` in a batch, of search's ``first`` and CP-SAT's ``second``:
    CP-SAT's when it proved its answer, or found one where search had none, or knows a
    higher bound where neither has one (CP-SAT not started in time knows nothing)."""
    if proven(second) or (first.answer is None and second.answer is not None):
        return second
    if first.answer is None and second.answer is None and \
            (second.bound or 0) > (first.bound or 0):
        return second
    return first


def solve_all(items: Iterable[Item], engine: str, options: Options, jobs: int = 1,
              clock: Clock | None = None, keep: float = 0.0) -> Iterator[Row]:
    """Solve every item, in order; ``jobs`` > 1 uses that many worker processes
    (:func:`cpsolve.workflows.jobs.in_order`), which share the memory limit.

    Each instance gets what is left of ``clock`` (the command's), less ``keep`` seconds
    for what follows the batch (its rows printed, the process ended), as its time limit;
    one still running ``clock.grace()`` past the clock's limit is cut off (its row says
    so).  Instances after the limit, or after Ctrl-C, are rows not started, saying why; with
    ``jobs``, one stopped there without an answer has nothing proven (``unknown``).
    """
    items = list(items)
    left = None if clock is None else clock.left()
    deadline = None if left is None else time.monotonic() + max(FLOOR, left - keep)
    if jobs > 1:
        def work(index: int, time_limit: float | None) -> tuple[Result | None, str, bool]:
            row = solve_one(items[index], engine, _limited(options, time_limit))
            return row.result, row.error, True

        def failed(index: int, why: str) -> tuple[Result | None, str, bool]:
            return None, why, True

        def unstarted(index: int, why: str) -> tuple[Result | None, str, bool]:
            return None, why, False

        def stopped(index: int, why: str) -> tuple[Result | None, str, bool]:
            return Result.stopped("solve", engine, why), "", True

        grace = None if clock is None else clock.grace()
        for item, (result, error, started) in zip(items, in_order(
                len(items), work, failed, jobs, deadline, grace, unstarted, stopped)):
            # an item that did not load keeps its own error, even past the deadline
            yield unloaded(item) or Row(item.source, item.puzzle, result, error,
                                        started=started)
        return
    for item in items:
        why = not_started(deadline)
        if why:
            yield unloaded(item) or Row(item.source, item.puzzle, None, why, started=False)
            continue
        yield _solved_within(item, engine, options, deadline, clock)


def _solved_within(item: Item, engine: str, options: Options, deadline: float | None,
                   clock: Clock | None) -> Row:
    """:func:`solve_one` with what is left until ``deadline`` (``time.monotonic()``), cut
    off ``clock.grace()`` past the clock's limit (an engine that does not stop: an import,
    a model's facts)."""
    left = None if deadline is None else max(deadline - time.monotonic(), FLOOR)
    if clock is None:
        return solve_one(item, engine, _limited(options, left))
    start = time.monotonic()
    try:
        with clock.guard(f"solving {item.source}", clock.grace()):
            return solve_one(item, engine, _limited(options, left))
    except TimeUp:
        return Row(item.source, item.puzzle,
                   Result.cut_off("solve", engine, time.monotonic() - start))


def _limited(options: Options, time_limit: float | None) -> Options:
    """What one instance of a batch is asked: the batch's options, with ``time_limit``."""
    return Options(time_limit=time_limit, limit=options.limit, algorithm=options.algorithm,
                   find_hint=options.find_hint, encoding=options.encoding,
                   unique=options.unique, no_time_limit=options.no_time_limit)


def summary(rows: list[Row], seconds: float, engine: str) -> dict[str, Any]:
    """Counts per status, errors, and throughput of a finished batch."""
    statuses: dict[str, int] = {}
    for row in rows:
        statuses[row.status] = statuses.get(row.status, 0) + 1
    return {"instances": len(rows), "engine": engine, "seconds": round(seconds, 6),
            "per_second": round(len(rows) / seconds, 3) if seconds > 0 else None,
            "statuses": statuses,
            "verified": sum(1 for r in rows if r.result is not None and r.result.verified)}


@dataclass(frozen=True)
class Compared:
    """One instance through every engine that applies: the results (or why an engine was
    skipped) and what two of them disagree on."""

    source: str
    puzzle: Puzzle | None
    results: tuple[Result, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    problems: tuple[str, ...] = ()
    error: str = ""
    stopped: bool = False
    """An engine was stopped at once by ``KeyboardInterrupt`` (Ctrl-C): the user's stop."""


def compare_model(item: Item, task: str, time_limit: float | None = None,
                  options: Options | None = None,
                  running: Callable[[str], AbstractContextManager[Options]] | None = None,
                  ) -> Compared:
    """Run ``task`` on ``item``'s puzzle with every engine that applies — the built-in ones
    and the installed peers (``fd``, ``minizinc``) — one after the other, each with an
    equal share of what is left of ``time_limit`` plus its start (:func:`engine_share`;
    ``None``: none given, ``math.inf``: none at all, :attr:`Options.no_time_limit`),
    and cross-check their results.  Those with a start to pay (CP-SAT's first import) run
    last, with what the others left: under a short limit the quick ones still answer, and
    the results are listed in the engines' own order.

    Each run takes ``options`` (default: none), or those that ``running(engine)`` gives
    (the command line: a progress line per engine).  The engines that cannot do ``task``
    on this kind of model are listed as skipped, and so are those not run after a stop
    was asked for.  An :class:`EngineBug` is raised.  ``running`` may stop an engine with
    :class:`TimeUp` (the command's clock), and Ctrl-C with ``KeyboardInterrupt``: its result
    then has nothing proven, and the next engines are not run.
    """
    assert item.puzzle is not None, item.error
    puzzle = item.puzzle
    proof = by_invariant(puzzle, task)
    if proof is not None:
        return Compared(item.source, puzzle, (proof,))
    engines = engines_for(puzzle.model, task, peers=True)
    skipped = [Skipped(engine, f"not applicable (cannot {task} a {puzzle.model.kind} model)")
               for engine in not_applicable(puzzle.model, task)]
    ran: dict[str, Result | Skipped] = {}
    stopped = False
    clock = Clock(time_limit)
    order = sorted(engines, key=lambda engine: start_seconds([engine]) > 0)
    for i, engine in enumerate(order):
        if interrupt.requested():
            ran[engine] = Skipped(engine, f"not run: {interrupt.reason()}")
            continue
        seconds = time_limit if clock.limit is None else engine_share(clock, order[i:])
        ran[engine], lost = _one_engine(
            engine, task, puzzle.model, seconds,
            partial(running, engine) if running else partial(nullcontext, options or Options()))
        stopped = stopped or lost
    results = [ran[e] for e in engines if isinstance(ran[e], Result)]
    skipped += [ran[e] for e in engines if isinstance(ran[e], Skipped)]
    problems = disagreements(results)
    if not problems:
        results = cross_check(results)
    return Compared(item.source, puzzle, tuple(results), tuple(skipped), tuple(problems),
                    stopped=stopped)


def _one_engine(engine: str, task: str, model, seconds: float | None,
                running: Callable[[], AbstractContextManager[Options]]
                ) -> tuple[Result | Skipped, bool]:
    """One engine's part of :func:`compare_model`, within ``seconds``, run inside
    ``running()`` (which gives its options): its result, or why it was skipped, and
    whether Ctrl-C stopped it at once.  The command's clock may stop it (:class:`TimeUp`,
    or an ``ImportError`` from an import it cut: nothing proven), and Ctrl-C
    (``KeyboardInterrupt``: what it had is lost, a stop is asked for, so the next engines
    are not run)."""
    try:
        with running() as given:
            return run(engine, task, model, replace(given, time_limit=seconds)), False
    except Unsupported as err:
        return Skipped(engine, str(err)), False
    except EngineFailed as err:  # an external tool's own failure: the others go on
        return Skipped(engine, f"failed: {err}"), False
    except (TimeUp, ImportError) as err:  # pybind11 makes the clock's stop an ImportError
        if isinstance(err, ImportError) and not interrupt.requested():
            raise  # a broken installation
        return Result.cut_off(task, engine), False
    except KeyboardInterrupt:  # a second Ctrl-C, or a first one the engine did not answer
        interrupt.request()  # within a second (:func:`interrupt.escalating`)
        return Result.lost(task, engine), True



def start_seconds(engines: Iterable[str]) -> float:
    """Wall seconds the starts of ``engines`` would take now: each one's
    :func:`~cpsolve.engines.start_cost` (an import not made yet) at the share of a core this
    process has had (:func:`~cpsolve.engines.runtime.clock.process_share`)."""
    from ..engines import start_cost
    from ..engines.runtime.clock import process_share

    cost = sum(start_cost(engine) for engine in engines)
    return cost / process_share() if cost else 0.0


def engine_share(clock: Clock, engines: list[str]) -> float | None:
    """The seconds of ``engines[0]``, the first of the engines still to run on one model
    within ``clock``: an equal share of what is left once their starts are paid
    (:func:`start_seconds`), plus its own start — an engine whose import takes the time of
    an equal share would never run (CP-SAT under a limit of a few seconds).  Starts that
    would take more than half of what is left are not kept for: those engines will not
    start (:func:`~cpsolve.engines.late_start` says so), and the others share it all."""
    left = clock.left()
    if left is None:
        return None
    own, starts = start_seconds(engines[:1]), start_seconds(engines)
    if not affordable(starts, left):
        return max(FLOOR, left / max(1, len(engines)))
    return max(FLOOR, (left - starts) / max(1, len(engines)) + own)


def affordable(start: float, left: float) -> bool:
    """True when a start of ``start`` seconds is worth keeping time for out of ``left``: at
    most half of it (the engine then has time to work after its start)."""
    return start <= left / 2


def unreached(item: Item, task: str, why: str) -> Compared:
    """A model ``compare`` did not get to (``why``: the time limit, Ctrl-C came first):
    every engine that applies listed as not run, with ``why``."""
    assert item.puzzle is not None, item.error
    model = item.puzzle.model
    skipped = [Skipped(engine, f"not applicable (cannot {task} a {model.kind} model)")
               for engine in not_applicable(model, task)]
    skipped += [Skipped(engine, f"not run: {why}")
                for engine in engines_for(model, task, peers=True)]
    return Compared(item.source, item.puzzle, skipped=tuple(skipped))


def compare_one(item: Item, task: str, time_limit: float | None = None,
                options: Options | None = None) -> Compared:
    """:func:`compare_model` as one task of a cluster: a file that did not load, or an
    engine bug, is the instance's error."""
    if item.puzzle is None:
        return Compared(item.source, None, error=item.error)
    try:
        return compare_model(item, task, time_limit, options)
    except EngineBug as err:
        return Compared(item.source, item.puzzle, error=f"engine bug: {err}")


def solve_within(item: Item, engine: str, options: Options,
                 time_limit: float | None = None) -> Row:
    """:func:`solve_one` with ``time_limit`` seconds (a cluster task's budget)."""
    return solve_one(item, engine, replace(options, time_limit=time_limit))


@dataclass(frozen=True)
class TaskBudget:
    """The seconds each instance of a batch or compare gets: with a command time limit
    (``clock``), an equal share of what is left among the instances still to start, run
    ``slots`` at a time, less the ``keep`` seconds that follow them (their answers checked
    and printed, the process ended); without one, ``each`` (``None``: no limit)."""

    clock: Clock
    each: float | None = None
    keep: float = 0.0

    def seconds(self, remaining: int, slots: int = 1) -> float | None:
        """The next instance's seconds; zero or less once the command's time is up."""
        if self.clock.limit is None:
            return self.each
        left = self.clock.limit - self.clock.elapsed() - self.keep
        return left / math.ceil(max(1, remaining) / max(1, slots))


def import_dask() -> None:
    """Import Dask now, for a batch or compare on a cluster (under the caller's clock:
    :func:`cpsolve.engines.runtime.dask_client.import_dask`)."""
    from ..engines.runtime.dask.client import import_dask as now

    now()


def on_cluster(items: list[Item], work, cluster: int | str, budget: TaskBudget,
               failed, unstarted=None, cut=None) -> Iterator:
    """``work(item, time_limit=...)`` for every item as one task on a Dask cluster, yielded
    as they finish (:func:`cpsolve.engines.runtime.dask_client.each`).

    Each task gets its seconds from ``budget`` when it starts; one with none left, or not
    submitted before Ctrl-C or because the cluster did not start, is ``unstarted(item,
    "not started: ...")`` (``failed`` by default).  ``failed(item, reason)`` stands in for
    the answer of an item whose task raised (its worker died), had not finished
    :data:`CLUSTER_GRACE` seconds past its budget, or was stopped by Ctrl-C.  Under a
    time limit the batch ends on its own before the command's clock does
    (:func:`cluster_time`): a task still running then is ``cut(item, "not finished: time
    limit ... reached")`` (``failed`` by default), an item not submitted ``unstarted``.

    An item whose file did not load is no task: its answer, ``work``'s on that item here
    (its own error, which names the file), comes after the cluster's, also when they
    were cut short by a stop; with no item loaded no cluster is started.
    """
    from ..engines.runtime.dask.tasks import each

    loaded = [item for item in items if item.puzzle is not None]
    if loaded:
        tasks, until = cluster_time(budget)
        for done in each(loaded, work, cluster, tasks.seconds, CLUSTER_GRACE,
                         start=(until or budget.clock).left(), until=until):
            if not done.error:
                yield done.value
            elif done.cut_off:
                yield (cut or failed)(done.item, done.error)
            else:
                yield (failed if done.started else unstarted or failed)(done.item, done.error)
    yield from (work(item, time_limit=None) for item in items if item.puzzle is None)


def cluster_time(budget: TaskBudget) -> tuple[TaskBudget, Clock | None]:
    """The tasks' budget and the batch's own clock on a cluster, under the command's clock
    (``budget.clock``; none without a limit): the batch stops waiting for its tasks
    :data:`CLUSTER_CLOSE` before the ``budget.keep`` seconds that end the command (the
    summary printed), so that the command's clock never cuts it — its :data:`CLUSTER_GRACE`
    for a late task is bounded by that; the tasks' budgets end :data:`CLUSTER_RETURN`
    earlier still, for their answers to come back."""
    left = budget.clock.left()
    if left is None:
        return budget, None
    spare = max(0.0, left - budget.keep)
    close, back = min(CLUSTER_CLOSE, spare / 8), min(CLUSTER_RETURN, spare / 4)
    return (replace(budget, keep=budget.keep + close + back),
            budget.clock.child(max(0.0, spare - close)))
