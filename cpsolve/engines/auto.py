"""``auto``: CP-SAT and search side by side; the first proof wins, the other cross-checks.

The default of ``solve`` and ``count``: a user asks a question, not an engine.
Each engine runs in its own process (two cores, two engines) through
:func:`cpsolve.engines.run`, so its answer is checked like any other.

* The first *proven* answer (optimal, infeasible, an exact count) is the
  answer.  The other engine then gets a cross-check window — the longer of
  :data:`CROSS_CHECK_MIN` seconds and :data:`CROSS_CHECK_FACTOR` times what
  the winner took, within the command's budget — to confirm it.  What it
  found, and whether it agrees, is reported either way.
* Without a proof from either engine by the budget, the best unproven answer
  (a plan not proven optimal, a count so far) is reported with both
  engines' bounds.
* An engine that cannot do the task (``Unsupported``) is simply not raced.
* CP-SAT solving a plan first looks for a plan found fast by weighted A*
  (:func:`cpsolve.engines.hints.prepare`, at most 2 s of its budget; as it does under
  ``--engine cpsat`` too) to take as a hint: an upper bound on the plan's
  length or cost that it replays and never trusts.

Engines stop by their own time limit; past it (plus a grace) the process is
interrupted (``SIGINT``: an engine that handles it returns what it has) and
then killed.  The parent never imports an engine's solver.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait

from ..answers.result import Assignment, EngineBug, Result, Status, Unsupported
from ..model import Csp, Planning
from . import Options, run
from .runtime import interrupt, memory

RACERS = ("search", "cpsat")
"""The engines ``auto`` runs, in order of preference when both prove at once."""

CROSS_CHECK_MIN = 2.0
CROSS_CHECK_FACTOR = 3.0
GRACE = 0.5
"""Seconds an engine may overrun its limit before it is interrupted, then killed."""

PROVEN = {Status.OPTIMAL, Status.INFEASIBLE, Status.EXACT, Status.COMPLETE}


@dataclass(frozen=True)
class Check:
    """What one racing engine did: its result, or why it has none."""

    engine: str
    result: Result | None = None
    note: str = ""


@dataclass(frozen=True)
class Race:
    """The outcome of an ``auto`` run: the answer and what every engine did."""

    result: Result
    checks: tuple[Check, ...] = field(default_factory=tuple)
    problems: tuple[str, ...] = ()

    @property
    def confirmed_by(self) -> tuple[str, ...]:
        """Engines other than the winner whose proven answer agrees with it."""
        return self.result.cross_checked_by


def proven(result: Result) -> bool:
    """True for a settled answer: an optimum, an exact count, a complete analysis, a proof
    of infeasibility, or a CSP solution whose uniqueness is decided."""
    if result.status in PROVEN:
        return True
    return isinstance(result.answer, Assignment) and result.answer.unique is not None


def _child(conn: Connection, name: str, task: str, model: Csp | Planning,
           options: Options, racers: int = 1) -> None:
    """Run one engine in a worker process and send back ``("result" | "error", ...)``.

    The process keeps its share of the memory limit (one of ``racers``)."""
    memory.share(racers)
    for sig in (signal.SIGINT, signal.SIGTERM):  # stop with what it has; the parent kills
        signal.signal(sig, lambda signum, frame: interrupt.request())  # after the grace

    def report(line: str) -> None:
        try:
            conn.send(("progress", line))
        except (OSError, ValueError):
            pass

    try:
        result = run(name, task, model, replace(options, progress=report))
        conn.send(("result", result))
    except Unsupported as err:
        conn.send(("unsupported", str(err)))
    except EngineBug as err:
        conn.send(("bug", str(err)))
    except KeyboardInterrupt:
        conn.send(("stopped", "interrupted before it had an answer"))
    except MemoryError:
        conn.send(("stopped", "out of memory"))
    except Exception as err:  # noqa: BLE001 - reported, never silently lost
        conn.send(("error", f"{type(err).__name__}: {err}"))
    finally:
        conn.close()


@dataclass
class _Racer:
    name: str
    process: multiprocessing.process.BaseProcess
    conn: Connection
    check: Check | None = None
    interrupted_at: float | None = None

    @property
    def done(self) -> bool:
        return self.check is not None


def race(task: str, model: Csp | Planning, options: Options, budget: float | None = None,
         engines: tuple[str, ...] = RACERS) -> Race:
    """Run ``engines`` side by side on ``task`` and return the first proof, cross-checked.

    ``budget``: seconds for the whole race (``None``: no limit); ``options.time_limit``
    is ignored.
    """
    start = time.monotonic()
    end = start + (budget if budget is not None else float("inf"))
    context = multiprocessing.get_context("fork")
    racers: list[_Racer] = []
    for name in engines:
        parent, child = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(child, name, task, model,
                                                       _child_options(options, budget),
                                                       len(engines)),
                                  daemon=True)
        process.start()
        child.close()
        racers.append(_Racer(name, process, parent))
    winner: _Racer | None = None
    deadline = end
    try:
        while not all(r.done for r in racers):
            now = time.monotonic()
            if interrupt.requested():
                _stop_all([r for r in racers if not r.done], now, now)
                _drain(racers, options)
                break
            if now >= deadline:
                _stop_all([r for r in racers if not r.done], now, deadline)
            _receive(racers, max(0.0, min(deadline, now + 0.2) - now), options)
            if winner is None:
                winner = next((r for r in racers if r.done and r.check.result is not None
                               and proven(r.check.result)), None)
                if winner is not None:
                    took = time.monotonic() - start
                    deadline = min(end, time.monotonic()
                                   + max(CROSS_CHECK_MIN, CROSS_CHECK_FACTOR * took))
    except KeyboardInterrupt:
        _stop_all([r for r in racers if not r.done], time.monotonic(), time.monotonic())
        _drain(racers, options)
        raise
    finally:
        for r in racers:
            _reap(r)
    return _verdict(racers, winner, task, time.monotonic() - start)


def _child_options(options: Options, budget: float | None) -> Options:
    """What a racer is asked: the caller's limits on one worker (its progress goes back
    through the pipe, :func:`_child`)."""
    return Options(time_limit=budget, limit=options.limit, keep=options.keep, workers=1,
                   find_hint=options.find_hint)


def _receive(racers: list[_Racer], timeout: float, options: Options) -> None:
    """Wait up to ``timeout`` for messages; record final ones on their racer."""
    by_conn = {r.conn: r for r in racers if not r.done}
    if not by_conn:
        return
    for conn in wait(list(by_conn), timeout):
        racer = by_conn[conn]
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError):
            code = racer.process.exitcode
            racer.check = Check(racer.name, note=f"stopped without an answer (exit {code})")
            continue
        if kind == "progress":
            if options.progress is not None:
                options.progress(f"{racer.name}: {payload}")
        elif kind == "result":
            racer.check = Check(racer.name, payload)
        elif kind == "unsupported":
            racer.check = Check(racer.name, note=f"not applicable: {payload}")
        elif kind == "bug":
            racer.check = Check(racer.name, note=f"engine bug: {payload}")
        else:
            racer.check = Check(racer.name, note=str(payload))


def _stop_all(racers: list[_Racer], now: float, deadline: float) -> None:
    """Interrupt racers past the deadline; kill those still running after the grace."""
    for r in racers:
        if r.interrupted_at is None:
            r.interrupted_at = now
            _signal(r, signal.SIGINT)
        elif now - r.interrupted_at > GRACE:
            _signal(r, signal.SIGKILL)
            r.check = Check(r.name, note="stopped at the time limit without an answer")


def _signal(racer: _Racer, sig: int) -> None:
    try:
        if racer.process.pid is not None:
            os.kill(racer.process.pid, sig)
    except ProcessLookupError:
        pass


def _drain(racers: list[_Racer], options: Options) -> None:
    """After an interruption: collect what the racers send within the grace."""
    end = time.monotonic() + GRACE
    while not all(r.done for r in racers) and time.monotonic() < end:
        _receive(racers, max(0.0, end - time.monotonic()), options)
    for r in racers:
        if not r.done:
            _signal(r, signal.SIGKILL)
            r.check = Check(r.name, note="interrupted")


def _reap(racer: _Racer) -> None:
    racer.process.join(timeout=GRACE)
    if racer.process.is_alive():
        racer.process.kill()
        racer.process.join()
    racer.conn.close()


def _verdict(racers: list[_Racer], winner: _Racer | None, task: str, seconds: float) -> Race:
    from ..answers.agreement import cross_check, disagreements

    checks = tuple(r.check or Check(r.name, note="no answer") for r in racers)
    results = [c.result for c in checks if c.result is not None]
    problems = tuple(disagreements(results))
    if winner is not None:
        primary = winner.check.result
    elif results:
        primary = max(results, key=_usefulness)
    else:
        notes = "; ".join(f"{c.engine}: {c.note}" for c in checks)
        if all(c.note.startswith("not applicable") for c in checks):
            raise Unsupported(f"no engine can do this: {notes}")
        primary = Result(Status.UNKNOWN, "auto", task, message=notes)
    if primary in results and not problems:
        primary = cross_check(results)[results.index(primary)]
    return Race(primary.but(seconds=seconds), checks, problems)


def _usefulness(result: Result) -> tuple[int, int]:
    """Order unproven results: an answer beats none; then the better bound."""
    return (1 if result.answer is not None else 0, result.bound or 0)
