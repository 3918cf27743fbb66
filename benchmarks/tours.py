"""Knight's tours: solving and counting times of both engines, in-process.

    python benchmarks/tours.py [--quick]

Prints, after importing both engines (a first solve of problem A each):

* problem A (the seed article): solve and count, both engines;
* a closed tour of 8×8 (goal <= 0.05 s), both engines;
* a closed tour of 50×50 (goal <= 0.3 s; measured here before: CP-SAT 3.1 s
  for a first tour, plain Warnsdorff 0.38 s): the search engine, and CP-SAT
  with a time limit;
* the count of closed 6×6 tours up to direction, 9,862 (goal <= 2 s): the
  search engine, and CP-SAT (one worker) unless ``--quick``;
* open 5×5 tours: 304 from a corner, 1,728 in all.

``solve`` includes the search for a second solution that decides
uniqueness.  Times are wall times of :func:`cpsolve.engines.run`, so they
include the independent check of every answer; "engine" is the engine's own
share.  Building a 50×50 model through the family is timed on its own.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cpsolve.engines import Options, run
from cpsolve.puzzles import tour
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parent.parent / "models"


def timed(f):
    start = time.perf_counter()
    value = f()
    return value, time.perf_counter() - start


def best_of(n: int, f):
    results = [timed(f) for _ in range(n)]
    best = min(results, key=lambda r: r[1])
    return best[0], best[1]


def square(side: int, **keys) -> tour.TourPuzzle:
    table = {"family": "tour", "board": "\n".join("." * side for _ in range(side)), **keys}
    return tour.build(Data(table, f"<{side}x{side}>"))


def line(what: str, engine: str, result, seconds: float) -> str:
    figure = f"{result.count:,}" if result.count is not None else (
        "unique" if result.unique else "not unique" if result.unique is False else "-")
    return (f"  {what:30} {engine:6} {result.status.value:10} {figure:>10}  "
            f"{seconds:8.4f} s  (engine {result.seconds:.4f} s)"
            + (f"  {result.message}" if result.status.value == "unknown" else ""))


def main() -> None:
    quick = "--quick" in sys.argv
    problem_a = load(MODELS / "knight_problem_a.toml").model
    for engine in ("search", "cpsat"):  # imports, outside every figure below
        run(engine, "solve", problem_a)

    print("Problem A (14 squares; 1 closed tour up to direction)")
    for engine in ("search", "cpsat"):
        for task in ("solve", "count"):
            result, seconds = best_of(5, lambda e=engine, t=task: run(e, t, problem_a))
            print(line(f"problem A {task}", engine, result, seconds))

    print("8x8 closed tour (goal <= 0.05 s)")
    eight = load(MODELS / "knight_8x8.toml").model
    for engine, n in (("search", 5), ("cpsat", 3)):
        result, seconds = best_of(n, lambda e=engine: run(e, "solve", eight,
                                                          Options(time_limit=30)))
        print(line("8x8 solve", engine, result, seconds))

    print("50x50 closed tour (goal <= 0.3 s)")
    big, build = best_of(3, lambda: square(50))
    print(f"  {'50x50 model built by the family':30} {'':6} {'':10} {'':>10}  {build:8.4f} s")
    result, seconds = best_of(3, lambda: run("search", "solve", big.model))
    print(line("50x50 solve", "search", result, seconds))
    result, seconds = best_of(3, lambda: run("search", "count", big.model, Options(limit=1)))
    print(line("50x50 first tour (count 1)", "search", result, seconds))
    limit = 5 if quick else 30
    result, seconds = timed(lambda: run("cpsat", "solve", big.model, Options(time_limit=limit)))
    print(line(f"50x50 solve, limit {limit} s", "cpsat", result, seconds))

    print("6x6 closed tours up to direction (9,862; goal <= 2 s)")
    six = load(MODELS / "knight_6x6.toml").model
    result, seconds = best_of(3, lambda: run("search", "count", six))
    print(line("6x6 count", "search", result, seconds))
    if not quick:
        result, seconds = timed(lambda: run("cpsat", "count", six, Options(time_limit=60)))
        print(line("6x6 count, limit 60 s", "cpsat", result, seconds))

    print("Open 5x5 tours (304 from a corner, 1,728 in all)")
    corner = load(MODELS / "knight_open_5x5.toml").model
    anywhere = square(5, closed=False).model
    for engine in ("search", "cpsat"):
        for what, model in (("open 5x5 from a corner", corner), ("open 5x5 anywhere", anywhere)):
            result, seconds = best_of(3, lambda e=engine, m=model: run(e, "count", m))
            print(line(what, engine, result, seconds))


if __name__ == "__main__":
    main()
