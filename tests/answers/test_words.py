"""Counts in words: one helper, so no message says "1 states" (issue 9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cpsolve.answers.words import all_of, noun, plural

MODELS = Path(__file__).resolve().parent.parent / "models"


@pytest.mark.parametrize("n, word, text", [
    (0, "state", "0 states"), (1, "state", "1 state"), (2, "state", "2 states"),
    (1_000, "solution", "1,000 solutions"), (181_440, "state", "181,440 states"),
    (1, "class", "1 class"), (3, "class", "3 classes"), (-1, "step", "-1 steps"),
    (12_345_678, "node", "12,345,678 nodes"),
])
def test_plural(n, word, text):
    assert plural(n, word) == text


def test_an_irregular_plural_can_be_given():
    assert plural(2, "child", "children") == "2 children"
    assert plural(1, "child", "children") == "1 child"


def test_noun_alone():
    assert noun(1, "jump") == "jump" and noun(0, "jump") == "jumps"
    assert noun(2, "class") == "classes"


ONE_PLURAL = re.compile(r"(?<![\d,.])1 (states|solutions|steps|moves|jumps|nodes|classes)\b")


def test_a_plan_of_one_step_says_one_step(cli, write_model):
    path = write_model("one.toml", 'family = "transition"\ngoal = "x[0] == 1"\n'
                       '[variables]\nx = { size = 1, domain = [0, 1] }\n[initial]\nx = [0]\n'
                       '[[actions]]\nname = "up"\nguard = "x[0] == 0"\n'
                       'effects = { "x[0]" = "1" }\n')
    run = cli("solve", path, "--engine", "search")
    assert run.code == 0, run.err
    assert "1 move" in run.out and not ONE_PLURAL.search(run.out), run.out


def test_a_grid_with_one_solution_counted(cli):
    run = cli("count", MODELS / "sudoku4.toml", "--engine", "search", "--limit", "1")
    assert run.code == 1, run.err  # at least 1 of the 288: stopped short by --limit
    assert "1 solution" in run.out and not ONE_PLURAL.search(run.out), run.out


def test_an_analysis_stopped_at_its_first_state(cli):
    run = cli("analyze", MODELS / "eight_puzzle.toml", "--memory-limit", "1M")
    assert run.code == 1
    assert not ONE_PLURAL.search(run.out), run.out


def test_the_whole_of_one_thing_is_the_one_thing():
    """"all 1 reachable states explored" (a peg board where no jump applies) is "the 1
    reachable state"; more are "all" of them."""
    assert all_of(1, "reachable state") == "the 1 reachable state"
    assert all_of(9, "reachable state") == "all 9 reachable states"
    assert all_of(181_440, "state") == "all 181,440 states"


PEGS_STUCK = 'family = "pegs"\npegs_left = 7\nboard = """\nooo\no.o\nooo\n"""\n'
"""Eight pegs round an empty centre: a jump lands two holes away, and the only empty hole
is one hole from every peg, so no jump applies and the start is the one reachable state;
the goal (7 pegs left, one jump away) is never reached, and no invariant proves it
(the start's 8 pegs leave every weighted sum a goal state may reach)."""


@pytest.mark.parametrize("args", [["count", "--optimal"],
                                  ["solve", "--engine", "search", "--algorithm", "bfs"],
                                  ["solve", "--engine", "search", "--algorithm", "dfs"],
                                  ["solve", "--engine", "cpsat"],
                                  ["solve", "--engine", "search", "--statistics"]])
def test_a_board_with_one_reachable_state_says_one_state(cli, write_model, args):
    path = write_model("stuck.toml", PEGS_STUCK)
    run = cli(*args[:1], path, *args[1:])
    assert run.code == 0, run.err
    assert not ONE_PLURAL.search(run.out) and "all 1 " not in run.out, run.out
    if "--statistics" not in args:
        assert "the 1 " in run.out and "state" in run.out, run.out

    from cpsolve.answers.words import number

    assert number(2 ** 100 - 1) == "about 2^100"  # the horizon a message once printed whole
    assert number(1_267_650) == "1,267,650"


def test_bounds_read_as_sentences():
    from cpsolve.answers.words import lower_bound

    assert lower_bound(48) == "no plan has fewer than 48 steps"
    assert lower_bound(1) == "no plan has fewer than 1 step"
    assert lower_bound(10, unit_costs=False) == "no plan costs less than 10"
    assert lower_bound(0) == lower_bound(0, unit_costs=False) == "no lower bound above 0 was proven"


def test_the_solution_is_unique_is_said_once(cli):
    """CP-SAT's message says it too; the text output prints the line once."""
    run = cli("solve", MODELS / "sudoku_inkala.toml", "--engine", "cpsat")
    assert run.code == 0, run.err
    assert run.out.lower().count("the solution is unique") == 1, run.out
