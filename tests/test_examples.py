"""The examples solve as their docs say, with every engine that applies.

Known answers: Tower of Hanoi with n discs takes 2**n - 1 moves; 8 queens
has 92 solutions.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, engines_for, run
from cpsolve.puzzles.files import load

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("name", ["hanoi.toml", "hanoi.py"])
def test_hanoi_takes_seven_moves_by_every_engine(name):
    model = load(EXAMPLES / name).model
    engines = engines_for(model, "solve")
    assert {"cpsat", "search"} <= set(engines)
    for engine in engines:
        result = run(engine, "solve", model, Options(time_limit=60))
        assert result.status is Status.OPTIMAL and result.steps == 2**3 - 1
        assert result.verified


def test_hanoi_python_api_scales():
    module = runpy.run_path(str(EXAMPLES / "hanoi.py"))
    result = run("search", "solve", module["build"](5))
    assert result.steps == 2**5 - 1


@pytest.mark.parametrize("name", ["queens.toml", "queens.py"])
def test_eight_queens_count_92_by_every_engine(name):
    model = load(EXAMPLES / name).model
    engines = engines_for(model, "count")
    assert {"cpsat", "search", "pyconstraint"} <= set(engines)
    for engine in engines:
        result = run(engine, "count", model, Options(time_limit=60))
        assert result.status is Status.EXACT and result.count == 92


def test_queens_solution_is_drawn_as_a_board():
    puzzle = load(EXAMPLES / "queens.py")
    result = run("search", "solve", puzzle.model)
    board = puzzle.render_solution(result.solution).splitlines()
    assert len(board) == 8 and all(row.split().count("Q") == 1 for row in board)
    assert result.unique is False


def test_lights_out_takes_five_presses_by_every_engine():
    """All on -> all off on 3x3: the corners and the centre (see the file's [expected])."""
    model = load(EXAMPLES / "lights_out.toml").model
    for engine in ("cpsat", "search"):
        result = run(engine, "solve", model, Options(time_limit=60))
        assert result.status is Status.OPTIMAL and result.steps == 5 and result.verified
        assert sorted(s.action for s in result.plan) == [f"press {i}" for i in (0, 2, 4, 6, 8)]


def test_river_crossing_takes_eleven_crossings_by_every_engine():
    """Missionaries and cannibals, 3 + 3 and a boat of 2: 11 crossings (the classic)."""
    puzzle = load(EXAMPLES / "river.py")
    for engine in ("cpsat", "search"):
        result = run(engine, "solve", puzzle.model, Options(time_limit=60))
        assert result.status is Status.OPTIMAL and result.steps == 11 and result.verified
    assert puzzle.render_state(puzzle.model.initial_state()).startswith("left 3M 3C")


def test_every_example_the_readme_lists_exists():
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:\.\./models/)?[\w]+\.(?:toml|py))`", text))
    assert {"lights_out.toml", "river.py", "../models/queens8.toml"} <= named
    for name in named:
        assert (EXAMPLES / name).is_file(), name
