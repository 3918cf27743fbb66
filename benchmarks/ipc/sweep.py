"""The IPC sweep: the smallest instance of every domain of Fast Downward's benchmark
collection, through Fast Downward (A* with LM-cut) and through cpsolve.

    python benchmarks/ipc/sweep.py [--benchmarks DIR] [--time-limit 60] [--only TEXT]
                                   [--results FILE] [--table docs/ipc-sweep.md]

The collection is ``aibasel/downward-benchmarks`` (<https://github.com/aibasel/downward-
benchmarks>): ``--benchmarks DIR`` names a checkout; without it the script clones it
into ``~/.cache/cpsolve/downward-benchmarks`` (from ``$CPSOLVE_BENCHMARKS_GIT`` when
set, a URL or a local git directory, else from GitHub).  Nothing of it is committed.

Per domain (a folder with ``.pddl`` files) the smallest problem file (in bytes) is taken,
its domain file found as Fast Downward's driver finds it.  Then, each as a child process
with the time limit: Fast Downward's ``seq-opt-lmcut`` search (its plan kept; where LM-cut
refuses the task, conditional effects or axioms, A* with the blind heuristic), ``cpsolve
solve DOMAIN PROBLEM --engine search --json`` (does it parse and ground, which feature
refuses it, its optimum) and ``cpsolve validate DOMAIN PROBLEM FD-PLAN`` (Fast Downward's
plan replayed by cpsolve's checker: valid, at Fast Downward's cost).  One JSON line per
domain goes to ``--results`` (a second run skips the domains already there), and the
table with its summary to ``--table``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

SOURCE = "https://github.com/aibasel/downward-benchmarks"
CACHE = Path.home() / ".cache" / "cpsolve" / "downward-benchmarks"


def locate(given: str | None) -> Path:
    """A checkout of the collection: the one given, the cached clone, or a fresh clone."""
    if given:
        return Path(given)
    if not (CACHE / "suites.py").exists():
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        origin = os.environ.get("CPSOLVE_BENCHMARKS_GIT", SOURCE)
        subprocess.run(["git", "clone", "--depth", "1", origin, str(CACHE)], check=True)
    return CACHE


def domain_file(problem: Path) -> Path | None:
    """The domain of ``problem`` as Fast Downward's driver looks for it."""
    folder, name = problem.parent, problem.name
    candidates = [folder / "domain.pddl", folder / f"{name[:3]}-domain.pddl",
                  folder / f"domain_{name}", folder / f"domain-{name}"]
    return next((c for c in candidates if c.exists() and c != problem), None)


def smallest(folder: Path) -> tuple[Path, Path] | None:
    """The smallest problem of a domain folder, with its domain file."""
    problems = [p for p in folder.glob("*.pddl") if "domain" not in p.name]
    for p in sorted(problems, key=lambda p: (p.stat().st_size, p.name)):
        d = domain_file(p)
        if d is not None:
            return d, p
    return None


def fast_downward(domain: Path, problem: Path, plan: Path, limit: float) -> dict:
    """Fast Downward's seq-opt-lmcut: its cost (None: no plan), status and seconds; where
    LM-cut does not take the task (conditional effects, axioms: exit 34), A* with the
    blind heuristic, optimal too."""
    row = fd_search(domain, problem, plan, limit, "astar(lmcut())")
    if row["fd_status"] == "exit 34":
        row = {**fd_search(domain, problem, plan, limit, "astar(blind())"),
               "fd_search": "astar(blind())"}
    return row


def fd_search(domain: Path, problem: Path, plan: Path, limit: float, search: str) -> dict:
    """One run of Fast Downward's ``search``."""
    import importlib.util

    spec = importlib.util.find_spec("up_fast_downward")
    driver = Path(next(iter(spec.submodule_search_locations))) / "downward" / "fast-downward.py"
    argv = [sys.executable, str(driver), "--overall-time-limit", f"{int(limit)}s",
            "--plan-file", str(plan), str(domain), str(problem), "--search", search]
    start = time.perf_counter()
    code = run_killable(argv, plan.parent, limit + 30)
    seconds = time.perf_counter() - start
    cost = None
    if code == 0 and plan.exists():
        found = re.search(r"; cost = (\d+)", plan.read_text())
        cost = int(found.group(1)) if found else None
    status = {0: "solved", 10: "unsolvable", 11: "unsolvable", 12: "unsolved",
              23: "time", 21: "time", 22: "memory", -1: "time"}.get(code, f"exit {code}")
    return {"fd_cost": cost, "fd_status": status, "fd_seconds": round(seconds, 2)}


def run_killable(argv: list[str], cwd: Path, timeout: float) -> int:
    """Run ``argv`` in its own session; past ``timeout`` its whole process group is
    killed (exit -1)."""
    import signal

    child = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        return child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        return -1


def cpsolve(*argv: str, limit: float) -> tuple[int, str, str, float]:
    """``python -m cpsolve ARGV``: exit code, stdout, stderr, seconds."""
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "cpsolve", *argv], capture_output=True,
                              text=True, timeout=limit + 60)
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        code, out, err = -1, "", "did not stop within the grace"
    return code, out, err, time.perf_counter() - start


def ours(domain: Path, problem: Path, limit: float) -> dict:
    """cpsolve's search engine on the original files."""
    code, out, err, seconds = cpsolve("solve", str(domain), str(problem), "--engine", "search",
                                      "--time-limit", f"{limit:g}", "--json", limit=limit)
    row = {"cp_code": code, "cp_seconds": round(seconds, 2)}
    if code == 2:
        row["refused"] = " ".join(err.split())[:240]
        return row
    try:
        result = json.loads(out)
    except ValueError:
        row["refused"] = f"exit {code}: " + " ".join(err.split())[-240:]
        return row
    row["cp_status"] = result.get("status")
    row["cp_cost"] = result.get("cost")
    if result.get("status") == "error":  # a limit reached while translating, say
        row["cp_error"] = str(result.get("error"))[:200]
    return row


def validated(domain: Path, problem: Path, plan: Path, limit: float) -> dict:
    """cpsolve's checker on Fast Downward's plan."""
    code, out, err, _ = cpsolve("validate", str(domain), str(problem), str(plan), "--json",
                                limit=limit)
    try:
        verdict = json.loads(out)
    except ValueError:
        return {"val_code": code, "val_error": " ".join(err.split())[:200]}
    return {"val_code": code, "val_valid": verdict.get("valid"), "val_cost": verdict.get("cost")}


def sweep_one(folder: Path, limit: float, work: Path) -> dict:
    """One domain's row."""
    found = smallest(folder)
    if found is None:
        return {"domain": folder.name, "refused": "no problem with a domain file"}
    domain, problem = found
    row: dict = {"domain": folder.name, "problem": problem.name}
    plan = work / f"{folder.name}.plan"
    plan.unlink(missing_ok=True)
    row.update(fast_downward(domain, problem, plan, limit))
    row.update(ours(domain, problem, limit))
    if row["fd_cost"] is not None and "refused" not in row:
        row.update(validated(domain, problem, plan, limit))
    return row


def verdict(row: dict) -> str:
    """The row's comparison in a word."""
    if "refused" in row:
        return "refused"
    if row.get("fd_cost") is None or row.get("cp_status") != "optimal":
        return "-"
    return "same" if row["cp_cost"] == row["fd_cost"] else "DIFFERENT"


FD_WORDS = {"exit 34": "unsupported (LM-cut: conditional effects or axioms)",
            "exit 1": "failed (exit 1)", "time": "time limit"}
"""Fast Downward's outcomes in words (exit 34: the search does not support the task)."""


def table(rows: list[dict], limit: float) -> str:
    """The docs page: summary, then one row per domain."""
    grounded = [r for r in rows if "refused" not in r and r.get("cp_status") not in
                (None, "error")]
    fd_all = [r for r in rows if r.get("fd_cost") is not None]
    by_fd = [r for r in grounded if r.get("fd_cost") is not None]
    finished = [r for r in by_fd if r.get("cp_status") == "optimal"]
    different = [r for r in finished if r["cp_cost"] != r["fd_cost"]]
    valid = [r for r in by_fd if r.get("val_valid") and r.get("val_cost") == r["fd_cost"]]
    lines = [
        "# The IPC sweep: the smallest instance of every domain", "",
        f"Source: <{SOURCE}> (Fast Downward's collection of IPC benchmarks), the smallest "
        "problem file of each domain folder. Made by `python benchmarks/ipc/sweep.py "
        f"--time-limit {limit:g}` (both planners get {limit:g} s per instance, one after "
        "the other, on a shared two-core machine).", "",
        f"- domains: {len(rows)}; parsed and grounded by cpsolve within the limit: "
        f"{len(grounded)}; refused (the feature named): "
        f"{len([r for r in rows if 'refused' in r])}; the limit reached while translating "
        f"or grounding: {len([r for r in rows if r.get('cp_status') == 'error'])}",
        f"- solved by Fast Downward (seq-opt-lmcut; A* with the blind heuristic where LM-cut "
        f"refuses the task): {len(fd_all)} ({len(by_fd)} of them "
        f"grounded by cpsolve); of those {len(fd_all)} cpsolve's search proved the optimum "
        f"on {len(finished)} ({100 * len(finished) / max(1, len(fd_all)):.0f} %), with "
        f"{len(different)} disagreement(s)",
        f"- Fast Downward's plan valid by `cpsolve validate`, at its cost: {len(valid)} of "
        f"{len([r for r in by_fd if r.get('val_code', -1) != -1])} checked within the "
        "limit", "",
        "| domain | problem | FD cost | FD s | cpsolve | cost | s | FD plan valid | "
        "verdict / refusal |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        why = re.sub(r"^error: \S+: ", "", r.get("refused", verdict(r))).replace("|", "/")
        val = "" if "val_code" not in r else "time" if r["val_code"] == -1 else (
            "yes" if r.get("val_valid") and r.get("val_cost") == r.get("fd_cost") else "NO")
        if r.get("cp_status") == "error":
            why = "a limit (time or memory) reached while translating or grounding"
        fd = r.get("fd_cost") if r.get("fd_cost") is not None else FD_WORDS.get(
            r.get("fd_status", ""), r.get("fd_status", ""))
        if r.get("fd_search") and r.get("fd_cost") is not None:
            fd = f"{fd} (blind)"
        lines.append(f"| {r['domain']} | {r.get('problem', '')} | {fd}"
                     f" | {r.get('fd_seconds', '')} | {r.get('cp_status', '')} | "
                     f"{r.get('cp_cost') if r.get('cp_cost') is not None else ''} | "
                     f"{r.get('cp_seconds', '')} | {val} | {why} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--benchmarks", help="a checkout of aibasel/downward-benchmarks")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per planner run")
    p.add_argument("--only", help="domains whose folder name contains this text")
    p.add_argument("--shard", default="0/1", metavar="I/N",
                   help="every N-th domain from the I-th (run N processes, then once more "
                   "over the results joined, to make the table)")
    p.add_argument("--results", default="ipc-sweep.jsonl", help="JSON lines, one per domain")
    p.add_argument("--table", help="write the Markdown table here (e.g. docs/ipc-sweep.md)")
    args = p.parse_args()
    root = locate(args.benchmarks)
    results = Path(args.results)
    done = {}
    if results.exists():
        for line in results.read_text().splitlines():
            row = json.loads(line)
            done[row["domain"]] = row
    work = results.resolve().parent / "ipc-sweep-plans"
    work.mkdir(exist_ok=True)
    folders = sorted(f for f in root.iterdir() if f.is_dir() and any(f.glob("*.pddl")))
    first, step = (int(x) for x in args.shard.split("/"))
    folders = folders[first::step]
    rows = []
    for folder in folders:
        if args.only and args.only not in folder.name:
            continue
        row = done.get(folder.name)
        if row is None:
            row = sweep_one(folder, args.time_limit, work)
            with results.open("a") as out:
                out.write(json.dumps(row) + "\n")
        elif row.get("fd_cost") is not None and "refused" not in row and "val_code" not in row:
            found = smallest(folder)  # a run made before `validate` existed: check FD's plan
            row.update(validated(*found, work / f"{folder.name}.plan", args.time_limit))
        rows.append(row)
        print(f"{row['domain']:<40} {row.get('fd_cost')!s:>6} {row.get('cp_status', '')!s:>10}"
              f" {row.get('cp_cost')!s:>6}  {row.get('refused', verdict(row))[:90]}", flush=True)
    if not args.only and step == 1:
        results.write_text("".join(json.dumps(r) + "\n" for r in rows))
    page = table(rows, args.time_limit)
    if args.table:
        Path(args.table).write_text(page)
    print(page.split("| domain |")[0])


if __name__ == "__main__":
    main()
