"""The in-memory analyses from the goal: the state limit counts the side explored, and the
count of the states reachable from the start that follows never turns a complete analysis
from the goal into a partial one from the start.

Expected numbers come from reasoning, noted beside each.
"""

from __future__ import annotations

import pytest

from cpsolve import Planning, Status
from cpsolve.engines import Options, run
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search import common
from cpsolve.engines.search.compile import compile_planning
from cpsolve.puzzles.files import load

IN_MEMORY = ["python", "numpy"]


def hanoi4() -> Planning:
    """The bundled Tower of Hanoi, 4 discs: 3^4 = 81 states, all of them reach the goal."""
    return load("hanoi4").model


def one_way() -> Planning:
    """``b`` counts up to 9 while ``a`` is 0; ``a`` goes 0 -> 1 once, for good.  The goal
    (a 1, b 0) is reached only from (0, 0): 2 states can reach it, 1 move apart; from the
    start (0, 0) every (a, b) is reachable: 2 * 10 = 20 states.  No move can be undone."""
    m = Planning("one way")
    a = m.add_variable("a", 0, 1)
    b = m.add_variable("b", 0, 9)
    m.set_initial({"a": 0, "b": 0})
    m.set_goal((a == 1) & (b == 0))
    m.add_action("up", (a == 0) & (b < 9), {b: b + 1})
    m.add_action("lock", a == 0, {a: 1})
    return m


def analyze(model: Planning, algorithm: str, **options):
    return run("search", "analyze", model, Options(algorithm=algorithm, **options))


@pytest.mark.parametrize("algorithm", IN_MEMORY)
@pytest.mark.parametrize("direction", ["goal", None])
def test_a_limit_above_the_goals_side_leaves_it_complete(algorithm, direction):
    # Hanoi with 4 discs: all 3^4 = 81 placements are legal and connected, so 81 states
    # reach the goal and 81 are reachable; a limit of 100 holds either side, not both
    result = analyze(hanoi4(), algorithm, limit=100, direction=direction)
    assert result.status is Status.COMPLETE and result.answer.direction == "goal"
    assert result.states == 81 == result.details["reachable"]
    assert result.max_distance == 15 == result.details["initial_distance"]  # 2^4 - 1


@pytest.mark.parametrize("algorithm", IN_MEMORY)
def test_from_the_start_the_limit_counts_the_start_side(algorithm):
    result = analyze(hanoi4(), algorithm, limit=100, direction="start")
    assert result.status is Status.COMPLETE and result.answer.direction == "start"
    assert result.states == 81 and result.max_distance == 15


@pytest.mark.parametrize("algorithm", IN_MEMORY)
def test_a_limit_on_the_count_from_the_start_keeps_the_goals_side(algorithm):
    result = analyze(one_way(), algorithm, limit=5)  # the goal's side: 2 states; the start's: 20
    assert result.status is Status.COMPLETE and result.answer.direction == "goal"
    assert result.states == 2 and result.layers == (1, 1) and result.max_distance == 1
    assert result.details["initial_distance"] == 1
    assert "reachable" not in result.details
    assert 0 < result.details["reachable_so_far"] <= 5
    assert "state limit 5 reached" in result.message


@pytest.mark.parametrize("algorithm", IN_MEMORY)
def test_without_a_limit_both_sides_are_counted(algorithm):
    result = analyze(one_way(), algorithm)
    assert result.status is Status.COMPLETE and result.answer.direction == "goal"
    assert result.states == 2 and result.details["reachable"] == 20
    assert "reachable_so_far" not in result.details and not result.message


class StopCounting(common.Budget):
    """Ctrl-C (or the time limit) as soon as the sweep from the start looks at the budget,
    which it does after every expansion."""

    def interval(self, seen: int) -> int:
        return 1

    def exceeded(self, seen, status=None, *args) -> bool:
        if args and args[0] == "reachable":
            return self.halt(Stop.INTERRUPT, "interrupted")
        return super().exceeded(seen, status, *args)


def test_a_stop_while_counting_from_the_start_keeps_the_goals_side():
    from cpsolve.engines.search.statespace.layers import layers

    result = layers(compile_planning(one_way()), StopCounting(), "goal")
    assert result.status is Status.COMPLETE and result.answer.direction == "goal"
    assert result.states == 2 and "reachable" not in result.details
    assert result.details["reachable_so_far"] <= 20
    assert "stopped: interrupted" in result.message


@pytest.mark.parametrize("algorithm", IN_MEMORY)
def test_when_every_move_can_be_undone_the_goals_side_is_the_starts(algorithm):
    """Hanoi's moves can all be undone and the start reaches the goal, so the states
    reachable from the start are those that reach the goal: no second count to stop."""
    from cpsolve.engines.search.statespace.layers import layers
    from cpsolve.engines.search.statespace.vector import numpy_layers

    analysis = {"python": layers, "numpy": numpy_layers}[algorithm]
    result = analysis(compile_planning(hanoi4()), StopCounting(), "goal")
    assert result.status is Status.COMPLETE and result.states == 81
    assert result.details["reachable"] == 81 and "every move can be undone" in \
        result.details["reachable_by"]
    assert not result.message
