"""Output on a console whose encoding cannot write every character (``PYTHONIOENCODING=ascii``,
a Latin-1 terminal): text degrades legibly, JSON stays exact, pages stay UTF-8.

* Text: while a command runs (:func:`degrading`), stdout and stderr, when they are not
  UTF-8 (or -16, -32), write a character they cannot encode through one codecs error
  handler, :data:`HANDLER`: its ASCII stand-in (:data:`STAND_INS`: ``—`` as ``-``, ``×`` as
  ``x``, ``…`` as ``...``, ``│`` as ``|``, ``→`` as ``->``), else its backslash escape
  (``\\xe9``, ``\\u250c``).  Rich draws its own frames in ASCII on such a console already.
* JSON (:func:`json_text`): characters outside ASCII are written as ``\\uXXXX`` escapes when
  stdout cannot encode every character, and lone surrogates (a file name's bytes that are
  not UTF-8) always; ``json.loads`` reads them back as the same text.
* Pages, pictures and plan files sent to stdout (``--html -``) are the bytes their file
  would hold, UTF-8 as the page declares (:func:`~.printer.write_utf8`), whatever the
  console.
"""

from __future__ import annotations

import codecs
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

HANDLER = "cpsolve-ascii"
"""The codecs error handler's name (registered when this module is imported)."""

STAND_INS = {
    "\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
    "\u00d7": "x", "\u00f7": "/", "\u2026": "...", "\u00b7": ".", "\u2022": "*",
    "\u00b1": "+/-", "\u221a": "sqrt", "\u2264": "<=", "\u2265": ">=", "\u2260": "!=",
    "\u2227": "^", "\u2228": "v", "\u00ab": "<<", "\u00bb": ">>",
    "\u2190": "<-", "\u2192": "->", "\u2191": "^", "\u2193": "v", "\u2194": "<->",
    "\u21d0": "<=", "\u21d2": "=>", "\u25c0": "<", "\u25b6": ">", "\u25c1": "<",
    "\u25b7": ">", "\u25b2": "^", "\u25bc": "v",
    "\u2502": "|", "\u2503": "|", "\u2551": "|", "\u2500": "-", "\u2501": "-", "\u2550": "=",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ",
}
"""Common symbols of cpsolve's output and their ASCII stand-ins on a console that cannot
write them; a corner of a box (``┌``) has none: a line-piece puzzle's four corners are four
different pieces, which one ``+`` would make look the same."""


def _stand_in(err: UnicodeError) -> tuple[str, int]:
    """The codecs error handler :data:`HANDLER`: what cannot be encoded, as its stand-ins
    or backslash escapes."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    bad = err.object[err.start:err.end]
    return "".join(STAND_INS.get(ch) or ascii(ch)[1:-1] for ch in bad), err.end


codecs.register_error(HANDLER, _stand_in)


def encodes_all(stream) -> bool:
    """Whether ``stream`` writes every character as it is (a UTF encoding; no encoding
    named — a test's capture, a closed stream — counts as one)."""
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return True
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


@contextmanager
def degrading() -> Iterator[None]:
    """While the block runs, stdout and stderr write what their encoding cannot as
    :data:`HANDLER` does; afterwards they are as they were."""
    changed = []
    for stream in (sys.stdout, sys.stderr):
        if not encodes_all(stream) and hasattr(stream, "reconfigure"):
            changed.append((stream, stream.errors))
            stream.reconfigure(errors=HANDLER)
    try:
        yield
    finally:
        for stream, errors in changed:
            try:
                stream.reconfigure(errors=errors)
            except (OSError, ValueError):  # closed meanwhile, or its last flush failed
                pass


LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""How Python holds a file name's bytes that are not UTF-8 (``\\xff`` as ``\\udcff``)."""


def json_text(obj: object, **kwargs) -> str:
    """``obj`` as JSON text for stdout: its characters as they are on a console that can
    write them all, ``\\uXXXX`` escapes on one that cannot (the same text to a reader).
    A lone surrogate is always an escape (``\\udcff``, as the error lines write it): the
    JSON is UTF-8 text (docs/json.md), which cannot hold one, and as it is a console
    writes the file name's raw byte instead; it can only stand in a JSON string."""
    import json

    text = json.dumps(obj, ensure_ascii=not encodes_all(sys.stdout), **kwargs)
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def as_ascii(text: str) -> str:
    """``text`` as an ASCII console shows it (:data:`HANDLER`)."""
    return text.encode("ascii", HANDLER).decode("ascii")
