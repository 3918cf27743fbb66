"""Planning with the CP-SAT engine: in-process times, model loading included.

    python benchmarks/cpsat_planning.py [--quick] [--workers N] [NAME ...]

``import ortools`` happens before any clock starts (it costs about half a
second once per process).  Each figure is the best of 3 runs (1 with
``--quick``) of ``load(file)`` + ``engines.run("cpsat", "solve", ...)``, so it
includes reading the model file, building the CP-SAT models, solving every
horizon and the independent check of the plan.  Targets: the 8-puzzle's 31
moves proven optimal in at most 1 s on 2 cores.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import ortools  # noqa: F401 - paid once, before the clocks start

from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "8-puzzle": ("models/eight_puzzle.toml", None),
    "ON-OFF": ("models/onoff.toml", None),
    "line puzzle": ("models/line_puzzle.toml", 20.0),
    "15-puzzle (easy)": ("models/fifteen_easy.toml", None),
    "water jugs": ("models/water_jugs.toml", None),
    "blocks": ("models/blocks.toml", None),
    "Hanoi, 3 discs": ("examples/hanoi.toml", None),
    "Hoppers (moves)": ("models/hoppers.toml", None),
    "English 33": ("models/english33.toml", None),
}
"""Name -> (model file, time limit in seconds or None)."""


def measure(path: str, limit: float | None, workers: int, repeat: int) -> tuple[float, object]:
    """Best wall-clock time of ``repeat`` loads and solves, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        model = load(ROOT / path).model
        result = run("cpsat", "solve", model, Options(time_limit=limit, workers=workers))
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="one run per case")
    parser.add_argument("--workers", type=int, default=Options().workers)
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    for name, (path, limit) in CASES.items():
        if args.names and name not in args.names:
            continue
        seconds, result = measure(path, limit, args.workers, repeat)
        moves = "-" if result.plan is None else len(result.plan)
        print(f"{name:18} {seconds:7.2f} s  {result.status.name:10} moves {moves:>3}  "
              f"cost {result.cost}  {result.message}", flush=True)


if __name__ == "__main__":
    main()
