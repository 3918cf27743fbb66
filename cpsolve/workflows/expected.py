"""A model file's ``[expected]`` table against the answer a run found.

The table (:data:`cpsolve.puzzles.expected_table.EXPECTED`) records known answers; a run whose
proven answer contradicts one is told so (on stderr, and in ``--json`` as
``expected_mismatch``).  Only what the run proved is compared: a status it proved, a value
it proved optimal, a count it finished or the least it reached when stopped, what an answer
it found proves (a solution exists; an optimum is no worse than its value), and what a proof
that there is none proves (no plan has steps or a cost) — never what a limit kept it from
proving.

An analysis is held against ``states``, ``max_distance`` and ``farthest`` only when it ran in
the model's default direction (:func:`default_direction`: the one ``analyze`` takes
without ``--from``), which the keys describe; one from the other end counts other states
(their figures differ when not every move can be undone) and proves nothing of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..answers.kinds import Analysis, Assignment, Count, Direction, Plan
from ..answers.result import Result, Status
from ..model.csp import Csp
from ..model.pins import goal_state
from ..model.planning import Planning

PROVEN_SOLVE = {Status.OPTIMAL: "optimal", Status.SOLVED: "solved",
                Status.INFEASIBLE: "infeasible"}


def mismatches(expected: Mapping[str, Any], result: Result,
               model: Csp | Planning | None = None) -> list[str]:
    """One line per key of ``expected`` that ``result`` contradicts (``[]``: none).
    ``model``: the model ``result`` answers, which says the direction an analysis is held
    in (:func:`default_direction`); without it no analysis is held."""
    return list(mismatched(expected, result, model).values())


def mismatched(expected: Mapping[str, Any], result: Result,
               model: Csp | Planning | None = None) -> dict[str, str]:
    """:func:`mismatches` by key of ``expected`` (several engines' results of one model
    are then told once per key)."""
    found = _found(result, model)
    return {key: f"the model's [expected] says {key} = {_show(want)}; this run found "
                 f"{_show(found[key])}" for key, want in expected.items()
            if key in found and _differ(want, found[key])}


@dataclass(frozen=True)
class Between:
    """A number the run bounds without knowing it: ``least`` or more, ``most`` or less
    (``None``: no bound that side).  A second solution bounds a count from below; a found
    solution bounds a minimum from above, a proven bound from below (a maximum the other
    way round)."""

    least: int | None = None
    most: int | None = None


@dataclass(frozen=True)
class Absent:
    """What a proof that there is no answer finds for a key that measures one (the steps
    of a plan, a csp's optimum): no expected value agrees with it but ``agrees`` (``unique
    = false``: not exactly one solution)."""

    what: str
    agrees: Any = None


NOTHING: dict[str, Any] = {
    "count": 0, "classes": 0, "unique": Absent("no solution", agrees=False),
    "steps": Absent("no plan"), "cost": Absent("no plan"), "objective": Absent("no solution")}
"""What a proof that no solution (no plan) exists proves, under the keys of ``[expected]``:
no solution or optimal plan to count, none unique, no plan to measure, no optimum."""


@dataclass(frozen=True)
class Unproven:
    """A solve that found an answer that may be optimal, but stopped short of the proof
    that would say so (a limit, or an engine that proves no optimum): it contradicts
    ``infeasible`` only."""


def _differ(want: Any, found: Any) -> bool:
    """``solve``: a proven status other than the expected one (an answer without the
    optimality proof contradicts ``infeasible`` only); a number known to lie
    :class:`Between` two bounds: any number outside them; an :class:`Absent` one: any."""
    if isinstance(found, Unproven):
        return want == "infeasible"
    if isinstance(found, Absent):
        return want != found.agrees
    if isinstance(found, Between):
        return (found.least is not None and want < found.least) or \
            (found.most is not None and want > found.most)
    return want != found


def default_direction(model: Csp | Planning) -> Direction | None:
    """The direction ``analyze`` explores ``model`` in without ``--from``, which the keys
    ``states``, ``max_distance`` and ``farthest`` describe: back from the goal when the goal
    is one state (:func:`~cpsolve.model.pins.goal_state`, within the domains), else from the
    start; ``None`` for a csp (it has no states to analyze)."""
    if not isinstance(model, Planning):
        return None
    goal = goal_state(model)
    if goal is None or any(v not in d for v, d in zip(goal, model.domains.values())):
        return "start"
    return "goal"


def _found(result: Result, model: Csp | Planning | None = None) -> dict[str, Any]:
    """What ``result`` proves, under the keys of ``[expected]``."""
    answer, status = result.answer, result.status
    out: dict[str, Any] = {}
    if result.task == "solve" and status in PROVEN_SOLVE:
        out.update(_solved(result))
    if result.task == "count" and status in (Status.EXACT, Status.AT_LEAST) and \
            isinstance(answer, Count):
        out.update(_counted(result, answer))
    if result.task == "analyze" and isinstance(answer, Analysis) and model is not None and \
            answer.direction == default_direction(model):
        out.update(_analysed(result, answer))
    return out


def _analysed(result: Result, answer: Analysis) -> dict[str, Any]:
    """What an analysis in the default direction proves: complete, its figures; stopped by
    a limit (``partial``), that there are no fewer states than it found, and a maximum
    distance no less than its last complete layer's (``result.bound``)."""
    if result.status is Status.COMPLETE:
        return {"states": answer.states, "max_distance": answer.max_distance,
                "farthest": answer.layers[-1] if answer.layers else 0}
    out: dict[str, Any] = {"states": Between(least=answer.states)}
    if result.bound is not None and result.bound >= 0:
        out["max_distance"] = Between(least=result.bound)
    return out


def _solved(result: Result) -> dict[str, Any]:
    """What a solve that ended ``optimal``, ``solved`` or ``infeasible`` proves.  An answer
    found is a count of 1 or more (of solutions, or of optimal plans: a plan proves that an
    optimal one exists) and bounds the optimum (a plan's least cost, a csp's objective);
    a ``solved`` csp without an objective has proven all it can."""
    answer, status = result.answer, result.status
    if status is Status.INFEASIBLE:
        return {"solve": "infeasible", **NOTHING}  # no solution, so no optimal plan either
    out: dict[str, Any] = {"solve": PROVEN_SOLVE[status], "count": Between(least=1)}
    if status is Status.SOLVED and (isinstance(answer, Plan) or
                                    getattr(answer, "objective", None) is not None):
        out["solve"] = Unproven()
    if status is Status.OPTIMAL and isinstance(answer, Plan):
        out.update(steps=len(answer.steps), cost=answer.cost)
    elif isinstance(answer, Plan):  # the least cost is no more than this plan's
        out["cost"] = Between(most=answer.cost)  # (steps: an optimal plan may take more)
    if isinstance(answer, Assignment) and answer.unique is not None:
        # a proven unique solution is a count of 1; a second one, of 2 or more
        out.update(unique=answer.unique, count=1 if answer.unique else Between(least=2))
    if isinstance(answer, Assignment) and answer.objective is not None:
        out["objective"] = _optimum(result, answer)
    return out


def _optimum(result: Result, answer: Assignment) -> int | Between:
    """What a solve proves of a csp's optimum: the value itself (``optimal``), or bounds —
    the found solution's value on one side (the optimum is no worse), the engine's proven
    bound (``result.bound``) on the other."""
    value = answer.objective
    assert value is not None
    if result.status is Status.OPTIMAL:
        return value
    if answer.minimizing:
        return Between(least=result.bound, most=value)
    return Between(least=value, most=result.bound)


def _counted(result: Result, answer: Count) -> dict[str, Any]:
    """What a count proves: exact, ``count``; stopped by a limit (``at_least``), that it is
    no less than the count reached.  A count up to symmetry (``count --up-to``) counts
    classes, with every solution's ``count`` as its total (``details["total_at_least"]``
    when stopped), and ``classes`` when the classes are those of the model's symmetries
    (``--up-to symmetry``, not ``relabel``).  A count of a csp's optimal solutions
    (``count --optimal``, ``details["optimum"]``) proves the ``objective`` and is only a
    lower bound on ``count`` (every solution); a count of optimal plans proves their
    ``cost``.  An exact count of none proves that there is no solution (no plan); a count
also proves ``unique`` when it says one solution exactly, or two found."""
    exact = result.status is Status.EXACT
    if exact and answer.count == 0:
        return dict(NOTHING)

    def counted(n: int) -> int | Between:
        return n if exact else Between(least=n)

    details = result.details
    if details.get("up_to") is not None:
        total = details.get("total" if exact else "total_at_least")
        out: dict[str, Any] = {} if total is None else \
            {"count": counted(total), **_unique(total, exact)}
        if details["up_to"] == "symmetry":
            out["classes"] = counted(answer.count)
        return out
    if details.get("optimum") is not None:
        return {"count": Between(least=answer.count), "objective": details["optimum"],
                **_unique(answer.count, False)}
    out = {"count": counted(answer.count), **_unique(answer.count, exact)}
    if answer.cost is not None:
        out["cost"] = answer.cost
    return out


def _unique(solutions: int, exact: bool) -> dict[str, bool]:
    """What ``solutions`` counted (all of them when ``exact``, else at least so many) prove
    of ``unique`` (a csp's key): one exactly, yes; two found, no; else nothing."""
    if solutions >= 2:
        return {"unique": False}
    return {"unique": True} if exact and solutions == 1 else {}


def _show(value: Any) -> str:
    if isinstance(value, Unproven):
        return "'solved'"
    if isinstance(value, Absent):
        return value.what
    if isinstance(value, Between):
        return f"{value.least:,} or more" if value.most is None else \
            f"{value.most:,} or less" if value.least is None else \
            f"{value.least:,} to {value.most:,}"
    return str(value).lower() if isinstance(value, bool) else repr(value) \
        if isinstance(value, str) else f"{value:,}" if isinstance(value, int) else str(value)
