"""Proofs that no plan exists: tried by every engine before it searches, or carried by the
model as a family's own argument.

Every planning task — ``solve`` and ``count`` (the optimal plans) — of every
engine starts with :func:`.unsolvable.before_search`, so a model that an invariant
(:mod:`cpsolve.model.invariants`) proves unsolvable gets the same answer at once
from each of them, in each task's own words: ``infeasible`` for a solve, an
exact count of 0 for a count, with the proof ``invariant`` and the invariant
itself for the checker to re-verify.  :func:`.unsolvable.none_exists` turns any
proof that a solve has no answer into the count's form.

A family may know an argument of its own (the sliding puzzles' permutation parity,
:class:`~cpsolve.model.invariants.Parity`), which it attaches to the model it builds
(:meth:`~cpsolve.model.planning.Planning.set_unsolvable`): :func:`cpsolve.engines.run`
answers with it (:func:`cpsolve.engines.argued`, engine name :data:`ARGUED`) before any
engine starts, whichever engine was named, and so does ``auto``'s race
(:func:`cpsolve.engines.auto.racing.argued_race`); the answer passes through the same check
as every engine's (:func:`cpsolve.engines.checked`), so the checker re-derives the argument
from the model.
"""

from __future__ import annotations

from .unsolvable import ARGUED

__all__ = ["ARGUED"]
