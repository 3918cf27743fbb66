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
from cpsolve.language.expr import And, Sum
from cpsolve.model.facts import extreme, goal_state


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
