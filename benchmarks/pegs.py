"""Peg solitaire: solving and counting times per engine, in-process.

    python benchmarks/pegs.py [--quick] [--orders N]

* English 33-hole, centre to centre (31 jumps): the search engine's default
  (``widening``) under the declared jump order and ``N`` shuffled ones, then
  ``memo_dfs`` and plain ``dfs`` for contrast (each stopped at a time limit);
* the same board with CP-SAT, declared order and shuffled orders;
* Hoppers, fewest moves (7; a chain of jumps by one peg is one move), per engine;
* counting Hoppers' optimal plans (72 jump sequences of 7 moves), per engine.

Each time is one ``engines.run`` (model compiled, solved, answer checked),
best of 3 unless ``--quick``; loading the file is not included.  ``import
ortools`` happens before any clock starts.
"""

from __future__ import annotations

import argparse
import random

import ortools  # noqa: F401 - paid once, before the clocks start
from timing import MODELS, best_of

from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load

ENGLISH = MODELS / "english33.toml"
HOPPERS = MODELS / "hoppers.toml"
CONTRAST_LIMIT = 20.0
"""Seconds allowed to memo_dfs and dfs on English 33 (they may need much longer)."""


def shuffled(path, seed: int):
    """The model of ``path`` with its actions in a random order (seed 0: as declared)."""
    model = load(path).model
    if seed:
        random.Random(seed).shuffle(model.actions)
    return model


def line(label: str, result, seconds: float) -> None:
    answer = "-" if result.plan is None else f"{len(result.plan)} steps, cost {result.cost}"
    if result.count is not None:
        answer = f"{result.count} plans of cost {result.cost}"
    print(f"  {label:38} {seconds:8.3f} s  {result.status.name:8} {answer}", flush=True)


def english(orders: int, repeat: int) -> None:
    print("English 33-hole, centre -> centre (31 jumps):")
    for seed in range(orders + 1):
        model = shuffled(ENGLISH, seed)
        result, seconds = best_of(repeat, lambda m=model: run("search", "solve", m))
        order = "declared order" if seed == 0 else f"shuffled order #{seed}"
        line(f"search ({result.details['algorithm']}), {order}", result, seconds)
    for algorithm in ("memo_dfs", "dfs"):
        for seed in range(min(orders, 2) + 1):
            model = shuffled(ENGLISH, seed)
            result, seconds = best_of(1, lambda m=model, a=algorithm: run(
                "search", "solve", m, Options(algorithm=a, time_limit=CONTRAST_LIMIT)))
            order = "declared order" if seed == 0 else f"shuffled order #{seed}"
            line(f"search {algorithm}, {order}", result, seconds)
    for seed in range(min(orders, 3) + 1):
        model = shuffled(ENGLISH, seed)
        result, seconds = best_of(1 if seed else repeat, lambda m=model: run(
            "cpsat", "solve", m, Options(time_limit=60)))
        order = "declared order" if seed == 0 else f"shuffled order #{seed}"
        line(f"cpsat, {order}", result, seconds)


def hoppers(repeat: int) -> None:
    print("Hoppers, centre -> centre, fewest moves (7):")
    for engine in ("search", "cpsat"):
        model = load(HOPPERS).model
        result, seconds = best_of(repeat, lambda m=model, e=engine: run(e, "solve", m))
        line(f"{engine} solve", result, seconds)
    print("Hoppers, counting the optimal plans (72):")
    for engine in ("search", "cpsat"):
        model = load(HOPPERS).model
        result, seconds = best_of(repeat, lambda m=model, e=engine: run(
            e, "count", m, Options(keep=True)))
        line(f"{engine} count --optimal --list", result, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run per figure")
    parser.add_argument("--orders", type=int, default=5, help="shuffled jump orders to time")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    english(args.orders, repeat)
    hoppers(repeat)


if __name__ == "__main__":
    main()
