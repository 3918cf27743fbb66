"""Visited sets of packed codes for the NumPy analysis (:mod:`.vector`).

:class:`Seen` remembers every code (a bit map, or a sorted array for huge
code spaces); :class:`Recent` only the last two layers, which is exact when
every move can be undone.
"""

from __future__ import annotations

import numpy as np

from .codesets import distinct, minus
from .codesets import fresh as fresh_codes
from .packing import BITMAP_BITS

_BIT = np.array([1 << b for b in range(8)], np.uint8)


class Seen:
    """The set of visited codes: a bit map, or a sorted array for huge code spaces."""

    def __init__(self, space: int) -> None:
        self.bits = np.zeros((space + 7) // 8, np.uint8) if space <= BITMAP_BITS else None
        self.sorted = np.empty(0, np.int64)
        self.count = 0
        self.room = space <= 1 << 62

    def fresh(self, codes: np.ndarray) -> np.ndarray:
        """The codes (any order, repeats allowed) not seen before, sorted and distinct;
        they are marked seen."""
        if self.bits is not None:
            codes = distinct(codes)
            byte, bit = codes >> 3, _BIT[codes & 7]
            fresh = (self.bits[byte] & bit) == 0
            new = codes.compress(fresh)
            if new.size:  # new is sorted: OR the bits of each byte together, then store
                byte, bit = byte.compress(fresh), bit.compress(fresh)
                first = np.flatnonzero(np.concatenate(([True], byte[1:] != byte[:-1])))
                self.bits[byte[first]] |= np.bitwise_or.reduceat(bit, first)
        else:  # merged per layer: a stable sort of two sorted runs
            new = fresh_codes(codes, [self.sorted], self.room)
            self.sorted = np.sort(np.concatenate([self.sorted, new]), kind="stable")
        self.count += new.size
        return new

    def __contains__(self, code: int) -> bool:
        if self.bits is not None:
            return bool(self.bits[code >> 3] >> (code & 7) & 1)
        pos = int(np.searchsorted(self.sorted, code))
        return pos < self.sorted.size and int(self.sorted[pos]) == code


class Recent:
    """The visited set of a BFS over reversible moves: the last two layers suffice.

    When every move can be undone, a successor of a state at distance ``d``
    lies at distance ``d - 1``, ``d`` or ``d + 1``: checking the two latest
    layers is exact, and memory stays that of a few layers.
    """

    def __init__(self, space: int) -> None:
        self.before = self.current = np.empty(0, np.int64)
        self.count = 0
        self.room = space <= 1 << 62

    def fresh(self, codes: np.ndarray) -> np.ndarray:
        """The codes (any order, repeats allowed) not in the last two layers, sorted and
        distinct; they become the latest."""
        new = fresh_codes(codes, [self.current, self.before], self.room)
        self.before, self.current = self.current, new
        self.count += new.size
        return new

    def __contains__(self, code: int) -> bool:
        return minus(np.array([code], np.int64), self.current, self.before).size == 0
