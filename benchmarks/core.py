"""The core figures: Inkala and the 960 count per engine, water jugs per engine.

    python benchmarks/core.py

In process, after each engine's first (import-paying) call; best of 10.
Goals: Inkala by cpsat <= 18 ms including model build; count 960 by cpsat
<= 0.07 s.  The wall time of a whole `cpsolve solve` run is measured by
benchmarks/search_startup.py.
"""

from __future__ import annotations

from timing import MODELS, best_of

from cpsolve.engines import run
from cpsolve.puzzles.files import load


def main() -> None:
    cases = [
        ("sudoku_inkala", "solve", "unique solution"),
        ("xsudoku5", "count", "count 960"),
        ("water_jugs", "solve", "10 moves"),
        ("blocks", "solve", "5 moves"),
    ]
    for name, task, what in cases:
        for engine in ("cpsat", "search", "pyconstraint"):
            def call(engine=engine, name=name, task=task):
                # the model build is part of the measured time
                return run(engine, task, load(MODELS / f"{name}.toml").model)

            try:
                call()  # imports and warms up
            except Exception as err:  # an engine that does not apply
                print(f"{name:14} {task:6} {engine:7} -- {err}")
                continue
            result, seconds = best_of(10, call)
            answer = result.count if task == "count" else (
                result.steps if result.plan is not None else
                ("unique" if result.unique else "not unique"))
            print(f"{name:14} {task:6} {engine:7} {seconds * 1000:8.2f} ms  "
                  f"{result.status.value:8} {answer}  ({what} expected)")


if __name__ == "__main__":
    main()
