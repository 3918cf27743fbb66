"""The csp model: what its constraints may be."""

from __future__ import annotations

import pytest

from cpsolve.language.combine import If
from cpsolve.model import Csp
from cpsolve.model.variables import ModelError


@pytest.mark.parametrize("number", [5, -2])
def test_a_bare_number_is_no_constraint(number):
    """require(5) is not "true": refused as a model file's '5' is (0 and 1 are false and
    true, in a file and here)."""
    csp = Csp("numbers")
    csp.add_variable("x", 0, 3)
    with pytest.raises(ModelError, match=rf"^constraint: '{number}' is a number, not a "
                                         r"condition: compare it \(==, !=, <, \.\.\.\)"):
        csp.require(number)
    assert csp.constraints == []


@pytest.mark.parametrize("call, what", [
    (lambda csp, x, y: csp.require(If(x, y, 3) == 2, "mixed"), "constraint mixed"),
    (lambda csp, x, y: csp.minimize(If(x, y, 0)), "objective"),
])
def test_an_if_on_a_number_is_refused_in_a_constraint_and_an_objective(call, what):
    """``If(x, ...)`` with ``x`` in 0..3 read ``x`` as true when non-zero."""
    csp = Csp("numbers")
    x, y = csp.add_variable("x", 0, 3), csp.add_variable("y", 0, 3)
    with pytest.raises(ModelError, match=rf"^{what}: 'x' is a number, not a condition"):
        call(csp, x, y)
    assert (csp.constraints, csp.objective) == ([], None)


def test_true_false_and_comparisons_are_constraints():
    csp = Csp("conditions")
    x = csp.add_variable("x", 0, 3)
    csp.require(True)
    csp.require(x >= 1, "positive")
    assert len(csp.constraints) == 2


def test_a_domain_of_a_million_values_is_never_listed():
    """``values`` of ``0..999999`` is a range (its length, bounds and membership cost
    nothing), not a tuple of a million numbers: the engines asked it once per variable, and
    10,000 such variables held tens of GB (search) or took minutes to list (CP-SAT) before
    either looked at a limit."""
    csp = Csp("wide")
    csp.add_variable("x", 0, 999_999)
    csp.add_variable("y", 0, 9)
    csp.restrict("y", [3, 1])
    values = csp.values("x")
    assert isinstance(values, range) and len(values) == 10**6
    assert (values[0], values[-1]) == (0, 999_999)
    assert 999_999 in values and 10**6 not in values and -1 not in values
    assert csp.values("y") == (1, 3)  # allowed values: listed, in increasing order
