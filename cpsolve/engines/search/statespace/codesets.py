"""Sets of packed state codes as sorted int64 arrays: distinct, minus, fresh.

Every breadth-first layer of the NumPy analyses (:mod:`.vector`,
:mod:`.external`, the pattern-database builder) is one sorted array of
distinct codes; a new layer is the successors' codes, made distinct, without
the codes of some earlier layers.  :func:`fresh` does that in one of two ways:

* a binary search of every new code in every earlier layer
  (``O(n log m)`` per layer, memory-light);
* when the codes leave the top bit free (non-negative, below 2**62) and the
  earlier layers are not much larger than the new codes: one sort of all of
  them together, each code doubled and the new ones made odd, so that an old
  code ``2x`` sorts right before a new ``2x + 1`` and a new code is kept when
  the element before it is neither.  On the 8-puzzle this is about three times
  faster than sorting and then searching twice.

Selections use ``compress``: NumPy 2.4's boolean-mask indexing is up to eight
times slower on masks of mixed truth (measured on 850,000 codes: 3.7 ms
against 0.47 ms).
"""

from __future__ import annotations

import numpy as np

CHUNK = 1 << 16
"""Frontier states expanded at once, at most, by every NumPy analysis (:mod:`.vector`,
:mod:`.external`, :mod:`.cluster`): small enough that a chunk's arrays stay near their
core.  English 33 from the start: to 60 M states on disk, 10.8 s with this chunk against
18.6 s with chunks of up to 2^22 states (the memory's bound alone); on Dask, 15.7 s on
one worker and 9.2 s on two against 17.2 s and 10.4 s with 2^18 (2^15: 15.7 s and
10.0 s); in memory, to 5 M states, 3.9 s against 4.2 s with 2^19."""

MERGE_RATIO = 2
"""Earlier layers up to this many times the new codes are sorted along with them."""


def is_set(codes: np.ndarray) -> bool:
    """Whether ``codes`` is such a set: one dimension of int64, strictly increasing (what
    a layer read back from disk must be before anything is counted on it)."""
    return codes.dtype == np.int64 and codes.ndim == 1 and \
        (codes.size < 2 or bool((codes[1:] > codes[:-1]).all()))


def distinct(codes: np.ndarray, runs: bool = False) -> np.ndarray:
    """Sorted distinct codes (``codes`` is sorted in place).  ``runs``: ``codes`` is a few
    sorted runs end to end (pieces cut from sorted chunks): a stable sort (timsort) merges
    them, 3 to 5 times faster than the default sort, which is the faster on random codes
    (20 M codes in 55 runs: 0.41 s against 1.40 s; at random: 1.69 s against 1.37 s)."""
    codes.sort(kind="stable" if runs else None)
    if codes.size < 2:
        return codes
    return codes.compress(np.concatenate(([True], codes[1:] != codes[:-1])))


def minus(codes: np.ndarray, *layers: np.ndarray) -> np.ndarray:
    """The ``codes`` (any order) that no sorted array of ``layers`` holds, in their order."""
    for layer in layers:
        if not codes.size:
            break
        if not layer.size:
            continue
        pos = np.minimum(np.searchsorted(layer, codes), layer.size - 1)
        codes = codes.compress(layer[pos] != codes)
    return codes


def fresh(raw: np.ndarray, earlier: list[np.ndarray], room: bool,
          runs: bool = False) -> np.ndarray:
    """The distinct codes of ``raw`` (any order, repeats allowed; it may be reordered),
    sorted, that no sorted array of ``earlier`` holds.

    ``room``: every code is in ``[0, 2**62)``, so it can be doubled (see the module
    docstring); else, or when the earlier layers are large, binary searches.  ``runs``:
    ``raw`` is sorted runs end to end (:func:`distinct`).
    """
    if not raw.size:
        return raw
    old = sum(layer.size for layer in earlier)
    if not room or old > MERGE_RATIO * raw.size:
        return minus(distinct(raw, runs), *earlier)
    n = raw.size
    both = np.empty(n + old, np.int64)
    np.left_shift(raw, 1, out=both[:n])
    both[:n] |= 1
    for layer in earlier:
        np.left_shift(layer, 1, out=both[n:n + layer.size])
        n += layer.size
    both.sort(kind="stable" if runs else None)  # with runs: the earlier layers are runs too
    first = np.empty(both.size, bool)  # first of its half: not after 2x or 2x + 1 of the same x
    first[0] = True
    np.greater(both[1:] ^ both[:-1], 1, out=first[1:])
    firsts = both.compress(first)
    return firsts.compress((firsts & 1).astype(bool)) >> 1
