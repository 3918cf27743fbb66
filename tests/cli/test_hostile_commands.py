"""Issue 21's faults, one test each where the corpus (tests/hostile) cannot show the cause:
an import cut by the clock (an engine's, Dask's), the limits of --jobs, a partial layer, a
stopped count's list."""

from __future__ import annotations

import json

import pytest


def test_an_engine_import_cut_by_the_time_limit_is_a_limit_not_a_bug(cli, monkeypatch):
    """pybind11 turns the clock's TimeUp raised inside a compiled module's set-up into
    ImportError("initialization failed"): exit 1, not an internal error (exit 3)."""
    import cpsolve.cli.one_model as solve
    from cpsolve.engines.runtime.clock import Clock

    def cut(*args, **kwargs):
        monkeypatch.setattr(Clock, "time_up", lambda self: True)
        raise ImportError("initialization failed")

    monkeypatch.setattr(solve, "_answer", cut)
    run = cli("solve", "three_jugs", "--engine", "cpsat", "--time-limit", "5", "--json")
    assert run.code == 1, run.err
    assert json.loads(run.out)["exit"] == 1 and "internal error" not in run.err


def test_a_broken_import_without_a_stop_is_still_exit_3(cli, monkeypatch):
    import cpsolve.cli.one_model as solve

    def broken(*args, **kwargs):
        raise ImportError("no module named ortools")

    monkeypatch.setattr(solve, "_answer", broken)
    assert cli("solve", "three_jugs", "--engine", "cpsat").code == 3


@pytest.mark.parametrize("option", ["--jobs", "--workers"])
def test_processes_are_capped_at_four_per_core(cli, option):
    from cpsolve.cli.checks import max_processes

    run = cli("solve", "three_jugs", "latin4", option, str(max_processes() + 1))
    assert run.code == 2 and len(run.err_lines) == 1 and "4 per core" in run.err


def test_a_limit_inside_a_layer_keeps_the_layer_up_to_it():
    from cpsolve.engines.search.common import Budget
    from cpsolve.engines.search.statespace.layers import Sweep

    out, budget = Sweep(), Budget(limit=10)
    out.sizes = [1, 4]
    assert out.cut(budget, 0, 5, 12)  # 7 new states, 5 allowed
    assert out.sizes == [1, 4, 5] and out.seen == 10 and out.partial and out.stopped
    assert not Sweep().cut(Budget(limit=10), 0, 5, 10)


def test_a_stopped_count_lists_only_what_can_be_checked_in_time():
    import time

    from cpsolve.answers.kinds import Count
    from cpsolve.answers.result import Result, Status
    from cpsolve.engines import _checkable_in_time
    from cpsolve.puzzles.files import load, resolve

    model = load(resolve("latin4")).model
    names = sorted(model.domains)
    solutions = tuple({n: 1 for n in names} for _ in range(1000))  # only their cost matters
    stopped = Result(Status.AT_LEAST, "search", "count", answer=Count(1000, solutions))
    assert _checkable_in_time(model, stopped, time.perf_counter() - 1).answer.solutions == ()
    kept = _checkable_in_time(model, stopped, time.perf_counter() + 60).answer.solutions
    assert len(kept) == 1000
    exact = Result(Status.EXACT, "search", "count", answer=Count(1000, solutions))
    cut = _checkable_in_time(model, exact, time.perf_counter() - 1)  # an exact count too:
    assert cut.answer.count == 1000 and cut.answer.solutions == ()  # the count stands,
    assert "could re-check no more within the time limit" in cut.message  # the list is cut
    assert _checkable_in_time(model, exact, time.perf_counter() + 60) is exact


@pytest.mark.parametrize("command", ["solve", "compare"])
def test_importing_dask_for_a_batch_is_stopped_by_the_time_limit(cli, monkeypatch, command):
    """Importing Dask took 3.8 s of a 2 s limit on a loaded machine, before any scheduler was
    asked: the import is under the command's clock, and a limit is exit 1 with its JSON."""
    import time

    from cpsolve.engines.runtime.dask import client

    monkeypatch.setattr(client, "import_dask", lambda: time.sleep(60))  # a slow import
    run = cli(command, "three_jugs", "farmer", "--scheduler", "tcp://127.0.0.1:1",
              "--time-limit", "1", "--json")
    assert run.code == 1, run.err
    out = json.loads(run.out.splitlines()[-1])
    if command == "solve":  # a batch cut by the limit still gives its rows and figures
        rows = [json.loads(line) for line in run.out.splitlines()[:-1]]
        assert [r["source"] for r in rows] == ["three_jugs", "farmer"]
        assert {r["status"] for r in rows} == {"not_started"}
        assert out["batch"]["statuses"] == {"not_started": 2}
        return
    assert out["exit"] == 1 and "while importing Dask" in out["error"]
