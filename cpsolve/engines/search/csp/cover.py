"""A lower bound for branch and bound when the objective counts 0/1 cells that counts need.

When the objective minimises a plain sum of 0/1 variables and the model has
counts (:mod:`.counts`: ``sum(cells) >= lo``) over those variables, the ones
still missing add to the objective:

* a count with ``k`` ones and ``lo > k`` needs ``lo - k`` more, so the
  objective is at least its ones so far plus the largest such need;
* when every unmet count needs one more and no free cell belongs to all of
  them, one more cell cannot meet them all: at least two more.

Covering problems (queens dominating a board: every square needs a queen in
its row, column or diagonals) are where the second rule cuts: a node with one
queen left to place is closed as soon as no single square sees every square
still uncovered, instead of trying each square for the last queen.  Free
cells are kept as bit masks, so one node costs one pass over the counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .counts import Count


def cover_bound(counts: Sequence[Count], summed: Sequence[int], base: int
                ) -> Callable[[list[int], int], bool] | None:
    """``cuts(doms, best)``: True when a node's objective cannot go below ``best``, for a
    minimised sum of the 0/1 variables ``summed`` (indices); None when no count needs
    ones or some count reaches outside ``summed`` (no bound)."""
    inside = set(summed)
    lower = [(sum(1 << x for x in xs), lo) for xs, lo, _ in counts if lo > 0]
    if not lower or any(not set(xs) <= inside for xs, lo, _ in counts if lo > 0):
        return None
    one, both = 2 << -base, 3 << -base
    cells = tuple(summed)
    reach = max(2, *(lo for _, lo in lower))  # the most ``need`` can add

    def cuts(doms: list[int], best: int) -> bool:
        ones_mask = free_mask = 0
        for x in cells:
            d = doms[x]
            if d == one:
                ones_mask |= 1 << x
            elif d == both:
                free_mask |= 1 << x
        ones = ones_mask.bit_count()
        if ones + reach < best:
            return False
        need, common = 0, -1
        for mask, lo in lower:
            missing = lo - (mask & ones_mask).bit_count()
            if missing <= 0:
                continue
            if missing > need:
                need = missing
            common &= mask & free_mask
        if need == 1 and not common:
            need = 2
        return ones + need >= best

    return cuts
