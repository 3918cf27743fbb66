"""``count --list`` streams: each solution printed as the engine finds it (a JSON line with
``--json``), then the count; a time limit or Ctrl-C keeps what was streamed."""

from __future__ import annotations

import json
import os
import shutil
import signal
from types import SimpleNamespace

import pytest

from cpsolve.answers.result import Status
from cpsolve.cli.stream import Stream
from cpsolve.engines import Options, run
from cpsolve.engines.streamed import Streamed
from cpsolve.model import Csp
from cpsolve.puzzles.files import load

ENGINES = ["search", "cpsat", "pyconstraint",
           pytest.param("minizinc", marks=pytest.mark.skipif(
               shutil.which("minizinc") is None, reason="MiniZinc is not installed"))]

# 5x5 X-sudoku whose first row is given: the 960 X-sudokus are 5! = 120 relabellings of 8
# squares, and fixing the first row leaves one relabelling of each: 8 solutions.
FIRST_ROW = ('family = "grid"\nsize = 5\ngroups = ["rows", "columns", "diagonals"]\n'
             'givens = """\n1 2 3 4 5\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"""\n')

# 7x7 Latin squares: 61,479,419,904,000 of them, more than any engine lists in a test.
LATIN7 = 'family = "grid"\nsize = 7\ngroups = ["rows", "columns"]\n'


def unbuffered_line(stream) -> str:
    """One line read a byte at a time: ``readline()`` would buffer a chunk past it, which
    ``communicate()`` (reading the pipe itself) never sees, so the next line came cut."""
    data = b""
    while not data.endswith(b"\n"):
        byte = os.read(stream.fileno(), 1)
        if not byte:
            break
        data += byte
    return data.decode()


def lines(out: str) -> tuple[list[dict], dict]:
    """The streamed solutions and the last object."""
    *found, last = [json.loads(line) for line in out.splitlines() if line.strip()]
    return found, last


@pytest.mark.parametrize("engine", ENGINES)
def test_every_solution_streamed_then_the_exact_count(cli, write_model, engine):
    path = write_model("x8.toml", FIRST_ROW)
    run_ = cli("count", path, "--engine", engine, "--list", "--json")
    assert run_.code == 0, run_.err
    found, last = lines(run_.out)
    assert [f["found"] for f in found] == list(range(1, 9))
    assert last["status"] == "exact" and last["count"] == 8 and last["verified"] is True
    assert [f["solution"] for f in found] == last["solutions"]  # the same, in order
    assert len({json.dumps(f["solution"]) for f in found}) == 8
    assert all(f["solution"][0] == "1 2 3 4 5" for f in found)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_count_limit_streams_that_many(cli, engine):
    run_ = cli("count", "latin4", "--engine", engine, "--list", "-n", "5", "--json")
    found, last = lines(run_.out)
    assert len(found) == 5 and last["status"] == "at_least" and last["count"] == 5


def test_text_prints_each_solution_once(cli, write_model):
    path = write_model("x8.toml", FIRST_ROW)
    out = cli("count", path, "--engine", "search", "--list").out
    for i in range(1, 9):
        assert out.count(f"#{i} ") == 1, out  # each panel's title, streamed, not repeated
    assert "exactly 8 solutions" in out
    assert out.index("#8") < out.index("exactly 8 solutions")  # the solutions, then the count


def test_auto_streams_the_solutions_of_one_racer(cli, write_model):
    """``auto`` races engines in child processes: the solutions printed are those of the
    racer that sent one first, all 8 of them here, then the winner's result."""
    path = write_model("x8.toml", FIRST_ROW)
    found, last = lines(cli("count", path, "--list", "--json").out)
    assert [f["found"] for f in found] == list(range(1, 9))
    assert last["count"] == 8 and last["status"] == "exact"
    assert sorted(json.dumps(f["solution"]) for f in found) == \
        sorted(json.dumps(s) for s in last["solutions"])


@pytest.mark.parametrize("engine", ["search", "cpsat", "pyconstraint"])
def test_the_engine_calls_on_solution_as_it_finds_each(engine, write_model):
    model = load(write_model("x8.toml", FIRST_ROW)).model
    assert isinstance(model, Csp)
    seen: list[dict] = []
    result = run(engine, "count", model, Options(keep=True, on_solution=seen.append))
    assert result.status is Status.EXACT
    assert seen == list(result.answer.solutions)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_time_limit_keeps_what_was_streamed(cli, write_model, engine):
    path = write_model("latin7.toml", LATIN7)
    run_ = cli("count", path, "--engine", engine, "--list", "--json", "--time-limit", "4")
    found, last = lines(run_.out)
    if last.get("status") == "error":  # the limit reached while loading, on a loaded machine
        assert last["exit"] == 1
        return
    assert run_.code == 1
    if not found:  # a machine so loaded that the engine found none before the limit
        assert last["status"] == "unknown"
        return
    assert last["status"] == "at_least" and last["count"] >= len(found) == found[-1]["found"]
    # each was checked as it streamed: the list is all of them, not cut at the limit again
    assert last["solutions"] == [f["solution"] for f in found]
    assert last["listed"] == len(found) and "only the first" not in last["message"]


class Late:
    """The door's clock (:func:`cpsolve.engines.run`): the engine starts at 0 s and every later
    look is a million seconds on, one more second each time — past any deadline of its
    check, whatever the engine's own clock (the real one) did."""

    def __init__(self) -> None:
        self.looks = 0

    def perf_counter(self) -> float:
        self.looks += 1
        return 0.0 if self.looks == 1 else 1e6 + self.looks


@pytest.mark.parametrize("engine", ["search", "pyconstraint"])
def test_solutions_checked_as_they_streamed_are_listed_past_the_limit(cli, write_model,
                                                                      monkeypatch, engine):
    """The check of the list comes past the limit (the door's clock says so): the 8
    solutions were checked as they streamed, so the result lists all 8 and agrees with the
    lines; a count that did not stream has its list cut to what could be re-checked."""
    import cpsolve.engines as door

    monkeypatch.setattr(door, "time", Late())
    path = write_model("x8.toml", FIRST_ROW)
    run_ = cli("count", path, "--engine", engine, "--list", "--json", "--time-limit", "600")
    found, last = lines(run_.out)
    assert run_.code == 0, run_.err
    assert len(found) == 8 and last["status"] == "exact" and last["listed"] == 8
    assert last["solutions"] == [f["solution"] for f in found] and last["verified"] is True
    monkeypatch.setattr(door, "time", Late())
    quiet = run(engine, "count", load(path).model, Options(time_limit=600, keep=True))
    assert quiet.answer.count == 8 and quiet.answer.solutions == ()
    assert "only the first 0 of the solutions are listed" in quiet.message


def test_a_limit_reached_while_a_solution_is_printed_lets_it_out_whole(cli, write_model,
                                                                       late_alarm):
    """The alarm came while a solution's line was being written: the line was lost, yet
    counted in the "at least N (those printed)" of the result.  Now the line comes out
    whole, then the clock stops the engine: every solution counted is one printed."""
    late_alarm("cpsolve.cli.session.Cli.line")
    run = cli("count", write_model("first_row.toml", FIRST_ROW), "--list", "--engine",
              "search", "--time-limit", "600", "--json")
    *lines, last = [json.loads(line) for line in run.out.splitlines()]
    result = last["count"]
    assert lines and [line["found"] for line in lines] == list(range(1, len(lines) + 1))
    assert result == len(lines) and last["status"] in ("at_least", "exact"), last


def test_ctrl_c_keeps_what_was_streamed(start_cli, tmp_path):
    path = tmp_path / "latin7.toml"
    path.write_text(LATIN7)
    started = start_cli("count", path, "--engine", "search", "--list", "--json")
    first = unbuffered_line(started.process.stdout)  # a solution, while the count goes on
    assert json.loads(first)["found"] == 1
    assert started.process.poll() is None, "the count ended: it cannot have streamed"
    code, out, err = started.stop(signal.SIGINT)
    found, last = lines(first + out)
    assert code == 130, err
    assert last["status"] == "at_least" and last["count"] >= len(found) >= 1
    assert "interrupted" in last["message"]


def test_what_was_streamed_stands_when_the_engine_is_stopped_at_once(write_model):
    """A second Ctrl-C (or the clock past its grace) loses the engine's result: the
    solutions printed so far still make a checked count, at least that many."""
    puzzle = load(write_model("x8.toml", FIRST_ROW))
    printed: list[dict] = []
    cli = SimpleNamespace(args=SimpleNamespace(json=True), line=printed.append)
    stream = Stream(cli, puzzle)
    door = Streamed(puzzle.model, stream)  # as an engine's run passes them on
    solutions = run("search", "count", puzzle.model, Options(keep=True)).answer.solutions
    for values in solutions[:3]:
        door(values)
    door({**solutions[0], next(iter(solutions[0])): 9})  # broken: checked, not printed
    assert [door.passed(v) for v in solutions[:4]] == [True, True, True, False]
    assert [p["found"] for p in printed] == [1, 2, 3]
    result = stream.salvage("search", "interrupted", 1.0)
    assert result.status is Status.AT_LEAST and result.answer.count == 3
    assert result.verified is True and "at least 3 solutions" in result.message
    assert Stream(cli, puzzle).salvage("search", "interrupted", 1.0) is None
