"""Text boards are padded by terminal cells: a CJK character or an emoji takes two, a
combining mark none.  Grid and sliding boards line up whatever their symbols' widths
(columns counted here with :mod:`unicodedata`, apart from the code)."""

from __future__ import annotations

import json
import unicodedata

import pytest

from cpsolve.puzzles import widths
from cpsolve.puzzles.files import load


def columns(line: str) -> list[int]:
    """The terminal column each character of ``line`` starts at (counted here: W/F = 2)."""
    out, at = [], 0
    for ch in line:
        out.append(at)
        if not unicodedata.combining(ch):
            at += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return out


def width(line: str) -> int:
    starts = columns(line + "x")
    return starts[-1]


@pytest.mark.parametrize("text, cells", [("abc", 3), ("甲乙", 4), ("🍎", 2), ("e\u0301", 1),
                                         ("Ａ", 2), ("", 0), ("a 🐶 b", 6)])
def test_cells_count_wide_characters_twice_and_combining_marks_not_at_all(text, cells):
    assert widths.cells(text) == cells


def test_padding_goes_by_cells():
    assert widths.rjust("甲", 3) == " 甲"
    assert widths.ljust("🍎", 4) == "🍎  "
    assert widths.rjust("-", 2, "-") == "--"
    assert widths.ljust("甲乙", 3) == "甲乙"  # already wider: as it is


def grid_file(symbols: list[str], givens: str = "") -> str:
    text = (f'family = "grid"\nsize = 4\ngroups = ["rows", "columns", "boxes"]\n'
            f"box = [2, 2]\nsymbols = {json.dumps(symbols, ensure_ascii=False)}\n")
    return text + (f"givens = '''\n{givens}\n'''\n" if givens else "")


@pytest.mark.parametrize("names", [["🍎", "🍌", "🍇", "🍒"], ["甲", "乙", "丙", "丁"],
                                   ["1", "乙", "3", "丁"]])
def test_a_grid_board_lines_up_box_walls_and_rules(write_model, names):
    givens = f"{names[0]} {names[1]} . .\n. . . .\n. . . {names[0]}\n. . {names[3]} ."
    drawn = load(write_model("g.toml", grid_file(names, givens))).draw(None)
    lines = drawn.splitlines()
    assert len(lines) == 5  # four rows and one rule between the boxes
    assert len({width(line) for line in lines}) == 1, drawn  # every line as wide
    walls = {columns(line)[line.index("|" if "|" in line else "+")] for line in lines}
    assert len(walls) == 1, drawn  # the rule's + under every row's |
    for line in lines:  # every cell as wide as the widest symbol (2), right-aligned
        if "|" in line:
            cells = line.replace(" | ", "  ").split(" ")
            assert all(c == "" or width(c) <= 2 for c in cells)


def test_sliding_boards_keep_their_columns_with_wide_pieces(write_model):
    text = ('family = "sliding"\nstart = """\n🐶 🐱 🐭\n🐹 _ 🐰\n"""\n'
            'goal = """\n🐶 🐱 🐭\n_ 🐹 🐰\n"""\n')
    puzzle = load(write_model("s.toml", text))
    drawn = puzzle.render_state(puzzle.model.initial_state())
    top, bottom = drawn.splitlines()
    starts = [[columns(line)[i] for i, ch in enumerate(line)
               if ch != " " and (i == 0 or line[i - 1] == " ")] for line in (top, bottom)]
    assert starts[0] == starts[1] == [0, 3, 6], drawn  # each token padded to 2 cells


def test_a_mixed_width_sliding_board_pads_to_the_widest_piece(write_model):
    text = ('family = "sliding"\nstart = """\n4 1 2\n5 _ 三\n"""\n'
            'goal = """\n1 2 三\n4 5 _\n"""\n')
    puzzle = load(write_model("s.toml", text))
    drawn = puzzle.render_state(puzzle.model.initial_state())
    assert drawn.splitlines() == ["4  1  2", "5  _  三"]
