"""Anytime search: a plan first (weighted A*), then a proof of optimality (A*, IDA*)."""

from __future__ import annotations

from ....answers.result import Result, Status
from ....answers.words import lower_bound
from ...runtime.clock import seconds, stated
from ...runtime.stop import Stop
from ..common import Budget, found
from ..compile import Task
from .astar import best_first, informed_result
from .heuristic import Estimate, Outcome, compile_estimate
from .idastar import ida
from .wastar import WEIGHT

PROOF_SECONDS = 5.0
"""Time given to the optimality proof when the caller gave no time limit (none at all:
one lifted, ``--time-limit none``, lets the proof run until it ends or is stopped)."""

ASTAR_CAP = 1_000_000
"""States A* may store while proving; past that the proof goes on with IDA* (memory-light)."""


def anytime(task: Task, budget: Budget) -> Result:
    """Weighted A* for a plan, then A* and IDA* below its cost to prove it optimal.

    1. weighted A* (``WEIGHT``) finds a plan (``SOLVED``) — quickly, even on
       the 15-puzzle;
    2. A* looks for a cheaper plan, dropping states whose ``g + h`` reaches
       the plan's cost; if it stores ``ASTAR_CAP`` states, IDA* carries on
       from the bound A* proved.  Running out of states proves the plan
       ``OPTIMAL``; a cheaper plan found is ``OPTIMAL`` itself.
    3. if the time runs out first, the weighted A* plan is returned
       ``SOLVED`` with ``bound``, the proven lower bound.

    The proof gets whatever is left of the caller's time limit, or
    ``PROOF_SECONDS`` when none was given, so this never runs unbounded once a
    plan is known (the message says so) — unless the caller lifted every limit
    (``budget.lifted``: ``--time-limit none``): then it runs until it ends or a
    stop is asked for (Ctrl-C keeps the plan and the bound).
    """
    estimate = compile_estimate(task, budget)
    first = best_first(task, budget, estimate, weight=WEIGHT)
    if first.stop != "goal" or (first.bound is not None and first.bound >= (first.cost or 0)):
        return informed_result(task, budget, estimate, first, f"weighted A* (w={WEIGHT:g})")
    assert first.path is not None and first.cost is not None
    default = budget.clock.limit is None and not budget.lifted
    proof_budget = Budget(PROOF_SECONDS if default else None, budget.limit, budget.progress,
                          budget.width, clock=None if default else budget.clock)
    proof = _prove(task, proof_budget, estimate, first)
    explored = first.explored + proof.explored
    details = {"estimate": True, "plan_search": f"weighted A* (w={WEIGHT:g})",
               "first_cost": first.cost, "proof": proof.details.get("proof", "A*")}
    if "mirror" in proof.details:  # IDA* also read the tables at the mirror image
        details["mirror"] = proof.details["mirror"]
    details.update(estimate.details(), proof_uses_estimate=estimate.declared)
    if proof.stop == "goal":  # a cheaper plan, optimal
        assert proof.path is not None
        return found(task, proof.path, Status.OPTIMAL, explored, **details)
    if proof.stop == "exhausted":  # nothing cheaper than the first plan
        return found(task, first.path, Status.OPTIMAL, explored, **details)
    bound = max(first.bound or 0, proof.bound or 0)
    what = "steps" if task.unit_costs else "cost"
    message = (f"weighted A* found a plan of {first.cost} {what}; the optimality proof "
               f"{_stopped(proof_budget, budget, default)}: "
               f"{lower_bound(bound, task.unit_costs)}")
    result = found(task, first.path, Status.SOLVED, explored, message, **details)
    return result.but(bound=bound)


def _stopped(proof: Budget, budget: Budget, default: bool) -> str:
    """How the optimality proof under ``proof`` ended, in words: interrupted, stopped at
    the default proof budget (``default``: no time limit was given), at the caller's time
    limit (``budget``'s), at the memory limit, or by another stop asked for (a race's
    cross-check window), which its own words name."""
    if proof.stop is Stop.INTERRUPT:
        return "was interrupted"
    if default and proof.stop is Stop.TIME and proof.clock.time_up():
        return (f"stopped at the default proof budget of {PROOF_SECONDS:g} s (no time limit "
                "was given; set one, or 'none', to search longer)")
    if proof.stop is Stop.TIME and budget.clock.time_up():
        return (f"stopped at the time limit ({seconds(stated(budget.clock.limit))} s)"
                f"{budget.clock.share_words()}")
    if proof.stop is Stop.MEMORY:
        return f"stopped at the {proof.reason}"
    return f"was stopped ({proof.reason})"


def _prove(task: Task, budget: Budget, estimate: Estimate, first: Outcome) -> Outcome:
    """A* below the first plan's cost; IDA* from A*'s bound if A* fills its memory cap.

    With the fast pattern-database IDA* (:mod:`.pdb_ida`), IDA* alone.
    """
    if estimate.patterns is not None and _fast(task, estimate):
        out = ida(task, budget, estimate, upper=first.cost)
        out.details["proof"] = "IDA*"
        return out
    out = best_first(task, budget, estimate, upper=first.cost, cap=ASTAR_CAP)
    if out.stop != "cap":
        return out
    more = ida(task, budget, estimate, threshold=out.bound, upper=first.cost)
    more.explored += out.explored
    more.details["proof"] = "A*, then IDA*"
    if more.bound is None:
        more.bound = out.bound
    return more


def _fast(task: Task, estimate: Estimate) -> bool:
    """Whether IDA* runs the pattern-database loop of :mod:`.pdb_ida` (numpy is loaded)."""
    from .pdb_ida import fast_form

    return fast_form(task, estimate) is not None
