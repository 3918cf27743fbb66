"""Where the cluster BFS's partitions live (:mod:`.cluster`): which worker holds each,
the watch over those workers while a round runs, and the exchange between them for one
run.  Imported only with the cluster analysis (Dask is an optional extra)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from ....answers.result import Unsupported
from ..common import Budget


def owners_of(client) -> list[str]:
    """The worker of each partition: as many partitions as the cluster's threads, rounded
    up to a power of two, dealt to the workers thread by thread."""
    threads = [a for a, n in sorted(client.nthreads().items()) for _ in range(max(1, n))]
    if not threads:
        raise Unsupported("search: the Dask cluster has no workers")
    parts = 1 << (len(threads) - 1).bit_length()
    return [threads[j % len(threads)] for j in range(parts)]


def threaded(client, owners: list[str]) -> bool:
    """Whether every partition has a thread of its own (the threads are a power of two):
    the expand tasks of a layer can then all run at once, and one may wait for another."""
    return len(owners) == sum(max(1, n) for n in client.nthreads().values())


def watching(client, owners: list[str], seen: int, budget: Budget):
    """What the client asks while it waits for a round: stop for the budget's reasons, and
    raise when a partition's worker has left the cluster (its tasks could never run: they
    are pinned to it), looked at every :data:`LOOK` seconds."""
    looked = [time.monotonic()]

    def stop() -> bool:
        if budget.exceeded(seen):
            return True
        if time.monotonic() - looked[0] >= LOOK:
            looked[0] = time.monotonic()
            check_workers(client, owners)
        return False
    return stop


def check_workers(client, owners: list[str]) -> None:
    """Raise :class:`Unsupported` saying which partition's worker has left the cluster, or
    that the scheduler stopped answering; nothing when every worker is there."""
    try:
        gone = sorted(set(owners) - set(client.nthreads()))
    except OSError as exc:
        raise Unsupported(f"search: the Dask scheduler stopped answering ({exc})") from None
    if gone:
        raise Unsupported(f"search: the worker at {gone[0]} left the cluster during the "
                          "analysis, with its partitions of the layers")


LOOK = 1.0
"""Seconds between two looks at the cluster's workers while a round runs."""


@contextmanager
def exchange(client) -> Iterator[str]:
    """The workers ready to hand pieces to each other, and a name for this run's pieces;
    what is left of them is cleared on the way out (a stopped run leaves a layer's)."""
    from ...runtime.dask import exchange as dask_exchange

    client.register_plugin(dask_exchange.Exchange())
    run = uuid.uuid4().hex
    try:
        yield run
    finally:
        with suppress(Exception):  # a cluster already going down has nothing to clear
            client.run(dask_exchange.clear, run, wait=False)
