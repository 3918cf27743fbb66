"""Tables for people stay legible at any width: a word (an engine's name, a number) is
never cut, a long cell wraps without losing a character, a screen too narrow for a table
gets one block per row."""

from __future__ import annotations

import os

import pytest
from rich.console import Console

from cpsolve.answers.result import Skipped
from cpsolve.output.tables import NARROWEST, Column, Legible
from cpsolve.output.text import comparison_table
from cpsolve.puzzles.files import MODELS_DIR, load

REASON = "engine 'pyconstraint': python-constraint has no circuit constraint"


def printed(*renderables, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    for renderable in renderables:
        console.print(renderable)
    return console.export_text().splitlines()


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("width", [80, 40])
def test_a_skipped_engine_keeps_its_name_and_its_whole_reason(width):
    """``compare knight_8x8 --task count | cat`` (80 columns) cut the name to
    ``pyconstrai…`` and the reason to fragments; at 40 columns the rows are blocks."""
    puzzle = load(MODELS_DIR / "knight_8x8.toml")
    lines = printed(comparison_table([(puzzle, Skipped("pyconstraint", REASON))]), width=width)
    text = "\n".join(lines)
    assert "…" not in text and all(len(line) <= width for line in lines)
    if width == 80:  # a table: the reason wraps in its cell, every character kept
        cells = [line.split("│")[1:-1] for line in lines if line.startswith("│")]
        assert [c[1].strip() for c in cells if c[1].strip()] == ["pyconstraint"]
        assert "".join(squeezed(c[2]) for c in cells) == squeezed(REASON)
    else:  # blocks: the model, then one line per cell that holds something
        assert lines[0].strip() == puzzle.name
        assert lines[1].split() == ["engine", "pyconstraint"]
        assert lines[2].split()[0] == "answer"
        assert squeezed(" ".join(lines[2:]))[len("answer"):] == squeezed(REASON)


def test_words_keep_their_width_and_text_shares_the_rest():
    """40 columns, no lines: 2 cells of padding per column, 12 for the engine's name;
    what is left (24) goes to the text."""
    table = Legible([Column("engine", words=True), Column("reason")],
                    [["pyconstraint", REASON]])
    assert table.widths(40) == [12, 40 - 4 - 12]
    assert table.widths(4 + 12 + NARROWEST) == [12, NARROWEST]
    assert table.widths(4 + 12 + NARROWEST - 1) is None  # blocks
