"""The csp model: what its constraints may be."""

from __future__ import annotations

import pytest

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


def test_true_false_and_comparisons_are_constraints():
    csp = Csp("conditions")
    x = csp.add_variable("x", 0, 3)
    csp.require(True)
    csp.require(x >= 1, "positive")
    assert len(csp.constraints) == 2
