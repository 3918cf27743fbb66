"""A Dask client for ``--workers N`` (a local cluster) or ``--scheduler ADDRESS``.

The one place that starts or joins a cluster; the partitioned analysis
(:mod:`cpsolve.engines.search.statespace.cluster`) and the batch runner
(:mod:`cpsolve.workflows.batch`) use it.  Dask is an optional extra (``pip install
'cpsolve[dask]'``): it is imported here only, when a cluster is asked for.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ...answers.result import Unsupported

MISSING = ("a Dask cluster needs the optional extra: pip install 'cpsolve[dask]' "
           "(dask[distributed])")


@contextmanager
def client_for(cluster: int | str, memory_limit: int | None = None) -> Iterator:
    """A connected ``distributed.Client``: a LocalCluster of ``cluster`` single-threaded
    worker processes (each with ``memory_limit`` bytes, if given), or the scheduler at the
    address ``cluster``.  The local cluster is shut down on exit."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise Unsupported(MISSING) from exc
    if isinstance(cluster, int):
        local = LocalCluster(n_workers=cluster, threads_per_worker=1, processes=True,
                             dashboard_address=None, silence_logs=logging.ERROR,
                             memory_limit=memory_limit or "auto")
        try:
            with Client(local) as client:
                yield client
        finally:
            local.close()
        return
    try:
        client = Client(cluster, timeout="10s")
    except OSError as exc:
        raise Unsupported(f"no Dask scheduler at {cluster}: {exc}") from exc
    with client:
        yield client


def each(items: Iterable, work: Callable[[Any], Any], cluster: int | str,
         timeout: float | None = None) -> Iterator[tuple[Any, Any, str]]:
    """``work(item)`` as one task per item, yielded as ``(item, value, "")`` when each
    finishes; ``(item, None, why)`` for a task that raised (or whose worker died) and, once
    ``timeout`` seconds have passed, for every task not finished (it is cancelled)."""
    with client_for(cluster) as client:
        from distributed import as_completed

        futures = {client.submit(work, item, pure=False): item for item in items}
        done = set()
        try:
            for future, value in as_completed(futures, with_results=True, raise_errors=False,
                                              timeout=timeout):
                done.add(future)
                if future.status == "error":
                    yield futures[future], None, f"the task failed: {value[1]!r}"
                else:
                    yield futures[future], value, ""
        except TimeoutError:
            pass
        for future, item in futures.items():
            if future not in done:
                future.cancel()
                yield item, None, "not finished: time limit reached"
