"""Proofs that no plan exists, tried by every engine before it searches.

Every planning task — ``solve`` and ``count`` (the optimal plans) — of every
engine starts with :func:`before_search`, so a model that an invariant
(:mod:`cpsolve.model.invariants`) proves unsolvable gets the same answer at once
from each of them, in each task's own words: ``infeasible`` for a solve, an
exact count of 0 for a count, with the proof ``invariant`` and the invariant
itself for the checker to re-verify.  :func:`none_exists` turns any
proof that a solve has no answer into the count's form.
"""

from __future__ import annotations

from ..answers.result import Count, Result, Status
from ..model import Planning
from ..model.invariants import Invariant, find


def none_exists(engine: str, task: str, proof: str, message: str, keep: bool = False,
                invariant: Invariant | None = None, **fields: object) -> Result:
    """The result of ``task`` when ``proof`` shows there is no plan: ``infeasible`` (solve),
    or an exact count of 0 (count; ``keep``: with the empty list of plans)."""
    if task == "count":
        return Result(Status.EXACT, engine, "count", Count(0, plans=() if keep else None),
                      proof=proof, message=message, invariant=invariant,
                      **fields)  # type: ignore[arg-type]
    return Result(Status.INFEASIBLE, engine, task, proof=proof, message=message,
                  invariant=invariant, **fields)  # type: ignore[arg-type]


def before_search(model: Planning, engine: str, task: str, keep: bool = False) -> Result | None:
    """The answer when an invariant proves that no plan exists; None when none does.

    The model is validated first (:meth:`~cpsolve.model.core.Planning.validate`), so a
    malformed model is refused as it would be by any search.
    """
    model.validate()
    invariant = find(model)
    if invariant is None:
        return None
    return none_exists(engine, task, "invariant", invariant.words(), keep, invariant)
