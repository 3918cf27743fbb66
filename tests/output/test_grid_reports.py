"""Text and JSON of a generation: what the second engine re-solved is said as it was —
every puzzle, some, or none (a check of nothing is no cross-check)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.output.grids import human_generation, json_generation
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.generated import Generated, Generation

MODELS = Path(__file__).resolve().parents[2] / "models"

GIVENS = {"cell[0][0]": 1}
"""Givens and a solution for the drawing only: what is said about the check reads neither."""


@pytest.mark.parametrize(("checked", "json", "text"), [
    ((), [], "nothing re-solved by search"),  # no puzzle made
    ((None, None), [], "nothing re-solved by search"),  # a check stopped before the first
    (("search", None), [], "1 re-solved by search: unique"),  # stopped midway
    (("search", "search"), ["search"], "each re-solved by search: unique"),
])
def test_a_cross_check_names_the_engine_only_when_it_re_solved_every_puzzle(checked, json,
                                                                            text):
    puzzle = load(MODELS / "sudoku4.toml")
    sym = puzzle.symmetry()
    solution = dict.fromkeys(puzzle.model.domains, 1)
    gen = Generation(4, "random", tuple(Generated(GIVENS, solution, None, c) for c in checked),
                     details={"engine": "cpsat", "asked": 2, "checked_by": "search"})
    (item,) = json_generation(puzzle, sym, [gen], "cpsat", boards=False)["givens"]
    assert item["cross_checked_by"] == json
    lines = [str(part) for part in human_generation(puzzle, sym, [gen], "cpsat", False, 200)]
    said = [line for line in lines if "re-solved" in line]
    assert len(said) == 1 and said[0].endswith(text), said


def test_no_check_says_nothing_of_one():
    puzzle = load(MODELS / "sudoku4.toml")
    gen = Generation(4, "exhaustive", ())
    (item,) = json_generation(puzzle, puzzle.symmetry(), [gen], "cpsat", boards=False)["givens"]
    assert item["cross_checked_by"] == []
    lines = [str(p) for p in human_generation(puzzle, puzzle.symmetry(), [gen], "cpsat", False,
                                              200)]
    assert not any("re-solved" in line for line in lines)


def test_boards_side_by_side_keep_their_columns_with_wide_symbols():
    """Each board starts at the same terminal column on every line (wide CJK characters
    take two columns; counted here by hand: '甲 乙' is 5 columns, '. .' 3)."""
    from cpsolve.output.grids import GAP, tile

    text = tile([("#1", "甲 乙\n. ."), ("#2", ". .\n甲 乙")], 80)
    lines = text.splitlines()
    assert lines[0] == "#1" + " " * 3 + GAP + "#2"  # '#1' padded to 5 columns
    assert lines[1] == "甲 乙" + GAP + ". ."
    assert lines[2] == ". ." + " " * 2 + GAP + "甲 乙"
