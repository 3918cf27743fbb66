"""``auto``: CP-SAT and search side by side; the first proof wins, the other cross-checks.

The default of ``solve`` and ``count``: a user asks a question, not an engine.
Each engine runs in its own forked process (two cores, two engines;
:func:`cpsolve.engines.runtime.processes.start`) through :func:`cpsolve.engines.run`, so
its answer is checked like any other.

* The first *proven* answer (optimal, infeasible, an exact count) is the
  answer, and the race ends soon after: the other engine gets a short, stated
  cross-check window — :data:`WINDOW_MIN` seconds, or :data:`WINDOW_SHARE` of
  what the winner took if that is longer (so never more than the longer of 1 s
  and the winner's time), within the budget — to confirm it, and is then
  stopped.  :class:`Confirmation` says whether it confirmed, or within what window it did
  not.
* Without a proof from either engine by the budget, or when the user
  interrupts (Ctrl-C, SIGTERM: the parent passes the signal on to both racers,
  each a session of its own, and they return what they have), the most useful
  partial answer (a plan found, the best bound, a
  count so far) is the answer, with every engine's bound beside it.
* On models where search is expected to win (:func:`head_start`: a csp; a planning model
  with an estimate or at most :data:`SMALL_SPACE` states) search runs alone first, for
  :data:`HEAD_START` seconds: a proof within that slice is the answer at once, CP-SAT never
  started (the confirmation says so; ``confirm`` — ``--confirm`` — races both from the
  start, and ``compare`` always runs both).
* An engine that cannot do the task (``Unsupported``) is simply not raced.
* When the command's time left would not even cover the race's start (:func:`not_raced`),
  no racer starts: the answer is an invariant's proof that no plan exists, or nothing.
* An engine that proves the question has no answer of the kind asked
  (``Unanswerable``: infinitely many optimal plans to count) ends the race like a
  proof, and its refusal is the verdict (raised again: one line, exit 2), as under
  that engine alone; nothing confirms it (no engine could count them).
* CP-SAT solving a plan first looks for a plan found fast by weighted A*
  (:func:`cpsolve.engines.hints.prepare`, at most 2 s of its budget; as it does under
  ``--engine cpsat`` too) to take as a hint: an upper bound on the plan's
  length or cost that it replays and never trusts.

The racers' own time limit ends a little before the budget (:func:`margin`) so
that they stop themselves and report in time; a racer still running at the
budget, the window's end or an interruption is asked to stop (SIGINT) and
killed after a grace (at the budget: the racers are asked to stop a little before it and
killed :data:`LIMIT_GRACE` of the clock's grace after it, so that the race ends before the
command's guard gives up on it).  The parent never imports an engine's
solver.
"""

from __future__ import annotations

import enum
import math
import time
from dataclasses import dataclass, field, replace

from ..answers.agreement import same_proof
from ..answers.kinds import Count, Plan
from ..answers.result import Assignment, EngineBug, Result, Status, Unanswerable, Unsupported
from ..model import Csp, Planning
from ..model.facts import state_count
from . import Options, not_started, run
from .runtime import interrupt, processes
from .runtime.clock import Clock
from .runtime.processes import Channel, Child, Failure, Kind, Message
from .runtime.stop import Stop

RACERS = ("search", "cpsat")
"""The engines ``auto`` runs, in order of preference when both prove at once."""

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

HEAD_START = 0.3
"""Seconds search runs alone before CP-SAT starts, on models where search is expected to win
(:func:`head_start`; a tenth of a shorter budget)."""

SMALL_SPACE = 10**6
"""A planning model with at most this many states (the product of its domains) is one search
is expected to win, with or without an estimate."""

PROVEN = {Status.OPTIMAL, Status.INFEASIBLE, Status.EXACT, Status.COMPLETE}


@dataclass(frozen=True)
class Check:
    """What one racing engine did: its result, or why it has none (``unsupported``: the
    engine cannot do the task, so it was not raced; ``refused``: it proved that the task
    has no answer, :class:`Unanswerable`, which ``note`` says)."""

    engine: str
    result: Result | None = None
    note: str = ""
    unsupported: bool = False
    refused: bool = False
    started: bool = True
    """False for an engine never started: the answer came within the head start."""


@dataclass(frozen=True)
class Confirmation:
    """The cross-check of a proven answer: the engine asked to confirm it, the window it was
    given after the proof (seconds; 0 when it had ended before), whether its proven answer
    agrees, and whether it was stopped at the window's end (or by an interruption)."""

    by: str
    window: float
    confirmed: bool
    stopped: bool
    head_start: float | None = None
    """Seconds of search's head start when the proof came within it (``by`` not started)."""
    same_proof: bool = False
    """``by`` reached the same answer by the same code (:func:`.agreement.same_proof`)."""


@dataclass(frozen=True)
class Race:
    """The outcome of an ``auto`` run: the answer, what every engine did, and the
    cross-check of a proven answer (``None`` without a proof or a second engine)."""

    result: Result
    checks: tuple[Check, ...] = field(default_factory=tuple)
    problems: tuple[str, ...] = ()
    confirmation: Confirmation | None = None
    proved_at: float | None = None
    """Seconds into the race when the winner's proof came in (None: no proof in time)."""

    @property
    def confirmed_by(self) -> tuple[str, ...]:
        """Engines other than the winner whose proven answer agrees with it."""
        return self.result.cross_checked_by


class Ending(enum.Enum):
    """Why the race stopped waiting."""

    ALL_DONE = "every engine ended"
    WINDOW = "the cross-check window ended"
    LIMIT = "the time limit"
    INTERRUPT = "interrupted"


@dataclass
class _Watch:
    """The race as it goes: the winner, its window, and how the waiting ended."""

    winner: str | None = None
    proved_at: float | None = None
    window: float = 0.0
    window_end: float = float("inf")
    ending: Ending | None = None
    running: tuple[str, ...] = ()
    """The engines still running when the waiting ended."""
    head_start: float | None = None
    """The head start within which the winner proved its answer (the others not started)."""


def proven(result: Result) -> bool:
    """True for a settled answer: an optimum, an exact count, a complete analysis, a proof
    of infeasibility, or a CSP solution whose uniqueness is decided."""
    if result.status in PROVEN:
        return True
    return isinstance(result.answer, Assignment) and result.answer.unique is not None


def margin(budget: float | None) -> float:
    """Seconds before the budget's end at which the racers' own time limit ends: 0.5 s, or
    10 % of a budget under 5 s."""
    return 0.0 if budget is None else min(0.5, 0.1 * budget)


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
    """
    clock = Clock(budget)
    ahead = margin(budget)
    asked = _child_options(options, math.inf if budget is None else budget - ahead)
    racers: list[Child] = []
    checks: dict[str, Check] = {}
    watch = _Watch()
    head = head_start(model, budget, engines, confirm)
    try:
        for name in engines:
            racers.append(processes.start(_racer, name, task, model, asked, name=name,
                                          share=len(engines), told=True))
            if head and len(racers) == 1 and _alone(racers, checks, watch, clock, options,
                                                     head):
                why = (f"search proved the answer within its {head:g} s head start"
                       if watch.winner else f"{_stopped_note(watch)} during search's head start")
                for other in engines[1:]:
                    checks[other] = Check(other, note=f"not started: {why}", started=False)
                break
        _wait(racers, checks, watch, clock, options)
    except KeyboardInterrupt:  # a second signal: stop waiting, still collect what they have
        interrupt.request()
        watch.ending = Ending.INTERRUPT
        watch.running = tuple(r.name for r in racers if not r.done)
    finally:
        for message in processes.stop(racers, _grace(watch, clock), *_why(watch)):
            _record(message, checks, options)
    return _verdict(engines, checks, watch, task, time.monotonic() - clock.start)


def not_raced(task: str, model: Csp | Planning, options: Options, late: str,
              engines: tuple[str, ...] = RACERS) -> Race:
    """The race when the time left would not cover even its start (``late`` says why): no
    racer is started, and the answer is one that needs no engine (an invariant's proof that
    no plan exists, :func:`cpsolve.engines.not_started`), else nothing proven; each racer's
    note is "not started" (the answer's message says why)."""
    result = not_started("auto", task, model, options, late)
    return Race(result, tuple(Check(name, note="not started", started=False)
                              for name in engines))


def _alone(racers: list[Child], checks: dict[str, Check], watch: _Watch, clock: Clock,
           options: Options, head: float) -> bool:
    """Let the first racer run alone for ``head`` seconds; True when the race is over (it
    proved its answer, the budget ended or a stop was asked for), False to start the others."""
    _wait(racers, checks, watch, clock, options, until=clock.start + head)
    if watch.winner is not None:
        watch.head_start = head
        return True
    if watch.ending in (Ending.LIMIT, Ending.INTERRUPT):
        return True
    watch.ending, watch.running = None, ()
    return False


def _why(watch: _Watch) -> tuple[Stop | None, str]:
    """What the racers still running are told stopped them: the window's end or the budget
    (a time limit, in their words), or nothing (an interruption, or every racer ended)."""
    if watch.ending is Ending.WINDOW:
        return Stop.TIME, f"cross-check window of {watch.window:.1f} s reached"
    if watch.ending is Ending.LIMIT and not interrupt.by_user():
        return Stop.TIME, ""
    return None, ""


def _child_options(options: Options, time_limit: float | None) -> Options:
    """What a racer is asked: the caller's limits on one worker (its progress goes back
    through the pipe, :func:`_racer`; so do its solutions when the caller streams them)."""
    return Options(time_limit=time_limit, limit=options.limit, keep=options.keep, workers=1,
                   find_hint=options.find_hint, encoding=options.encoding,
                   unique=options.unique, optimal=options.optimal,
                   on_solution=options.on_solution)  # see _racer


@dataclass(frozen=True)
class Found:
    """A racer's note: a solution as it found it (``count --list`` streams them)."""

    values: dict[str, int]


def _racer(name: str, task: str, model: Csp | Planning, options: Options,
           channel: Channel) -> Result:
    """One engine in its racer process: its checked answer (progress lines and, when the
    caller streams solutions, each solution as a :class:`Found` note)."""
    found = None if options.on_solution is None else \
        (lambda values: channel.send(Found(dict(values))))
    return run(name, task, model, replace(options, progress=channel.send, on_solution=found))


def _wait(racers: list[Child], checks: dict[str, Check], watch: _Watch, clock: Clock,
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
            _record(message, checks, options)
        if watch.winner is None:
            _look_for_winner(racers, checks, watch, clock.start, limit_end)
    watch.ending = Ending.ALL_DONE


def _look_for_winner(racers: list[Child], checks: dict[str, Check], watch: _Watch,
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


def _grace(watch: _Watch, clock: Clock) -> float:
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


def _record(message: Message, checks: dict[str, Check], options: Options) -> None:
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
        checks[name] = _failed(name, message.value)
    else:
        checks[name] = Check(name, note=f"stopped without an answer (exit {message.value})")


def _failed(name: str, failure: Failure) -> Check:
    """What a racer that raised did, in words (an engine that cannot do the task is
    ``unsupported``)."""
    if issubclass(failure.kind, Unanswerable):
        return Check(name, note=failure.text, refused=True)
    if issubclass(failure.kind, Unsupported):
        return Check(name, note=f"not applicable: {failure.text}", unsupported=True)
    if issubclass(failure.kind, EngineBug):
        return Check(name, note=f"engine bug: {failure.text}")
    if issubclass(failure.kind, KeyboardInterrupt):
        return Check(name, note="interrupted before it had an answer")
    if issubclass(failure.kind, MemoryError):
        return Check(name, note="out of memory")
    return Check(name, note=f"{failure.kind.__name__}: {failure.text}")


def _stopped_note(watch: _Watch) -> str:
    """What a racer stopped by the race (not by itself) did."""
    if watch.ending is Ending.WINDOW:
        return f"stopped after its {watch.window:.1f} s cross-check window"
    if watch.ending is Ending.LIMIT:
        return "stopped at the time limit"
    if watch.ending is Ending.INTERRUPT:
        return "interrupted"
    return "stopped"


def _verdict(engines: tuple[str, ...], checks: dict[str, Check], watch: _Watch, task: str,
             seconds: float) -> Race:
    """The race's answer: the winner's, else the most useful partial one; cross-checked."""
    from ..answers.agreement import cross_check, disagreements

    stopped = _stopped_note(watch)
    ordered = tuple(_noted(checks.get(name), name, stopped, name in watch.running)
                    for name in engines)
    results = [c.result for c in ordered if c.result is not None]
    problems = tuple(disagreements(results))
    winner = watch.winner or next((c.engine for c in ordered
                                   if c.result is not None and proven(c.result)), None)
    problems += _refusal(ordered)
    if winner is not None:  # (a proof may also come in while the racers are being stopped)
        primary = checks[winner].result
    elif results:
        primary = max(results, key=_usefulness)
    else:
        if all(c.unsupported for c in ordered):
            notes = "; ".join(f"{c.engine}: {c.note}" for c in ordered)
            raise Unsupported(f"no engine can do this: {notes}")
        notes = "; ".join(f"{c.engine}: {c.note}" for c in ordered if not c.unsupported)
        primary = Result(Status.UNKNOWN, "auto", task, message=notes)
    if primary in results and not problems:
        primary = cross_check(results)[results.index(primary)]
    return Race(primary.but(seconds=seconds), ordered, problems,
                _confirmation(ordered, primary, winner, watch), watch.proved_at)


def _refusal(checks: tuple[Check, ...]) -> tuple[str, ...]:
    """Raise an engine's proven refusal (:class:`Unanswerable`) as the race's verdict; an
    engine that proved an answer to the same question contradicts it: a disagreement."""
    refusal = next((c for c in checks if c.refused), None)
    if refusal is None:
        return ()
    for other in checks:
        if other.result is not None and proven(other.result):
            return (f"{refusal.engine} refused, {refusal.note}, but {other.engine} "
                    f"answered ({other.result.status.value})",)
    raise Unanswerable(refusal.note)


def _noted(check: Check | None, name: str, stopped: str, running: bool) -> Check:
    """A racer's check, saying so when the race stopped it."""
    if check is None:
        return Check(name, note=f"{stopped} without an answer" if running else "no answer")
    return replace(check, note=check.note or stopped) if running else check


def _confirmation(checks: tuple[Check, ...], primary: Result, winner: str | None,
                  watch: _Watch) -> Confirmation | None:
    """The cross-check of the winner's proof by the other engine raced (None without)."""
    if winner is None:
        return None
    other = next((c for c in checks if c.engine != winner and not c.unsupported), None)
    if other is None:
        return None
    if not other.started:
        return Confirmation(other.engine, 0.0, False, False, watch.head_start)
    return Confirmation(other.engine, round(watch.window, 3),
                        other.engine in primary.cross_checked_by, other.engine in watch.running,
                        same_proof=other.result is not None
                        and same_proof(other.result, primary))


def _usefulness(result: Result) -> tuple[int, int, int]:
    """Order unproven results: an answer beats none; then the better answer (the cheaper
    plan, the larger count so far); then the better bound."""
    answer, bound = result.answer, result.bound or 0
    if answer is None:
        return (0, 0, bound)
    if isinstance(answer, Plan):
        return (1, -answer.cost, bound)
    if isinstance(answer, Count):
        return (1, answer.count, bound)
    return (1, 0, bound)
