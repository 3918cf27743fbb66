"""Messages that refuse a declared symmetry name the constraint it breaks by what the
constraint says (its label, else its text), never by its class: a csp built in Python has
unlabelled constraints."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cpsolve import Csp
from cpsolve.model.csp import CspSymmetry
from cpsolve.model.symmetry.canonical import problems, trivial
from cpsolve.model.symmetry.declared import declared_symmetry
from cpsolve.model.symmetry.rules import breaks


def test_an_unlabelled_condition_is_named_by_its_text():
    """Swapping y[0] and y[1] turns y[0] < y[1] into y[1] < y[0], which the model does not
    require: refused, naming the condition as a model file's message does (its text)."""
    bad = Csp("bad")
    y = bad.add_array("y", 3, 0, 2)
    bad.require(y[0] < y[1])
    bad.add_symmetry({"y[0]": "y[1]", "y[1]": "y[0]"}, name="swap")
    with pytest.raises(ValueError, match=r"^swap breaks the constraint y\[0\] < y\[1\]: no "
                       r"condition over y\[1\], y\[0\] is the image of y\[0\] < y\[1\]$"):
        declared_symmetry(bad)


def test_a_label_is_kept():
    bad = Csp("bad")
    y = bad.add_array("y", 3, 0, 2)
    bad.require(y[0] < y[1], "increasing")
    why = breaks(bad, CspSymmetry("swap", {"y[0]": "y[1]", "y[1]": "y[0]"}))
    assert why.startswith("swap breaks the constraint increasing: ")


def test_an_unlabelled_group_and_circuit_are_named_by_their_variables():
    """Swapping x[0] and x[2] maps the group {x[0], x[1]} onto {x[2], x[1]}, no group of
    the model; a circuit takes no symmetry at all."""
    csp = Csp("groups")
    x = csp.add_array("x", 3, 0, 2)
    csp.all_different(x[:2])
    swap = CspSymmetry("swap", {"x[0]": "x[2]", "x[2]": "x[0]"})
    assert breaks(csp, swap) == ("swap breaks the constraint all-different x[0], x[1]: its "
                                 "image is no all-different group")
    tour = Csp("tour")
    s = tour.add_array("s", 3, 0, 2)
    tour.circuit(s)
    assert breaks(tour, CspSymmetry("swap", {"s[0]": "s[2]", "s[2]": "s[0]"})) == \
        "swap: the circuit s[0], s[1], s[2] cannot be checked (circuits take no symmetry)"


def test_renaming_symbols_names_the_condition_that_forbids_it():
    """Renaming values keeps only all-different groups; y[0] < y[1] is not one."""
    csp = Csp("order")
    y = csp.add_array("y", 2, 0, 1)
    csp.require(y[0] < y[1])
    assert problems(csp, replace(trivial(csp), relabel=True)) == [
        "constraint y[0] < y[1] is not an all-different group, so the symbols cannot be "
        "renamed freely"]
