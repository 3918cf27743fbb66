"""What a search that ran out of states says it explored: "all N reachable states" only
when N is the number of states reachable from the start; a search over states merged by
symmetry says "up to" them, and one that expands states again (IDDFS, IDA*, the rounds of
iterative widening) says what it did. ``explored`` stays the states or nodes examined
(docs/json.md)."""

from __future__ import annotations

import re

import pytest

from cpsolve import Planning, Status
from cpsolve.answers.result import Unsupported
from cpsolve.engines import Options, run
from cpsolve.engines.search import engine


def two_counters() -> Planning:
    """``a`` and ``b`` count up from 0 to 2 (their domains reach 3); the goal, both at 3, is
    never reached.  Reachable: the 9 pairs of 0..2; swapping ``a`` and ``b`` (declared, and
    keeping the goal) makes them 6 up to symmetry: 3 equal pairs, 3 unordered others.  Every
    path is a word of at most two ``a`` and two ``b`` steps: 1, 2, 4, 6, 6 of 0..4 steps."""
    m = Planning("two counters")
    a = m.add_variable("a", 0, 3)
    b = m.add_variable("b", 0, 3)
    m.set_initial({"a": 0, "b": 0})
    m.set_goal((a == 3) & (b == 3))
    m.add_action("inc a", a < 2, {a: a + 1})
    m.add_action("inc b", b < 2, {b: b + 1})
    m.add_symmetry({"a": "b", "b": "a"})
    return m


REACHABLE = re.compile(r"all ([\d,]+) reachable states? explored(, up to the model's)?")


@pytest.mark.parametrize("algorithm", list(engine.ALGORITHMS))
def test_a_count_of_reachable_states_is_the_true_one(algorithm):
    try:
        result = run("search", "solve", two_counters(), Options(algorithm=algorithm))
    except Unsupported:
        pytest.skip(f"{algorithm} does not run on this model")
    assert result.status is Status.INFEASIBLE
    said = REACHABLE.search(result.message)
    if said is not None:
        assert int(said.group(1)) == (6 if said.group(2) else 9), result.message


def test_memo_dfs_counts_states_up_to_symmetry():
    result = run("search", "solve", two_counters(), Options(algorithm="memo_dfs"))
    assert result.explored == 6
    assert result.message == ("goal unreachable: all 6 reachable states explored, up to the "
                              "model's 1 symmetry that keeps the goal")


def test_widening_says_its_rounds_expanded_more_than_it_proved():
    """Width 1 keeps (0, 2) of the two classes at depth 2 and expands 5 states; width 2
    cuts nothing and expands all 6: 11 in all, over 2 rounds."""
    result = run("search", "solve", two_counters(), Options(algorithm="widening"))
    assert result.explored == 11 and result.details["width"] == 2
    assert result.message == ("goal unreachable: all 6 reachable states explored, up to the "
                              "model's 1 symmetry that keeps the goal; the last beam round "
                              "(width 2) cut no layer: 11 states expanded over 2 rounds")


@pytest.mark.parametrize("algorithm", ["iddfs", "idastar"])
def test_deepening_says_it_followed_every_path(algorithm):
    """Depth limits 1..5 (IDA*: thresholds 0..4, no estimate) expand the paths of fewer
    moves: 1 + 3 + 7 + 13 + 19 = 43 expansions; the last cuts no path (none has 5 moves)."""
    result = run("search", "solve", two_counters(), Options(algorithm=algorithm))
    assert result.status is Status.INFEASIBLE and result.explored == 43
    assert "reachable state" not in result.message
    assert "43 states expanded over 5 iterations" in result.message
    if algorithm == "iddfs":
        assert "none is longer than 4 moves" in result.message
    else:
        assert "iteration at threshold 4 pruned nothing" in result.message
