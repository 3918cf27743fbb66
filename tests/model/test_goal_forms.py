"""Issue 26: a goal that pins one state is known as one, however it is written.

``sum(x) == 0`` over 0/1 variables holds exactly where every x is 0; the
conjuncts of a goal may come in any order.  Every algorithm that needs one
goal state (bidirectional search, backward analysis) must then accept it.
"""

from __future__ import annotations

import itertools

import pytest

from cpsolve import Planning
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.language.combine import And, Sum
from cpsolve.language.expr import Const
from cpsolve.model.pins import extreme, goal_state


def board(goal_of) -> Planning:
    """Lights Out 3x3 from all on, its goal built by ``goal_of(cells)``."""
    n = 3
    model = Planning("lights out 3x3")
    x = model.add_array("x", (n, n), 0, 1)
    cells = [c for row in x for c in row]
    model.set_initial({c.name: 1 for c in cells})
    model.set_goal(goal_of(x, cells))
    for i, j in itertools.product(range(n), repeat=2):
        model.add_action(f"press {i} {j}", effects={
            x[r][c].name: 1 - x[r][c] for r in range(n) for c in range(n)
            if abs(r - i) + abs(c - j) <= 1})
    return model


FORMS = {
    "all zero": lambda x, cells: And(*(c == 0 for c in cells)),
    "sum == 0": lambda x, cells: Sum(cells) == 0,
    "0 == sum": lambda x, cells: 0 == Sum(cells),
    "sum <= 0": lambda x, cells: Sum(cells) <= 0,
    "sum < 1": lambda x, cells: Sum(cells) < 1,
    "rows, any order": lambda x, cells: And(*(Sum(row) == 0 for row in reversed(x))),
    "mixed": lambda x, cells: And(Sum(cells[4:]) == 0, *(c == 0 for c in cells[:4][::-1])),
}


@pytest.mark.parametrize("form", FORMS)
def test_every_wording_of_all_off_is_one_state(form):
    assert goal_state(board(FORMS[form])) == (0,) * 9


@pytest.mark.parametrize("text, want", [
    ("sum == 9", (1,) * 9),      # the greatest value: every cell 1
    ("sum >= 9", (1,) * 9),
    ("sum > 8", (1,) * 9),
])
def test_the_greatest_sum_pins_every_cell_to_its_top(text, want):
    op, k = text.split()[1], int(text.split()[2])
    forms = {"==": lambda s: s == k, ">=": lambda s: s >= k, ">": lambda s: s > k}
    assert goal_state(board(lambda x, cells: forms[op](Sum(cells)))) == want


@pytest.mark.parametrize("goal", [
    lambda x, cells: Sum(cells) == 1,            # one light on: nine states
    lambda x, cells: Sum(cells) <= 1,
    lambda x, cells: Sum(cells[:8]) == 0,        # x[2][2] free: two states
    lambda x, cells: Sum([c * 2 for c in cells]) == 0,  # not a plain sum of variables
])
def test_goals_that_are_not_one_state_are_not_called_one(goal):
    assert goal_state(board(goal)) is None


def test_extreme_reads_only_plain_sums():
    model = board(FORMS["sum == 0"])
    assert extreme(model.goal, model.domain) == [(f"x[{r}][{c}]", 0) for r in range(3)
                                                 for c in range(3)]


@pytest.mark.parametrize("algorithm", ["bidir", "bfs"])
def test_bidirectional_search_takes_a_summed_goal(algorithm):
    result = run("search", "solve", board(FORMS["sum == 0"]),
                 Options(time_limit=60, algorithm=algorithm))
    assert result.status is Status.OPTIMAL and result.steps == 5 and result.verified


def test_a_count_of_pegs_left_fixes_the_plan_length():
    """Every jump removes one peg: from 14 pegs to 1 is 13 jumps, whatever the goal's
    wording (one peg anywhere: a sum of holes == 1), as with a goal hole."""
    from pathlib import Path

    from cpsolve.model.facts import fixed_length, potential_bounds
    from cpsolve.puzzles.files import load

    models = Path(__file__).resolve().parents[2] / "models"
    puzzle = load(models / "triangle15.toml")
    pegs = sum(v for n, v in puzzle.model.initial.items() if n.startswith("hole["))
    assert pegs == 14 and potential_bounds(puzzle.model) == (pegs - 1, pegs - 1)
    assert fixed_length(puzzle.model) == 13 == puzzle.expected["steps"]


def test_a_summed_total_bounds_the_potential_of_a_transition_model():
    # tokens taken one at a time from 6 piles of 1: "2 left" is exactly 4 steps
    model = Planning("take")
    x = model.add_array("x", 6, 0, 1)
    model.set_initial({v.name: 1 for v in x})
    for v in x:
        model.add_action(f"take {v.name}", guard=v == 1, effects={v.name: 0})
    model.set_goal(Sum(x) == 2)
    from cpsolve.model.facts import potential_bounds

    assert potential_bounds(model) == (4, 4)
    for engine in ("cpsat", "search"):
        assert run(engine, "solve", model, Options(time_limit=60)).steps == 4


def test_a_goal_beyond_the_domains_says_which_pin_no_state_meets():
    from cpsolve.model.pins import goal_beyond_domains

    def walk(goal_of) -> Planning:
        model = Planning("walk")
        x = model.add_variable("x", 0, 6)
        y = model.add_variable("y", 0, 1)
        model.set_initial({"x": 0, "y": 0})
        model.set_goal(goal_of(x, y))
        model.add_action("right", guard=x < 6, effects={"x": x + 1})
        return model

    assert "x == 9, but x takes only the values 0..6" in goal_beyond_domains(
        walk(lambda x, y: And(y == 1, x == 9)))
    assert "both x == 3 and x == 4" in goal_beyond_domains(
        walk(lambda x, y: And(x == 3, y == 1, x == 4)))
    # a sum at its extreme pins every summand within its domain: no contradiction
    assert goal_beyond_domains(walk(lambda x, y: And(x + y == 7, x == 6))) is None
    # no pin, but the bounds decide it: x >= 9 and x == 4 + 5 never hold (before the fix: None)
    assert goal_beyond_domains(walk(lambda x, y: x >= 9)) == (
        "no plan: the goal asks x >= 9, but x takes only the values 0..6 (its domain)")
    assert "x == 4 + 5, but x takes only the values 0..6" in goal_beyond_domains(
        walk(lambda x, y: x == Const(4) + 5))
    # an or none of whose parts can hold is named whole, with the domains of its variables
    assert goal_beyond_domains(walk(lambda x, y: And(x == 2, (x > 6) | (y == 2)))) == (
        "no plan: the goal asks x > 6 or y == 2, but it holds for no values within the "
        "domains (x 0..6, y 0..1)")
    # one part of the or can hold (x == 6): the goal may be met, nothing said
    assert goal_beyond_domains(walk(lambda x, y: (x >= 6) | (y == 2))) is None
