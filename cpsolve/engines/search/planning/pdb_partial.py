"""Stopped pattern-database builds on disk (``pdb-K.partial.npz``: :mod:`.pdb_store`),
written and read back checked.

The file holds ``meta`` (format, distance, number of layers, abstract states met),
``key`` (the table's: a file renamed or copied from another table is not taken for this
one), ``table`` (the entries so far), ``layer0``, ``layer1``, ... (the layers the build
goes on from), and two digests (:func:`.pdb_loaded.digest`): ``sha256`` of key, meta and
table, and ``layers_sha256`` of key and layers, so that the table can be checked without
reading the layers.  A build is resumed, and its table used as a lower bound, only when
the digests match, the goal's entry is 0 and no entry exceeds the distance claimed;
otherwise :class:`.pdb_loaded.Ignored` says why, in one line.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from ..statespace.codesets import is_set
from .pdb_build import UNREACHABLE, Partial
from .pdb_loaded import Ignored, check_goal, digest

PARTIAL_FORMAT = 2
"""Version of the partial files' layout (checked when one is read; 2: with digests)."""


def write_partial(f, key: str, partial: Partial) -> None:
    """Write the stopped build ``partial`` of table ``key`` to the open file ``f``."""
    meta = np.array([PARTIAL_FORMAT, partial.distance, len(partial.layers), partial.states],
                    np.int64)
    arrays = {f"layer{j}": layer for j, layer in enumerate(partial.layers)}
    sums = {"sha256": np.array(digest(key, meta, partial.table)),
            "layers_sha256": np.array(digest(key, *partial.layers))}
    np.savez(f, meta=meta, key=np.array(key), table=partial.table, **arrays, **sums)


def read_partial(path: Path, key: str, size: int, layers: bool = True,
                 goal: int | None = None) -> Partial:
    """The stopped build of table ``key`` (``size`` entries, the goal's at index ``goal``)
    in the file ``path``, checked (see the module docstring).

    Without ``layers`` only the table and distance are read (to use the table
    as it is, not to resume it).  Raises :class:`Ignored` when the file is
    damaged, edited or not a build of this table.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = data["meta"]
            if meta.shape != (4,) or int(meta[0]) != PARTIAL_FORMAT:
                raise Ignored("not a partial table of this version")
            if str(data["key"]) != key:
                raise Ignored("it belongs to another table")
            distance, count, states = int(meta[1]), int(meta[2]), int(meta[3])
            table = data["table"]
            if table.dtype != np.uint8 or table.shape != (size,):
                raise Ignored("its table has the wrong size")
            if str(data["sha256"]) != digest(key, meta, table):
                raise Ignored("its checksum does not match its table (damaged or edited)")
            check_goal(table, goal)
            if not 0 <= distance < UNREACHABLE or not 1 <= count <= distance + 1 \
                    or states < 1:
                raise Ignored("its distance, layer count or states are out of range")
            known = table[table != UNREACHABLE]
            if known.size and int(known.max()) > distance:
                raise Ignored("its table holds distances beyond the layers it claims")
            kept = [_layer(data[f"layer{j}"]) for j in range(count)] if layers else []
            if layers and str(data["layers_sha256"]) != digest(key, *kept):
                raise Ignored("its checksum does not match its layers (damaged or edited)")
    except Ignored:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise Ignored(f"unreadable ({type(exc).__name__})") from exc
    return Partial(distance, table, kept, states)


def _layer(codes: np.ndarray) -> np.ndarray:
    """A saved layer, checked: a non-empty set of codes (:func:`.codesets.is_set`)."""
    if not codes.size or not is_set(codes):
        raise Ignored("a saved layer is not a sorted set of codes")
    return codes
