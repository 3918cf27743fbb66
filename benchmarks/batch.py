"""Batch throughput: sudokus per second, in one process, uniqueness checked (issue 9, 12).

Two sets, both solved through cpsolve.workflows.batch (load, solve, independent check):
* top95 — the 95 hardest of the public top95 collection (benchmarks/data/top95.txt);
* 1,000 sudokus — top95 transformed into equivalent puzzles (bands, stacks, rows within a
  band, columns within a stack, transposition, relabelling of the digits; each keeps
  exactly one solution), written to a temporary collection file with a fixed seed.

Prints puzzles per second for the search engine and CP-SAT, and a plain-Python
peer measured in the same run: a textbook constraint-propagation solver (peers
and units, eliminate / only-choice, depth-first on the fewest candidates) written
here, counting solutions up to two so that it checks uniqueness too.

Rates are per second of wall time and per second of this process's CPU time
(all its threads: CP-SAT's workers count); on a shared machine the CPU rate
is the steadier figure, and the ratio to the peer is taken on each.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import ROOT  # noqa: E402

from cpsolve.engines import Options  # noqa: E402
from cpsolve.workflows.batch.items import instances  # noqa: E402
from cpsolve.workflows.batch.solving import solve_all  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
HEADER = (DATA / "top95.toml").read_text().split("instances_file")[0]


def puzzles() -> list[str]:
    """The 95 puzzles of top95, one 81-character string each."""
    return [line.split()[0] for line in (DATA / "top95.txt").read_text().splitlines()
            if line.strip()]


def variant(p: str, rng: random.Random) -> str:
    """An equivalent sudoku: the same structure under a random symmetry of the rules."""
    bands = rng.sample(range(3), 3)
    rows = [3 * b + r for b in bands for r in rng.sample(range(3), 3)]
    stacks = rng.sample(range(3), 3)
    cols = [3 * s + c for s in stacks for c in rng.sample(range(3), 3)]
    digits = dict(zip("123456789", rng.sample("123456789", 9)))
    grid = [[p[9 * r + c] for c in cols] for r in rows]
    if rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid)]
    return "".join(digits.get(ch, ".") for row in grid for ch in row)


def collection(lines: list[str], folder: Path, name: str) -> Path:
    path = folder / f"{name}.toml"
    (folder / f"{name}.txt").write_text("\n".join(lines) + "\n")
    path.write_text(HEADER + f'instances_file = "{name}.txt"\n')
    return path


def rate(path: Path, engine: str) -> tuple[int, float, float, int]:
    """(puzzles, wall seconds, CPU seconds, unique) for a whole batch, loading included."""
    start, cpu = time.perf_counter(), time.process_time()
    rows = list(solve_all(instances([str(path)]), engine, Options()))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    unique = sum(1 for r in rows if r.result is not None and r.result.verified
                 and r.result.unique)
    return len(rows), seconds, cpu, unique


# ---------------------------------------------------------------- the plain-Python peer

CELLS = [r * 9 + c for r in range(9) for c in range(9)]
UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)]
         + [[r * 9 + c for r in range(9)] for c in range(9)]
         + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
            for br in (0, 3, 6) for bc in (0, 3, 6)])
UNITS_OF = {s: [u for u in UNITS if s in u] for s in CELLS}
PEERS = {s: set().union(*UNITS_OF[s]) - {s} for s in CELLS}


def _assign(values: dict[int, str], s: int, d: str) -> dict[int, str] | None:
    for other in values[s].replace(d, ""):
        if not _eliminate(values, s, other):
            return None
    return values


def _eliminate(values: dict[int, str], s: int, d: str) -> bool:
    if d not in values[s]:
        return True
    values[s] = values[s].replace(d, "")
    if not values[s]:
        return False
    if len(values[s]) == 1 and not all(_eliminate(values, p, values[s]) for p in PEERS[s]):
        return False
    for unit in UNITS_OF[s]:
        places = [p for p in unit if d in values[p]]
        if not places or len(places) == 1 and not _assign(values, places[0], d):
            return False
    return True


def peer_count(values: dict[int, str] | None, most: int = 2) -> int:
    """Solutions of a propagated grid, counted up to ``most``."""
    if values is None:
        return 0
    if all(len(v) == 1 for v in values.values()):
        return 1
    s = min((s for s in CELLS if len(values[s]) > 1), key=lambda s: len(values[s]))
    total = 0
    for d in values[s]:
        total += peer_count(_assign(dict(values), s, d), most - total)
        if total >= most:
            break
    return total


def peer(lines: list[str]) -> tuple[int, float, float]:
    """(unique, wall seconds, CPU seconds) of the plain-Python peer on ``lines``."""
    start, cpu = time.perf_counter(), time.process_time()
    unique = 0
    for line in lines:
        values: dict[int, str] | None = {s: "123456789" for s in CELLS}
        for s, ch in enumerate(line):
            if ch in "123456789" and values is not None:
                values = _assign(values, s, ch)
        unique += peer_count(values) == 1
    return unique, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    base = puzzles()
    rng = random.Random(2026)
    thousand = [variant(base[i % len(base)], rng) for i in range(1000)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sets = {"top95": (collection(base, folder, "top95"), base),
                "1,000 variants": (collection(thousand, folder, "thousand"), thousand)}
        print(f"{'set':<16} {'solver':<22} {'puzzles':>8} {'seconds':>8} {'per s':>8} "
              f"{'per CPU s':>10} {'unique':>7} {'vs peer':>8} {'(CPU)':>6}")
        for label, (path, lines) in sets.items():
            unique, peer_s, peer_cpu = peer(lines)
            peer_rate, peer_cpu_rate = len(lines) / peer_s, len(lines) / peer_cpu
            print(f"{label:<16} {'plain Python (peer)':<22} {len(lines):>8} {peer_s:>8.2f} "
                  f"{peer_rate:>8.1f} {peer_cpu_rate:>10.1f} {unique:>7} {'1.00':>8} "
                  f"{'1.00':>6}")
            for engine in ("search", "cpsat"):
                n, seconds, cpu, unique = rate(path, engine)
                print(f"{label:<16} {'cpsolve ' + engine:<22} {n:>8} {seconds:>8.2f} "
                      f"{n / seconds:>8.1f} {n / cpu:>10.1f} {unique:>7} "
                      f"{(n / seconds) / peer_rate:>8.2f} {(n / cpu) / peer_cpu_rate:>6.2f}")


if __name__ == "__main__":
    main()
