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
plan replayed by cpsolve's checker: valid, at Fast Downward's cost).  The table with its
summary goes to ``--table``.

``--results`` is a cache (:mod:`sweep_cache`): one JSON line per run, keyed by domain,
engine (``fd``, ``search``, ``validate``) and time limit.  A run that finished (an answer,
a proof, a refusal, a verdict) is reused at any larger limit, so a sweep at 60 s after
one at 30 s re-runs only what hit the 30 s limit; a grounded search run that hit its
limit is reused too where Fast Downward has no plan (it counts in no figure but
"grounded").  Shards (``--shard I/N``, N processes) append to the same file; a last run
without ``--shard`` makes the table from the cache.  ``--import-rows`` reads the older
one-line-per-domain files.

    python benchmarks/ipc/sweep.py --time-limit 30 --results runs.jsonl
    python benchmarks/ipc/sweep.py --time-limit 60 --results runs.jsonl --table docs/ipc-sweep.md
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

from sweep_cache import Cache, split_row
from sweep_table import SOURCE, table, verdict

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
        code, out, err = -1, "", "did not stop within 60 s of the limit; cut off"
    return code, out, err, time.perf_counter() - start


def ours(domain: Path, problem: Path, limit: float) -> dict:
    """cpsolve's search engine on the original files."""
    code, out, err, seconds = cpsolve("solve", str(domain), str(problem), "--engine", "search",
                                      "--time-limit", f"{limit:g}", "--json", limit=limit)
    row = {"cp_code": code, "cp_seconds": round(seconds, 2)}
    if code == 2:  # a refusal: the feature named, on one line of stderr
        row["refused"] = " ".join(err.split())[:240]
        row["refused_lines"] = len(err.strip().splitlines())
        return row
    try:
        result = json.loads(out)
    except ValueError:  # a crash or a kill: no feature named
        row["refused"] = f"exit {code}: " + " ".join(err.split())[-240:]
        row["refused_lines"] = len(err.strip().splitlines())
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


def load_average() -> float:
    """The machine's load average over the last minute, as the run ends."""
    return round(os.getloadavg()[0], 1)


def run_fd(cache: Cache, name: str, found: tuple[Path, Path], limit: float,
           plan: Path) -> dict:
    """Fast Downward's run: from the cache where it stays valid, else run now."""
    record = cache.best(name, "fd", limit)
    if record is None:
        plan.unlink(missing_ok=True)
        record = cache.add({"domain": name, "engine": "fd", "limit": limit,
                            "problem": found[1].name, **fast_downward(*found, plan, limit),
                            "load": load_average()})
    return record


def run_search(cache: Cache, name: str, found: tuple[Path, Path], limit: float,
               fd: dict) -> dict:
    """cpsolve's run: from the cache where it stays valid, else run now.  A run that
    grounded the task but hit a smaller limit in the search is kept where Fast Downward
    has no plan at this limit: it counts nowhere but in "grounded", which it already is."""
    record = cache.best(name, "search", limit)
    if record is None and fd.get("fd_cost") is None:
        older = cache.latest(name, "search", limit)
        if older is not None and older.get("cp_status") == "unknown":
            record = older
    if record is None:
        record = cache.add({"domain": name, "engine": "search", "limit": limit,
                            "problem": found[1].name, **ours(*found, limit),
                            "load": load_average()})
    return record


def run_validate(cache: Cache, name: str, found: tuple[Path, Path], limit: float,
                 fd: dict, plan: Path) -> dict:
    """cpsolve's checker on Fast Downward's plan (the plan of the run ``fd``)."""
    record = cache.best(name, "validate", limit)
    if record is not None and record.get("fd_limit") != fd["limit"]:
        record = None
    if record is None:
        record = cache.add({"domain": name, "engine": "validate", "limit": limit,
                            "problem": found[1].name, "fd_limit": fd["limit"],
                            **validated(*found, plan, limit), "load": load_average()})
    return record


def sweep_one(folder: Path, limit: float, work: Path, cache: Cache) -> dict:
    """One domain's row: its runs, each from the cache where it stays valid."""
    found = smallest(folder)
    if found is None:
        return {"domain": folder.name, "refused": "no problem with a domain file",
                "refused_lines": 1}
    name = folder.name
    plan = work / f"{name}.plan"
    fd = run_fd(cache, name, found, limit, plan)
    cp = run_search(cache, name, found, limit, fd)
    val = None
    if fd.get("fd_cost") is not None and "refused" not in cp:
        val = run_validate(cache, name, found, limit, fd, plan)
    return merge(fd, cp, val)


def merge(fd: dict, cp: dict, val: dict | None) -> dict:
    """The table's row of one domain from its runs."""
    skip = ("engine", "limit", "load", "fd_limit")
    row = {"domain": fd["domain"], "fd_limit": fd["limit"], "cp_limit": cp["limit"],
           "loads": [r["load"] for r in (fd, cp, val) if r and "load" in r]}
    for record in (fd, cp, val or {}):
        row.update({k: v for k, v in record.items() if k not in skip})
    return row

def main() -> None:
    """Sweep the domains (this shard of them), then write the table of every domain run."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--benchmarks", help="a checkout of aibasel/downward-benchmarks")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per planner run")
    p.add_argument("--only", help="domains whose folder name contains this text")
    p.add_argument("--shard", default="0/1", metavar="I/N",
                   help="every N-th domain from the I-th (run N processes on the same "
                   "results file, then once more without --shard to make the table)")
    p.add_argument("--results", default="ipc-sweep.jsonl",
                   help="JSON lines, one per run (domain, engine, limit); reused")
    p.add_argument("--import-rows", metavar="FILE",
                   help="an older results file (one line per domain) to add to --results")
    p.add_argument("--import-limit", type=float, default=30.0,
                   help="the time limit the --import-rows file was made with")
    p.add_argument("--table", help="write the Markdown table here (e.g. docs/ipc-sweep.md)")
    args = p.parse_args()
    root = locate(args.benchmarks)
    cache = Cache(Path(args.results))
    if args.import_rows:
        for line in Path(args.import_rows).read_text().splitlines():
            for record in split_row(json.loads(line), args.import_limit):
                cache.add(record)
    work = Path(args.results).resolve().parent / "ipc-sweep-plans"
    work.mkdir(exist_ok=True)
    folders = sorted(f for f in root.iterdir() if f.is_dir() and any(f.glob("*.pddl")))
    first, step = (int(x) for x in args.shard.split("/"))
    rows = []
    for folder in folders[first::step]:
        if args.only and args.only not in folder.name:
            continue
        row = sweep_one(folder, args.time_limit, work, cache)
        rows.append(row)
        print(f"{row['domain']:<40} {row.get('fd_cost')!s:>6} {row.get('cp_status', '')!s:>10}"
              f" {row.get('cp_cost')!s:>6}  {row.get('refused', verdict(row))[:90]}", flush=True)
    page = table(rows, args.time_limit)
    if args.table:
        Path(args.table).write_text(page)
    print(page.split("| domain |")[0])


if __name__ == "__main__":
    main()
