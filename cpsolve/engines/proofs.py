"""Proofs that no plan exists: tried by every engine before it searches, or stated by a
puzzle's family.

Every planning task — ``solve`` and ``count`` (the optimal plans) — of every
engine starts with :func:`.unsolvable.before_search`, so a model that an invariant
(:mod:`cpsolve.model.invariants`) proves unsolvable gets the same answer at once
from each of them, in each task's own words: ``infeasible`` for a solve, an
exact count of 0 for a count, with the proof ``invariant`` and the invariant
itself for the checker to re-verify.  :func:`.unsolvable.none_exists` turns any
proof that a solve has no answer into the count's form.

A family may know an argument of its own (the sliding puzzles' permutation parity,
:class:`~cpsolve.model.invariants.Parity`): :func:`argued` answers with it before any
engine runs, and passes that answer through the same check as every engine's
(:func:`cpsolve.engines.checked`), so the checker re-derives the argument from the model.
"""

from __future__ import annotations

import time

from ..answers.result import Result
from ..model import Csp, Planning
from ..model.invariants import Parity
from . import checked
from .unsolvable import none_exists

ARGUED = "invariant"
"""The engine name of an answer given by a family's own argument (no engine ran)."""


def argued(model: Csp | Planning, task: str, parity: Parity | None,
           keep: bool = False) -> Result | None:
    """The checked answer to ``task`` when a family's own argument (``parity``) proves that
    no plan exists: ``infeasible`` for a solve, an exact count of 0 for a count of optimal
    plans (``keep``: with the empty list of plans), proof ``parity``, under the engine
    name :data:`ARGUED`.  None when there is no argument, for an analysis and for a csp.

    The answer goes through the check of :func:`cpsolve.engines.run`
    (:func:`cpsolve.engines.checked`): the checker re-derives the parity from the model
    (:func:`cpsolve.answers.check.proofs.parity_problem`) and the answer is ``verified``, or a
    wrong argument is an :class:`~cpsolve.answers.result.EngineBug`.
    """
    if parity is None or task not in ("solve", "count") or model.kind != "planning":
        return None
    start = time.perf_counter()
    result = none_exists(ARGUED, task, "parity", parity.words, keep, parity=parity)
    return checked(ARGUED, task, model, result, time.perf_counter() - start)
