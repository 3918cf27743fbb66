"""The one door to a cluster: :func:`client_for` gives a connected ``distributed.Client``,
of a local cluster it starts (``--workers N``, :mod:`.local`) or of the scheduler at an
address (``--scheduler ADDRESS``), with Dask's logs one line each while it is used
(:mod:`.logs`).  Dask is imported here when a cluster is asked for, never before."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ....answers.result import Unsupported
from ..clock import TimeUp, absorb, reached
from .local import NotStarted, local_client, start_ends, started
from .logs import one_line_logs

MISSING = ("a Dask cluster needs the optional extra: pip install 'cpsolve[dask]' "
           "(dask[distributed])")

CONNECT = 10.0
"""Seconds a scheduler has to answer when no time limit is shorter."""


def import_dask() -> None:
    """Import Dask now (the caller's clock may stop it: a second or more on a loaded
    machine); not installed: nothing (:func:`client_for` says what to install)."""
    try:
        import distributed  # noqa: F401 - for client_for
    except ImportError:
        pass


@contextmanager
def client_for(cluster: int | str, memory_limit: int | None = None,
               connect: float | None = None,
               stop: Callable[[], bool] | None = None) -> Iterator:
    """A connected ``distributed.Client``: a LocalCluster of ``cluster`` single-threaded
    worker processes, or the scheduler at the address ``cluster``.

    The local workers share ``memory_limit`` bytes (default: the command's memory limit,
    :func:`.memory.limit`; Dask's own default when there is none), each an equal part; the
    local cluster is shut down on exit.  Its start (seconds, many on a loaded machine) ends
    with :class:`.local.NotStarted` once ``stop()`` says so, or Ctrl-C, or ``connect``
    seconds have passed; so does Dask's import when the caller's clock cuts it
    (:class:`TimeUp`, :func:`~..clock.absorb`).  A scheduler that does not answer within
    ``connect`` seconds (at most :data:`CONNECT`; the caller's time left) is
    :class:`Unsupported`, as is an address where something else answers; the wait for it
    ends with :class:`.local.NotStarted` once ``stop()`` says so or Ctrl-C comes.
    """
    if isinstance(cluster, str) and refused(cluster):
        raise Unsupported(f"no Dask scheduler at {cluster}: the connection was refused "
                          "(nothing listens on that port)")
    called = time.monotonic()
    try:  # here, not in a thread (a stop waits for it: imports of two threads can clash)
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise Unsupported(MISSING) from exc
    except TimeUp as err:  # the import outlasted the time (seconds on a loaded machine)
        absorb(err)
        raise NotStarted(f"{reached(err.limit)} while Dask was imported") from None
    if connect is not None:  # importing Dask took some of it
        connect -= time.monotonic() - called
    with one_line_logs():
        if isinstance(cluster, int):
            yield from local_client(Client, LocalCluster, cluster, memory_limit, connect, stop)
        else:
            yield from _remote_client(Client, cluster, connect, stop)


PROBE = 1.0
"""Seconds a look at the scheduler's port takes at most before Dask's own connect."""

DEFAULT_PORT = 8786
"""A Dask scheduler's port when its address names none."""


def refused(address: str) -> bool:
    """Whether the host of ``address`` (``[tcp://|tls://]host[:port]``) refuses a connection
    to its port at once: nothing listens there, and Dask would retry for its whole timeout.
    A host that does not answer (or any other failure) is left to Dask's connect."""
    import socket

    rest = address.split("://", 1)[-1]
    host, colon, port = rest.rpartition(":") if not rest.endswith("]") else ("", "", "")
    if not colon or not port.isdigit():
        host, port = rest, str(DEFAULT_PORT)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE):
            return False
    except ConnectionRefusedError:
        return True
    except (OSError, ValueError, OverflowError):
        return False


def _remote_client(Client, address: str, connect: float | None,
                   stop: Callable[[], bool] | None = None) -> Iterator:
    """:func:`client_for`'s client of the scheduler at ``address``, once Dask is imported
    (a generator: its one value).  Dask's connect waits out its timeout whatever comes
    meanwhile (Ctrl-C only sets the stop flag): it runs in a thread while this one asks
    for a stop (:func:`.local.started`), the thread left to end on its own (it spawns
    nothing: no wait for it)."""
    wait = CONNECT if connect is None else max(0.2, min(CONNECT, 0.8 * connect))
    try:
        client = started(lambda: Client(address, timeout=f"{wait:.3f}s"),
                         start_ends(time.monotonic(), None, stop),
                         f"the connection to the Dask scheduler at {address}",
                         lambda made: made.close(timeout=0.2), settle=0.0)
    except NotStarted:
        raise
    except Exception as exc:  # noqa: BLE001 - nothing there, or something that is not Dask
        _discard(exc, Client)
        why = "something that is not a Dask scheduler answered" if isinstance(
            exc, MemoryError) else f"{type(exc).__name__}: {exc}"
        raise Unsupported(f"no Dask scheduler answered at {address} within {wait:.3g} s "
                          f"({why})") from None
    with client:
        yield client


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
