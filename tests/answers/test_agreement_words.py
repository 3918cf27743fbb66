"""The answer of a result in a few words (:func:`cpsolve.answers.agreement.answer_of`)."""

from __future__ import annotations

from cpsolve.answers.agreement import answer_of
from cpsolve.answers.kinds import Count
from cpsolve.answers.result import Result


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
    assert answer_of(Result.counted("search", Count(2, cost=7), True)) == \
        "2 optimal plans (cost 7)"
