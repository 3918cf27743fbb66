"""Wall time of a whole ``cpsolve solve`` run with the search engine, as a user sees it.

    python benchmarks/search_startup.py

Runs ``cpsolve solve models/water_jugs.toml --engine search`` in a fresh
interpreter five times and prints each wall time and the best (goal:
<= 0.25 s).  Start-up dominates: the search engine must not import ortools.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5
GOAL = 0.25


def main() -> None:
    command = [sys.executable, "-m", "cpsolve.cli", "solve", "models/water_jugs.toml",
               "--engine", "search"]
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"cpsolve failed: {proc.stderr}")
    best = min(times)
    print(f"cpsolve solve models/water_jugs.toml --engine search: best of {RUNS} "
          f"{best:.3f} s (goal <= {GOAL} s; runs: {', '.join(f'{t:.3f}' for t in times)})"
          f"{'' if best <= GOAL else '  OVER THE GOAL'}")


if __name__ == "__main__":
    main()
