"""Text made safe for a terminal: every piece of text the console prints passes through
:func:`shown` (:func:`cpsolve.cli.consoles.console`), so user text — a model's name, its
description, action names, labels, file names — can neither colour nor move the screen
nor break a line.

Control characters (C0 but the line breaks and tabs of a drawing, DEL, C1), the
characters that reorder text (bidi controls) and the line and paragraph separators (U+2028,
U+2029) are shown escaped, as Python writes them (``\\x1b``, ``\\u202e``): :func:`escaped`,
the one escaper of untrusted text (:mod:`cpsolve.language.quoting`; the command line's error lines
use it too).  A line break is escaped too (``\\n``) except in :class:`Lines`: text whose
line breaks are cpsolve's own layout (a board, a plan's boxes, a list of lines).  JSON
does not pass here: it keeps the exact strings.
"""

from __future__ import annotations

import re

from rich.text import Span, Text

from ..language.quoting import UNSAFE, UNSAFE_IN_LINES, escape, escaped

__all__ = ["Lines", "escaped", "recoded", "shown"]
"""What this module gives (:func:`escaped` is :mod:`cpsolve.language.quoting`'s)."""


class Lines:
    """Text whose line breaks are the layout's own (a drawing, lines listed one under the
    other): they are kept, and a tab is the spaces to the next multiple of 8 columns (as a
    terminal shows it: a drawing's columns line up); any other control character is
    escaped.  ``text``: a string (``options``: :class:`~rich.text.Text`'s) or a text."""

    def __init__(self, text: str | Text = "", **options) -> None:
        self.text = Text(text, **options) if isinstance(text, str) else text.copy()
        self.text.expand_tabs(8)

    @property
    def plain(self) -> str:
        """The text, unescaped."""
        return self.text.plain

    def __rich_console__(self, console, options):
        yield _safe(self.text, UNSAFE_IN_LINES, _Kept)

    def __rich_measure__(self, console, options):
        return self.text.__rich_measure__(console, options)


class _Kept(Text):
    """The text of :class:`Lines`, made safe: printed as it is."""


def shown(renderable):
    """What the console prints for ``renderable``: a :class:`~rich.text.Text` with its
    unsafe characters escaped, its styles kept on the same characters; anything else as
    it is (its own text passes here when it is drawn)."""
    if not isinstance(renderable, Text) or isinstance(renderable, _Kept):
        return renderable  # a string becomes a text first (``Console.render_str``)
    return _safe(renderable, UNSAFE, Text)


def recoded(renderable, encoding: str, errors: str):
    """``renderable`` as a console in ``encoding`` writes it: a text's characters that
    ``encoding`` cannot write as the codecs error handler ``errors`` writes them (an
    escape, a stand-in), styles kept on the same characters; anything else as it is.
    Laid out so, a row is as wide as it looks (``\\xfc`` is four columns, not one).  A
    string: the string written."""
    if isinstance(renderable, str):
        return recoded(Text(renderable), encoding, errors).plain
    if not isinstance(renderable, Text):
        return renderable

    def written(ch: str) -> str:
        return ch.encode(encoding, errors).decode(encoding)

    try:
        written("?")
    except LookupError:  # an encoding or handler Python does not know: left as it is
        return renderable
    plain = renderable.plain
    if all(written(ch) == ch for ch in set(plain)):
        return renderable
    return _mapped(renderable, written, type(renderable))


def _safe(text: Text, unsafe: re.Pattern, kind: type[Text]) -> Text:
    """``text`` as a ``kind``, each ``unsafe`` character escaped, styles kept in place."""
    if not unsafe.search(text.plain):
        return text if kind is Text else _mapped(text, str, kind)
    return _mapped(text, lambda ch: escape(ch) if unsafe.fullmatch(ch) else ch, kind)


def _mapped(text: Text, change, kind: type[Text]) -> Text:
    """``text`` as a ``kind``, each character as ``change`` gives it, styles kept on the
    same characters."""
    plain = text.plain
    starts, pieces, at = [], [], 0
    for ch in plain:
        starts.append(at)
        pieces.append(change(ch))
        at += len(pieces[-1])
    starts.append(at)
    spans = [Span(starts[min(s.start, len(plain))], starts[min(s.end, len(plain))], s.style)
             for s in text.spans]
    safe = kind("".join(pieces), style=text.style, justify=text.justify,
                overflow=text.overflow, no_wrap=text.no_wrap, end=text.end,
                tab_size=text.tab_size)
    safe.spans = spans
    return safe
