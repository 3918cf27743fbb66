"""Counts in words for people: ``1 state``, ``2 states``, ``1,234 solutions``.

One helper for every human message (engines, rendering, the command line),
so that no message says "1 states" and every count over 999 has its
thousands separators.  Imports nothing: any layer may use it.
"""

from __future__ import annotations

import math

from ..language.quoting import figure

IRREGULAR = {"class": "classes", "is": "are", "was": "were", "has": "have"}
"""Plurals that are not the noun + ``s``."""


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun`` agreeing in number, ``n`` with thousands separators.

    ``nouns`` is the plural when it is not :data:`IRREGULAR` nor ``noun + "s"``:
    ``plural(1, "state")`` → ``"1 state"``; ``plural(2, "class")`` → ``"2 classes"``;
    ``plural(1234, "solution")`` → ``"1,234 solutions"``.
    """
    return f"{figure(n)} {noun if n == 1 else nouns or IRREGULAR.get(noun, noun + 's')}"


def all_of(n: int, noun: str, nouns: str | None = None) -> str:
    """The whole of ``n`` things in words, agreeing in number: ``all 1,234 states``, but
    ``the 1 state`` ("all 1 state" reads wrong, "all 1 states" worse); ``nouns`` as in
    :func:`plural`."""
    return f"{'the' if n == 1 else 'all'} {plural(n, noun, nouns)}"


def noun(n: int, singular: str, nouns: str | None = None) -> str:
    """The noun alone, agreeing with ``n`` (for phrases that place the count elsewhere)."""
    return singular if n == 1 else nouns or IRREGULAR.get(singular, singular + "s")


HUGE = 10 ** 15
"""Numbers from here on are written as a power of two (``about 2^100``): no message
carries a number longer than a line."""


def number(n: int) -> str:
    """``n`` with thousands separators, or ``about 2^k`` once it reaches :data:`HUGE`."""
    if abs(n) < HUGE:
        return f"{n:,}"
    return f"about 2^{round(math.log2(abs(n)))}" if n > 0 else f"about -2^{round(math.log2(-n))}"


def lower_bound(bound: int, unit_costs: bool = True) -> str:
    """A proven lower bound as a sentence: ``no plan has fewer than 48 steps`` (each step
    costs 1) or ``no plan costs less than 10``; a bound of 0 proves nothing (where no cost
    is negative) and says so."""
    if bound == 0:
        return "no lower bound above 0 was proven"
    if unit_costs:
        return f"no plan has fewer than {plural(bound, 'step')}"
    return f"no plan costs less than {number(bound)}"


def counted(n: int, complete: bool, why: str = "", limit: int | None = None) -> str:
    """The line every engine ends a count of solutions with, in the same words:
    ``exactly 40 solutions``; at a count limit ``stopped at the limit of 5 solutions;
    there may be more``; otherwise stopped ``why`` (``time limit 3 s reached``) ``; at least
    12 solutions``."""
    if complete:
        return f"exactly {plural(n, 'solution')}"
    if limit is not None:
        return f"stopped at the limit of {plural(limit, 'solution')}; there may be more"
    return f"stopped{': ' + why if why else ''}; at least {plural(n, 'solution')}"


def optimised(what: str, value: object, proven: bool, why: str = "", *,
              bound: int | None = None, minimizing: bool = True, by: str = "") -> str:
    """The line every engine ends an optimisation with, in the same words: ``minimize
    length: 6, proven optimal`` (``by`` whom, when it says so); else stopped ``why``:
    ``time limit 3 s reached: minimize length: best 7 found, the optimum is proven >= 6``,
    or ``not proven optimal`` when no ``bound`` was proven."""
    if proven:
        return f"{what}: {value}, proven optimal" + (f" by {by}" if by else "")
    rest = "not proven optimal" if bound is None else \
        f"the optimum is proven {'>=' if minimizing else '<='} {bound}"
    return f"{why}: {what}: best {value} found, {rest}"
