"""What runs in a worker process: the preload hook every worker of a local cluster runs at
its start (:func:`dask_setup`; :mod:`.local` names this module as the preload), and the
wrapper that runs one task with this process's limits set for it (:func:`run_task`)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

from .. import interrupt, memory
from ..clock import state_limit
from .logs import OneLine, stream_handlers

TASK_SHARE = 0.75
"""A task's engines stop at this fraction of their worker's memory limit: below Dask's
pause (80 %) and terminate (95 %) thresholds, so they return what they have instead."""


GROUP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""What reaches a local cluster's workers as it reaches the command: Ctrl-C at the terminal,
and ``timeout``'s or ``kill -- -PGID``'s SIGTERM, go to the whole process group."""


def dask_setup(worker) -> None:  # noqa: ARG001 - Dask's preload hook
    """In each worker of a local cluster, at its start: Ctrl-C at the terminal, or SIGTERM
    to the process group, reaches the workers too, and the client alone answers it (it
    asks the tasks to stop with what they have, cancels them and shuts the cluster down),
    so the worker ignores it instead of dying with a traceback — or, at SIGTERM, with the
    layers of a partitioned analysis, which then lost what it had and the scheduler
    logged it."""
    if threading.current_thread() is threading.main_thread():
        for sig in GROUP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
    one = OneLine()
    for handler in stream_handlers():
        handler.setFormatter(one)


def run_task(work: Callable[..., Any], item: Any, seconds: float | None,
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
