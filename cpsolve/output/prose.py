"""Lines for people that wrap well on any screen (:class:`Prose`).

rich wraps text at any space, so at 80 columns a title came as ``... 0.085`` over
``s  verified``, and a note under an indent went on at column 0.  :class:`Prose` wraps
between words but never between a number and the word after it (``0.3 s``, ``10 moves``,
``8 L``); a line of items (:func:`items`: a title's name, engine, status, answer, time)
wraps between its items, an item that fits a line never split; and the lines after the
first are indented by a ``hang`` (a title's go on two cells in; an engine's note, in its
column of a grid, stays in its column).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len
from rich.measure import Measurement
from rich.text import Text

from .shown import shown

BOUND = re.compile(r"(?<!\S)\(?[-+]?\d[\d,.]*%?( +)(?=\S)")
"""A number, and the spaces after it that no line may break at (group 1)."""

WORD = re.compile(r"\S+ *")
"""What a line breaks before: a run of what is not a space, with the spaces after it."""

HELD = "\x00"
"""A space no line breaks at, while the breaks are worked out (shown text holds none)."""


class Prose:
    """``text`` wrapped between its words, a number never parted from the word after it,
    each span of ``whole`` (offsets in the text as shown) never parted when it fits a
    line; every line but the first indented by ``hang`` cells."""

    def __init__(self, text: Text | str, hang: int = 0,
                 whole: Sequence[tuple[int, int]] = ()) -> None:
        self.text = shown(Text(text) if isinstance(text, str) else text)  # as wide as shown
        self.hang, self.whole = hang, list(whole)

    @property
    def plain(self) -> str:
        """The text as it is shown, on one line."""
        return self.text.plain

    def __rich_console__(self, console, options):
        for n, line in enumerate(self.text.divide(self.breaks(options.max_width))):
            line.rstrip()
            if n and self.hang:
                line.pad_left(self.hang)
            line.end = "\n"
            yield line

    def __rich_measure__(self, console, options) -> Measurement:
        return Measurement(self.widest(options.max_width) + self.hang, cell_len(self.plain))

    def widest(self, line: int) -> int:
        """The widest piece no break parts (a word, a number with the word after it) on
        lines ``line`` cells wide."""
        return max((cell_len(self.plain[m.start():m.end()].rstrip())
                    for m in WORD.finditer(self._held(line))), default=0)

    def breaks(self, width: int) -> list[int]:
        """Where the text's lines start, but the first, on a screen ``width`` cells wide:
        before a word that would go past the line's end; inside a word only when it is
        wider than a whole line (folded, never cut)."""
        plain, rest = self.plain, max(width - self.hang, 1)
        offsets: list[int] = []
        column = len(plain) - len(plain.lstrip(" "))
        limit = max(width, 1)
        for word in WORD.finditer(self._held(rest)):
            start, end = word.start(), word.end()
            size = cell_len(plain[start:end].rstrip(" "))
            if column and column + size > limit:
                offsets.append(start)
                column, limit = 0, rest
            while column == 0 and size > limit:  # wider than a line: folded
                start = _fold(plain, start, limit)
                offsets.append(start)
                limit, size = rest, cell_len(plain[start:end].rstrip(" "))
            column += cell_len(plain[start:end])
        return offsets

    def _held(self, line: int) -> str:
        """The text with the spaces no line breaks at as :data:`HELD`: after a number when
        the number and the word after it fit ``line`` cells (wider: they part, rather than
        the word be cut), and inside a span of :attr:`whole` no wider than ``line``."""
        plain = self.plain
        chars = list(plain)
        held = [range(*m.span(1)) for m in BOUND.finditer(plain)
                if cell_len(plain[m.start():_word_end(plain, m.end())]) <= line]
        held += [range(s, e) for s, e in self.whole if cell_len(plain[s:e]) <= line]
        for span in held:
            for i in span:
                if chars[i] == " ":
                    chars[i] = HELD
        return "".join(chars)


def _word_end(plain: str, start: int) -> int:
    """Where the word at ``start`` ends."""
    space = plain.find(" ", start)
    return len(plain) if space < 0 else space


def _fold(plain: str, start: int, limit: int) -> int:
    """Where a word at ``start`` is cut to fill ``limit`` cells (one character at least)."""
    end, used = start, 0
    while end < len(plain) and used + cell_len(plain[end]) <= limit:
        used += cell_len(plain[end])
        end += 1
    return max(end, start + 1)


def items(parts: Sequence[Text | str], hang: int = 2, gap: str = "  ") -> Prose:
    """``parts`` on one line, ``gap`` apart, that wraps between them (a part split only
    when it is wider than a line), the lines after the first ``hang`` cells in; empty
    parts are left out."""
    text, whole = Text(), []
    for part in parts:
        safe = shown(Text(part) if isinstance(part, str) else part)
        if not safe.plain:
            continue
        if text.plain:
            text.append(gap)
        whole.append((len(text.plain), len(text.plain) + len(safe.plain)))
        text.append_text(safe)
    return Prose(text, hang, whole)


def each_lines(lines: list[str]) -> list[Prose]:
    """Lines whose breaks are their own layout (a family's summary of a plan: a head, then
    one indented line a move) as one :class:`Prose` a line, each going on under its own
    indent when it wraps."""
    return [Prose(line, hang=len(line) - len(line.lstrip(" "))) for line in lines]
