"""IPC instances: cpsolve's engines and Fast Downward side by side, on the original PDDL.

    python benchmarks/ipc/run.py [--time-limit S] [--engines search,cpsat,fd] [--only NAME]

For every instance (``INSTANCES``; files and sources in this folder's README):

* Fast Downward, A* with LM-cut, on the *original* domain and problem files —
  the peer, and the reference optimum;
* cpsolve reads the same files (``pddl`` parser, grounding into a Planning
  model: the ``ground`` column) and runs each engine on the model: ``search``
  (its default for a planning model), ``cpsat`` and ``fd`` (cpsolve's own PDDL
  export of the grounded model, then Fast Downward).

Every cpsolve answer passes cpsolve's checker (a plan replayed).  Printed: the
optimal cost per engine, whether every proven optimum equals Fast Downward's,
the seconds of each run and the ratio of each engine's time to Fast Downward's
on the original files, measured in the same run, one instance after the other
(the machine is shared: absolute times are upper bounds, ratios are the figure).
Times include the planner's or engine's own start-up (FD: its translator and
search processes; cpsolve: compiling the model), not loading the files.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

from cpsolve.engines import Options, run
from cpsolve.engines import fd as fd_engine
from cpsolve.engines.runtime.processes.tools import run_tool
from cpsolve.puzzles.pddl_task import load

HERE = Path(__file__).resolve().parent

INSTANCES = [
    ("gripper", "domain.pddl", "prob01.pddl"),
    ("gripper", "domain.pddl", "prob02.pddl"),
    ("blocks", "domain.pddl", "probBLOCKS-4-0.pddl"),
    ("blocks", "domain.pddl", "probBLOCKS-5-0.pddl"),
    ("blocks", "domain.pddl", "probBLOCKS-6-0.pddl"),
    ("visitall-opt11-strips", "domain.pddl", "problem02-full.pddl"),
    ("visitall-opt11-strips", "domain.pddl", "problem03-full.pddl"),
    ("pegsol-opt11-strips", "domain.pddl", "p01.pddl"),
    ("pegsol-opt11-strips", "domain.pddl", "p02.pddl"),
    ("hanoi", "domain.pddl", "pfile3.pddl"),
    ("hanoi", "domain.pddl", "pfile4.pddl"),
    ("sokoban-opt08-strips", "p01-domain.pddl", "p01.pddl"),
]


def fd_original(domain: Path, problem: Path, limit: float) -> tuple[int | None, float]:
    """Fast Downward's optimal cost on the original files and its wall time."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "domain.pddl").write_text(domain.read_text())
        (work / "problem.pddl").write_text(problem.read_text())
        done = run_tool(fd_engine.command(Options()), work, limit)
        plan = work / "plan"
        cost = re.search(r"; cost = (\d+)", plan.read_text()) if plan.exists() else None
    return (int(cost.group(1)) if cost and done.returncode == 0 else None), done.seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    p.add_argument("--engines", default="search,cpsat,fd")
    p.add_argument("--only", help="instances whose folder contains this text")
    args = p.parse_args()
    engines = args.engines.split(",")
    if fd_engine.tool_missing():
        sys.exit(fd_engine.INSTALL)
    head = f"{'instance':<28} {'FD cost':>7} {'FD s':>7} {'ground s':>8}"
    for e in engines:
        head += f" | {e:>6} {'s':>7} {'/FD':>6}"
    print(head + " | agree")
    disagreements = 0
    for folder, dom, prob in INSTANCES:
        if args.only and args.only not in folder:
            continue
        d, pr = HERE / folder / dom, HERE / folder / prob
        want, fd_s = fd_original(d, pr, args.time_limit)
        start = time.perf_counter()
        model = load(d, pr).model
        ground_s = time.perf_counter() - start
        label = f"{folder.split('-')[0]}/{prob.removesuffix('.pddl')}"
        line = f"{label:<28} {want if want is not None else '-':>7} " \
               f"{fd_s:>7.2f} {ground_s:>8.2f}"
        agree = True
        for e in engines:
            r = run(e, "solve", model, Options(time_limit=args.time_limit))
            optimal = r.status.value == "optimal"
            cost = f"{r.cost}" if optimal else ("(" + r.status.value[:4] + ")")
            if optimal and want is not None and r.cost != want:
                agree = False
            line += f" | {cost:>6} {r.seconds:>7.2f} {r.seconds / fd_s:>6.2f}"
        disagreements += not agree
        print(line + f" | {'yes' if agree else 'NO'}", flush=True)
    print(f"{disagreements} instance(s) where a proven optimum differs from Fast Downward's")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
