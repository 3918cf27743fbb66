"""Untrusted text made fit to show in a message or on a terminal: its unsafe characters
escaped (:func:`escaped`), a long text shortened (:func:`shorten`); an integer of any size
written in a few characters (:func:`short_number`, :func:`figure`).

In the lowest layer and importing no other ``cpsolve`` module, so that every layer uses
the same functions: the expression language's errors, the families' messages,
the command line's error lines (read at ``--help``, which loads no layer below ``cli``'s
own imports) and the text output (:mod:`cpsolve.output.shown`).

An unsafe character is one that could colour or move a terminal's screen, reorder the
text around it, or break its line: the C0 controls, DEL, the C1 controls, the Unicode
bidi controls, the line and paragraph separators (U+2028, U+2029), and the lone
surrogates (U+D800 to U+DFFF) by which Python holds the bytes of a file name that are not
UTF-8 (``\\xff`` as ``\\udcff``), which no UTF-8 text may hold.  It is shown as Python
writes it (``\\x1b``, ``\\u202e``, ``\\u2028``, ``\\udcff``).
"""

from __future__ import annotations

import re

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The characters that change the direction of text around them (Unicode bidi controls)."""

SEPARATORS = "\u2028\u2029"
"""The Unicode line and paragraph separators: a line break to some terminals and viewers."""

SURROGATES = "\ud800-\udfff"
"""The lone surrogates (a range, for a character class)."""

UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI}{SEPARATORS}{SURROGATES}]")
"""A character never printed as it is."""

UNSAFE_IN_LINES = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{BIDI}{SEPARATORS}{SURROGATES}]")
"""The same, but a line break (``\\n``): in text whose lines are the layout's own."""


def escape(ch: str) -> str:
    """One character as Python writes it in a string (``\\x1b``, ``\\u202e``)."""
    return ascii(ch)[1:-1]


def escaped(text: str, keep_lines: bool = False) -> str:
    """``text`` with its unsafe characters escaped (``\\x1b``, ``\\u202e``; ``\\n`` unless
    ``keep_lines``)."""
    unsafe = UNSAFE_IN_LINES if keep_lines else UNSAFE
    return unsafe.sub(lambda m: escape(m.group()), text)


def shorten(text: str, at: int = 0, width: int = 60, quote: bool = True) -> str:
    """``text`` quoted (as ``repr`` quotes it; ``quote=False``: as it is), cut to ``width``
    characters around position ``at``, ``...`` marking each end that was cut."""
    shown = repr if quote else str
    if len(text) <= width:
        return shown(text)
    start = max(0, min(at - width // 2, len(text) - width))
    cut = text[start:start + width]
    return ("..." if start else "") + shown(cut) + ("..." if start + width < len(text) else "")


def short_number(n: int) -> str:
    """``n`` as ``f"{n:.3g}"`` writes it (``1e+20``, ``1.23e+05``), for an integer of any
    size: a user's constant may be ``10 ** 400``, which no float holds, and has more
    digits than ``str`` writes (4,300)."""
    if abs(n) < 10 ** 300:
        return f"{n:.3g}"
    size = abs(n)
    power = size.bit_length() * 30103 // 100000  # log10(2) = 0.30103: at most one off
    while 10 ** (power + 1) <= size:
        power += 1
    while 10 ** power > size:
        power -= 1
    digits = f"{size / 10 ** power:.3g}"  # from 1 to 10: the division is a float
    if digits == "10":
        digits, power = "1", power + 1
    return f"{'-' if n < 0 else ''}{digits}e+{power}"


FULL = 10 ** 21
"""Integers below this (every 64-bit one) are written in full by :func:`figure`."""


def figure(n: int, grouping: bool = True) -> str:
    """``n`` in full (``1,234``; ``1234`` without ``grouping``) while it is below
    :data:`FULL`, else as :func:`short_number` writes it: a message about a
    ``10 ** 5000`` would otherwise be a screenful, or fail (``str`` writes at most
    4,300 digits)."""
    if abs(n) >= FULL:
        return short_number(n)
    return f"{n:,}" if grouping else str(n)


def shown(value: object, width: int = 60) -> str:
    """A user's value as an error message echoes it: as ``repr`` writes it (a string
    quoted), cut to ``width`` characters (:func:`shorten`) — a 5,000-character family name
    or list comes back as its first 60 characters and ``...``."""
    if isinstance(value, str):
        return shorten(value, width=width)
    return shorten(repr(value), width=width, quote=False)


def named(path: object) -> str:
    """A file's name as a message names it: as it is (its unsafe characters are escaped
    where the message is written), unless it could not be told apart from the words
    around it — blank, or with a space at either end — then quoted as ``repr`` quotes it
    (``' '``, ``'water_jugs '``).  Never cut: a cut name names no file."""
    text = str(path)
    if text.strip() and text == text.strip():
        return text
    return repr(text)
