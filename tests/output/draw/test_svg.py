"""The SVG writer: attributes written as ``quoteattr`` writes them, and what many elements of
a picture would each say (a tour's 64 numbered discs) said once, in a style the boards of a
page share."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.sax.saxutils import quoteattr

from cpsolve.engines import Options, run
from cpsolve.output.draw import picture
from cpsolve.output.draw.page import gallery_page
from cpsolve.output.draw.svg import attrs, shared_styles
from cpsolve.puzzles.files import load, resolve

SVG = "{http://www.w3.org/2000/svg}"


def test_attributes_are_quoted_as_quoteattr_quotes_them():
    values = ["12", "#d9480f", "a b", 'say "hi"', "it's", 'both " and \'', "<&>", "tab\there",
              "line\nbreak", "é ✓", ""]
    for value in values:
        assert attrs(title=value) == f" title={quoteattr(value)}"
    assert attrs(class_="a", stroke_width=1.5, font_size=None, x_="1") == \
        ' class="a" stroke-width="1.5" x="1"'


def test_a_tour_says_how_its_discs_look_once():
    """Each of the 36 visits of a 6x6 tour was a disc with its fill, stroke and width and a
    number with six presentation attributes (21 KB an 8x8 board, 42 MB a gallery of 2,000):
    the picture's style says them once; the first visit, accented, is a class."""
    puzzle = load(resolve("knight_6x6"))
    svg = picture(puzzle, run("search", "solve", puzzle.model).solution).svg
    root = ET.fromstring(svg)
    assert len(root.findall(f"{SVG}style")) == 1
    visits = [g for g in root.iter(f"{SVG}g") if "visit" in (g.get("class") or "").split()]
    assert len(visits) == 36 and visits[0].get("class") == "visit first"
    for visit in visits:
        for element in visit:
            assert set(element.attrib) <= {"cx", "cy", "r", "x", "y"}, element.attrib
    assert [v.find(f"{SVG}text").text for v in visits] == [str(k) for k in range(1, 37)]


def test_a_gallery_holds_one_style_for_all_its_boards():
    puzzle = load(resolve("knight_6x6"))
    result = run("search", "count", puzzle.model, Options(limit=3, keep=True))
    html = gallery_page(puzzle, result)
    boards = re.findall(r"<svg .*?</svg>", html, re.S)
    assert len(boards) == 3
    assert html.count("<style>") == 2  # the page's, and the first board's for all three
    assert "<style>" in boards[0] and all("<style>" not in b for b in boards[1:])


def test_shared_styles_leave_out_only_a_style_said_before():
    one, other = "<svg><style>a{}</style><g/></svg>", "<svg><style>b{}</style><g/></svg>"
    assert shared_styles([one, other, one, "<svg/>"]) == [one, other, "<svg><g/></svg>",
                                                          "<svg/>"]
