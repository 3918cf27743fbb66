"""The circuit search's proofs that no circuit exists, found from the graph before any
search: each names a node that shows it, and is the proof kind ``circuit graph`` (no
invariant), which the checker re-derives from the model (``verified``)."""

from __future__ import annotations

import pytest

from cpsolve import Csp
from cpsolve.answers.result import CIRCUIT_GRAPH, Status
from cpsolve.engines import Options, run


def graph(arcs: dict[int, list[int]]) -> Csp:
    """A csp of one circuit: node i may go to the nodes ``arcs[i]``."""
    c = Csp("graph")
    names = [f"s[{i}]" for i in range(len(arcs))]
    for i, name in enumerate(names):
        c.add_variable(name, 0, len(arcs) - 1)
        c.restrict(name, arcs[i])
    c.circuit(names)
    return c


# node 0 is joined both ways to every other node; 1-2-3 is a triangle (so no two sides);
# node 4 is joined to node 0 alone: without node 0 (a circuit's rest is a path through the
# others), node 4 is cut off from 1, 2 and 3
LONE = {0: [1, 2, 3, 4], 1: [0, 2, 3], 2: [0, 1, 3], 3: [0, 1, 2], 4: [0]}
# node 0 is joined both ways to every other node; 1-2 and 3-4 are joined, and the triangle
# 0-1-2 forbids two sides: without node 0, nodes 1 and 2 are joined to none of 3 and 4
PAIRS = {0: [1, 2, 3, 4], 1: [0, 2], 2: [0, 1], 3: [0, 4], 4: [0, 3]}


@pytest.mark.parametrize("arcs, said", [
    (LONE, "no circuit: without node 0 the other nodes are not connected: "
           "no arc joins node 4 to any of them"),
    (PAIRS, "no circuit: without node 0 the other nodes are not connected: "
            "paths of arcs join node 1 to only 1 of the other 3"),
])
def test_a_cut_without_one_node_names_a_node_cut_off(arcs, said):
    result = run("search", "solve", graph(arcs), Options(algorithm="circuit"))
    assert result.status is Status.INFEASIBLE
    assert result.message == said
    assert (result.proof, result.invariant, result.verified) == (CIRCUIT_GRAPH, None, True)


def test_two_sides_of_unequal_size_are_a_circuit_graph_proof_the_checker_verifies():
    # every arc joins {0, 1} and {2, 3, 4}: a circuit alternates sides, so they would
    # have to be equal
    arcs = {0: [2, 3, 4], 1: [2, 3, 4], 2: [0, 1], 3: [0, 1], 4: [0, 1]}
    for task in ("solve", "count"):
        result = run("search", task, graph(arcs), Options())
        assert result.none_exists
        assert "every arc joins two sides of 2 and 3 nodes" in result.message
        assert (result.proof, result.invariant, result.verified) == (CIRCUIT_GRAPH, None, True)


# the Petersen graph (outer 5-cycle, spokes, inner pentagram), both ways: it has no
# Hamiltonian circuit (a known fact), yet each node has arcs out and in, it is connected,
# not two-sided (odd cycles), and stays so without any one node: only the search shows it
PETERSEN = [(i, (i + 1) % 5) for i in range(5)] + [(i, i + 5) for i in range(5)] + \
    [(5 + i, 5 + (i + 2) % 5) for i in range(5)]


def test_a_count_of_none_says_why_like_the_solve():
    arcs: dict[int, list[int]] = {i: [] for i in range(10)}
    for a, b in PETERSEN:
        arcs[a].append(b)
        arcs[b].append(a)
    solved = run("search", "solve", graph(arcs), Options())
    counted = run("search", "count", graph(arcs), Options())
    assert solved.message == "no circuit: the whole search tree was explored"
    assert counted.count == 0
    assert counted.message == "exactly 0 solutions: the whole search tree was explored"
    assert solved.proof == counted.proof == "exhausted search"
    assert counted.verified is not True  # no reason from the graph for the checker
