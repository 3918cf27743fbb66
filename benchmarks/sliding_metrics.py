"""Klotski in the three sliding metrics: cpsolve's search against a hand-written BFS.

    python benchmarks/sliding_metrics.py [--quick]

For each metric (``step``, ``line``, ``path``) prints the model's size
(ground actions, states reachable as ``analyze`` counts them) and the time
to solve ``models/klotski.toml`` with the search engine (build, compile,
solve and the independent check), interleaved with a plain Python BFS over
positions written for this one puzzle (the peer: one edge per move of the
metric, a route found by a BFS of the moving piece alone).  The ratio is
cpsolve / peer; the machine is shared, so absolute times are upper bounds.
"""

from __future__ import annotations

import sys
import tomllib

from timing import MODELS, best_of

from cpsolve.engines import Options, run
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.files import load
from cpsolve.puzzles.sliding import build

BOARD = frozenset((r, c) for r in range(5) for c in range(4))
START = tuple(sorted([
    ("B", ((0, 1), (0, 2), (1, 1), (1, 2))), ("h", ((2, 1), (2, 2))),
    ("v", ((0, 0), (1, 0))), ("v", ((2, 0), (3, 0))), ("v", ((0, 3), (1, 3))),
    ("v", ((2, 3), (3, 3))), ("o", ((3, 1),)), ("o", ((3, 2),)), ("o", ((4, 0),)),
    ("o", ((4, 3),))]))
HOME = ("B", ((3, 1), (3, 2), (4, 1), (4, 2)))
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def shifted(cells, dr, dc):
    return tuple((r + dr, c + dc) for r, c in cells)


def peer(metric: str) -> int:
    """Fewest moves to bring B home, by a BFS over positions (pieces as sorted tuples)."""
    seen, frontier, depth = {START}, [START], 0
    while frontier:
        layer = []
        for pos in frontier:
            if HOME in pos:
                return depth
            for i, (token, cells) in enumerate(pos):
                rest = pos[:i] + pos[i + 1:]
                free = BOARD.difference(c for _, cs in rest for c in cs)
                for d in _reach(cells, free, metric):
                    nxt = tuple(sorted(rest + ((token, shifted(cells, *d)),)))
                    if nxt not in seen:
                        seen.add(nxt)
                        layer.append(nxt)
        frontier, depth = layer, depth + 1
    raise ValueError("unreachable")


def _reach(cells, free, metric):
    if metric == "path":
        seen, todo = {(0, 0)}, [(0, 0)]
        while todo:
            r0, c0 = todo.pop()
            for dr, dc in STEPS:
                d = (r0 + dr, c0 + dc)
                if d not in seen and free.issuperset(shifted(cells, *d)):
                    seen.add(d)
                    todo.append(d)
        return seen - {(0, 0)}
    out = []
    for dr, dc in STEPS:
        k = 1
        while free.issuperset(shifted(cells, k * dr, k * dc)):
            out.append((k * dr, k * dc))
            if metric == "step":
                break
            k += 1
    return out


def klotski(metric: str):
    table = tomllib.loads((MODELS / "klotski.toml").read_text(encoding="utf-8"))
    table.pop("expected")
    table["metric"] = metric
    return build(Data(table, f"klotski ({metric})"))


def main(quick: bool = False) -> None:
    n = 1 if quick else 3
    load(MODELS / "klotski.toml")  # imports paid before the clocks start
    print(f"Klotski, best of {n}; cpsolve = build + search solve + check; peer = plain BFS")
    print(f"{'metric':6} {'actions':>8} {'states':>8} {'moves':>6} {'cpsolve s':>10} "
          f"{'peer s':>8} {'ratio':>6}")
    for metric in ("step", "line", "path"):
        puzzle = klotski(metric)
        states = run("search", "analyze", puzzle.model, Options()).states
        ours, ours_s = best_of(n, lambda m=metric: run("search", "solve", klotski(m).model,
                                                       Options()))
        theirs, theirs_s = best_of(n, lambda m=metric: peer(m))
        moves = ours.cost
        assert moves == theirs and ours.verified, (metric, moves, theirs)
        print(f"{metric:6} {len(puzzle.model.actions):8,} {states:8,} {moves:6} "
              f"{ours_s:10.3f} {theirs_s:8.3f} {ours_s / theirs_s:6.2f}")


if __name__ == "__main__":
    main("--quick" in sys.argv)
