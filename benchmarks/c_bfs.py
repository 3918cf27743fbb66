"""The 8-puzzle's full analysis against a small C BFS (issue 25: goal <= 2.5x).

    python benchmarks/c_bfs.py [--runs N]

Compiles ``benchmarks/bfs8.c`` with the C compiler found (``cc -O2``; none: says so and
stops), then runs, interleaved round by round, whole processes:

* the peer: the compiled BFS back from the goal (a hash set of boards packed in a word);
* ``python -m cpsolve analyze models/eight_puzzle.toml --json`` (the generic model, the
  NumPy analysis, the independent check of the figures).

Both must report 181,440 states, a largest distance of 31 and 2 states at it (the
literature's figures for the 8-puzzle). Prints the median wall time and the least CPU
time of each over ``--runs`` rounds and the ratios cpsolve / C.  Figures only, never
assertions; on a shared machine the ratios are what to compare.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = (181_440, 31, 2)
"""States, largest distance, states at it."""


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system, from the children's rusage) of one run of
    ``command``, and its output; it must succeed."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def c_figures(out: str) -> tuple[int, int, int]:
    words = out.split()
    return int(words[1]), int(words[3]), int(words[5])


def cpsolve_figures(out: str) -> tuple[int, int, int]:
    result = json.loads(out)
    layers = result["layers"]
    return result["states"], len(layers) - 1, layers[-1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    args = p.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        print("no C compiler found (cc, gcc or clang): nothing to compare against")
        return 0
    compileall.compile_dir(str(ROOT / "cpsolve"), quiet=1)  # as pip install leaves it
    with tempfile.TemporaryDirectory() as tmp:
        binary = str(Path(tmp) / "bfs8")
        subprocess.run([cc, "-O2", "-o", binary, str(ROOT / "benchmarks" / "bfs8.c")],
                       check=True)
        commands = {"C BFS (cc -O2)": ([binary], c_figures),
                    "cpsolve analyze": ([sys.executable, "-m", "cpsolve", "analyze",
                                         "models/eight_puzzle.toml", "--json"],
                                        cpsolve_figures)}
        walls: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(args.runs):
            for name, (command, figures) in commands.items():
                wall, cpu, out = timed(command)
                if figures(out) != EXPECTED:
                    raise SystemExit(f"{name} answered {figures(out)}, not {EXPECTED}")
                walls[name].append(wall)
                cpus[name].append(cpu)
    print(f"8-puzzle, full analysis: {EXPECTED[0]:,} states, distance {EXPECTED[1]} "
          f"({EXPECTED[2]} states), {args.runs} rounds, load "
          f"{os.getloadavg()[0]:.1f}")
    peer = "C BFS (cc -O2)"
    for name in commands:
        wall, cpu = statistics.median(walls[name]), min(cpus[name])
        ratio = "" if name == peer else (
            f"   {wall / statistics.median(walls[peer]):.1f}x wall, "
            f"{cpu / max(min(cpus[peer]), 1e-3):.1f}x CPU (goal <= 2.5x)")
        print(f"  {name:<16} {wall * 1000:8.1f} ms wall {cpu * 1000:8.1f} ms CPU{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
