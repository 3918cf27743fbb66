"""User text in text output is safe (:mod:`cpsolve.output.shown`): control characters,
DEL, C1 and bidi controls are shown escaped, a line break too where it is not the layout's
own; JSON keeps the exact strings."""

from __future__ import annotations

import json
import os
import re

from rich.console import Console
from rich.text import Text

from cpsolve.cli.consoles import console
from cpsolve.output.shown import Lines, escaped, recoded, shown
from cpsolve.puzzles.files import MODELS_DIR

NAME = "\u202e\u0000 jugs \u001b[31mRED\u001b[0m\n\nnewline\u0085\u007f"
"""A model's name as a tester wrote it: a bidi override, NUL, colour codes, line breaks,
a C1 control (NEL) and DEL."""

UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_each_unsafe_character_is_written_as_python_writes_it():
    assert escaped(NAME) == ("\\u202e\\x00 jugs \\x1b[31mRED\\x1b[0m\\n\\nnewline"
                             "\\x85\\x7f")
    assert escaped("8 L jug\n5 L jug", keep_lines=True) == "8 L jug\n5 L jug"
    assert escaped("a\tb\rc", keep_lines=True) == "a\\tb\\rc"
    assert escaped("ünï çødé 水 ┌─┐") == "ünï çødé 水 ┌─┐"  # printable: as it is


def test_styles_stay_on_the_same_characters():
    text = Text("x")
    text.append("\x1b!", style="bold")
    text.append("y", style="red")
    safe = shown(text)
    assert safe.plain == "x\\x1b!y"
    assert [(safe.plain[s.start:s.end], str(s.style)) for s in safe.spans] == \
        [("\\x1b!", "bold"), ("y", "red")]


def test_the_console_prints_every_text_safe():
    """Through the console every command prints with, a name in a headline stays on its
    line, and so does one in a string; a drawing keeps its lines; nothing unsafe reaches
    the terminal."""
    out = console(stderr=False)
    out.file = open(os.devnull, "w")  # noqa: SIM115
    out.record = True
    head = Text()
    head.append(NAME, style="bold")
    head.append("  [search]  optimal")
    out.print(head)
    out.print(Lines(f"start\n{NAME}"))
    out.print(f"a string: {NAME}")
    lines = out.export_text().splitlines()
    assert not any(UNSAFE.search(line) for line in lines)
    assert lines[0].startswith("\\u202e\\x00 jugs \\x1b[31mRED") and "[search]" in lines[0]
    # a drawing's line breaks are kept, its other controls escaped
    assert lines[1:5] == ["start", "\\u202e\\x00 jugs \\x1b[31mRED\\x1b[0m", "",
                          "newline\\x85\\x7f"]
    assert lines[5].startswith("a string: \\u202e") and lines[5].endswith("\\n\\nnewline\\x85\\x7f")


def test_a_plain_console_would_have_passed_them_through():
    """The check above means something: rich alone writes the characters as they are."""
    plain = Console(file=open(os.devnull, "w"), record=True, width=200)  # noqa: SIM115
    plain.print(Text(NAME))
    assert UNSAFE.search(plain.export_text())


def test_a_model_named_with_control_characters(cli, tmp_path):
    """The whole command: text output is safe and its headline one line; JSON keeps the
    name exactly."""
    source = (MODELS_DIR / "water_jugs.toml").read_text(encoding="utf-8")
    model = tmp_path / "h.toml"
    model.write_text(source.replace('name = "Water jugs 8 L and 5 L"',
                                    f"name = {json.dumps(NAME)}"), encoding="utf-8")
    text = cli("solve", model, "--engine", "search")
    assert text.code == 0, text.err
    assert not UNSAFE.search(text.out)
    first = text.out.splitlines()[0]
    assert first.startswith("\\u202e\\x00 jugs ") and "[search]" in first
    done = cli("solve", model, "--engine", "search", "--json")
    assert json.loads(done.out)["model"] == NAME


def test_a_file_name_with_a_line_break_is_one_word_in_a_batch_table():
    """The column is as wide as the name shown (escaped), so the name is never folded."""
    from cpsolve.output.text import batch_columns, batch_head, batch_row

    class Failed:
        source, error, status, puzzle, result = "odd\nname.toml", "no such file", "error", \
            None, None

    out = console(stderr=False)
    out.file = open(os.devnull, "w")  # noqa: SIM115
    out.record = True
    out.width = 80
    columns = batch_columns([Failed.source], ["search"])
    out.print(batch_head(columns))
    out.print(batch_row(Failed(), columns))
    words = out.export_text().split()
    assert "odd\\nname.toml" in words


HOSTILE_LABEL = "ri\u2028g\u202eh\x1bt"
"""A label that would break a drawn board's line (U+2028), reverse the text after it (a bidi
override) and start a terminal's escape sequence."""


def test_a_board_label_with_a_line_separator_a_bidi_override_and_an_escape(cli, tmp_path):
    """A board drawn in lines keeps its own line breaks, and a label in it has each of the
    three escaped (as the command line's error lines have: :mod:`cpsolve.language.quoting`)."""
    source = (MODELS_DIR / "farmer.toml").read_text(encoding="utf-8")
    source = source.replace('pos = ["left", "right"]',
                            f'pos = ["left", {json.dumps(HOSTILE_LABEL)}]')
    source = source.replace(", wolf {pos[1]}, goat {pos[2]}, cabbage",
                            "\\nwolf {pos[1]}\\ngoat {pos[2]}\\ncabbage")
    model = tmp_path / "farmer.toml"
    model.write_text(source, encoding="utf-8")
    run = cli("solve", model, "--engine", "search")
    assert run.code == 0, run.err
    assert not any(ch in run.out for ch in "\u2028\u202e\x1b")
    assert "goat ri\\u2028g\\u202eh\\x1bt" in run.out
    lines = [line.split() for line in run.out.splitlines()]  # the board's lines are kept:
    assert ["farmer", "left", "farmer", "ri\\u2028g\\u202eh\\x1bt"] in [w[:4] for w in lines]


def test_a_drawings_tabs_are_the_spaces_to_the_next_multiple_of_8():
    """A drawing from any family (a Python model's too): a tab was shown as ``\\t`` and
    measured as no width, so its column was cut (``#\\t#…``) and its rows misaligned."""
    out = console(stderr=False)
    out.file = open(os.devnull, "w")  # noqa: SIM115
    out.record = True
    lines = Lines("a\tb\n\tc\nabcdefgh\td")
    out.print(lines)
    assert out.export_text().splitlines() == ["a" + " " * 7 + "b", " " * 8 + "c",
                                              "abcdefgh" + " " * 8 + "d"]
    assert out.measure(lines).maximum == 17  # as wide as it is shown


def test_a_plan_drawn_with_tabs_lines_up(cli, write_model):
    model = write_model("tabs.toml", 'family = "transition"\ngoal = "x[0] == 1 and x[1] == 1"\n'
                        'show = "{x[0]}\\t{x[1]}\\n{x[0]} {x[1]}"\n'
                        '[variables]\nx = { size = 2, domain = [0, 1] }\n[initial]\nx = 0\n'
                        '[[actions]]\nname = "light {i}"\nparams = { i = "range(2)" }\n'
                        'guard = "x[i] == 0"\neffects = { "x[i]" = "1" }\n')
    run = cli("solve", model, "--engine", "search", width="80")
    assert run.code == 0 and "\\t" not in run.out and "…" not in run.out
    lines = run.out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("start"))
    heads, first, second = lines[at:at + 3]
    boxes = [m.start() for m in re.finditer(r"start|\d+\. light", heads)]
    assert len(boxes) == 3  # the start and two steps, side by side
    for p in boxes:  # "x[0]<tab>x[1]" then "x[0] x[1]", from the box's own column
        assert first[p] in "01" and first[p + 1:p + 8] == " " * 7 and first[p + 8] in "01"
        assert second[p] in "01" and second[p + 1] == " " and second[p + 2] in "01"


def test_recoded_text_is_what_the_console_writes_with_its_styles_in_place():
    """On an ASCII console ``ü`` is written ``\\xfc`` (the handler's escape): the text is
    laid out as that, its bold still on ``üge``; text it can write is left as it is."""
    text = Text("Krüge")
    text.stylize("bold", 2, 5)
    written = recoded(text, "ascii", "backslashreplace")
    assert written.plain == "Kr\\xfcge"
    assert [(s.start, s.end, s.style) for s in written.spans] == [(2, 8, "bold")]
    plain = Text("Krug")
    assert recoded(plain, "ascii", "backslashreplace") is plain
    assert recoded(text, "latin-1", "backslashreplace") is text
