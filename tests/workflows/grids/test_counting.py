"""Counting a grid up to symmetry: a grid with givens is refused, and the docs say so."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.model.symmetry.declared import SymmetryError
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import count_up_to

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("up_to", ["symmetry", "relabel"])
def test_a_grid_with_givens_is_refused_and_both_pages_say_so(up_to):
    puzzle = load(ROOT / "models" / "sudoku_inkala.toml")  # 9x9 sudoku with givens
    with pytest.raises(SymmetryError) as info:
        count_up_to(puzzle.model, None, up_to, "search")
    said = str(info.value)
    assert said.startswith("the givens break the symmetry")
    for page in ("docs/families/grid.md", "docs/how-to/count-up-to-symmetry.md"):
        text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
        assert said in text, page


def test_an_enumeration_stopped_says_stopped_once():
    """A count up to symmetry cut short by Ctrl-C: the engine's own words begin with
    ``stopped``, and the reason said ``enumeration stopped: stopped: interrupted``."""
    from cpsolve.answers.result import Result, Status
    from cpsolve.workflows.grids.counting import _unfinished

    stopped = Result(Status.UNKNOWN, "search", "count",
                     message="stopped: interrupted; at least 0 solutions")
    assert _unfinished(stopped, 0, 0, 0) == "enumeration stopped: interrupted; at least 0 solutions"
    other = Result(Status.UNKNOWN, "search", "count", message="interrupted")
    assert _unfinished(other, 0, 0, 0) == "enumeration stopped: interrupted"
