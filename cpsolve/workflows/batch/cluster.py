"""A batch or ``compare`` on a Dask cluster: each instance one task, yielded as it finishes
(:func:`on_cluster`, through :mod:`cpsolve.engines.runtime.dask`), and the batch's
own end inside the command's time limit (:func:`cluster_time`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ...engines.runtime.clock import Clock
from .budget import TaskBudget
from .items import Item

CLUSTER_GRACE = 10.0
"""Seconds past a cluster task's budget before the batch gives up waiting for it — never
past the batch's own end under a time limit (:func:`cluster_time`)."""

CLUSTER_RETURN = 1.0
"""Seconds of a command's time limit kept, on a cluster, between the end of the tasks'
budgets and the end of the batch's waiting: a task's answer comes back to the client
(a worker's engine stops at its next step, on a loaded machine too).  At most a quarter of
the time left (:func:`cluster_time`)."""

CLUSTER_CLOSE = 0.5
"""Seconds of a command's time limit kept, on a cluster, after the batch's waiting: the
client closed (a local cluster's workers killed or closed), before the command's own tail
(the summary printed).  At most an eighth of the time left (:func:`cluster_time`)."""


def import_dask() -> None:
    """Import Dask now, for a batch or compare on a cluster (under the caller's clock:
    :func:`cpsolve.engines.runtime.dask.client.import_dask`)."""
    from ...engines.runtime.dask.client import import_dask as now

    now()


def on_cluster(items: list[Item], work, cluster: int | str, budget: TaskBudget,
               failed, unstarted=None, cut=None) -> Iterator:
    """``work(item, time_limit=...)`` for every item as one task on a Dask cluster, yielded
    as they finish (:func:`cpsolve.engines.runtime.dask.tasks.each`).

    Each task gets its seconds from ``budget`` when it starts; one with none left, or not
    submitted before Ctrl-C or because the cluster did not start, is ``unstarted(item,
    "not started: ...")`` (``failed`` by default).  ``failed(item, reason)`` stands in for
    the answer of an item whose task raised (its worker died), had not finished
    :data:`CLUSTER_GRACE` seconds past its budget, or was stopped by Ctrl-C.  Under a
    time limit the batch ends on its own before the command's clock does
    (:func:`cluster_time`): a task still running then is ``cut(item, "not finished: time
    limit ... reached")`` (``failed`` by default), an item not submitted ``unstarted``.

    An item whose file did not load is no task: its answer, ``work``'s on that item here
    (its own error, which names the file), comes after the cluster's, also when they
    were cut short by a stop; with no item loaded no cluster is started.
    """
    from ...engines.runtime.dask.tasks import each

    loaded = [item for item in items if item.puzzle is not None]
    if loaded:
        tasks, until = cluster_time(budget)
        for done in each(loaded, work, cluster, tasks.seconds, CLUSTER_GRACE,
                         start=(until or budget.clock).left(), until=until):
            if not done.error:
                yield done.value
            elif done.cut_off:
                yield (cut or failed)(done.item, done.error)
            else:
                yield (failed if done.started else unstarted or failed)(done.item, done.error)
    yield from (work(item, time_limit=None) for item in items if item.puzzle is None)


def cluster_time(budget: TaskBudget) -> tuple[TaskBudget, Clock | None]:
    """The tasks' budget and the batch's own clock on a cluster, under the command's clock
    (``budget.clock``; none without a limit): the batch stops waiting for its tasks
    :data:`CLUSTER_CLOSE` before the ``budget.keep`` seconds that end the command (the
    summary printed), so that the command's clock never cuts it — its :data:`CLUSTER_GRACE`
    for a late task is bounded by that; the tasks' budgets end :data:`CLUSTER_RETURN`
    earlier still, for their answers to come back."""
    left = budget.clock.left()
    if left is None:
        return budget, None
    spare = max(0.0, left - budget.keep)
    close, back = min(CLUSTER_CLOSE, spare / 8), min(CLUSTER_RETURN, spare / 4)
    return (replace(budget, keep=budget.keep + close + back),
            budget.clock.child(max(0.0, spare - close)))
