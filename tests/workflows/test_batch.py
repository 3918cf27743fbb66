"""Batches: several files, a directory, or a collection (one puzzle per line)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from cpsolve.output.schema import schema

ROOT = Path(__file__).resolve().parents[2]
TOP95 = ROOT / "benchmarks" / "data" / "top95.toml"

SUDOKUS = """family = "grid"
name = "sudokus"
size = 9
groups = ["rows", "columns", "boxes"]
box = [3, 3]
instances = '''
# the Inkala puzzle of the bundled model, written on one line, twice, and a broken line
..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.. inkala
..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..
'''
"""


def lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_a_collection_is_a_batch_with_one_json_line_per_puzzle(cli, tmp_path):
    path = tmp_path / "sudokus.toml"
    path.write_text(SUDOKUS)
    run = cli("solve", path, "--engine", "search", "--json")
    assert run.code == 0, run.err
    rows = lines(run.out)
    assert [r.get("source") for r in rows[:-1]] == [f"{path}#1", f"{path}#2"]
    assert all(r["unique"] is True and r["verified"] for r in rows[:-1])
    assert rows[0]["solution"] == rows[1]["solution"]
    assert rows[-1]["batch"]["instances"] == 2
    for row in rows:
        jsonschema.validate(row, schema())


def test_a_bad_line_names_its_line(cli, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(SUDOKUS.replace("97.. inkala", "97."))
    run = cli("solve", path)
    assert run.code == 2 and "instances line 2" in run.err  # line 1 is the comment


def test_several_files_and_a_directory(cli, tmp_path):
    for name in ("water_jugs", "blocks"):
        (tmp_path / f"{name}.toml").write_text((ROOT / "models" / f"{name}.toml").read_text())
    (tmp_path / "broken.toml").write_text("family = 3\n")
    run = cli("solve", tmp_path, "--engine", "search", "--json")
    rows = lines(run.out)
    assert run.code == 2  # a bad file is reported as its own line; the others are solved
    by_file = {Path(r["source"]).name: r for r in rows[:-1]}
    assert by_file["water_jugs.toml"]["steps"] == 10 and by_file["blocks.toml"]["steps"] == 5
    assert "error" in by_file["broken.toml"]
    for row in rows:
        jsonschema.validate(row, schema())
    run = cli("solve", "water_jugs", "blocks")
    assert run.code == 0 and "2 instances" in run.out
    assert run.err == ""  # not even a blank line: the progress bar is for terminals


@pytest.mark.parametrize("broken", [1, 2])
def test_the_summary_line_counts_errors_in_words(cli, tmp_path, broken):
    """``1 error``, ``2 errors`` (it said "2 error"); the statuses stay as they are named
    (``1 optimal``)."""
    files = [tmp_path / f"broken{i}.toml" for i in range(broken)]
    for file in files:
        file.write_text("family = 3\n")
    run = cli("solve", *files, "water_jugs", "--engine", "search")
    assert run.code == 2
    errors = "1 error" if broken == 1 else f"{broken} errors"
    last = run.out.strip().splitlines()[-1]
    assert re.fullmatch(rf"{broken + 1} instances in [\d.]+ s \([\d.,]+ per second, "
                        rf"search\): {errors}, 1 optimal", last), last


@pytest.mark.parametrize("option", ["--unique", "--time-indexed"])
def test_an_option_of_one_kind_goes_to_the_batch_s_models_of_that_kind(cli, option):
    """A batch of both kinds keeps ``--unique`` (csp) and ``--time-indexed`` (planning)
    for the models it applies to; the others run without it, as the engines refuse it
    for the other kind of model (:func:`cpsolve.engines.option_choices.for_kind`)."""
    run = cli("solve", "queens8", "water_jugs", option, "--engine", "cpsat",
              "--time-limit", "60", "--json")
    rows = {Path(r["source"]).stem: r for r in lines(run.out)[:-1]}
    assert run.code == 0, run.out + run.err
    assert rows["water_jugs"]["steps"] == 10 and rows["water_jugs"]["verified"]
    assert rows["queens8"]["verified"] and "error" not in rows["queens8"]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("algorithm", "kind"), [("iddfs", "planning"),
                                                 ("backtracking", "csp")])
def test_an_algorithm_of_one_kind_goes_to_the_batch_s_models_of_that_kind_under_search(
        cli, algorithm, kind, jobs):
    """``--engine search --algorithm`` in a batch of both kinds: the models of the
    algorithm's kind run it, the others run as without it (docs/how-to/batches.md), as
    under ``auto`` -- not an error row each (the tester's ``bfs`` on sudoku4)."""
    run = cli("solve", "water_jugs", "sudoku4", "--engine", "search", "--algorithm",
              algorithm, "--jobs", jobs, "--time-limit", "60", "--json")
    rows = {Path(r["source"]).stem: r for r in lines(run.out)[:-1]}
    assert run.code == 0, run.out + run.err
    assert all("error" not in r and r["verified"] for r in rows.values()), rows
    assert rows["water_jugs"]["steps"] == 10  # DESIGN.md's known answer
    assert rows["sudoku4"]["engine"] == "search"
    if kind == "planning":  # the planning model ran the algorithm given
        assert rows["water_jugs"]["details"]["algorithm"] == algorithm


def test_compare_gives_an_option_of_one_kind_to_the_models_of_that_kind(cli):
    """``compare`` of a csp and a planning model with ``--time-indexed``: CP-SAT solves the
    csp without it (not skipped as given an option for planning models)."""
    run = cli("compare", "queens8", "water_jugs", "--time-indexed", "--time-limit", "60",
              "--json")
    models = {m["file"]: m for m in json.loads(run.out)["models"]}
    assert "applies to" not in run.out, run.out
    for name in ("queens8", "water_jugs"):
        cpsat = [r for r in models[name]["results"] if r["engine"] == "cpsat"]
        assert cpsat and cpsat[0]["verified"], models[name]


SLOW_BUILD = "import time\n\ndef build():\n    time.sleep(60)  # the clock stops it\n"


def test_a_file_still_loading_at_the_time_limit_is_a_limit_not_bad_input(cli, tmp_path):
    """Exit 1 as for one file under the same limit, not 2: the file is not bad (under load
    a large bundled model may take a short limit to load).  The file and those after it
    are rows not started on stdout, no errors; stderr holds no line of bad input."""
    (tmp_path / "a_slow.py").write_text(SLOW_BUILD)
    (tmp_path / "b.toml").write_text((ROOT / "models" / "water_jugs.toml").read_text())
    for jobs in ("1", "2"):
        run = cli("solve", tmp_path, "--time-limit", "1", "--json", "--jobs", jobs)
        assert run.code == 1, run.err
        assert run.err == ""
        rows = lines(run.out)
        assert [Path(r["source"]).name for r in rows[:-1]] == ["a_slow.py", "b.toml"]
        assert [r["status"] for r in rows[:-1]] == ["not_started"] * 2
        assert "time limit" in rows[0]["message"] and "loading" in rows[0]["message"]
        assert rows[1]["message"] == "not loaded: time limit 1 s reached"
        assert rows[-1]["batch"]["statuses"] == {"not_started": 2}
        for row in rows:
            jsonschema.validate(row, schema())
    (tmp_path / "0_bad.toml").write_text("family = 3\n")  # read before the limit: bad input
    run = cli("solve", tmp_path, "--time-limit", "1", "--json")
    assert run.code == 2 and len(run.err_lines) == 1 and "0_bad.toml" in run.err


def test_instances_a_limit_came_before_are_not_started_not_errors(cli, tmp_path):
    """The text table and its summary say "not started" for the instances the time limit
    came before (here: a file still loading at the limit, and the one after it), never
    "error", the word of bad input."""
    (tmp_path / "a_slow.py").write_text(SLOW_BUILD)
    (tmp_path / "b.toml").write_text((ROOT / "models" / "water_jugs.toml").read_text())
    run = cli("solve", tmp_path, "--time-limit", "1")
    assert run.code == 1, run.err
    assert "error" not in run.out and run.out.count("not started") >= 2
    assert run.out.rstrip().endswith(": 2 not started")


def test_jobs_give_the_same_answers(cli):
    one = lines(cli("solve", TOP95, "--engine", "cpsat", "--json").out)
    two = lines(cli("solve", TOP95, "--engine", "cpsat", "--json", "--jobs", "2").out)
    assert len(one) == len(two) == 96
    assert [r["solution"] for r in one[:-1]] == [r["solution"] for r in two[:-1]]
    assert all(r["unique"] for r in one[:-1])  # every top95 puzzle has one solution


def test_a_task_budget_shares_what_is_left_a_wave_of_slots_at_a_time():
    """With a command limit: what is left, divided among the waves of ``slots`` instances
    still to start; without: each instance's own budget; past the limit: nothing."""
    from cpsolve.engines.runtime.clock import Clock
    from cpsolve.workflows.batch.budget import TaskBudget

    clock = Clock(10.0, now=lambda: 104.0, start=100.0)  # 6 s left, whatever the machine
    budget = TaskBudget(clock, each=60.0)
    assert 6.0 / 2 - 0.5 < budget.seconds(4, slots=2) <= 6.0 / 2  # two waves of two
    assert 6.0 / 2 - 0.5 < budget.seconds(3, slots=2) <= 6.0 / 2
    assert 6.0 - 0.5 < budget.seconds(2, slots=2) <= 6.0  # one wave: all that is left
    assert 6.0 / 5 - 0.5 < budget.seconds(5) <= 6.0 / 5  # here: one at a time
    kept = TaskBudget(clock, keep=1.0)  # a second kept for printing and exiting
    assert 5.0 / 2 - 0.5 < kept.seconds(2) <= 5.0 / 2
    clock.start -= 7.0
    assert budget.seconds(1) <= 0  # past the limit: not started
    assert TaskBudget(Clock(None), each=60.0).seconds(100, slots=2) == 60.0
    assert TaskBudget(Clock(None)).seconds(1) is None


def test_an_engine_the_commands_clock_stops_keeps_the_other_results():
    """compare's engines run under the command's clock (issue 21: an engine whose import
    took the time left ran 1 s past it); one it stops says so, and what the others
    answered stays (the farmer's crossing: 7 crossings, the classic answer)."""
    from contextlib import contextmanager

    from cpsolve.engines import Options
    from cpsolve.engines.runtime.clock import TimeUp
    from cpsolve.puzzles.files import load, resolve
    from cpsolve.workflows.batch.comparing import compare_model
    from cpsolve.workflows.batch.items import Item

    @contextmanager
    def running(engine):
        if engine == "cpsat":
            raise TimeUp(f"running {engine}", 1.0, grace=0.3)  # 0.3 s: 60 % of 0.5 s
        yield Options()

    item = Item("farmer", load(resolve("farmer")))
    done = compare_model(item, "solve", 60, running=running)
    by = {r.engine: r for r in done.results}
    assert by["cpsat"].status.value == "unknown" and by["cpsat"].answer is None
    assert by["cpsat"].message == \
        "time limit 1 s reached (cpsat did not stop within 0.3 s of the limit; cut off)"
    assert by["search"].status.value == "optimal" and by["search"].steps == 7
    assert not done.problems


def test_the_table_stays_readable_at_80_columns(cli, tmp_path):
    """Output that is not a terminal is 80 columns wide: the short texts stay whole (an
    answer column squeezed to two letters a line once made a batch unreadable).  A file
    name is a word: this one, longer than the screen, goes on a line of its own above its
    row (on over the next line, every character kept); the error under its row is one
    line, as on stderr, its path whole."""
    path = tmp_path / "with-a-very-long-name-for-a-collection-of-sudokus.toml"
    path.write_text(SUDOKUS.replace("97.. inkala", "97. short"))
    run = cli("solve", path, "--engine", "search", width="80")
    assert run.code == 2
    lines = run.out.splitlines()
    error = [line for line in lines if "is not a symbol" in line]
    assert len(error) == 1 and error[0].strip().startswith(f"{path}: instances line 2")
    assert max(len(line) for line in lines if line not in error) <= 80
    words = run.out.split()
    for word in ("engine", "status", "answer", "seconds", "check", "error",
                 "solved", "verified", "symbol"):
        assert word in words, word
    run = cli("solve", "water_jugs", "blocks", width="80")
    assert run.code == 0 and "water_jugs" in run.out.split()  # named as the user named it
    assert "models/" not in run.out


def test_auto_in_a_batch_counts_both_engines_time_in_the_row(monkeypatch):
    """Search proves nothing, CP-SAT knows less: the row keeps search's answer but its
    seconds are the instance's, both runs (each run here takes at least 0.05 s and says 0)."""
    import time

    from cpsolve.answers.result import Result, Status
    from cpsolve.engines import Options
    from cpsolve.engines.auto import turns
    from cpsolve.puzzles.files import load
    from cpsolve.workflows.batch import solving
    from cpsolve.workflows.batch.items import Item

    def run(engine, task, model, options):
        time.sleep(0.05)
        return Result(Status.UNKNOWN, engine, task, seconds=0.0,
                      bound=15 if engine == "search" else None)

    monkeypatch.setattr(turns, "run", run)
    jugs = load(ROOT / "cpsolve" / "models" / "water_jugs.toml")
    row = solving.solve_one(Item("water_jugs", jugs), "auto", Options(time_limit=10))
    assert row.result.engine == "search" and row.result.bound == 15
    assert row.result.seconds >= 0.1


def test_an_engine_whose_start_does_not_fit_the_time_left_is_not_started(monkeypatch):
    """Importing OR-Tools cannot be stopped: with a tenth of a core, its 0.35 CPU s take
    3.5 s, more than 1 s left; with a whole core they fit."""
    import sys

    from cpsolve.engines import late_start

    monkeypatch.delitem(sys.modules, "cpsolve.engines.cpsat.library",  # as in a fresh
                        raising=False)  # process, where OR-Tools is not imported yet
    why = late_start("cpsat", 1.0, share=0.1)
    assert why == ("time limit 1 s reached before cpsat started (its start would take about "
                   "3.5 s here, 1.0 s was left)")
    assert late_start("cpsat", 1.0, share=0.1, limit=4.0).startswith(  # 1 s left of 4 s
        "time limit 4 s reached before cpsat started")
    assert late_start("cpsat", 1.0, share=1.0) is None
    assert late_start("search", 0.01, share=0.1) is None  # nothing to import first
    assert late_start("cpsat", None, share=0.1) is None


def test_a_cluster_batch_ends_inside_the_command_s_time():
    """On a cluster the batch's own clock ends ``CLUSTER_CLOSE`` before the command's tail
    and the tasks' budgets ``CLUSTER_RETURN`` before that, so that a late task's grace
    never reaches the command's clock; a short limit keeps less (a quarter and an eighth
    of what is left); without a limit, nothing changes."""
    from cpsolve.engines.runtime.clock import Clock
    from cpsolve.workflows.batch.budget import TaskBudget
    from cpsolve.workflows.batch.cluster import CLUSTER_CLOSE, CLUSTER_RETURN, cluster_time

    now = [104.0]
    clock = Clock(10.0, now=lambda: now[0], start=100.0)  # 6 s left
    tasks, until = cluster_time(TaskBudget(clock, keep=0.2))
    assert tasks.keep == 0.2 + CLUSTER_CLOSE + CLUSTER_RETURN
    assert until.limit == 6.0 - 0.2 - CLUSTER_CLOSE
    assert tasks.seconds(1) == until.limit - CLUSTER_RETURN  # the budget ends first
    now[0] += until.limit + 0.01
    assert until.time_up() and not clock.time_up()  # the batch's end, then the command's
    short = Clock(1.0, now=lambda: 0.2, start=0.0)  # 0.8 s left
    tasks, until = cluster_time(TaskBudget(short, keep=0.0))
    assert tasks.keep == 0.8 / 8 + 0.8 / 4 and until.limit == 0.8 - 0.8 / 8
    budget = TaskBudget(Clock(None), each=60.0)
    assert cluster_time(budget) == (budget, None)


def test_each_file_loads_only_when_its_turn_comes(tmp_path):
    """A batch's instances are solved before the files after them load: the first row comes
    while the second file has not been read (a slow file then costs only itself and those
    after it, never the instances before it)."""
    from contextlib import contextmanager

    from cpsolve.engines import Options
    from cpsolve.workflows.batch.items import instances
    from cpsolve.workflows.batch.solving import solve_all

    (tmp_path / "a.toml").write_text((ROOT / "models" / "blocks.toml").read_text())
    (tmp_path / "b.toml").write_text((ROOT / "models" / "water_jugs.toml").read_text())
    loaded = []

    @contextmanager
    def loading(what):
        loaded.append(Path(what).name)
        yield

    for jobs in (1, 2):
        loaded.clear()
        rows = solve_all(instances([str(tmp_path)], loading), "search", Options(), jobs)
        first = next(rows)
        assert first.status == "optimal" and Path(first.source).name == "a.toml"
        if jobs == 1:  # with workers, the next file loads as soon as a worker is free
            assert loaded == ["a.toml"]
        assert [row.status for row in rows] == ["optimal"]
        assert loaded == ["a.toml", "b.toml"]


LOOP = "while True:\n    pass\n"


def test_a_file_that_never_loads_costs_the_instances_before_it_nothing(cli, tmp_path):
    """A Python model that never finishes loading, between two models: the one before it is
    solved (it loads and is solved first), the one still loading at the limit and the one
    after it are not started — in this process and with workers."""
    (tmp_path / "a_blocks.toml").write_text((ROOT / "models" / "blocks.toml").read_text())
    (tmp_path / "b_loop.py").write_text(LOOP)
    (tmp_path / "c_jugs.toml").write_text((ROOT / "models" / "water_jugs.toml").read_text())
    for jobs in ("1", "2"):
        run = cli("solve", tmp_path, "--time-limit", "4", "--json", "--engine", "search",
                  "--jobs", jobs)
        rows = lines(run.out)
        assert [r.get("status") for r in rows[:-1]] == ["optimal", "not_started",
                                                        "not_started"], run.out
        assert rows[0]["steps"] == 5
        assert rows[2]["message"] == "not loaded: time limit 4 s reached", rows[2]
        assert rows[-1]["batch"]["statuses"] == {"optimal": 1, "not_started": 2}
        assert run.code == 1, run.err


def test_a_stop_by_the_clock_after_the_last_row_writes_no_row_twice(cli, tmp_path,
                                                                    monkeypatch):
    """The clock's stop coming once every row is out, before the figures (a command's guard
    acting late on a loaded machine): every instance keeps its one row, and the figures
    count them — the batch is not listed a second time as not loaded."""
    from cpsolve.cli import batch as solving
    from cpsolve.engines.runtime.clock import TimeUp

    for name in ("a.toml", "b.toml"):
        (tmp_path / name).write_text((ROOT / "models" / "blocks.toml").read_text())
    original, calls = solving._batch_end, []

    def late(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise TimeUp("solving", 5.0)
        return original(*args, **kwargs)

    monkeypatch.setattr(solving, "_batch_end", late)
    run = cli("solve", tmp_path, "--time-limit", "5", "--json", "--engine", "search")
    rows = lines(run.out)
    assert [(Path(r["source"]).name, r["status"]) for r in rows[:-1]] == [
        ("a.toml", "optimal"), ("b.toml", "optimal")], run.out
    assert rows[-1]["batch"]["statuses"] == {"optimal": 2}, run.out


def test_a_batch_the_commands_clock_cuts_still_lists_every_instance(cli, tmp_path, late_alarm):
    """The command's own clock (past every grace) cuts the batch as it begins to solve:
    every file still has its row, not started, and the batch's figures come last — never
    the bare error "... was reached while running solve"."""
    for name in ("a.toml", "b.toml", "c.toml"):
        (tmp_path / name).write_text((ROOT / "models" / "blocks.toml").read_text())
    late_alarm("cpsolve.cli.batch._solved")
    run = cli("solve", tmp_path, "--time-limit", "5", "--json", "--engine", "search")
    assert run.code == 1, run.err
    assert "while running" not in run.out + run.err
    rows = lines(run.out)
    assert [Path(r["source"]).name for r in rows[:-1]] == ["a.toml", "b.toml", "c.toml"]
    assert {r["status"] for r in rows[:-1]} == {"not_started"}
    assert rows[-1]["batch"]["statuses"] == {"not_started": 3}
    for row in rows:
        jsonschema.validate(row, schema())



@pytest.mark.parametrize("step", ["cpsolve.workflows.batch.items.files_of",
                                  "cpsolve.cli.solve.pddl_pairs",
                                  "cpsolve.cli.batch.kinds_of"])
def test_a_batch_the_clock_cuts_while_it_sets_up_still_lists_every_instance(cli, late_alarm,
                                                                           step):
    """The command's own clock (past every grace) comes before the batch's first row: while
    ``solve`` tells a batch from one instance, while the batch lists its files, while it
    lays out its table (on a loaded machine its imports alone take past a short limit).
    Every file named still has its row, not loaded, and the figures come last — not the
    bare error "... was reached while running solve" with no row."""
    late_alarm(step)
    run = cli("solve", "water_jugs", "blocks", "--time-limit", "0.5", "--json")
    assert run.code == 1, run.err
    assert "while running" not in run.out + run.err
    rows = lines(run.out)
    assert [r["source"] for r in rows[:-1]] == ["water_jugs", "blocks"]
    assert [r["message"] for r in rows[:-1]] == ["not loaded: time limit 0.5 s reached"] * 2
    assert rows[-1]["batch"]["statuses"] == {"not_started": 2}
    for row in rows:
        jsonschema.validate(row, schema())


def test_a_batch_the_clock_cuts_before_its_table_still_prints_the_table(cli, late_alarm):
    """In text, the same cut: the table's head, a row per model file of the directory, the
    figures — nothing on stdout was the old answer."""
    late_alarm("cpsolve.workflows.batch.items.files_of")
    run = cli("solve", ROOT / "models", "--time-limit", "0.5")
    assert run.code == 1, run.err
    files = sorted(p for p in (ROOT / "models").iterdir() if p.suffix in (".toml", ".py"))
    out = [line.strip() for line in run.out.splitlines()]
    assert out[0].split()[:3] == ["instance", "engine", "status"]
    assert out.count("not loaded: time limit 0.5 s reached") == len(files), run.out
    assert out[-1].startswith(f"{len(files)} instances in ")
    assert out[-1].endswith(f"{len(files)} not started")


def test_a_cut_batch_lists_every_line_of_a_collection_and_a_file_named_twice(cli, tmp_path,
                                                                            monkeypatch):
    """The command's clock cuts the batch once its first file is loaded (a collection of
    two puzzles; blocks and the collection named again not yet): each of the two lines is
    a row not started, and each file whose turn had not come is a row not loaded, the
    second naming of the collection too — a turn each, as ``compare`` counts them (the
    line not yet taken, and a file named again, had no row)."""
    from cpsolve.engines.runtime.clock import TimeUp

    def cut(cli, items):
        next(iter(items))  # the collection loads, its first line is taken
        raise TimeUp("solving", 5.0)
        yield  # a generator, as solve_all

    monkeypatch.setattr("cpsolve.cli.batch._solved", cut)
    path = tmp_path / "s.toml"
    path.write_text(SUDOKUS)
    run = cli("solve", path, "blocks", path, "--time-limit", "5", "--json")
    assert run.code == 1, run.err
    rows = lines(run.out)
    assert [(r["source"], r["status"]) for r in rows[:-1]] == [
        (f"{path}#1", "not_started"), (f"{path}#2", "not_started"),
        ("blocks", "not_started"), (str(path), "not_started")]
    assert [r["message"] for r in rows[:4]] == ["not started: time limit 5 s reached"] * 2 + \
        ["not loaded: time limit 5 s reached"] * 2  # the limit named, as compare names it
    assert rows[-1]["batch"]["instances"] == 4


def test_a_collections_instance_names_fit_their_column(cli, tmp_path):
    """The table is laid out before the files load (each loads when its turn comes): a
    collection's instance names (``file#N``) still fit the instance column, whole."""
    path = tmp_path / "s.toml"
    path.write_text(SUDOKUS)
    run = cli("solve", path, "water_jugs", "--engine", "search", width="200")
    for n in (1, 2):
        assert f"s.toml#{n} " in run.out, run.out


def test_compare_s_lineup_loads_each_file_in_its_turn_and_counts_what_is_left(tmp_path):
    """A lineup of a model, a collection of two lines (one broken) and a model: each file
    loads only when its first instance is taken, and each instance comes with the models
    still to compare from it on as far as is known (the rest of its file's, one per file not
    loaded yet: the collection counts as one until it is loaded)."""
    from cpsolve.workflows.batch.items import files_of, lineup

    (tmp_path / "a.toml").write_text((ROOT / "models" / "blocks.toml").read_text())
    (tmp_path / "b.toml").write_text(SUDOKUS.replace("97.. inkala", "97. short"))
    (tmp_path / "c.toml").write_text((ROOT / "models" / "water_jugs.toml").read_text())
    files = files_of([str(tmp_path)])
    turns = lineup(files)
    assert turns.unloaded() == [str(tmp_path / n) for n in ("a.toml", "b.toml", "c.toml")]
    seen = []
    for item, remaining in turns:
        seen.append((Path(item.source).name, remaining, item.puzzle is not None))
        if len(seen) == 1:  # the first file only
            assert turns.unloaded() == [str(tmp_path / "b.toml"), str(tmp_path / "c.toml")]
    assert seen == [("a.toml", 3, True),  # itself, and b and c not loaded yet
                    ("b.toml#1", 3, False),  # b's 2 lines, and c; a broken line is an
                    ("b.toml#2", 2, True),  # item of its own
                    ("c.toml", 1, True)]
    assert turns.unloaded() == [] and len(turns.items()) == 4


def test_files_whose_turn_comes_too_late_are_not_loaded(tmp_path):
    """Once ``too_late()`` names a reason (the command's time is up), no file is loaded: each
    one left is an item ``not loaded: <why>``, a limit, not a bad file."""
    from cpsolve.workflows.batch.items import by_file, files_of

    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.toml").write_text((ROOT / "models" / "blocks.toml").read_text())
    late = [None]
    groups = by_file(files_of([str(tmp_path)]), too_late=lambda: late[0])
    first = next(groups)
    assert first[0].puzzle is not None
    late[0] = "time limit 3 s reached"
    rest = [item for group in groups for item in group]
    assert [(Path(i.source).name, i.error, i.at_limit, i.puzzle) for i in rest] == [
        (f"{n}.toml", "not loaded: time limit 3 s reached", True, None) for n in "bc"]


HOLDING_MODEL = "x = sum(range(10**12))  # one C call: it holds the interpreter\n"


def test_a_python_model_that_holds_the_interpreter_costs_a_batch_only_its_row(
        cli_subprocess, tmp_path):
    """A batch loads a Python model file in a child process: code stuck in one C call
    cannot keep the batch's clock from ending the wait, so every file gets its row and
    the summary comes (before, the batch waited for the sum and nothing came)."""
    import shutil

    for name in ("water_jugs", "blocks"):
        shutil.copy(ROOT / "cpsolve" / "models" / f"{name}.toml", tmp_path)
    (tmp_path / "csum.py").write_text(HOLDING_MODEL)
    run = cli_subprocess("solve", tmp_path, "--jobs", "2", "--time-limit", "3", "--json",
                         timeout=120)
    rows = lines(run.out)
    assert [r.get("source") for r in rows[:-1]] == \
        [str(tmp_path / n) for n in ("blocks.toml", "csum.py", "water_jugs.toml")]
    assert rows[0]["status"] == "optimal"
    assert rows[1]["status"] == "not_started"
    assert rows[1]["message"] == \
        f"the time limit (3 s) was reached while loading {tmp_path / 'csum.py'}"
    assert rows[-1]["batch"]["instances"] == 3
    assert run.code == 1


def test_python_models_in_a_batch_are_solved_whether_or_not_they_can_be_sent_back(cli):
    """queens.py builds a Puzzle class of its own (it cannot be pickled from the child that
    loaded it first: it is loaded again here); hanoi.py a plain Planning model."""
    run = cli("solve", ROOT / "examples" / "queens.py", ROOT / "examples" / "hanoi.py",
              "--json")
    rows = lines(run.out)
    assert run.code == 0, run.err
    assert [r["verified"] for r in rows[:-1]] == [True, True]
    assert rows[1]["steps"] == 7  # 3 discs: 2**3 - 1 moves


def test_a_row_stopped_at_its_share_of_the_time_limit_says_that_share():
    """A batch under --time-limit 20 gives each instance a share of it: the 15-puzzle's
    optimum is not settled in 0.3 s, and its row names the 20 s and the 0.3 s it had (it
    said 'time limit 20 s reached' after 0.3 s)."""
    from cpsolve.engines import Options
    from cpsolve.engines.runtime.clock import state_limit
    from cpsolve.puzzles.files import load, resolve
    from cpsolve.workflows.batch import solving
    from cpsolve.workflows.batch.items import Item

    state_limit(20.0)
    try:
        row = solving.solve_one(Item("fifteen", load(resolve("fifteen_puzzle"))), "search",
                                Options(time_limit=0.3))
    finally:
        state_limit(None)
    said = row.result.message  # stopped before a plan, or in the proof after weighted A*'s
    assert "time limit 20 s reached (its share: 0.3 s)" in said or \
        "stopped at the time limit (20 s) (its share: 0.3 s)" in said


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_engine_bug_is_its_instances_error_row_and_the_batch_exit_3(cli, wrong_csp_search,
                                                                        jobs):
    """An instance whose engine's answer fails the check (search's on the csp in the
    middle) is its own error row, saying it is an engine bug; the instances after it are
    still solved, and the batch exits 3 (a bug in cpsolve, not 1 or 2), in this process
    and in worker processes alike, with the bug on stderr naming the file."""
    files = [ROOT / "models" / name for name in ("water_jugs.toml", "xsudoku5.toml",
                                                  "blocks.toml")]
    run = cli("solve", *files, "--engine", "search", "--jobs", jobs, "--json")
    assert run.code == 3, run.err
    rows = lines(run.out)
    assert [r["source"] for r in rows[:-1]] == [str(f) for f in files]
    assert [r.get("moves") for r in rows[:-1]] == [10, None, 5]  # DESIGN.md's answers
    assert rows[1]["error"].startswith("engine bug (the answer failed the independent check)")
    assert rows[-1]["batch"]["statuses"] == {"optimal": 2, "error": 1}
    assert any(str(files[1]) in line and "engine bug" in line for line in run.err.splitlines())
    jsonschema.validate(rows[1], schema())


POOL_MODEL = '''import multiprocessing


def build():
    with multiprocessing.Pool(2) as pool:
        pool.map(abs, range(3))
    from cpsolve import Csp
    return Csp("pool")
'''


def test_a_python_model_starting_processes_in_a_batch_gets_the_fork_refused(cli, tmp_path):
    """The batch loads the model in cpsolve's daemonic child: its row says the documented
    refusal, as the model alone does, not multiprocessing's words about that child."""
    import shutil

    shutil.copy(ROOT / "cpsolve" / "models" / "water_jugs.toml", tmp_path)
    (tmp_path / "pool.py").write_text(POOL_MODEL)
    alone = cli("solve", tmp_path / "pool.py")
    run = cli("solve", tmp_path, "--engine", "search", "--json")
    row = next(r for r in lines(run.out) if r.get("source") == str(tmp_path / "pool.py"))
    assert "a model's code may not call os.fork()" in alone.err
    assert "a model's code may not call os.fork()" in row["error"], row
    assert "daemonic" not in row["error"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_model_whose_estimate_the_engines_refuse_is_its_own_error_row(cli, overestimating,
                                                                         jobs):
    """A Python model whose estimate says more than the cost still to pay (1000 at x=0,
    where the goal is 6 steps away) is refused by the engines' audit: in a batch that is
    its own error row naming its file, as a file that does not load is, and the files
    after it are still solved; the batch exits 2 (bad input), with the error on stderr,
    in this process and in worker processes alike (it ended the whole batch, exit 2, and
    in workers was 'the worker failed', exit 1)."""
    files = [ROOT / "models" / "water_jugs.toml", overestimating, ROOT / "models" / "blocks.toml"]
    run = cli("solve", *files, "--jobs", jobs, "--json")
    assert run.code == 2, run.err
    rows = lines(run.out)
    assert [r["source"] for r in rows[:-1]] == [str(f) for f in files]
    assert [r.get("moves") for r in rows[:-1]] == [10, None, 5]  # DESIGN.md's answers
    assert rows[1]["error"].startswith(f"{overestimating}: the estimate is not admissible")
    assert "says 1000" in rows[1]["error"] and "6 away" in rows[1]["error"]
    assert rows[-1]["batch"]["statuses"] == {"optimal": 2, "error": 1}
    for row in rows:
        jsonschema.validate(row, schema())
    assert [line for line in run.err.splitlines() if "not admissible" in line] == \
        [f"error: {rows[1]['error']}"]
    text = cli("solve", *files, "--jobs", jobs)
    assert text.code == 2 and "3 instances" in text.out and "2 optimal" in text.out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_auto_keeps_cpsats_answer_where_searchs_fails_the_check(cli, wrong_csp_search, jobs):
    """With ``auto`` (the default), an instance whose search answer fails the check still
    has CP-SAT's answer, as ``solve``'s race gives it: its row is CP-SAT's checked
    solution, its message names search's bug, and the batch exits 3 with the bug on stderr
    naming the file (the row was an error with no answer, CP-SAT never asked)."""
    files = [ROOT / "models" / name for name in ("xsudoku5.toml", "water_jugs.toml")]
    run = cli("solve", *files, "--jobs", jobs, "--json")
    assert run.code == 3, run.err
    rows = lines(run.out)
    grid, jugs = rows[:-1]
    assert grid["engine"] == "cpsat" and grid["verified"] is True
    assert grid["status"] == "solved" and grid["unique"] is False  # 960 grids (DESIGN.md)
    assert "search: engine bug (the answer failed the independent check)" in grid["message"]
    assert jugs["moves"] == 10
    for row in rows:
        jsonschema.validate(row, schema())
    told = [line for line in run.err.splitlines() if "engine bug" in line]
    assert len(told) == 1 and told[0].startswith(f"error: {files[0]}: search: engine bug")


def test_an_instance_stopped_at_the_memory_limit_leaves_the_next_its_own_run(monkeypatch):
    """One instance stopped at the memory limit left the stop asked for: every later file
    was 'not loaded: memory limit reached', the small ones too.  The next instance is run
    (and stopped again only if its own run passes the limit)."""
    from cpsolve.engines import Options
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.stop import Stop
    from cpsolve.puzzles.files import load, resolve
    from cpsolve.workflows.batch import solving
    from cpsolve.workflows.batch.items import Item

    real = solving.solve_one

    def one(item, engine, options):
        row = real(item, engine, options)
        if item.source == "first":  # as the memory watch asks during a run
            interrupt.request("memory limit 200 MiB reached", Stop.MEMORY)
        return row

    monkeypatch.setattr(solving, "solve_one", one)
    jugs = load(resolve("water_jugs"))
    try:
        rows = list(solving.solve_all([Item("first", jugs), Item("second", jugs)], "search",
                                      Options()))
    finally:
        interrupt.clear()
    assert [row.result.steps for row in rows] == [10, 10]  # DESIGN.md: jugs in 10 moves


@pytest.fixture
def overclaiming_search(monkeypatch) -> None:
    """A disagreement made on purpose: the search engine throws away every plan it finds
    and claims instead that no plan is shorter than one step more (a bound CP-SAT's
    optimal plan then contradicts); csp models it solves as it does."""
    import cpsolve.engines.search.engine as search
    from cpsolve.answers.result import Status
    from cpsolve.model import Planning

    solve = search.solve

    def overclaiming(model, options):
        result = solve(model, options)
        if not isinstance(model, Planning) or result.answer is None:
            return result
        return result.but(status=Status.UNKNOWN, answer=None, bound=result.answer.cost + 1)

    monkeypatch.setattr(search, "solve", overclaiming)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_row_says_its_engines_disagree(cli, overclaiming_search, jobs):
    """Under ``auto`` search proves nothing (here: a wrong bound of 11 for the water jugs'
    10 moves, DESIGN.md), CP-SAT then proves 10: the race's verdict holds a disagreement,
    which ``solve`` prints and exits 1 for, but the batch's row said nothing of it and the
    batch exited 0.  Its row now carries it, in JSON and in text, and the batch exits 1."""
    files = [ROOT / "models" / "water_jugs.toml"]
    alone = cli("solve", *files, "--json")
    assert alone.code == 1
    said = json.loads(alone.out)["race"]["disagreements"]
    assert len(said) == 1 and said[0].startswith("search vs cpsat: ")
    run = cli("solve", *files, ROOT / "models" / "xsudoku5.toml", "--jobs", jobs, "--json")
    assert run.code == 1, run.err
    jugs, grid, figures = lines(run.out)
    assert (jugs["engine"], jugs["moves"], jugs["disagreements"]) == ("cpsat", 10, said)
    assert "disagreements" not in grid  # a csp: search answers as it does, nothing to say
    for row in (jugs, grid, figures):
        jsonschema.validate(row, schema())
    text = cli("solve", *files, ROOT / "models" / "xsudoku5.toml", "--jobs", jobs)
    assert text.code == 1
    under = [line.strip() for line in text.out.splitlines() if "DISAGREEMENT" in line]
    assert under == [f"DISAGREEMENT: {said[0]}"]


def test_an_empty_directory_is_a_row_of_its_own_the_others_solved(cli, tmp_path):
    """A directory with no model files among other names is an error row, as a bad file
    is (the whole batch was refused with no row solved); alone, it is one line, exit 2."""
    models, empty = tmp_path / "models", tmp_path / "empty"
    models.mkdir()
    empty.mkdir()
    (models / "water_jugs.toml").write_text((ROOT / "models" / "water_jugs.toml").read_text())
    rows = lines(cli("solve", models, empty, "--engine", "search", "--json").out)
    assert [row.get("status") for row in rows[:-1]] == ["optimal", None]
    assert rows[1]["error"].endswith("a directory with no model files (*.toml, *.py)")
    alone = cli("solve", empty)
    assert alone.code == 2 and "a directory with no model files" in alone.err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_model_the_engine_cannot_take_is_bad_input_as_under_solve(cli, jobs):
    """python-constraint solves csps only: the batch's planning model is an error row, told
    on stderr naming its file, exit 2 — what `solve water_jugs --engine pyconstraint` says of
    it alone — and the csp is still solved."""
    run = cli("solve", "water_jugs", "sudoku4", "--engine", "pyconstraint", "--jobs", jobs)
    assert run.code == 2
    assert run.err_lines == ["error: water_jugs: engine 'pyconstraint' cannot solve a "
                             "planning model"]
    assert "verified" in run.out
