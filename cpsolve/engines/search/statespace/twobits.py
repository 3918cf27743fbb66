"""Two bits per state: the layer marks of a breadth-first search over ranked states.

Korf's frontier search over a perfect hash keeps one 2-bit field per possible
state, four to a byte (field ``r & 3`` of byte ``r >> 2``, the low bits first):
:data:`UNSEEN`, :data:`CURRENT` (the layer being expanded), :data:`NEXT` (met for
the first time while expanding it) and :data:`OLD` (every earlier layer).  A
layer is found by scanning for ``CURRENT`` fields; its successors that are
``UNSEEN`` become ``NEXT``; then one pass turns ``CURRENT`` into ``OLD`` and
``NEXT`` into ``CURRENT``, counting them (:meth:`TwoBitMap.advance`).  The passes
work on 64-bit words, 32 fields at once: with ``lo`` and ``hi`` the low and high
bit of every field, ``CURRENT`` is ``lo & ~hi``, ``NEXT`` is ``hi & ~lo``, and
advancing is ``lo | hi`` for the new low bits and ``lo`` for the new high ones.
The map is a NumPy array, or a file mapped into memory (``path``) when it should
not be held in memory: the OS then pages it (random writes to a map larger than
memory go at the speed of the disk).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ...runtime.output_files import open_output

UNSEEN, CURRENT, NEXT, OLD = 0, 1, 2, 3

SCAN_WORDS = 1 << 17
"""64-bit words of the map scanned or advanced at once (four million states)."""

SPOOL_READ = 1 << 22
"""Spooled ranks read at once (32 MiB)."""

LOW = np.uint64(0x5555555555555555)
"""The low bit of every field of a word."""


def _mark(mem: np.ndarray, ranks: np.ndarray) -> None:
    """Mark ``NEXT`` the ``UNSEEN`` fields of ``ranks`` (sorted, repeats allowed) in ``mem``.

    ``mem[b] |= m`` with a byte twice in ``b`` keeps one of the writes only, so the fields
    not set are set again, until none is left (each round sets at least one field per
    byte).  Sorted ranks read and write the map in order (2.5 times faster than random
    order on 740,000 ranks into the 3x4 puzzle's map)."""
    where = ranks >> 2
    shift = ((ranks & 3) << 1).astype(np.uint8)
    fresh = ((mem[where] >> shift) & 3) == UNSEEN
    where, shift = where[fresh], shift[fresh]
    while where.size:
        mem[where] |= np.left_shift(np.uint8(NEXT), shift)
        lost = ((mem[where] >> shift) & 3) != NEXT
        where, shift = where[lost], shift[lost]


class TwoBitMap:
    """The marks of ``states`` ranked states (see the module); ``path``: kept in that file."""

    def __init__(self, states: int, path: Path | None = None) -> None:
        size = 8 * ((states + 31) // 32)  # whole words
        self.states = states
        if path is None:
            self.mem = np.zeros(size, np.uint8)
        else:
            self.mem = np.memmap(path, np.uint8, "w+", shape=(size,))
        self.words = self.mem.view(np.uint64)
        self.spool_dir: Path | None = None
        self.segment = self.spool_limit = self.spooled = 0

    def close(self) -> None:
        """Let go of the file (a map in memory is just dropped)."""
        if isinstance(self.mem, np.memmap):
            mm = getattr(self.mem, "_mmap", None)
            self.mem = np.zeros(0, np.uint8)
            self.words = self.mem.view(np.uint64)
            if mm is not None:
                mm.close()

    def get(self, rank: int) -> int:
        """The mark of one state."""
        return (int(self.mem[rank >> 2]) >> (2 * (rank & 3))) & 3

    def put(self, rank: int, mark: int) -> None:
        """Set the mark of one state."""
        shift = 2 * (rank & 3)
        byte = int(self.mem[rank >> 2])
        self.mem[rank >> 2] = (byte & ~(3 << shift)) | (mark << shift)

    def mark_next(self, ranks: np.ndarray) -> None:
        """Mark ``NEXT`` the states of ``ranks`` that are ``UNSEEN`` (repeats allowed); on a
        map with a spool (:meth:`spool`), later: :meth:`settle` marks them."""
        if self.spool_dir is not None:
            self._spool(ranks)
        else:
            _mark(self.mem, np.sort(ranks))

    def spool(self, folder: Path, segment_bytes: int, limit: int) -> None:
        """Mark later, a segment at a time: :meth:`mark_next` appends the ranks to one file per
        segment of ``segment_bytes`` bytes of the map, and :meth:`settle` reads each file
        and marks its ranks on the segment, read into memory and written back.  A map in a
        file is then read and written in order (random writes to a map larger than memory
        would go at the speed of the disk's seeks), at 8 bytes of spool per successor.

        The marks may be made at any moment of a layer (``NEXT`` states are not expanded
        before the next layer, and marking twice changes nothing): :meth:`mark_next`
        settles as soon as ``limit`` bytes are spooled, so the spool never holds more."""
        self.spool_dir = folder
        self.segment = max(8, segment_bytes - segment_bytes % 8) * 4  # ranks per segment
        self.spool_limit, self.spooled = limit, 0
        folder.mkdir(parents=True, exist_ok=True)

    def _spool(self, ranks: np.ndarray) -> None:
        ranks = np.sort(ranks)
        cuts = np.searchsorted(ranks, np.arange(1, (self.states - 1) // self.segment + 1)
                               * self.segment)
        for k, part in enumerate(np.split(ranks, cuts)):
            if part.size:
                with open_output(self.spool_dir / f"s{k:06d}.bin", "ab") as f:
                    f.write(part.tobytes())
        self.spooled += 8 * ranks.size
        if self.spooled >= self.spool_limit:
            self.settle()

    def settle(self) -> None:
        """Mark the spooled ranks (:meth:`spool`); nothing without a spool."""
        if self.spool_dir is None:
            return
        self.spooled = 0
        for path in sorted(self.spool_dir.glob("s*.bin")):
            k = int(path.stem[1:])
            first = k * self.segment
            lo, hi = first // 4, min(self.mem.size, (first + self.segment) // 4)
            part = np.array(self.mem[lo:hi])
            with open(path, "rb") as f:
                while (ranks := np.fromfile(f, np.int64, SPOOL_READ)).size:
                    _mark(part, np.sort(ranks) - first)
            self.mem[lo:hi] = part
            path.unlink()

    def current(self) -> Iterator[np.ndarray]:
        """The ranks of the ``CURRENT`` states, in increasing order, a slice of the map at a
        time."""
        for start in range(0, self.words.size, SCAN_WORDS):
            chunk = np.asarray(self.words[start:start + SCAN_WORDS])
            low = chunk & LOW
            hits = low & ~((chunk >> np.uint64(1)) & LOW)
            full = np.flatnonzero(hits)
            if not full.size:
                continue
            bits = np.unpackbits(hits[full].view(np.uint8), bitorder="little")
            at = np.flatnonzero(bits)  # even: the low bit of field at // 2 of its word
            yield (full[at >> 6] + start) * 32 + ((at & 63) >> 1)

    def advance(self) -> int:
        """``CURRENT`` becomes ``OLD`` and ``NEXT`` becomes ``CURRENT``; the number of the
        latter (the new layer's size)."""
        total = 0
        one = np.uint64(1)
        for start in range(0, self.words.size, SCAN_WORDS):
            chunk = self.words[start:start + SCAN_WORDS]
            low = chunk & LOW
            high = chunk >> one
            high &= LOW
            nexts = ~low
            nexts &= high
            total += int(np.bitwise_count(nexts).sum())
            high |= low  # the new low bits
            low <<= one  # the new high bits
            np.bitwise_or(low, high, out=chunk)
        return total
