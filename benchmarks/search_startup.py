"""Start-up as a user sees it (issue 25, item 1): whole processes against bare Python.

    python benchmarks/search_startup.py [--runs N]

Runs, interleaved (one round runs every command once, so a loaded machine slows them
alike), ``python -c pass`` and

* ``cpsolve --help`` (goal: <= 2x bare Python),
* ``cpsolve solve models/water_jugs.toml --engine search`` (goal: <= 2.5x),
* the same with ``--json``,

each as ``python -m cpsolve`` in a fresh interpreter, and prints the median wall time
and the least CPU time (user + system) of each over ``--runs`` rounds with its ratio to
bare Python's.  The package's bytecode is compiled first (as ``pip install`` leaves it;
``PYTHONDONTWRITEBYTECODE`` would otherwise leave every run compiling its modules).
The CPU ratio is the steadier on a shared machine; figures only, never assertions.
Which modules a command imports: ``python -X importtime -m cpsolve --help``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOALS = {"--help": 2.0, "solve water_jugs --engine search": 2.5}

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "--help": [sys.executable, "-m", "cpsolve", "--help"],
    "solve water_jugs --engine search": [sys.executable, "-m", "cpsolve", "solve",
                                         "models/water_jugs.toml", "--engine", "search"],
    "  ... --json": [sys.executable, "-m", "cpsolve", "solve", "models/water_jugs.toml",
                     "--engine", "search", "--json"],
}


def once(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` (which must succeed)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed: {err}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    """Print each command's wall and CPU time and their ratios to bare Python."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9, help="rounds (default 9)")
    args = ap.parse_args()
    compileall.compile_dir(ROOT / "cpsolve", quiet=1)
    walls: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpus: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            wall, cpu = once(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base_wall = statistics.median(walls["python -c pass"])
    base_cpu = min(cpus["python -c pass"])
    print(f"{args.runs} rounds, interleaved; wall: median, CPU: least")
    for name in COMMANDS:
        wall, cpu = statistics.median(walls[name]), min(cpus[name])
        goal = GOALS.get(name)
        print(f"{name:34} wall {wall * 1000:6.1f} ms {wall / base_wall:5.2f}x   "
              f"CPU {cpu * 1000:6.1f} ms {cpu / base_cpu:5.2f}x"
              + (f"   (goal <= {goal}x)" if goal else ""))


if __name__ == "__main__":
    main()
