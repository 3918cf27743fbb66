"""The layered BFS of :mod:`.external` on a Dask cluster.

Each layer is ``P`` partitions held by the workers (``P``: the workers' threads),
partition ``j`` owning the codes whose hash (:func:`.store.owner`) is ``j``.
One layer costs three rounds of tasks:

1. *expand* — one task per partition: canonical successors
   (:func:`.external.expand`), cut into ``P`` pieces by owner;
2. *route and merge* — one task per owner ``j``: piece ``j`` of every expand
   task (moved by Dask from worker to worker), made distinct and stripped of
   partition ``j`` of the earlier layers that can repeat
   (:func:`.external.duplicates_policy`);
3. *count* — orbits and the positions they stand for, per partition.

Only the layer sizes come back to the client; the codes stay on the workers
(Dask spills them to the workers' local disk past their memory limit: the workers of a
local cluster share ``memory`` bytes, by default the command's memory limit,
:func:`~cpsolve.engines.runtime.dask_client.client_for`).  The budget is looked at
between layers and, while a layer is being made, every moment the client waits for it
(:func:`~cpsolve.engines.runtime.dask_client.gather`), so a limit or Ctrl-C stops the
analysis with its complete layers.
Workers build the packed model once per process (:func:`_prepared`).
"""

from __future__ import annotations

import operator
import time
from functools import partial

import numpy as np

from ....answers.kinds import Direction
from ....answers.result import Result, Unsupported
from ...runtime.dask_client import client_for, gather, slots
from ...runtime.stop import Stop
from ..common import Budget
from ..compile import Task, compile_planning
from .codesets import fresh
from .external import FARTHEST_MAX, duplicates_policy, expand, positions, prepare
from .report import layered, prefix
from .store import owner

_CACHE: dict[int, tuple] = {}


def _prepared(model):
    """The packing and symmetry group of ``model``, built once per worker process."""
    found = _CACHE.get(id(model))
    if found is None or found[0] is not model:
        found = (model, *prepare(compile_planning(model)))
        _CACHE[id(model)] = found
    return found[1], found[2]


CHUNK = 1 << 18
"""Frontier states expanded at once inside a task (the arrays of one chunk stay in cache)."""


def _expand(model, codes: np.ndarray, parts: int) -> list[np.ndarray]:
    packed, orbits = _prepared(model)
    pieces: list[list[np.ndarray]] = [[] for _ in range(parts)]
    for i in range(0, codes.size, CHUNK):
        new = expand(packed, orbits, codes[i:i + CHUNK])
        where = owner(new, (parts - 1).bit_length())
        for j in range(parts):
            pieces[j].append(new[where == j])
    return [np.concatenate(p) if p else np.empty(0, np.int64) for p in pieces]


def _merge(earlier: list[np.ndarray], *pieces: np.ndarray) -> np.ndarray:
    return fresh(np.concatenate(pieces), earlier, False)  # binary searches: memory-light


def _count(model, codes: np.ndarray) -> tuple[int, int]:
    return int(codes.size), positions(_prepared(model)[1], codes)


def cluster_layers(task: Task, budget: Budget, direction: Direction | None = None,
                   cluster: int | str | None = None, memory: int | None = None) -> Result:
    """Layers of the states reachable from the start, partitioned over a Dask cluster; or,
    as plain ``analyze`` does by default, back from a single goal state (when every move
    can be undone: the layers from the goal are then the distances to it)."""
    origin, side = _origin(task, direction)
    packed, orbits = prepare(task, symmetry=side == "start")  # the symmetries keep the start
    policy, keep = duplicates_policy(task.model)
    with client_for(cluster or 2, memory, budget.clock.left()) as client:
        parts = 1 << (slots(client) - 1).bit_length()
        model = client.scatter(task.model, broadcast=True)
        start = orbits.canonical(np.array([packed.encode(origin)], np.int64))
        where = owner(start, (parts - 1).bit_length())
        layer = [client.scatter(start[where == j]) for j in range(parts)]
        layers, sizes, kept = [layer], [(1, positions(orbits, start))], keep
        begun, stopped, cut = time.perf_counter(), False, False
        while True:
            if budget.exceeded(sum(s for _, s in sizes)):
                stopped = True
                break
            spread = [client.submit(_expand, model, part, parts, pure=False) for part in layer]
            earlier = layers if kept is None else layers[max(0, len(layers) - kept):]
            layer = [client.submit(_merge, [e[j] for e in earlier],
                                   *[client.submit(operator.getitem, s, j) for s in spread],
                                   pure=False) for j in range(parts)]
            counted = gather(client, [client.submit(_count, model, p) for p in layer],
                             partial(budget.exceeded, sum(s for _, s in sizes)))
            if counted is None:  # a limit or Ctrl-C while the layer was being made
                stopped = True
                break
            found = (sum(c for c, _ in counted), sum(s for _, s in counted))
            if not found[0]:
                break
            seen = sum(s for _, s in sizes)
            if budget.limit is not None and seen + found[1] > budget.limit:  # a limit is a
                # limit: the layer's states up to it, a partial last layer
                kept = _cut(client, model, layer, counted, budget.limit - seen, budget)
                if kept is not None and kept[1]:
                    sizes.append(kept)
                    cut = True
                stopped = True
                break
            sizes.append(found)
            layers.append(layer)
            if kept is not None:  # the last layer stays too: it is the next frontier
                layers = layers[-max(kept, 1):]
            seen = sum(s for _, s in sizes)
            budget.report(_line, [s for _, s in sizes], seen, begun, parts)
        last = np.concatenate(client.gather(layers[-1])) if not stopped and \
            sizes[-1][1] <= FARTHEST_MAX else None
        peak = max(client.run(_peak_rss).values())
    return layered(packed, orbits, sizes, last, budget.reason if stopped else None,
                   {"duplicates": policy, "partitions": parts}, {"worker_peak_rss_mb": peak},
                   side=side, partial=cut)


def _prefix(model, codes: np.ndarray, room: int) -> tuple[int, int]:
    return prefix(_prepared(model)[1], codes, room)


def _cut(client, model, layer: list, counted: list[tuple[int, int]], room: int,
         budget: Budget) -> tuple[int, int] | None:
    """``(orbits, states)`` of the layer's partitions, in order, up to ``room`` states (the
    partition the limit falls in: its first codes, :func:`.external.prefix`); ``None`` when
    the budget stops the count first.  The budget says why it stopped either way."""
    orbits = states = 0
    for part, (o, s) in zip(layer, counted):
        if states + s > room:
            done = gather(client, [client.submit(_prefix, model, part, room - states,
                                                 pure=False)], budget.clock.expired)
            if done is None:  # the clock's reason (time, Ctrl-C)
                budget.halt(budget.clock.stop() or Stop.TIME, budget.clock.why())
                return None
            orbits, states = orbits + done[0][0], states + done[0][1]
            break
        orbits, states = orbits + o, states + s
    budget.halt(Stop.STATES, f"state limit {budget.limit:,} reached")
    return orbits, states


def _origin(task: Task, direction: Direction | None) -> tuple[tuple, Direction]:
    """Where the cluster's sweep starts: the question plain ``analyze`` answers (back from a
    single goal state by default), or a refusal that names the direction it cannot do."""
    from .vector import reversible_moves

    goal = task.goal_state
    single = direction != "start" and goal is not None and task.in_domain(goal)
    if not single:
        if direction == "goal":
            raise Unsupported("search: analyze from the goal: the goal is not a single state")
        return task.initial, "start"
    if reversible_moves(task):
        return goal, "goal"
    raise Unsupported("search: the cluster analysis cannot count back from the goal (the "
                      "default for this model: its goal is one state) because not every "
                      "move can be undone; give --from start, or analyze without a cluster")


def _peak_rss() -> int:
    """This worker process's peak resident memory, in MiB (Linux: ru_maxrss is in KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def _line(sizes: list[int], seen: int, begun: float, parts: int) -> str:
    """The progress line after a layer: its size, states/s, and the next layer's estimate
    (the last growth ratio again)."""
    rate = seen / max(1e-9, time.perf_counter() - begun)
    guess = f"; next layer ~{sizes[-1] * sizes[-1] / sizes[-2]:,.0f}" \
        if len(sizes) > 1 and sizes[-2] else ""
    return (f"depth {len(sizes) - 1}: {sizes[-1]:,} states, {seen:,} seen, {rate:,.0f} "
            f"states/s on {parts} partitions{guess}")


def on_cluster(task: Task, budget: Budget, direction: Direction | None = None,
               options=None) -> Result:
    """The registry's ``cluster`` analysis: :func:`cluster_layers` on ``options.cluster``."""
    return cluster_layers(task, budget, direction, options.cluster if options else None,
                          options.memory_limit if options else None)
