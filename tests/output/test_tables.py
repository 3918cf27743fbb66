"""Tables for people stay legible at any width: a word (an engine's name, a number) is
never cut, a long cell wraps without losing a character, a screen too narrow for a table
gets one block per row, and rows printed apart (a batch's) line up under their headers."""

from __future__ import annotations

import os

import pytest
from rich.console import Console

from cpsolve.answers.result import Skipped
from cpsolve.output.tables import NARROWEST, Column, Legible
from cpsolve.output.text import batch_columns, batch_head, batch_row, comparison_table
from cpsolve.puzzles.files import MODELS_DIR, load

REASON = "engine 'pyconstraint': python-constraint has no circuit constraint"


def printed(*renderables, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    for renderable in renderables:  # uncropped, as the commands print tables
        console.print(renderable, crop=False)
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
    assert lines[0] == puzzle.name  # one model: its name above its rows
    if width == 80:  # a table: the reason wraps in its cell, every character kept
        cells = [line.split("│")[1:-1] for line in lines if line.startswith("│")]
        assert [c[0].strip() for c in cells if c[0].strip()] == ["pyconstraint"]
        assert "".join(squeezed(c[1]) for c in cells) == squeezed(REASON)
    else:  # blocks: one line per cell that holds something, the engine's first
        assert lines[1].split() == ["engine", "pyconstraint"]
        assert lines[2].split()[0] == "answer"
        assert squeezed(" ".join(lines[2:]))[len("answer"):] == squeezed(REASON)


def test_blocks_of_one_model_say_engine_as_blocks_of_several_do():
    """``COLUMNS=40 compare water_jugs`` began each block with a bare ``cpsat`` line (one
    model's table has no model column, and a block took its first cell as a title), where
    ``compare water_jugs blocks`` says ``engine  cpsat``: each engine's block now opens
    with its ``engine`` line both ways, under the model's name."""
    from cpsolve.engines import run

    jugs, blocks = load(MODELS_DIR / "water_jugs.toml"), load(MODELS_DIR / "blocks.toml")
    one = [(jugs, run("search", "solve", jugs.model)), (jugs, Skipped("pyconstraint", REASON))]
    two = [*one, (blocks, run("search", "solve", blocks.model))]
    for rows in (one, two):
        lines = printed(comparison_table(rows), width=40)
        assert lines[0] == jugs.name
        opening = [line.split()[:2] for line in lines if line.split()[0] in ("engine", "search",
                                                                             "pyconstraint")]
        assert opening[:2] == [["engine", "search"], ["engine", "pyconstraint"]], lines


def test_words_keep_their_width_and_text_shares_the_rest():
    """40 columns, no lines: 2 cells of padding per column, 12 for the engine's name;
    what is left (24) goes to the text.  A text column gets :data:`NARROWEST` cells at
    least; with fewer, or fewer than its longest word (``python-constraint``, 17) when
    the blocks keep it whole, the rows come as blocks."""
    table = Legible([Column("engine", words=True), Column("reason")],
                    [["pyconstraint", REASON]])
    assert table.widths(40) == [12, 40 - 4 - 12]
    assert table.widths(4 + 12 + 17) == [12, 17]
    assert table.widths(4 + 12 + 16) is None  # blocks: "reason " after 2 cells, 17 left
    short = Legible([Column("engine", words=True), Column("reason")],
                    [["pyconstraint", "no circuit constraint in python"]])
    assert short.widths(4 + 12 + NARROWEST) == [12, NARROWEST]
    assert short.widths(4 + 12 + NARROWEST - 1) is None  # blocks


def test_a_text_column_gets_its_longest_word_when_the_room_allows():
    """At 80 columns a comparison's ``checked`` cell kept ``cross-check`` / ``ed``: each
    text column now has at least its longest word when all of them fit, and what is left
    is shared as before; when they do not fit, the columns share the room as before."""
    checked = "verified; cross-checked by search, fd"
    table = Legible([Column("model"), Column("engine", words=True), Column("checked")],
                    [["Water jugs 8 L and 5 L", "search", checked]])
    widths = table.widths(40)  # room: 40 - 6 padding - 6 engine = 28
    assert widths[2] >= len("cross-checked") and sum(widths) == 40 - 6
    lines = printed(table, width=40)
    assert any("cross-checked" in line for line in lines)
    narrow = Legible([Column("a"), Column("b")], [["x" * 30, "y" * 30]])
    assert narrow.widths(4 + 2 * NARROWEST) == [NARROWEST, NARROWEST]  # words do not fit


COMPARED = ["SEND + MOST = MONEY, most money", "pyconstraint", "objective 10,876 (optimal)",
            "optimal (proven)", "8.845", "verified; cross-checked by cpsat, search, pyconstraint"]
"""A row of ``compare sendmost.toml``: its text columns' longest words, each number with
the word after it (``10,876 (optimal)``: 16), do not all fit beside each other at 80."""


@pytest.mark.parametrize("width", [80, 100])
def test_a_word_is_cut_only_when_no_layout_keeps_it_whole(width):
    """At 80 columns ``compare sendmost.toml`` cut every text column to 10 cells:
    ``cross-check`` / ``ed by``, ``pyconstrain`` / ``t``, ``10,876 (opt`` / ``imal)``.
    The room (80 - 12 padding - 7 lines - 12 engine - 7 seconds = 42) cannot hold the
    longest words with ``10,876 (optimal)`` whole (6 + 16 + 8 + 13 = 43), but holds them
    when a number may part from the word after it (6 + 9 + 8 + 13 = 36): each word of
    each cell is then whole on one line of its column."""
    columns = [Column("model"), Column("engine", words=True), Column("answer"),
               Column("status"), Column("seconds", words=True), Column("checked")]
    lines = printed(Legible(columns, [COMPARED], boxed=True), width=width)
    cells = [line.split("│")[1:-1] for line in lines if line.startswith("│")]
    for i, cell in enumerate(COMPARED):
        shown = [word for row in cells for word in row[i].split()]
        assert shown == cell.split()


def test_rows_whose_words_no_table_holds_come_as_blocks():
    """``compare twotwo.toml mutilated.toml`` at 80 columns: the longest words (10 + 10 +
    10 + 13 = 43, ``chessboard``, ``applicable``, ``infeasible``, ``cross-checked``) do
    not fit the 42 cells of room (above): the rows come as blocks, every word whole."""
    columns = [Column("model"), Column("engine", words=True), Column("answer"),
               Column("status"), Column("seconds", words=True), Column("checked")]
    row = ["Mutilated chessboard", "pyconstraint", "not applicable (cannot solve a csp model)",
           "infeasible (proven)", "16.161", "proof: exhausted search; cross-checked by cpsat"]
    table = Legible(columns, [row], boxed=True)
    assert table.widths(80) is None
    lines = printed(table, width=80)
    assert lines[0] == row[0] and [line.split()[0] for line in lines[1:]] == \
        [column.header for column in columns[1:]]
    assert [squeezed(line)[len(c.header):] for line, c in zip(lines[1:], columns[1:])] == \
        [squeezed(cell) for cell in row[1:]] and len(lines) == 6


def test_a_comparison_names_each_model_once_and_puts_errors_under_the_table():
    """Rows of one model show its name on the first only; an error is a whole line."""
    from cpsolve.engines import run

    puzzle, other = load(MODELS_DIR / "water_jugs.toml"), load(MODELS_DIR / "blocks.toml")
    results = [run(engine, "solve", puzzle.model) for engine in ("search", "search")]
    error = "error: bad.toml: board: unknown key (known: axis, blocks, description)"

    class Unloaded:
        name = ""

    rows = [(puzzle, r) for r in results] + [(other, run("search", "solve", other.model))]
    lines = printed(comparison_table(rows + [(Unloaded(), error)]), width=80)
    names = [line.split("│")[1].strip() for line in lines if line.startswith("│")]
    assert sum("Water" in row for row in names) == 1 and lines[-1] == error
    assert sum("Blocks" in row for row in names) == 1


def test_rows_printed_apart_line_up_under_their_headers():
    """A batch prints its headers, then each row as its instance is solved: every row has
    the columns of the headers, whatever it holds."""
    puzzle = load(MODELS_DIR / "water_jugs.toml")

    class Row:
        def __init__(self, source, result=None, error=""):
            self.source, self.puzzle, self.result, self.error = source, puzzle, result, error
            self.status = "error"  # a row without a result here: a bad file
            self.disagreements = ()

    from cpsolve.engines import run

    result = run("search", "solve", puzzle.model)
    columns = batch_columns(["water_jugs", "a/much/longer/path/to/a/model.toml"],
                            ["search", "invariant"])
    head, *rows = printed(batch_head(columns), batch_row(Row("water_jugs", result), columns),
                          batch_row(Row("a/much/longer/path/to/a/model.toml", None,
                                        "no such file"), columns), width=100)
    assert head.index("engine") == rows[0].index("search")
    assert head.index("status") == rows[0].index("optimal") == rows[1].index("error")
    assert head.index("answer") == rows[0].index("10 moves")
    assert rows[2].strip() == "no such file"  # an error: on its own line, under its row
    seconds = f"{result.seconds:.3f}"
    assert head.index("seconds") + len("seconds") == rows[0].index(seconds) + len(seconds)
    assert head.index("check") == rows[0].index("verified")


class Failed:
    """A batch row without a result: a file that did not load (``error``) or one not
    reached (``not started``), and why."""

    def __init__(self, source: str, error: str, status: str = "error") -> None:
        self.source, self.error, self.status = source, error, status
        self.puzzle = self.result = None


def test_a_pipe_batch_never_cuts_a_file_name_nor_squeezes_an_error():
    """80 columns (a pipe): a file name is a word, whole on its line; a row's error is on
    the line under the row, indented, never a column of a few letters, and one line
    whatever its length, as every error of cpsolve (rich broke it at the screen's width,
    mid-sentence)."""
    sources = ["b/fifteen_puzzle.toml", "b/water_jugs.toml", "nope.toml"]
    columns = batch_columns(sources, ["search", "invariant"])
    error = ("RuntimeError: boom; the engine failed while it compiled the model's actions "
             "of b/fifteen_puzzle.toml")
    lines = printed(batch_head(columns),
                    batch_row(Failed("b/water_jugs.toml", "time limit reached",
                                     "not_started"), columns),
                    batch_row(Failed("nope.toml", "nope.toml: no such file"), columns),
                    batch_row(Failed("b/fifteen_puzzle.toml", error), columns), width=80)
    words = [word for line in lines for word in line.split()]
    assert "b/fifteen_puzzle.toml" in words and "b/water_jugs.toml" in words
    assert "nope.toml: no such file" in [line.strip() for line in lines]
    assert "time limit reached" in [line.strip() for line in lines]
    said = [line for line in lines if "RuntimeError" in line]
    assert len(said) == 1 and said[0].startswith("  ")  # indented under its row
    assert said[0].strip() == error and said[0] == lines[-1]  # one line, longer than 80


def test_a_number_stays_with_its_unit_in_a_cell():
    """``compare water_jugs`` at 80 columns gave the model cell ``Water`` / ``jugs 8`` /
    ``L and`` / ``5 L``: cells wrap as prose does (:mod:`cpsolve.output.prose`).  20
    columns: 4 of padding, 6 for the engine, 10 for the model, where ``8 L and 5 L``
    (11) does not fit and ``8 L`` is not parted."""
    table = Legible([Column("model"), Column("engine", words=True)],
                    [["Water jugs 8 L and 5 L", "search"]], header=False)
    assert Legible([Column("a")], [["8 L"]], header=False).longest_word(0) == 3
    assert table.widths(20) == [10, 6]
    lines = printed(table, width=20)
    assert [line[:11].strip() for line in lines] == ["Water jugs", "8 L and", "5 L"]


def test_a_number_stays_with_its_unit_in_a_block():
    """A row as a block wraps its text cells as prose does too: 21 columns, no room for
    a table beside ``pyconstraint``; the reason gets 21 - 2 (indent) - 6 (``engine``) - 1
    = 12 cells, where ``time limit 3`` would fit but ``3`` is not parted from ``s``."""
    table = Legible([Column("model"), Column("engine", words=True), Column("reason")],
                    [["jugs", "pyconstraint", "time limit 3 s reached"]])
    assert table.widths(21) is None
    lines = printed(table, width=21)
    assert [line.split() for line in lines[2:]] == [["reason", "time", "limit"],
                                                    ["3", "s", "reached"]]


def test_a_plan_a_limit_left_unproven_says_which_limit():
    """CP-SAT's row in ``compare --time-limit 4`` said ``44 moves``, ``solved (not proven
    optimal)`` but not why: its message (the limit, its share, the bound) is under it, as
    for a run cut short without an answer; a proven answer has no such line."""
    from cpsolve.answers.result import Plan, Result, Status, Step

    puzzle = load(MODELS_DIR / "water_jugs.toml")
    plan = Plan.of((Step("fill the 5 L jug", (0, 5)),))
    why = "time limit 4 s reached (its share: 1.57 s); no plan has fewer than 1 step"
    stopped = Result(Status.SOLVED, "cpsat", answer=plan, bound=1, message=why)
    proven = Result(Status.OPTIMAL, "search", answer=plan, message="shortest plan")
    text = squeezed("\n".join(printed(comparison_table([(puzzle, stopped), (puzzle, proven)]),
                                      width=160)))
    assert squeezed(why) in text and squeezed("shortest plan") not in text


def test_one_model_compared_goes_under_its_name_without_a_model_column():
    """``compare water_jugs | cat`` spent 9 of 80 columns repeating one name, wrapped a
    word per line: one model's rows go under its name, the engine first."""
    from cpsolve.engines import run

    puzzle = load(MODELS_DIR / "water_jugs.toml")
    rows = [(puzzle, run("search", "solve", puzzle.model)), (puzzle, Skipped("minizinc", "no"))]
    lines = printed(comparison_table(rows), width=80)
    assert lines[0] == puzzle.name
    assert lines[2].split("┃")[1].strip() == "engine"
    other = load(MODELS_DIR / "blocks.toml")
    two = printed(comparison_table([*rows, (other, run("search", "solve", other.model))]),
                  width=80)
    assert two[1].split("┃")[1].strip() == "model"


def test_two_models_of_one_name_keep_a_model_column_and_a_first_row_each():
    """``compare tri.toml tri2.toml`` (both named "tri") drew one table under one title,
    six rows no one could tell apart: models are told apart by what they are, not their
    names."""
    from dataclasses import replace

    from cpsolve.engines import run

    puzzle = load(MODELS_DIR / "water_jugs.toml")
    twin = replace(puzzle)  # another file, the same name
    rows = [(p, run("search", "solve", p.model)) for p in (puzzle, puzzle, twin)]
    lines = printed(comparison_table(rows), width=100)
    names = [line.split("│")[1].strip() for line in lines if line.startswith("│")]
    assert lines[1].split("┃")[1].strip() == "model"
    assert [n for n in names if n] == ["Water jugs 8 L and 5 L"] * 2


class Solved:
    """A batch row with a result."""

    def __init__(self, source: str, puzzle, result) -> None:
        self.source, self.puzzle, self.result = source, puzzle, result
        self.error, self.disagreements = "", ()


def test_a_batch_at_80_columns_keeps_its_table_and_a_long_name_goes_on_its_own_line():
    """``solve models/water_jugs.toml models/eight_puzzle.toml models/hanoi4.toml | cat``
    gave up its table for blocks at 80 columns: the instance column, 24 cells for
    ``models/eight_puzzle.toml``, left the text columns less than their 10 cells each
    (80 - 12 padding - 24 - 9 engine - 11 status - 8 seconds = 16).  The instance now
    takes what the others leave it (80 - 12 - 28 - 20 = 20 cells): a name wider than that
    goes whole on a line of its own, its row's cells on the next line under the headers;
    a shorter one stays on its row.  Blocks come only when the others do not fit beside
    the header ``instance`` (12 + 8 + 28 + 20 = 68 columns)."""
    from cpsolve.engines import run

    puzzle = load(MODELS_DIR / "water_jugs.toml")
    result = run("search", "solve", puzzle.model)
    sources = ["models/water_jugs.toml", "models/eight_puzzle.toml", "models/hanoi4.toml"]
    columns = batch_columns(sources, ["search", "cpsat", "invariant"])
    head, *lines = printed(batch_head(columns),
                           *(batch_row(Solved(s, puzzle, result), columns) for s in sources),
                           width=80)
    assert head.split() == ["instance", "engine", "status", "answer", "seconds", "check"]
    assert [line.strip() for line in lines[0:4:2]] == sources[:2]  # whole, on their own
    for row in (lines[1], lines[3], lines[4]):
        assert row.index("search") == head.index("engine")
        assert row.index("optimal") == head.index("status")
        assert row.index("10 moves") == head.index("answer")
        assert row.index("verified") == head.index("check")
    assert lines[1].split()[0] == "search" and lines[4].split()[0] == "models/hanoi4.toml"
    assert len(lines) == 5 and all(len(line) <= 80 for line in [head, *lines])
    assert Legible(columns, [], fixed=True).widths(68) is not None
    assert Legible(columns, [], fixed=True).widths(67) is None  # blocks
