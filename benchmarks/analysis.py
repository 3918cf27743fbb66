"""Full 8-puzzle analysis: cpsolve in-process against a hand-written NumPy BFS.

    python benchmarks/analysis.py [--rounds N]

The peer is the breadth-first search one would write by hand for this one
puzzle: a board packed into an int64 (4 bits per cell, plus 4 bits saying where
the blank is), the four slides applied to a whole layer at once with shifts,
each layer made distinct with a sort, and states of the two previous layers
dropped with a binary search (every slide can be undone). cpsolve runs
``analyze`` from the model file's generic model (``engines.run``: compile,
vectorised analysis back from the goal, independent check of the figures). Both
must find 181,440 states and a farthest distance of 31 reached by 2 states.
Runs alternate, and the best of N rounds of each is compared (ratio = cpsolve /
hand-written; the machine is shared, so absolute times are upper bounds).

The peer runs twice per round: as first written (boolean-mask selections,
``a[mask]``) and tuned with ``np.compress``, which NumPy 2.4 runs up to eight
times faster on masks of mixed truth — cpsolve uses it, so the tuned peer is
the fair one to beat.  The first round of cpsolve is printed too (it compiles
the model's generated code; later rounds reuse nothing but Python's caches).
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import MODELS, timed

from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def pack(board: tuple[int, ...]) -> int:
    """Cells in 4-bit fields above a 4-bit field holding the blank's cell."""
    return (sum(v << (4 * (9 - i)) for i, v in enumerate(board)) << 0) | board.index(0)


def masked(a: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return a[mask]


def compressed(a: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return a.compress(mask)


def hand_written_bfs(select=masked) -> tuple[int, int, int]:
    """States, largest distance and how many states are that far, from the goal."""

    def distinct(codes: np.ndarray) -> np.ndarray:
        codes.sort()
        return select(codes, np.concatenate(([True], codes[1:] != codes[:-1]))) \
            if codes.size else codes

    def without(codes: np.ndarray, seen: np.ndarray) -> np.ndarray:
        if not seen.size:
            return codes
        at = np.minimum(np.searchsorted(seen, codes), seen.size - 1)
        return select(codes, seen[at] != codes)

    moves = []  # (blank cell, neighbour cell) pairs, by direction
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        table = np.full(9, -1, np.int64)
        for z in range(9):
            r, c = divmod(z, 3)
            if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                table[z] = (r + dr) * 3 + c + dc
        moves.append(table)
    layer = np.array([pack(GOAL)], np.int64)
    older = np.empty(0, np.int64)
    total, depth, last = 1, 0, 1
    while True:
        blank = layer & 15
        out = []
        for table in moves:
            n = table[blank]
            ok = n >= 0
            codes, z, n = select(layer, ok), select(blank, ok), select(n, ok)
            nshift, zshift = 4 * (9 - n), 4 * (9 - z)
            tile = (codes >> nshift) & 15
            # the tile slides from cell n into the blank's cell z; the blank goes to n
            out.append(codes + (tile << zshift) - (tile << nshift) - z + n)
        new = without(without(distinct(np.concatenate(out)), older), layer)
        if not new.size:
            return total, depth, last
        older, layer = layer, new
        total += new.size
        depth += 1
        last = new.size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    model = load(MODELS / "eight_puzzle.toml").model
    times: dict[str, list[float]] = {"cpsolve": [], "masked": [], "compressed": []}
    for _ in range(args.rounds):
        result, seconds = timed(lambda: run("search", "analyze", model, Options()))
        assert (result.states, result.max_distance, len(result.farthest)) == (181440, 31, 2)
        times["cpsolve"].append(seconds)
        for name, select in (("masked", masked), ("compressed", compressed)):
            figures, seconds = timed(lambda select=select: hand_written_bfs(select))
            assert figures == (181440, 31, 2), figures
            times[name].append(seconds)
    best = {k: min(v) for k, v in times.items()}
    median = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    print(f"8-puzzle full analysis (181,440 states), best of {args.rounds}: cpsolve "
          f"(in-process, checked) {best['cpsolve']:.4f} s (first round "
          f"{times['cpsolve'][0]:.4f} s)")
    for name, label in (("masked", "hand-written NumPy BFS, as first written"),
                        ("compressed", "the same tuned with np.compress")):
        print(f"  {label}: {best[name]:.4f} s, ratio {best['cpsolve'] / best[name]:.2f} "
              f"(medians: {median['cpsolve'] / median[name]:.2f}; goal <= 1.0)")


if __name__ == "__main__":
    main()
