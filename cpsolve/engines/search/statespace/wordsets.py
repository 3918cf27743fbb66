"""Sets of multi-word state codes (``(n, words)`` int64 arrays, :mod:`.packing`).

One-word codes are sorted and searched as plain int64 (:mod:`.codesets`).
Rows of several words would need a lexicographic sort (``np.lexsort``, or a
sort of a void view, compares element by element: 20-30 times slower than
sorting int64).  So each row gets a one-word *key*, a hash of its words
(Horner's rule with an odd multiplier and a shift, modulo 2**64): a set is its rows
ordered by key (one ``argsort`` of int64), equal rows are next to each other,
and a row is looked up by a binary search of its key and a comparison of its
words.  Keys of different rows may collide; the answers stay exact:

* :func:`distinct` compares neighbours word by word and, when two different
  rows share a key, orders by key and words (``lexsort``; essentially never);
* :func:`minus` compares the words of every row whose key matches, through
  the whole run of equal keys.

:class:`Seen` and :class:`Recent` are :mod:`.visited`'s visited sets for such
codes (no bit map: these code spaces are far beyond memory).
"""

from __future__ import annotations

import numpy as np

MULTIPLIER = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15, odd
"""Horner's multiplier of :func:`keys` (odd, so one word's change always changes the key)."""

Rows = tuple[np.ndarray, np.ndarray]
"""A set: its keys, ascending, and its codes in the same order."""


def keys(codes: np.ndarray) -> np.ndarray:
    """The one-word key of every row (wrapping int64 arithmetic; each step mixes the high
    bits into the low ones, so that no linear family of rows shares a key)."""
    key = codes[:, 0].copy()
    for j in range(1, codes.shape[1]):
        key *= MULTIPLIER
        key ^= (key.view(np.uint64) >> np.uint64(29)).view(np.int64)
        key += codes[:, j]
    return key


def distinct(codes: np.ndarray) -> Rows:
    """The distinct rows of ``codes``, ordered by key, and their keys."""
    key = keys(codes)
    order = np.argsort(key)
    key, codes = key.take(order), codes.take(order, axis=0)
    if key.size < 2:
        return key, codes
    tie = key[1:] == key[:-1]
    same = _same(codes[1:], codes[:-1], tie)
    if np.count_nonzero(same) != np.count_nonzero(tie):  # different rows, equal keys
        order = np.lexsort([codes[:, j] for j in range(codes.shape[1] - 1, -1, -1)] + [key])
        key, codes = key.take(order), codes.take(order, axis=0)
        same = _same(codes[1:], codes[:-1], key[1:] == key[:-1])
    keep = np.concatenate(([True], ~same))
    return key.compress(keep), codes.compress(keep, axis=0)


def _same(a: np.ndarray, b: np.ndarray, where: np.ndarray) -> np.ndarray:
    """``where``, and row ``i`` of ``a`` equals row ``i`` of ``b``."""
    out = where.copy()
    for j in range(a.shape[1]):
        out &= a[:, j] == b[:, j]
    return out


def contained(key: np.ndarray, codes: np.ndarray, layer: Rows) -> np.ndarray:
    """Which rows (``codes`` with their ``key``, any order) the set ``layer`` holds."""
    lkey, lcodes = layer
    found = np.zeros(key.size, bool)
    if not lkey.size or not key.size:
        return found
    at = np.searchsorted(lkey, key)
    live = np.flatnonzero(at < lkey.size)
    while live.size:  # rows whose key is at lkey[at]: compare words, else try the next
        pos = at.take(live)
        live = live.compress(lkey.take(pos) == key.take(live))
        if not live.size:
            break
        pos = at.take(live)
        hit = _same(lcodes.take(pos, axis=0), codes.take(live, axis=0),
                    np.ones(live.size, bool))
        found[live.compress(hit)] = True
        live = live.compress(~hit)
        at[live] += 1
        live = live.compress(at.take(live) < lkey.size)
    return found


def minus(rows: Rows, *layers: Rows) -> Rows:
    """The rows of ``rows`` that no set of ``layers`` holds, in their order."""
    key, codes = rows
    for layer in layers:
        if not key.size:
            break
        keep = ~contained(key, codes, layer)
        key, codes = key.compress(keep), codes.compress(keep, axis=0)
    return key, codes


def fresh(raw: np.ndarray, earlier: list[Rows]) -> Rows:
    """The distinct rows of ``raw`` that no set of ``earlier`` holds, ordered by key."""
    return minus(distinct(raw), *earlier)


def _merge(a: Rows, b: Rows) -> Rows:
    """The union of two disjoint sets (a stable sort of two sorted runs: a merge)."""
    key = np.concatenate([a[0], b[0]])
    order = np.argsort(key, kind="stable")
    return key.take(order), np.concatenate([a[1], b[1]]).take(order, axis=0)


GROWTH = 4
"""Each run of :class:`Seen` holds at least this many times the rows of the next one."""


class Seen:
    """Every visited code, as a few sets (*runs*) of sizes growing geometrically.

    Merging each new layer into one set of everything seen copies that set
    once per layer (Klotski: 169 layers); runs whose sizes grow by
    :data:`GROWTH` copy each row a few times in all, at the price of one
    binary search per run.
    """

    def __init__(self, words: int) -> None:
        self.runs: list[Rows] = []
        self.count = 0

    def fresh(self, codes: np.ndarray) -> np.ndarray:
        """The codes (rows; repeats allowed) not seen before, distinct; they are marked seen."""
        new = fresh(codes, self.runs)
        self.count += new[0].size
        run = new
        while self.runs and self.runs[-1][0].size < GROWTH * run[0].size:
            run = _merge(self.runs.pop(), run)
        self.runs.append(run)
        return new[1]

    def __contains__(self, code: tuple[int, ...]) -> bool:
        row = np.array([code], np.int64)
        key = keys(row)
        return any(contained(key, row, run)[0] for run in self.runs)


class Recent:
    """The visited set of a BFS over reversible moves: the last two layers (see
    :class:`.visited.Recent`)."""

    def __init__(self, words: int) -> None:
        self.before = self.current = (np.empty(0, np.int64), np.empty((0, words), np.int64))
        self.count = 0

    def fresh(self, codes: np.ndarray) -> np.ndarray:
        """The codes (rows; repeats allowed) not in the last two layers, distinct; they
        become the latest."""
        new = fresh(codes, [self.current, self.before])
        self.before, self.current = self.current, new
        self.count += new[0].size
        return new[1]

    def __contains__(self, code: tuple[int, ...]) -> bool:
        row = np.array([code], np.int64)
        k = keys(row)
        return bool(contained(k, row, self.current)[0] or contained(k, row, self.before)[0])
