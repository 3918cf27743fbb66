"""What every puzzle offers the output (:mod:`cpsolve.puzzles.base`): here, what a
distance of ``analyze`` counts.  A distance is one action of the model each; it is a move
of the metric only where the metric takes one action per move."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.puzzles.base import Puzzle
from cpsolve.puzzles.files import load

ROOT = Path(__file__).resolve().parents[2]

UNITS = [
    ("models/eight_puzzle.toml", "moves"),  # step metric: an action moves a tile one cell
    ("examples/klotski_line.toml", "moves"),  # line: one action per straight-line move
    ("models/klotski.toml", "steps"),  # path: a move is a run of one-cell step actions
    ("models/english33.toml", "moves"),  # metric jumps: a jump is a move
    ("models/hoppers.toml", "jumps"),  # metric moves: a move is a chain of jump actions
    ("models/microban1.toml", "moves"),  # metric moves: every step of the player
    ("examples/microban1_pushes.toml", "steps"),  # pushes: the walking steps count too
    ("models/water_jugs.toml", "moves"),  # a transition model: an action is a move
]


@pytest.mark.parametrize(("path", "unit"), UNITS, ids=lambda p: Path(str(p)).stem)
def test_a_distance_is_named_for_what_one_action_is(path, unit):
    assert load(ROOT / path).distance_unit == unit


class Pairs(Puzzle):
    """A family of its own whose moves are pairs of actions."""

    def count_moves(self, plan):
        return (len(plan) + 1) // 2


def test_a_family_that_groups_actions_without_naming_them_counts_actions():
    jugs = load(ROOT / "models/water_jugs.toml")
    fields = {"name": jugs.name, "family": jugs.family, "model": jugs.model}
    assert Puzzle(**fields).distance_unit == "moves"
    assert Pairs(**fields).distance_unit == "actions"


class Letters(Puzzle):
    """A puzzle whose values are letters: 0 is ``a``, 1 ``b``, ..."""

    def value_text(self, name: str, value: int) -> str:
        return "abcdefgh"[value]


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_a_test_of_a_variable_and_a_constant_shows_the_constant_as_a_value(op):
    """``x < 2`` was written with a bare 2 (only == and != had the puzzle's words): a value
    of x is shown as value_text shows it (2 is ``c`` here) whatever the test, on either
    side."""
    from cpsolve.language.expr import Binary, Const
    from cpsolve.model import Csp

    csp = Csp("letters")
    x = csp.add_variable("x", 0, 7)
    puzzle = Letters(name="letters", family="csp", model=csp)
    assert puzzle.condition_text(Binary(op, x, Const(2))) == f"x {op} c"
    assert puzzle.condition_text(Binary(op, Const(2), x)) == f"c {op} x"
