"""CP-SAT over the transition graph when actions cost 0 or 1 (cpsat/graph_free.py): the
free moves closed, the paid arcs counted.  Expected costs come from a Dijkstra over the
model's own states written in tests/model/test_facts.py (no cpsolve engine code)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.cpsat import graph_free
from cpsolve.language.expr import Const, Var
from cpsolve.model import Planning

sys.path.insert(0, str(Path(__file__).parents[2] / "model"))
from test_facts import SETTINGS, cheapest, conditions, effects  # noqa: E402


def walk_and_push() -> Planning:
    """A corridor of 5 cells with a box at 2 and the player at 0: walking is free, a push
    costs 1; the box must reach cell 4, so 2 pushes (by hand: walk to 1, push, push)."""
    model = Planning("corridor")
    p, b = model.add_variable("p", 0, 4), model.add_variable("b", 0, 4)
    model.set_initial({"p": 0, "b": 2})
    model.set_goal(b == 4)
    model.add_action("walk right", (p < 4) & (p + 1 != b), {p: p + 1}, Const(0))
    model.add_action("walk left", (p > 0) & (p - 1 != b), {p: p - 1}, Const(0))
    model.add_action("push right", (p + 1 == b) & (b < 4), {p: p + 1, b: b + 1}, Const(1))
    return model


def test_a_corridor_costs_two_pushes_proven_over_the_closed_graph() -> None:
    result = run("cpsat", "solve", walk_and_push(), Options())
    assert result.status is Status.OPTIMAL and result.verified and result.cost == 2
    assert result.details["encoding"] == "transition graph"
    assert result.details["refuted_up_to"] == 1
    assert [s.action for s in result.plan] == ["walk right", "push right", "push right"]


def test_costs_other_than_zero_and_one_are_not_closed() -> None:
    model = walk_and_push()
    assert graph_free.costs(model) is not None
    model.add_action("jump", Var("p") == 0, {"p": Const(3)}, Const(2))
    assert graph_free.costs(model) is None


@st.composite
def zero_one_models(draw) -> Planning:
    """Two or three small counters, a few actions of cost 0 or 1 (one at least free)."""
    model = Planning("random 0/1")
    for name in ("x", "y", "z")[:draw(st.integers(2, 3))]:
        model.add_variable(name, 0, draw(st.integers(1, 3)))
    costs = draw(st.lists(st.sampled_from([0, 1]), min_size=2, max_size=6))
    for k, c in enumerate([0] + costs):
        model.add_action(f"a{k}", draw(conditions(model)), draw(effects(model)), Const(c))
    for name in model.names:  # every counter can go up for 1 and down for free
        v, hi = Var(name), model.domain(name)[1]
        model.add_action(f"{name} up", v < hi, {name: v + 1}, Const(1))
        model.add_action(f"{name} down", v > 0, {name: v - 1}, Const(0))
    start = {n: draw(st.integers(*model.domain(n))) for n in model.names}
    model.set_initial(start)
    pins = draw(st.lists(st.sampled_from(model.names), min_size=1, max_size=2, unique=True))
    values = {n: draw(st.integers(*model.domain(n))) for n in pins}
    assume(any(start[n] != values[n] for n in pins))
    goal = Var(pins[0]) == values[pins[0]]
    for n in pins[1:]:
        goal = goal & (Var(n) == values[n])
    model.set_goal(goal)
    return model


@SETTINGS
@given(zero_one_models())
def test_the_closed_graph_gives_the_least_cost(model: Planning) -> None:
    best = cheapest(model)
    result = run("cpsat", "solve", model, Options(time_limit=60.0))
    if best is None:
        assert result.status is Status.INFEASIBLE
        return
    assert result.status is Status.OPTIMAL and result.verified, result.message
    assert result.cost == best
    assert result.details["encoding"] == "transition graph"  # the path under test


def test_the_closure_pairs_every_state_with_what_free_moves_reach() -> None:
    """States 0 -free-> 1 -free-> 2, 2 -paid-> 0: the closure of 0 is {0, 1, 2}, of 1 is
    {1, 2}, of 2 is {2}; the paid arc from 2 is reached from all three."""
    from cpsolve.engines.runtime.clock import Clock

    class Three:
        size = 3
        tails = np.array([0, 1, 2])
        actions = np.array([0, 0, 1])
        heads = np.array([1, 2, 0])
        goals = np.array([2])

    paid = graph_free.close(Three(), np.array([0, 1]), Clock())
    assert sorted(paid.tails.tolist()) == [0, 1, 2]
    assert paid.actions.tolist() == [2, 2, 2] and paid.heads.tolist() == [0, 0, 0]
    assert paid.goals.tolist() == [0, 1, 2]  # free moves reach state 2 from each
