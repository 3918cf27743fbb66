"""The checker re-derives from a circuit's graph alone that no circuit exists (a node no arc
leaves or enters, nodes that cannot reach each other, two sides of unequal size every arc
crosses, such a cut of the nodes but one), sharing no code with the search engine: a
result that proves no solution of such a model is then ``verified``."""

from __future__ import annotations

import pytest

from cpsolve import Csp
from cpsolve.answers.check import verify
from cpsolve.answers.check.circuits import no_circuit
from cpsolve.answers.result import CIRCUIT_GRAPH, Result, Status


def graph(arcs: dict[int, list[int]], both: bool = True) -> Csp:
    """A csp of one circuit: node i may go to the nodes ``arcs[i]`` (and they to it when
    ``both``)."""
    allowed = {i: set(v) for i, v in arcs.items()}
    if both:
        for i, near in arcs.items():
            for j in near:
                allowed[j].add(i)
    c = Csp("graph")
    names = [f"s[{i}]" for i in range(len(arcs))]
    for i, name in enumerate(names):
        c.add_variable(name, 0, len(arcs) - 1)
        c.restrict(name, sorted(allowed[i]) or [i])  # [i]: a self-loop, no arc
    c.circuit(names)
    return c


CYCLE5 = {i: [(i + 1) % 5] for i in range(5)}
PETERSEN = {i: [(i + 1) % 5, i + 5] for i in range(5)} | \
    {5 + i: [5 + (i + 2) % 5] for i in range(5)}


@pytest.mark.parametrize("arcs, both, none", [
    (CYCLE5, True, False),  # a 5-cycle is a circuit
    (CYCLE5, False, False),  # one way round too
    (PETERSEN, True, False),  # no circuit, but the graph alone does not show it
    ({0: [1], 1: [2], 2: [0], 3: [0]}, False, True),  # no arc enters node 3
    ({0: [1], 1: [0], 2: [3], 3: [2]}, False, True),  # 0, 1 cannot reach 2, 3
    ({0: [2, 3, 4], 1: [2, 3, 4], 2: [], 3: [], 4: []}, True, True),  # sides of 2 and 3
    # without node 0, node 4 is cut off from 1, 2, 3 (a triangle: no two sides)
    ({0: [1, 2, 3, 4], 1: [2, 3], 2: [3], 3: [], 4: []}, True, True),
    # without node 3, the path 0-1-2 has sides {0, 2} and {1}: a path through them starts
    # and ends on {0, 2}, so node 3 needs an arc to and from that side; but only node 1
    # leads to node 3 (the triangle 0-1-3 forbids two sides of all the nodes)
    ({0: [1], 1: [0, 2, 3], 2: [1], 3: [0]}, False, True),
])
def test_no_circuit_is_re_derived_from_the_graph(arcs, both, none):
    assert no_circuit(graph(arcs, both)) is none


def test_a_proof_of_none_is_verified_when_the_graph_shows_it():
    shown = graph({0: [1, 2, 3, 4], 1: [2, 3], 2: [3], 3: [], 4: []})
    claim = Result(Status.INFEASIBLE, "search", proof=CIRCUIT_GRAPH, message="no circuit")
    assert verify(shown, claim).verified is True
    assert verify(graph(PETERSEN), claim).verified is None  # not re-derived: not verified
