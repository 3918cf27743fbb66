"""Work run on a cluster within its limits: :func:`each` runs one task per item, at most one
per slot at a time, each with a time budget, and yields an :class:`Outcome` for every item
— done, failed, late, cut off, not started — so that none is ever lost; Ctrl-C asks the
running tasks to stop in their workers and yields what they return in time."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from .. import interrupt
from ..clock import Clock, reached, stated
from ..stop import Stop
from .client import client_for
from .local import NotStarted, abandon
from .logs import silence
from .waiting import POLL, STOP_WAIT
from .worker import run_task

REACH = 0.5
"""Seconds a worker has to accept the client's stop request (:func:`_run_briefly`): one
that a signal to the process group ended refuses it, and Dask would retry for 30 s."""


def slots(client) -> int:
    """How many tasks the cluster runs at once: its workers' threads (at least 1)."""
    return max(1, sum(client.nthreads().values()))


@dataclass(frozen=True)
class Outcome:
    """What became of one item: the task's value, or why there is none (``error``)."""

    item: Any
    value: Any = None
    error: str = ""
    started: bool = True
    """False: the item was never submitted (no time left, a stop, the cluster did not
    start), so ``error`` says why it was not started."""
    cut_off: bool = False
    """True: the task was still running when the caller's time ran out (``until`` of
    :func:`each`): ``error`` says so; nothing it found came back."""


def each(items: Iterable, work: Callable[..., Any], cluster: int | str,
         budget: Callable[[int, int], float | None] | None = None,
         grace: float = 10.0, start: float | None = None,
         until: Clock | None = None) -> Iterator[Outcome]:
    """``work(item, time_limit=seconds)`` as one task per item, at most one per slot at
    a time, yielded as each finishes — also a task that raised or whose worker died, one
    still running ``grace`` seconds past its budget, an item whose budget is spent
    before it starts and, after Ctrl-C, every item not finished: none is ever lost.

    ``budget(items not yet started, slots)`` gives the next task's seconds when it is
    submitted (``None``: no limit; zero or less: no time left, the item is not started);
    without ``budget`` no task has a limit.  ``start``: seconds for the cluster to start
    or answer (the command's time left; ``None``: no limit), which no task's budget cuts.

    ``until``: the caller's own time (a command's, less what it does after the tasks):
    once it is up, no task is waited for any longer, whatever its ``grace`` — each task
    still running is an outcome ``cut_off`` (cancelled; a local cluster's workers are
    killed on the way out, not closed), each item not submitted one not started — and a
    stop (Ctrl-C) waits for the running tasks :data:`.waiting.STOP_WAIT` seconds at most within it.
    """
    waiting = deque(items)
    with ExitStack() as stack:
        try:
            client = stack.enter_context(client_for(cluster, connect=start))
        except Exception as exc:  # the start stopped (NotStarted), or a Ctrl-C to the
            # process group reached the workers starting up ("Nanny failed to start")
            if not (isinstance(exc, NotStarted) or interrupt.requested()):
                raise
            why = interrupt.reason() if interrupt.requested() else str(exc)
            yield from (Outcome(item, error=f"not started: {why}", started=False)
                        for item in waiting)
            return
        flight = _Flight(client, work, grace, owned=isinstance(cluster, int), until=until)
        try:
            while (waiting or flight.running) and not interrupt.requested():
                yield from flight.start(waiting, budget)
                ended = list(flight.ended())
                yield from ended
                if not ended:
                    time.sleep(POLL)
            why = interrupt.reason() if interrupt.requested() else ""
            if why:
                yield from flight.wind_down(why, interrupt.kind())
        except OSError as err:  # the scheduler went away (a closed comm is an OSError)
            why = f"the cluster failed: {err}"
        yield from flight.abandon(why)
        yield from (Outcome(item, error=f"not started: {why}", started=False)
                    for item in waiting)


@dataclass
class _Task:
    item: Any
    seconds: float | None
    overdue: float | None  # time.monotonic() past which the client stops waiting for it


class _Flight:
    """The tasks running on the cluster, by future."""

    def __init__(self, client, work: Callable[..., Any], grace: float, owned: bool,
                 until: Clock | None = None):
        self.client, self.work, self.grace, self.owned = client, work, grace, owned
        self.until = until
        self.slots = slots(client)
        self.running: dict[Any, _Task] = {}

    def out_of_time(self) -> bool:
        """True once the caller's time (``until``) is up: no task is waited for."""
        return self.until is not None and self.until.time_up()

    def start(self, waiting: deque,
              budget: Callable[[int, int], float | None] | None) -> Iterator[Outcome]:
        """Submit waiting items while a slot is free; yield those with no time left."""
        while waiting and len(self.running) < self.slots:
            item = waiting.popleft()
            seconds = None if budget is None else budget(len(waiting) + 1, self.slots)
            if self.out_of_time() or (seconds is not None and seconds <= 0):
                yield Outcome(item, error=f"not started: {reached()}", started=False)
                continue
            future = self.client.submit(run_task, self.work, item, seconds, stated(None),
                                        pure=False)
            overdue = None if seconds is None else time.monotonic() + seconds + self.grace
            self.running[future] = _Task(item, seconds, overdue)

    def ended(self) -> Iterator[Outcome]:
        """The tasks that finished, failed or are overdue (these are cancelled)."""
        now, late = time.monotonic(), self.out_of_time()
        for future, task in list(self.running.items()):
            if future.done():
                del self.running[future]
                yield _outcome(future, task.item)
            elif late:  # the caller's time is up: its own grace no longer counts
                del self.running[future]
                future.cancel()
                if self.owned:
                    abandon(self.client)
                yield Outcome(task.item, error=f"not finished: {self.until.limit_reached()}",
                              cut_off=True)
            elif task.overdue is not None and now > task.overdue:
                del self.running[future]
                self._stop(future)
                yield Outcome(task.item, error=f"not finished within its budget "
                              f"({task.seconds:.3g} s + {self.grace:g} s grace)")

    def wind_down(self, why: str, kind: Stop) -> Iterator[Outcome]:
        """Ask the running tasks to stop (:func:`.interrupt.request` with ``why`` and
        ``kind`` in their workers) and yield what those that return within
        :data:`.waiting.STOP_WAIT` seconds found."""
        silence()  # a shutdown now: a signal to the process group ends the workers too
        where = self._workers(self.running)
        try:
            if where:
                _run_briefly(self.client, interrupt.request, why, kind, workers=where)
        except (OSError, ValueError):
            return
        wait = STOP_WAIT
        if self.until is not None and self.until.limit is not None:
            wait = min(wait, max(0.0, self.until.limit - self.until.elapsed()))
        end = time.monotonic() + wait
        while self.running and time.monotonic() < end:
            ended = list(self.ended())
            yield from ended
            if not ended:
                time.sleep(POLL)

    def abandon(self, why: str) -> Iterator[Outcome]:
        """Cancel every running task, each an outcome saying ``why`` (the local cluster's
        workers end with it)."""
        for future, task in list(self.running.items()):
            del self.running[future]
            future.cancel()
            yield Outcome(task.item, error=f"not finished: {why}")

    def _stop(self, future) -> None:
        """Cancel a task; on a local cluster also restart the worker running it (a thread
        cannot be stopped from outside, a worker process can)."""
        where = self._workers([future]) if self.owned else []
        future.cancel()
        if where:  # in the background: a restart under load can take many seconds
            threading.Thread(target=_restart, args=(self.client, where), daemon=True,
                             name="dask-restart").start()

    def _workers(self, futures: Iterable) -> list[str]:
        """The addresses of the workers running ``futures``."""
        keys = {future.key for future in futures}
        try:
            return [w for w, running in self.client.processing().items()
                    if keys.intersection(running)]
        except OSError:
            return []


def _run_briefly(client, function: Callable[..., Any], *args: Any,
                 workers: list[str]) -> None:
    """``client.run(function, *args)`` on ``workers``, each given :data:`REACH` seconds
    to be reached: a worker ended by a signal to the process group refuses the
    connection, which Dask retries for its connect timeout (30 s by default) before it
    gives up.  (The scheduler of a local cluster runs in this process and reads that
    setting at each connection.)"""
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": f"{REACH}s"}):
        client.run(function, *args, workers=workers, on_error="ignore")


def _restart(client, workers: list[str]) -> None:
    """Restart ``workers`` (their nannies start fresh processes); a failure is ignored: the
    worker is gone either way, or the cluster is being shut down."""
    try:
        client.restart_workers(workers, timeout=60, raise_for_error=False)
    except Exception:  # noqa: BLE001 - e.g. the client closed meanwhile
        pass


def _outcome(future, item) -> Outcome:
    """The outcome of a finished future."""
    if future.status == "finished":
        return Outcome(item, future.result())
    if future.status == "error":
        return Outcome(item, error=f"the task failed: {future.exception()!r}")
    return Outcome(item, error=f"the task was {future.status}")
