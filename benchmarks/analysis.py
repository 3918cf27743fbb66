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
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import MODELS, timed

from cpsolve.engines import Options, run
from cpsolve.files import load

GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)


def pack(board: tuple[int, ...]) -> int:
    """Cells in 4-bit fields above a 4-bit field holding the blank's cell."""
    return (sum(v << (4 * (9 - i)) for i, v in enumerate(board)) << 0) | board.index(0)


def _distinct(codes: np.ndarray) -> np.ndarray:
    codes.sort()
    return codes[np.concatenate(([True], codes[1:] != codes[:-1]))] if codes.size else codes


def _without(codes: np.ndarray, seen: np.ndarray) -> np.ndarray:
    if not seen.size:
        return codes
    at = np.minimum(np.searchsorted(seen, codes), seen.size - 1)
    return codes[seen[at] != codes]


def hand_written_bfs() -> tuple[int, int, int]:
    """States, largest distance and how many states are that far, from the goal."""
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
            codes, z, n = layer[ok], blank[ok], n[ok]
            nshift, zshift = 4 * (9 - n), 4 * (9 - z)
            tile = (codes >> nshift) & 15
            # the tile slides from cell n into the blank's cell z; the blank goes to n
            out.append(codes + (tile << zshift) - (tile << nshift) - z + n)
        new = _without(_without(_distinct(np.concatenate(out)), older), layer)
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
    ours, peer = [], []
    for _ in range(args.rounds):
        result, seconds = timed(lambda: run("search", "analyze", model, Options()))
        assert (result.states, result.max_distance, len(result.farthest)) == (181440, 31, 2)
        ours.append(seconds)
        figures, seconds = timed(hand_written_bfs)
        assert figures == (181440, 31, 2), figures
        peer.append(seconds)
    print(f"8-puzzle full analysis, best of {args.rounds}: cpsolve (in-process, checked) "
          f"{min(ours):.4f} s, hand-written NumPy BFS {min(peer):.4f} s, ratio "
          f"{min(ours) / min(peer):.2f} (goal <= 1.0)")
    print(f"  medians: cpsolve {sorted(ours)[len(ours) // 2]:.4f} s, "
          f"hand-written {sorted(peer)[len(peer) // 2]:.4f} s")


if __name__ == "__main__":
    main()
