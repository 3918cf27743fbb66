"""CP-SAT on csps: uniqueness where it is cheap or asked, a tour started from a hint.

A 12x12 open board has many closed knight's tours (any tour run backwards is another
assignment of successors), so its uniqueness, when asked, is False; problem A has exactly
one closed tour up to direction, and its model fixes the direction (the design's table).
"""

from __future__ import annotations

from pathlib import Path

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.puzzles import tour
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.files import load

MODELS = Path(__file__).parents[3] / "models"


def square(side: int):
    table = {"family": "tour", "board": "\n".join("." * side for _ in range(side))}
    return tour.build(Data(table, f"<{side}x{side}>")).model


def test_a_large_tour_pays_one_solve_unless_uniqueness_is_asked() -> None:
    model = square(12)   # 144 squares: a circuit above the cheap size
    result = run("cpsat", "solve", model, Options(time_limit=120))
    assert result.status is Status.SOLVED and result.verified and result.unique is None
    assert result.details["solves"] == 1 and "--unique" in result.message
    assert result.details["solution_hint"].startswith("search found one")
    asked = run("cpsat", "solve", model, Options(time_limit=120, unique=True))
    assert asked.status is Status.SOLVED and asked.unique is False and asked.verified


def test_without_a_hint_the_tour_is_cp_sat_s_alone() -> None:
    result = run("cpsat", "solve", square(12), Options(time_limit=120, find_hint=False))
    assert result.status is Status.SOLVED and result.verified and result.unique is None
    assert "solution_hint" not in result.details


def test_small_tours_and_grids_still_decide_uniqueness() -> None:
    problem_a = run("cpsat", "solve", load(MODELS / "knight_problem_a.toml").model)
    assert problem_a.unique is True and problem_a.verified
    sudoku = run("cpsat", "solve", load(MODELS / "sudoku_inkala.toml").model)
    assert sudoku.unique is True and sudoku.verified and "solution_hint" not in sudoku.details


def test_unique_on_the_command_line(cli) -> None:
    import json

    out = json.loads(cli("solve", "knight_8x8", "--engine", "cpsat", "--json").out)
    assert out["unique"] is False      # 64 squares: cheap, decided by default
    assert "--unique" in cli("solve", "--help").out
