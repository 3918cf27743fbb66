"""The SVG writer: attributes written as ``quoteattr`` writes them."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from cpsolve.output.draw.svg import attrs


def test_attributes_are_quoted_as_quoteattr_quotes_them():
    values = ["12", "#d9480f", "a b", 'say "hi"', "it's", 'both " and \'', "<&>", "tab\there",
              "line\nbreak", "é ✓", ""]
    for value in values:
        assert attrs(title=value) == f" title={quoteattr(value)}"
    assert attrs(class_="a", stroke_width=1.5, font_size=None, x_="1") == \
        ' class="a" stroke-width="1.5" x="1"'
