"""Stdout to a reader too slow to take it (a pipe read late): the output under way is
written whole — past the time limit (the clock's alarm comes while the write waits) and
after a first Ctrl-C or SIGTERM —, and a second signal cuts it with one line on stderr
(:class:`cpsolve.cli.printer.Guarded`, docs/json.md "Endings").

Unbuffered stdout (``PYTHONUNBUFFERED=1``) is where a write cut short by a signal lost
the rest: Python's text layer dropped what the system did not take."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

UNBUFFERED = {**{k: v for k, v in os.environ.items() if k != "FORCE_COLOR"},
              "PYTHONUNBUFFERED": "1"}
BUFFERED = {k: v for k, v in UNBUFFERED.items() if k != "PYTHONUNBUFFERED"}

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/wchan"),
                                reason="needs /proc/PID/wchan to see a blocked write")

CUT = "error: interrupted while the output was being written: it is cut short\n"


def started(argv: list[str], env: dict) -> subprocess.Popen:
    """``cpsolve ARGV`` with stdout a pipe nobody reads yet, once its write waits for
    the reader (the pipe is full)."""
    proc = subprocess.Popen([sys.executable, "-m", "cpsolve", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    end = time.monotonic() + 120
    while "pipe_write" not in _wchan(proc.pid):
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < end, "the output never filled the pipe"
        time.sleep(0.02)
    return proc


def _wchan(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/wchan") as f:
            return f.read()
    except OSError:
        return ""


def read_late(proc: subprocess.Popen) -> tuple[bytes, str]:
    out, err = proc.communicate(timeout=120)
    return out, err.decode()


def json_lines(out: bytes) -> list[dict]:
    """Every line of ``out`` as JSON (a line cut short fails to parse)."""
    assert out.endswith(b"\n")
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("env", [UNBUFFERED, BUFFERED], ids=["unbuffered", "buffered"])
def test_the_time_limit_never_cuts_an_answer_being_written(env):
    # the work takes well under a second on an idle machine (start-up and imports
    # included), a few on a loaded one: the limit leaves it that; the answer (576
    # solutions, ~69 KB) waits for the reader past the limit and its overtime (0.5 s),
    # when the clock's alarm comes
    limit, begun = 5, time.monotonic()
    proc = started(["count", "latin4", "--list", "--json", "--time-limit", str(limit)], env)
    # the alarm comes at the limit from the process's start (not from the pipe filling)
    # while it waits: read a second past its overtime
    time.sleep(max(0.0, begun + limit + 0.5 + 1.0 - time.monotonic()))
    out, err = read_late(proc)
    lines = json_lines(out)
    assert proc.returncode == 0, err
    assert [line["found"] for line in lines[:-1]] == list(range(1, 577))  # 4! * 4! = 576
    assert lines[-1]["count"] == 576


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("env", [UNBUFFERED, pytest.param(BUFFERED, marks=pytest.mark.slow)],
                         ids=["unbuffered", "buffered"])
def test_a_first_signal_lets_the_document_under_way_finish(sig, env):
    proc = started(["show", "xsudoku5", "--gallery", "40", "--html", "-"], env)
    proc.send_signal(sig)
    time.sleep(1.5)  # past the second a first signal gives a running engine
    out, err = read_late(proc)
    assert proc.returncode == 130, err
    assert err == ""
    assert out.rstrip().endswith(b"</html>")


def test_a_first_signal_lets_the_json_document_finish():
    proc = started(["generate", "sudoku4", "--givens", "4", "5", "--json"], UNBUFFERED)
    proc.send_signal(signal.SIGINT)
    time.sleep(1.5)
    out, err = read_late(proc)
    [doc] = json_lines(out)
    assert proc.returncode == 130, err
    # the generation had ended: the signal came while its answer was being written
    assert [(g["givens"], g["short"]) for g in doc["givens"]] == [(4, None), (5, None)]


@pytest.mark.parametrize("env", [UNBUFFERED, BUFFERED], ids=["unbuffered", "buffered"])
def test_a_second_signal_cuts_the_output_and_says_so(env):
    proc = started(["generate", "sudoku4", "--givens", "4", "5", "--json"], env)
    proc.send_signal(signal.SIGINT)
    # past the time within which a signal sent twice counts once (0.25 s from when the
    # process answers the first: on a loaded machine, a while after it was sent)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = read_late(proc)
    assert proc.returncode == 130
    assert err == CUT  # one line; no error object appended to the half-written one
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


@pytest.mark.parametrize("argv", [
    ["count", "knight_6x6", "--list", "--json"],  # auto: solutions come from its racers
    ["count", "xsudoku5", "--list", "--json", "--engine", "search"],
])
def test_a_second_signal_cuts_a_stream_of_solutions_and_says_so(argv):
    """``count --list``: its solutions are written while the engines still run (each as it
    is found); a second signal while one waits for the reader cuts the stream, and stderr
    says so — an engine's own answer to a second Ctrl-C (stop, keep what was found) took it
    before and left the stream cut with no word."""
    proc = started(argv, BUFFERED)
    proc.send_signal(signal.SIGTERM)
    time.sleep(1.0)  # past the time within which a signal sent twice counts once
    proc.send_signal(signal.SIGTERM)
    out, err = read_late(proc)
    assert proc.returncode == 130
    assert err == CUT
    assert all("found" in line for line in json_lines(out))  # no result after the cut
