"""CP-SAT on long plans: what a hint and each redundant addition contribute, against Fast Downward.

    python benchmarks/cpsat_long.py [--quick] [--limit S] [--repeat N] [--no-fd] [NAME ...]

Cases: Tower of Hanoi with 5, 6, 7 and 8 discs (``examples/hanoi.py``,
optimum ``2^n - 1``), the 8-puzzle (31) and Hoppers (11 jumps, 7 moves).
There is no Klotski model among the bundled ones, so no Klotski case.

1. **Peer.**  Each case as a whole process, interleaved with its peer and
   repeated (median of ``--repeat``): cpsolve (``--one NAME``: load the model,
   then CP-SAT with 2 workers, which first looks for weighted A*'s first plan
   as a hint, as under ``--engine cpsat`` and in ``auto``) against Fast
   Downward's ``seq-opt-lmcut`` (translator + search; the PyPI wheel
   ``up-fast-downward`` installed beside cpsolve, its driver run directly) on
   a PDDL encoding of the same puzzle written below.  The ratio is cpsolve /
   Fast Downward.
2. **Hint on and off.**  ``--engine cpsat`` as it is (its own hint) and with
   ``--no-hint``, in process, interleaved with Fast Downward (a whole process)
   round by round, for Hanoi 5 and 6 and the 8-puzzle; ratios off / on and each
   / FD.
3. **Ablation.**  In process (``import ortools`` paid before the clocks), the
   time of the full configuration and then with one addition switched off
   (:data:`cpsolve.engines.cpsat.additions.OFF`): ``hint`` (no hint: this engine
   as it was before hints), ``descend`` (the hint only bounds the horizons from
   below), ``solution_hint`` (with costs: the hint is not CP-SAT's solution hint at
   the horizon of its length), ``estimate``, ``parity``, ``undo`` (an action followed by its
   inverse), ``commuting`` (independent neighbours in any order), ``shortcut``
   (two steps in a row that one step or none replaces), ``distinct``
   (states two steps apart may be equal).  ``>L`` means the limit was reached.

The machine is shared: absolute times are upper bounds, ratios are what to read.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

CASES = ("hanoi5", "hanoi6", "hanoi7", "hanoi8", "eight_puzzle", "hoppers")
SWITCHES = ("hint", "descend", "solution_hint", "estimate", "parity", "undo", "commuting",
            "shortcut", "distinct")
WORKERS = 2


def build(name: str):
    """The Planning model of a case."""
    if name.startswith("hanoi"):
        from hanoi import build as hanoi

        return hanoi(int(name[5:]))
    from cpsolve.puzzles.files import load

    return load(ROOT / "models" / f"{name}.toml").model


def solve(name: str, limit: float, off: frozenset[str] = frozenset()):
    """Load and solve with CP-SAT in this process (the engine looks for its hint itself, as
    under ``--engine cpsat``, unless ``hint`` is switched off); the seconds and the result."""
    from cpsolve.engines import Options, run
    from cpsolve.engines.cpsat import additions

    additions.OFF = off
    start = time.perf_counter()
    model = build(name)
    options = Options(time_limit=limit, workers=WORKERS, find_hint="hint" not in off)
    result = run("cpsat", "solve", model, options)
    return time.perf_counter() - start, result


# ---------------------------------------------------------------- PDDL for the peer

HANOI_DOMAIN = """(define (domain hanoi)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y) (smaller ?x ?y))
  (:action move
    :parameters (?disc ?from ?to)
    :precondition (and (smaller ?to ?disc) (on ?disc ?from) (clear ?disc) (clear ?to))
    :effect (and (clear ?from) (on ?disc ?to) (not (on ?disc ?from)) (not (clear ?to)))))
"""


def hanoi_problem(discs: int) -> str:
    """Discs d0 (smallest) .. d(n-1) stacked on peg a, to peg c; pegs are larger than discs."""
    ds = [f"d{i}" for i in range(discs)]
    pegs = ["a", "b", "c"]
    smaller = [f"(smaller {p} {d})" for p in pegs for d in ds]
    smaller += [f"(smaller {ds[j]} {ds[i]})" for j in range(discs) for i in range(j)]
    stack = [f"(on {ds[i]} {ds[i + 1]})" for i in range(discs - 1)] + [f"(on {ds[-1]} a)"]
    goal = [f"(on {ds[i]} {ds[i + 1]})" for i in range(discs - 1)] + [f"(on {ds[-1]} c)"]
    return (f"(define (problem hanoi{discs}) (:domain hanoi)\n"
            f"  (:objects {' '.join(pegs + ds)})\n"
            f"  (:init {' '.join(smaller + stack)} (clear d0) (clear b) (clear c))\n"
            f"  (:goal (and {' '.join(goal)})))\n")


SLIDING_DOMAIN = """(define (domain sliding)
  (:requirements :strips)
  (:predicates (at ?t ?p) (blank ?p) (adjacent ?p ?q))
  (:action slide
    :parameters (?t ?from ?to)
    :precondition (and (at ?t ?from) (blank ?to) (adjacent ?from ?to))
    :effect (and (at ?t ?to) (blank ?from) (not (at ?t ?from)) (not (blank ?to)))))
"""


def sliding_problem(path: Path) -> str:
    """A square sliding puzzle of single tiles from its model file's start and goal."""
    data = tomllib.loads(path.read_text())
    start, goal = ([row.split() for row in data[k].strip().splitlines()]
                   for k in ("start", "goal"))
    n = len(start)
    cell = lambda r, c: f"p{r}{c}"  # noqa: E731
    cells = [cell(r, c) for r in range(n) for c in range(n)]
    adjacent = [f"(adjacent {cell(r, c)} {cell(r + dr, c + dc)})"
                for r in range(n) for c in range(n)
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= r + dr < n and 0 <= c + dc < n]

    def facts(board: list[list[str]]) -> list[str]:
        return [f"(blank {cell(r, c)})" if v == "_" else f"(at t{v} {cell(r, c)})"
                for r, row in enumerate(board) for c, v in enumerate(row)]

    tiles = sorted({f"t{v}" for row in start for v in row if v != "_"})
    goal_facts = [f for f in facts(goal) if not f.startswith("(blank")]
    return (f"(define (problem sliding) (:domain sliding)\n"
            f"  (:objects {' '.join(tiles + cells)})\n"
            f"  (:init {' '.join(adjacent + facts(start))})\n"
            f"  (:goal (and {' '.join(goal_facts)})))\n")


PEGS_DOMAIN = """(define (domain pegs)
  (:requirements :strips :negative-preconditions :equality :action-costs)
  (:predicates (peg ?h) (empty ?h) (line ?a ?b ?c) (last ?h))
  (:functions (total-cost))
  (:action continue
    :parameters (?from ?over ?to)
    :precondition (and (line ?from ?over ?to) (peg ?from) (peg ?over) (empty ?to) (last ?from))
    :effect (and (not (peg ?from)) (empty ?from) (not (peg ?over)) (empty ?over)
                 (peg ?to) (not (empty ?to)) (not (last ?from)) (last ?to)))
  (:action start
    :parameters (?from ?over ?to ?prev)
    :precondition (and (line ?from ?over ?to) (peg ?from) (peg ?over) (empty ?to)
                       (last ?prev) (not (= ?prev ?from)))
    :effect (and (not (peg ?from)) (empty ?from) (not (peg ?over)) (empty ?over)
                 (peg ?to) (not (empty ?to)) (not (last ?prev)) (last ?to)
                 (increase (total-cost) 1))))
"""


def pegs_problem(name: str) -> str:
    """Peg solitaire where a chain of jumps by one peg is one move (cost 1, then 0 each).

    The jumps are read from the cpsolve model's actions (which holes each empties and
    fills, and which one its cost condition names as the jumping peg's).
    """
    from cpsolve.language.expr import to_text

    model = build(name)
    holes = [n for n in model.domains if n != "last"]
    index = {n: i for i, n in enumerate(holes)}
    lines = []
    for action in model.actions:
        effects = {v: to_text(e) for v, e in action.effects if v != "last"}
        to = next(v for v, e in effects.items() if e == "1")
        start = int(re.search(r"last == (\d+)", to_text(action.cost)).group(1))
        over = next(v for v, e in effects.items() if e == "0" and index[v] != start)
        lines.append(f"(line h{start} h{index[over]} h{index[to]})")
    init = [f"(peg h{index[n]})" if model.initial[n] else f"(empty h{index[n]})"
            for n in holes]
    pinned = dict(re.findall(r"(hole\[\d+\]) == (\d)", to_text(model.goal)))
    goal = [f"(peg h{index[n]})" if pinned[n] == "1" else f"(empty h{index[n]})"
            for n in holes]
    objects = [f"h{i}" for i in range(len(holes))] + ["none"]
    return (f"(define (problem pegs) (:domain pegs)\n"
            f"  (:objects {' '.join(objects)})\n"
            f"  (:init {' '.join(lines + init)} (last none) (= (total-cost) 0))\n"
            f"  (:goal (and {' '.join(goal)}))\n"
            f"  (:metric minimize (total-cost)))\n")


def pddl(name: str) -> tuple[str, str]:
    """Domain and problem text of a case."""
    if name.startswith("hanoi"):
        return HANOI_DOMAIN, hanoi_problem(int(name[5:]))
    if name == "hoppers":
        return PEGS_DOMAIN, pegs_problem(name)
    return SLIDING_DOMAIN, sliding_problem(ROOT / "models" / f"{name}.toml")


def fast_downward() -> Path | None:
    """The driver script of the ``up-fast-downward`` wheel (not imported: it needs more)."""
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or spec.origin is None:
        return None
    driver = Path(spec.origin).parent / "downward" / "fast-downward.py"
    return driver if driver.exists() else None


def run_fd(driver: Path, name: str, limit: float, folder: Path) -> tuple[float, str]:
    """Fast Downward seq-opt-lmcut as a whole process: seconds and ``length/cost``."""
    domain, problem = pddl(name)
    (folder / "domain.pddl").write_text(domain)
    (folder / "problem.pddl").write_text(problem)
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, str(driver), "--plan-file", str(folder / "plan"),
             "--alias", "seq-opt-lmcut", str(folder / "domain.pddl"),
             str(folder / "problem.pddl")],
            capture_output=True, text=True, cwd=folder, timeout=limit)
    except subprocess.TimeoutExpired:
        return limit, "timeout"
    seconds = time.perf_counter() - start
    length = re.search(r"Plan length: (\d+)", proc.stdout)
    cost = re.search(r"Plan cost: (\d+)", proc.stdout)
    if length is None:
        return seconds, f"failed (exit {proc.returncode})"
    return seconds, f"{length.group(1)}/{cost.group(1) if cost else '?'}"


def run_cpsolve(name: str, limit: float) -> tuple[float, str]:
    """This script's ``--one NAME`` as a whole process: seconds and what it printed."""
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, __file__, "--one", name, "--limit", str(limit)],
                              capture_output=True, text=True, timeout=limit + 30)
    except subprocess.TimeoutExpired:
        return limit, "timeout"
    return time.perf_counter() - start, proc.stdout.strip() or proc.stderr.strip()[-200:]


def one(name: str, limit: float) -> None:
    """``--one``: solve one case in this process and print ``length/cost status``."""
    seconds, result = solve(name, limit)
    steps = "-" if result.plan is None else len(result.plan)
    print(f"{steps}/{result.cost} {result.status.name.lower()} in-process {seconds:.2f} s")


def peer_table(names: list[str], limit: float, repeat: int) -> None:
    driver = fast_downward()
    print(f"1. median of {repeat}, cpsolve (hint + CP-SAT, {WORKERS} workers) vs Fast Downward "
          "seq-opt-lmcut (whole process); ratios cpsolve / FD")
    if driver is None:
        print("   Fast Downward not installed (pip install up-fast-downward): skipped")
        return
    print(f"   {'case':13} {'whole s':>8} {'in-proc s':>9} {'FD s':>7} {'whole':>6} {'in-proc':>7}"
          "  cpsolve answer / FD length/cost")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            ours, inside, theirs, said = [], [], [], ("", "")
            for _ in range(repeat):  # interleaved: the load is shared alike
                s, ours_said = run_cpsolve(name, limit)
                ours.append(s)
                found = re.search(r"in-process ([\d.]+) s", ours_said)
                inside.append(float(found.group(1)) if found else s)
                t, fd_said = run_fd(driver, name, limit, Path(tmp))
                theirs.append(t)
                said = (ours_said.split(" in-process")[0], fd_said)
            a, i, b = (statistics.median(x) for x in (ours, inside, theirs))
            print(f"   {name:13} {a:8.2f} {i:9.2f} {b:7.2f} {a / b:6.2f} {i / b:7.2f}  "
                  f"{said[0]} / FD {said[1]}", flush=True)


HINT_CASES = ("hanoi5", "hanoi6", "eight_puzzle")
"""The cases of the hint table (2.): where CP-SAT alone gained or lost most by its hint."""


def hint_table(names: list[str], limit: float, repeat: int) -> None:
    """``--engine cpsat`` with and without its hint, in process, interleaved with Fast
    Downward's seq-opt-lmcut (a whole process: its translator runs in Python too)."""
    import ortools  # noqa: F401 - paid once, before the clocks

    driver = fast_downward()
    print(f"2. cpsat alone (--engine cpsat), hint on vs off (--no-hint): in process, median of "
          f"{repeat} interleaved rounds (on, off, FD), limit {limit:g} s; FD whole process")
    print(f"   {'case':13} {'on s':>7} {'off s':>7} {'off/on':>7} {'FD s':>7} {'on/FD':>6} "
          f"{'off/FD':>6}  hint (steps, s) / answer / FD length/cost")
    solve("hanoi3", limit)  # the first solve of a process pays for lazy imports
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            on: list[float] = []
            off: list[float] = []
            fd: list[float] = []
            said = ""
            for _ in range(repeat):
                seconds, result = solve(name, limit)
                on.append(seconds if result.status.name == "OPTIMAL" else float("inf"))
                hint = result.hint
                said = ("-" if hint is None else f"{hint.steps}, {hint.seconds:.2f}") + \
                    f" / {result.steps} {result.status.name.lower()}"
                seconds, result = solve(name, limit, frozenset(("hint",)))
                off.append(seconds if result.status.name == "OPTIMAL" else float("inf"))
                if driver is not None:
                    t, fd_said = run_fd(driver, name, limit, Path(tmp))
                    fd.append(t)
            a, b = statistics.median(on), statistics.median(off)
            c = statistics.median(fd) if fd else float("nan")
            cells = [f"{x:7.2f}" if x != float("inf") else f"{'>' + format(limit, 'g'):>7}"
                     for x in (a, b)]
            print(f"   {name:13} {cells[0]} {cells[1]} {b / a:7.2f} {c:7.2f} {a / c:6.2f} "
                  f"{b / c:6.2f}  {said}" + (f" / FD {fd_said}" if fd else " / FD not installed"),
                  flush=True)


def ablation_table(names: list[str], limit: float, switches: tuple[str, ...],
                   repeat: int) -> None:
    import ortools  # noqa: F401 - paid once, before the clocks

    print(f"3. in process, median of {repeat} rounds (each round runs every column in turn, so a "
          f"burst of load hits them alike; limit {limit:g} s): everything, then one addition off")
    print(f"   {'case':13} {'all':>7} " + " ".join(f"{'-' + s:>10}" for s in switches))
    solve("hanoi3", limit)  # the first solve of a process pays for lazy imports
    configs = [frozenset(), *(frozenset((s,)) for s in switches)]
    for name in names:
        times: dict[frozenset[str], list[float] | None] = {off: [] for off in configs}
        for _ in range(repeat):
            for off in configs:
                if times[off] is None:
                    continue  # reached the limit once: not run again
                seconds, result = solve(name, limit, off)
                if result.status.name in ("OPTIMAL", "INFEASIBLE"):
                    times[off].append(seconds)  # type: ignore[union-attr]
                else:
                    times[off] = None
        cells = [f"{statistics.median(t):.2f}" if t else f">{limit:g}"
                 for t in (times[off] for off in configs)]
        print(f"   {name:13} {cells[0]:>7} " + " ".join(f"{c:>10}" for c in cells[1:]),
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"cases (default: all of {', '.join(CASES)})")
    parser.add_argument("--quick", action="store_true", help="one run each, limit 20 s")
    parser.add_argument("--limit", type=float, default=None, help="seconds per run (60)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-fd", action="store_true", help="skip the peer table")
    parser.add_argument("--no-ablation", action="store_true", help="skip the ablation table")
    parser.add_argument("--no-hint-table", action="store_true",
                        help="skip the table of --engine cpsat with and without its hint")
    parser.add_argument("--off", default=",".join(SWITCHES),
                        help="additions to switch off one by one in the ablation")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    limit = args.limit if args.limit is not None else (20.0 if args.quick else 60.0)
    if args.one:
        one(args.one, limit)
        return
    names = args.names or list(CASES)
    repeat = 1 if args.quick else args.repeat
    if not args.no_fd:
        peer_table(names, limit, repeat)
    if not args.no_hint_table:
        hint_table([n for n in names if n in HINT_CASES] or names, limit, repeat)
    if not args.no_ablation:
        switches = tuple(s for s in args.off.split(",") if s)
        ablation_table(names, limit, switches, repeat)


if __name__ == "__main__":
    main()
