"""The layered BFS of :mod:`.external` on a Dask cluster.

Each layer is ``P`` partitions (``P``: the workers' threads, rounded up to a power of
two), partition ``j`` owning the codes whose hash (:func:`.store.owner`) is ``j`` and
pinned to one worker (:func:`.partitions.owners_of`), with the same partition of every layer.
One layer costs ``2P`` tasks, submitted together (the merges depend on every expand
task, so Dask starts them without a round trip to the client):

1. *expand* — one task per partition: canonical successors (:func:`.oneword.expand`) of
   its chunks, then of those still left of the other partitions (a task that is done with
   its own takes them over, chunk by chunk, and waits for a partition not yet shared),
   cut by owner with one sort, each piece handed straight to its owner's worker
   (:mod:`~cpsolve.engines.runtime.dask.exchange`: no task, scheduler or client per
   piece, and the pieces of one chunk travel while the next is expanded);
2. *merge* — one task per partition ``j`` on its worker: the pieces it received, made
   distinct and stripped of partition ``j`` of the earlier layers that can repeat
   (:func:`.external.duplicates_policy`); it notes the partition's size, which the
   client reads from every worker at once (``client.run``).

Without a state limit the client keeps one layer ahead: the next layer's tasks are
submitted before this one is made, so a worker done with its merge goes straight on to
expand its partition of the next layer (and takes the other partitions' chunks as they
are shared) instead of waiting for the slower merge and the client.  With a state limit
each layer's size is read before the layer is expanded: the limit cuts the layer it
falls in without expanding it.

Only the layer sizes come back to the client; the codes stay on the workers
(Dask spills them to the workers' local disk past their memory limit: the workers of a
local cluster share ``memory`` bytes, by default the command's memory limit,
:func:`~cpsolve.engines.runtime.dask.client.client_for`).  The budget is looked at
between layers and, while a layer is being made, every moment the client waits for it
(:func:`~cpsolve.engines.runtime.dask.waiting.finished`), so a limit or Ctrl-C stops the
analysis with its complete layers (the tasks of the round are cancelled, and a local
cluster's busy workers killed, :func:`~cpsolve.engines.runtime.dask.local.abandon`; on a
remote cluster a running task finishes, and the pieces it still sends are dropped).
A worker that leaves the cluster takes its partitions with it: the analysis stops with
an error that says so.
The tasks that run on the workers are in :mod:`.cluster_tasks`; each worker builds the
packed model once per process.
"""

from __future__ import annotations

import time

import numpy as np

from ....answers.kinds import Direction
from ....answers.result import Result, Unsupported
from ....answers.words import plural
from ...runtime.dask.client import client_for
from ...runtime.dask.local import NotStarted, abandon
from ...runtime.dask.waiting import Cancelled, finished, gather
from ...runtime.stop import Stop
from ..common import Budget
from ..compile import Task
from .cluster_tasks import expand_part, merge_part, part_size, peak_rss, prefix_of
from .external import FARTHEST_MAX, duplicates_policy
from .layers import NOT_SINGLE_GOAL
from .oneword import prepare
from .partitions import check_workers, exchange, owners_of, threaded, watching
from .report import layered
from .store import by_owner


def _counted(client, key: tuple, parts: int) -> list[tuple[int, int]]:
    """The sizes the merge tasks of layer ``key`` noted, partition by partition."""
    from ...runtime.dask import exchange as dask_exchange

    noted: dict[tuple, tuple[int, int]] = {}
    for found in client.run(dask_exchange.notes, key).values():
        noted.update(found)
    missing = [j for j in range(parts) if (*key, j) not in noted]
    if missing:
        raise RuntimeError(f"the merge of partition {missing[0]} left no size")
    return [tuple(noted[(*key, j)]) for j in range(parts)]


def cluster_layers(task: Task, budget: Budget, direction: Direction | None = None,
                   cluster: int | str | None = None, memory: int | None = None) -> Result:
    """Layers of the states reachable from the start, partitioned over a Dask cluster; or,
    as plain ``analyze`` does by default, back from a single goal state (when every move
    can be undone: the layers from the goal are then the distances to it).

    One layer is ``2P`` tasks: *expand* every partition of the newest layer, then *merge*
    the pieces each partition's worker received (which notes the new partition's size),
    submitted one layer ahead unless a state limit needs each layer's size first
    (:func:`_sweep`).
    """
    origin, side = _origin(task, direction)
    packed, orbits = prepare(task, symmetry=side == "start")  # the symmetries keep the start
    policy, keep = duplicates_policy(task.model)
    first = orbits.canonical(np.array([packed.encode(origin)], np.int64))
    try:
        with client_for(cluster or 2, memory, budget.clock.left(),
                        lambda: budget.exceeded(0)) as client, exchange(client) as run:
            return _layers(client, run, task.model, budget, packed, orbits, first,
                           policy, keep, side)
    except NotStarted as stopped:  # the cluster never ran: the start is what is known
        return layered(packed, orbits, [part_size(orbits, first)], None,
                       budget.reason or str(stopped), {"duplicates": policy}, {}, side=side)


def _layers(client, run: str, model, budget: Budget, packed, orbits, first: np.ndarray,
            policy: str, keep: int | None, side: Direction) -> Result:
    """:func:`cluster_layers` on the started cluster: the layers from ``first``."""
    owners = owners_of(client)
    parts = len(owners)
    model = client.scatter(model, broadcast=True)
    start = by_owner(first, (parts - 1).bit_length())
    layers = [[client.scatter(start[j], workers=[owners[j]]) for j in range(parts)]]
    sizes = [part_size(orbits, first)]
    rounds = _Rounds(client, model, owners, run, threaded(client, owners))
    stopped, cut = _sweep(rounds, budget, keep, layers, sizes)
    last = np.concatenate(client.gather(layers[-1])) if not stopped and \
        sizes[-1][1] <= FARTHEST_MAX else None
    # a worker that left after the last layer takes only its figure with it
    peak = max(client.run(peak_rss, on_error="ignore").values(), default=0)
    return layered(packed, orbits, sizes, last, budget.reason if stopped else None,
                   {"duplicates": policy, "partitions": parts}, {"worker_peak_rss_mb": peak},
                   side=side, partial=cut)


class _Rounds:
    """The tasks that make layers on the cluster: per layer, an expand and a merge task per
    partition, on the partition's worker."""

    def __init__(self, client, model, owners: list[str], run: str, waits: bool) -> None:
        self.client, self.model, self.owners, self.run = client, model, owners, run
        self.waits = waits

    def submit(self, frontier: list, earlier: list[list], depth: int) -> list:
        """Layer ``depth``'s partitions (futures): ``frontier`` (futures too) expanded, then
        merged against the ``earlier`` layers that can repeat.  The merges depend on every
        expand task, so Dask starts them without a round trip to the client; and a layer
        submitted before its frontier is made has each expand task start as soon as its
        partition's merge is done."""
        key, owners = (self.run, depth), self.owners
        expanded = [self.client.submit(expand_part, self.model, part, owners, key, j, self.waits,
                                       workers=[owners[j]], pure=False)
                    for j, part in enumerate(frontier)]
        return [self.client.submit(merge_part, self.model, (*key, j), [e[j] for e in earlier],
                                   expanded, workers=[owners[j]], pure=False)
                for j in range(len(owners))]

    def wait(self, layer: list, depth: int, watch,
             following: list | None = None) -> list[tuple[int, int]] | None:
        """The sizes of layer ``depth``'s partitions (futures ``layer``) once it is made;
        None when ``watch`` stops it first (its tasks cancelled, and before them those of
        the ``following`` layer, submitted ahead: they depend on it).  A worker that dies
        takes the partitions it held, and Dask cancels the tasks that needed them: that is
        said as the worker having left (:func:`.partitions.check_workers`), as is a task that
        lost its connection to the peer it was handing pieces to: the worker may be gone
        before the scheduler has seen it leave, so it is looked for a while."""
        try:
            if not finished(self.client, layer, watch, dependents=following):
                return None
            return _counted(self.client, (self.run, depth), len(self.owners))
        except Cancelled:
            check_workers(self.client, self.owners)
            raise
        except OSError:  # distributed's CommClosedError among them, also from the sizes' ask
            _look_for_the_gone(self.client, self.owners)
            raise

    def cancel(self, layer: list | None) -> None:
        """Cancel a layer submitted ahead that is not wanted."""
        if layer is not None:
            self.client.cancel(layer)


GONE_WAIT = 5.0
"""Seconds a lost connection waits for the scheduler to see a worker leave."""


def _look_for_the_gone(client, owners: list[str]) -> None:
    """Raise :func:`.partitions.check_workers`'s error once a partition's worker is seen to
    have left, looking for at most :data:`GONE_WAIT` seconds; nothing if none has."""
    until = time.monotonic() + GONE_WAIT
    while True:
        check_workers(client, owners)
        if time.monotonic() >= until:
            return
        time.sleep(0.2)


def _sweep(rounds: _Rounds, budget: Budget, keep: int | None, layers: list[list],
           sizes: list[tuple[int, int]]) -> tuple[bool, bool]:
    """Add layers to ``layers`` (the futures of the ones that can repeat, and the newest)
    and ``sizes`` until none is new or the budget stops it: ``(stopped, cut)``, ``cut``
    when the last of ``sizes`` is a layer cut at the state limit.

    Without a state limit the next layer is submitted before this one is made (one layer
    ahead: a worker done with its merge goes on to expand its partition, and takes chunks
    of the others as they come); a state limit is looked at before a layer is expanded,
    so with one each layer waits for the one before."""
    begun = time.perf_counter()
    client, owners = rounds.client, rounds.owners
    ahead = budget.limit is None
    pending = None
    while True:
        seen = sum(s for _, s in sizes)
        if budget.exceeded(seen):
            rounds.cancel(pending)
            abandon(client)
            return True, False
        if pending is None:
            pending = rounds.submit(layers[-1], _earlier(layers, keep), len(sizes))
        following = rounds.submit(pending, _earlier([*layers, pending], keep),
                                  len(sizes) + 1) if ahead else None
        counted = rounds.wait(pending, len(sizes), watching(client, owners, seen, budget),
                              following)
        if counted is None:  # a limit or Ctrl-C: the layers so far are complete (both
            abandon(client)  # layers' tasks cancelled; they may still run)
            return True, False
        found = (sum(c for c, _ in counted), sum(s for _, s in counted))
        if not found[0]:
            rounds.cancel(following)
            return False, False
        if budget.limit is not None and seen + found[1] > budget.limit:  # a limit is a
            # limit: the layer's states up to it, a partial last layer
            kept = _cut(client, rounds.model, pending, counted, budget.limit - seen, budget)
            if kept is not None and kept[1]:
                sizes.append(kept)
                return True, True
            return True, False
        sizes.append(found)
        layers.append(pending)
        if keep is not None:  # the newest layer stays too: it is the next frontier
            del layers[:-max(keep, 1)]
        pending = following
        budget.report(_line, [s for _, s in sizes], seen + found[1], begun, len(owners))


def _earlier(layers: list[list], keep: int | None) -> list[list]:
    """The layers the next one is merged against: those that can repeat in it (``keep``:
    the newest ones; None: all)."""
    return layers if keep is None else layers[max(0, len(layers) - keep):]


def _cut(client, model, layer: list, counted: list[tuple[int, int]], room: int,
         budget: Budget) -> tuple[int, int] | None:
    """``(orbits, states)`` of the layer's partitions, in order, up to ``room`` states (the
    partition the limit falls in: its first codes, :func:`.external.prefix`); ``None`` when
    the budget stops the count first.  The budget says why it stopped either way."""
    orbits = states = 0
    for part, (o, s) in zip(layer, counted):
        if states + s > room:
            done = gather(client, [client.submit(prefix_of, model, part, room - states,
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
            raise Unsupported(f"search: analyze from the goal: {NOT_SINGLE_GOAL}")
        return task.initial, "start"
    if reversible_moves(task):
        return goal, "goal"
    raise Unsupported("search: the cluster analysis cannot count back from the goal (the "
                      "default for this model: its goal is one state) because not every "
                      "move can be undone; give --from start, or analyze without a cluster")


def _line(sizes: list[int], seen: int, begun: float, parts: int) -> str:
    """The progress line after a layer: its size, states/s, and the next layer's estimate
    (the last growth ratio again)."""
    rate = seen / max(1e-9, time.perf_counter() - begun)
    guess = f"; next layer ~{sizes[-1] * sizes[-1] / sizes[-2]:,.0f}" \
        if len(sizes) > 1 and sizes[-2] else ""
    return (f"depth {len(sizes) - 1}: {plural(sizes[-1], 'state')}, {seen:,} seen, {rate:,.0f} "
            f"states/s on {parts} partitions{guess}")


def on_cluster(task: Task, budget: Budget, direction: Direction | None = None,
               options=None) -> Result:
    """The registry's ``cluster`` analysis: :func:`cluster_layers` on ``options.cluster``."""
    return cluster_layers(task, budget, direction, options.cluster if options else None,
                          options.memory_limit if options else None)
