"""``--memory-limit``: engines stop with what they have, exit 1, and say so (issue 9).

Every command process holds far more than 1 MB once Python has started, so a
limit of 1 MB is passed at the engine's first look at the clock: what the
engine returns then is what it had proven by that point.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest

from cpsolve.cli.checks import memory_size
from cpsolve.engines.runtime import interrupt, memory
from cpsolve.engines.runtime.stop import Stop

MODELS = Path(__file__).resolve().parents[3] / "models"


# ---------------------------------------------------------------- the option


@pytest.mark.parametrize("text, nbytes", [
    ("500M", 500 * 2**20), ("2G", 2 * 2**30), ("2g", 2 * 2**30), ("1.5GB", 1.5 * 2**30),
    ("2GiB", 2 * 2**30), ("64k", 64 * 1024), ("1T", 2**40), (" 3M ", 3 * 2**20),
    ("5KiB", 5 * 1024), ("5kb", 5 * 1024), ("2 GiB", 2 * 2**30), ("1_000M", 1000 * 2**20),
    ("1e3M", 1000 * 2**20),
    ("none", math.inf), ("NONE", math.inf),
])
def test_sizes_with_their_unit(text, nbytes):
    assert memory_size(text) == nbytes


@pytest.mark.parametrize("text", ["1e400G", "infG", "Infinity T", "1e30G", "8388608T"])
def test_a_size_no_process_reaches_is_no_limit(text):
    """As --time-limit 1e400 (inf) is no limit: 1e400G parses to an infinite size, and
    8388608T = 2^63 bytes is past any 64-bit address space; not "at least 1 byte"."""
    assert memory_size(text) == math.inf


def test_the_largest_size_below_no_limit_is_a_limit():
    assert memory_size("8388607T") == 8388607 * 2**40


def test_a_percentage_is_of_the_available_memory():
    free = memory.available()
    if free is None:
        pytest.skip("no /proc/meminfo")
    assert memory_size("50%") == pytest.approx(free / 2, rel=0.05)  # MemAvailable moves


@pytest.mark.parametrize("text", ["0", "5", "-1G", "0M", "abc", "G", "nanG",
                                  "10Q", "200%", "0%", "-5%", "x%", "", "1B", "1P", "5Gi",
                                  "5KiBB", "500"])
def test_bad_sizes_are_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        memory_size(text)


def test_a_bad_size_lists_the_forms_taken():
    """Not "a size such as 500M": which units, and that a plain number is not one."""
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        memory_size("1P")
    assert str(caught.value) == ("expected a size: a number with K, M, G or T (e.g. 500M, 2G, "
                                 "2GiB), a percentage of the machine's memory (50%), or "
                                 "none; got '1P'")


@pytest.mark.parametrize("value", ["0", "many", "5", "150%"])
@pytest.mark.parametrize("command", ["solve", "count", "analyze"])
def test_bad_values_are_one_line_and_exit_2(cli, command, value):
    model = "eight_puzzle" if command == "analyze" else "xsudoku5"
    run = cli(command, model, "--memory-limit", value)
    assert run.code == 2 and run.out == ""
    assert len(run.err_lines) == 1 and "--memory-limit" in run.err
    assert "Traceback" not in run.err


def test_size_text_for_people():
    assert memory.size_text(512) == "512 bytes"
    assert memory.size_text(2048) == "2 KiB"
    assert memory.size_text(3 * 2**20 // 2) == "1.5 MiB"
    assert memory.size_text(2**30) == "1 GiB"
    assert memory.size_text(5000 * 2**40) == "5,000 TiB"
    assert memory.size_text(10**400 * 2**40) == "1e+400 TiB"  # an estimate no float holds


# ---------------------------------------------------------------- the check


def test_check_asks_engines_to_stop_past_the_limit():
    try:
        memory.set_limit(1)
        assert memory.check() and interrupt.requested()
        assert interrupt.reason() == "memory limit 1 byte reached"
        assert not interrupt.by_user()  # a limit, not the user: exit 1, not 130
    finally:
        memory.set_limit(None)
        interrupt.clear()


def test_a_peak_between_two_looks_counts(monkeypatch):
    """NumPy steps allocate and free their temporaries between two looks (English 33 in
    moves under --memory-limit 100M peaked at 142-161 MB, reading about 90 MB at each
    look): a new peak past the limit stops the engines, and so does a level from which the
    rise of the last peak would pass it."""
    MB = 2**20
    seen = {"used": 50 * MB, "peak": 50 * MB}
    monkeypatch.setattr(memory, "EVERY", 0.0)
    monkeypatch.setattr(memory, "resident", lambda: seen["used"])
    monkeypatch.setattr(memory, "peak", lambda: seen["peak"])

    def look(used: int, peak: int) -> bool:
        seen.update(used=used * MB, peak=peak * MB)
        return memory.check()

    try:
        memory.set_limit(100 * MB)
        assert not look(60, 60)  # the first look: a level
        assert not look(65, 90)  # rose 30 MB above 60 between looks: 65 + 30 fits
        assert look(75, 90)  # from 75, a rise of 30 would pass 100
        interrupt.clear()
        memory.set_limit(100 * MB)
        assert not look(60, 90)
        assert look(60, 120)  # a new peak past the limit: it was passed
    finally:
        memory.set_limit(None)
        interrupt.clear()


def test_no_limit_never_stops():
    memory.set_limit(None)
    assert not memory.check() and not interrupt.requested()


def test_a_generous_limit_does_not_stop():
    used = memory.resident()
    if used is None:
        pytest.skip("no /proc/self/statm")
    try:
        memory.set_limit(used * 4)
        assert not memory.check() and not interrupt.requested()
    finally:
        memory.set_limit(None)


def test_processes_side_by_side_share_the_limit():
    try:
        memory.set_limit(3 * 2**30)
        memory.share(2)
        assert memory.limit() == 3 * 2**29
        assert memory.reason(memory.limit()) == \
            "memory limit 3 GiB reached (this engine's share: 1.5 GiB)"
    finally:
        memory.set_limit(None)


# ---------------------------------------------------------------- while a model loads


MB = 2**20


def _grow(until: int) -> list[bytes]:
    """Hold 8 MB more at a time (each touched: resident) until ``until`` bytes are held."""
    held: list[bytes] = []
    while len(held) * 8 * MB < until:
        held.append(b"x" * (8 * MB))
    return held


def test_work_that_never_looks_is_stopped_at_the_limit_while_it_loads():
    """A model's own code never looks at the limit: the watch does, every few milliseconds
    of the process's CPU time, and raises in it once the process holds more."""
    import signal

    used = memory.resident()
    if used is None:
        pytest.skip("no /proc/self/statm")
    before = signal.getsignal(signal.SIGPROF)
    try:
        memory.set_limit(used + 64 * MB, whole=used + 64 * MB)
        with pytest.raises(memory.MemoryUp) as info, memory.watching("loading big.py"):
            _grow(512 * MB)  # eight times what the limit leaves: never reached
    finally:
        memory.set_limit(None)
    assert str(info.value) == (f"the memory limit ({memory.size_text(used + 64 * MB)}) was "
                               "reached while loading big.py")
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)  # the watch has ended
    assert signal.getsignal(signal.SIGPROF) in (before, memory._spent)  # harmless after


def test_loading_within_the_limit_or_without_one_is_not_stopped():
    used = memory.resident()
    if used is None:
        pytest.skip("no /proc/self/statm")
    try:
        memory.set_limit(used + 256 * MB)
        with memory.watching("loading small.py"):
            assert len(_grow(32 * MB)) == 4
        memory.set_limit(None)
        with memory.watching("loading small.py"):
            assert len(_grow(32 * MB)) == 4
    finally:
        memory.set_limit(None)


def test_a_limit_below_what_the_process_holds_as_loading_begins_leaves_it_to_the_engines():
    """The engines then stop at their first look, with nothing proven (as documented)."""
    try:
        memory.set_limit(1)
        with memory.watching("loading small.py"):
            assert len(_grow(16 * MB)) == 2
    finally:
        memory.set_limit(None)



# ---------------------------------------------------------------- while an engine runs


def test_an_engine_run_that_never_looks_is_asked_to_stop_then_cut_a_tenth_past_the_limit():
    """Work inside an engine's run that never looks at the limit (tables built before its
    first look): past the limit the engines are asked to stop, and past it by a tenth the
    run is cut there (:class:`memory.MemoryUp`), before it holds much more."""
    import signal

    used = memory.resident()
    if used is None:
        pytest.skip("no /proc/self/statm")
    limit = used + 128 * MB
    ceiling = memory.ceiling(limit, used)
    assert ceiling == max(limit + limit // 10, used + memory.ROOM)
    held: list[bytes] = []
    before = signal.getsignal(signal.SIGPROF)
    try:
        memory.set_limit(limit)
        with pytest.raises(memory.MemoryUp), memory.holding("running search"):
            while len(held) < 2048 // 8:  # 2 GiB, far past the ceiling: never reached
                held.append(b"x" * (8 * MB))
        assert interrupt.requested() and interrupt.kind() is Stop.MEMORY
        assert interrupt.reason() == f"memory limit {memory.size_text(limit)} reached"
    finally:
        memory.set_limit(None)
        interrupt.clear()
    assert limit - used < len(held) * 8 * MB  # it went past the limit, asked to stop...
    assert len(held) * 8 * MB <= ceiling - used + 64 * MB  # ...and was cut near the ceiling
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)  # the watch has ended
    assert signal.getsignal(signal.SIGPROF) in (before, memory._spent)  # harmless after


STRESS = """
import hashlib, os, signal, sys, threading
from cpsolve.engines.runtime import memory
memory.set_limit(10**12)
stop = []
def busy():  # in C with the GIL released, as CP-SAT's threads are
    while not stop:
        hashlib.sha256(b"x" * 10**6).digest()
for _ in range(3):
    threading.Thread(target=busy, daemon=True).start()
for _ in range(1500):
    with memory.holding("running search"):
        sum(range(20000))
stop.append(1)
os.kill(os.getpid(), signal.SIGPROF)  # one sent after the watches: harmless
print("ok")
"""


def test_a_signal_the_timer_sent_as_the_watch_ended_neither_kills_nor_speaks():
    """A ``SIGPROF`` sent just before the timer stopped may reach a thread busy in C only
    after the watch has put its handler back: under the default the process died (an xdist
    worker in CI), under ``SIG_IGN`` Python printed "Signal 27 ignored due to race
    condition".  Many short watches beside busy threads: a clean exit, nothing on stderr."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", STRESS], capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")


def test_an_engine_that_stops_when_asked_keeps_its_run():
    """An engine that looks (as every one does between steps) stops once asked, past the
    limit but short of the ceiling: its run ends as it returns, with its answer."""
    used = memory.resident()
    if used is None:
        pytest.skip("no /proc/self/statm")
    held: list[bytes] = []
    try:
        memory.set_limit(used + 64 * MB)
        with memory.holding("running search"):
            while not interrupt.requested() and len(held) < 2048:
                held.append(b"x" * MB)
                sum(range(100_000))  # a step's work: a look (every 10 ms of CPU) every few
        assert interrupt.kind() is Stop.MEMORY
    finally:
        memory.set_limit(None)
        interrupt.clear()
    assert 64 * MB <= len(held) * MB < 2048 * MB  # asked at the first look past it


def _tour(side: int) -> str:
    """An open knight's tour of a ``side`` x ``side`` board, as a model file."""
    board = "\n".join("." * side for _ in range(side))
    return f'family = "tour"\nname = "knight {side}"\nclosed = false\nboard = """\n{board}\n"""\n'


def test_a_search_whose_tables_pass_the_limit_before_its_first_look_is_cut_near_it(tmp_path):
    """Search builds a tour's tables (two bit masks of every square per square: 250 MiB for
    180 x 180) before its first look at the limit: the run is cut near the limit rather than
    after it has built them all.  In a child process, whose peak counts from the fork."""
    from cpsolve.engines import Options, run
    from cpsolve.engines.runtime.processes import start, wait_any
    from cpsolve.puzzles.files import load

    path = tmp_path / "tour.toml"
    path.write_text(_tour(180))
    model = load(path).model

    def solve(channel):
        used = memory.resident() or 0
        memory.set_limit(used + 16 * MB)
        result = run("search", "solve", model, Options(time_limit=60))
        ceiling = max((used + 16 * MB) * 11 // 10, used + 64 * MB)  # as documented
        return result.status.value, result.message, (memory.peak() or 0) - used, \
            ceiling - used

    child = start(solve)
    (message,) = wait_any([child], 120)
    child.reap()
    status, said, grew, room = message.value
    assert grew <= room + 64 * MB, (grew >> 20, room >> 20)
    assert status == "unknown" and said.startswith("memory limit "), said
    assert said.endswith("search did not stop within a tenth past it: what it had is lost")

GROWING = '''"""Holds 10 MB more at a time, up to 600 MB, then gives a one-step model."""
from cpsolve.language.expr import Var
from cpsolve.model import Planning


def build():
    held = []
    while len(held) < 60:
        held.append(b"x" * 10**7)
    model = Planning("grown")
    model.add_variable("x", 0, 1)
    model.set_initial({"x": 0})
    model.set_goal(Var("x") == 1)
    model.add_action("set", Var("x") == 0, {"x": 1})
    return model
'''


def test_a_model_that_grows_as_it_loads_ends_at_the_limit(cli_subprocess, tmp_path):
    """In a process of its own (this one may hold more than the limit already): 600 MB
    would be held without the watch; at 200 MB the load ends, one line, exit 1."""
    model = tmp_path / "grows.py"
    model.write_text(GROWING)
    run = cli_subprocess("solve", model, "--memory-limit", "200M", "--time-limit", "60",
                         "--json")
    assert run.code == 1, (run.out, run.err)
    message = f"the memory limit (200 MiB) was reached while loading {model}"
    assert json.loads(run.out) == {"command": "solve", "status": "error", "error": message,
                                   "exit": 1}
    assert run.err_lines == [f"error: {message}"]


def test_in_a_batch_the_file_that_grows_is_a_row_and_the_next_loads(cli_subprocess,
                                                                     tmp_path):
    """What the file held is freed: the next file loads, and its engine is not stopped by
    the peak the first one reached."""
    (tmp_path / "a_grows.py").write_text(GROWING)
    (tmp_path / "b_jugs.toml").write_text((MODELS / "water_jugs.toml").read_text())
    run = cli_subprocess("solve", tmp_path, "--memory-limit", "200M", "--time-limit", "60",
                         "--json")
    rows = [json.loads(line) for line in run.out.splitlines()]
    assert run.code == 1, run.err
    assert rows[0]["status"] == "not_started"  # a limit, not a bad file
    assert "the memory limit (200 MiB) was reached while loading" in rows[0]["message"]
    assert rows[1]["status"] == "optimal" and rows[1]["steps"] == 10  # the model's answer


# ---------------------------------------------------------------- through the command line


def test_analyze_stops_partial_with_what_it_proved(cli):
    run = cli("analyze", MODELS / "eight_puzzle.toml", "--memory-limit", "1M", "--json")
    assert run.code == 1, run.err
    data = json.loads(run.out)
    assert data["status"] == "partial"
    assert "memory limit 1 MiB reached" in data["message"]
    # what was proven: the layers it completed, each a prefix of the full analysis
    # (181,440 states in all; the goal is the only state at distance 0)
    assert data["layers"][0] == 1 and data["states"] < 181_440


def test_analyze_in_text_says_memory_limit_reached(cli):
    run = cli("analyze", MODELS / "eight_puzzle.toml", "--memory-limit", "1M")
    assert run.code == 1 and "memory limit 1 MiB reached" in run.out
    assert "Traceback" not in run.err


def test_count_stops_with_the_solutions_so_far(cli):
    run = cli("count", MODELS / "xsudoku5.toml", "--engine", "search", "--memory-limit", "1M",
              "--json")
    data = json.loads(run.out)
    assert run.code == 1
    assert data["status"] in ("at_least", "unknown") and data["count"] < 960
    assert "memory limit 1 MiB reached" in data["message"]


def test_search_stops_with_the_bound_it_proved(cli):
    run = cli("solve", MODELS / "eight_puzzle.toml", "--engine", "search", "--algorithm", "bfs",
              "--memory-limit", "1M", "--json")
    data = json.loads(run.out)
    assert run.code == 1 and data["status"] == "unknown"
    assert "memory limit 1 MiB reached" in data["message"]
    assert data["bound"] is not None and data["bound"] <= 31


@pytest.mark.parametrize("model, engine", [("water_jugs", "search"), ("xsudoku5", "search"),
                                           ("water_jugs", "cpsat")])
def test_an_engine_over_the_limit_from_the_start_stops_at_its_first_look(cli, model, engine):
    """Water jugs: 22 states; 5x5 X-sudoku: a solution within a few nodes — both end before
    a look every few thousand steps would come, CP-SAT within one wait of its loop.  Every
    process holds more than 1 MB: the first look comes at once, and nothing is proven."""
    run = cli("solve", MODELS / f"{model}.toml", "--engine", engine, "--memory-limit", "1M",
              "--json")
    data = json.loads(run.out)
    assert run.code == 1, data
    assert data["status"] == "unknown" and data.get("plan") is None
    assert "memory limit 1 MiB reached" in data["message"]


def test_the_limit_ends_with_the_command(cli):
    cli("analyze", MODELS / "eight_puzzle.toml", "--memory-limit", "1M")
    assert memory.limit() is None and not interrupt.requested()


def test_the_default_is_a_share_of_the_available_memory(cli, monkeypatch):
    seen = []
    monkeypatch.setattr(memory, "set_limit", seen.append)
    monkeypatch.setattr(memory, "available", lambda: 10 * 2**30)
    cli("solve", MODELS / "water_jugs.toml", "--engine", "search")
    assert seen[0] == int(10 * 2**30 * memory.DEFAULT_SHARE)
    seen.clear()
    cli("solve", MODELS / "water_jugs.toml", "--engine", "search", "--memory-limit", "none")
    assert seen[0] is None


def test_available_is_the_least_of_machine_container_and_address_space(monkeypatch):
    monkeypatch.setattr(memory, "_meminfo", lambda: 16 * 2**30)
    monkeypatch.setattr(memory, "_cgroup", lambda: None)
    monkeypatch.setattr(memory, "_rlimit", lambda: None)
    assert memory.available() == 16 * 2**30
    monkeypatch.setattr(memory, "_cgroup", lambda: 2 * 2**30)  # a container's limit
    assert memory.available() == 2 * 2**30
    monkeypatch.setattr(memory, "_rlimit", lambda: 2**30)  # ulimit -v
    assert memory.available() == 2**30
    assert memory.default_limit() == int(2**30 * memory.DEFAULT_SHARE)
    for name in ("_meminfo", "_cgroup", "_rlimit"):
        monkeypatch.setattr(memory, name, lambda: None)
    assert memory.available() is None and memory.default_limit() is None


def test_an_address_space_limit_lowers_the_default_in_a_fresh_process():
    import subprocess
    import sys

    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, "
            "resource.RLIM_INFINITY)); from cpsolve.engines.runtime import memory; "
            "print(memory.default_limit())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) <= int(3 * 2**30 * memory.DEFAULT_SHARE)


def test_pyconstraint_count_stops_too(cli):
    run = cli("count", MODELS / "xsudoku5.toml", "--engine", "pyconstraint", "--memory-limit",
              "1M", "--json")
    data = json.loads(run.out)
    assert run.code == 1 and data["status"] == "at_least" and 0 < data["count"] < 960
    assert "memory limit 1 MiB reached" in data["message"]


def test_auto_racers_each_keep_half_the_limit(cli):
    """Both engines of ``auto`` stop at their share (512 KiB of 1 MiB) with what they proved;
    the note names the limit given, as a time limit is named, and the share."""
    run = cli("solve", MODELS / "eight_puzzle.toml", "--memory-limit", "1M", "--json")
    data = json.loads(run.out)
    notes = {e["engine"]: e for e in data["race"]["engines"]}
    assert set(notes) == {"search", "cpsat"}
    for engine in notes.values():
        assert "memory limit 1 MiB reached (this engine's share: 512 KiB)" in engine["note"], \
            engine
        assert engine["status"] != "optimal" and engine["bound"] <= 31  # the optimum is 31
