"""Bounds of expressions (:mod:`cpsolve.language.intervals`): each branch of an ``if`` is
bounded where its condition holds, so a cost written without ``abs`` can be seen to be
nonnegative."""

from __future__ import annotations

import itertools

import pytest

from cpsolve.language.expr import Var
from cpsolve.language.intervals import bounds
from cpsolve.language.parse import parse

DOMAINS = {"x": (0, 3), "y": (-5, 7)}
SCOPE = {name: Var(name) for name in DOMAINS}


def _values(text: str) -> list[int]:
    """Every value of ``text`` over the domains, by Python itself."""
    names = list(DOMAINS)
    ranges = [range(lo, hi + 1) for lo, hi in DOMAINS.values()]
    return [eval(text, dict(zip(names, point))) for point in itertools.product(*ranges)]  # noqa: S307


@pytest.mark.parametrize("text, expected", [
    ("1 + (y if y > 0 else -y)", (1, 8)),  # |y| + 1 over -5..7
    ("y if y >= 0 else 0", (0, 7)),
    ("y if not (y < 2) else 2", (2, 7)),
    ("y if 3 < y else 3", (3, 7)),  # the constant on the left
    ("x if x > 5 else 1", (1, 1)),  # the first branch is never taken
    ("y if y != 7 else 0", (-5, 6)),
    ("(y if y > 0 else -y) if x == 0 else 0", (0, 7)),
    ("y if y > 0 and x == 1 else 0", (0, 7)),
    ("y if y < -2 or y > 2 else 2", (-5, 7)),  # or: the then-branch keeps the whole range
    ("0 if y < -2 or y > 2 else y", (-2, 2)),  # ... the else-branch is -2..2
    ("-y if y < 0 or y == 0 else y", (0, 7)),  # an or true: each part an alternative
    ("y if y > 0 or y == -5 else -y", (-5, 7)),
    ("y if y > 0 and y < 5 else -y", (-7, 5)),  # an and false: y <= 0 or y >= 5
    ("2 - y if not (y > 2 and y > 1) else 0", (0, 7)),
])
def test_a_branch_is_bounded_where_its_condition_holds(text, expected):
    """The bounds are the exact least and greatest values here (each reached), never
    narrower than what the expression takes."""
    values = _values(text)
    assert (min(values), max(values)) == expected
    assert bounds(parse(text, SCOPE), DOMAINS.__getitem__) == expected


def test_a_cost_that_is_never_negative_without_abs_is_accepted():
    """``1 + (y if y > 0 else -y)`` was refused as a cost that may be negative."""
    from cpsolve.model import Planning

    model = Planning("walk")
    y = model.add_variable("y", -3, 3)
    model.add_action("up", y < 3, {"y": y + 1}, parse("1 + (y if y > 0 else -y)", {"y": y}))
    model.set_initial({"y": -3})
    model.set_goal(y == 3)
    model.validate()  # refused here: "action 'up': its cost may be negative"
