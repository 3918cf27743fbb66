"""Waiting on an ``auto`` race: the racers' messages read, the winner and its cross-check
window, and the grace each racer still running gets when the race stops it."""

from __future__ import annotations

import time

from ...answers.result import EngineBug, Unanswerable, Unsupported
from ...model import ModelError
from .. import Options
from ..runtime import interrupt, processes
from ..runtime.clock import Clock, reached
from ..runtime.processes import Child, Failure, Kind, Message
from ..runtime.stop import Stop
from .outcome import Check, Ending, Found, Watch, proven

WINDOW_MIN = 1.0
WINDOW_SHARE = 0.1
"""The cross-check window after the winner's proof: the longer of :data:`WINDOW_MIN`
seconds and this share of the winner's time (never more than the longer of 1 s and the
winner's time)."""

WINDOW_GRACE = 0.2
"""Seconds a cross-check stopped at its window's end has to send what it found."""

INTERRUPT_GRACE = 0.8
"""Seconds the racers have after Ctrl-C or SIGTERM to send what they found (the command
stops within a second)."""

LIMIT_GRACE = 0.5
"""How long past the budget a racer still running may take to send what it found, as a
share of the clock's grace (:meth:`cpsolve.engines.runtime.clock.Clock.grace`: the command's
guard allows that much past its limit before it gives up)."""

POLL = 0.05
"""Seconds between two looks at the clock and the interrupt flag while waiting (a Ctrl-C
reaches the racers, in sessions of their own, when the parent passes it on)."""


def margin(budget: float | None) -> float:
    """Seconds before the budget's end at which the racers' own time limit ends: 0.5 s, or
    10 % of a budget under 5 s."""
    return 0.0 if budget is None else min(0.5, 0.1 * budget)


def why_stopped(watch: Watch) -> tuple[Stop | None, str]:
    """What the racers still running are told stopped them: the window's end or the budget
    (a time limit, in their words: the user's limit, else the race's budget), or nothing (an
    interruption, or every racer ended)."""
    if watch.ending is Ending.WINDOW:
        return Stop.TIME, f"cross-check window of {watch.window:.1f} s reached"
    if watch.ending is Ending.LIMIT and not interrupt.by_user():
        return Stop.TIME, reached(watch.limit)
    return None, ""


def wait(racers: list[Child], checks: dict[str, Check], watch: Watch, clock: Clock,
          options: Options, until: float = float("inf")) -> None:
    """Read the racers' messages until every one has ended, the winner's window or the
    budget ends, or a stop is asked for; ``watch`` says which.  At ``until`` (a head start's
    end) it returns with ``watch.ending`` unset."""
    limit_end = float("inf") if clock.limit is None \
        else clock.start + clock.limit - margin(clock.limit) / 2
    while not all(r.done for r in racers):
        now = time.monotonic()
        if now >= until and watch.winner is None and not interrupt.requested() \
                and now < limit_end:
            return
        if interrupt.requested():
            watch.ending = Ending.INTERRUPT if interrupt.by_user() else Ending.LIMIT
        elif now >= min(limit_end, watch.window_end):
            watch.ending = Ending.WINDOW if now >= watch.window_end else Ending.LIMIT
        if watch.ending is not None:
            watch.running = tuple(r.name for r in racers if not r.done)
            return
        for message in processes.wait_any(racers, min(POLL, min(limit_end, watch.window_end,
                                                                until) - now)):
            record(message, checks, options)
        if watch.winner is None:
            _look_for_winner(racers, checks, watch, clock.start, limit_end)
    watch.ending = Ending.ALL_DONE


def _look_for_winner(racers: list[Child], checks: dict[str, Check], watch: Watch,
                     start: float, limit_end: float) -> None:
    """The first engine (in the racers' order) with a proven answer wins; the others get
    the cross-check window from now."""
    for racer in racers:
        check = checks.get(racer.name)
        if check is not None and check.refused:  # proven: no answer; nothing to confirm
            watch.winner, watch.proved_at = racer.name, time.monotonic() - start
            watch.window_end = time.monotonic()
            return
        if check is not None and check.result is not None and proven(check.result):
            now = time.monotonic()
            watch.winner, watch.proved_at = racer.name, now - start
            if not all(r.done for r in racers):
                wanted = max(WINDOW_MIN, WINDOW_SHARE * (now - start))
                watch.window = max(0.0, min(wanted, limit_end - now))
                watch.window_end = now + watch.window
            return


def grace(watch: Watch, clock: Clock) -> float:
    """Seconds the racers still running get to send what they have, by why they stop."""
    if watch.ending is Ending.INTERRUPT:
        return INTERRUPT_GRACE
    if watch.ending is Ending.WINDOW:
        return WINDOW_GRACE
    if watch.ending is Ending.LIMIT:
        if clock.limit is None:  # the command's own clock asked for the stop
            return LIMIT_GRACE * clock.grace()
        kill_at = clock.start + clock.limit + LIMIT_GRACE * clock.grace()
        return max(0.0, kill_at - time.monotonic())
    return 0.0  # every racer ended, or an error is on its way out: kill what is left


def record(message: Message, checks: dict[str, Check], options: Options) -> None:
    """A racer's message: a progress line passed on, or its final word recorded."""
    name = message.child.name
    if message.kind is Kind.NOTE and isinstance(message.value, Found):
        streamer = getattr(options.on_solution, "racer", None) or name
        if options.on_solution is not None and streamer == name:  # one racer's, in its order
            options.on_solution.racer = streamer  # type: ignore[union-attr]
            options.on_solution(message.value.values)
    elif message.kind is Kind.NOTE:
        if options.progress is not None:
            options.progress(f"{name}: {message.value}")
    elif message.kind is Kind.RESULT:
        checks[name] = Check(name, message.value)
    elif message.kind is Kind.FAILED:
        checks[name] = failed(name, message.value)
    else:
        checks[name] = Check(name, note=f"stopped without an answer (exit {message.value})")


def failed(name: str, failure: Failure) -> Check:
    """What an engine of ``auto`` that raised did (a racer, or one run in turn:
    :func:`.turns.in_turn`), in words (an engine that cannot do the task is
    ``unsupported``; one whose answer failed the check has its ``bug``); a model refused as
    not well formed (``ModelError``: an estimate that is not admissible, :mod:`..estimates`)
    is refused by ``auto`` too, raised again."""
    if issubclass(failure.kind, ModelError):
        raise ModelError(failure.text)
    if issubclass(failure.kind, Unanswerable):
        return Check(name, note=failure.text, refused=True)
    if issubclass(failure.kind, Unsupported):
        return Check(name, note=f"not applicable: {failure.text}", unsupported=True)
    if issubclass(failure.kind, EngineBug):
        return Check(name, note=f"engine bug: {failure.text}",
                     bug=EngineBug(failure.text).said())
    if issubclass(failure.kind, KeyboardInterrupt):
        return Check(name, note="interrupted before it had an answer")
    if issubclass(failure.kind, MemoryError):
        return Check(name, note="out of memory")
    return Check(name, note=f"{failure.kind.__name__}: {failure.text}")
