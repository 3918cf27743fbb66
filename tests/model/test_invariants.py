"""Invariants (:mod:`cpsolve.model.invariants`) and their independent re-check
(:mod:`cpsolve.answers.check`).

Expected invariants come from reasoning about each small model (stated
beside it); the property test compares every proof of impossibility with a
breadth-first search written here, which shares no code with the
invariants, the facts or the engines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolve.answers import check
from cpsolve.answers.check import proofs
from cpsolve.answers.result import EngineBug, Result, Status
from cpsolve.engines import Options, run
from cpsolve.language.combine import And
from cpsolve.language.expr import Const, Var
from cpsolve.language.interpret import evaluate
from cpsolve.model import Planning, invariants
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[2] / "models"


def reachable_goal(model: Planning) -> bool:
    """Plain BFS under the model's rules: is a goal state reachable from the start?"""
    names = list(model.domains)
    start = tuple(model.initial[n] for n in names)
    seen, frontier = {start}, [start]
    while frontier:
        layer = []
        for s in frontier:
            env = dict(zip(names, s))
            if evaluate(model.goal, env):
                return True
            for action in model.actions:
                if not evaluate(action.guard, env):
                    continue
                new = dict(env)
                for n, e in action.effects:
                    new[n] = evaluate(e, env)
                if any(new[n] not in model.domains[n] for n in names):
                    continue
                t = tuple(new[n] for n in names)
                if t not in seen:
                    seen.add(t)
                    layer.append(t)
        frontier = layer
    return False


def confirmed(model: Planning, found: invariants.Invariant) -> str | None:
    return proofs.invariant_problem(model, found.weights, found.modulus, found.start, found.goal)


# ---------------------------------------------------------------- known cases


def test_french37_is_refused_by_an_invariant_mod_2():
    # the classic argument is a colouring mod 2 (see the model file); over the integers
    # no weighting of holes survives every jump both ways, so the proof is modulo 2
    model = load(MODELS / "french37.toml").model
    found = invariants.find(model)
    assert found is not None and found.modulus == 2
    assert confirmed(model, found) is None
    assert found.start != found.goal


def test_english33_central_game_is_not_refused():
    # it is solvable (31 jumps), so no sound argument can refuse it
    assert invariants.find(load(MODELS / "english33.toml").model) is None


def counter(step: int, hi: int, goal: int) -> Planning:
    m = Planning("counter")
    x = m.add_variable("x", 0, hi)
    m.set_initial({"x": 0})
    m.add_action("up", True, {x: x + step})
    m.set_goal(x == goal)
    return m


@pytest.mark.parametrize("step, goal, modulus", [(2, 3, 2), (3, 4, 3), (5, 7, 5)])
def test_a_counter_by_steps_of_p_never_leaves_its_residue(step, goal, modulus):
    # x goes 0, step, 2*step, ...: x mod step is 0 for ever, and the goal's is not
    model = counter(step, 20, goal)
    found = invariants.find(model)
    assert found == invariants.Invariant((("x", 1),), modulus, 0, goal % modulus)
    assert confirmed(model, found) is None
    assert "modulo" in found.words()


def test_a_reachable_residue_is_not_refused():
    assert invariants.find(counter(2, 20, 6)) is None


def test_an_exact_invariant_a_transfer_keeps_the_sum():
    # moving one unit from a to b or back keeps a + b = 3; the goal has a + b = 4
    m = Planning("transfer")
    a, b = m.add_variable("a", 0, 5), m.add_variable("b", 0, 5)
    m.set_initial({"a": 3, "b": 0})
    m.add_action("a to b", True, {a: a - 1, b: b + 1})
    m.add_action("b to a", True, {a: a + 1, b: b - 1})
    m.set_goal(And(a == 2, b == 2))
    found = invariants.find(m)
    assert found is not None and found.modulus == 0
    assert dict(found.weights) == {"a": 1, "b": 1} and (found.start, found.goal) == (3, 4)
    assert confirmed(m, found) is None
    assert not reachable_goal(m)


def test_a_variable_no_action_writes_keeps_its_value():
    m = Planning("fixed")
    x, y = m.add_variable("x", 0, 3), m.add_variable("y", 0, 1)
    m.set_initial({"x": 0, "y": 0})
    m.add_action("inc", x < 3, {x: x + 1})
    m.set_goal(And(x == 3, y == 1))
    found = invariants.find(m)
    assert found is not None and dict(found.weights) == {"y": 1}


def test_a_variable_changed_by_unfixed_amounts_gets_no_weight():
    # y := x copies a value the text does not fix, so y cannot be weighed; x alone can,
    # and x's residue mod 2 is reachable: nothing is proven (the goal y == 1 is reachable)
    m = Planning("copy")
    x, y = m.add_variable("x", 0, 4), m.add_variable("y", 0, 4)
    m.set_initial({"x": 0, "y": 0})
    m.add_action("up", True, {x: x + 2})
    m.add_action("copy", True, {y: x})
    m.set_goal(And(x == 2, y == 2))
    assert invariants.find(m) is None
    assert reachable_goal(m)


def test_a_goal_that_leaves_a_variable_free_gives_it_no_weight():
    m = counter(2, 20, 3)
    m.add_variable("z", 0, 1)
    m.set_initial({"x": 0, "z": 0})
    m.add_action("set z", Var("z") == 0, {"z": Const(1)})
    m.set_goal(Var("z") == 1)  # x is free: its residue says nothing
    assert invariants.find(m) is None


# ---------------------------------------------------------------- the checker's own re-check


def test_the_checker_rejects_an_invariant_an_action_breaks():
    model = counter(1, 20, 3)
    assert "changes the invariant by 1" in proofs.invariant_problem(model, (("x", 1),), 2, 0, 1)


def test_the_checker_rejects_wrong_values_and_unpinned_variables():
    model = counter(2, 20, 3)
    assert "at the start" in proofs.invariant_problem(model, (("x", 1),), 2, 1, 0)
    assert "in the goal" in proofs.invariant_problem(model, (("x", 1),), 2, 0, 0)
    model.set_goal(Var("x") >= 3)
    assert "does not fix x" in proofs.invariant_problem(model, (("x", 1),), 2, 0, 1)


def test_the_checker_reads_boolean_pins_of_the_goal():
    m = Planning("flag")
    f, g = m.add_variable("f", 0, 1), m.add_variable("g", 0, 1)
    m.set_initial({"f": 0, "g": 1})
    m.add_action("swap", And(f == 0, g == 1), {f: Const(1), g: Const(0)})
    m.add_action("back", And(f == 1, g == 0), {f: Const(0), g: Const(1)})
    m.set_goal(And(Var("f"), Var("g")))  # f + g is 1 for ever; the goal needs 2
    found = invariants.find(m)
    assert found is not None and confirmed(m, found) is None


def test_verify_raises_on_an_invariant_the_checker_cannot_confirm():
    model = counter(1, 20, 3)
    bogus = Result(Status.INFEASIBLE, "search", proof="invariant",
                   invariant=invariants.Invariant((("x", 1),), 2, 0, 1))
    with pytest.raises(EngineBug, match="invariant"):
        check.verify(model, bogus)


@pytest.mark.parametrize("engine", ["search", "cpsat"])
@pytest.mark.parametrize("task", ["solve", "count"])
def test_both_engines_answer_every_task_by_the_invariant(engine, task):
    model = load(MODELS / "french37.toml").model
    result = run(engine, task, model, Options(time_limit=30))
    assert result.proof == "invariant" and result.verified is True
    assert result.invariant is not None and "preserved modulo 2" in result.message
    if task == "solve":
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.EXACT and result.count == 0


# ---------------------------------------------------------------- property: never wrong


@st.composite
def models(draw) -> Planning:
    m = Planning("random")
    size = draw(st.integers(2, 4))
    names = [f"v{i}" for i in range(size)]
    for n in names:
        m.add_variable(n, 0, draw(st.integers(1, 4)))
    m.set_initial({n: draw(st.integers(*m.domain(n))) for n in names})
    for k in range(draw(st.integers(1, 5))):
        effects, guard = {}, []
        for n in draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)):
            kind = draw(st.sampled_from(["inc", "inc", "const", "copy"]))
            if kind == "inc":
                effects[n] = Var(n) + draw(st.sampled_from([-3, -2, -1, 1, 2, 3]))
            elif kind == "const":
                lo, hi = m.domain(n)
                guard.append(Var(n) == draw(st.integers(lo, hi)))
                effects[n] = Const(draw(st.integers(lo, hi)))
            else:  # a copy of another variable (x := x is no effect)
                effects[n] = Var(draw(st.sampled_from([o for o in names if o != n])))
        if draw(st.booleans()):
            other = draw(st.sampled_from(names))
            guard.append(Var(other) >= draw(st.integers(0, 2)))
        m.add_action(f"a{k}", And(*guard) if guard else True, effects)
    pinned = draw(st.lists(st.sampled_from(names), min_size=1, unique=True))
    m.set_goal(And(*(Var(n) == draw(st.integers(*m.domain(n))) for n in pinned)))
    return m


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models())
def test_whenever_an_invariant_refuses_a_goal_bfs_finds_no_plan(model):
    found = invariants.find(model)
    if found is None:
        return
    assert not reachable_goal(model), found.words()
    assert confirmed(model, found) is None
