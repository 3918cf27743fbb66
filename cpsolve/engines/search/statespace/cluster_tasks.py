"""The tasks of the cluster BFS (:mod:`.cluster`) that run on the Dask workers: a
partition of a layer expanded (:func:`expand_part`, its chunks shared between the
workers, :func:`chunks`) and merged into the next layer's partition (:func:`merge_part`),
with the sizes the client reads; each worker builds the packed model once
(:func:`prepared`)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..compile import compile_planning
from .codesets import CHUNK, fresh
from .oneword import expand, positions, prepare
from .report import prefix
from .store import by_owner

_CACHE: dict[int, tuple] = {}


def prepared(model):
    """The packing and symmetry group of ``model``, built once per worker process."""
    found = _CACHE.get(id(model))
    if found is None or found[0] is not model:
        found = (model, *prepare(compile_planning(model)))
        _CACHE[id(model)] = found
    return found[1], found[2]


def expand_part(model, codes: np.ndarray, owners: list[str], key: tuple, part: int,
                waits: bool) -> int:
    """Expand partition ``part`` of a layer, handing the successors cut by owner to the
    workers of their partitions (filed under ``key``,
    :mod:`~cpsolve.engines.runtime.dask.exchange`); the value is how many successor codes
    were handed on.  The partition is expanded :data:`.codesets.CHUNK` states at a time,
    shared: once its own chunks are taken, the task takes the next chunks of the other
    partitions of the layer (:func:`chunks`; ``waits``: every partition has a thread of its
    own, so a partition on another worker whose task has not started yet is waited for),
    so that a worker slowed down (a busier core, a longer merge before) does not hold up
    the round.  Each chunk's pieces travel while the next chunk is expanded, one chunk's
    at most: the sends of the chunk before are waited for first."""
    from ...runtime.dask import exchange as dask_exchange

    packed, orbits = prepared(model)
    dask_exchange.share((*key, "frontier", part), codes, CHUNK)
    sent, made = [], 0
    for chunk in chunks(key, part, owners, waits):
        new = expand(packed, orbits, chunk)
        made += new.size
        dask_exchange.settle(sent)
        sent = dask_exchange.send(key, by_owner(new, (len(owners) - 1).bit_length()), owners)
    dask_exchange.settle(sent)
    return made


def chunks(key: tuple, part: int, owners: list[str], waits: bool) -> Iterator[np.ndarray]:
    """The chunks of partition ``part`` of the layer, then those still left of the other
    partitions (from the next one on, round the circle), each taken from its owner's
    worker by whichever task asks first: every chunk goes to exactly one task.  With
    ``waits``, a partition on another worker that is not shared yet is waited for (never
    one on this worker: its task may be waiting for this task's thread)."""
    from ...runtime.dask import exchange as dask_exchange

    for k in [*range(part, len(owners)), *range(part)]:
        wait = waits and owners[k] != owners[part]
        while (chunk := dask_exchange.steal((*key, "frontier", k), owners[k], wait)) \
                is not None:
            yield chunk


def merge_part(model, key: tuple, earlier: list[np.ndarray], expanded: list[int]) -> np.ndarray:
    """The partition of the next layer: the pieces filed under ``key`` on this worker, made
    distinct and stripped of this partition of the layers that can repeat; its size
    ``(orbits, positions)`` is noted under ``key`` for the client.  ``expanded``: what the
    layer's expand tasks handed on (the merge is their dependant, so it runs once every
    piece has arrived)."""
    from ...runtime.dask import exchange as dask_exchange

    pieces = dask_exchange.take(key)
    raw = np.concatenate(pieces) if pieces else np.empty(0, np.int64)
    made = fresh(raw, earlier, False, True)  # binary searches: memory-light; the pieces
    # are sorted runs (cut from sorted chunks)
    dask_exchange.note(key, part_size(prepared(model)[1], made))
    return made


def part_size(orbits, codes: np.ndarray) -> tuple[int, int]:
    """``(orbits, positions)`` of a partition."""
    return int(codes.size), positions(orbits, codes)


def prefix_of(model, codes: np.ndarray, room: int) -> tuple[int, int]:
    """``(orbits, states)`` of the first codes of a partition, up to ``room`` states
    (:func:`.report.prefix`)."""
    return prefix(prepared(model)[1], codes, room)


def peak_rss() -> int:
    """This worker process's peak resident memory, in MiB (Linux: ru_maxrss is in KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
