"""Two bits per state: the 3x4 sliding puzzle's 239,500,800 positions (docs/scale.md).

    python benchmarks/twobits.py          # 3x3 and 2x4 against a plain BFS, then the 3x4
    python benchmarks/twobits.py small    # the small boards only

Each analysis runs in its own interpreter (``cpsolve analyze --json``), so its peak
resident memory (``ru_maxrss`` of the child) is its own.  The 3x4 layers are compared
with the literature's: Karlemo and Ostergard, "On sliding block puzzles" (2000), as
OEIS A090166 lists them (the 3x4 puzzle from a corner blank, every distance); the small
boards with a plain breadth-first search over tuples written here.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

A090166 = [1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899,
           24215, 41802, 71167, 119888, 198363, 323206, 515778, 811000, 1248011, 1885279,
           2782396, 4009722, 5621354, 7647872, 10065800, 12760413, 15570786, 18171606,
           20299876, 21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217,
           6583181, 4242753, 2503873, 1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86,
           18]
"""Positions of the 3x4 puzzle at each distance from a state with the blank in a corner."""


def board_file(rows: int, cols: int, folder: Path) -> Path:
    """A sliding model of a ``rows`` x ``cols`` board, start = goal = 1 2 ... _."""
    cells = [str(v) for v in range(1, rows * cols)] + ["_"]
    picture = "\n".join(" ".join(f"{c:>2}" for c in cells[r * cols:(r + 1) * cols])
                        for r in range(rows))
    path = folder / f"board_{rows}x{cols}.toml"
    path.write_text(f'family = "sliding"\nname = "{rows}x{cols}"\n'
                    f'start = """\n{picture}\n"""\ngoal = """\n{picture}\n"""\n')
    return path


def plain_layers(rows: int, cols: int) -> list[int]:
    """Layer sizes of a plain BFS from 1 2 ... 0: the blank swaps with a neighbour."""
    root = (*range(1, rows * cols), 0)
    seen, frontier, sizes = {root}, [root], []
    while frontier:
        sizes.append(len(frontier))
        nxt = []
        for s in frontier:
            b = s.index(0)
            r, q = divmod(b, cols)
            for j in ((r - 1) * cols + q if r else -1, (r + 1) * cols + q if r < rows - 1
                      else -1, b - 1 if q else -1, b + 1 if q < cols - 1 else -1):
                if j >= 0:
                    t = list(s)
                    t[b], t[j] = t[j], t[b]
                    u = tuple(t)
                    if u not in seen:
                        seen.add(u)
                        nxt.append(u)
        frontier = nxt
    return sizes


def analyze(path: Path, *more: str) -> tuple[dict, float, int]:
    """``cpsolve analyze`` in a child (``more``: its options): its JSON, wall seconds, peak
    resident MiB."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run([sys.executable, "-m", "cpsolve", "analyze", str(path),
                          "--time-limit", "none", "--json", *more], capture_output=True, text=True,
                         env=env, check=False)
    wall = time.perf_counter() - start
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) // 1024
    return json.loads(out.stdout.strip().splitlines()[-1]), wall, peak


def report(name: str, data: dict, wall: float, peak: int, expected: list[int], how: str):
    """One line of figures, and whether the layers equal ``expected``."""
    layers = data["layers"]
    same = layers == expected
    print(f"{name}: {data['states']:,} states, max distance {data['max_distance']}, "
          f"{len(data['farthest'])} farthest, analysis {data['details']['algorithm']}, "
          f"{wall:.1f} s, peak {peak} MiB, load {os.getloadavg()[0]:.1f}; layers "
          f"{'equal' if same else 'DIFFER from'} {how}")
    if not same:
        print(f"  got      {layers}\n  expected {expected}")
    return same


def main(args: list[str]) -> int:
    ok = True
    with tempfile.TemporaryDirectory() as work:
        for rows, cols in ((2, 4), (3, 3)):
            data, wall, peak = analyze(board_file(rows, cols, Path(work)),
                                       "--algorithm", "bitmap")
            ok &= report(f"{rows}x{cols}", data, wall, peak, plain_layers(rows, cols),
                         "a plain BFS")
    if "small" not in args:
        data, wall, peak = analyze(ROOT / "examples" / "eleven_puzzle.toml")
        ok &= report("3x4", data, wall, peak, A090166, "the literature (OEIS A090166)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
