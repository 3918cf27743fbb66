"""Analyses of states wider than 64 bits: the NumPy analysis on multi-word codes against
the plain Python one, in-process, runs alternating.

    python benchmarks/multiword.py [--rounds N] [--limit N]

* Klotski (models/klotski.toml: twenty cells of 4 bits and the last moved
  piece, 85 bits: two words): the full analysis from the start, 78,694 states
  and 168 layers by both (the figures of the two must be equal; that is
  asserted). Best of N rounds each; ratio = numpy / python.
* 24-puzzle (5x5, 25 cells of 5 bits = 125 bits: three words of at most 63
  bits): an analysis back from the goal stopped by ``--limit`` states (default
  2,000,000); both must report the same complete layers. States per second of
  each, and the ratio of their times.

The machine is shared: absolute times are upper bounds, ratios are the figures.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import MODELS, timed

from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load

TWENTY_FOUR = '''family = "sliding"
name = "24-puzzle"
start = """
 1  2  3  4  5
 6  7  8  9 10
11 12 13 14 15
16 17 18 19 20
21 22 23  _ 24
"""
goal = """
 1  2  3  4  5
 6  7  8  9 10
11 12 13 14 15
16 17 18 19 20
21 22 23 24  _
"""
'''


def analyze(model, algorithm: str, limit: int | None = None):
    """One in-process analysis (compiled afresh, checked), and its seconds."""
    return timed(lambda: run("search", "analyze", model,
                             Options(algorithm=algorithm, limit=limit)))


def figures(result) -> tuple:
    return result.states, tuple(result.layers), result.max_distance, tuple(sorted(result.farthest))


def klotski(rounds: int) -> None:
    model = load(MODELS / "klotski.toml").model
    times: dict[str, list[float]] = {"numpy": [], "python": []}
    seen = {}
    for _ in range(rounds):
        for name in times:
            result, seconds = analyze(model, name)
            assert result.details["algorithm"] == name, result.details
            seen[name] = figures(result)
            times[name].append(seconds)
    assert seen["numpy"] == seen["python"], "the two analyses disagree"
    states, layers, depth = seen["numpy"][0], len(seen["numpy"][1]), seen["numpy"][2]
    fast, slow = min(times["numpy"]), min(times["python"])
    print(f"Klotski full analysis ({states:,} states, {layers} layers, max distance {depth}), "
          f"best of {rounds}: numpy (2 words) {fast:.3f} s, python sets {slow:.3f} s, "
          f"ratio {fast / slow:.2f}")


def twenty_four(rounds: int, limit: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "twenty_four.toml"
        path.write_text(TWENTY_FOUR)
        model = load(path).model
    times: dict[str, list[float]] = {"numpy": [], "python": []}
    seen = {}
    for _ in range(rounds):
        for name in times:
            result, seconds = analyze(model, name, limit)
            assert result.details["algorithm"] == name, result.details
            seen[name] = (result.states, tuple(result.layers))
            times[name].append(seconds)
    np_states, py_states = seen["numpy"][0], seen["python"][0]
    assert seen["numpy"][1] == seen["python"][1][:len(seen["numpy"][1])] or \
        seen["python"][1] == seen["numpy"][1][:len(seen["python"][1])], "layers disagree"
    fast, slow = min(times["numpy"]), min(times["python"])
    print(f"24-puzzle back from the goal, --limit {limit:,}, best of {rounds}: numpy (3 words) "
          f"{np_states:,} states in {fast:.2f} s ({np_states / fast:,.0f} states/s), "
          f"python sets {py_states:,} in {slow:.2f} s ({py_states / slow:,.0f} states/s), "
          f"ratio of states/s {np_states / fast / (py_states / slow):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--limit", type=int, default=2_000_000)
    args = parser.parse_args()
    klotski(args.rounds)
    twenty_four(max(2, args.rounds // 2), args.limit)


if __name__ == "__main__":
    main()
