"""The Dask client for ``--workers N`` (a local cluster) or ``--scheduler ADDRESS``, and work
run there within its limits.

The one place that starts or joins a cluster: the partitioned analysis
(:mod:`cpsolve.engines.search.statespace.cluster`), batches and ``compare``
(:mod:`cpsolve.workflows.batch.cluster`) all use :func:`client_for`, and batches and compare
run their tasks through :func:`each`.  Dask is an optional extra (``pip install
'cpsolve[dask]'``): it is imported here only, when a cluster is asked for.

The limits, the same on every path:

* memory — the workers of a local cluster share the command's memory limit
  (:func:`.memory.limit`), each an equal part; on a worker, a task's engines stop
  themselves at :data:`TASK_SHARE` of that worker's limit, before Dask pauses or kills it;
* time — :func:`each` gives every task a budget (seconds) when it submits it, and the
  task hands it to its engines as their time limit; the client stops waiting ``grace``
  seconds past it, cancels the task and, on a local cluster, restarts the worker still
  running it, so that a task that does not stop never holds up the others;
* stop — Ctrl-C or SIGTERM (:func:`.interrupt.requested`) makes :func:`each` submit no
  more tasks and ask the running ones to stop (:func:`.interrupt.request` in their
  workers): what they return within :data:`STOP_WAIT` seconds is yielded, the others are
  cancelled, and every item is accounted for; the local cluster is shut down on exit.
  The workers of a local cluster ignore SIGINT (:func:`dask_setup`): the client answers it.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

from ...answers.result import Unsupported
from . import interrupt, memory, processes
from .clock import Clock, state_limit, stated
from .stop import Stop

MISSING = ("a Dask cluster needs the optional extra: pip install 'cpsolve[dask]' "
           "(dask[distributed])")

TASK_SHARE = 0.75
"""A task's engines stop at this fraction of their worker's memory limit: below Dask's
pause (80 %) and terminate (95 %) thresholds, so they return what they have instead."""

STOP_WAIT = 1.5
"""Seconds the client waits, after Ctrl-C, for the running tasks to return what they have
(their engines stop within a second) before it cancels them."""

REACH = 0.5
"""Seconds a worker has to accept the client's stop request (:func:`_run_briefly`): one
that a signal to the process group ended refuses it, and Dask would retry for 30 s."""

CONNECT = 10.0
"""Seconds a scheduler has to answer when no time limit is shorter."""

POLL = 0.05
"""Seconds between two looks at the running tasks, the clock and the interrupt flag."""

KEEP_MALLOC = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
"""Dask starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536``, to hand freed memory back
to the system at once.  Setting it turns off glibc's sliding mmap threshold, so every large
NumPy array is mapped afresh and faulted in page by page: English 33's layers took 26.4 s
instead of 15.9 s in one process with that setting (60 M states).  Local workers start
without it (:data:`LOCAL`); docs/scale.md says how to do the same on a cluster."""

LOCAL = {KEEP_MALLOC: None,
         "distributed.admin.tick.interval": "1s",
         "distributed.worker.profile.enabled": False,
         "distributed.worker.memory.monitor-interval": "250ms"}
"""Dask's settings for a local cluster (read when its scheduler and nannies are made, and
handed by the nannies to their workers): :data:`KEEP_MALLOC`, and less of Dask's own
housekeeping, which shares the cores with the work.  Measured idle over 10 s with two
workers: the main process (scheduler, nannies, client) 64 ms of CPU per second and each
worker 44 ms by default; 30 and 5 ms with these (the event loops' 20 ms health tick, the
workers' statistical profiler sampling every 10 ms, the memory monitor every 100 ms).
English 33 on two workers: 24.0 s (median of 5 whole runs) against 27.1 s by default."""


def import_dask() -> None:
    """Import Dask now (the caller's clock may stop it: a second or more on a loaded
    machine); not installed: nothing (:func:`client_for` says what to install)."""
    try:
        import distributed  # noqa: F401 - for client_for
    except ImportError:
        pass


class NotStarted(Exception):
    """The start of a local cluster was stopped (its time ran out, Ctrl-C): the processes
    it had spawned are killed.  The message says why."""


@contextmanager
def client_for(cluster: int | str, memory_limit: int | None = None,
               connect: float | None = None,
               stop: Callable[[], bool] | None = None) -> Iterator:
    """A connected ``distributed.Client``: a LocalCluster of ``cluster`` single-threaded
    worker processes, or the scheduler at the address ``cluster``.

    The local workers share ``memory_limit`` bytes (default: the command's memory limit,
    :func:`.memory.limit`; Dask's own default when there is none), each an equal part; the
    local cluster is shut down on exit.  Its start (seconds, many on a loaded machine) ends
    with :class:`NotStarted` once ``stop()`` says so, or Ctrl-C, or ``connect`` seconds
    have passed.  A scheduler that does not answer within ``connect`` seconds (at most
    :data:`CONNECT`; the caller's time left) is :class:`Unsupported`, as is an address
    where something else answers.
    """
    called = time.monotonic()
    try:  # here, not in a thread (a stop waits for it: imports of two threads can clash)
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise Unsupported(MISSING) from exc
    if connect is not None:  # importing Dask took some of it
        connect -= time.monotonic() - called
    with _one_line_logs():
        yield from _connected(Client, LocalCluster, cluster, memory_limit, connect, stop)


def _connected(Client, LocalCluster, cluster: int | str, memory_limit: int | None,
               connect: float | None, stop: Callable[[], bool] | None) -> Iterator:
    """:func:`client_for`'s client, once Dask is imported (a generator: its one value)."""
    if isinstance(cluster, int):
        ended = _start_ends(time.monotonic(), connect, stop)
        runner = _loop_without_sigint()
        try:
            with _local_cluster(LocalCluster, cluster, runner.loop, memory_limit,
                                ended) as local, Client(local) as client:
                try:
                    yield client
                finally:
                    if _ABANDONED.pop(id(client), None) is client:
                        _kill_workers(local)
        finally:
            runner.stop()
        return
    wait = CONNECT if connect is None else max(0.2, min(CONNECT, 0.8 * connect))
    try:
        client = Client(cluster, timeout=f"{wait:.3f}s")
    except Exception as exc:  # noqa: BLE001 - nothing there, or something that is not Dask
        _discard(exc, Client)
        why = "something that is not a Dask scheduler answered" if isinstance(
            exc, MemoryError) else f"{type(exc).__name__}: {exc}"
        raise Unsupported(f"no Dask scheduler answered at {cluster} within {wait:.3g} s "
                          f"({why})") from None
    with client:
        yield client


_ABANDONED: dict[int, object] = {}


def abandon(client) -> None:
    """The caller stopped with tasks still running on ``client``'s cluster (a time limit):
    a local cluster's workers are killed on the way out, not closed gracefully (a busy
    worker's graceful close waits for its task, seconds on a loaded machine).  On a remote
    cluster the tasks were cancelled; each ends on its own."""
    _ABANDONED[id(client)] = client


def _start_ends(called: float, connect: float | None,
                stop: Callable[[], bool] | None) -> Callable[[], str | None]:
    """Why a local cluster's start stops now (None: it goes on): Ctrl-C, ``stop()``, or
    ``connect`` seconds past ``called``."""
    def ended() -> str | None:
        if stop is not None and stop():  # first: the caller then knows why
            return "stopped"
        if interrupt.requested():
            return interrupt.reason()
        if connect is not None and time.monotonic() - called > connect:
            return "time limit reached"
        return None
    return ended


@contextmanager
def _local_cluster(make, workers: int, loop, memory_limit: int | None,
                   ended: Callable[[], str | None] = lambda: None) -> Iterator:
    """A LocalCluster of ``workers`` single-threaded processes on ``loop``, sharing
    ``memory_limit`` (see :func:`client_for`), started while ``ended()`` says nothing
    (:func:`_started`); shut down on exit, its workers killed first after Ctrl-C
    (:func:`_kill_workers`)."""
    import dask

    total = memory_limit if memory_limit is not None else memory.limit()
    with dask.config.set(LOCAL):  # read when the scheduler and nannies are made
        local = _started(lambda: make(
            n_workers=workers, threads_per_worker=1, processes=True, loop=loop,
            # any free port on loopback (None would try 8787 and warn)
            dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
            memory_limit=max(1, total // workers) if total else "auto",
            preload=[__name__]), ended)  # dask_setup below, in each worker
    try:
        yield local
    finally:
        if interrupt.requested():
            _kill_workers(local)
        local.close()


def _started(make: Callable[[], Any], ended: Callable[[], str | None]):
    """``make()`` — a local cluster's start, which blocks for seconds — run in a thread
    while this one asks ``ended()`` every :data:`POLL` seconds; once it says why, the
    start is abandoned (:func:`_abandon_start`) and :class:`NotStarted` raised, as when
    the start failed once `ended()` says why (a signal to the process group)."""
    before = processes.spawned()
    made: dict[str, Any] = {}
    thread = threading.Thread(target=_make_into, args=(made, make), daemon=True,
                              name="dask-start")
    thread.start()
    while thread.is_alive():
        thread.join(POLL)
        why = ended() if thread.is_alive() else None
        if why:
            _abandon_start(thread, made, before)
            raise NotStarted(f"the local Dask cluster's start was stopped: {why}")
    if "error" in made:
        why = ended()  # a signal to the process group also ends the nannies starting up
        if why:        # ("Nanny failed to start"): the stop is what happened
            processes.kill_spawned(before)
            raise NotStarted(f"the local Dask cluster's start was stopped: {why}")
        raise made["error"]
    return made["cluster"]


def _make_into(made: dict[str, Any], make: Callable[[], Any]) -> None:
    try:
        made["cluster"] = make()
    except BaseException as exc:  # noqa: BLE001 - raised by the caller (_started)
        made["error"] = exc


def _abandon_start(thread: threading.Thread, made: dict[str, Any], before: set) -> None:
    """Kill the processes a stopped start spawned (child processes not in ``before``): a
    nanny whose worker is killed fails at once ("Nanny failed to start"), and the start
    with it; those spawned meanwhile are killed as they come, for at most
    :data:`STOP_WAIT` seconds.  A start that ended meanwhile is closed."""
    _silence()
    end = time.monotonic() + STOP_WAIT
    while thread.is_alive() and time.monotonic() < end:
        processes.kill_spawned(before)
        thread.join(POLL)
    if "cluster" in made:
        _kill_workers(made["cluster"])
        made["cluster"].close()
    processes.kill_spawned(before)


def _silence() -> None:
    """Silence Dask's loggers: each connection closed by a kill would log a traceback, and
    after a stop (a signal to the process group ends the workers too) each task or
    broadcast to a worker gone logs an error that is no error of the run's."""
    for name in list(logging.root.manager.loggerDict):
        if name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class _OneLine(logging.Formatter):
    """A Dask log record as one line on stderr: ``dask scheduler error: message``, the
    exception's type and message in place of its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's one line."""
        text = record.getMessage().strip().splitlines()
        line = text[0] if text else ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            line += f": {type(exc).__name__}: {exc}".rstrip(": ").splitlines()[0]
        return f"dask {record.name.split('.')[-1]} {record.levelname.lower()}: {line}"


def _stream_handlers() -> list[logging.StreamHandler]:
    """The handlers by which Dask's logs reach a stream (stderr)."""
    return [h for h in logging.getLogger("distributed").handlers
            if isinstance(h, logging.StreamHandler)]


@contextmanager
def _one_line_logs() -> Iterator[None]:
    """While a cluster is used: what Dask logs (its errors, at the level
    :func:`_local_cluster` leaves) and asyncio's errors in Dask's event loop (a task's
    exception never retrieved) are one line each on stderr (:class:`_OneLine`), never a
    traceback; the handlers are as they were afterwards."""
    one = _OneLine()
    handlers = _stream_handlers()
    kept = [h.formatter for h in handlers]
    for handler in handlers:
        handler.setFormatter(one)
    loop_log = logging.getLogger("asyncio")
    ours = logging.StreamHandler()
    ours.setFormatter(one)
    ours.setLevel(logging.ERROR)
    loop_log.addHandler(ours)
    propagates, loop_log.propagate = loop_log.propagate, False
    try:
        yield
    finally:
        for handler, formatter in zip(handlers, kept):
            handler.setFormatter(formatter)
        loop_log.removeHandler(ours)
        loop_log.propagate = propagates


def _kill_workers(local) -> None:
    """Kill the worker processes of the local cluster ``local`` at once: after Ctrl-C their
    tasks are abandoned (what they returned is out), and a graceful close of a busy worker
    takes seconds on a loaded machine.  Dask's loggers are silenced first (:func:`_silence`)."""
    _silence()
    processes.kill_now(getattr(nanny, "pid", None) for nanny in list(local.workers.values()))


def _loop_without_sigint():
    """Dask's IO loop thread, started with SIGINT blocked: the worker processes it spawns
    inherit the blocked signal, so that Ctrl-C at the terminal, which reaches the whole
    process group, cannot interrupt a worker while it is still importing (before
    :func:`dask_setup` runs), which printed a traceback per worker.  The main thread
    unblocks it at once and answers Ctrl-C as always.  Multiprocessing's resource tracker
    is started first, here: started from the loop thread, it would unblock SIGINT there."""
    from distributed.utils import LoopRunner

    runner = LoopRunner()
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        runner.start()
        return runner
    processes.start_tracker()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        runner.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return runner


def _discard(exc: BaseException, kind: type) -> None:
    """Close the half-made client a failed ``Client(...)`` left in ``exc``'s traceback now
    (its ``__del__`` would otherwise print a traceback later, at garbage collection)."""
    tb = exc.__traceback__
    while tb is not None:
        client = tb.tb_frame.f_locals.get("self")
        tb = tb.tb_next
        if not isinstance(client, kind):
            continue
        try:
            client.close(timeout=0.2)
        except Exception:  # noqa: BLE001 - a client that never connected
            client.status = "closed"
            runner = getattr(client, "_loop_runner", None)
            if runner is not None:
                runner.stop()
        return


def dask_setup(worker) -> None:  # noqa: ARG001 - Dask's preload hook
    """In each worker of a local cluster, at its start: Ctrl-C at the terminal reaches the
    whole process group, and the client alone answers it (it cancels the tasks and shuts
    the cluster down), so the worker ignores it instead of dying with a traceback."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    one = _OneLine()
    for handler in _stream_handlers():
        handler.setFormatter(one)


def gather(client, futures: list, stop: Callable[[], bool]) -> list | None:
    """``client.gather(futures)``, asking ``stop()`` every :data:`POLL` seconds while it
    waits: ``None`` (the futures cancelled) once it says to stop — a time limit, Ctrl-C —
    so that work on the cluster never holds up a stop."""
    return client.gather(futures) if finished(client, futures, stop) else None


class Cancelled(Exception):
    """Futures waited for were cancelled by the cluster, not by the caller (the worker that
    held what they needed died, say)."""


def finished(client, futures: list, stop: Callable[[], bool],
             dependents: list | None = None) -> bool:
    """Wait until every future has finished, asking ``stop()`` every :data:`POLL` seconds:
    False (the futures cancelled) once it says to stop.  A future that failed raises its
    error here, one that the cluster cancelled :class:`Cancelled`; the values stay on the
    workers.

    ``dependents``: futures submitted already whose tasks need ``futures`` (a layer
    submitted ahead); a stop cancels them first (:func:`cancel_all`)."""
    from distributed import wait

    while True:
        try:
            wait(futures, timeout=POLL)
        except TimeoutError:
            if stop():
                cancel_all(client, dependents or [], futures)
                return False
            continue
        except Exception:  # Dask's cancellation error (its class moved between versions)
            if any(future.cancelled() for future in futures):
                raise Cancelled("the cluster cancelled tasks waited for") from None
            raise
        for future in futures:
            if future.status == "error":
                future.result()  # raises the task's error
        if any(future.cancelled() for future in futures):
            raise Cancelled("the cluster cancelled tasks waited for")
        return True


def cancel_all(client, *batches: list) -> None:
    """Cancel ``batches`` of futures in the order given: the tasks that depend on others
    first.  The scheduler's cancel of a task goes on to the tasks that depend on it, and
    fails (``assert ts.who_wants``, a traceback on stderr) on one that no client holds a
    future for, such as an expand task of a layer submitted ahead; cancelled first, those
    dependents are gone when the tasks they needed are cancelled."""
    for futures in batches:
        if futures:
            client.cancel(futures)


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
    stop (Ctrl-C) waits for the running tasks :data:`STOP_WAIT` seconds at most within it.
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
                yield Outcome(item, error="not started: time limit reached", started=False)
                continue
            future = self.client.submit(_task, self.work, item, seconds, stated(None),
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
        :data:`STOP_WAIT` seconds found."""
        _silence()  # a shutdown now: a signal to the process group ends the workers too
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


def _task(work: Callable[..., Any], item: Any, seconds: float | None,
          said: float | None = None) -> Any:
    """On a worker: ``work(item, time_limit=seconds)`` with this process's limits set for
    it; its messages name ``said``, the command's time limit (:func:`.clock.state_limit`)."""
    interrupt.clear()  # a stop asked for in an earlier task of this process is not ours
    memory.set_limit(_worker_memory())
    state_limit(said)
    return work(item, time_limit=seconds)


def _worker_memory() -> int | None:
    """:data:`TASK_SHARE` of this worker's memory limit (None when it has none)."""
    try:
        from distributed import get_worker

        nbytes = get_worker().memory_manager.memory_limit
    except (ImportError, ValueError, AttributeError):
        return None
    return int(nbytes * TASK_SHARE) if nbytes else None
