"""Options that need an engine: CP-SAT's ``--no-hint`` and ``--time-indexed`` are refused
with an engine that would run as if they had not been given (one line, exit 2), and taken
by CP-SAT, by ``auto`` (its CP-SAT racer) and by ``compare`` (its CP-SAT run)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("argv, said", [
    (("solve", "water_jugs", "--engine", "search", "--no-hint"),
     "--no-hint turns off CP-SAT's first look for a plan or tour: use it with --engine cpsat "
     "or auto (the default)"),
    (("solve", "water_jugs", "--engine", "search", "--time-indexed"),
     "--time-indexed chooses CP-SAT's time-indexed model: use it with --engine cpsat or auto"),
    (("solve", "queens8", "--engine", "pyconstraint", "--no-hint"), "--no-hint turns off"),
    (("show", "water_jugs", "--plan", "--html", "x.html", "--no-hint"),  # show: search
     "--no-hint turns off CP-SAT's first look for a plan or tour: use it with --engine cpsat"),
])
def test_cp_sat_s_options_with_another_engine_are_refused(cli, tmp_path, monkeypatch, argv,
                                                         said):
    monkeypatch.chdir(tmp_path)
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1, run.err
    assert run.err_lines[0].startswith(f"error: {said}"), run.err
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("argv", [
    ("solve", "water_jugs", "--no-hint", "--time-indexed", "--json"),
    ("solve", "water_jugs", "--engine", "cpsat", "--no-hint", "--time-indexed", "--json"),
])
def test_cp_sat_s_options_are_taken_where_cp_sat_runs(cli, argv):
    out = json.loads(cli(*argv).out)
    assert out["status"] == "optimal" and out["moves"] == 10  # 8 L and 5 L jugs: 10 moves


def test_compare_gives_cp_sat_its_options_and_the_others_none(cli):
    """compare runs every engine on one command line: search is not refused for CP-SAT's
    options, which reach CP-SAT alone (it says it kept the time-indexed model)."""
    out = json.loads(cli("compare", "water_jugs", "--no-hint", "--time-indexed", "--json",
                         "--time-limit", "60").out)
    rows = {row["engine"]: row for row in out["models"][0]["results"]}
    assert rows["search"]["status"] == "optimal" and rows["cpsat"]["status"] == "optimal"
    assert rows["cpsat"]["details"]["encoding"] == "time-indexed"
    assert rows["cpsat"]["hint"] is None  # --no-hint: none looked for


@pytest.mark.parametrize("argv, said", [
    # a planning model's picture is its start, unsolved anyway: --unsolved was ignored
    (("show", "hoppers", "--unsolved", "--svg", "x.svg"),
     "--unsolved needs a csp model; hoppers is a planning model"),
    # said in the command line's words, not the API's (Options.encoding=...)
    (("show", "xsudoku5", "--svg", "x.svg", "--engine", "cpsat", "--time-indexed"),
     "--time-indexed applies to planning models; xsudoku5 is a csp model"),
    # no engine of an analysis is CP-SAT: the options changed nothing
    (("compare", "water_jugs", "--task", "analyze", "--no-hint"), "--no-hint is CP-SAT's"),
    (("compare", "water_jugs", "--task", "analyze", "--time-indexed"),
     "--time-indexed is CP-SAT's"),
])
def test_an_option_that_would_change_nothing_is_refused(cli, tmp_path, monkeypatch, argv,
                                                        said):
    monkeypatch.chdir(tmp_path)
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1, run.err
    assert run.err_lines[0].startswith(f"error: {said}"), run.err
    assert list(tmp_path.iterdir()) == []
