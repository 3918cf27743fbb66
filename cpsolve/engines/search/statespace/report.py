"""The result of a layered analysis on disk (:mod:`.external`) or on a cluster
(:mod:`.cluster`): layer sizes, orbits, farthest states, and where a state limit cut the
last layer (:func:`prefix`)."""

from __future__ import annotations

import numpy as np

from ....answers.kinds import Analysis, Direction
from ....answers.result import Result, Status
from ...runtime.stop import Stop
from .layers import WHAT, partial_analysis
from .packing import Packed
from .symmetry import Orbits


def prefix(orbits: Orbits, codes: np.ndarray, room: int) -> tuple[int, int]:
    """``(orbits, states)`` of the longest run of ``codes`` from the first whose orbits
    hold at most ``room`` states: where a state limit cuts a layer."""
    if room <= 0:
        return 0, 0
    if orbits.size == 1:
        kept = min(room, int(codes.size))
        return kept, kept
    held = np.cumsum(orbits.orbit_sizes(np.asarray(codes)))
    kept = int(np.searchsorted(held, room, side="right"))
    return kept, int(held[kept - 1]) if kept else 0


def layered(packed: Packed, orbits: Orbits, sizes: list[tuple[int, int]],
            last: np.ndarray | None, stop: str | None, details: dict, more: dict,
            hint: str = "", side: Direction = "start", partial: bool = False) -> Result:
    """The result of a layered analysis from the start (on disk or on a cluster): ``sizes``
    the ``(orbits, states)`` of each layer, ``last`` the farthest layer's codes (None: not
    listed), ``stop`` the reason it stopped (None: it is complete); ``details`` then the
    orbit counts (when symmetries were used) then ``more`` in the details, ``hint`` at the end
    of a stopped one's message; ``partial``: the last of ``sizes`` is a layer cut short
    (the states found in it up to the limit), as the in-memory analysis reports it."""
    layers = tuple(s for _, s in sizes)
    seen = sum(layers)
    details = dict(details)
    if orbits.size > 1:
        details.update(symmetries=orbits.size, orbits=sum(o for o, _ in sizes),
                       orbit_layers=[o for o, _ in sizes])
    details.update(more)
    if stop is not None:
        return partial_analysis(stop, seen, layers, side, WHAT[side], details, partial, hint)
    farthest: tuple = ()
    if last is not None:
        farthest = tuple(sorted(packed.states(np.unique(np.concatenate(orbits.images(last))))))
    return Result(status=Status.COMPLETE, engine="search", task="analyze",
                  answer=Analysis(seen, layers, side, len(layers) - 1, farthest),
                  explored=seen,
                  details={"reachable": seen, **details} if side == "start" else details)


def go_on(stop: Stop | None) -> str:
    """How a run on disk stopped by ``stop`` goes on: again with ``--resume`` (which keeps
    the finished layers), and past the state limit only with a higher one."""
    return "; run again with --resume and a higher --limit to go on" \
        if stop is Stop.STATES else "; run again with --resume to go on"
