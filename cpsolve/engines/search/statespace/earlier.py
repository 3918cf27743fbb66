"""The earlier layers a new on-disk layer is checked against (:mod:`.external`'s merge).

Which layers can hold a successor is the model's fact (:func:`.external.duplicates_policy`):
none, the last two, or every earlier layer.  Checked against every earlier layer, a deep
search of small layers (the Tower of Hanoi: hundreds of layers of a few states each) would
read every earlier layer's files for each new layer, one file after the other: 68 % of the
time went to opening those files, and their count grows with the depth.  So while they fit
an eighth of the memory budget (:data:`SHARE`), the codes of every earlier layer are kept
in memory as one sorted array, grown by each finished layer (read back from its files);
past it, and for the other policies, the files are read, and the stop is looked at between
one earlier layer's files and the next (``stopped``), so that a time limit or Ctrl-C is
heard within one file's read, not hundreds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .codesets import distinct, minus
from .store import Store

SHARE = 8
"""The set of every earlier layer's codes takes at most 1/SHARE of the memory budget."""


class Earlier:
    """The codes of the layers before the one being built: ``keep`` layers back (None: all),
    in memory (``every earlier layer`` within ``memory // SHARE`` bytes) or in the files."""

    def __init__(self, store: Store, keep: int | None, memory: int) -> None:
        self.store, self.keep = store, keep
        self.room = memory // SHARE // 8 if keep is None else 0  # codes held in memory
        self.codes: np.ndarray | None = np.empty(0, np.int64) if self.room else None
        self.held = 0  # the layers in ``codes``: 0 .. held - 1

    def layers(self, d: int) -> range:
        """The layers a successor of layer ``d`` may already be in."""
        return range(d + 1) if self.keep is None else range(max(0, d + 1 - self.keep), d + 1)

    def hold(self, d: int, stopped: Callable[[], bool]) -> bool:
        """Take layers up to ``d`` into memory if they fit (else let the set go for good);
        False when ``stopped()`` said so between two files."""
        if self.codes is None:
            return True
        if self.codes.size + sum(r["orbits"] for r in self.store.layers[self.held:d + 1]) \
                > self.room:
            self.codes = None  # from here on the files are read
            return True
        for e in range(self.held, d + 1):
            if e > self.held and stopped():
                return False
            parts = [np.asarray(self.store.read(e, b))
                     for b in range(1 << self.store.layers[e]["bits"])]
            new = distinct(np.concatenate(parts), runs=True)  # none is in the set already
            self.codes = np.insert(self.codes, np.searchsorted(self.codes, new), new)
            self.held = e + 1
        return True

    def fresh(self, raw: np.ndarray, d: int, k: int, bits: int,
              stopped: Callable[[], bool]) -> np.ndarray | None:
        """The distinct codes of raw bucket ``k`` (of ``2^bits``; sorted runs) of layer
        ``d + 1`` that no earlier layer holds, sorted; None when ``stopped()`` said so."""
        new = distinct(raw, runs=True)
        if self.codes is not None:
            return minus(new, self.codes)
        for n, e in enumerate(self.layers(d)):
            if n and stopped():
                return None
            new = minus(new, *self.store.overlapping(e, k, bits))
        return new
