"""Ctrl-C (SIGINT) and SIGTERM stop any engine, print what was found and proven, and exit 130.

No test here measures how fast: on a loaded machine any process is late.  What is checked
about time is an order on the run's own clock: the signal comes once the run has used so
much CPU (not after so many seconds of a sleep, which a loaded machine spends on start-up);
the run stops because of it (it says "interrupted" and did not finish), long before the
uninterrupted run would end; a time limit holds on the seconds the run reports.  The time
from the signal to the exit is a figure of ``benchmarks/under_load.py`` (its signal runs).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[3] / "models"


KORF1 = MODELS / "fifteen_korf1.toml"


def manhattan_only(folder: Path) -> str:
    """Korf #1 without its pattern databases (with them it is solved in about a second)."""
    text = KORF1.read_text()
    path = folder / "korf1_manhattan.toml"
    path.write_text(text[:text.index("[estimate]")] + text[text.index("[expected]"):])
    return str(path)


def slack(limit: float) -> float:
    """How far past its time limit a command may end: 10 % of it or 0.5 s (the larger)."""
    return max(0.1 * limit, 0.5)


def interrupted(start_cli, *argv: str, cpu: float = 2.0, sig: int = signal.SIGINT, env=None):
    """Run the CLI, send ``sig`` once it has used ``cpu`` seconds of CPU (its own clock: a
    loaded machine slows it down with the run, a sleep would not); (exit code, stdout +
    stderr).  Every run interrupted here would go on for minutes."""
    run = start_cli(*argv, env=env)
    run.after_cpu(cpu)
    code, out, err = run.stop(sig)
    return code, out + err


# The plain search engine gets --time-limit 600: without a limit its optimality proof has a
# budget of 5 s of wall time, which a loaded machine can spend before the run is signalled.
@pytest.mark.parametrize("argv, proven, cpu", [
    (("solve", "fifteen_korf1", "--engine", "cpsat"), "no plan shorter than", 2.0),
    (("solve", "KORF1_MANHATTAN", "--engine", "search", "--time-limit", "600"),
     "weighted A* found a plan", 2.0),  # kept
    (("solve", "KORF1_MANHATTAN"), "steps", 3.0),  # auto: both engines stop and report
    (("count", "knight_8x8", "--engine", "search"), "at least", 2.0),
    (("count", "knight_8x8", "--engine", "cpsat"), "at least", 2.0),
    # 64-bit packed layers reach the default state limit within a second: lift it
    (("analyze", "fifteen_korf1", "--limit", "1000000000"), "layers are complete up to", 2.0),
])
def test_sigint_stops_with_what_was_found(start_cli, argv, proven, cpu, tmp_path):
    argv = [manhattan_only(tmp_path) if a == "KORF1_MANHATTAN" else a for a in argv]
    code, out = interrupted(start_cli, *argv, cpu=cpu)
    assert code == 130, out
    assert "interrupted" in out and proven in out, out
    assert "Traceback" not in out


def test_sigterm_stops_too(start_cli, tmp_path):
    code, out = interrupted(start_cli, "solve", manhattan_only(tmp_path), "--engine", "search",
                            "--time-limit", "600", sig=signal.SIGTERM)
    assert code == 130 and "interrupted" in out


def test_sigint_stops_a_pattern_database_build(start_cli, tmp_path):
    """An empty cache: the 6-6-3 tables are being built (minutes) when Ctrl-C comes."""
    env = {**os.environ, "CPSOLVE_CACHE_DIR": str(tmp_path / "cache")}
    code, out = interrupted(start_cli, "solve", "fifteen_korf1", "--engine", "search", cpu=4.0,
                            env=env)
    assert code == 130 and "interrupted" in out, out
    assert "Traceback" not in out


def test_compare_shares_one_time_limit_among_its_engines():
    """Three runs with --time-limit 3 used to take about 3 x 3 s; the limit is the command's:
    the engines' own seconds, one after another, add up to at most the limit (+ slack)."""
    done = subprocess.run([sys.executable, "-m", "cpsolve", "compare", "fifteen_korf1",
                           "eight_puzzle", "--time-limit", "3", "--json"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    seconds = [r["seconds"] for model in report["models"] for r in model["results"]]
    assert len(seconds) >= 4  # at least CP-SAT and search on each
    assert sum(seconds) <= 3 + slack(3), seconds


def test_cp_sat_on_a_long_plan_stops_at_the_time_limit_with_its_bound(tmp_path):
    """Hanoi with 8 discs (255 moves) is beyond CP-SAT's time-indexed model; with
    --time-limit 2 the command ends on time and says what it proved (weighted A*'s hint
    comes back as a plan not proven optimal: exit 0, as for any plan found; without one, 1)."""
    from test_auto import hanoi

    done = subprocess.run([sys.executable, "-m", "cpsolve", "solve", str(hanoi(tmp_path, 8)),
                           "--engine", "cpsat", "--time-limit", "2"], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "1000"})
    if "Hint: a plan of" in done.stdout:  # Dijkstra (no estimate) needs ~0.04 s of 0.2
        assert done.returncode == 0, done.stderr
        assert "solved (not proven optimal)" in done.stdout and "255 moves" in done.stdout
    else:
        assert done.returncode == 1, done.stderr
    assert "time limit reached: no plan shorter than" in done.stdout
    # the run's own clock: the seconds CP-SAT took, on the first line ("... [cpsat] ... 2.1 s")
    seconds = float(re.findall(r"(\d+(?:\.\d+)?) s\b", done.stdout.splitlines()[0])[-1])
    assert seconds <= 2 + slack(2), done.stdout.splitlines()[0]


def test_a_stop_asked_for_by_one_command_ends_with_it(cli, tmp_path):
    """The clock's soft stop must not leak into the next command or a Python API call."""
    from test_auto import hanoi

    from cpsolve.engines.runtime import interrupt

    cli("solve", hanoi(tmp_path, 8), "--engine", "cpsat", "--time-limit", "1")
    assert not interrupt.requested()
