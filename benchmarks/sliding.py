"""Sliding puzzles with the search engine: analysis and solving times, in-process.

    python benchmarks/sliding.py [--quick]

Prints the full 8-puzzle analysis time (NumPy, best of N; the goal is
<= 0.08 s, a hand-written NumPy BFS measuring 0.077 s), the same analysis
in plain Python, the line-piece and ON-OFF analyses with their figures, the
8-puzzle solved by each search algorithm, and every 15-puzzle model solved
by the default search (plan length, whether it was proven optimal, bound).
Every answer passes the independent checker (``engines.run``).
"""

from __future__ import annotations

import sys

from timing import MODELS, best_of, timed

from cpsolve.engines import Options, run
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace.vector import numpy_layers
from cpsolve.puzzles.files import load


def figures(result) -> str:
    return (f"{result.states:,} states, maximum distance {result.max_distance} "
            f"reached by {len(result.farthest)}")


def main(quick: bool = False) -> None:
    n = 3 if quick else 10
    eight = load(MODELS / "eight_puzzle.toml")
    task = compile_planning(eight.model)
    result, seconds = best_of(n, lambda: numpy_layers(task, Budget()))
    print(f"8-puzzle analysis, numpy, compiled model, best of {n}: {seconds:.4f} s "
          f"(goal <= 0.08 s): {figures(result)}")
    result, seconds = best_of(n, lambda: run("search", "analyze", eight.model, Options()))
    print(f"8-puzzle analysis, numpy, from the model (compile + check), best of {n}: "
          f"{seconds:.4f} s")
    result, seconds = best_of(1 if quick else 3, lambda: run(
        "search", "analyze", eight.model, Options(algorithm="python")))
    print(f"8-puzzle analysis, python sets: {seconds:.3f} s: {figures(result)}")
    for name in ("line_puzzle", "onoff", "onoff_problem_b"):
        model = load(MODELS / f"{name}.toml").model
        for algorithm in ("numpy", "python"):
            result, seconds = best_of(n, lambda m=model, a=algorithm: run(
                "search", "analyze", m, Options(algorithm=a)))
            print(f"{name} analysis, {algorithm}: {seconds:.4f} s: {figures(result)}")

    print(f"8-puzzle, solve (31 moves), best of {n}:")
    for algorithm in ("bfs", "bidir", "astar", "idastar", "wastar", "anytime"):
        result, seconds = best_of(n, lambda a=algorithm: run(
            "search", "solve", eight.model, Options(algorithm=a)))
        print(f"  {algorithm:8} {seconds:.4f} s  {result.steps} moves, {result.status.value}, "
              f"{result.explored:,} states")

    print("15-puzzles, default search (anytime: weighted A*, then A*/IDA*; 5 s proof budget):")
    for path in sorted(MODELS.glob("fifteen_*.toml")):
        puzzle = load(path)
        proof = puzzle.infeasibility_proof()
        if proof:
            print(f"  {path.name:24} unsolvable by parity, no search")
            continue
        result, seconds = timed(lambda m=puzzle.model: run("search", "solve", m, Options()))
        first = result.details.get("first_cost")
        bound = "" if result.bound is None else f", bound {result.bound}"
        print(f"  {path.name:24} {seconds:6.2f} s  {result.steps} moves, "
              f"{result.status.value}{bound} (first plan {first})")


if __name__ == "__main__":
    main("--quick" in sys.argv)
