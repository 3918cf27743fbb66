"""Agreement between engines: what two results must share if both are right.

:func:`disagreements` names every pair of results that cannot both be right;
:func:`complete` says which results answer their whole question, the only ones agreement
can be claimed between; :func:`cross_check` fills each result's ``cross_checked_by`` with
the other engines that reached the same proven answer.
"""

from __future__ import annotations

from .kinds import Analysis, Assignment, Count, Plan
from .result import Result, Status
from .words import plural

STATUS_WORDS = {
    Status.OPTIMAL: "optimal (proven)",
    Status.SOLVED: "solved (not proven optimal)",
    Status.INFEASIBLE: "infeasible (proven)",
    Status.UNKNOWN: "unknown (stopped before a proof)",
    Status.EXACT: "exact",
    Status.AT_LEAST: "at least (stopped before the end)",
    Status.COMPLETE: "complete",
    Status.PARTIAL: "partial (stopped before the end)",
}
"""Each status in words, for text and pictures alike; what stopped a run (a limit, Ctrl-C)
is the result's message."""


def status_words(result: Result) -> str:
    """The status in words; an assignment with nothing to optimise is just ``solved``; a
    proof that rests on something the engines could not check (``details["proof_rests_on"]``:
    a model's estimate too large to audit) says so: ``optimal (proven, given the model's
    estimate)``."""
    if isinstance(result.answer, Assignment) and result.answer.objective is None:
        return "solved"
    return given(result, STATUS_WORDS[result.status])


def given(result: Result, words: str) -> str:
    """``words`` ending ``(proven)`` with what the proof rests on, when it rests on more than
    the model's rules (``details["proof_rests_on"]``)."""
    rests_on = result.details.get("proof_rests_on")
    if rests_on and words.endswith("(proven)"):
        return f"{words[:-1]}, given {rests_on})"
    return words


def answer_of(result: Result, unit: str = "") -> str:
    """The answer of a result in a few words (for tables); ``unit``: what an analysis's
    distances count (``moves``, ``steps``: the family's :attr:`distance_unit`)."""
    answer = result.answer
    if result.status is Status.INFEASIBLE:
        return given(result, "infeasible (proven)")
    if answer is None:
        bound = f", bound {result.bound:,}" if result.bound is not None else ""
        return f"unknown{bound}"
    if isinstance(answer, Count):
        at_least = "" if result.status is Status.EXACT else "at least "
        if answer.of == "plans" and result.none_exists:  # no plan at all, so no cost
            return "0 optimal plans (no plan exists)"
        optimum = result.details.get("optimum")  # a csp's count --optimal: of that value
        what = "optimal plan" if answer.of == "plans" else \
            "solution" if optimum is None else "optimal solution"
        if at_least and answer.count == 0:
            return f"at least 0 {what}s (none found before it stopped)"
        of = f" (cost {answer.cost:,})" if answer.cost is not None else \
            "" if optimum is None else f" (objective {optimum:,})"
        return f"{at_least}{plural(answer.count, what)}{of}"
    if isinstance(answer, Analysis):
        which = "that can reach the goal" if answer.direction == "goal" \
            else "reachable from the start"
        if answer.max_distance is None:
            return f"{plural(answer.states, 'state')} {which} so far"
        end = "to the goal" if answer.direction == "goal" else "from the start"
        far = f"{answer.max_distance} {unit}" if unit else str(answer.max_distance)
        return f"{plural(answer.states, 'state')} {which}, max distance {far} {end}"
    if isinstance(answer, Plan):
        if answer.cost != len(answer):
            return f"cost {answer.cost:,} ({plural(len(answer), 'step')})"
        return plural(len(answer), "step")
    if answer.objective is not None:
        return f"objective {answer.objective:,}" + (" (optimal)" if result.status is
                                                   Status.OPTIMAL else "")
    if answer.unique is None:  # not looked for (a large circuit), or not decided in time
        return "a solution"
    return "unique solution" if answer.unique else "several solutions"


COMPLETE = (Status.OPTIMAL, Status.INFEASIBLE, Status.EXACT, Status.COMPLETE)
"""The statuses of an answer to the whole question (a proven optimum or "none exists", an
exact count, a full analysis); a csp's checked solution answers one with nothing to
optimise too (:func:`complete`)."""


def complete(result: Result) -> bool:
    """True when ``result`` answers its whole question, so that another engine's answer can
    agree with it: a proven optimum or "no solution", an exact count, a complete analysis,
    or a checked solution of a csp with nothing to optimise.  A plan or an objective value
    not proven optimal answers no question of "the least cost" (it and its bound only
    bound the optimum), and a count or analysis stopped short none of "how many"."""
    if result.status in COMPLETE:
        return True
    answer = result.answer
    return (result.status is Status.SOLVED and isinstance(answer, Assignment)
            and answer.objective is None and bool(result.verified))


def disagreements(results: list[Result]) -> list[str]:
    """Every pair of results that cannot both be right, described."""
    out: list[str] = []
    for i, a in enumerate(results):
        for b in results[i + 1:]:
            problem = _conflict(a, b)
            if problem:
                out.append(f"{a.engine} vs {b.engine}: {problem}")
    return out


PROOF_BY = "proof_by"
"""The key of a result's ``details`` naming the engine whose code proved its answer when
that is not the result's own engine (CP-SAT answering "no plan" by the search engine's
exhaustion of a small space)."""


def proof_source(r: Result) -> str:
    """Whose code proved ``r``'s answer: ``invariant`` for the invariant proof every planning
    engine shares, the engine named under :data:`PROOF_BY`, else ``r``'s own engine."""
    if r.proof == "invariant":
        return "invariant"
    return str(r.details.get(PROOF_BY, r.engine))


def same_proof(a: Result, b: Result) -> bool:
    """Whether ``a`` and ``b`` prove the same answer by the same code: no cross-check."""
    key = _proven(a)
    return key is not None and key == _proven(b) and proof_source(a) == proof_source(b)


def cross_check(results: list[Result]) -> list[Result]:
    """The results, each with ``cross_checked_by``: the other engines with the same proven
    answer (the same optimum, exact count, uniqueness verdict, state space, or infeasibility),
    proven by other code (:func:`proof_source`): the same proof run twice checks nothing."""
    keys = [_proven(r) for r in results]
    sources = [proof_source(r) for r in results]
    out = []
    for i, r in enumerate(results):
        same = tuple(o.engine for j, o in enumerate(results)
                     if j != i and keys[i] is not None and keys[j] == keys[i]
                     and sources[j] != sources[i])
        out.append(r.but(cross_checked_by=same) if same else r)
    return out


def _proven(r: Result) -> object:
    """What a result proves, as a value two engines can share (``None``: nothing proven)."""
    answer = r.answer
    if r.status is Status.INFEASIBLE:
        return "infeasible"
    if isinstance(answer, Plan) and r.status is Status.OPTIMAL:
        return ("plan", answer.cost)
    if isinstance(answer, Count) and r.status is Status.EXACT:
        return ("count", answer.count, answer.cost)
    if isinstance(answer, Analysis) and r.status is Status.COMPLETE:
        return ("analysis", answer.direction, answer.states, answer.layers)
    if isinstance(answer, Assignment) and answer.objective is not None:
        return ("objective", answer.objective) if r.status is Status.OPTIMAL else None
    if isinstance(answer, Assignment) and answer.unique is not None:
        return ("unique", answer.unique)
    return None


def _value(r: Result) -> int | None:
    """A plan's cost (its number of steps when every step costs 1), or a csp solution's
    objective, negated when maximised so that less is always better."""
    if isinstance(r.answer, Assignment) and r.answer.objective is not None:
        return r.answer.objective * (1 if r.answer.minimizing else -1)
    return r.answer.cost if isinstance(r.answer, Plan) else None


def _count_conflict(a: Result, b: Result) -> str | None:
    """An exact count against another exact count, or against a larger lower bound."""
    if not isinstance(a.answer, Count) or not isinstance(b.answer, Count):
        return None
    ca, cb = a.answer, b.answer
    exact_a, exact_b = a.status is Status.EXACT, b.status is Status.EXACT
    if exact_a and exact_b and ca.count != cb.count:
        return f"exact counts differ: {ca.count:,} and {cb.count:,}"
    if exact_a and exact_b and ca.count and ca.cost != cb.cost:  # counts of optimal plans
        return f"the counted plans' least costs differ: {ca.cost} and {cb.cost}"
    for (exact, ce), (partial, cp) in (((a, ca), (b, cb)), ((b, cb), (a, ca))):
        if exact.status is Status.EXACT and partial.status is not Status.EXACT \
                and cp.count > ce.count:
            return (f"{partial.engine} found at least {plural(cp.count, 'solution')}, "
                    f"{exact.engine} counted exactly {ce.count:,}")
    return None


def _conflict(a: Result, b: Result) -> str | None:
    if a.task == "count" or b.task == "count":
        return _count_conflict(a, b)
    bounds = _bound_conflict(a, b) or _bound_conflict(b, a)
    if bounds or Status.UNKNOWN in (a.status, b.status):
        return bounds
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
    if isinstance(a.answer, Assignment) and isinstance(b.answer, Assignment) \
            and None not in (a.answer.unique, b.answer.unique) \
            and a.answer.unique != b.answer.unique:
        return "they disagree on uniqueness"
    return _analysis_conflict(a, b)


def _analysis_conflict(a: Result, b: Result) -> str | None:
    """Two complete analyses from the same end must count the same states."""
    if not isinstance(a.answer, Analysis) or not isinstance(b.answer, Analysis):
        return None
    if a.status is Status.COMPLETE and b.status is Status.COMPLETE \
            and a.answer.direction == b.answer.direction and a.answer.states != b.answer.states:
        return f"state counts differ: {a.answer.states} and {b.answer.states}"
    return None


def _bound_conflict(bounded: Result, other: Result) -> str | None:
    """``other``'s answer beyond the bound on the optimum that ``bounded`` proved, whatever
    either's status: a plan cheaper than a proven lower bound (an optimum of 60 against a
    bound of 61 is a disagreement, as is any plan of 55), an objective past it."""
    if bounded.bound is None:
        return None
    value, upper = _value(other), _maximizing(bounded, other)
    floor = -bounded.bound if upper else bounded.bound  # in _value's terms: less is better
    if value is None or value >= floor:
        return None
    found = -value if upper else value
    return (f"{other.engine} found {found:,}, {'above' if upper else 'below'} the proven "
            f"bound {bounded.bound:,}")


def _maximizing(a: Result, b: Result) -> bool:
    """True when the two results are about an objective to maximise: a csp's bound is
    then an upper bound on it."""
    return any(isinstance(r.answer, Assignment) and r.answer.objective is not None
               and not r.answer.minimizing for r in (a, b))
