"""Text in pictures stays inside them: a caption wraps to its picture's width, and a
symbol wider than its cell is drawn smaller and held to the cell (``textLength``).

Widths are checked against this file's own measure of text: an average sans-serif
character is about half an em, a CJK one a whole em (:data:`AVERAGE`, apart from the
code's more cautious estimate)."""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET

import pytest

from cpsolve.cli import main
from cpsolve.output.draw.chart import layers_svg
from cpsolve.output.draw.svg import wrapped

SVG = "{http://www.w3.org/2000/svg}"
AVERAGE = 0.5
"""An average character's width in ems, in a sans-serif font (a wide one counts twice)."""


def ems(text: str) -> float:
    return sum(2 * AVERAGE if unicodedata.east_asian_width(c) in "WF" else AVERAGE
               for c in text)


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.split("\n", 1)[1] if text.startswith("<?xml") else text)


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def test_lines_are_wrapped_at_spaces_and_a_long_word_is_broken():
    words = "the largest distance is 12, reached by 2 states"
    lines = wrapped(words, 10, 100)
    assert " ".join(lines) == words and len(lines) > 1
    assert all(len(line) * 0.5 * 10 <= 100 for line in lines)
    long = wrapped("x" * 40, 10, 60)  # 40 characters where fewer than 12 fit
    assert "".join(long) == "x" * 40 and len(long) >= 4


def test_a_small_state_space_wraps_its_caption_inside_the_picture(tmp_path):
    """Water jugs: 13 distances make a narrow chart; its caption (86 characters, about 600
    px at 14 px) used to run past the right edge."""
    out = tmp_path / "wj.svg"
    assert main(["analyze", "water_jugs", "--svg", str(out)]) == 0
    root = parse(out.read_text())
    width = float(root.get("width"))
    lines = [t for t in with_class(root, "caption") if float(t.get("y")) < 100]
    caption = root.find(f"{SVG}desc").text
    assert " ".join(t.text for t in lines) == caption  # the whole caption, in order
    assert len(lines) >= 2
    for t in lines:
        assert float(t.get("x")) + ems(t.text) * float(t.get("font-size")) <= width
    # the chart moved down below the caption's last line (its top is 40 px down)
    shift = next(g for g in root.iter(f"{SVG}g") if g.get("transform"))
    down = float(shift.get("transform").split()[-1].rstrip(")"))
    assert 40 + down > float(lines[-1].get("y"))
    assert float(root.get("height")) >= 554 + down  # the picture grew as much


def test_a_long_caption_wraps_in_a_chart_too(tmp_path):
    caption = "a caption " * 30
    root = parse(layers_svg([1, 2, 1], "t", caption.strip()))
    width = float(root.get("width"))
    lines = with_class(root, "caption")
    assert " ".join(t.text for t in lines) == caption.strip()
    assert all(70 + ems(t.text) * 14 <= width for t in lines)


GRID = """family = "grid"
size = 4
groups = ["rows", "columns", "boxes"]
box = [2, 2]
symbols = ["alpha", "b", "gammagammagamma", "d"]
"""


def test_a_symbol_wider_than_its_cell_is_drawn_to_fit(tmp_path, write_model):
    out = tmp_path / "long.svg"
    assert main(["show", str(write_model("long.toml", GRID)), "--svg", str(out)]) == 0
    root = parse(out.read_text())
    cell = float(root.find(f"{SVG}rect").get("width")) / 4  # the board's paper, 4 cells
    symbols = [t for g in with_class(root, "cell") for t in g.iter(f"{SVG}text")]
    assert len(symbols) == 16
    for t in symbols:
        size = float(t.get("font-size"))
        held = t.get("textLength")
        assert (float(held) if held else ems(t.text) * size) < cell, t.text
    long = [t for t in symbols if t.text == "gammagammagamma"]
    short = [t for t in symbols if t.text == "b"]
    assert all(t.get("lengthAdjust") == "spacingAndGlyphs" for t in long)
    assert float(long[0].get("font-size")) < float(short[0].get("font-size"))


@pytest.mark.parametrize("token", ["dragonfly", "甲乙丙丁戊"])
def test_a_sliding_piece_holds_its_long_name(tmp_path, write_model, token):
    text = (f'family = "sliding"\nstart = """\na b c\n{token} _ e\n"""\n'
            f'goal = """\na b c\n_ {token} e\n"""\n')
    out = tmp_path / "s.svg"
    assert main(["show", str(write_model("s.toml", text)), "--svg", str(out)]) == 0
    root = parse(out.read_text())
    piece = next(g for g in with_class(root, "piece") if g.find(f"{SVG}title").text
                 == f"piece {token}")
    body = piece.find(f"{SVG}rect")
    label = piece.find(f"{SVG}text")
    assert float(label.get("textLength")) < float(body.get("width"))
