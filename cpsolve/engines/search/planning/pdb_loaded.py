"""Finished pattern tables kept in memory once read from the cache (:mod:`.pdb_store`).

A process that solves many instances of one puzzle (a batch, a benchmark) reads each
table file once: :func:`read` keeps the array (read-only) and its bytes for as long as
the file is the same one (same inode, size and modification time), at most
:data:`LOADED_KEPT` tables, the oldest dropped first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

LOADED_KEPT = 8
"""Finished tables kept in memory after loading, newest last."""

_loaded: dict[str, tuple[tuple[int, int, int], np.ndarray, bytes]] = {}


def read(path: Path, key: str, size: int) -> np.ndarray | None:
    """The table in ``path`` (``key``'s) if it is there with ``size`` byte entries."""
    try:
        info = path.stat()
    except OSError:
        return None
    stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
    kept = _loaded.get(key)
    if kept is not None and kept[0] == stamp and kept[1].shape == (size,):
        return kept[1]
    try:
        table = np.load(path)
    except (OSError, ValueError):
        return None
    if table.dtype != np.uint8 or table.shape != (size,):
        return None
    table.flags.writeable = False
    _loaded.pop(key, None)
    while len(_loaded) >= LOADED_KEPT:
        _loaded.pop(next(iter(_loaded)))
    _loaded[key] = (stamp, table, table.tobytes())
    return table


def table_bytes(table: np.ndarray) -> bytes:
    """``table.tobytes()``, without the copy when it is a table kept by :func:`read`."""
    for _, kept, data in _loaded.values():
        if kept is table:
            return data
    return table.tobytes()
