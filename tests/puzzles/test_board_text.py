"""A board read back from an answer's text: its shape is checked before anything else is
(grids' symbols and tours' visiting numbers share the reader)."""

from __future__ import annotations

import pytest

from cpsolve.puzzles.board_text import board_rows
from cpsolve.puzzles.files import MODELS_DIR, load


def digits(token: str) -> bool:
    return token.isdigit()


def test_the_first_board_is_read_and_what_follows_it_is_not():
    """A frame and box rules are skipped; the panel's bottom edge ends the board, so a
    second board below it is not read."""
    text = ["\u256d\u2500 solution \u2500\u256e", "\u2502 1 2 | 3 4 \u2502",
            "\u2502 ----+---- \u2502", "\u2502 3 4 | 1 2 \u2502", "\u2570\u2500\u2500\u256f",
            "\u2502 5 6 | 7 8 \u2502"]
    assert board_rows(text, (2, 4), digits, "digits") == [["1", "2", "3", "4"],
                                                           ["3", "4", "1", "2"]]


@pytest.mark.parametrize("lines, said", [
    (["1 2 3", "4 5"], "row 2 has 2 symbols"),
    (["1 2 3"], "found 1 such rows"),
    (["1 2 3", "4 5 6", "7 8 9"], "found 3 such rows"),
    (["1 2 3", "4 5 6", "-----", "7 8 9"], "found 3 such rows"),  # a rule between
    (["1 2 3", "4 a 6"], "row 2, column 2: 'a' is not one of them"),
], ids=["row-short", "rows-short", "row-more", "row-more-past-a-rule", "not-a-symbol"])
def test_a_board_of_another_shape_says_how(lines, said):
    with pytest.raises(ValueError) as caught:
        board_rows(lines, (2, 3), digits, "digits")
    assert str(caught.value) == f"expected 2 rows of 3 symbols (digits): {said}"


def test_a_blank_line_ends_the_board():
    assert board_rows(["1 2 3", "4 5 6", "", "7 8 9"], (2, 3), digits, "digits") == \
        [["1", "2", "3"], ["4", "5", "6"]]


def test_a_grid_with_a_row_too_many_is_unreadable():
    """A 4x4 sudoku answer with a fifth row right under the fourth was read as its first
    four rows; the shape is the grid's, so it is not a 4x4 board."""
    puzzle = load(MODELS_DIR / "sudoku4.toml")
    rows = ["1 2 3 4", "3 4 1 2", "2 1 4 3", "4 3 2 1"]
    assert len(puzzle.read_solution("\n".join(rows))) == 16
    with pytest.raises(ValueError, match="expected 4 rows of 4 symbols .*: found 5 such rows"):
        puzzle.read_solution("\n".join([*rows, "1 2 3 4"]))
