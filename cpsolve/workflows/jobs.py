"""``--jobs N``: numbered pieces of work in N forked worker processes, answers in order.

:func:`in_order` runs ``work(index, time_limit)`` for every index, each in one of
``workers`` processes started with :func:`cpsolve.engines.runtime.processes.start`
(forked after the work is known, so nothing is pickled on the way in but an
index and a time limit; they share the memory limit), and yields the answers in
the order of the indices.

* The pieces may become known as the work goes (``more``: a batch loads each file just
  before its instances are handed over, so a file that loads slowly never costs the ones
  before it their time); a worker knows the pieces known when it was forked, and one idle
  when the next piece is newer is replaced by a fresh fork.
* Each piece gets what is left of the deadline when it is handed over.  Past the
  deadline, or after Ctrl-C, nothing new is handed over: the pieces left are
  ``unstarted(index, "not started: …")`` (``failed`` unless the caller gives its own).
* Running pieces past the deadline by half the grace (:data:`GRACE` unless the caller
  gives its own), or when Ctrl-C comes (SIGINT reaches the workers too: an engine returns
  what it has), are asked to stop and have the other half to send their answer; one that
  does not is ``stopped(index, "stopped: …")`` (``failed`` unless the caller gives its
  own); a worker that dies is ``failed(index, why)`` and, if work remains, replaced.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..engines.runtime import interrupt
from ..engines.runtime.clock import reached
from ..engines.runtime.processes import Channel, Child, Kind, Message, start, stop, wait_any

GRACE = 1.0
"""Seconds past the deadline (or after Ctrl-C) by which a piece still running must have
sent its answer, or its worker is stopped (by default: a command passes its clock's)."""

POLL = 0.2
"""Seconds between two looks at the clock and the interrupt flag while the workers run."""

Work = Callable[[int, "float | None"], Any]
Failed = Callable[[int, str], Any]


def in_order(count: int, work: Work, failed: Failed, workers: int,
             deadline: float | None = None, grace: float | None = None,
             unstarted: Failed | None = None, stopped: Failed | None = None,
             more: Callable[[], int] | None = None) -> Iterator[Any]:
    """``work(i, time_limit)`` for ``i`` in ``range(count)`` in ``workers`` processes, the
    answers (picklable) yielded in order; ``more()``, when given, makes more pieces known
    once the ``count`` known are handed over (only when a worker is free for the next one,
    after the answers come so far are yielded) and returns how many are known then (no
    more: as many as before); ``failed(i, why)`` stands for a piece whose worker
    failed, ``unstarted(i, why)`` for one the deadline or a stop came before, and
    ``stopped(i, why)`` for one stopped that sent no answer (both ``failed`` by default;
    ``deadline``: a ``time.monotonic()`` value, or None).  The pieces still running past
    the deadline are stopped within ``grace`` seconds of it (default :data:`GRACE`)."""
    pool = _Pool(count, work, failed, max(1, workers if more else min(workers, count)),
                 deadline, GRACE if grace is None else grace, unstarted or failed,
                 stopped or failed, more=more)
    done = 0
    try:
        while not pool.ended(done):
            if pool.overdue():
                pool.stop_all()
            else:
                pool.hand_over()
                if pool.running:
                    for message in wait_any(list(pool.running), POLL):
                        pool.take(message)
            while done in pool.answers:
                yield pool.answers.pop(done)
                done += 1
    except KeyboardInterrupt:  # Ctrl-C where no handler turns it into a request
        interrupt.request()
        pool.stop_all()
        while done < pool.count:
            yield pool.answers.pop(done)
            done += 1
    finally:
        pool.close()


def _serve(work: Work, channel: Channel) -> None:
    """A worker: ``work(index, time_limit)`` for each ``(index, time_limit)`` handed over,
    until ``None``; each answer goes back as ``(index, answer)``."""
    while (job := channel.receive()) is not None:
        index, time_limit = job
        answer = work(index, time_limit)
        leaving = interrupt.requested()  # stopped (Ctrl-C, the deadline, the memory limit):
        channel.send((index, answer, leaving))  # it takes no more work, and says so
        if leaving:
            return


def not_started(deadline: float | None) -> str:
    """Why the next piece of work must not start (``""``: it may): Ctrl-C (or another
    stop asked for), or ``deadline`` (a ``time.monotonic()`` value) passed: ``not started:
    time limit 4 s reached``, in the command's figure (docs/reference/engines.md)."""
    if interrupt.requested():
        return f"not started: {interrupt.reason()}"
    if deadline is not None and time.monotonic() >= deadline:
        return f"not started: {reached()}"
    return ""


@dataclass
class _Pool:
    """The workers, the piece each is running, and the answers not yet yielded."""

    count: int
    work: Work
    failed: Failed
    workers: int
    deadline: float | None
    grace: float = GRACE
    """Seconds past the deadline by which the pieces still running are stopped: half to
    their own clocks (each piece's limit ends at the deadline), half to send their answer
    once asked to stop."""
    unstarted: Failed | None = None
    """Stands for a piece never handed over (the deadline, a stop): ``failed`` if None."""
    stopped: Failed | None = None
    """Stands for a running piece stopped that sent no answer: ``failed`` if None."""
    running: dict[Child, int] = field(default_factory=dict)
    idle: list[Child] = field(default_factory=list)
    answers: dict[int, Any] = field(default_factory=dict)
    next: int = 0
    """The next piece to hand over."""
    more: Callable[[], int] | None = None
    """Makes more pieces known, and says how many are known then (None: ``count`` is all)."""
    knows: dict[Child, int] = field(default_factory=dict)
    """How many pieces each worker knows: those known when it was forked."""

    def ended(self, done: int) -> bool:
        """True once every piece is answered (``done`` of them yielded) and none is to come."""
        return self.more is None and done >= self.count

    def grow(self) -> bool:
        """Make more pieces known (:attr:`more`); False when there are none."""
        if self.more is not None:
            known = self.more()
            if known > self.count:
                self.count = known
                return True
            self.more = None
        return False

    def worker_for(self, index: int) -> Child:
        """An idle worker that knows piece ``index``: one forked now when none does (an
        idle one that does not is told there is no more work)."""
        for worker in self.idle:
            if self.knows[worker] > index:
                self.idle.remove(worker)
                return worker
        if len(self.idle) + len(self.running) >= self.workers:
            stale = self.idle.pop()
            del self.knows[stale]
            try:
                stale.send(None)
            except (OSError, ValueError):  # it has ended already
                pass
            stop([stale], self.grace / 2)
        worker = start(_serve, self.work, name="worker", share=self.workers)
        self.knows[worker] = self.count
        return worker

    def hand_over(self) -> None:
        """Give each free worker the next piece, made known now if need be (past the
        deadline or after Ctrl-C, the pieces left are written off as not started)."""
        while len(self.running) < self.workers and (self.next < self.count or self.grow()):
            why = not_started(self.deadline)
            if why:
                self.skip(why)
                return
            worker = self.worker_for(self.next)
            left = None if self.deadline is None else max(0.01,
                                                          self.deadline - time.monotonic())
            worker.send((self.next, left))
            self.running[worker] = self.next
            self.next += 1

    def skip(self, why: str) -> None:
        """Every piece not handed over yet, also those still to be made known, is
        ``unstarted(index, why)``."""
        while True:
            for index in range(self.next, self.count):
                self.answers[index] = (self.unstarted or self.failed)(index, why)
            self.next = self.count
            if not self.grow():
                return

    def take(self, message: Message) -> None:
        """A worker's answer, or its end (its piece failed; the worker is reaped)."""
        index = self.running.pop(message.child, None)
        if index is None:
            return
        if message.kind is Kind.NOTE:
            number, answer, leaving = message.value
            self.answers[number] = answer
            if leaving:  # it ends: never handed more work (its pipe would be broken)
                message.child.reap(self.grace / 2)
                del self.knows[message.child]
            else:
                self.idle.append(message.child)
            return
        why = (f"the worker failed: {message.value.kind.__name__}: {message.value.text}"
               if message.kind is Kind.FAILED
               else f"the worker process ended without an answer (exit {message.value})")
        self.answers[index] = self.failed(index, why)
        message.child.reap()

    def overdue(self) -> bool:
        """True when running pieces must be stopped: Ctrl-C, or half the grace past the
        deadline."""
        return interrupt.requested() or (self.deadline is not None and
                                         time.monotonic() > self.deadline + self.grace / 2)

    def stop_all(self) -> None:
        """Nothing new starts; the running pieces are asked to stop and have half the grace
        to answer (after Ctrl-C, :data:`GRACE`); those that do not are failed."""
        why = not_started(self.deadline) or "not started: stopped"
        self.skip(why)
        for message in stop(list(self.running),
                            GRACE if interrupt.by_user() else self.grace / 2):
            self.take(message)
        for index in self.running.values():
            self.answers[index] = (self.stopped or self.failed)(
                index, why.replace("not started", "stopped"))
        self.running.clear()
        self.idle.clear()  # every worker was stopped and reaped

    def close(self) -> None:
        """Idle workers are told there is no more work; every worker is stopped and reaped."""
        for worker in self.idle:
            try:
                worker.send(None)
            except (OSError, ValueError):
                pass
        stop([*self.idle, *self.running], self.grace / 2)
        self.idle.clear()
        self.running.clear()
