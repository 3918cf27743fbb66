"""Untrusted text made fit to show (:mod:`cpsolve.language.quoting`): the one escaper, used by the
text output and the command line's error lines alike, and the one shortener."""

from __future__ import annotations

from cpsolve.cli.arguments import printable
from cpsolve.language.quoting import escaped, figure, named, short_number, shorten, shown
from cpsolve.output.shown import escaped as shown_escaped

UNSAFE = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\x9b", "\u061c", "\u200e", "\u202e",
          "\u2066", "\u2069", "\u2028", "\u2029", "\udcff", "\ud800"]
"""One of each kind: C0 controls, DEL, C1 controls (NEL, CSI), bidi controls, the line and
paragraph separators, lone surrogates (a file name's byte 0xff, as Python holds it)."""


def test_each_unsafe_character_is_written_as_python_writes_it():
    for ch in UNSAFE:
        assert escaped(f"a{ch}b") == "a" + ascii(ch)[1:-1] + "b"
    assert escaped("a\u2028b") == "a\\u2028b" and escaped("a\u202eb") == "a\\u202eb"
    assert escaped("ünï 水 ┌─┐ \u00a0") == "ünï 水 ┌─┐ \u00a0"  # printable, or a space


def test_an_error_line_escapes_the_same_characters_as_the_text_output():
    """``printable`` (every error line) and the text output escape one set alike: a line
    separator is escaped, not taken for white space."""
    for ch in UNSAFE:
        assert printable(f"no such file: a{ch}b") == shown_escaped(f"no such file: a{ch}b")
    assert printable("bad\u2028file\u202e\x1b[31m") == "bad\\u2028file\\u202e\\x1b[31m"
    assert printable("  two\n\tlines  ") == "two lines"  # a message's own layout: one line


def test_shorten_cuts_around_a_place_and_marks_each_cut_end():
    assert shorten("abc") == "'abc'" and shorten("abc", quote=False) == "abc"
    text = "x" * 50 + "HERE" + "y" * 50
    assert shorten(text, at=50, width=10) == "...'xxxxxHEREy'..."
    assert shorten(text, width=10, quote=False) == "xxxxxxxxxx..."
    assert shorten(text, at=len(text), width=4, quote=False) == "...yyyy"


def test_short_number_writes_any_integer_as_3g_would():
    """As ``f"{n:.3g}"`` while a float holds ``n``; past that (no float, and past 4,300
    digits no ``str``) the same form, worked out in integers."""
    assert short_number(10 ** 20) == "1e+20" and short_number(-1234) == "-1.23e+03"
    assert short_number(10 ** 400) == "1e+400" and short_number(-10 ** 400) == "-1e+400"
    assert short_number(1234 * 10 ** 5000) == "1.23e+5003"
    assert short_number(10 ** 401 - 1) == "1e+401"  # 9.99...e+400 rounds up a power
    assert short_number(2 * 10 ** 299) == "2e+299" and short_number(2 * 10 ** 300) == "2e+300"


def test_figure_writes_every_64_bit_integer_in_full_and_no_more():
    assert figure(2 ** 63) == "9,223,372,036,854,775,808" and figure(-5, False) == "-5"
    assert figure(10 ** 21) == "1e+21" and figure(-(10 ** 5000), False) == "-1e+5000"


def test_shown_is_repr_for_a_short_value_and_cut_for_a_long_one():
    assert shown("abc") == "'abc'" and shown([1, {"a": True}]) == "[1, {'a': True}]"
    assert shown("x" * 5000) == "'" + "x" * 60 + "'..."
    assert shown(list(range(3000))) == repr(list(range(3000)))[:60] + "..."


def test_a_file_name_is_quoted_only_when_its_ends_would_be_lost():
    """``error: : no such file`` named a file called ' ' by nothing one could see."""
    assert named("models/water_jugs.toml") == "models/water_jugs.toml"
    assert named(" ") == "' '" and named("water_jugs ") == "'water_jugs '"
    assert named("x\n") == "'x\\n'"
    long = "d/" * 1000 + "f"
    assert named(long) == long  # never cut: a cut name names no file
