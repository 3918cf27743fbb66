"""States per second and peak memory of the analyses made for scale (docs/scale.md).

    python benchmarks/scale.py            # small spaces, interleaved with the in-memory peer
    python benchmarks/scale.py english33  # + English 33 on disk, and on 1, 2, 4 Dask workers
    python benchmarks/scale.py full       # + English 33 on disk without symmetry (187 M codes)
    python benchmarks/scale.py dask [N]   # only: English 33 on 1 and 2 local Dask workers
                                          # against each other, whole processes, N rounds
                                          # (5 by default: a shared machine's speed drifts
                                          # by a fifth from one run to the next)

Each measurement runs in its own interpreter, so its peak resident memory
(``ru_maxrss``) is its own.  Peers run in the same round, alternately, and
ratios are printed: the machine is shared, absolute times are upper bounds.
The in-memory peer is the NumPy analysis (statespace/vector.py) where it fits
in memory; for English 33 the only peer figure is the issue's hand-written
numba BFS (516 s with a 1 GiB bit map, measured by the issue's author here,
not re-run: numba is no dependency of cpsolve).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CROSS = ('family = "pegs"\nname = "cross 21"\nmetric = "jumps"\ngoal_peg = [2, 2]\n'
         'board = """\n ooo\nooooo\noo.oo\nooooo\n ooo\n"""\n')

RUN = """
import json, resource, sys, tempfile, time
from cpsolve.puzzles.files import load, resolve
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning

def main():
    kind, name, arg = sys.argv[1], sys.argv[2], sys.argv[3]
    task = compile_planning(load(resolve(name)).model)
    start = time.perf_counter()
    if kind == "numpy":
        from cpsolve.engines.search.statespace.vector import numpy_layers
        result = numpy_layers(task, Budget(), "start")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    elif kind == "external":
        from cpsolve.engines.search.statespace.external import Disk, external_layers
        with tempfile.TemporaryDirectory() as work:
            memory, symmetry = arg.split(",")
            result = external_layers(task, Budget(), "start",
                                     Disk(work, memory=int(memory), symmetry=symmetry == "1"))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    else:
        from cpsolve.engines.search.statespace.cluster import cluster_layers
        result = cluster_layers(task, Budget(), "start", int(arg))
        peak = result.details["worker_peak_rss_mb"]
    seconds = time.perf_counter() - start
    print("BENCH", json.dumps({"states": result.answer.states, "seconds": seconds,
                               "orbits": result.details.get("orbits"), "peak_mb": peak,
                               "partitions": result.details.get("partitions")}))

if __name__ == "__main__":
    main()
"""


def measure(kind: str, name: str, arg: str = "") -> dict:
    """One analysis in a fresh interpreter: states, seconds, orbits, peak memory (MiB)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(textwrap.dedent(RUN))
    proc = subprocess.run([sys.executable, f.name, kind, name, arg], capture_output=True,
                          text=True, cwd=ROOT)
    Path(f.name).unlink()
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("BENCH ")]
    if not line:
        raise SystemExit(f"{kind} {name} failed:\n{proc.stderr[-2000:]}")
    return json.loads(line[-1].removeprefix("BENCH "))


def show(label: str, m: dict) -> None:
    orbits = f", {m['orbits']:,} orbits" if m.get("orbits") else ""
    print(f"  {label:<34} {m['states']:>12,} states{orbits} in {m['seconds']:7.2f} s "
          f"= {m['states'] / m['seconds']:>12,.0f} states/s, peak {m['peak_mb']:,} MiB",
          flush=True)


def small(cross: str) -> None:
    print("External BFS (1 MiB budget: many buckets) against the in-memory NumPy analysis:")
    for name in ("eight_puzzle", "line_puzzle", cross):
        ext, mem = [], []
        for _ in range(3):  # interleaved
            ext.append(measure("external", name, f"{1 << 20},1"))
            mem.append(measure("numpy", name))
        best_ext = min(ext, key=lambda m: m["seconds"])
        best_mem = min(mem, key=lambda m: m["seconds"])
        print(f" {Path(name).stem}:")
        show("external (best of 3)", best_ext)
        show("numpy in memory (best of 3)", best_mem)
        print(f"  ratio external / in-memory time: "
              f"{best_ext['seconds'] / best_mem['seconds']:.2f}")


def english33(full: bool) -> None:
    print("English 33 from the standard start (issue: 187,636,299 positions, 23,475,688 up to "
          "symmetry; numba BFS peer 516 s):")
    disk = measure("external", "english33", f"{1 << 30},1")
    show("on disk, 1 GiB budget, symmetry", disk)
    print(f"  ratio to the numba peer's 516 s: {disk['seconds'] / 516:.3f}")
    for workers in (1, 2, 4):
        m = measure("cluster", "english33", str(workers))
        show(f"Dask, {workers} worker(s)/partition(s)", m)
        print(f"  ratio to on disk: {m['seconds'] / disk['seconds']:.2f}")
    if full:
        m = measure("external", "english33", f"{1 << 30},0")
        show("on disk, 1 GiB budget, no symmetry", m)
        print(f"  ratio to the numba peer's 516 s: {m['seconds'] / 516:.3f}")


def dask(rounds: int = 5) -> None:
    """Issue 23's check: ``cpsolve analyze english33 --from start --workers N`` as a whole
    process (the cluster's start included), 1 and 2 workers interleaved round by round,
    and the one-process analysis on disk beside them; the ratio 1 worker / 2 workers."""
    print("English 33 from the start, every layer, whole processes (issue 23: 2 workers "
          ">= 1.6x faster than 1):")
    times: dict[str, list[float]] = {"1 worker": [], "2 workers": [], "one process, disk": []}
    for r in range(rounds):
        for label, extra in (("1 worker", ["--workers", "1"]), ("2 workers", ["--workers", "2"]),
                             ("one process, disk", [])):
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "cpsolve", "analyze", "english33",
                                   "--from", "start", "--time-limit", "none", "--json", *extra],
                                  capture_output=True, text=True, cwd=ROOT)
            times[label].append(time.perf_counter() - start)
            states = json.loads(proc.stdout)["states"] if proc.returncode == 0 else None
            if states != 187_636_299:
                raise SystemExit(f"{label}: {states} states (exit {proc.returncode}): "
                                 f"{proc.stderr[-1000:]}")
            print(f"  round {r + 1}  {label:<18} {times[label][-1]:6.1f} s  load "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
    one, two = (statistics.median(times[k]) for k in ("1 worker", "2 workers"))
    print(f"  median: 1 worker {one:.1f} s, 2 workers {two:.1f} s: {one / two:.2f}x; per round: "
          + ", ".join(f"{a / b:.2f}x" for a, b in zip(times["1 worker"], times["2 workers"])))


def main() -> None:
    if sys.argv[1:2] == ["dask"]:
        dask(*(int(a) for a in sys.argv[2:3]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        cross = Path(tmp) / "cross21.toml"
        cross.write_text(CROSS)
        small(str(cross))
    if {"english33", "full"} & set(sys.argv[1:]):
        english33("full" in sys.argv[1:])


if __name__ == "__main__":
    main()
