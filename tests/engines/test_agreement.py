"""Two engines must agree: CP-SAT against search on random transition systems.

Water jugs with random capacities and a random target: both engines must
find the same optimum, or both prove the target unreachable (a target is
reachable only if it is a multiple of gcd(a, b) and fits a jug — the puzzle's
own reasoning, checked here too).
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve import Min, Or, Planning
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run


def jugs(a: int, b: int, target: int) -> Planning:
    """Two jugs of a and b litres, fill/empty/pour, target litres in either."""
    model = Planning(f"jugs {a} {b} -> {target}")
    cap = [a, b]
    jug = model.add_array("jug", 2, 0, max(a, b))
    model.set_initial({"jug[0]": 0, "jug[1]": 0})
    model.set_goal(Or(jug[0] == target, jug[1] == target))
    for i in range(2):
        j = 1 - i
        model.add_action(f"fill {i}", jug[i] < cap[i], {jug[i]: cap[i]})
        model.add_action(f"empty {i}", jug[i] > 0, {jug[i]: 0})
        poured = Min(jug[i], cap[j] - jug[j])
        model.add_action(f"pour {i} {j}", (jug[i] > 0) & (jug[j] < cap[j]),
                         {jug[i]: jug[i] - poured, jug[j]: jug[j] + poured})
    return model


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(1, 7))
def test_cpsat_optimum_equals_bfs(a, b, target):
    model = jugs(a, b, target)
    bfs = run("search", "solve", model, Options(algorithm="bfs"))
    cpsat = run("cpsat", "solve", model, Options(time_limit=60, workers=1))
    reachable = target % math.gcd(a, b) == 0 and target <= max(a, b)
    if reachable:
        assert bfs.status is Status.OPTIMAL and cpsat.status is Status.OPTIMAL
        assert bfs.steps == cpsat.steps
        assert bfs.verified and cpsat.verified
    else:
        assert bfs.status is Status.INFEASIBLE and cpsat.status is Status.INFEASIBLE
