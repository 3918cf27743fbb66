"""The answer of a result in a few words (:func:`cpsolve.answers.agreement.answer_of`)."""

from __future__ import annotations

import pytest

from cpsolve.answers.agreement import answer_of
from cpsolve.answers.kinds import Count
from cpsolve.answers.result import CIRCUIT_GRAPH, Result


def test_a_count_of_optimal_solutions_says_they_are_optimal_and_their_value():
    """``count --optimal`` of a csp (``details["optimum"]``) counts the solutions of the
    optimum, as a count of optimal plans says ``optimal plans (cost N)``; a plain count
    says ``solutions``."""
    optimal = {"optimum": -3}
    assert answer_of(Result.counted("search", Count(1), True, details=optimal)) == \
        "1 optimal solution (objective -3)"
    assert answer_of(Result.counted("search", Count(8), False, details=optimal)) == \
        "at least 8 optimal solutions (objective -3)"
    assert answer_of(Result.counted("search", Count(0), False, details=optimal)) == \
        "at least 0 optimal solutions (none found before it stopped)"
    assert answer_of(Result.counted("search", Count(8), True)) == "8 solutions"
    assert answer_of(Result.counted("search", Count(2, cost=7, of="plans"), True)) == \
        "2 optimal plans (cost 7)"


def test_a_count_of_none_says_solutions_or_plans_as_the_count_says_not_as_its_proof():
    """A csp's count of 0 proved by the circuit's graph (a knight's tour on 5x5: 13 squares
    of one colour, 12 of the other) or by an exhausted search is "0 solutions", as CP-SAT's
    count of 0 without a proof is; it said "0 optimal plans (no plan exists)" because any
    proof was taken for a planning model's."""
    for proof in (CIRCUIT_GRAPH, "exhausted search"):
        assert answer_of(Result.counted("search", Count(0), True, proof=proof)) == \
            "0 solutions"
    assert answer_of(Result.counted("cpsat", Count(0), True)) == "0 solutions"
    no_plan = Result.counted("search", Count(0, of="plans"), True, proof="exhausted search")
    assert answer_of(no_plan) == "0 optimal plans (no plan exists)"
    cut = Result.counted("search", Count(0, of="plans"), False)
    assert answer_of(cut) == "at least 0 optimal plans (none found before it stopped)"


def test_a_count_of_plans_is_of_plans_only():
    """Plans or a least cost belong to a count of plans, listed solutions to one of
    solutions: a count says which it is, and cannot say both."""
    with pytest.raises(ValueError):
        Count(2, cost=7)
    with pytest.raises(ValueError):
        Count(1, solutions=({"x": 1},), of="plans")
