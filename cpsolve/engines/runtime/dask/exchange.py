"""Arrays handed from one Dask worker straight to another, without a task per piece.

A partitioned computation on Dask (the cluster BFS,
:mod:`cpsolve.engines.search.statespace.cluster`) ends each round with every partition
holding a piece for every other one.  As Dask tasks that is ``P^2`` small tasks per round,
each a scheduler round trip; here it is one message per piece, from the sending task to the
receiving worker, and none of it goes through the scheduler or the client:

* :class:`Exchange`, a worker plugin, gives every worker a handler (:data:`OP`) that files
  the pieces it receives under their key, in this worker process's :data:`_BOX`;
* inside a task, :func:`send` hands piece ``j`` to worker ``owners[j]`` (a piece for the
  task's own worker is filed directly, not copied) while the task goes on computing, and
  :func:`settle` waits until every piece sent has arrived;
* a later task on the receiving worker :func:`take` s what was filed under its key;
* a task may also leave a small value for the client (:func:`note`), which reads every
  worker's at once (:func:`notes`, run by ``client.run``): a partition's size, without a
  task that would move the partition;
* a task may offer the array it works through, chunk by chunk (:func:`share`): it takes
  the chunks itself (:func:`next_chunk`), and a task on another worker that has finished
  its own takes the next ones too (:func:`steal`, a second handler, :data:`LEND`), so that
  the round ends when the work does, not when the slowest worker's part does.  A thief
  may wait for an array that is still to be shared (its owner's task has not started):
  the lending worker answers once it is shared, or once the run has ended.

:func:`clear` ends a run on a worker: what was filed for it goes, and pieces still arriving
for it (from tasks of a stopped run that were already running) are dropped.

The pieces in transit are held by the receiving worker outside Dask's own memory manager
(they are not spilled): one round's pieces, as they were when they were Dask results.
Imported only when a cluster is asked for (Dask is an optional extra).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Hashable

import numpy as np
from distributed import get_worker
from distributed.diagnostics.plugin import WorkerPlugin
from distributed.protocol.serialize import to_serialize

OP = "cpsolve_piece"
"""The name of the workers' handler for arriving pieces."""

LEND = "cpsolve_chunk"
"""The name of the workers' handler that hands out the next chunk of a shared array."""

WAIT = 0.002
"""Seconds between two looks, on the lending worker, for an array still to be shared."""

FILED = "filed"
"""The handler's answer: a sender that gets anything else (no handler there) fails."""

_BOX: dict[tuple, list[np.ndarray]] = {}
_NOTES: dict[tuple, object] = {}
_SHARED: dict[tuple, list] = {}  # key: [array (None once all taken), next start, chunk size]
_ENDED: set = set()
_LOCK = threading.Lock()


class Exchange(WorkerPlugin):
    """Registered with ``client.register_plugin``: every worker, present and future, files
    the pieces sent to it (:func:`send`)."""

    name = "cpsolve-exchange"

    def setup(self, worker) -> None:
        worker.handlers[OP] = _arrived
        worker.handlers[LEND] = _lent


def _arrived(key=None, piece=None) -> str:
    _file(tuple(key), piece)
    return FILED


def _file(key: tuple, piece: np.ndarray) -> None:
    with _LOCK:
        if key[0] not in _ENDED:
            _BOX.setdefault(key, []).append(piece)


def send(key: tuple[Hashable, ...], pieces: list[np.ndarray], owners: list[str]) -> list:
    """Hand ``pieces[j]`` to worker ``owners[j]``, filed under ``(*key, j)``; empty pieces are
    not sent.  Called from a task; returns at once, the sends going on in the worker's event
    loop (:func:`settle` waits for these futures)."""
    worker = get_worker()
    sent = []
    for j, (piece, address) in enumerate(zip(pieces, owners)):
        if not piece.size:
            continue
        if address == worker.address:  # a copy: the piece is a view of the whole chunk
            _file((*key, j), piece.copy())
            continue
        call = worker.rpc(address)
        sent.append(asyncio.run_coroutine_threadsafe(
            getattr(call, OP)(key=[*key, j], piece=to_serialize(piece)),
            worker.loop.asyncio_loop))
    return sent


def settle(sent: list) -> None:
    """Wait until every piece of :func:`send` has been filed by its worker (a failed send
    raises here, and fails the task)."""
    for future in sent:
        if future.result() != FILED:
            raise RuntimeError(f"a worker did not file a piece (no {OP!r} handler there)")


def share(key: tuple[Hashable, ...], codes: np.ndarray, size: int) -> None:
    """Offer ``codes`` on this worker under ``key``, ``size`` at a time: the chunks go to
    whoever asks first, :func:`next_chunk` here or :func:`steal` on another worker."""
    with _LOCK:
        if key[0] not in _ENDED:
            _SHARED[tuple(key)] = [codes, 0, size]


def next_chunk(key: tuple[Hashable, ...]) -> np.ndarray | None:
    """The next chunk of what this worker shares under ``key``; None once none is left (or
    none was shared: a task that asks before the owner's task has shared finds nothing)."""
    return _offered(tuple(key))[0]


def _offered(key: tuple) -> tuple[np.ndarray | None, bool]:
    """``(the next chunk under key, whether it is still to be shared)``: ``(None, True)``
    before the owner's task shares it (unless its run has ended), ``(None, False)`` once
    every chunk has been taken (the key stays, without the array, until the run ends)."""
    with _LOCK:
        entry = _SHARED.get(key)
        if entry is None:
            return None, key[0] not in _ENDED
        codes, start, size = entry
        if codes is None or start >= codes.size:
            entry[0] = None
            return None, False
        entry[1] = start + size
    return codes[start:start + size], False


async def _lent(key=None, wait=False) -> dict:
    key = tuple(key)
    while True:
        chunk, pending = _offered(key)
        if not (wait and pending):
            return {"chunk": None if chunk is None else to_serialize(chunk)}
        await asyncio.sleep(WAIT)


def steal(key: tuple[Hashable, ...], address: str, wait: bool = False) -> np.ndarray | None:
    """The next chunk of what the worker at ``address`` shares under ``key`` (None: none
    left).  ``wait``: an array that is still to be shared is waited for (its owner's task
    has not started) — never on this task's own worker, whose thread may be the one the
    owner's task waits for; the wait ends with the run (:func:`clear`).  Called from a
    task."""
    worker = get_worker()
    if address == worker.address:
        return next_chunk(key)
    asked = asyncio.run_coroutine_threadsafe(
        getattr(worker.rpc(address), LEND)(key=list(key), wait=wait), worker.loop.asyncio_loop)
    return asked.result()["chunk"]


def take(key: tuple[Hashable, ...]) -> list[np.ndarray]:
    """The pieces filed under ``key`` on this worker, removed from it."""
    with _LOCK:
        return _BOX.pop(tuple(key), [])


def note(key: tuple[Hashable, ...], value: object) -> None:
    """Leave ``value`` under ``key`` on this worker for the client (:func:`notes`)."""
    with _LOCK:
        if key[0] not in _ENDED:
            _NOTES[tuple(key)] = value


def notes(prefix: tuple[Hashable, ...]) -> dict[tuple, object]:
    """The values noted on this worker under keys that start with ``prefix``, removed from
    it (run on every worker by ``client.run``)."""
    prefix = tuple(prefix)
    with _LOCK:
        found = [k for k in _NOTES if k[:len(prefix)] == prefix]
        return {k: _NOTES.pop(k) for k in found}


async def clear(run: Hashable) -> None:
    """End ``run`` (the first part of its keys) on this worker: forget its pieces, notes and
    shared arrays, and drop pieces that still arrive for it.  Run on every worker
    (``client.run``, which need not wait for a coroutine)."""
    with _LOCK:
        _ENDED.add(run)
        for box in (_BOX, _NOTES, _SHARED):
            for key in [k for k in box if k[0] == run]:
                del box[key]
