"""``compare``'s work on one instance: every engine that applies, one after the other, each
with its share of the time, and their results cross-checked (:func:`compare_model`;
:func:`compare_one` as a cluster's task).  The instances come in their turn, each file
loaded when its turn comes (:class:`.items.Lineup`, as ``solve``'s batches)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from functools import partial

from ...answers.agreement import cross_check, disagreements
from ...answers.result import EngineBug, EngineFailed, Result, Skipped, Unsupported
from ...engines import PEERS, Options, engines_for, not_applicable, run
from ...engines.option_choices import for_kind, usable
from ...engines.runtime import interrupt
from ...engines.runtime.clock import FLOOR, Clock, TimeUp, on_a_share, reached
from ...engines.unsolvable import ARGUED
from ...model import ModelError
from ...puzzles.base import Puzzle
from .items import Item, refusal


@dataclass(frozen=True)
class Bug:
    """An engine whose answer to a model failed the independent check (its
    :meth:`EngineBug.said`): a bug in cpsolve, exit 3; the other engines' results stand."""

    engine: str
    error: str


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
    bugs: tuple[Bug, ...] = ()
    stopped: bool = False
    """An engine was stopped at once by ``KeyboardInterrupt`` (Ctrl-C): the user's stop."""
    refused: bool = False
    """The ``error`` is the engines' refusal of the model as not well formed (an estimate
    above the cost still to pay: :func:`.items.refusal`): bad input, as a file that did not
    load."""


def compare_model(item: Item, task: str, time_limit: float | None = None,
                  options: Options | None = None,
                  running: Callable[[str], AbstractContextManager[Options]] | None = None,
                  ) -> Compared:
    """Run ``task`` on ``item``'s puzzle with every engine that applies — the built-in ones
    and the installed peers (``fd``, ``minizinc``) — one after the other, each with an
    equal share of what is left of ``time_limit`` plus its start (:func:`engine_share`;
    ``None``: none given, ``math.inf``: none at all, :attr:`Options.no_time_limit`),
    and cross-check their results.  cpsolve's own engines run before the peers, and in
    each group those with a start to pay (CP-SAT's first import) last
    (:func:`running_order`): an external tool has only what cpsolve's engines left, and
    under a short limit the quick ones still answer.  The results are listed in the
    engines' own order.

    Each run takes ``options`` (default: none), or those that ``running(engine)`` gives
    (the command line: a progress line per engine).  The engines that cannot do ``task``
    on this kind of model are listed as skipped, and so are those not run after a stop
    was asked for.  An engine whose answer fails the check (:class:`EngineBug`) is one of
    the model's ``bugs``, and the other engines still run.  A model the engines refuse as not
    well formed (``ModelError``: an estimate above the cost still to pay, refused before any
    planning engine starts) is the model's ``error``, as a file that did not load; the
    other models are still compared.  ``running`` may stop an engine with
    :class:`TimeUp` (the command's clock), and Ctrl-C with ``KeyboardInterrupt``: its result
    then has nothing proven, and the next engines are not run.

    A model that carries its own argument that no plan exists is answered with it by the
    first engine's :func:`~cpsolve.engines.run`, before that engine starts: the others
    would give the same answer, so they are not asked (:func:`_argued`).
    """
    assert item.puzzle is not None, item.error
    puzzle = item.puzzle
    engines = engines_for(puzzle.model, task, peers=True)
    skipped = [Skipped(engine, f"not applicable (cannot {task} a {puzzle.model.kind} model)")
               for engine in not_applicable(puzzle.model, task)]
    ran: dict[str, Result | Skipped | Bug] = {}
    stopped = False
    clock = Clock(time_limit)
    order = running_order(engines)
    for i, engine in interrupt.each_on_its_own(enumerate(order)):  # a memory stop: its own
        if interrupt.requested():
            ran[engine] = Skipped(engine, f"not run: {interrupt.reason()}")
            continue
        seconds = time_limit if clock.limit is None else engine_share(clock, order[i:])
        with on_a_share() if seconds is not None and len(order) > 1 else nullcontext():
            try:
                ran[engine], lost = _one_engine(engine, task, puzzle.model, seconds, partial(
                    running, engine) if running else partial(nullcontext, options or Options()))
            except ModelError as err:  # refused by every engine alike: no engine answers it
                return Compared(item.source, puzzle, error=refusal(item.source, err),
                                refused=True)
        stopped = stopped or lost
        if (argued := _argued(item.source, puzzle, ran[engine])) is not None:
            return argued
    results = [ran[e] for e in engines if isinstance(ran[e], Result)]
    skipped += [ran[e] for e in engines if isinstance(ran[e], Skipped)]
    problems = disagreements(results)
    if not problems:
        results = cross_check(results)
    return Compared(item.source, puzzle, tuple(results), tuple(skipped), tuple(problems),
                    bugs=tuple(b for b in ran.values() if isinstance(b, Bug)), stopped=stopped)


def _argued(source: str, puzzle: Puzzle, outcome: Result | Skipped | Bug) -> Compared | None:
    """The comparison of a model whose own argument answered (:func:`~cpsolve.engines.run`
    gives it, checked, before any engine starts: engine name
    :data:`~cpsolve.engines.unsolvable.ARGUED`), or whose argument failed the check (a bug of
    the argument, not of the engine named); None otherwise: the engines go on."""
    if isinstance(outcome, Result) and outcome.engine == ARGUED:
        return Compared(source, puzzle, (outcome,))
    if isinstance(outcome, Bug) and getattr(puzzle.model, "unsolvable", None) is not None:
        return Compared(source, puzzle, bugs=(Bug(ARGUED, outcome.error),))
    return None


def running_order(engines: list[str]) -> list[str]:
    """The order :func:`compare_model` runs ``engines`` in: cpsolve's own before the peers
    (:data:`~cpsolve.engines.PEERS`, which run another system), so that an external tool
    only ever has the time cpsolve's engines left; in each group, those with a start to pay
    (:func:`start_seconds`: CP-SAT's first import) last."""
    return sorted(engines, key=lambda engine: (engine in PEERS, start_seconds([engine]) > 0))


def _one_engine(engine: str, task: str, model, seconds: float | None,
                running: Callable[[], AbstractContextManager[Options]]
                ) -> tuple[Result | Skipped | Bug, bool]:
    """One engine's part of :func:`compare_model`, within ``seconds``, run inside
    ``running()`` (which gives its options): its result, why it was skipped, or its answer
    that failed the check (a :class:`Bug`: the other engines go on), and
    whether Ctrl-C stopped it at once.  The command's clock may stop it (:class:`TimeUp`,
    or an ``ImportError`` from an import it cut: nothing proven), and Ctrl-C
    (``KeyboardInterrupt``: what it had is lost, a stop is asked for, so the next engines
    are not run).  A result the engine could not give says how long it ran all the same."""
    began = time.perf_counter()
    try:
        with running() as given:
            # a batch's --time-indexed: its planning models', and CP-SAT's alone
            asked = usable(engine, for_kind(model.kind, given))
            return run(engine, task, model, replace(asked, time_limit=seconds)), False
    except Unsupported as err:
        return Skipped(engine, str(err)), False
    except EngineBug as err:
        return Bug(engine, err.said()), False
    except EngineFailed as err:  # an external tool's own failure: the others go on
        return Skipped(engine, f"failed: {err}"), False
    except (TimeUp, ImportError) as err:  # pybind11 makes the clock's stop an ImportError
        if isinstance(err, ImportError) and not interrupt.requested():
            raise  # a broken installation
        cut = err if isinstance(err, TimeUp) else None  # an import cut: how late, not known
        said = reached() if cut is None else cut.reached_words()
        return Result.cut_off(task, engine, said, time.perf_counter() - began,
                              None if cut is None else cut.grace), False
    except KeyboardInterrupt:  # a second Ctrl-C, or a first one the engine did not answer
        interrupt.request()  # within a second (:func:`interrupt.escalating`)
        return Result.lost(task, engine, time.perf_counter() - began), True


def start_seconds(engines: Iterable[str]) -> float:
    """Wall seconds the starts of ``engines`` would take now: each one's
    :func:`~cpsolve.engines.start_cost` (an import not made yet) at the share of a core this
    process has had (:func:`~cpsolve.engines.runtime.cpu.process_share`)."""
    from ...engines import start_cost
    from ...engines.runtime.cpu import process_share

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
    """:func:`compare_model` as one task of a cluster: a file that did not load is the
    instance's error."""
    if item.puzzle is None:
        return Compared(item.source, None, error=item.error)
    return compare_model(item, task, time_limit, options)
