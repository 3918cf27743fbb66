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
error row of its own; the others are never lost.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from ..answers.agreement import cross_check, disagreements
from ..answers.result import EngineBug, Result, Skipped, Unsupported
from ..engines import Options, engines_for, run
from ..engines.auto import proven
from ..engines.proofs import argued
from ..engines.runtime.clock import Clock
from ..puzzles.base import Puzzle
from ..puzzles.data import ModelFileError
from ..puzzles.files import load_many, resolve
from .jobs import in_order, not_started

CLUSTER_GRACE = 10.0
"""Seconds past an instance's own time limit before the batch gives up waiting for it."""


@dataclass(frozen=True)
class Item:
    """One instance of a batch: where it comes from, and its puzzle or why there is none."""

    source: str
    puzzle: Puzzle | None = None
    error: str = ""


@dataclass(frozen=True)
class Row:
    """One solved instance: its source, puzzle and result, or the error that stopped it."""

    source: str
    puzzle: Puzzle | None
    result: Result | None
    error: str = ""


def is_batch(names: list[str]) -> bool:
    """True unless ``names`` is one model file holding one puzzle."""
    if len(names) != 1:
        return True
    path = resolve(names[0])
    return path.is_dir()


def files_of(names: Iterable[str]) -> list[Path]:
    """The model files named: files as given, directories expanded to their model files."""
    out: list[Path] = []
    for name in names:
        path = resolve(name)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.suffix in (".toml", ".py") and p.is_file())
            if not found:
                raise ModelFileError(path, "a directory with no model files (*.toml, *.py)")
            out.extend(found)
        else:
            out.append(path)
    return out


def instances(names: Iterable[str]) -> Iterator[Item]:
    """Every instance of every named file or directory, in order."""
    for path in files_of(names):
        try:
            puzzles = list(load_many(path))
        except ModelFileError as err:
            yield Item(str(path), error=str(err))
            continue
        if len(puzzles) == 1:
            yield Item(str(path), puzzles[0])
        else:
            for i, puzzle in enumerate(puzzles, start=1):
                yield Item(f"{path}#{i}", puzzle)


def solve_one(item: Item, engine: str, options: Options) -> Row:
    """Solve one instance (``auto``: search, then CP-SAT when search proved nothing)."""
    if item.puzzle is None:
        return Row(item.source, None, None, item.error)
    model = item.puzzle.model
    try:
        proof = by_invariant(item.puzzle, "solve")  # the puzzle's own argument, as in `solve`
        if proof is not None:
            return Row(item.source, item.puzzle, proof)
        if engine != "auto":
            return Row(item.source, item.puzzle, run(engine, "solve", model, options))
        result = run("search", "solve", model, options)
        if not proven(result):
            try:
                other = run("cpsat", "solve", model, options)
                if proven(other) or result.answer is None:
                    result = other
            except Unsupported:
                pass
        return Row(item.source, item.puzzle, result)
    except (Unsupported, EngineBug) as err:
        return Row(item.source, item.puzzle, None, str(err))


def solve_all(items: Iterable[Item], engine: str, options: Options, jobs: int = 1,
              clock: Clock | None = None) -> Iterator[Row]:
    """Solve every item, in order; ``jobs`` > 1 uses that many worker processes
    (:func:`cpsolve.workflows.jobs.in_order`), which share the memory limit.

    Each instance gets what is left of ``clock`` (the command's) when it starts as its
    time limit; instances after the limit, or after Ctrl-C, are rows with an error
    saying so.
    """
    items = list(items)
    left = None if clock is None else clock.left()
    deadline = None if left is None else time.monotonic() + left
    if jobs > 1:
        def work(index: int, time_limit: float | None) -> tuple[Result | None, str]:
            row = solve_one(items[index], engine, _limited(options, time_limit))
            return row.result, row.error

        def failed(index: int, why: str) -> tuple[Result | None, str]:
            return None, why

        for item, (result, error) in zip(items, in_order(len(items), work, failed, jobs,
                                                         deadline)):
            yield Row(item.source, item.puzzle, result, error)
        return
    for item in items:
        why = not_started(deadline)
        if why:
            yield Row(item.source, item.puzzle, None, why)
            continue
        left = None if deadline is None else max(deadline - time.monotonic(), 0.01)
        yield solve_one(item, engine, _limited(options, left))


def _limited(options: Options, time_limit: float | None) -> Options:
    """What one instance of a batch is asked: the batch's options, with ``time_limit``."""
    return Options(time_limit=time_limit, limit=options.limit, algorithm=options.algorithm,
                   find_hint=options.find_hint)


def summary(rows: list[Row], seconds: float, engine: str) -> dict[str, Any]:
    """Counts per status, errors, and throughput of a finished batch."""
    statuses: dict[str, int] = {}
    for row in rows:
        key = row.result.status.value if row.result is not None else "error"
        statuses[key] = statuses.get(key, 0) + 1
    return {"instances": len(rows), "engine": engine, "seconds": round(seconds, 6),
            "per_second": round(len(rows) / seconds, 3) if seconds > 0 else None,
            "statuses": statuses,
            "verified": sum(1 for r in rows if r.result is not None and r.result.verified)}


def by_invariant(puzzle: Puzzle, task: str, keep: bool = False) -> Result | None:
    """The answer to ``task`` when the puzzle's own argument proves that none exists
    (:meth:`~cpsolve.puzzles.base.Puzzle.impossibility`), before any engine runs: for a solve
    and for a count of optimal plans alike.  It is given by
    :func:`cpsolve.engines.proofs.argued`, and checked there as every engine's answer is
    (a wrong argument raises :class:`~cpsolve.answers.result.EngineBug`)."""
    return argued(puzzle.model, task, puzzle.impossibility(), keep)


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


def compare_one(item: Item, task: str, time_limit: float | None = None) -> Compared:
    """Run ``task`` with every engine that applies, each with an equal share of the limit."""
    if item.puzzle is None:
        return Compared(item.source, None, error=item.error)
    try:
        proof = by_invariant(item.puzzle, task)
    except EngineBug as err:
        return Compared(item.source, item.puzzle, error=f"engine bug: {err}")
    if proof is not None:
        return Compared(item.source, item.puzzle, (proof,))
    engines = engines_for(item.puzzle.model, task)
    results, skipped = [], []
    clock = Clock(time_limit)
    for i, engine in enumerate(engines):
        left = clock.share(len(engines) - i)
        try:
            results.append(run(engine, task, item.puzzle.model, Options(time_limit=left)))
        except Unsupported as err:
            skipped.append(Skipped(engine, str(err)))
        except EngineBug as err:
            return Compared(item.source, item.puzzle, error=f"engine bug: {err}")
    problems = disagreements(results)
    if not problems:
        results = cross_check(results)
    return Compared(item.source, item.puzzle, tuple(results), tuple(skipped), tuple(problems))


def solve_within(item: Item, engine: str, options: Options,
                 time_limit: float | None = None) -> Row:
    """:func:`solve_one` with ``time_limit`` seconds (a cluster task's share of the limit)."""
    return solve_one(item, engine, replace(options, time_limit=time_limit))


def on_cluster(items: list[Item], work, cluster: int | str, time_limit: float | None,
               failed) -> Iterator:
    """``work(item, time_limit=...)`` for every item as one task on a Dask cluster, yielded
    as they finish.

    ``time_limit`` is for the whole batch: a task gets what is left of it when it starts
    (one started after it gets none and is ``failed(item, "not started: ...")``).
    ``failed(item, reason)`` also stands in for the answer of an item whose task raised (its
    worker died) or had not finished ``CLUSTER_GRACE`` seconds after ``time_limit``.
    """
    from ..engines.runtime.dask_client import each

    deadline = None if time_limit is None else time.time() + time_limit
    timed = partial(_timed, work=work, deadline=deadline, failed=failed)
    timeout = None if time_limit is None else time_limit + CLUSTER_GRACE
    for item, value, why in each(items, timed, cluster, timeout):
        yield failed(item, why) if why else value


def _timed(item: Item, work, deadline: float | None, failed):
    """Run ``work`` on ``item`` with what is left until ``deadline`` (wall-clock seconds)."""
    if deadline is None:
        return work(item, time_limit=None)
    left = deadline - time.time()
    if left <= 0:
        return failed(item, "not started: time limit reached")
    return work(item, time_limit=left)
