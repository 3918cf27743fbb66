"""How wide text is on a terminal: boards are padded by screen cells, not characters.

An East Asian wide or fullwidth character (CJK, most emoji) takes two cells, a
combining mark or a format character (a zero-width joiner, a variation selector)
none, anything else one.  Plain :mod:`unicodedata`, so that families draw boards
without the terminal library.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=4096)
def _char_cells(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cells(text: str) -> int:
    """The number of terminal cells ``text`` (one line) takes."""
    if text.isascii():
        return len(text)
    return sum(_char_cells(c) for c in text)


def ljust(text: str, width: int, fill: str = " ") -> str:
    """``text`` padded on the right with ``fill`` to ``width`` cells."""
    return text + fill * max(0, width - cells(text))


def rjust(text: str, width: int, fill: str = " ") -> str:
    """``text`` padded on the left with ``fill`` to ``width`` cells."""
    return fill * max(0, width - cells(text)) + text
