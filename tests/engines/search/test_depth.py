"""The depths a search reports in ``details`` (docs/json.md): ``depth`` (bfs) is the greatest
distance from the start of a state the search generated; ``forward_depth`` and
``backward_depth`` (bidir, packed_bidir) are the same from the start and to the goal."""

from __future__ import annotations

import pytest

from cpsolve import Planning, Status
from cpsolve.engines import Options, run


def line(last: int, top: int, goal: int) -> Planning:
    """``x`` counts up from 0 and, at most to ``last``; its domain is 0..``top``.  The state
    at distance d from the start is x = d: the farthest reachable one is x = ``last``."""
    m = Planning("a line")
    x = m.add_variable("x", 0, top)
    m.set_initial({"x": 0})
    m.set_goal(x == goal)
    m.add_action("up", x < last, {x: x + 1})
    m.add_action("down", x > 0, {x: x - 1})
    return m


def test_bfs_depth_of_an_exhausted_space_is_its_farthest_distance():
    # 0..6 reachable, 8 within the domain but never reached: the farthest state is 6 away
    # (before the fix: 7, the layer after the last, which is empty)
    result = run("search", "solve", line(6, 10, 8), Options(algorithm="bfs"))
    assert result.status is Status.INFEASIBLE and result.explored == 7
    assert result.details["depth"] == 6


@pytest.mark.parametrize("limit", [2, 3, 5, 9])
def test_bfs_depth_at_a_limit_is_the_farthest_state_generated(limit):
    # the states seen are x = 0..d, so the farthest generated is explored - 1 away
    result = run("search", "solve", line(30, 30, 30), Options(algorithm="bfs", limit=limit))
    assert result.status is Status.UNKNOWN
    assert result.details["depth"] == result.explored - 1


@pytest.mark.parametrize("algorithm", ["bidir", "packed_bidir"])
@pytest.mark.parametrize("limit", [3, 4, 7, 11])
def test_bidirectional_depths_at_a_limit_are_the_farthest_states_generated(algorithm, limit):
    # seen: x = 0..f from the start and x = 30-b..30 from the goal, f + b + 2 states
    result = run("search", "solve", line(30, 30, 30), Options(algorithm=algorithm, limit=limit))
    assert result.status is Status.UNKNOWN
    depths = result.details["forward_depth"], result.details["backward_depth"]
    assert sum(depths) + 2 == result.explored, depths
