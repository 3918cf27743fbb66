"""A local cluster (``--workers N``): single-threaded worker processes on this machine,
started while a limit or Ctrl-C allows (:class:`NotStarted` otherwise, the processes it
spawned killed), made to share the command's memory limit and to cost little CPU of their
own (:data:`LOCAL`), its workers killed rather than closed once its tasks are abandoned
(:func:`abandon`) or after Ctrl-C, its scratch files in a directory of its own that goes
with it (:func:`scratch`).  Each worker runs :mod:`.worker`'s preload hook."""

from __future__ import annotations

import logging
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .. import interrupt, memory
from ..clock import TimeUp, absorb, reached
from ..processes import tracking
from . import worker
from .logs import silence
from .waiting import POLL, STOP_WAIT

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


class NotStarted(Exception):
    """The start of a local cluster was stopped (its time ran out, Ctrl-C): the processes
    it had spawned are killed.  The message says why."""


_ABANDONED: dict[int, object] = {}


def abandon(client) -> None:
    """The caller stopped with tasks still running on ``client``'s cluster (a time limit):
    a local cluster's workers are killed on the way out, not closed gracefully (a busy
    worker's graceful close waits for its task, seconds on a loaded machine).  On a remote
    cluster the tasks were cancelled; each ends on its own."""
    _ABANDONED[id(client)] = client


def local_client(Client, LocalCluster, workers: int, memory_limit: int | None,
                 connect: float | None, stop: Callable[[], bool] | None) -> Iterator:
    """:func:`.client.client_for`'s client of a local cluster of ``workers`` processes, once
    Dask is imported (a generator: its one value); the workers are killed on the way out
    when the client was :func:`abandon` ed."""
    ended = start_ends(time.monotonic(), connect, stop)
    with scratch() as directory:
        runner = _loop_without_group_signals()
        try:
            with _local_cluster(LocalCluster, workers, runner.loop, memory_limit,
                                ended, directory) as local, Client(local) as client:
                try:
                    yield client
                finally:
                    if _ABANDONED.pop(id(client), None) is client:
                        _kill_workers(local)
        finally:
            runner.stop()


SCRATCH = "cpsolve-dask-"
"""How the name of a local cluster's scratch directory (:func:`scratch`) begins."""


@contextmanager
def scratch() -> Iterator[str]:
    """A new directory in the system's temporary directory (``$TMPDIR``) for a local
    cluster's scratch files — Dask's ``dask-scratch-space``: its locks, a directory per
    worker, the data a worker spills past its memory limit —, removed with all it holds
    when the block ends, however it ends (a limit's cut-off, Ctrl-C, a start that was
    stopped: the workers are killed first, and their lock files, which a killed worker
    cannot remove, go with it)."""
    directory = tempfile.mkdtemp(prefix=SCRATCH)
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def start_ends(called: float, connect: float | None,
                stop: Callable[[], bool] | None) -> Callable[[], str | None]:
    """Why a local cluster's start stops now (None: it goes on): Ctrl-C, ``stop()``, or
    ``connect`` seconds past ``called`` (the time left of the caller's limit, which the
    words name as the user gave it: ``time limit 4 s reached``)."""
    def ended() -> str | None:
        if stop is not None and stop():  # first: the caller then knows why
            return "stopped"
        if interrupt.requested():
            return interrupt.reason()
        if connect is not None and time.monotonic() - called > connect:
            return reached(connect)
        return None
    return ended


@contextmanager
def _local_cluster(make, workers: int, loop, memory_limit: int | None,
                   ended: Callable[[], str | None] = lambda: None,
                   directory: str | None = None) -> Iterator:
    """A LocalCluster of ``workers`` single-threaded processes on ``loop``, sharing
    ``memory_limit`` (see :func:`.client.client_for`), its scratch files in ``directory``
    (:func:`scratch`), started while ``ended()`` says nothing (:func:`started`); shut down
    on exit, its workers killed first after Ctrl-C or a limit (:func:`_kill_workers`)."""
    import dask

    total = memory_limit if memory_limit is not None else memory.limit()
    # read when the scheduler and nannies are made (each makes its scratch space there)
    with dask.config.set({**LOCAL, "temporary-directory": directory}):
        local = started(lambda: make(
            n_workers=workers, threads_per_worker=1, processes=True, loop=loop,
            # any free port on loopback (None would try 8787 and warn)
            dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
            memory_limit=max(1, total // workers) if total else "auto",
            preload=[worker.__name__]), ended)  # worker.dask_setup, in each worker
    try:
        yield local
    finally:
        if interrupt.requested():
            _kill_workers(local)
        local.close()


def started(make: Callable[[], Any], ended: Callable[[], str | None],
             what: str = "the local Dask cluster's start",
             close: Callable[[Any], None] | None = None, settle: float = STOP_WAIT):
    """``make()`` — a local cluster's start, or a connection to a scheduler, which blocks
    for seconds — run in a thread while this one asks ``ended()`` every
    :data:`.waiting.POLL` seconds; once it says why, the start is abandoned
    (:func:`_abandon_start`: what it made is closed by ``close``, by default a local
    cluster's workers killed and the cluster closed) and :class:`NotStarted` raised (``what``
    names the start in its message; ``settle``: seconds the stopped start has to end, what
    it spawns meanwhile killed), as when the start failed once `ended()` says why (a
    signal to the process group), or when the caller's clock cuts the wait
    (:class:`TimeUp`, :func:`~..clock.absorb`)."""
    before = tracking.spawned()
    made: dict[str, Any] = {}
    thread = threading.Thread(target=_make_into, args=(made, make), daemon=True,
                              name="dask-start")
    close = close or _close_cluster
    try:
        thread.start()
        while thread.is_alive():
            thread.join(POLL)
            why = ended() if thread.is_alive() else None
            if why:
                _abandon_start(thread, made, before, close, settle)
                raise NotStarted(f"{what} was stopped: {why}")
    except TimeUp as err:  # the caller's clock, past its grace (this thread had too small
        absorb(err)  # a share of the machine to ask ended() in time): the start is stopped
        _abandon_start(thread, made, before, close, settle)
        raise NotStarted(f"{what} was stopped: {reached(err.limit)}") from None
    if "error" in made:
        why = ended()  # a signal to the process group also ends the nannies starting up
        if why:        # ("Nanny failed to start"): the stop is what happened
            tracking.kill_spawned(before)
            raise NotStarted(f"{what} was stopped: {why}")
        raise made["error"]
    return made["cluster"]


def _make_into(made: dict[str, Any], make: Callable[[], Any]) -> None:
    try:
        made["cluster"] = make()
    except BaseException as exc:  # noqa: BLE001 - raised by the caller (started)
        made["error"] = exc


def _abandon_start(thread: threading.Thread, made: dict[str, Any], before: set,
                   close: Callable[[Any], None], settle: float) -> None:
    """Kill the processes a stopped start spawned (child processes not in ``before``): a
    nanny whose worker is killed fails at once ("Nanny failed to start"), and the start
    with it; those spawned meanwhile are killed as they come, for at most ``settle``
    seconds.  What a start that ended meanwhile made is closed
    (``close``)."""
    silence()
    end = time.monotonic() + settle
    while thread.is_alive() and time.monotonic() < end:
        tracking.kill_spawned(before)
        thread.join(POLL)
    if "cluster" in made:
        close(made["cluster"])
    tracking.kill_spawned(before)


def _close_cluster(local) -> None:
    """A local cluster whose start was abandoned: its workers killed, then closed."""
    _kill_workers(local)
    local.close()


def _kill_workers(local) -> None:
    """Kill the worker processes of the local cluster ``local`` at once: after Ctrl-C their
    tasks are abandoned (what they returned is out), and a graceful close of a busy worker
    takes seconds on a loaded machine.  Each nanny is told first that its worker's end is
    the nanny's too (``closing_gracefully``: it closes itself when its worker exits):
    otherwise it starts a new worker at once, which the cluster's close then had to wait
    for and stop (seconds on a loaded machine, past a limit's cut-off), or which was left
    running.  Dask's loggers are silenced first (:func:`.logs.silence`)."""
    from distributed.core import Status

    silence()
    nannies = list(local.workers.values())
    for nanny in nannies:
        if getattr(nanny, "status", None) is Status.running:
            nanny.status = Status.closing_gracefully
    tracking.kill_now(getattr(nanny, "pid", None) for nanny in nannies)


def _loop_without_group_signals():
    """Dask's IO loop thread, started with SIGINT and SIGTERM blocked
    (:data:`.worker.GROUP_SIGNALS`): the worker processes it spawns inherit the blocked
    signals, so that Ctrl-C at the terminal or SIGTERM, which reach the whole process
    group, cannot interrupt a worker while it is still importing (before
    :func:`.worker.dask_setup` runs), which printed a traceback per worker.  The main thread
    unblocks them at once and answers them as always.  Multiprocessing's resource tracker
    is started first, here: started from the loop thread, it would unblock them there."""
    from distributed.utils import LoopRunner

    runner = LoopRunner()
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        runner.start()
        return runner
    tracking.start_tracker()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, set(worker.GROUP_SIGNALS))
    try:
        runner.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return runner
