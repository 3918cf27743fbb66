"""Lines for people that wrap well: between words, a number never parted from its unit, a
line of items between its items, the lines after the first under their indent."""

from __future__ import annotations

import os

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cpsolve.output.prose import Prose, each_lines, items


def printed(renderable, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_a_number_stays_with_its_unit():
    # rich alone: "aaaa 0.3" fills the 8 cells and "s" goes on alone
    assert printed(Text("aaaa 0.3 s"), 8) == ["aaaa 0.3", "s"]
    assert printed(Prose("aaaa 0.3 s"), 8) == ["aaaa", "0.3 s"]


@pytest.mark.parametrize("text, width, lines", [
    ("aaaa 0.3 s", 8, ["aaaa", "0.3 s"]),
    ("took 1,234 moves", 12, ["took", "1,234 moves"]),
    ("a plan (11 jumps) here", 10, ["a plan", "(11 jumps)", "here"]),
    ("cost 5 or less", 6, ["cost", "5 or", "less"]),
])
def test_no_line_ends_on_a_number_that_a_word_follows(text, width, lines):
    assert printed(Prose(text), width) == lines


def test_a_number_parts_from_its_unit_rather_than_a_word_be_cut():
    """``10,876 (optimal)`` on lines of 12 cells came as ``10,876 (opt`` / ``imal)``: a
    number and the word after it too wide for a line now part, each word whole."""
    assert printed(Prose("objective 10,876 (optimal)"), 12) == \
        ["objective", "10,876", "(optimal)"]
    assert Prose("10,876 (optimal)").widest(12) == len("(optimal)")
    assert Prose("10,876 (optimal)").widest(16) == len("10,876 (optimal)")


def test_a_line_of_items_wraps_between_its_items():
    title = items([Text("Water jugs", style="bold"), "[search]", "optimal (proven)",
                   "10 moves", "0.085 s", "verified"])
    # 10 + 2 + 8 + 2 + 16 = 38 cells, and "  10 moves" would take it to 48
    assert printed(title, 40) == ["Water jugs  [search]  optimal (proven)",
                                  "  10 moves  0.085 s  verified"]
    assert printed(title, 80) == ["Water jugs  [search]  optimal (proven)  10 moves  0.085 s"
                                  "  verified"]


def test_an_item_wider_than_a_line_wraps_inside_folded_never_cut():
    assert printed(items(["a", "x" * 50]), 40) == ["a", "  " + "x" * 38, "  " + "x" * 12]
    words = "one two three four five six seven eight nine ten"  # 48 cells
    # too wide to keep whole: it starts where it is, and wraps at its spaces
    assert printed(items(["head", words]), 30) == ["head  one two three four five",
                                                   "  six seven eight nine ten"]


def test_empty_items_are_left_out():
    assert printed(items(["a", "", Text(), "b"]), 40) == ["a  b"]


def test_the_lines_after_the_first_keep_the_indent():
    note = Prose(Text("  " + "word " * 20, style="dim"), hang=2)
    lines = printed(note, 40)
    assert len(lines) == 3 and all(line.startswith("  word") for line in lines)
    assert max(map(len, lines)) <= 40
    assert " ".join(line.strip() for line in lines) == " ".join(["word"] * 20)


@pytest.mark.parametrize("width", range(30, 70))
def test_in_a_grid_the_text_wraps_in_its_column(width):
    note = "not started: search proved the answer within its 0.3 s head start"
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row("cpsat", Prose(note))
    lines = printed(grid, width)
    assert lines[0].startswith("cpsat not started:")
    assert all(line.startswith("      ") and line[6] != " " for line in lines[1:])
    assert max(map(len, lines)) <= width
    assert " ".join(line[6:] for line in lines) == note
    assert any("0.3 s" in line for line in lines)


def test_unsafe_characters_are_escaped_before_the_lines_are_measured():
    lines = printed(items(["a\x1bb", "c"]), 40)
    assert lines == ["a\\x1bb  c"]


def test_each_line_keeps_its_own_break_and_indent():
    summary = "7 moves, each a chain:\n  move 1: r1c1-r3c3\n  move 2: r4c4-r2c2 r2c2-r4c4"
    lines = printed(each_lines(summary.splitlines())[2], 20)
    assert lines == ["  move 2: r4c4-r2c2", "  r2c2-r4c4"]
    assert [printed(p, 80)[0] for p in each_lines(summary.splitlines())] == summary.splitlines()
