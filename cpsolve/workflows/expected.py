"""A model file's ``[expected]`` table against the answer a run found.

The table (:data:`cpsolve.puzzles.files.EXPECTED`) records known answers; a run whose
proven answer contradicts one is told so (on stderr, and in ``--json`` as
``expected_mismatch``).  Only what the run proved is compared: an answer cut short by a
limit contradicts nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..answers.kinds import Analysis, Assignment, Count, Plan
from ..answers.result import Result, Status

PROVEN_SOLVE = {Status.OPTIMAL: "optimal", Status.SOLVED: "solved",
                Status.INFEASIBLE: "infeasible"}


def mismatches(expected: Mapping[str, Any], result: Result) -> list[str]:
    """One line per key of ``expected`` that ``result`` contradicts (``[]``: none)."""
    return list(mismatched(expected, result).values())


def mismatched(expected: Mapping[str, Any], result: Result) -> dict[str, str]:
    """:func:`mismatches` by key of ``expected`` (several engines' results of one model
    are then told once per key)."""
    found = _found(result)
    return {key: f"the model's [expected] says {key} = {_show(want)}; this run found "
                 f"{_show(found[key])}" for key, want in expected.items()
            if key in found and _differ(key, want, found[key])}


@dataclass(frozen=True)
class AtLeast:
    """A count proven to be ``least`` or more (a solve that found a second solution)."""

    least: int


def _differ(key: str, want: Any, found: Any) -> bool:
    """``solve``: only infeasible against an answer contradicts (an answer without an
    optimality proof agrees with ``optimal``, an optimal one with ``solved``); a count of
    ``AtLeast(n)``: any count below ``n``."""
    if key == "solve":
        return (want == "infeasible") != (found == "infeasible")
    if isinstance(found, AtLeast):
        return want < found.least
    return want != found


def _found(result: Result) -> dict[str, Any]:
    """What ``result`` proves, under the keys of ``[expected]``."""
    answer, status = result.answer, result.status
    out: dict[str, Any] = {}
    if result.task == "solve" and status in PROVEN_SOLVE:
        out["solve"] = PROVEN_SOLVE[status]
        if status is Status.OPTIMAL and isinstance(answer, Plan):
            out.update(steps=len(answer.steps), cost=answer.cost)
        if isinstance(answer, Assignment) and answer.unique is not None:
            # a proven unique solution is a count of 1; a second one, of 2 or more
            out.update(unique=answer.unique, count=1 if answer.unique else AtLeast(2))
        if status is Status.INFEASIBLE:
            out["count"] = 0  # no solution, so no optimal plan either
        if status is Status.OPTIMAL and isinstance(answer, Assignment) and \
                answer.objective is not None:
            out["objective"] = answer.objective
    if result.task == "count" and status is Status.EXACT and isinstance(answer, Count):
        out.update(_counted(result, answer))
    if result.task == "analyze" and status is Status.COMPLETE and \
            isinstance(answer, Analysis) and answer.direction == "goal":
        out.update(states=answer.states, max_distance=answer.max_distance,
                   farthest=answer.layers[-1] if answer.layers else 0)
    return out


def _counted(result: Result, answer: Count) -> dict[str, int]:
    """What an exact count proves: ``count``; a count up to symmetry (``count --up-to``)
    counts classes, with every solution's ``count`` as its total, and ``classes`` when the
    classes are those of the model's symmetries (``--up-to symmetry``, not ``relabel``)."""
    up_to = result.details.get("up_to")
    if up_to is None:
        return {"count": answer.count}
    out = {} if result.details.get("total") is None else {"count": result.details["total"]}
    if up_to == "symmetry":
        out["classes"] = answer.count
    return out


def _show(value: Any) -> str:
    if isinstance(value, AtLeast):
        return f"{value.least:,} or more"
    return str(value).lower() if isinstance(value, bool) else repr(value) \
        if isinstance(value, str) else f"{value:,}" if isinstance(value, int) else str(value)
