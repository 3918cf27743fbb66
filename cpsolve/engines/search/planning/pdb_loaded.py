"""Finished pattern tables read from the cache (:mod:`.pdb_store`), checked before they are
trusted, and kept in memory once read.

A table's entries are lower bounds that searches prune on and proofs rest on, so a file
is used only when it is verified: it holds the table's key, its entries and a SHA-256
:func:`digest` of both, written when the table was built and compared when it is read
(an edited or damaged file does not match), and the goal's entry must be 0
(:func:`check_goal`).  A file that fails raises :class:`Ignored` with one line saying why;
the caller rebuilds the table and says so.

A process that solves many instances of one puzzle (a batch, a benchmark) reads each
table file once: :func:`read` keeps the array (read-only) and its bytes for as long as
the file is the same one (same inode, size and modification time), at most
:data:`LOADED_KEPT` tables, the oldest dropped first.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import numpy as np

LOADED_KEPT = 8
"""Finished tables kept in memory after loading, newest last."""

_loaded: dict[str, tuple[tuple[int, int, int], np.ndarray, bytes]] = {}


class Ignored(Exception):
    """A cached file was not used (the message says why, in one line)."""


def digest(key: str, *arrays: np.ndarray) -> str:
    """SHA-256 of ``key`` and ``arrays`` (their types, shapes and bytes), in hex."""
    h = hashlib.sha256(key.encode())
    for a in arrays:
        h.update(repr((a.dtype.str, a.shape)).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def check_goal(table: np.ndarray, goal: int | None) -> None:
    """Raise :class:`Ignored` unless the goal's entry (at index ``goal``, if given) is 0."""
    if goal is not None and int(table[goal]) != 0:
        raise Ignored(f"its goal entry is {int(table[goal])}, not 0")


def write(f, key: str, table: np.ndarray) -> None:
    """Write a finished table with its key and :func:`digest` to the open file ``f``."""
    np.savez(f, key=np.array(key), table=table, sha256=np.array(digest(key, table)))


def read(path: Path, key: str, size: int, goal: int | None = None) -> np.ndarray | None:
    """The table in ``path`` (``key``'s, with ``size`` byte entries), None when there is
    no such file; raises :class:`Ignored` when the file is there but not verified."""
    try:
        info = path.stat()
    except OSError:
        return None
    stamp = (info.st_ino, info.st_size, info.st_mtime_ns)
    kept = _loaded.get(key)
    if kept is not None and kept[0] == stamp and kept[1].shape == (size,):
        check_goal(kept[1], goal)
        return kept[1]
    table = _verified(path, key, size, goal)
    table.flags.writeable = False
    _loaded.pop(key, None)
    while len(_loaded) >= LOADED_KEPT:
        _loaded.pop(next(iter(_loaded)))
    _loaded[key] = (stamp, table, table.tobytes())
    return table


def _verified(path: Path, key: str, size: int, goal: int | None) -> np.ndarray:
    """The table of the file ``path``, checked (see the module docstring)."""
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise Ignored("not a table file with a checksum")
        with data:
            if str(data["key"]) != key:
                raise Ignored("it belongs to another table")
            table, sha = data["table"], str(data["sha256"])
    except Ignored:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise Ignored(f"unreadable ({type(exc).__name__})") from exc
    if table.dtype != np.uint8 or table.shape != (size,):
        raise Ignored("its table has the wrong size")
    if sha != digest(key, table):
        raise Ignored("its checksum does not match its entries (damaged or edited)")
    check_goal(table, goal)
    return table


def table_bytes(table: np.ndarray) -> bytes:
    """``table.tobytes()``, without the copy when it is a table kept by :func:`read`."""
    for _, kept, data in _loaded.values():
        if kept is table:
            return data
    return table.tobytes()
