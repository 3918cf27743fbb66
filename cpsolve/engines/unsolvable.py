"""Proofs that no plan exists: tried by every engine before it searches, or carried by the
model as a family's own argument.

Every planning task — ``solve`` and ``count`` (the optimal plans) — of every
engine starts with :func:`before_search`, so a model that an invariant
(:mod:`cpsolve.model.invariants`) proves unsolvable gets the same answer at once
from each of them, in each task's own words: ``infeasible`` for a solve, an
exact count of 0 for a count, with the proof ``invariant`` and the invariant
itself for the checker to re-verify.  :func:`none_exists` turns any
proof that a solve has no answer into the count's form.

A family may know an argument of its own (the sliding puzzles' permutation parity,
:class:`~cpsolve.model.invariants.Parity`), which it attaches to the model it builds
(:meth:`~cpsolve.model.planning.Planning.set_unsolvable`): :func:`cpsolve.engines.run`
answers with it (:func:`cpsolve.engines.argued`, engine name :data:`ARGUED`) before any
engine starts, whichever engine was named, and so does ``auto``'s race
(:func:`cpsolve.engines.auto.racing.argued_race`); the answer passes through the same check
as every engine's (:func:`cpsolve.engines.checked`), so the checker re-derives the argument
from the model.

Imports no engine code, so :func:`cpsolve.engines.run` can give the proof when an engine
cannot start at all.
"""

from __future__ import annotations

from ..answers.result import Count, Result, Status
from ..model import Planning
from ..model.invariants import Invariant, find
from ..model.pins import goal_beyond_domains

ARGUED = "invariant"
"""The engine name of an answer given by the model's own argument (no engine ran)."""


def claimed(model: Planning, task: str, keep: bool = False) -> Result | None:
    """The answer to ``task`` of the argument the model carries that no plan exists
    (:attr:`~cpsolve.model.planning.Planning.unsolvable`), before it is checked
    (:func:`cpsolve.engines.argued` checks it): ``infeasible`` for a solve, an exact count of
    0 for a count (``keep``: with the empty list of plans), proof ``parity``, engine name
    :data:`ARGUED`.  None when the model carries none, for an analysis and for a csp."""
    parity = getattr(model, "unsolvable", None)
    if parity is None or task not in ("solve", "count") or model.kind != "planning":
        return None
    return none_exists(ARGUED, task, "parity", parity.words, keep, parity=parity)


def none_exists(engine: str, task: str, proof: str, message: str, keep: bool = False,
                invariant: Invariant | None = None, **fields: object) -> Result:
    """The result of ``task`` when ``proof`` shows there is no plan: ``infeasible`` (solve),
    or an exact count of 0 (count; ``keep``: with the empty list of plans)."""
    if task == "count":
        none = Count(0, plans=() if keep else None, of="plans")
        return Result(Status.EXACT, engine, "count", none, proof=proof, message=message,
                      invariant=invariant, **fields)  # type: ignore[arg-type]
    return Result(Status.INFEASIBLE, engine, task, proof=proof, message=message,
                  invariant=invariant, **fields)  # type: ignore[arg-type]


def before_search(model: Planning, engine: str, task: str, keep: bool = False) -> Result | None:
    """The answer when an invariant proves that no plan exists; None when none does.

    The domains are the first invariant tried: every state keeps each variable in its
    domain, so a goal with a conjunct whose bounds no values within the domains meet
    (``x >= 7`` where ``x`` takes ``0..6``), or that pins one variable to two values
    (:func:`~cpsolve.model.pins.goal_beyond_domains`), holds nowhere — proof
    ``invariant``, nothing explored.  Then a weighted sum no action changes
    (:func:`~cpsolve.model.invariants.find`).

    The model is validated first (:meth:`~cpsolve.model.planning.Planning.validate`), so a
    malformed model is refused as it would be by any search.
    """
    model.validate()
    if (beyond := goal_beyond_domains(model)) is not None:
        return none_exists(engine, task, "invariant", beyond, keep, explored=0)
    invariant = find(model)
    if invariant is None:
        return None
    return none_exists(engine, task, "invariant", invariant.words(), keep, invariant)
