"""Waiting for work on a cluster without ever holding up a stop: futures waited for while
``stop()`` is asked every :data:`POLL` seconds (:func:`gather`, :func:`finished`), and
cancelled in an order the scheduler accepts (:func:`cancel_all`)."""

from __future__ import annotations

from collections.abc import Callable

POLL = 0.05
"""Seconds between two looks at the running tasks, the clock and the interrupt flag."""

STOP_WAIT = 1.5
"""Seconds the client waits, after Ctrl-C, for the running tasks to return what they have
(their engines stop within a second) before it cancels them."""


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
