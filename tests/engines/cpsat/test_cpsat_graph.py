"""CP-SAT over the explicit transition graph of a small state space (cpsat/graph.py).

Expected numbers come from reasoning: Hanoi with n discs needs 2^n - 1 moves and has
3^n placements, every one reachable; the water jugs' 10 moves are the design's table.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace.graph import transition_graph
from cpsolve.model import Planning

sys.path.insert(0, str(Path(__file__).parents[3] / "examples"))
from hanoi import build as hanoi  # noqa: E402


@pytest.mark.parametrize("discs", [3, 6, 7])
def test_hanoi_by_the_automaton(discs: int) -> None:
    result = run("cpsat", "solve", hanoi(discs), Options())
    assert result.status is Status.OPTIMAL and result.steps == 2 ** discs - 1
    assert result.verified
    assert result.details["encoding"] == "transition graph"
    assert result.details["graph_states"] == 3 ** discs
    assert result.details["refuted_up_to"] == 2 ** discs - 2
    assert result.hint is None  # no weighted A* first: the graph needs none


def test_the_graph_of_hanoi_three() -> None:
    """27 placements; each has 3 moves except the 3 with the whole tower on one peg (2):
    3 x 27 - 3 = 78 arcs; one goal, 7 steps away."""
    graph = transition_graph(compile_planning(hanoi(3)), 1000)
    assert graph is not None
    assert graph.size == 27 and graph.tails.size == 78 and graph.distance() == 7
    assert graph.goals.tolist() == [26]  # the farthest layer holds the goal (the last index)
    start = graph.from_start()
    assert (start[graph.heads] <= start[graph.tails] + 1).all()   # breadth-first order
    assert graph.to_goal()[0] == 7 and graph.to_goal()[graph.goals[0]] == 0


def test_the_graph_gives_up_beyond_its_limit() -> None:
    assert transition_graph(compile_planning(hanoi(5)), 100) is None   # 243 states


def test_unreachable_goal_over_the_graph() -> None:
    """A counter that counts up from 0 by 2 never reaches 7: 51 reachable states, no goal."""
    p = Planning("evens")
    x = p.add_variable("x", 0, 100)
    p.set_initial({"x": 0})
    p.set_goal(x == 7)
    p.add_action("add 2", x <= 98, {x: x + 2})
    graph = transition_graph(compile_planning(p), 1000)
    assert graph is not None and graph.size == 51 and graph.distance() is None
    assert np.array_equal(graph.goals, np.empty(0, np.int64))


def test_time_indexed_on_request(cli) -> None:
    out = json.loads(cli("solve", "water_jugs", "--engine", "cpsat", "--json").out)
    assert out["steps"] == 10 and out["details"]["encoding"] == "transition graph"
    assert out["encoding"] == "transition graph"
    out = json.loads(cli("solve", "water_jugs", "--engine", "cpsat", "--json",
                         "--time-indexed").out)
    assert out["steps"] == 10 and out["encoding"] == "time-indexed"
    text = cli("solve", "water_jugs", "--engine", "cpsat").out
    assert "CP-SAT model: transition graph." in text
