"""Starting an ``auto`` race: the racers, each an engine in a forked process, search
alone first where it is expected to win (:func:`head_start`)."""

from __future__ import annotations

import math
import time
from dataclasses import replace

from ...answers.result import EngineBug, Result, Unsupported
from ...model import Csp, Planning
from ...model.facts import state_count
from .. import Options, argued, not_started, run
from ..option_choices import AUTO_BUDGET, lacking_all, usable, wrong_algorithm, wrong_kind
from ..runtime import interrupt, processes
from ..runtime.clock import Clock
from ..runtime.processes import Channel, Child
from .outcome import Check, Ending, Found, Race, Watch
from .verdict import stopped_note, verdict
from .waiting import grace, margin, record, wait, why_stopped

RACERS = ("search", "cpsat")
"""The engines ``auto`` runs, in order of preference when both prove at once."""

HEAD_START = 0.3
"""Seconds search runs alone before CP-SAT starts, on models where search is expected to win
(:func:`head_start`; a tenth of a shorter budget)."""

SMALL_SPACE = 10**6
"""A planning model with at most this many states (the product of its domains) is one search
is expected to win, with or without an estimate."""


def head_start(model: Csp | Planning, budget: float | None, engines: tuple[str, ...],
               confirm: bool = False) -> float:
    """Seconds the first engine (search) runs alone before the others start: :data:`HEAD_START`
    (a tenth of a shorter budget) on a csp, or a planning model with an estimate or at most
    :data:`SMALL_SPACE` states; 0 with ``confirm``, without a second engine, or otherwise."""
    if confirm or len(engines) < 2 or engines[0] != "search":
        return 0.0
    if isinstance(model, Planning) and model.estimate is None \
            and state_count(model) > SMALL_SPACE:
        return 0.0
    return HEAD_START if budget is None else min(HEAD_START, 0.1 * budget)


def race(task: str, model: Csp | Planning, options: Options, budget: float | None = None,
         engines: tuple[str, ...] = RACERS, confirm: bool = False) -> Race:
    """Run ``engines`` side by side on ``task`` and return the first proof, cross-checked.

    ``budget``: seconds for the whole race (``None``: no limit at all — the racers get none
    either, not even an engine's default budget: ``Options.no_time_limit``);
    ``options.time_limit`` is ignored.  Search may run alone first (:func:`head_start`;
    ``confirm``: never).
    Interrupted (Ctrl-C, SIGTERM), it returns the racers' partial results rather than
    raising ``KeyboardInterrupt``.

    A model that carries its family's own argument that no plan exists is answered with it
    (:func:`argued_race`): no racer starts.
    """
    if (argued := argued_race(task, model, options)) is not None:
        return argued
    clock = Clock(budget)
    ahead = margin(budget)
    asked = _child_options(options, math.inf if budget is None else budget - ahead)
    racers: list[Child] = []
    checks: dict[str, Check] = {}
    watch = Watch(limit=clock.limit)
    head = head_start(model, budget, engines, confirm)
    try:
        for name in engines:
            racers.append(processes.start(_racer, name, task, model, asked, name=name,
                                          share=len(engines), told=True))
            if head and len(racers) == 1 and _alone(racers, checks, watch, clock, options,
                                                     head):
                why = (f"search proved the answer within its {head:g} s head start"
                       if watch.winner else f"{stopped_note(watch)} during search's head start")
                for other in engines[1:]:
                    checks[other] = Check(other, note=f"not started: {why}", started=False)
                break
        wait(racers, checks, watch, clock, options)
    except KeyboardInterrupt:  # a second signal: stop waiting, still collect what they have
        interrupt.request()
        watch.ending = Ending.INTERRUPT
        watch.running = tuple(r.name for r in racers if not r.done)
    finally:
        for message in processes.stop(racers, grace(watch, clock), *why_stopped(watch)):
            record(message, checks, options)
    return verdict(engines, checks, watch, task, time.monotonic() - clock.start)


def answer(task: str, model: Csp | Planning, options: Options, late: str | None = None
           ) -> Result:
    """``run("auto", ...)``: the race's result, within ``options.time_limit`` (``None``:
    :data:`~cpsolve.engines.option_choices.AUTO_BUDGET` seconds, as the command line gives
    it; ``no_time_limit``: none), or :func:`not_raced` when the caller knows it is ``late``.
    A racer whose answer failed the check, or engines that disagree, raise
    :class:`~cpsolve.answers.result.EngineBug` (the command exits 3 or 1)."""
    refused = (wrong_kind(model.kind, options) or wrong_algorithm(model.kind, options)
               or lacking_all(RACERS, options))  # as the command line refuses them for auto
    if refused:
        raise Unsupported(f"auto: {refused}")
    if late is not None:
        return not_raced(task, model, options, late).result
    budget = options.time_limit
    if budget is None and not options.no_time_limit:
        budget = AUTO_BUDGET
    raced = race(task, model, options, budget)
    if raced.bugs:
        raise EngineBug("; ".join(f"{c.engine}: {c.bug}" for c in raced.bugs))
    if raced.problems:
        raise EngineBug("engines disagree: " + "; ".join(raced.problems))
    return raced.result


def not_raced(task: str, model: Csp | Planning, options: Options, late: str,
              engines: tuple[str, ...] = RACERS) -> Race:
    """The race when the time left would not cover even its start (``late`` says why): no
    racer is started, and the answer is one that needs no engine (an invariant's proof that
    no plan exists, :func:`cpsolve.engines.not_started`), else nothing proven; each racer's
    note is "not started" (the answer's message says why).  A model that carries its own
    argument that no plan exists is answered with it, as by :func:`race`
    (:func:`argued_race`)."""
    if (argued := argued_race(task, model, options)) is not None:
        return argued
    result = not_started("auto", task, model, options, late)
    return Race(result, tuple(Check(name, note="not started", started=False)
                              for name in engines))


def argued_race(task: str, model: Csp | Planning, options: Options) -> Race | None:
    """The race no racer joins: the answer of the argument the model carries that no plan
    exists (:func:`cpsolve.engines.argued`, checked; engine name ``invariant``), as
    :func:`cpsolve.engines.run` gives it to every engine; None when the model carries none.
    Its racers are not listed: none was needed, none started."""
    result = argued(model, task, options.keep)
    return None if result is None else Race(result)


def _alone(racers: list[Child], checks: dict[str, Check], watch: Watch, clock: Clock,
           options: Options, head: float) -> bool:
    """Let the first racer run alone for ``head`` seconds; True when the race is over (it
    proved its answer, the budget ended or a stop was asked for), False to start the others."""
    wait(racers, checks, watch, clock, options, until=clock.start + head)
    if watch.winner is not None:
        watch.head_start = head
        return True
    if watch.ending in (Ending.LIMIT, Ending.INTERRUPT):
        return True
    watch.ending, watch.running = None, ()
    return False


def _child_options(options: Options, time_limit: float | None) -> Options:
    """What a racer is asked: the caller's options (a ``hint`` too) with the racer's share of
    the time on one worker; its progress goes back through the pipe, and so do its solutions
    when the caller streams them (:func:`_racer`); the memory limit is the whole race's, held
    by the caller's process (its children's memory counts)."""
    return replace(options, time_limit=time_limit, workers=1, progress=None, memory_limit=None)


def _racer(name: str, task: str, model: Csp | Planning, options: Options,
           channel: Channel) -> Result:
    """One engine in its racer process: its checked answer (progress lines and, when the
    caller streams solutions, each solution as a :class:`Found` note)."""
    found = None if options.on_solution is None else \
        (lambda values: channel.send(Found(dict(values))))
    return run(name, task, model,
               replace(usable(name, options), progress=channel.send, on_solution=found))
