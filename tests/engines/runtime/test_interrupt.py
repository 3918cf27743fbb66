"""Ctrl-C (SIGINT) and SIGTERM stop any engine, print what was found and proven, and exit
130 (how fast, on a loaded machine, is measured by a benchmark, not asserted here)."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test_auto's hanoi

MODELS = Path(__file__).resolve().parents[3] / "models"


KORF1 = MODELS / "fifteen_korf1.toml"


def manhattan_only(folder: Path) -> str:
    """Korf #1 without its pattern databases (with them it is solved in about a second)."""
    text = KORF1.read_text()
    path = folder / "korf1_manhattan.toml"
    path.write_text(text[:text.index("[estimate]")] + text[text.index("[expected]"):])
    return str(path)


def slack(limit: float) -> float:  # noqa: ARG001 - the limit it is past
    """How far past its time limit a command may end here before it is said to run on: 10 s,
    so that the suite holds beside 8 busy processes (idle, a command ends within 10 % or
    0.5 s of its limit: benchmarks/under_load.py measures that margin)."""
    return 10.0


PROGRESS = r"(auto|cpsat|search|pyconstraint) (solve|count|analyze): \S"
"""A progress line on the status line: the engine is at work (the model is loaded)."""

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass
class Stopped:
    """An interrupted command: its exit code, stdout and stderr (terminal codes removed)."""

    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        return self.out + self.err


def interrupted(*argv: str, sig: int = signal.SIGINT, env=None, when: str = PROGRESS,
                after: float = 0.0, again: float | None = None) -> Stopped:
    """Run the CLI with stderr on a terminal (so that it shows its status line); once that
    line matches ``when`` (and ``after`` seconds more), send ``sig`` (and, ``again``
    seconds later, a second one if the command still runs)."""
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "cpsolve", *argv], stdout=subprocess.PIPE,
                               stderr=slave, text=True,
                               env={**(env or os.environ), "COLUMNS": "200"})
    os.close(slave)
    seen: list[str] = []
    ready = threading.Event()

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end has closed
                return
            if not chunk:
                return
            seen.append(chunk.decode(errors="replace"))
            if re.search(when, ANSI.sub("", "".join(seen))):
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        for _ in range(6000):  # at most 5 minutes
            if ready.wait(0.05):
                break
            assert process.poll() is None, "the command ended before it could be interrupted"
        else:
            pytest.fail(f"no line matching {when!r} in 5 minutes")
        time.sleep(after)
        process.send_signal(sig)
        if again is not None:
            try:
                process.wait(again)
            except subprocess.TimeoutExpired:
                process.send_signal(sig)
        out, _ = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
        reader.join(60)  # what the run wrote is all read (a bound against a hang)
        os.close(master)
    return Stopped(process.returncode, out, ANSI.sub("", "".join(seen)))


def at_work(argv) -> dict:
    """When to interrupt: the search engine's solve once weighted A* has found its plan
    (the optimal search reports), CP-SAT's count (which reports no progress) 2 s after its
    status line shows; the others at their first progress."""
    if argv[0] == "count" and "cpsat" in argv:
        return {"when": "cpsat count", "after": 2.0}
    if argv[0] == "solve" and "search" in argv:
        return {"when": r"search solve: A\*:"}
    return {}


@pytest.mark.parametrize("argv, proven", [
    (("solve", "fifteen_korf1", "--engine", "cpsat"), "no plan has fewer than"),
    (("solve", "KORF1_MANHATTAN", "--engine", "search"), "weighted A* found a plan"),  # kept
    (("solve", "KORF1_MANHATTAN"), "steps"),  # auto: both engines stop and report
    (("count", "knight_8x8", "--engine", "search"), "at least"),
    (("count", "knight_8x8", "--engine", "cpsat"), "at least"),
    # 64-bit packed layers reach the default state limit within a second: lift it
    (("analyze", "fifteen_korf1", "--limit", "1000000000"), "layers are complete up to"),
])
def test_sigint_stops_with_what_was_found(argv, proven, tmp_path):
    argv = [manhattan_only(tmp_path) if a == "KORF1_MANHATTAN" else a for a in argv]
    run = interrupted(*argv, **at_work(argv))
    assert run.code == 130, run.text
    assert "interrupted" in run.text and proven in run.text, run.text
    assert "Traceback" not in run.text


def test_sigterm_stops_too(tmp_path):
    run = interrupted("solve", manhattan_only(tmp_path), "--engine", "search",
                      sig=signal.SIGTERM)
    assert run.code == 130 and "interrupted" in run.text


def test_sigint_stops_a_pattern_database_build(tmp_path):
    """An empty cache: the 6-6-3 tables are being built (minutes) when Ctrl-C comes."""
    env = {**os.environ, "CPSOLVE_CACHE_DIR": str(tmp_path / "cache")}
    run = interrupted("solve", "fifteen_korf1", "--engine", "search", env=env,
                      when="pattern database .*distance")
    assert run.code == 130 and "interrupted" in run.text, run.text
    assert "Traceback" not in run.text


def test_compare_shares_one_time_limit_among_its_engines():
    """Three runs with --time-limit L used to take about 3 x L; the limit is the command's:
    the engines' own seconds, one after another, add up to at most the limit (+ slack).
    (L = 8: the limit counts from the process's start, and on a loaded machine the imports
    and the two models' loading take seconds of it.)"""
    done = subprocess.run([sys.executable, "-m", "cpsolve", "compare", "fifteen_korf1",
                           "eight_puzzle", "--time-limit", "8", "--json"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    seconds = [r["seconds"] for model in report["models"] for r in model.get("results", ())]
    assert len(seconds) >= 2  # at least CP-SAT and search on the first model
    for model in report["models"]:  # a later one only when the limit was spent before
        # its turn came (each file loads then): its file not loaded
        assert "results" in model or model["error"].startswith("not loaded: time limit")
    assert sum(seconds) <= 8 + slack(8), seconds


def test_cp_sat_on_a_long_plan_stops_at_the_time_limit_with_its_bound(tmp_path):
    """Hanoi with 8 discs (255 moves) is beyond CP-SAT's time-indexed model (asked for:
    the transition graph proves it); with --time-limit 4 (counted from the process's start:
    on a loaded machine the imports take a second of it) the command ends on time and says
    what it proved (weighted A*'s hint comes back as a plan not proven optimal: exit 0, as
    for any plan found; without one, 1)."""
    from test_auto import hanoi

    done = subprocess.run([sys.executable, "-m", "cpsolve", "solve", str(hanoi(tmp_path, 8)),
                           "--engine", "cpsat", "--time-limit", "4", "--time-indexed"],
                          capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "1000"})
    if "time limit 4 s reached before cpsat started" in done.stdout:  # a machine so loaded that
        assert done.returncode == 1, done.stderr  # OR-Tools' start would not fit: said so
        return
    if "did not stop within" in done.stdout:  # CP-SAT's presolve of a long horizon answered
        # the stop later than the command's grace (1 run in 5 or so, also unloaded): the
        # clock cut it off on time, and says so in the user's figures
        assert done.returncode == 1, done.stderr
        assert "time limit 4 s reached (cpsat did not stop within" in done.stdout
        return
    if "Hint: a plan of" in done.stdout:  # Dijkstra (no estimate) needs ~0.04 s of 0.2
        assert done.returncode == 0, done.stderr
        assert "solved (not proven optimal)" in done.stdout and "255 moves" in done.stdout
    else:
        assert done.returncode == 1, done.stderr
    assert "time limit 4 s reached; no plan has fewer than" in done.stdout  # the user's 4 s
    # the run's own clock: the seconds CP-SAT took, on the first line ("... [cpsat] ... 2.1 s")
    seconds = float(re.findall(r"(\d+(?:\.\d+)?) s\b", done.stdout.splitlines()[0])[-1])
    assert seconds <= 4 + slack(4), done.stdout.splitlines()[0]


def test_a_stop_asked_for_by_one_command_ends_with_it(cli, tmp_path):
    """The clock's soft stop must not leak into the next command or a Python API call."""
    from test_auto import hanoi

    from cpsolve.engines.runtime import interrupt

    cli("solve", hanoi(tmp_path, 8), "--engine", "cpsat", "--time-limit", "1")
    assert not interrupt.requested()


def one_json_object(out: str) -> dict:
    """The one object ``--json`` printed, valid under ``cpsolve schema``."""
    import json

    import jsonschema

    from cpsolve.output.schema import schema

    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    data = json.loads(lines[0])
    errors = list(jsonschema.Draft202012Validator(schema()).iter_errors(data))
    assert not errors, [e.message for e in errors[:5]]
    return data


@pytest.mark.parametrize("argv", [
    ("solve", "KORF1_MANHATTAN", "--engine", "cpsat"),
    ("solve", "KORF1_MANHATTAN", "--engine", "search"),
    ("solve", "KORF1_MANHATTAN"),
    ("count", "knight_8x8", "--engine", "cpsat"),
    ("analyze", "fifteen_korf1", "--limit", "1000000000"),
], ids=["cpsat", "search", "auto", "count", "analyze"])
def test_sigint_with_json_prints_the_partial_result(argv, tmp_path):
    """Interrupted at work, every engine's result is one JSON object with what it had found
    and proven (a plan or a bound; solutions counted; the complete layers), exit 130."""
    argv = tuple(manhattan_only(tmp_path) if a == "KORF1_MANHATTAN" else a for a in argv)
    run = interrupted(*argv, "--json", **at_work(argv))
    assert run.code == 130, run.err
    assert "Traceback" not in run.err and "terminate called" not in run.err, run.err
    data = one_json_object(run.out)
    assert "interrupted" in data["message"], data["message"]
    if argv[0] == "analyze":
        assert data["status"] == "partial" and data["layers"][0] == 1
    elif argv[0] == "count":
        assert data["status"] in ("at_least", "unknown") and data["bound"] is not None
    else:
        assert data["status"] in ("solved", "unknown")
        assert data["bound"] is not None or data["answer"] == "plan"
    if "--engine" not in argv and argv[0] == "solve":
        assert {e["engine"] for e in data["race"]["engines"]} == {"search", "cpsat"}


def test_a_second_sigint_ends_an_engine_that_cannot_stop_itself(tmp_path):
    """python-constraint never looks at the stop asked for: the second Ctrl-C ends it, and
    the JSON still says which engine was stopped and why."""
    latin7 = tmp_path / "latin7.toml"  # 61,479,419,904,000 squares: counted for ever
    latin7.write_text('family = "grid"\nsize = 7\ngroups = ["rows", "columns"]\n')
    run = interrupted("count", str(latin7), "--engine", "pyconstraint", "--json",
                      when="pyconstraint count", again=1.0)
    assert run.code == 130, run.err
    data = one_json_object(run.out)
    assert data["engine"] == "pyconstraint" and "interrupted" in data["message"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_the_first_signal_stops_generate_with_what_it_made(sig):
    """``generate`` (exhaustive, seconds of NumPy work per number of givens) stops at the
    first Ctrl-C or SIGTERM — it used to ignore it and run to the end, exit 0 — and prints
    the one JSON object with what it had; the givens it did not finish say why they are
    short."""
    run = interrupted("generate", "xsudoku5", "--givens", "5", "6", "--json",
                      sig=sig, when="cpsat generate", after=0.5)
    assert run.code == 130, run.err
    assert "Traceback" not in run.err and "error:" not in run.err, run.err
    data = one_json_object(run.out)
    assert [item["givens"] for item in data["givens"]] == [5, 6]
    shorts = [item["short"] for item in data["givens"]]
    assert shorts[-1] is not None and "interrupted" in shorts[-1], shorts
    for item in data["givens"]:
        if item["short"] is None:  # finished before the signal: the whole answer
            assert item["classes"] == len(item["puzzles"]) == item["drawn"]
        else:
            assert len(item.get("puzzles", [])) <= item["drawn"]
