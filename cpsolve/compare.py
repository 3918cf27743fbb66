"""Agreement between engines: what two results must share if both are right."""

from __future__ import annotations

from .result import Result, Status


def answer_of(result: Result) -> str:
    """The answer of a result in a few words (for tables)."""
    if result.status is Status.INFEASIBLE:
        return "infeasible (proven)"
    if result.status is Status.UNKNOWN:
        bound = f", bound {result.bound}" if result.bound is not None else ""
        return f"unknown{bound}"
    if result.task == "count" or result.count is not None and result.plan is None:
        if result.cost is not None:  # planning: the plans of least cost
            return f"{result.count} optimal plans (cost {result.cost})"
        return f"{result.count} solutions"
    if result.task == "analyze":
        return f"{result.states} states, max distance {result.max_distance}"
    if result.plan is not None:
        if result.cost is not None and result.cost != len(result.plan):
            return f"cost {result.cost} ({len(result.plan)} steps)"
        return f"{len(result.plan)} moves"
    if result.solution is not None:
        return "unique solution" if result.unique else "several solutions"
    return result.status.value


def disagreements(results: list[Result]) -> list[str]:
    """Every pair of results that cannot both be right, described."""
    out: list[str] = []
    for i, a in enumerate(results):
        for b in results[i + 1:]:
            problem = _conflict(a, b)
            if problem:
                out.append(f"{a.engine} vs {b.engine}: {problem}")
    return out


def _value(r: Result) -> int | None:
    if r.plan is not None:
        return r.cost if r.cost is not None else len(r.plan)
    return None


def _count_conflict(a: Result, b: Result) -> str | None:
    """An exact count against another exact count, or against a larger lower bound."""
    if a.count is None or b.count is None or a.plan is not None or b.plan is not None:
        return None
    exact_a, exact_b = a.status is Status.OPTIMAL, b.status is Status.OPTIMAL
    if exact_a and exact_b and a.count != b.count:
        return f"exact counts differ: {a.count} and {b.count}"
    if exact_a and exact_b and a.count and a.cost != b.cost:  # counts of optimal plans
        return f"the counted plans' least costs differ: {a.cost} and {b.cost}"
    for exact, partial in ((a, b), (b, a)):
        if exact.status is Status.OPTIMAL and partial.status is not Status.OPTIMAL \
                and partial.count > exact.count:
            return (f"{partial.engine} found at least {partial.count} solutions, "
                    f"{exact.engine} counted exactly {exact.count}")
    return None


def _conflict(a: Result, b: Result) -> str | None:
    problem = _count_conflict(a, b)
    if problem:
        return problem
    if Status.UNKNOWN in (a.status, b.status):
        return _bound_conflict(a, b) or _bound_conflict(b, a)
    if (a.status is Status.INFEASIBLE) != (b.status is Status.INFEASIBLE):
        return "one proves there is no answer, the other found one"
    if a.status is Status.INFEASIBLE:
        return None
    va, vb = _value(a), _value(b)
    if va is not None and vb is not None:
        if a.status is Status.OPTIMAL and b.status is Status.OPTIMAL and va != vb:
            return f"both claim optimal, {va} and {vb}"
        if a.status is Status.OPTIMAL and vb < va or b.status is Status.OPTIMAL and va < vb:
            return f"a plan of {min(va, vb)} beats the claimed optimum {max(va, vb)}"
    if a.unique is not None and b.unique is not None and a.unique != b.unique:
        return "they disagree on uniqueness"
    if a.states is not None and b.states is not None and a.states != b.states:
        return f"state counts differ: {a.states} and {b.states}"
    return None


def _bound_conflict(unknown: Result, other: Result) -> str | None:
    if unknown.status is not Status.UNKNOWN or unknown.bound is None:
        return None
    value = _value(other)
    if value is not None and value < unknown.bound and unknown.plan is None:
        return f"{other.engine} found {value}, below the proven bound {unknown.bound}"
    return None
