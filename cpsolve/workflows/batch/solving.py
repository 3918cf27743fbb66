"""Solving a batch's instances into rows: one at a time (:func:`solve_one`: ``auto`` runs
search, then CP-SAT on what search did not prove: :func:`cpsolve.engines.auto.turns.in_turn`),
or all of them in order, in this process or in worker processes, within the command's clock
(:func:`solve_all`)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import replace

from ...answers.result import EngineBug, Result, Unsupported
from ...engines import Options, run
from ...engines.auto import Race
from ...engines.auto.turns import in_turn
from ...engines.option_choices import for_kind
from ...engines.runtime import interrupt
from ...engines.runtime.clock import FLOOR, Clock, TimeUp, on_a_share
from ...engines.unsolvable import ARGUED
from ...model import ModelError
from ..jobs import in_order, not_started
from .items import Item, refusal
from .rows import Row, unloaded


def answering(engine: str) -> list[str]:
    """The engines a batch row can name when the batch runs ``engine``: ``auto``'s two
    (:func:`solve_one`) or ``engine`` itself, and the puzzle's own argument."""
    return [*(("search", "cpsat") if engine == "auto" else (engine,)), ARGUED]


def solve_one(item: Item, engine: str, options: Options) -> Row:
    """Solve one instance (``auto``: search with half of the time limit, then CP-SAT with
    what is left when search proved nothing, :func:`~cpsolve.engines.auto.turns.in_turn`;
    the row's seconds are both runs', whichever engine's answer it keeps).  Its time limit
    is its share of the command's, and a row stopped by it says so
    (:func:`~cpsolve.engines.runtime.clock.on_a_share`)."""
    if (row := unloaded(item)) is not None:
        return row
    with on_a_share():
        return _solved(item, engine, options)


def _solved(item: Item, engine: str, options: Options) -> Row:
    """:func:`solve_one` of a loaded instance."""
    model = item.puzzle.model
    options = for_kind(model.kind, options)  # a batch's --unique, --algorithm bfs: its kind's
    try:
        if engine != "auto":
            return Row(item.source, item.puzzle, run(engine, "solve", model, options))
        return _auto_row(item, in_turn("solve", model, options))
    except Unsupported as err:  # no engine takes it: a bad command line for this model, as
        return Row(item.source, item.puzzle, None, refusal(item.source, err),  # under solve
                   refused=True)
    except EngineBug as err:  # the instance's row; the batch goes on, and exits 3
        return Row(item.source, item.puzzle, None, err.said(), bug=True)
    except ModelError as err:  # the engines refused the model (an estimate over the cost):
        return Row(item.source, item.puzzle, None, refusal(item.source, err), refused=True)


def _auto_row(item: Item, race: Race) -> Row:
    """The row of ``auto``'s answer: an engine whose answer failed the check is the row's
    bug (a bug in cpsolve, exit 3; its message says so too), and the other engine's answer
    stands, as in ``solve``'s race; the engines' disagreements are the row's, as they are
    ``solve``'s (exit 1)."""
    bugs = "; ".join(f"{check.engine}: {check.bug}" for check in race.bugs)
    result = race.result
    if bugs:
        result = result.but(message="; ".join(m for m in (result.message, bugs) if m))
    return Row(item.source, item.puzzle, result, bugs, bug=bool(bugs),
               disagreements=race.problems)


def solve_all(items: Iterable[Item], engine: str, options: Options, jobs: int = 1,
              clock: Clock | None = None, keep: float = 0.0) -> Iterator[Row]:
    """Solve every item, in order; ``jobs`` > 1 uses that many worker processes
    (:func:`cpsolve.workflows.jobs.in_order`), which share the memory limit.

    ``items`` are taken one at a time, each just before it is solved (or handed to a
    worker): a batch's files load as it goes (:func:`.items.instances`), so a file that
    loads slowly (a Python model's ``build()`` that never returns, stopped at the time
    limit) never costs the instances before it their time.  Each instance gets what is
    left of ``clock`` (the command's), less ``keep`` seconds for what follows the batch
    (its rows printed, the process ended), as its time limit; one still running
    ``clock.grace()`` past the clock's limit is cut off (its row says so).  Instances after
    the limit, or after Ctrl-C, are rows not started, saying why; with ``jobs``, one
    stopped there without an answer has nothing proven (``unknown``).
    """
    left = None if clock is None else clock.left()
    deadline = None if left is None else time.monotonic() + max(FLOOR, left - keep)
    if jobs > 1:
        yield from _in_workers(iter(items), engine, options, jobs, deadline, clock)
        return
    for item in interrupt.each_on_its_own(items):  # a memory stop is its instance's only
        why = not_started(deadline)
        if why:
            yield unloaded(item) or Row(item.source, item.puzzle, None, why, started=False)
            continue
        yield _solved_within(item, engine, options, deadline, clock)


def _in_workers(items: Iterator[Item], engine: str, options: Options, jobs: int,
                deadline: float | None, clock: Clock | None) -> Iterator[Row]:
    """:func:`solve_all` in ``jobs`` worker processes: each item taken from ``items`` when
    a worker is free for it (:func:`~cpsolve.workflows.jobs.in_order`'s ``more``)."""
    known: list[Item] = []

    def more() -> int:
        item = next(items, None)
        if item is not None:
            known.append(item)
        return len(known)

    def work(index: int, time_limit: float | None) -> _Done:
        row = solve_one(known[index], engine, _limited(options, time_limit))
        return row.result, row.error, True, row.bug, row.refused, row.disagreements

    def failed(index: int, why: str) -> _Done:
        return None, why, True, False, False, ()

    def unstarted(index: int, why: str) -> _Done:
        return None, why, False, False, False, ()

    def stopped(index: int, why: str) -> _Done:
        return Result.stopped("solve", engine, why), "", True, False, False, ()

    grace = None if clock is None else clock.grace()
    answers = in_order(0, work, failed, jobs, deadline, grace, unstarted, stopped, more)
    for index, (result, error, started, bug, refused, problems) in enumerate(answers):
        item = known[index]
        # an item that did not load keeps its own error, even past the deadline
        yield unloaded(item) or Row(item.source, item.puzzle, result, error, started=started,
                                    bug=bug, refused=refused, disagreements=problems)


_Done = tuple[Result | None, str, bool, bool, bool, tuple[str, ...]]
"""What a worker sends back of a :class:`Row`: its result, error, whether it started,
whether its error is an engine bug or the engines' refusal of the model, and its engines'
disagreements."""


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
    except TimeUp as err:
        return Row(item.source, item.puzzle, Result.cut_off(
            "solve", engine, err.reached_words(), time.monotonic() - start, err.grace))


def _limited(options: Options, time_limit: float | None) -> Options:
    """What one instance of a batch is asked: the batch's options, with ``time_limit``."""
    return replace(options, time_limit=time_limit)


def solve_within(item: Item, engine: str, options: Options,
                 time_limit: float | None = None) -> Row:
    """:func:`solve_one` with ``time_limit`` seconds (a cluster task's budget)."""
    return solve_one(item, engine, replace(options, time_limit=time_limit))
