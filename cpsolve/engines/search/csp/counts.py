"""Counts over 0/1 variables for :mod:`.backtrack`: ``sum(xs) == k``, ``<= k``, ``>= k``.

A board of 0/1 cells (queens as a 100-cell board: one queen per row and
column, at most one per diagonal) states its rules as sums of cells.  Checked
only once every cell of a sum is assigned, such a rule fails late: the
search wanders through millions of nodes.  Read as a count instead, with
``lo <= ones <= hi``, it propagates at once:

* more ones than ``hi``, or too few free cells left to reach ``lo``: fail;
* ``hi`` ones already: every free cell is 0 (at most one: the others leave);
* exactly enough free cells to reach ``lo``: every free cell is 1 (exactly
  one: the last free cell is forced).

:func:`tightest` gives the search its variable order: a free cell of the count
that still needs ones and has the fewest free cells (a row with one place left
is filled first, as a smallest-domain rule would on a queen-per-row model).
"""

from __future__ import annotations

from collections.abc import Callable

from ....language.expr import BOUNDING, MIRRORED, Binary, Const, Expr, Var

Count = tuple[tuple[int, ...], int, int]
"""The variables (indices) of a count and its bounds ``lo`` and ``hi`` on their sum."""


def count_of(expr: Expr, index: dict[str, int], binary: set[int]) -> Count | None:
    """``expr`` as a count (a sum of distinct 0/1 variables compared with a constant),
    or None when it is not one."""
    if not isinstance(expr, Binary) or expr.op not in BOUNDING:
        return None
    left, op, right = expr.left, expr.op, expr.right
    if isinstance(left, Const):
        left, op, right = right, MIRRORED[op], left
    if not isinstance(right, Const):
        return None
    names = summed(left)
    if names is None or len(set(names)) != len(names):
        return None
    xs = tuple(index[n] for n in names)
    if not all(x in binary for x in xs):
        return None
    k, n = right.value, len(xs)
    lo, hi = {"==": (k, k), "<=": (0, k), "<": (0, k - 1), ">=": (k, n), ">": (k + 1, n)}[op]
    return xs, max(lo, 0), min(hi, n)


def summed(expr: Expr) -> list[str] | None:
    """The variables of a sum of variables (``x + y + ...``, any grouping), else None."""
    out: list[str] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, Var):
            out.append(node.name)
        elif isinstance(node, Binary) and node.op == "+":
            stack += (node.right, node.left)
        else:
            return None
    return out


def propagate(count: Count, doms: list[int], vals: list, queue: list, zero: int,
              one: int) -> bool:
    """Check ``count`` and force its free cells when its bounds leave no choice (queued
    as assignments); ``zero`` and ``one`` are the domain bits of the values 0 and 1.
    False on a contradiction."""
    xs, lo, hi = count
    ones, free = 0, []
    for y in xs:
        v = vals[y]
        if v is None:
            free.append(y)
        elif v:
            ones += 1
    if ones > hi or ones + len(free) < lo:
        return False
    if not free or lo < ones + len(free) and ones < hi:
        return True
    bit, value = (zero, 0) if ones == hi else (one, 1)
    for y in free:
        if not doms[y] & bit:
            return False
        doms[y] = bit
        queue.append((y, value))
    return True


def tightest(counts: list[Count], vals: list) -> int | None:
    """A free variable of the count that still needs ones and has the fewest free
    variables (None: no count needs any)."""
    best, fewest = None, 1 << 30
    for xs, lo, _ in counts:
        if not lo:
            continue
        ones, free = 0, None
        size = 0
        for y in xs:
            v = vals[y]
            if v is None:
                size += 1
                if free is None:
                    free = y
            elif v:
                ones += 1
        if ones < lo and free is not None and size < fewest:
            best, fewest = free, size
    return best


def settle_counts(counts: list[Count], doms: list[int], vals: list,
                  assign: Callable[[list[int], list, int, int], bool], base: int) -> bool:
    """Every count checked once before the search (a bound of 0 forces its cells to 0),
    the forced cells assigned with ``assign``; False on a contradiction."""
    if not counts:
        return True
    zero, one = 1 << -base, 2 << -base
    for count in counts:
        queue: list[tuple[int, int]] = []
        if not propagate(count, doms, vals, queue, zero, one):
            return False
        if any(not assign(doms, vals, y, v) for y, v in queue):
            return False
    return True
