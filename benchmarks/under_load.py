"""Runs on a loaded machine: JSON at every time limit, exit 130 at every Ctrl-C (issue 20).

    python benchmarks/under_load.py [--quick] [--seed S] [--busy N] [--runs N] [--signals N]

Beside the runs, N busy processes (``while True: pass``, 8 by default) keep the cores full;
they are stopped at the end, also on Ctrl-C or SIGTERM, and stop by themselves if this
script dies.  Every run is a whole process, ``python -m cpsolve ...`` from the repository.

* limit runs: ``solve``, ``count`` and ``analyze`` over a spread of the bundled models,
  every engine that applies (``fd`` and ``minizinc`` when installed) and ``analyze
  --workers 2`` (with the dask extra: a local cluster's start), with ``--json
  --time-limit L`` (L drawn from 0.5 to 5 s).  Each must print JSON (one object, or JSON
  lines) valid against ``cpsolve schema``, exit 0 or 1, and end within L + max(10 % of L,
  0.5 s) of its start;
* signal runs: SIGINT at a random moment (0.5 to 4 s after the start) into long runs of
  every engine, ``auto``, a batch, a batch with ``--jobs 2``, a Dask batch and a Dask
  analysis (``--workers 2``, with the dask extra); sent to the process (as ``kill -INT`` does) or to
  its process group (as a terminal's Ctrl-C does).  Each must exit 130 and print the
  partial result as JSON valid against the schema (not an error object).

Every run must leave no process behind (its children, in any session, carry a mark in
their environment); what is left is killed.  The time from the signal to the exit is a figure.

Prints a line per run, then the tallies per kind, the worst overshoot and stop time, and
every failure with its command (run from the repository's folder); exits 1 when any run
failed.  The same seed draws the same runs, limits and moments.
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import json
import os
import random
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLANNING = ["water_jugs", "blocks", "hanoi4", "eight_puzzle", "fifteen_puzzle", "fifteen_korf1",
            "klotski", "english33", "hoppers", "onoff", "line_puzzle", "missionaries"]
CSP = ["xsudoku5", "sudoku_inkala", "queens8", "knight_8x8", "knight_6x6", "knight_problem_a",
       "latin4", "camel_6x6"]
TASKS = [("solve", PLANNING + CSP, ()), ("count", CSP, ()),  # (command, models, options)
         ("count", ["hoppers", "water_jugs", "eight_puzzle"], ("--optimal",)),
         ("analyze", ["eight_puzzle", "fifteen_korf1", "klotski", "english33", "onoff"], ())]

BUSY = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    pass\n"
"""A busy loop that ends once its parent is gone (also when this script is killed)."""

MANHATTAN = Path(tempfile.gettempdir()) / "cpsolve-under-load" / "korf1_manhattan.toml"
"""Korf #1 without its pattern databases: search finds a plan, then proves for its default
budget of 5 s (with them, all is done in about a second); CP-SAT needs minutes."""

REASONS = {"hung": "hung", "before the signal": "not interrupted", "no JSON": "no JSON",  # words
           "not JSON": "not JSON", "schema": "invalid JSON", "error object": "error object",
           "left behind": "processes left", "exit": "exit code", "past": "late"}  # -> reason

TOKEN = "CPSOLVE_UNDER_LOAD_RUN"  # marks every process of a run (its children inherit it)

HANG = 30.0  # seconds past its limit (or its signal) after which a run is killed: hung


@dataclass(frozen=True)
class Run:
    """One command: ``kind`` groups it in the tallies; ``limit`` (limit runs), or ``moment``
    (seconds after the start) and ``mode`` ("process" or "group") for signal runs."""

    kind: str
    argv: tuple[str, ...]
    limit: float = 0.0
    moment: float = 0.0
    mode: str = ""

    def command(self) -> str:
        """The command line to paste (from the repository's folder)."""
        return shlex.join(["python", "-m", "cpsolve", *self.argv])


@dataclass
class Done:
    """How a run ended: code, output, seconds to the exit (from its start, from its signal)."""

    code: int
    out: str
    err: str
    seconds: float
    stop: float | None = None
    failures: list[str] = field(default_factory=list)


@contextmanager
def busy(count: int) -> Iterator[None]:
    """``count`` busy processes for the duration of the block, always stopped after it."""
    procs = [subprocess.Popen([sys.executable, "-c", BUSY], start_new_session=True)
             for _ in range(count)]

    def stop() -> None:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    atexit.register(stop)
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        yield
    finally:
        stop()
        signal.signal(signal.SIGTERM, previous)
        atexit.unregister(stop)


def applicable(task: str, names: list[str]) -> list[tuple[str, str]]:
    """(model, engine) pairs where ``engine`` can do ``task`` on the model (peers when
    installed), as cpsolve's own registry says; ``auto`` too, except for analyze."""
    from cpsolve import engines
    from cpsolve.puzzles.files import load, resolve

    pairs = []
    for name in names:
        model = load(resolve(name)).model
        for engine in engines.every():
            if (model.kind, task) not in engines.capabilities(engine) \
                    or not engines.installed(engine):
                continue
            module = engines.load(engine)
            if not (hasattr(module, "supports") and module.supports(model)):
                pairs.append((name, engine))
        if task != "analyze":
            pairs.append((name, "auto"))
    return pairs


def limit_runs(count: int, rng: random.Random) -> list[Run]:
    """``count`` limit runs, taken in turn from each (command, engine) so every engine
    gets its share; models and limits drawn with ``rng``."""
    groups: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for task, names, extra in TASKS:
        for name, engine in applicable(task, names):
            groups[f"{task}/{engine}"].append(
                (task, f"models/{name}.toml", "--engine", engine, *extra))
    if importlib.util.find_spec("distributed") is not None:  # the start of a local cluster
        groups["analyze --workers 2"] = [  # takes seconds under load: its limit holds too
            ("analyze", "models/english33.toml", "--from", "start", "--workers", "2"),
            ("analyze", "models/eight_puzzle.toml", "--workers", "2")]
    for commands in groups.values():
        rng.shuffle(commands)
    kinds = sorted(groups)
    runs = []
    for i in range(count):
        kind = kinds[i % len(kinds)]
        commands = groups[kind]
        limit = round(rng.uniform(0.5, 5.0), 1)
        argv = (*commands[i // len(kinds) % len(commands)], "--json", "--time-limit",
                f"{limit:g}")
        runs.append(Run(kind, argv, limit=limit))
    return runs


def signal_targets() -> dict[str, tuple[str, ...]]:
    """Runs of every engine, auto and the batches that go on past the latest moment (4 s;
    most for minutes), by kind."""
    from cpsolve import engines

    korf = (ROOT / "models" / "fifteen_korf1.toml").read_text()
    manhattan = MANHATTAN  # kept after the run, so that the commands printed can be pasted
    manhattan.parent.mkdir(exist_ok=True)
    manhattan.write_text(korf[:korf.index("[estimate]")] + korf[korf.index("[expected]"):])
    batch = ("solve", "models/water_jugs.toml", "models/fifteen_korf1.toml", str(manhattan),
             "models/english33.toml", "models/klotski.toml")
    targets = {
        "solve/cpsat": ("solve", "models/fifteen_korf1.toml", "--engine", "cpsat"),
        "solve/search": ("solve", str(manhattan), "--engine", "search"),
        "solve/auto": ("solve", str(manhattan)),
        "count/auto": ("count", "models/knight_8x8.toml"),
        "count/search": ("count", "models/knight_8x8.toml", "--engine", "search"),
        "count/cpsat": ("count", "models/knight_8x8.toml", "--engine", "cpsat"),
        "count/pyconstraint": ("count", "models/queens8.toml", "--engine", "pyconstraint"),
        "count/minizinc": ("count", "models/knight_8x8.toml", "--engine", "minizinc"),
        "solve/fd": ("solve", "models/english33.toml", "--engine", "fd"),
        "analyze/search": ("analyze", "models/fifteen_korf1.toml", "--limit", "1000000000"),
        "batch": batch,
        "batch --jobs 2": (*batch, "--jobs", "2"),
        "batch --workers 2": (*batch, "--workers", "2"),
        "analyze --workers 2": ("analyze", "models/english33.toml", "--from", "start",
                                "--workers", "2"),
    }
    dask = importlib.util.find_spec("distributed") is not None
    there = {"solve/fd": engines.installed("fd"), "count/minizinc": engines.installed("minizinc"),
             "batch --workers 2": dask, "analyze --workers 2": dask}
    return {kind: (*argv, "--json") for kind, argv in targets.items() if there.get(kind, True)}


def signal_runs(count: int, rng: random.Random) -> list[Run]:
    """``count`` signal runs, taken in turn from each target; moments and modes drawn."""
    targets = list(signal_targets().items())
    return [Run(targets[i % len(targets)][0], targets[i % len(targets)][1],
                moment=round(rng.uniform(0.5, 4.0), 2), mode=rng.choice(["process", "group"]))
            for i in range(count)]


def execute(run: Run) -> Done:
    """Run ``run`` as a whole process (its own session); signal it at its moment."""
    token = f"{os.getpid()}.{time.monotonic_ns()}"
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "cpsolve", *run.argv], cwd=ROOT,
                                stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                start_new_session=True, env={**os.environ, TOKEN: token})
        sent, hung = None, False
        try:
            if run.moment:
                try:
                    proc.wait(run.moment)
                except subprocess.TimeoutExpired:
                    sent = time.monotonic()
                    (os.killpg if run.mode == "group" else os.kill)(proc.pid, signal.SIGINT)
            proc.wait(run.limit + HANG)
        except subprocess.TimeoutExpired:
            hung = True
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            end = time.monotonic()
            left = leftovers(token)
        out.seek(0)
        err.seek(0)
        done = Done(proc.returncode, out.read().decode(errors="replace"),
                    err.read().decode(errors="replace"), end - start,
                    None if sent is None else end - sent)
    if hung:
        done.failures.append(f"hung: killed {HANG:g} s past its "
                             + ("signal" if sent else "limit"))
    if left:
        done.failures.append(f"{left} of its processes left behind")
    if run.moment and sent is None:
        done.failures.append(f"ended before the signal (exit {done.code})")
    return done


def leftovers(token: str, wait: float = 2.0) -> int:
    """How many processes a run left behind: they carry its ``token`` in their environment,
    whatever their session (Fast Downward's planner has its own); killed after ``wait`` s."""
    needle = f"{TOKEN}={token}\0".encode()
    deadline = time.monotonic() + wait
    while True:
        pids = []
        for environ in Path("/proc").glob("[0-9]*/environ"):
            try:
                if needle in environ.read_bytes():
                    pids.append(int(environ.parent.name))
            except OSError:
                continue
        if not pids or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    for pid in pids:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)


def json_objects(out: str, validator) -> tuple[list[dict], list[str]]:
    """The JSON objects on stdout (one, or JSON lines) and what is wrong with them."""
    from jsonschema.exceptions import best_match

    text = out.strip()
    if not text:
        return [], ["no JSON on stdout"]
    try:  # one object or JSON lines: one per line either way (cpsolve prints no other way)
        objects = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as err:
        return [], [f"stdout is not JSON ({err.msg}, line {err.lineno}): {text[:80]!r}"]
    problems = []
    for obj in objects:
        error = best_match(validator.iter_errors(obj))
        if error is not None:
            where = "/".join(map(str, error.absolute_path)) or "top"
            problems.append(f"not valid against the schema at {where}: {error.message[:100]}")
    return objects, problems


def judge(run: Run, done: Done, validator) -> None:
    """Add to ``done.failures`` what breaks the promises of a limit or a signal run."""
    objects, problems = json_objects(done.out, validator)
    done.failures.extend(problems)
    if run.moment:
        if done.code != 130:
            done.failures.append(f"exit {done.code}, not 130")
        if any(isinstance(o, dict) and o.get("status") == "error" for o in objects):
            done.failures.append("an error object instead of the partial result")
    else:
        if done.code not in (0, 1):
            done.failures.append(f"exit {done.code}, not 0 or 1")
        allowed = run.limit + max(0.1 * run.limit, 0.5)
        if done.seconds > allowed:
            done.failures.append(f"ended {done.seconds:.2f} s after its start, past "
                                 f"{allowed:.2f} s (limit {run.limit:g} s)")


def line(run: Run, done: Done) -> str:
    """One line per finished run."""
    mark = "FAIL" if done.failures else "ok  "
    when = f"L={run.limit:<4g}" if not run.moment else f"@{run.moment:<4.2f}{run.mode[0]}"
    stop = f" stop {done.stop:5.2f} s" if done.stop is not None else ""
    return f"{mark} {done.seconds:6.2f} s{stop}  {when} {run.kind:20} {run.command()}"


def tallies(title: str, results: list[tuple[Run, Done]]) -> None:
    """Passed / failed per kind, and the worst figures."""
    failed = sum(bool(d.failures) for _, d in results)
    print(f"\n{title}: {len(results) - failed} passed, {failed} failed of {len(results)}")
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for run, done in results:
        kinds[run.kind][bool(done.failures)] += 1
    for kind, (ok, bad) in sorted(kinds.items()):
        print(f"  {kind:22} {ok:3} passed {bad:3} failed")
    reasons: dict[str, int] = defaultdict(int)
    for why in (w for _, d in results for w in d.failures):
        reasons[next((r for words, r in REASONS.items() if words in why), "other")] += 1
    if reasons:
        print("  failures by reason: " + ", ".join(f"{r} {n}" for r, n in sorted(
            reasons.items(), key=lambda x: -x[1])))
    limited = [(d.seconds - r.limit, r) for r, d in results if not r.moment]
    if limited:
        over, run = max(limited, key=lambda x: x[0])
        print(f"  worst overshoot: {over:+.2f} s past L = {run.limit:g} s (allowed "
              f"{max(0.1 * run.limit, 0.5):+.2f} s): {run.command()}")
    stops = [(d.stop, r) for r, d in results if d.stop is not None]
    if stops:
        worst, run = max(stops, key=lambda x: x[0])
        late = sum(s > 1.0 for s, _ in stops)
        print(f"  signal to exit: median {statistics.median(s for s, _ in stops):.2f} s, "
              f"worst {worst:.2f} s ({run.kind}), {late} of {len(stops)} over 1 s")


def failures(results: list[tuple[Run, Done]]) -> None:
    """Every failed run with its command and what went wrong."""
    failed = [(r, d) for r, d in results if d.failures]
    if failed:
        print(f"\nFailures ({len(failed)}):")
    for run, done in failed:
        moment = f", SIGINT to the {run.mode} at {run.moment:g} s" if run.moment else ""
        print(f"  [{run.kind}{moment}] {run.command()}")
        for why in done.failures:
            print(f"      {why}")
        if done.err.strip():
            print(f"      stderr: {done.err.strip().splitlines()[-1][:160]}")


def schema_validator():
    """A validator for the schema printed by the code under test (``cpsolve schema``)."""
    import jsonschema

    text = subprocess.run([sys.executable, "-m", "cpsolve", "schema"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    return jsonschema.Draft202012Validator(json.loads(text))


def compiled() -> None:
    """Compile cpsolve's bytecode once, as an install leaves it (``PYTHONDONTWRITEBYTECODE``,
    set in some sandboxes, would leave every run compiling its modules inside its limit)."""
    import compileall

    compileall.compile_dir(str(ROOT / "cpsolve"), quiet=1)


def main(argv: list[str] | None = None) -> int:
    """Run the limit runs and the signal runs beside the busy processes; 1 if any failed."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="12 limit runs and 13 signal runs")
    p.add_argument("--seed", type=int, default=20, help="random seed (default 20)")
    p.add_argument("--busy", type=int, default=8, help="busy processes beside (default 8)")
    p.add_argument("--runs", type=int, help="limit runs (default 60)")
    p.add_argument("--signals", type=int, help="signal runs (default 40)")
    args = p.parse_args(argv)
    runs_n = args.runs if args.runs is not None else (12 if args.quick else 60)
    signals_n = args.signals if args.signals is not None else (13 if args.quick else 40)
    rng = random.Random(args.seed)
    # the runs get SIGINT's default, as from a terminal, even when this script was started in
    # the background (where it is ignored, and an ignored signal stays ignored across exec)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    validator = schema_validator()
    compiled()
    plan = limit_runs(runs_n, rng) + signal_runs(signals_n, rng)
    print(f"{len(plan)} runs beside {args.busy} busy processes on {os.cpu_count()} cores "
          f"(seed {args.seed}; load average {os.getloadavg()[0]:.1f})", flush=True)
    results = []
    with busy(args.busy):
        for run in plan:
            done = execute(run)
            judge(run, done, validator)
            results.append((run, done))
            print(line(run, done), flush=True)
        load = os.getloadavg()[0]
    print(f"\nload average (1 min) at the end: {load:.1f}")
    tallies("Limit runs", [(r, d) for r, d in results if not r.moment])
    tallies("Signal runs", [(r, d) for r, d in results if r.moment])
    failures(results)
    return 1 if any(d.failures for _, d in results) else 0


if __name__ == "__main__":
    sys.exit(main())
