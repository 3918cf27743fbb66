"""What :mod:`.backtrack` derives from a model once: domains' bit masks, compiled conditions,
tight groups."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ....model import AllDifferent, Circuit, Csp
from ..common import Budget
from ..emit import build
from .tally import Stop

_COMPILED: dict[str, Callable[[list], object]] = {}
"""Condition functions by their emitted text: models of one family share most of them."""


def compiled(text: str) -> Callable[[list], object]:
    """``def holds(a): return <text>``, compiled once per text (a batch re-emits the same)."""
    fn = _COMPILED.get(text)
    if fn is None:
        if len(_COMPILED) >= 4096:
            _COMPILED.clear()
        fn = _COMPILED[text] = build(f"def holds(a):\n    return {text}\n", {}, "holds")
    return fn


def tight_groups(model: Csp, index: dict[str, int],
                 doms: list[int]) -> list[tuple[tuple[int, ...], int, Callable]]:
    """(variables, union of their domains, their getter) per tight all-different group.

    A group is tight when its variables' domains (bit masks) hold, together,
    exactly as many values as it has variables: each value must then go to
    one of them.  Circuits count: their successors are all different.
    """
    out = []
    for c in model.constraints:
        if isinstance(c, (AllDifferent, Circuit)):
            xs = tuple(index[x] for x in c.names)
            full = 0
            for x in xs:
                full |= doms[x]
            if len(xs) > 1 and full.bit_count() == len(xs):
                out.append((xs, full, itemgetter(*xs)))
    return out


def mask(values: Sequence[int], base: int) -> int:
    """The bit mask of ``values`` (bit ``v - base`` for value ``v``); a range's in one step,
    not a million additions of ever larger numbers."""
    if isinstance(values, range) and values.step == 1:
        return ((1 << len(values)) - 1) << (values.start - base) if values else 0
    return sum(1 << (v - base) for v in values)


def satisfying(fn: Callable[[list], object], vals: list, y: int, d: int, base: int,
               budget: Budget | None = None) -> int:
    """The values of ``y``'s domain ``d`` (a bit mask over ``base``) for which the
    condition ``fn`` holds, the other variables as in ``vals``; ``budget``: looked at first
    (:class:`~.tally.Stop` when it is spent)."""
    if budget is not None and budget.exceeded(0):
        raise Stop
    if d.bit_length() > WIDE:
        return _satisfying_wide(fn, vals, y, d, base)
    keep, rest = 0, d
    while rest:
        low = rest & -rest
        rest ^= low
        vals[y] = low.bit_length() - 1 + base
        if fn(vals):
            keep |= low
    vals[y] = None
    return keep


WIDE = 256
"""Bits of a mask above which :func:`satisfying` reads it as text: taking the lowest bit
of a wide mask costs a pass over all of it, so a domain of 1,000,000 values took the
square of that (minutes) bit by bit."""


def _satisfying_wide(fn: Callable[[list], object], vals: list, y: int, d: int,
                     base: int) -> int:
    """:func:`satisfying` for a wide mask, in time linear in its width: its binary digits
    read once, the kept ones written once."""
    digits = bin(d)[:1:-1]  # bit k at position k
    kept = ["0"] * len(digits)
    for k, digit in enumerate(digits):
        if digit == "1":
            vals[y] = k + base
            if fn(vals):
                kept[k] = "1"
    vals[y] = None
    return int("".join(reversed(kept)), 2)


def each(xs: list[int]) -> Callable[[list], tuple]:
    """``itemgetter(*xs)`` that returns a tuple for fewer than two indices too."""
    return lambda a: tuple(a[x] for x in xs)
