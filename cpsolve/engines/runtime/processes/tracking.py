"""The child processes multiprocessing started, whoever asked for them (a Dask nanny's
workers too): its resource tracker started on purpose, those still running, and killing
them."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterable
from contextlib import suppress
from multiprocessing.process import BaseProcess


def start_tracker() -> None:
    """Start multiprocessing's resource tracker now, from the calling thread: whichever
    thread starts it gets SIGINT and SIGTERM unblocked (Python's tracker does that), which
    would undo a mask set on purpose (the Dask client's loop thread,
    :func:`..dask.client.client_for`)."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()


def spawned() -> set[BaseProcess]:
    """The child processes of this process that multiprocessing started and that still run
    (whoever started them: a Dask nanny's workers too)."""
    return set(multiprocessing.active_children())


def kill_spawned(since: set[BaseProcess]) -> None:
    """SIGKILL the children of :func:`spawned` that are not in ``since`` (a start that was
    stopped half-way: :func:`..dask.local._abandon_start`)."""
    kill_now(child.pid for child in spawned() - since)


def kill_now(pids: Iterable[int | None]) -> None:
    """SIGKILL each of ``pids`` (``None``: a process not started yet); one already gone is
    no error."""
    for pid in pids:
        if pid:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
