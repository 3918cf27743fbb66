"""``--json`` prints exactly one JSON object whatever the ending: an answer, a limit, an
interruption, or an error (the error object, beside the one line on stderr).

Every object printed here must validate against ``cpsolve schema``.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from functools import cache
from pathlib import Path

import jsonschema
import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


@cache
def validator() -> jsonschema.Draft202012Validator:
    from cpsolve.output.schema import schema

    return jsonschema.Draft202012Validator(schema())


def valid(line: str) -> dict:
    """One line of ``--json`` output, parsed and checked against the schema."""
    data = json.loads(line)
    errors = sorted(validator().iter_errors(data), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    return data


def one_object(out: str) -> dict:
    """The one JSON object a command printed (nothing else on stdout)."""
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    return valid(lines[0])


def error_object(run, code: int, command: str | None) -> dict:
    """The error object of a failed command: its keys, its exit code, and its message the
    same as the one line on stderr."""
    assert run.code == code, run.err
    data = one_object(run.out)
    assert set(data) == {"command", "status", "error", "exit"}
    assert (data["command"], data["status"], data["exit"]) == (command, "error", code)
    assert run.err_lines == [f"error: {data['error']}"]
    return data


# ------------------------------------------------------------------ bad input

def test_a_bad_model_file(cli, bad_model):
    run = cli("solve", bad_model.path, "--engine", "search", "--json")
    data = error_object(run, 2, "solve")
    for fragment in bad_model.fragments:
        if "[" not in fragment:
            assert fragment in data["error"], data["error"]


@pytest.mark.parametrize("argv, words", [
    (("solve", "water_jugs", "--time-limit", "-1"), "--time-limit"),
    (("count", "xsudoku5", "--memory-limit", "lots"), "--memory-limit"),
    (("solve", "water_jugs", "--engine", "gecode"), "invalid choice"),
    (("solve", "water_jugs", "--frobnicate"), "unrecognized arguments"),
    (("solve",), "required"),
    (("analyze", "--js"), "--json given twice"),  # a prefix argparse takes for --json
])
def test_a_bad_command_line(cli, argv, words):
    data = error_object(cli(*argv, "--json"), 2, argv[0])
    assert words in data["error"]


def test_a_command_line_without_a_command(cli):
    data = error_object(cli("--json"), 2, None)
    assert "COMMAND" in data["error"]


def test_options_that_clash(cli):
    data = error_object(cli("analyze", "onoff", "--resume", "--json"), 2, "analyze")
    assert "--work-dir" in data["error"]


def test_a_task_the_model_does_not_have(cli):
    data = error_object(cli("count", "water_jugs", "--json"), 2, "count")
    assert "--optimal" in data["error"]


def test_without_json_there_is_no_object(cli):
    run = cli("solve", "no_such_model_file")
    assert run.code == 2 and run.out == "" and len(run.err_lines) == 1


def test_an_unwritable_picture_after_the_answer_adds_no_second_object(cli):
    """The answer is out when its picture fails to be written: one object, exit 2."""
    run = cli("analyze", "water_jugs", "--json", "--svg", "/proc/cpsolve-test.svg")
    assert run.code == 2 and run.err_lines[-1].startswith("error: ")
    assert one_object(run.out)["task"] == "analyze"


# ------------------------------------------------------------------ limits

SLOW_BUILD = """
import time
from cpsolve import Csp

def build():
    time.sleep(60)  # the clock's alarm stops it
    m = Csp("slow")
    m.add_variable("x", 1, 1)
    return m
"""


def test_a_time_limit_reached_while_loading(cli, write_model):
    """The model file's own build() is still running at the limit: nothing was found,
    exit 1 (a limit, not a bad file, even though build() is the user's code)."""
    path = write_model("slow.py", SLOW_BUILD)
    data = error_object(cli("solve", path, "--time-limit", "0.5", "--json"), 1, "solve")
    assert "time limit" in data["error"] and "loading" in data["error"]


@pytest.mark.parametrize("limit", ["0.001", "1e-300"])
def test_a_limit_shorter_than_the_process_start_ends_the_same_whatever_its_size(
        cli_subprocess, limit):
    """The limit counts from the process's start, which alone takes longer than either:
    both are reached before the model file is read, whether the file would load in a
    millisecond or not (the loading guard's shortest timer let some load and not others)."""
    run = cli_subprocess("solve", "water_jugs", "--time-limit", limit, "--json")
    data = error_object(run, 1, "solve")
    assert f"time limit ({limit} s)" in data["error"] and "loading water_jugs" in data["error"]


@pytest.mark.parametrize("engine", ["auto", "search"])
def test_an_engine_that_does_not_stop_is_stopped_after_the_grace(cli, monkeypatch, engine):
    """Past the limit and its grace the clock stops the engine hard: the result says which
    engine and why, the limit with its figure, with nothing proven (the engine's own
    findings are lost).  It said "time limit reached", without the figure."""
    import cpsolve.cli.one_model
    import cpsolve.engines.auto

    def deaf(*args, **kwargs):
        while True:  # never looks at the stop asked for at the limit
            time.sleep(0.01)

    monkeypatch.setattr(cpsolve.engines.auto, "race", deaf)
    monkeypatch.setattr(cpsolve.cli.one_model, "run", deaf)
    run = cli("solve", "water_jugs", "--engine", engine, "--time-limit", "0.5", "--json")
    assert run.code == 1, run.err
    data = one_object(run.out)
    assert (data["status"], data["engine"], data["answer"]) == ("unknown", engine, None)
    said = data["message"]
    assert said.startswith("time limit 0.5 s reached "), said
    if not said.endswith(f"before {engine} started"):  # (on a machine so loaded that
        # loading the model left no time to start it)
        # the grace: 60 % of the 0.5 s a command may run past a limit under 5 s
        assert said == f"time limit 0.5 s reached ({engine} did not stop within 0.3 s of the " \
            "limit; cut off)"


def test_work_outside_any_engine_is_cut_off_at_the_limit(cli, monkeypatch):
    """The clock guards the whole command, not only loading and the engines: a command
    that hangs anywhere else (here its own start) ends at the limit with the error object."""
    import cpsolve.cli

    def hung(cli):
        end = time.monotonic() + 30  # no clock is looked at here (30 s: not cut off)
        while time.monotonic() < end:
            time.sleep(0.01)
        return 0

    monkeypatch.setattr(cpsolve.cli, "command", lambda name: hung)
    data = error_object(cli("solve", "water_jugs", "--time-limit", "0.5", "--json"), 1,
                        "solve")
    assert data["error"] == "the time limit (0.5 s) was reached while running solve"


def test_an_instance_of_a_batch_whose_engine_does_not_stop_is_cut_off(cli, monkeypatch):
    """In a batch an engine that does not stop is cut off past the limit and its grace like
    a single one: its row says so, the instances after it were not started, and the
    batch's summary comes last."""
    import cpsolve.workflows.batch.solving

    def deaf(*args, **kwargs):
        end = time.monotonic() + 30  # never looks at the stop asked for at the limit
        while time.monotonic() < end:
            time.sleep(0.01)
        raise AssertionError("not cut off")

    monkeypatch.setattr(cpsolve.workflows.batch.solving, "run", deaf)
    run = cli("solve", "water_jugs", "blocks", "--engine", "search", "--time-limit", "0.5",
              "--json")
    assert run.code == 1, run.err
    first, second, last = [valid(line) for line in run.out.splitlines() if line.strip()]
    assert first["status"] == "unknown"
    assert first["message"] == \
        "time limit 0.5 s reached (search did not stop within 0.3 s of the limit; cut off)"
    assert second["status"] == "not_started" and "error" not in second  # a limit, no error
    # each file loads when its turn comes: the limit came before the second one loaded
    assert second["message"] == "not loaded: time limit 0.5 s reached"
    assert last["batch"]["statuses"] == {"unknown": 1, "not_started": 1}
    assert last["batch"]["instances"] == 2


@pytest.mark.parametrize("argv, patched", [
    (("solve", "water_jugs", "--engine", "search"), "cpsolve.output.json.result_json"),
    (("analyze", "water_jugs"), "cpsolve.output.json.result_json"),
    (("count", "xsudoku5", "--up-to", "symmetry"), "cpsolve.output.grids.json_classes"),
    (("compare", "water_jugs"), "cpsolve.cli.compare_report.compared_json"),
    (("solve", "water_jugs", "blocks", "--engine", "search"),
     "cpsolve.workflows.batch.rows.summary"),
])
def test_a_limit_reached_while_the_answer_is_written_cuts_nothing(cli, late_alarm, argv,
                                                                  patched):
    """Once a command writes its answer the clock no longer interrupts it: an alarm far past
    the limit and every grace, while the answer's object was being made, lost it for the
    error object (``the time limit was reached while running solve``)."""
    late_alarm(patched)
    run = cli(*argv, "--time-limit", "600", "--json")
    assert run.code == 0 and not run.err_lines, run.err
    last = valid(run.out.splitlines()[-1])
    assert "error" not in last and last.get("status") != "error"
    if "blocks" in argv:  # a batch: each instance's line, then the summary
        assert last["batch"]["instances"] == 2


def test_a_memory_limit(cli):
    """The process already holds more than the limit: the analysis stops at its first look
    and reports the layers it completed."""
    run = cli("analyze", "eight_puzzle", "--memory-limit", "10M", "--json")
    assert run.code == 1, run.err
    data = one_object(run.out)
    assert data["status"] == "partial" and "memory limit" in data["message"]


def test_a_limit_during_auto(cli):
    """The brief's case: auto on the 15-puzzle with a short limit prints its result."""
    run = cli("solve", MODELS / "fifteen_puzzle.toml", "--time-limit", "1", "--json")
    assert run.code in (0, 1), run.err
    data = one_object(run.out)
    assert data["task"] == "solve" and data["status"] in ("optimal", "solved", "unknown")


# ------------------------------------------------------------------ interruptions

ONE_STEP = """\
    m = Planning("one step")
    x = m.add_variable("x", 0, 1)
    m.set_initial({"x": 0})
    m.set_goal(x == 1)
    m.add_action("up", x == 0, {x: 1})
    return m
"""
"""The end of a Python model's ``build()``: one step from x = 0 to the goal x = 1."""

INTERRUPTED_BUILD = """
import os, signal
from cpsolve import Planning

def build():
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the model file loads
""" + ONE_STEP


def test_ctrl_c_while_loading_ends_the_command_at_once(cli, write_model):
    """Loading has nothing to keep, and a model's own code may never return: the first
    Ctrl-C ends the command there (exit 130), and the error object says what was
    loading (the rest of build() never runs, so no engine starts)."""
    path = write_model("interrupted.py", INTERRUPTED_BUILD)
    run = cli("solve", path, "--engine", "search", "--json")
    data = error_object(run, 130, "solve")
    assert data["error"] == f"interrupted while loading {path}"


def test_sigterm_inside_a_comprehension_ends_the_loading(cli, write_model, monkeypatch):
    """A comprehension of 10^10 terms never looks at the stop asked for: a SIGTERM while
    the model file loads ends it (the limit is a backstop, far off)."""
    import threading

    import cpsolve.puzzles.files as files

    read_table = files.read_table

    def read_then_signal(path):
        table = read_table(path)  # the file is read: the comprehension comes next
        threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGTERM)).start()
        return table

    monkeypatch.setattr(files, "read_table", read_then_signal)
    path = write_model("huge.toml", 'family = "csp"\nname = "huge"\n'
                       'variables = { x = { size = 1, domain = [0, 1] } }\n'
                       'constraints = ["all(x[0] + i + j >= 0 for i in range(100000) '
                       'for j in range(100000))"]\n')
    run = cli("solve", path, "--json", "--time-limit", "600")
    data = error_object(run, 130, "solve")
    assert data["error"] == f"interrupted while loading {path}"


def test_a_signal_during_start_up_loads_nothing(write_model, tmp_path, capsys):
    """A Ctrl-C that came while the modules loaded (replayed when the command's handler
    takes over): the model file is not run at all."""
    from cpsolve.cli import main

    mark = tmp_path / "ran"
    path = write_model("marks.py", f"open({str(mark)!r}, 'w').close()\n" + INTERRUPTED_BUILD)
    code = main(["solve", str(path), "--json"], early=[time.monotonic()])
    out, err = capsys.readouterr()
    assert code == 130, err
    assert one_object(out)["error"] == f"interrupted while loading {path}"
    assert not mark.exists()


def test_a_second_ctrl_c_stops_at_once(cli, monkeypatch):
    """An engine that never looks at the stop asked for: the second Ctrl-C ends it."""
    import cpsolve.cli.one_model
    from cpsolve.engines.runtime import interrupt

    monkeypatch.setattr(interrupt, "REPEAT", 0.0)  # no second signal is the first repeated

    def deaf(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)
        while True:
            time.sleep(0.01)

    monkeypatch.setattr(cpsolve.cli.one_model, "run", deaf)
    run = cli("count", "xsudoku5", "--engine", "pyconstraint", "--json")
    assert run.code == 130, run.err
    data = one_object(run.out)
    assert (data["status"], data["engine"]) == ("unknown", "pyconstraint")
    assert data["message"].startswith("interrupted")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_long_numpy_step_keeps_the_complete_layers(cli, monkeypatch, sig):
    """A first Ctrl-C or SIGTERM that comes while the analysis is in one long call into C
    (a layer's NumPy step takes seconds at scale; a sleep past ESCALATE stands for it here,
    while layer 5 is expanded): the analysis stops at its next look with the layers it has
    complete — layer 6 too, which that step made — not "stopped at once" with all of them
    lost."""
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.search.statespace import vector

    monkeypatch.setattr(interrupt, "ESCALATE", 0.2)
    expand, calls = vector._expand, []

    def long_step(*args, **kwargs):
        calls.append(1)
        if len(calls) == 6:  # expanding layer 5 (layers 0-5 are complete) into layer 6
            os.kill(os.getpid(), sig)
            time.sleep(1.0)  # one call in which Python runs no handler
        return expand(*args, **kwargs)

    monkeypatch.setattr(vector, "_expand", long_step)
    run = cli("analyze", "eight_puzzle", "--json")
    assert run.code == 130, run.err
    data = one_object(run.out)
    assert data["status"] == "partial" and data["message"].startswith("stopped: interrupted")
    assert data["bound"] == 6 and len(data["layers"]) == 7


def test_ctrl_c_in_a_batch_prints_what_was_solved(cli, tmp_path, monkeypatch):
    """A stop during a batch (here while its first instance is solved): every instance
    still gets its line (those not reached say so), then the summary, exit 130."""
    from cpsolve.engines.runtime import interrupt
    from cpsolve.workflows.batch import solving

    solve_one = solving.solve_one

    def interrupted_first(item, *args, **kwargs):
        if not interrupt.requested():
            os.kill(os.getpid(), signal.SIGINT)
        return solve_one(item, *args, **kwargs)

    monkeypatch.setattr(solving, "solve_one", interrupted_first)
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "a.toml").write_text((MODELS / "water_jugs.toml").read_text())
    (folder / "b.toml").write_text((MODELS / "hanoi4.toml").read_text())
    (folder / "c.toml").write_text((MODELS / "blocks.toml").read_text())
    run = cli("solve", folder, "--engine", "search", "--json")
    assert run.code == 130, run.err
    lines = [valid(line) for line in run.out.splitlines() if line.strip()]
    assert len(lines) == 4 and lines[-1]["batch"]["instances"] == 3
    assert [Path(d["source"]).name for d in lines[:3]] == ["a.toml", "b.toml", "c.toml"]
    assert lines[2]["status"] == "not_started"  # after the stop
    # each file loads when its turn comes: the last one was not loaded after the stop
    assert lines[2]["message"] == "not loaded: interrupted"


def test_ctrl_c_while_a_batch_loads_ends_it_with_its_rows(cli, tmp_path, monkeypatch):
    """A batch loads each file when its turn comes: a Ctrl-C while one loads ends its
    loading at once, and the batch ends as after any stop — the instance solved before it
    keeps its line, the file loading and those after it are not started, the summary comes
    last, exit 130."""
    import threading

    import cpsolve.engines.runtime.processes as processes

    real_start = processes.start

    def start_then_ctrl_c(*args, **kwargs):  # b.py loads in a child of the batch's process:
        child = real_start(*args, **kwargs)  # Ctrl-C comes to the batch's process meanwhile
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
        return child

    monkeypatch.setattr(processes, "start", start_then_ctrl_c)
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "a.toml").write_text((MODELS / "water_jugs.toml").read_text())
    (folder / "b.py").write_text(SLOW_BUILD)
    (folder / "c.toml").write_text((MODELS / "blocks.toml").read_text())
    run = cli("solve", folder, "--engine", "search", "--json")
    assert run.code == 130, run.err
    lines = [valid(line) for line in run.out.splitlines() if line.strip()]
    assert [d.get("status") for d in lines[:3]] == ["optimal", "not_started", "not_started"]
    assert lines[1]["message"] == f"interrupted while loading {folder / 'b.py'}"
    assert lines[2]["message"] == "not loaded: interrupted"
    assert lines[3]["batch"]["statuses"] == {"optimal": 1, "not_started": 2}


def test_a_batch_ends_with_its_summary(cli):
    run = cli("solve", "water_jugs", "blocks", "no_such_model", "--engine", "search", "--json")
    assert run.code == 2, run.err
    lines = [valid(line) for line in run.out.splitlines() if line.strip()]
    assert [("batch" in d, "error" in d) for d in lines] == [(False, False), (False, False),
                                                             (False, True), (True, False)]


def _ctrl_c_before(real):
    """``real`` (an engine's run, a count's) preceded by a Ctrl-C to this process: the
    command's handler asks for a stop, and ``real`` starts with it asked for."""
    def wrapped(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        return real(*args, **kwargs)

    return wrapped


@pytest.mark.parametrize("argv, patched", [
    (("count", "xsudoku5", "--up-to", "symmetry", "--json"),
     "cpsolve.workflows.grids.counting.count_up_to"),
    (("count", "xsudoku5", "--up-to", "relabel", "--json"),
     "cpsolve.workflows.grids.counting.count_up_to"),
    (("show", "water_jugs", "--plan", "--html", "PAGE"), "cpsolve.cli.show.run"),
    (("compare", "water_jugs", "--json"), "cpsolve.workflows.batch.comparing.run"),
])
def test_ctrl_c_exits_130_whatever_the_command(cli, monkeypatch, tmp_path, argv, patched):
    """Every command that ends with what it had after Ctrl-C exits 130, not 1 (a limit):
    the standard's exit code for an interruption, whatever the command prints."""
    import importlib

    module, name = patched.rsplit(".", 1)
    monkeypatch.setattr(importlib.import_module(module), name,
                        _ctrl_c_before(getattr(importlib.import_module(module), name)))
    argv = [str(tmp_path / "k.html") if a == "PAGE" else a for a in argv]
    run = cli(*argv)
    assert run.code == 130, run.err
    if "--json" in argv:
        data = one_object(run.out)
        if argv[0] == "compare":  # no engine finished: nothing agreed on
            assert data["status"] == "interrupted"
        else:
            assert data["status"] in ("at_least", "unknown") and "interrupted" in data["message"]


def test_an_interrupted_compare_claims_no_agreement(cli, monkeypatch):
    from cpsolve.workflows.batch import comparing

    monkeypatch.setattr(comparing, "run", _ctrl_c_before(comparing.run))
    run = cli("compare", "water_jugs")
    assert run.code == 130, run.err
    assert "agree" not in run.out.replace("no agreement", "")
    assert "comparison interrupted" in run.out


PRINTING_MODEL = """
import sys
print("hello from the model")
sys.stdout.write("more noise\\n")
from cpsolve import Planning

def build():
    print("building")
""" + ONE_STEP


@pytest.mark.parametrize("json_wanted", [True, False])
def test_what_a_python_model_prints_goes_to_stderr(cli, write_model, json_wanted):
    """A model file's own prints (its code and its build()) are not cpsolve's output: with
    --json stdout is the one JSON document, and in text it holds only the answer."""
    path = write_model("printing.py", PRINTING_MODEL)
    run = cli("solve", path, "--engine", "search", *(["--json"] if json_wanted else []))
    assert run.code == 0, run.err
    assert run.err_lines == ["hello from the model", "more noise", "building"]
    assert "hello" not in run.out and "building" not in run.out
    if json_wanted:
        assert one_object(run.out)["status"] == "optimal"
    else:
        assert "one step" in run.out


RAW_WRITING_MODEL = """
import os, subprocess, sys
os.write(1, b"fd1 at import\\n")
from cpsolve import Planning

def build():
    os.write(1, b"fd1 in build\\n")
    subprocess.run([sys.executable, "-c", "print('from a child process')"], check=True)
""" + ONE_STEP


@pytest.mark.parametrize("command", ["solve", "compare"])
def test_a_python_models_raw_writes_to_stdout_go_to_stderr(cli_subprocess, write_model,
                                                           command):
    """What a model's code writes to file descriptor 1 itself (``os.write(1, ...)``, a
    child process it starts) goes to stderr too: stdout is the one JSON document."""
    path = write_model("raw.py", RAW_WRITING_MODEL)
    run = cli_subprocess(command, path, "--json")
    assert run.code == 0, run.err
    one_object(run.out)
    for line in ("fd1 at import", "fd1 in build", "from a child process"):
        assert line in run.err and line not in run.out


def test_stdout_comes_back_after_a_model_interrupted_while_loading(capfd):
    """fd 1 and ``sys.stdout`` come back however the model's code ends (Ctrl-C too)."""
    from cpsolve.puzzles.files import stdout_to_stderr

    stream = sys.stdout
    with pytest.raises(KeyboardInterrupt), stdout_to_stderr():
        os.write(1, b"inside\n")
        raise KeyboardInterrupt
    assert sys.stdout is stream
    os.write(1, b"outside\n")
    out, err = capfd.readouterr()
    assert out == "outside\n" and err == "inside\n"


CATCHING_BUILD = """
import os, signal, time
from cpsolve import Planning

def build():
    caught = 0
    while caught < {catches}:  # Ctrl-C, caught by the model's own code
        try:
            if not caught:
                os.kill(os.getpid(), signal.{signal})  # handled here, inside the try
            time.sleep(0.05)
        except KeyboardInterrupt:
            caught += 1
            print("caught")
    while True:
        time.sleep(0.05)
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_model_that_catches_ctrl_c_cannot_hold_the_command(cli_subprocess, write_model,
                                                             sig):
    """A model's code that catches every ``KeyboardInterrupt`` while it loads: the process
    ends anyway, :data:`~cpsolve.engines.runtime.interrupt.ESCALATE` after, exit 130 with
    the one error object (the signal is the model's own: deterministic)."""
    path = write_model("catching.py", CATCHING_BUILD.format(signal=sig, catches=10**9))
    run = cli_subprocess("solve", path, "--json", timeout=60)
    assert run.code == 130, run.err
    assert one_object(run.out)["error"] == f"interrupted while loading {path}"
    assert run.err_lines[0] == "caught"
    assert run.err_lines[-1] == f"error: interrupted while loading {path}"


def test_in_process_a_model_that_catches_ctrl_c_gets_it_again(cli, write_model):
    """Called in-process (the API), the command never ends the process: the model's code
    gets ``KeyboardInterrupt`` again until it lets it through."""
    path = write_model("catching.py", CATCHING_BUILD.format(signal="SIGINT", catches=1))
    run = cli("solve", path, "--json")
    assert run.code == 130, run.err
    assert one_object(run.out)["error"] == f"interrupted while loading {path}"
    assert run.err_lines == ["caught", f"error: interrupted while loading {path}"]


HOLDING_MODEL = """
import sys
print("summing", file=sys.stderr, flush=True)
x = sum(range(10**12))  # one C call: it holds the interpreter, no handler runs meanwhile
"""


def _one_error_object(out: str, command: str) -> dict:
    data = one_object(out)
    assert (data["command"], data["status"], data["exit"]) == (command, "error", 137)
    return data


def test_the_time_limit_ends_a_model_that_holds_the_interpreter(cli_subprocess, write_model):
    """A model's code in one long C call keeps every handler of the process from running:
    the guard process ends it a second past the limit, with the one error object (exit
    137: killed)."""
    path = write_model("csum.py", HOLDING_MODEL)
    run = cli_subprocess("solve", path, "--json", "--time-limit", "1", timeout=120)
    assert run.code == -signal.SIGKILL
    data = _one_error_object(run.out, "solve")
    assert data["error"].startswith(
        f"the time limit (1 s) was reached while loading {path} (the model's code")
    assert run.err_lines[-1] == f"error: {data['error']}"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_a_model_that_holds_the_interpreter(start_cli, write_model, sig):
    """Ctrl-C or SIGTERM while such a model loads: a second later the process ends, with
    the one error object (exit 137), not at the end of the C call."""
    path = write_model("csum.py", HOLDING_MODEL)
    run = start_cli("solve", path, "--json")
    run.after_text("summing")
    run.after_cpu(run.cpu() + 0.3)  # inside the sum (a signal before it is answered: 130)
    code, out, err = run.stop(sig, timeout=60)
    assert code == -signal.SIGKILL
    data = _one_error_object(out, "solve")
    assert data["error"].startswith(f"interrupted while loading {path} (the model's code")
    assert err.splitlines()[-1] == f"error: {data['error']}"
