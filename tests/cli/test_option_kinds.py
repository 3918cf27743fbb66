"""Options for one kind of model (``--unique``: csps; ``--time-indexed``, ``--plan-file``:
planning models; ``--algorithm NAME`` by its name, and the ``analyze``
command: planning models) are refused on models of the other kind; in a batch they are
kept when some of its models are of their kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"
PLANNING, CSP = MODELS / "water_jugs.toml", MODELS / "sudoku4.toml"


@pytest.mark.parametrize("command, model, option, kind", [
    ("solve", PLANNING, ["--unique"], "csp"),
    ("solve", CSP, ["--time-indexed"], "planning"),
    ("compare", CSP, ["--time-indexed"], "planning"),
])
def test_an_option_for_the_other_kind_is_one_line_and_exit_2(cli, command, model, option,
                                                             kind):
    run = cli(command, model, *option, "--json")
    assert run.code == 2 and len(run.err_lines) == 1
    said = json.loads(run.out)["error"]
    assert said.startswith(f"{option[0]} applies to {kind} models")
    assert str(model) in said  # the file, as it was given


def test_plan_file_on_a_csp_is_refused_and_nothing_written(cli, tmp_path):
    plan = tmp_path / "plan.txt"
    run = cli("solve", CSP, "--plan-file", plan)
    assert run.code == 2 and "--plan-file applies to planning models" in run.err
    assert not plan.exists()


def test_a_mixed_batch_uses_an_option_where_it_applies(cli):
    """--unique is for the csp, --time-indexed for the planning model: both solved, and
    each instance gets the option (the batch's per-instance options once dropped both:
    water jugs' small state space would otherwise use the transition graph)."""
    run = cli("solve", CSP, PLANNING, "--unique", "--time-indexed", "--engine", "cpsat",
              "--json")
    rows = [json.loads(line) for line in run.out.splitlines()]
    assert run.code == 0, run.err
    assert [row.get("status") for row in rows[:2]] == ["solved", "optimal"]
    assert rows[0]["unique"] is False  # the empty 4x4 sudoku has 288 grids
    assert rows[1]["details"]["encoding"] == "time-indexed"  # not the transition graph


def test_a_batch_none_of_whose_models_an_option_fits_is_refused(cli):
    run = cli("solve", CSP, MODELS / "xsudoku5.toml", "--time-indexed", "--json")
    assert run.code == 2 and len(run.err_lines) == 1
    assert "--time-indexed applies to planning models; none of the 2 models" in run.err


def test_no_hint_turns_off_a_tour_s_hint_too(cli):
    """docs/speed.md: a circuit is first given to the circuit search, whose tour is CP-SAT's
    solution hint, and ``--no-hint`` turns it off — the command line refused it on a csp."""
    tour = MODELS / "knight_6x6.toml"
    hinted = json.loads(cli("solve", tour, "--engine", "cpsat", "--json").out)
    assert "solution_hint" in hinted["details"]
    run = cli("solve", tour, "--engine", "cpsat", "--no-hint", "--json")
    assert run.code == 0, run.err
    alone = json.loads(run.out)
    assert alone["status"] == "solved" and "solution_hint" not in alone["details"]


@pytest.mark.parametrize("model, name, kind, other, listed", [
    (PLANNING, "circuit", "csp", "planning", ["bfs", "astar"]),
    (CSP, "bfs", "planning", "csp", ["circuit", "backtracking"]),
])
def test_an_algorithm_for_the_other_kind_says_which_kind_and_lists_those_that_apply(
        cli, model, name, kind, other, listed):
    """solve --help lists csp and planning algorithms alike: one given for the other kind is
    not 'unknown' but for that kind, named with the file and what would apply."""
    run = cli("solve", model, "--algorithm", name, "--json")
    assert run.code == 2 and len(run.err_lines) == 1
    said = json.loads(run.out)["error"]
    assert said.startswith(f"--algorithm {name} applies to {kind} models; {model} is a "
                           f"{other} model ({other} algorithms: ")
    assert all(n in said for n in listed) and "unknown" not in said


def test_analyze_on_a_csp_names_the_file_and_what_analyze_needs(cli):
    run = cli("analyze", CSP, "--json")
    assert run.code == 2 and len(run.err_lines) == 1
    assert json.loads(run.out)["error"] == (
        f"analyze explores the state space of a planning model; {CSP} is a csp model")
