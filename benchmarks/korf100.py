"""Korf's 100 15-puzzles solved optimally by the search engine, against Fast Downward.

    python benchmarks/korf100.py              # the first 10 instances
    python benchmarks/korf100.py --all        # all 100
    python benchmarks/korf100.py --peer-limit 60 --no-peer
    python benchmarks/korf100.py --cold 60 --baseline ../main   # empty cache, short limits
    python benchmarks/korf100.py --all --no-peer --workers 2      # both cores
    python benchmarks/korf100.py --all --no-peer --no-mirror      # the tables at the state only
    python benchmarks/korf100.py --first 1 --no-peer --fresh-cache  # time the table build

Each instance (benchmarks/data/korf100.txt: Korf 1985, with the published
optimal lengths) becomes a ``sliding`` model file declaring the additive
6-6-3 pattern databases (the tiles of the goal's left two columns, of its
right two columns, and the last row's three).  The tables are built once —
timed separately — and cached (``CPSOLVE_CACHE_DIR``, else
``~/.cache/cpsolve``).  Each instance is then solved by ``engines.run``
(IDA*, so every plan passes the independent checker) and must be OPTIMAL
with Korf's length; the lengths' sum is compared with Korf's (5,305, mean 53.05).

Printed: the load average at the start and the end (the machine is shared),
the time to have the tables (loaded from the cache, or built with
``--fresh-cache``), then per instance its wall and CPU seconds, expansions and
verdict, and the totals: wall time of the whole set (``--workers N``: N
processes forked once the tables are loaded, sharing them), CPU seconds of the
solves, expansions and their rate per CPU second.  The search uses the
tables at the state and at its mirror image (the transpose, found from the
moves: :mod:`cpsolve.engines.search.planning.pdb_mirror`); ``--no-mirror``
compares without.

Peer: Fast Downward (the ``up-fast-downward`` wheel's planner, run as a
subprocess on a STRIPS encoding written here), on the same instance right
after cpsolve, with a per-instance time limit, on the first ``--peer-count``
instances (default 3: it takes minutes each).  Its configuration is
``astar(ipdb(max_time=60))`` (hill-climbing pattern selection, its own
pattern databases built per instance; ``astar(lmcut())`` found no plan for
instances 1-3 in 60 s each).  Ratios are cpsolve / Fast Downward on the
instances both finished; times include each one's start-up (cpsolve: the
in-process solve, tables loaded; Fast Downward: translate + search).

``--cold S``: short time limits from an empty cache.  Each of the first
instances is solved by ``cpsolve solve FILE --engine search --time-limit S
--json`` as a whole process, in order, all sharing one cache directory that
starts empty: the first runs build the tables within their limits (a build
stopped by its share of the limit is saved and resumed by the next run, and
used partial meanwhile).  With ``--baseline PATH`` (a checkout of cpsolve
before partial builds, e.g. ``main``) the same command runs with that
checkout's package on its own empty cache, interleaved instance by instance:
there a stopped build is thrown away and the search has the declared
estimate only.  Reported: instances solved optimally (Korf's length,
checked), total wall time, and the ratio of the totals.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import ROOT

from cpsolve.engines import Options, run
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.sliding import build

DATA = ROOT / "benchmarks" / "data" / "korf100.txt"
GOAL = "_ 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15"
PATTERNS = [["1", "4", "5", "8", "9", "12"], ["2", "3", "6", "7", "10", "11"],
            ["13", "14", "15"]]


def instances() -> list[tuple[int, int, list[int]]]:
    """``(number, optimal length, cells)`` of each instance."""
    out = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, length, *cells = map(int, line.split())
            out.append((number, length, cells))
    return out


def model(number: int, cells: list[int]):
    """The planning model of one instance, through the sliding family."""
    rows = ["  ".join("_" if c == 0 else str(c) for c in cells[r * 4:r * 4 + 4])
            for r in range(4)]
    table = {"family": "sliding", "name": f"Korf #{number}", "start": "\n".join(rows),
             "goal": GOAL, "estimate": {"patterns": PATTERNS}}
    return build(Data(table, f"{DATA.name}#{number}")).model


def fast_downward() -> Path | None:
    """The Fast Downward driver of the ``up-fast-downward`` wheel, if installed."""
    try:
        import up_fast_downward  # noqa: F401 - only to find it; needs unified_planning
    except ImportError as exc:
        if "unified_planning" not in str(exc):
            return None
    import importlib.util

    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or spec.origin is None:
        return None
    driver = Path(spec.origin).parent / "downward" / "fast-downward.py"
    return driver if driver.exists() else None


PEER = "astar(ipdb(max_time=60))"
"""Fast Downward's search configuration."""

DOMAIN = """(define (domain tiles)
  (:requirements :strips :typing)
  (:types tile cell)
  (:predicates (at ?t - tile ?c - cell) (empty ?c - cell) (adj ?a ?b - cell))
  (:action slide
    :parameters (?t - tile ?from ?to - cell)
    :precondition (and (at ?t ?from) (empty ?to) (adj ?from ?to))
    :effect (and (at ?t ?to) (empty ?from) (not (at ?t ?from)) (not (empty ?to)))))
"""


def problem(cells: list[int]) -> str:
    """The STRIPS problem of one instance (cells ``c0``..``c15`` row by row)."""
    adj = []
    for i in range(16):
        r, c = divmod(i, 4)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < 4 and 0 <= c + dc < 4:
                adj.append(f"(adj c{i} c{(r + dr) * 4 + c + dc})")
    init = [f"(at t{v} c{i})" if v else f"(empty c{i})" for i, v in enumerate(cells)]
    goal = [f"(at t{v} c{v})" for v in range(1, 16)]
    return (f"(define (problem korf) (:domain tiles)\n"
            f"  (:objects {' '.join(f't{v}' for v in range(1, 16))} - tile "
            f"{' '.join(f'c{i}' for i in range(16))} - cell)\n"
            f"  (:init {' '.join(init + adj)})\n  (:goal (and {' '.join(goal)})))\n")


def run_peer(driver: Path, cells: list[int], limit: float) -> tuple[int | None, float]:
    """Plan length and seconds of Fast Downward on one instance (None: no plan in time)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "domain.pddl").write_text(DOMAIN)
        (Path(tmp) / "problem.pddl").write_text(problem(cells))
        start = time.perf_counter()
        try:
            subprocess.run([sys.executable, str(driver), "--search-time-limit", f"{limit:g}s",
                            "domain.pddl", "problem.pddl", "--search", PEER],
                           cwd=tmp, capture_output=True, timeout=limit + 60, check=False)
        except subprocess.TimeoutExpired:
            return None, time.perf_counter() - start
        seconds = time.perf_counter() - start
        plan = Path(tmp) / "sas_plan"
        if not plan.exists():
            return None, seconds
        steps = [line for line in plan.read_text().splitlines() if not line.startswith(";")]
        return len(steps), seconds


def toml(number: int, cells: list[int]) -> str:
    """The model file of one instance (as :func:`model`)."""
    rows = ["  ".join("_" if c == 0 else str(c) for c in cells[r * 4:r * 4 + 4])
            for r in range(4)]
    groups = ", ".join("[" + ", ".join(f'"{t}"' for t in p) + "]" for p in PATTERNS)
    quote = '"""'
    return (f'family = "sliding"\nname = "Korf #{number}"\n'
            f"start = {quote}\n{chr(10).join(rows)}\n{quote}\n"
            f"goal = {quote}\n{GOAL}\n{quote}\n"
            f"[estimate]\npatterns = [{groups}]\n")


def solve_cold(path: Path, limit: float, cache: Path, checkout: Path | None
               ) -> tuple[dict, float]:
    """``cpsolve solve`` of one model file as a process: its JSON (empty: none) and seconds."""
    env = dict(os.environ, CPSOLVE_CACHE_DIR=str(cache))
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "cpsolve", "solve", str(path), "--engine",
                               "search", "--time-limit", f"{limit:g}", "--json"],
                              capture_output=True, text=True, env=env, timeout=limit + 120,
                              cwd=path.parent, check=False)
    except subprocess.TimeoutExpired:
        return {}, time.perf_counter() - start
    seconds = time.perf_counter() - start
    try:
        return json.loads(done.stdout), seconds
    except ValueError:
        return {}, seconds


def cold(todo: list[tuple[int, int, list[int]]], limit: float, baseline: Path | None) -> None:
    """The ``--cold`` mode (see the module docstring)."""
    names = ["cpsolve"] + (["baseline"] if baseline is not None else [])
    solved = dict.fromkeys(names, 0)
    total = dict.fromkeys(names, 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        for number, length, cells in todo:
            path = Path(tmp) / f"korf{number}.toml"
            path.write_text(toml(number, cells))
            line = f"#{number:3} {length} moves:"
            for name in names:
                checkout = None if name == "cpsolve" else baseline
                out, seconds = solve_cold(path, limit, Path(tmp) / f"cache-{name}", checkout)
                ok = (out.get("status") == "optimal" and out.get("steps") == length
                      and out.get("verified") is True)
                solved[name] += ok
                total[name] += seconds
                tables = out.get("details", {}).get("pattern_tables", "?")
                verdict = "optimal, checked" if ok else out.get("status", "no answer")
                line += f" | {name} {seconds:6.1f} s {verdict} (tables {tables})"
            print(line, flush=True)
    for name in names:
        print(f"{name}: {solved[name]}/{len(todo)} solved optimally, {total[name]:.1f} s in "
              f"total (--time-limit {limit:g} per instance, empty cache at the start)")
    if baseline is not None and total["baseline"]:
        ratio = total["cpsolve"] / total["baseline"]
        print(f"ratio of total times cpsolve / baseline: {ratio:.3f}")


LITERATURE = 5305
"""Sum of the 100 optimal lengths in Korf (1985), Table 1 (mean 53.05): the lengths of
benchmarks/data/korf100.txt add up to it."""


def solve_one(job: tuple[int, int, list[int]]) -> tuple[int, int, int | None, str, bool, int,
                                                        float, float]:
    """One instance: ``(number, length, steps, status, checked, expansions, wall s, CPU s)``."""
    number, length, cells = job
    m = model(number, cells)
    start, cpu = time.perf_counter(), time.process_time()
    result = run("search", "solve", m, Options(algorithm="idastar"))
    return (number, length, result.steps, result.status.value, bool(result.verified),
            result.explored, time.perf_counter() - start, time.process_time() - cpu)


def tables_first(number: int, cells: list[int]) -> None:
    """Load (or build) the tables before the timed solves, and say how long it took."""
    from cpsolve.engines.search.compile import compile_planning
    from cpsolve.engines.search.planning.pdb import pattern_set

    start, cpu = time.perf_counter(), time.process_time()
    tables = pattern_set(compile_planning(model(number, cells)))
    print(f"tables (6-6-3) ready: {time.perf_counter() - start:.1f} s wall, "
          f"{time.process_time() - cpu:.1f} s CPU ({tables.describe()})", flush=True)


def solve_all(todo: list[tuple[int, int, list[int]]], workers: int):
    """Each instance's :func:`solve_one` tuple, in the order they end (``workers``
    processes forked after the tables are loaded, so each shares them)."""
    if workers <= 1:
        yield from map(solve_one, todo)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(solve_one, todo, chunksize=1)


def report(todo, workers: int, driver: Path | None, args) -> None:
    """Solve every instance (Fast Downward after each of the first ones with one worker),
    one line each, then the totals."""
    began = time.perf_counter()
    total_cpu, expanded, good, steps_sum, peer_total, ours_both = 0.0, 0, 0, 0, 0.0, 0.0
    for number, length, steps, status, checked, explored, seconds, cpu in \
            solve_all(todo, workers):
        total_cpu += cpu
        expanded += explored
        ok = status == "optimal" and steps == length and checked
        good += ok
        steps_sum += steps or 0
        verdict = "optimal, checked" if ok else f"WRONG: {status} {steps}"
        line = (f"#{number:3} {length} moves: {seconds:7.2f} s ({cpu:6.2f} s CPU), "
                f"{explored:>11,} expansions, {verdict}")
        if driver is not None and workers <= 1 and number <= todo[0][0] - 1 + args.peer_count:
            peer_steps, peer = run_peer(driver, todo[number - todo[0][0]][2], args.peer_limit)
            if peer_steps is None:
                line += f" | Fast Downward: no plan in {args.peer_limit:g} s"
            else:
                peer_total += peer
                ours_both += seconds
                line += f" | Fast Downward {peer_steps} moves: {peer:7.2f} s, ratio " \
                        f"{seconds / peer:.3f}"
        print(line, flush=True)
    wall = time.perf_counter() - began
    print(f"total: {len(todo)} instances in {wall:.1f} s wall ({workers} process"
          f"{'es' if workers > 1 else ''}), {total_cpu:.1f} s CPU in the solves, "
          f"{expanded:,} expansions, {expanded / max(total_cpu, 1e-9):,.0f} per CPU second; "
          f"{good}/{len(todo)} optimal with Korf's length and checked; lengths sum to "
          f"{steps_sum:,}" + (f" (Korf 1985: {LITERATURE:,})" if len(todo) == 100 else ""))
    if driver is not None and peer_total:
        print(f"on the instances Fast Downward solved within {args.peer_limit:g} s: cpsolve "
              f"{ours_both:.1f} s, Fast Downward {peer_total:.1f} s, ratio "
              f"{ours_both / peer_total:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="all 100 instances (default 10)")
    parser.add_argument("--first", type=int, default=10, help="the first N instances")
    parser.add_argument("--no-peer", action="store_true", help="skip Fast Downward")
    parser.add_argument("--peer-limit", type=float, default=300.0,
                        help="Fast Downward's seconds per instance (default 300)")
    parser.add_argument("--peer-count", type=int, default=3,
                        help="run Fast Downward on the first N instances (default 3)")
    parser.add_argument("--workers", type=int, default=1,
                        help="solve in N processes (forked once the tables are loaded)")
    parser.add_argument("--no-mirror", action="store_true",
                        help="without the mirror look-up (the tables at the state only)")
    parser.add_argument("--fresh-cache", action="store_true",
                        help="time the table build: an empty cache directory for this run")
    parser.add_argument("--cold", type=float, metavar="S",
                        help="from an empty cache, `cpsolve solve --time-limit S` per instance")
    parser.add_argument("--baseline", type=Path, metavar="PATH",
                        help="with --cold: also run the cpsolve checkout at PATH, interleaved")
    args = parser.parse_args()
    todo = instances()[:100 if args.all else args.first]
    if args.cold is not None:
        cold(todo, args.cold, args.baseline.resolve() if args.baseline else None)
        return
    if args.fresh_cache:
        os.environ["CPSOLVE_CACHE_DIR"] = tempfile.mkdtemp(prefix="korf100-cache-")
    if args.no_mirror:
        from cpsolve.engines.search.planning import pdb_ida

        pdb_ida.MIRROR = False
    driver = None if args.no_peer else fast_downward()
    if not args.no_peer and driver is None:
        print("peer: Fast Downward not installed (pip install up-fast-downward); no ratios")
    print(f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)", flush=True)
    tables_first(todo[0][0], todo[0][2])
    report(todo, max(1, args.workers), driver, args)
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.fresh_cache:
        import shutil

        shutil.rmtree(os.environ["CPSOLVE_CACHE_DIR"], ignore_errors=True)


if __name__ == "__main__":
    main()
