"""Bidirectional breadth-first search over packed states (search/planning/packed_bidir.py).

Known answers: the 8-puzzle's hardest start takes 31 moves (the design's table); the 2x5
sliding puzzle's farthest position from the goal lies 55 moves away, which the test
checks independently with the analysis' breadth-first sweep back from the goal.  The
bound on the space: a sliding puzzle's moves only rearrange its cells' values, so at
most 9! (8-puzzle), 10! (2x5) or 16! (15-puzzle) arrangements.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning.packed_bidir import SMALL_SPACE, space_bound
from cpsolve.puzzles.files import load

MODELS = Path(__file__).parents[3] / "models"

TWO_BY_FIVE = """
family = "sliding"
name = "2x5, the farthest position"
description = "2x5, tiles 1-9."
start = \"\"\"
_ 5 3 2 1
9 4 8 7 6
\"\"\"
goal = \"\"\"
1 2 3 4 5
6 7 8 9 _
\"\"\"
"""


def test_the_packing_bounds_the_space() -> None:
    eight = compile_planning(load(MODELS / "eight_puzzle.toml").model)
    assert space_bound(eight) == math.factorial(9) <= SMALL_SPACE
    fifteen = compile_planning(load(MODELS / "fifteen_easy.toml").model)
    assert space_bound(fifteen) == math.factorial(16) > SMALL_SPACE


def test_eight_puzzle_by_default() -> None:
    result = run("search", "solve", load(MODELS / "eight_puzzle.toml").model)
    assert result.status is Status.OPTIMAL and result.steps == 31 and result.verified
    assert result.details["algorithm"] == "packed_bidir"


def test_two_by_five_farthest_position(tmp_path: Path, cli) -> None:
    path = tmp_path / "two_by_five.toml"
    path.write_text(TWO_BY_FIVE)
    model = load(path).model
    sweep = run("search", "analyze", model, Options(direction="goal"))
    distance = sweep.details["initial_distance"]
    assert sweep.answer.states == math.factorial(10) // 2     # half the arrangements
    assert distance == sweep.answer.max_distance == 55
    out = json.loads(cli("solve", str(path), "--json").out)       # the default: auto
    assert out["status"] == "optimal" and out["steps"] == distance and out["verified"]


def test_unreachable_goal_exhausts_a_side() -> None:
    """Two tiles swapped in the 8-puzzle: parity makes it unreachable; the search (asked
    by name, past the family's parity argument) runs out of states on one side."""
    model = load(MODELS / "eight_puzzle.toml").model
    task = compile_planning(model)
    from cpsolve.engines.search.common import Budget
    from cpsolve.engines.search.planning.packed_bidir import packed_bidir

    swapped = list(task.goal_state)
    i, j = swapped.index(1), swapped.index(2)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    task.goal_state = tuple(swapped)
    result = packed_bidir(task, Budget())
    assert result.status is Status.INFEASIBLE
    assert result.explored >= math.factorial(9) // 2          # one side: a whole half


def test_a_space_of_four_million_states_is_packed() -> None:
    """Eleven dials of four positions (4^11 = 4,194,304 states, as 4-peg Hanoi with 11
    discs): small enough for packed layers, which took 2.8 s where ``bidir`` took 17 s."""
    from cpsolve import Planning
    from cpsolve.engines.search.registry import default_algorithm

    model = Planning("dials")
    dials = [model.add_variable(f"d{i}", 0, 3) for i in range(11)]
    model.set_initial({f"d{i}": 0 for i in range(11)})
    model.set_goal(dials[0] == 3)
    for d in dials[1:]:
        model.set_goal(model.goal & (d == 3))
    for i, d in enumerate(dials):
        model.add_action(f"turn {i} up", d <= 2, {d: d + 1})
        model.add_action(f"turn {i} down", d >= 1, {d: d - 1})
    task = compile_planning(model)
    assert space_bound(task) == 4**11 <= SMALL_SPACE
    assert default_algorithm(model, task) == "packed_bidir"


def test_the_default_that_cannot_run_after_all_hands_over_to_its_fallback(monkeypatch) -> None:
    """Packed layers may find once under way that they cannot run (their predecessor tables
    too large to build: Tower of Hanoi with 14 discs); as the default they hand the plan to
    their fallback, ``bidir``, and the result says why — asked for by name, they are refused."""
    import cpsolve.engines.search.planning.packed_bidir as packed
    from cpsolve.answers.result import Unsupported
    from cpsolve.engines.search.common import Inapplicable

    def cannot(task, budget):
        raise Inapplicable("search: packed_bidir needs one-word codes and predecessor tables")

    monkeypatch.setattr(packed, "packed_bidir", cannot)
    model = load(MODELS / "eight_puzzle.toml").model
    result = run("search", "solve", model)
    assert result.status is Status.OPTIMAL and result.steps == 31
    assert result.details["algorithm"] == "bidir"
    assert "predecessor tables" in result.details["fallback"]
    with pytest.raises((Unsupported, Inapplicable)):
        run("search", "solve", model, Options(algorithm="packed_bidir"))
