"""Issue 26: an unfinished count that found nothing says ``count: 0``, status ``at_least``.

The model has no solution (even weights cannot sum to an odd total), but a
backtracking search over 2^40 assignments cannot prove it within a second:
what it proved is "at least 0", which is a count, not a missing one.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from cpsolve.answers.agreement import answer_of
from cpsolve.answers.kinds import Count
from cpsolve.answers.result import Result, Status
from cpsolve.output.schema import schema

EVEN_ODD = """family = "csp"
name = "even weights, odd total"
constraints = ["sum(2 * x[i] for i in range(n)) == n + 1"]
[constants]
n = 40
[variables]
x = { size = "n", domain = [0, 1] }
"""


def test_an_unfinished_count_of_none_is_at_least_zero():
    result = Result.counted("search", Count(0), False)
    assert result.status is Status.AT_LEAST and result.answer == Count(0)
    assert result.bound == 0
    assert answer_of(result) == "at least 0 solutions (none found before it stopped)"
    assert Result.counted("search", Count(0), True).status is Status.EXACT


@pytest.mark.parametrize("engine", ["search", "pyconstraint"])
def test_the_json_says_count_0_at_least(cli, write_model, engine):
    path = write_model("even.toml", EVEN_ODD)
    run = cli("count", path, "--engine", engine, "--time-limit", "1", "--json")
    assert run.code == 1, run.err  # a limit stopped the count short of what was asked
    data = json.loads(run.out)
    assert (data["status"], data["count"], data["bound"]) == ("at_least", 0, 0)
    jsonschema.Draft202012Validator(schema()).validate(data)


def test_a_time_limit_before_the_users_limit_is_still_a_limit(cli, write_model):
    """--limit 5 asked for five solutions; a time limit that found none answered less."""
    path = write_model("even.toml", EVEN_ODD)
    run = cli("count", path, "--engine", "search", "--time-limit", "1", "--limit", "5")
    assert run.code == 1, run.err
    assert "at least 0 solutions" in run.out
