"""Counts in words for people: ``1 state``, ``2 states``, ``1,234 solutions``.

One helper for every human message (engines, rendering, the command line),
so that no message says "1 states" and every count over 999 has its
thousands separators.  Imports nothing: any layer may use it.
"""

from __future__ import annotations

IRREGULAR = {"class": "classes", "is": "are", "was": "were", "has": "have"}
"""Plurals that are not the noun + ``s``."""


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun`` agreeing in number, ``n`` with thousands separators.

    ``nouns`` is the plural when it is not :data:`IRREGULAR` nor ``noun + "s"``:
    ``plural(1, "state")`` → ``"1 state"``; ``plural(2, "class")`` → ``"2 classes"``;
    ``plural(1234, "solution")`` → ``"1,234 solutions"``.
    """
    return f"{n:,} {noun if n == 1 else nouns or IRREGULAR.get(noun, noun + 's')}"


def noun(n: int, singular: str, nouns: str | None = None) -> str:
    """The noun alone, agreeing with ``n`` (for phrases that place the count elsewhere)."""
    return singular if n == 1 else nouns or IRREGULAR.get(singular, singular + "s")
