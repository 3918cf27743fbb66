"""One-word codes of a task, shared by the on-disk (:mod:`.external`) and cluster
(:mod:`.cluster`) analyses: the packing and symmetry group, a chunk's canonical successors,
and the states a set of canonical codes stands for."""

from __future__ import annotations

import numpy as np

from ..common import Inapplicable
from ..compile import Task
from ..emit import TooDeep
from .codesets import distinct
from .packing import Packed, Unpackable
from .symmetry import Orbits, group


def prepare(task: Task, symmetry: bool = True) -> tuple[Packed, Orbits]:
    """The packing and the symmetry group of a task (only the identity without ``symmetry``);
    :class:`Inapplicable` if the task does not pack."""
    try:
        packed = Packed(task)
    except (Unpackable, TooDeep) as exc:  # one word only: its layers, files and partitions
        raise Inapplicable(f"external analysis not possible: {exc} (the on-disk and cluster "
                           "analyses pack a state into one int64; the in-memory one takes "
                           "several)") from exc
    perms = group(task.model, task.names) if symmetry else [tuple(range(len(task.names)))]
    return packed, Orbits(packed, perms)


def expand(packed: Packed, orbits: Orbits, codes: np.ndarray) -> np.ndarray:
    """The canonical codes of the successors of ``codes``, sorted and distinct."""
    return distinct(orbits.canonical(packed.forward(np.ascontiguousarray(codes))))


def positions(orbits: Orbits, codes: np.ndarray, chunk: int = 1 << 20) -> int:
    """How many states the orbits of ``codes`` hold (in slices, to bound memory)."""
    if orbits.size == 1:
        return int(codes.size)
    return sum(int(orbits.orbit_sizes(np.asarray(codes[i:i + chunk])).sum())
               for i in range(0, codes.size, chunk))
