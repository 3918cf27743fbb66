"""Korf's 100 15-puzzles solved optimally by the search engine, against Fast Downward.

    python benchmarks/korf100.py              # the first 10 instances
    python benchmarks/korf100.py --all        # all 100
    python benchmarks/korf100.py --peer-limit 60 --no-peer
    python benchmarks/korf100.py --cold 60 --baseline ../main   # empty cache, short limits

Each instance (benchmarks/data/korf100.txt: Korf 1985, with the published
optimal lengths) becomes a ``sliding`` model file declaring the additive
6-6-3 pattern databases (the tiles of the goal's left two columns, of its
right two columns, and the last row's three).  The tables are built once —
timed separately — and cached (``CPSOLVE_CACHE_DIR``, else
``~/.cache/cpsolve``).  Each instance is then solved by ``engines.run``
(IDA*, so every plan passes the independent checker) and must be OPTIMAL
with Korf's length.

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="all 100 instances (default 10)")
    parser.add_argument("--first", type=int, default=10, help="the first N instances")
    parser.add_argument("--no-peer", action="store_true", help="skip Fast Downward")
    parser.add_argument("--peer-limit", type=float, default=300.0,
                        help="Fast Downward's seconds per instance (default 300)")
    parser.add_argument("--peer-count", type=int, default=3,
                        help="run Fast Downward on the first N instances (default 3)")
    parser.add_argument("--cold", type=float, metavar="S",
                        help="from an empty cache, `cpsolve solve --time-limit S` per instance")
    parser.add_argument("--baseline", type=Path, metavar="PATH",
                        help="with --cold: also run the cpsolve checkout at PATH, interleaved")
    args = parser.parse_args()
    todo = instances()[:100 if args.all else args.first]
    if args.cold is not None:
        cold(todo, args.cold, args.baseline.resolve() if args.baseline else None)
        return
    driver = None if args.no_peer else fast_downward()
    if not args.no_peer and driver is None:
        print("peer: Fast Downward not installed (pip install up-fast-downward); no ratios")

    began = time.perf_counter()
    first = run("search", "solve", model(*[todo[0][0], todo[0][2]]),
                Options(algorithm="idastar"))
    print(f"tables (6-6-3) ready and instance #{todo[0][0]} solved: "
          f"{time.perf_counter() - began:.1f} s ({first.details.get('patterns')})")
    total, peer_total, ours_both, expanded = 0.0, 0.0, 0.0, 0
    for number, length, cells in todo:
        m = model(number, cells)
        start = time.perf_counter()
        result = run("search", "solve", m, Options(algorithm="idastar"))
        seconds = time.perf_counter() - start
        total += seconds
        expanded += result.explored
        ok = result.status.value == "optimal" and result.steps == length and result.verified
        verdict = "optimal, checked" if ok else f"WRONG: {result.status.value} {result.steps}"
        line = (f"#{number:3} {length} moves: {seconds:7.2f} s, {result.explored:>11,} "
                f"expansions, {verdict}")
        if driver is not None and number <= todo[0][0] - 1 + args.peer_count:
            steps, peer = run_peer(driver, cells, args.peer_limit)
            if steps is None:
                line += f" | Fast Downward: no plan in {args.peer_limit:g} s"
            else:
                peer_total += peer
                ours_both += seconds
                line += f" | Fast Downward {steps} moves: {peer:7.2f} s, ratio " \
                        f"{seconds / peer:.3f}"
        print(line, flush=True)
    print(f"total: {len(todo)} instances in {total:.1f} s (mean {total / len(todo):.2f} s), "
          f"{expanded:,} expansions, {expanded / total:,.0f} per second")
    if driver is not None and peer_total:
        print(f"on the instances Fast Downward solved within {args.peer_limit:g} s: cpsolve "
              f"{ours_both:.1f} s, Fast Downward {peer_total:.1f} s, ratio "
              f"{ours_both / peer_total:.3f}")


if __name__ == "__main__":
    main()
