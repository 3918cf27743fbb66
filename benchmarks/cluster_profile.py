"""Where the time of the Dask BFS goes (docs/scale.md, "The same BFS on Dask").

    python benchmarks/cluster_profile.py english33 1 2 --limit 3000000
    python benchmarks/cluster_profile.py eight_puzzle 1 2

Runs ``cluster_layers`` (statespace/cluster.py) from the start on 1, 2, ... local workers
and records Dask's task stream (``Client.get_task_stream``: every task's compute and
transfer intervals on its worker).  Per run it prints the wall time, the layers, and per
kind of task (expand, merge; before the exchange of issue 23, also route and count)
the tasks, their compute seconds and the seconds Dask spent moving their inputs between
workers (the pieces an expand task hands to other workers are inside its compute
time); then how much of ``workers x wall`` the tasks computed (the rest: rounds,
scheduling, the client waiting, idle workers).  The load average is printed with each
run: on a shared machine the figures are upper bounds.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import defaultdict
from contextlib import contextmanager

from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace import cluster
from cpsolve.puzzles.files import load, resolve

KINDS = {"expand": "expand", "expand_part": "expand", "getitem": "route", "merge": "merge",
         "merge_part": "merge", "count": "count"}


def profile(name: str, workers: int, limit: int | None) -> None:
    """One run on ``workers`` local workers, its task stream summed by kind of task."""
    task = compile_planning(load(resolve(name)).model)
    from dask.utils import key_split

    records: list[dict] = []
    original = cluster.client_for

    @contextmanager
    def recorded(*args, **kwargs):
        with original(*args, **kwargs) as client:
            from distributed import get_task_stream

            with get_task_stream(client) as stream:
                yield client
            records.extend(stream.data)

    cluster.client_for = recorded
    try:
        start = time.perf_counter()
        result = cluster.cluster_layers(task, Budget(limit=limit), "start", workers)
        wall = time.perf_counter() - start
    finally:
        cluster.client_for = original
    compute: dict[str, float] = defaultdict(float)
    transfer: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for r in records:
        kind = KINDS.get(key_split(r["key"]).lstrip("_"), "other")
        count[kind] += 1
        for s in r["startstops"]:
            into = compute if s["action"] == "compute" else transfer
            into[kind] += s["stop"] - s["start"]
    busy = sum(compute.values())
    print(f"{name}, {workers} worker(s): {wall:.1f} s wall, {len(result.layers)} layers, "
          f"{result.states:,} states, load {os.getloadavg()[0]:.1f}")
    for kind in ("expand", "route", "merge", "count", "other"):
        if count[kind]:
            print(f"  {kind:7} {count[kind]:5} tasks  compute {compute[kind]:7.2f} s  "
                  f"transfer {transfer[kind]:6.2f} s")
    print(f"  tasks computed {busy:.1f} s of {workers} x {wall:.1f} s = "
          f"{busy / (workers * wall):.0%}; per layer {wall / len(result.layers):.2f} s wall, "
          f"{busy / len(result.layers):.2f} s computing")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("workers", type=int, nargs="+")
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    for n in args.workers:
        profile(args.model, n, args.limit)


if __name__ == "__main__":
    main()
