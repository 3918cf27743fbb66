"""The per-command tax (issue 12, item 4): whole processes, and batches in one process.

    python benchmarks/startup.py [--runs N] [--no-batch]

1. Whole-process wall time, as a user sees it, of the same questions asked of
   cpsolve and of two peers, runs interleaved (one round runs every command
   once), medians over ``--runs`` rounds, ratios cpsolve / peer:

   * Inkala's sudoku, solved and its uniqueness decided (search for a second
     solution): ``cpsolve solve models/sudoku_inkala.toml --engine search``
     (and with ``--json``, with ``--engine cpsat``, and with the default ``auto``);
   * the empty 5×5 X-sudoku, every solution counted (960);
   * peers: MiniZinc + Gecode (``/usr/bin/minizinc``; the equivalent model
     is written here: ``alldifferent`` per row, column, box or diagonal,
     ``-a`` for every solution — Inkala has one, so that decides uniqueness),
     and a plain-Python MRV solver written here (bit-mask domains, the cell
     with the fewest candidates first, counting solutions up to 2, or all);
   * floors: ``python -c pass`` and ``python -c "import cpsolve.cli"``.

2. ``python -X importtime`` of that search solve: the modules it loads and the
   heaviest by their own time (least of ``--runs`` runs).

3. In-process batch throughput (sudokus per second, uniqueness checked), the
   top95 set and 1,000 equivalent variants, through :mod:`cpsolve.workflows.batch`,
   with the plain-Python propagation peer of ``benchmarks/batch.py`` in the
   same run (goals: search >= 300/s, CP-SAT >= 60/s).

Figures only, never assertions; the machine is shared, so absolute times are
upper bounds and the ratios are what to compare.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import MODELS, ROOT  # noqa: E402

INKALA = ("..53....." "8......2." ".7..1.5.." "4....53.." ".1..7...6"
          "..32...8." ".6.5....9" "..4....3." ".....97..")
"""models/sudoku_inkala.toml's givens, row by row."""

MRV = r'''
"""Plain-Python MRV sudoku: count solutions (up to LIMIT; 0 = all)."""
import sys

def main():
    puzzle, n, br, bc, diag, limit = sys.argv[1], *map(int, sys.argv[2:7])
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    if br:
        units += [[(r0 + r) * n + c0 + c for r in range(br) for c in range(bc)]
                  for r0 in range(0, n, br) for c0 in range(0, n, bc)]
    if diag:
        units += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    peers = [sorted({p for u in units if s in u for p in u} - {s}) for s in range(n * n)]
    full = (1 << n) - 1
    doms = [full] * (n * n)
    found = [0]

    def assign(doms, s, bit):
        stack = [(s, bit)]
        while stack:
            s, bit = stack.pop()
            if doms[s] == bit:
                continue
            if not doms[s] & bit:
                return False
            doms[s] = bit
            for p in peers[s]:
                d = doms[p]
                if d & bit:
                    d &= ~bit
                    if not d:
                        return False
                    doms[p] = d
                    if not d & (d - 1):
                        stack.append((p, d))
        return True

    def search(doms):
        best, size = -1, n + 1
        for s, d in enumerate(doms):
            c = bin(d).count("1")
            if 1 < c < size:
                best, size = s, c
        if best < 0:
            found[0] += 1
            return limit and found[0] >= limit
        d = doms[best]
        while d:
            bit = d & -d
            d ^= bit
            child = list(doms)
            if assign(child, best, bit) and search(child):
                return True
        return False

    for s, ch in enumerate(puzzle):
        if ch not in ".0" and not assign(doms, s, 1 << (int(ch) - 1)):
            break
    else:
        search(doms)
    print(found[0])

main()
'''


def mzn(n: int, box: tuple[int, int] | None, diagonals: bool) -> str:
    """The MiniZinc model of an n×n sudoku-like grid; givens ``g`` (0 = blank) as data."""
    lines = ['include "alldifferent.mzn";',
             f"array[1..{n},1..{n}] of 0..{n}: g;",
             f"array[1..{n},1..{n}] of var 1..{n}: x;",
             f"constraint forall(i, j in 1..{n} where g[i,j] > 0)(x[i,j] = g[i,j]);",
             f"constraint forall(i in 1..{n})(alldifferent([x[i,j] | j in 1..{n}]));",
             f"constraint forall(j in 1..{n})(alldifferent([x[i,j] | i in 1..{n}]));"]
    if box:
        r, c = box
        lines.append(f"constraint forall(bi in 0..{n // r - 1}, bj in 0..{n // c - 1})"
                     f"(alldifferent([x[{r}*bi+i,{c}*bj+j] | i in 1..{r}, j in 1..{c}]));")
    if diagonals:
        lines.append(f"constraint alldifferent([x[i,i] | i in 1..{n}]);")
        lines.append(f"constraint alldifferent([x[i,{n + 1}-i] | i in 1..{n}]);")
    lines.append("solve satisfy;")
    return "\n".join(lines) + "\n"


def dzn(puzzle: str, n: int) -> str:
    cells = [0 if ch in ".0" else int(ch) for ch in puzzle]
    rows = " | ".join(", ".join(map(str, cells[r * n:(r + 1) * n])) for r in range(n))
    return f"g = [| {rows} |];\n"


def case_commands(folder: Path, name: str, puzzle: str, n: int, box: tuple[int, int] | None,
                  diagonals: bool, task: str, model: str) -> dict[str, list[str]]:
    """Each contestant's command for one question (``task``: solve or count)."""
    (folder / f"{name}.mzn").write_text(mzn(n, box, diagonals))
    (folder / f"{name}.dzn").write_text(dzn(puzzle, n))
    py = sys.executable
    limit = "2" if task == "solve" else "0"
    br, bc = box or (0, 0)
    commands = {
        "cpsolve search": [py, "-m", "cpsolve", task, model, "--engine", "search"],
        "cpsolve search --json": [py, "-m", "cpsolve", task, model, "--engine", "search",
                                  "--json"],
        "cpsolve cpsat": [py, "-m", "cpsolve", task, model, "--engine", "cpsat"],
        "cpsolve auto": [py, "-m", "cpsolve", task, model],
        "plain-Python MRV": [py, str(folder / "mrv.py"), puzzle, str(n), str(br), str(bc),
                             str(int(diagonals)), limit],
    }
    if shutil.which("minizinc"):
        commands["MiniZinc+Gecode"] = ["minizinc", "--solver", "gecode", "-a",
                                       str(folder / f"{name}.mzn"), str(folder / f"{name}.dzn")]
    return commands


def _children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process and its own children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def interleaved(commands: dict[str, list[str]], runs: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds of each command, rounds interleaved so load hits all alike.

    CPU time counts the command's own child processes (auto's engines, Gecode);
    on a loaded machine it is the steadier figure.  A first, untimed round warms
    the file cache and writes Python's bytecode (``PYTHONDONTWRITEBYTECODE`` is
    dropped): an installed package has it.
    """
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONWARNINGS"] = "ignore"
    for round_ in range(runs + 1):
        for label, argv in commands.items():
            start, cpu = time.perf_counter(), _children_cpu()
            proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env)
            if round_:
                times[label].append((time.perf_counter() - start, _children_cpu() - cpu))
            if proc.returncode != 0:
                raise SystemExit(f"{label} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return {label: (statistics.median(w for w, _ in ts), statistics.median(c for _, c in ts))
            for label, ts in times.items()}


def whole_processes(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "mrv.py").write_text(MRV)
        cases = {
            "Inkala sudoku, solve + uniqueness": case_commands(
                folder, "inkala", INKALA, 9, (3, 3), False, "solve",
                str(MODELS / "sudoku_inkala.toml")),
            "5x5 X-sudoku, count all (960)": case_commands(
                folder, "xsudoku5", "." * 25, 5, None, True, "count",
                str(MODELS / "xsudoku5.toml")),
        }
        floors = {"python -c pass": [sys.executable, "-c", "pass"],
                  "python -c 'import cpsolve.cli'": [sys.executable, "-c",
                                                     "import cpsolve.cli"]}
        print(f"whole process, medians of {runs} interleaved rounds: wall / CPU seconds; "
              "ratio = cpsolve / peer, wall (CPU)")
        print("  floors: " + ", ".join(f"{k} {w:.3f} / {c:.3f}"
                                        for k, (w, c) in interleaved(floors, runs).items()))
        for title, commands in cases.items():
            medians = interleaved(commands, runs)
            peers = {k: v for k, v in medians.items() if not k.startswith("cpsolve")}
            print(f"  {title}")
            for label, (wall, cpu) in medians.items():
                ratios = "" if label in peers else "  " + ", ".join(
                    f"{wall / pw:.2f}x ({cpu / pc:.2f}x) {name}"
                    for name, (pw, pc) in peers.items())
                print(f"    {label:<22} {wall:7.3f} / {cpu:.3f}{ratios}")


def imports(runs: int, top: int = 12) -> None:
    """``python -X importtime``: what ``cpsolve solve sudoku_inkala --engine search`` imports,
    the heaviest modules by their own time (the least of ``runs`` runs, microseconds)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    own: dict[str, list[int]] = {}
    for _ in range(runs + 1):  # the first run writes the bytecode
        proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "cpsolve", "solve",
                               str(MODELS / "sudoku_inkala.toml"), "--engine", "search"],
                              cwd=ROOT, capture_output=True, text=True, env=env)
        for line in proc.stderr.splitlines():
            parts = line.split("|")
            if line.startswith("import time:") and len(parts) == 3 and "self" not in line:
                own.setdefault(parts[2].strip(), []).append(int(parts[0].split(":")[1]))
    least = {name: min(times) for name, times in own.items()}
    ours = sum(t for name, t in least.items() if name.startswith("cpsolve"))
    print(f"imports of a search solve: {len(least)} modules, {sum(least.values()) / 1000:.1f} ms "
          f"of their own time ({ours / 1000:.1f} ms in cpsolve); heaviest (ms):")
    for name, t in sorted(least.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {t / 1000:6.2f}  {name}")


def batches() -> None:
    import batch

    print("in-process batch, sudokus per second (uniqueness checked; ratio = cpsolve / peer)")
    batch.main()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7, help="interleaved rounds (default 7)")
    p.add_argument("--no-batch", action="store_true", help="whole processes only")
    args = p.parse_args()
    whole_processes(args.runs)
    imports(args.runs)
    if not args.no_batch:
        batches()


if __name__ == "__main__":
    main()
