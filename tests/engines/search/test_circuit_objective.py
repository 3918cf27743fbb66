"""A csp made of one circuit and an objective (a travelling salesman): the search engine's
circuit algorithm finds circuits, not the best one, so such a model goes to the
backtracking's branch and bound — for ``solve`` and for ``count --optimal`` — and its
optimum is the one every tour tried by hand gives, and CP-SAT's."""

from __future__ import annotations

from itertools import permutations

import pytest

from cpsolve import Csp, If, Sum
from cpsolve.answers.result import Status, Unsupported
from cpsolve.engines import Options, run

# an asymmetric distance table: a tour and its reverse cost differently
D = [[0, 7, 3, 9, 4],
     [2, 0, 8, 5, 6],
     [6, 1, 0, 7, 9],
     [4, 8, 2, 0, 3],
     [9, 5, 6, 1, 0]]
N = len(D)


def tsp(maximize: bool) -> Csp:
    """s[i] is the city after city i; the tour's length is minimised (or maximised)."""
    c = Csp("tsp")
    s = c.add_array("s", N, 0, N - 1)
    c.circuit(s)
    length = Sum([If(s[i] == j, D[i][j], 0) for i in range(N) for j in range(N) if j != i])
    if maximize:
        c.maximize(length)
    else:
        c.minimize(length)
    return c


def tours() -> dict[tuple[int, ...], int]:
    """Every tour from city 0 (as its successor list) and its length, by brute force."""
    out = {}
    for rest in permutations(range(1, N)):
        order = (0, *rest)
        succ = [0] * N
        for a, b in zip(order, order[1:] + (0,)):
            succ[a] = b
        out[tuple(succ)] = sum(D[a][succ[a]] for a in range(N))
    return out


@pytest.mark.parametrize("maximize", [False, True])
def test_a_circuit_with_an_objective_is_solved_to_its_optimum(maximize):
    lengths = tours()
    best = (max if maximize else min)(lengths.values())
    found = run("search", "solve", tsp(maximize))
    assert found.status is Status.OPTIMAL and found.verified
    assert found.answer.objective == best
    assert lengths[tuple(found.answer.values[f"s[{i}]"] for i in range(N))] == best
    assert run("cpsat", "solve", tsp(maximize)).answer.objective == best


@pytest.mark.parametrize("maximize", [False, True])
def test_the_optimal_circuits_are_counted(maximize):
    lengths = tours()
    best = (max if maximize else min)(lengths.values())
    counted = run("search", "count", tsp(maximize), Options(optimal=True))
    assert counted.status is Status.EXACT
    assert counted.answer.count == sum(1 for v in lengths.values() if v == best)
    assert counted.details["optimum"] == best


def test_the_circuit_algorithm_named_on_an_objective_is_refused():
    with pytest.raises(Unsupported, match="circuit algorithm does not optimise"):
        run("search", "solve", tsp(False), Options(algorithm="circuit"))


def test_a_circuit_without_an_objective_keeps_the_circuit_search():
    c = Csp("four cycle")
    c.circuit(c.add_array("s", 4, 0, 3))
    result = run("search", "count", c)
    assert result.details["algorithm"] == "circuit" and result.answer.count == 6  # 3!
