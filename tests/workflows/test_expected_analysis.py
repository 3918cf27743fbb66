"""``[expected]``'s ``states``, ``max_distance`` and ``farthest`` against an analysis: they
are the figures of ``analyze`` in its default direction (back from the goal when the goal is
one state, else from the start), so an analysis in that direction is held against them —
complete, its figures; stopped, the least it proved — and one from the other end is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsolve.answers.kinds import Analysis
from cpsolve.answers.result import Result, Status
from cpsolve.puzzles.files import load
from cpsolve.workflows.expected import default_direction, mismatches

COUNTER = """family = "transition"
name = "counter"
goal = "{goal}"
[variables]
x = [0, 3]
[initial]
x = 1
[[actions]]
name = "up"
guard = "x < 3"
effects = {{ x = "x + 1" }}
[expected]
{expected}
"""
"""x counts up from 1 to at most 3 and never comes down.  From the start: x = 1, 2, 3 are
reachable, at distances 0, 1, 2 — 3 states, maximum distance 2, one state (x = 3) there.
Back from the goal x == 3: x = 3, 2, 1, 0 reach it, at distances 0 to 3 — 4 states,
maximum distance 3, one state (x = 0) there.  The two ends differ because no move can be
undone."""

SINGLE = "x == 3"
SEVERAL = "x >= 2"  # holds at x = 2 and x = 3: not one state


def counter(tmp_path: Path, goal: str, expected: str) -> Path:
    path = tmp_path / "counter.toml"
    path.write_text(COUNTER.format(goal=goal, expected=expected), encoding="utf-8")
    return path


def said(key: str, want: int, found: str) -> str:
    return f"the model's [expected] says {key} = {want}; this run found {found}"


def test_the_default_direction_is_the_goal_when_it_is_one_state(tmp_path):
    assert default_direction(load(counter(tmp_path, SINGLE, "")).model) == "goal"
    assert default_direction(load(counter(tmp_path, SEVERAL, "")).model) == "start"
    assert default_direction(load(counter(tmp_path, "x == 5", "")).model) == "start"  # none


def test_analyze_of_a_model_with_several_goal_states_is_held_against_expected(cli, tmp_path):
    """Its default analysis is from the start (3 states, distance 2, 1 there), with or
    without ``--from start``: each key it contradicts is a warning and in
    ``expected_mismatch``; the answer is still printed, exit 0."""
    path = counter(tmp_path, SEVERAL, "states = 4\nmax_distance = 3\nfarthest = 2")
    wrong = [said("states", 4, "3"), said("max_distance", 3, "2"), said("farthest", 2, "1")]
    for extra in ([], ["--from", "start"]):
        run = cli("analyze", path, "--json", *extra)
        out = json.loads(run.out)
        assert run.code == 0 and out["status"] == "complete" and out["direction"] == "start"
        assert out["expected_mismatch"] == wrong
        assert run.err.splitlines() == [f"warning: {line}" for line in wrong]
    right = counter(tmp_path, SEVERAL, "states = 3\nmax_distance = 2\nfarthest = 1")
    run = cli("analyze", right)
    assert run.code == 0 and run.err == ""


def test_analyze_from_the_start_of_a_single_goal_model_is_not_held(cli, tmp_path):
    """The keys say what reaches the goal (4 states, distance 3); from the start the run
    finds 3 states and distance 2, which contradicts nothing: it counts other states."""
    path = counter(tmp_path, SINGLE, "states = 4\nmax_distance = 3\nfarthest = 1")
    run = cli("analyze", path, "--from", "start", "--json")
    out = json.loads(run.out)
    assert run.code == 0 and out["direction"] == "start" and out["states"] == 3
    assert "expected_mismatch" not in out and run.err == ""
    assert cli("analyze", path).err == ""  # the default, from the goal, agrees
    wrong = counter(tmp_path, SINGLE, "states = 3\nmax_distance = 2")
    run = cli("analyze", wrong, "--json")
    assert json.loads(run.out)["expected_mismatch"] == [said("states", 3, "4"),
                                                        said("max_distance", 2, "3")]
    assert cli("analyze", wrong, "--from", "start").err == ""


def partial(direction: str, seen: int, layers: tuple[int, ...], bound: int) -> Result:
    """An analysis a limit stopped, its layers complete up to ``bound``."""
    return Result(Status.PARTIAL, "search", task="analyze", bound=bound,
                  answer=Analysis(seen, layers, direction))


@pytest.mark.parametrize("goal, direction", [(SEVERAL, "start"), (SINGLE, "goal")])
def test_a_stopped_analysis_proves_at_least_its_states_and_its_complete_layers(
        tmp_path, goal, direction):
    """5 states found, layers complete to distance 2: at least 5 states, a maximum
    distance of at least 2; nothing of ``farthest`` (the last layer is not known)."""
    model = load(counter(tmp_path, goal, "")).model
    stopped = partial(direction, 5, (1, 2, 1, 1), 2)
    assert mismatches({"states": 4, "max_distance": 1, "farthest": 99}, stopped, model) == [
        said("states", 4, "5 or more"), said("max_distance", 1, "2 or more")]
    assert mismatches({"states": 5, "max_distance": 2, "farthest": 99}, stopped, model) == []
    assert mismatches({"states": 4}, partial(direction, 5, (), -1), model) == [
        said("states", 4, "5 or more")]


@pytest.mark.parametrize("goal, direction", [(SEVERAL, "goal"), (SINGLE, "start")])
def test_an_analysis_from_the_other_end_proves_nothing_of_expected(tmp_path, goal, direction):
    model = load(counter(tmp_path, goal, "")).model
    done = Result(Status.COMPLETE, "search", task="analyze",
                  answer=Analysis(3, (1, 1, 1), direction, 2, ((3,),)))
    assert mismatches({"states": 99, "max_distance": 99, "farthest": 99}, done, model) == []
    assert mismatches({"states": 99}, partial(direction, 5, (1, 4), 1), model) == []
