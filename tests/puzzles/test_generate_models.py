"""Issue 26: ``generate`` on csp and tour models (not only grids).

Each generated puzzle is re-counted here with its givens fixed (one
solution), and drawn: a puzzle's givens are a partial assignment, which the
csp ``show`` template draws with ``?`` and a tour as its given moves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import with_givens
from cpsolve.workflows.grids.generator import Generator

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path, givens", [
    (ROOT / "examples" / "queens.toml", 3),
    (ROOT / "models" / "knight_open_5x5.toml", 2),
])
def test_generated_puzzles_have_one_solution_by_an_independent_count(path, givens):
    puzzle = load(path)
    gen = Generator(puzzle.model, puzzle.symmetry(), "cpsat")
    found = gen.random(givens, 3, seed=1)
    assert found.puzzles
    for p in found.puzzles:
        assert len(p.givens) == givens
        counted = run("search", "count", with_givens(puzzle.model, p.givens),
                      Options(time_limit=60))
        assert counted.status is Status.EXACT and counted.count == 1
        assert puzzle.render_solution(p.givens)  # a partial assignment draws


def test_generate_on_a_csp_and_a_tour_from_the_command_line(cli):
    result = cli("generate", ROOT / "examples" / "queens.toml", "--givens", "3", "--random",
                 "2", "--seed", "1")
    assert result.code == 0, result.err
    assert "columns by row: " in result.out and "?" in result.out
    result = cli("generate", ROOT / "models" / "knight_problem_a.toml", "--givens", "2",
                 "--random", "2", "--seed", "1")
    assert result.code == 0, result.err
    assert "given moves: (" in result.out
