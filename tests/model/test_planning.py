"""Planning models refuse what no engine can run, and say which part of a call is wrong."""

from __future__ import annotations

import re

import pytest

from cpsolve.language.combine import And, If, Not, Or
from cpsolve.model import Planning
from cpsolve.model.variables import ModelError

BIG = 2**70
"""Past the 2**62 every (sub)expression must stay within (engines use 64-bit integers)."""


def _jug() -> tuple[Planning, object]:
    model = Planning("jug")
    x = model.add_variable("x", 0, 8)
    model.add_action("fill", x < 8, {"x": 8})
    return model, x


@pytest.mark.parametrize("part, call", [
    ("name", lambda x: dict(name="fill")),  # declared twice
    ("guard", lambda x: dict(guard=x * BIG > 0)),
    ("effects", lambda x: dict(effects={"x": x * BIG})),
    ("effects", lambda x: dict(effects={"y": 0})),  # no variable y
    ("cost", lambda x: dict(cost=x * BIG)),
    ("cost", lambda x: dict(cost=BIG)),
])
def test_a_refused_action_names_the_part_that_is_wrong(part, call):
    model, x = _jug()
    arguments = {"name": "empty", "effects": {"x": 0}, **call(x)}
    with pytest.raises(ModelError) as info:
        model.add_action(**arguments)
    assert info.value.part == part, str(info.value)
    assert [a.name for a in model.actions] == ["fill"]  # nothing added


def test_add_actions_says_which_parameter_its_name_leaves_out():
    """``add_actions("step", {"k": ...})`` made two actions named 'step' and refused the
    second as "declared twice": it is one declaration, whose name leaves out ``{k}``."""
    model, x = _jug()
    with pytest.raises(ModelError) as info:
        model.add_actions("step", {"k": range(1, 3)}, lambda k: (x < 8, {"x": x + k}))
    assert info.value.part == "name"
    assert str(info.value) == ("'step' gives every k the same name (k = 1 and k = 2 both "
                               "give 'step'): put {k} in the name")
    assert [a.name for a in model.actions] == ["fill"]  # refused before any was added
    added = model.add_actions("step {k}", {"k": range(1, 3)}, lambda k: (x < 8, {"x": x + k}))
    assert [a.name for a in added] == ["step 1", "step 2"]


def test_other_refusals_name_no_part():
    model, _ = _jug()
    with pytest.raises(ModelError) as info:
        model.add_variable("x", 0, 1)
    assert info.value.part is None


@pytest.mark.parametrize("engine", ["search", "cpsat"])
@pytest.mark.parametrize("goal, steps", [(0, 0), (1, None)])
def test_a_model_with_no_action_has_its_start_as_only_state(engine, goal, steps):
    """Nothing can move: the start meets the goal in 0 steps (optimal), or no plan exists
    (infeasible, proven); neither is a bad model."""
    from cpsolve.answers.result import Status
    from cpsolve.engines import run

    model = Planning("still")
    x = model.add_variable("x", 0, 1)
    model.set_initial({"x": 0})
    model.set_goal(x == goal)
    model.validate()
    result = run(engine, "solve", model)
    if steps is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.OPTIMAL and result.steps == 0


def test_a_model_whose_goal_was_never_set_is_refused():
    """Without set_goal the goal would be "true": every model solved by 0 moves."""
    model, _ = _jug()
    model.set_initial({"x": 0})
    with pytest.raises(ModelError, match=r"no goal: call set_goal\(condition\)"):
        model.validate()
    model.set_goal(True)  # a goal given as true is the caller's word: 0 moves
    model.validate()


@pytest.mark.parametrize("effects", [None, {}])
def test_an_action_that_changes_nothing_is_refused(effects):
    model, _ = _jug()
    with pytest.raises(ModelError, match="an action must change the state") as info:
        model.add_action("wait", True, effects)
    assert info.value.part == "effects"
    assert [a.name for a in model.actions] == ["fill"]
    # another system's task (PDDL) may have such actions: its reader says so
    assert model.add_action("wait", True, effects, no_effect_ok=True).effects == ()


@pytest.mark.parametrize("call, what", [
    (lambda m, x: m.set_goal(5), "goal"),
    (lambda m, x: m.set_goal(-1), "goal"),
    (lambda m, x: m.add_action("empty", 2, {x: 0}), "action 'empty'"),
    (lambda m, x: m.forbid(3), "forbidden"),
    (lambda m, x: m.invariant(2, "full"), "invariant full"),
])
def test_a_bare_number_is_no_condition(call, what):
    """5 and -1 are not read as true: a model file's '5' is refused, so is this (0 and 1
    are false and true, in a file and here)."""
    model, x = _jug()
    with pytest.raises(ModelError) as info:
        call(model, x)
    assert str(info.value).startswith(f"{what}: ")
    assert "is a number, not a condition: compare it" in str(info.value)
    assert info.value.part in (None, "guard")
    assert (model.goal_set, len(model.actions), model.forbidden) == (False, 1, [])


def test_true_and_false_are_conditions():
    model, x = _jug()
    model.set_goal(False)
    model.add_action("empty", True, {x: 0})
    model.forbid(False)
    assert model.goal_set and len(model.actions) == 2


@pytest.mark.parametrize("call, said", [
    (lambda m, x: m.set_goal(And(x == 4, 5)), "'5'"),
    (lambda m, x: m.set_goal((x == 4) | (x + 1)), "'x + 1'"),
    (lambda m, x: m.add_action("empty", Not(x), {x: 0}), "'x'"),
    (lambda m, x: m.forbid(Or(x > 7, 2)), "'2'"),
])
def test_a_number_inside_and_or_not_is_no_condition(call, said):
    """``And(x == 4, 5)`` is refused as the file's ``x == 4 and 5`` is: the combinators
    do not read a number as true when non-zero."""
    model, x = _jug()
    with pytest.raises(ModelError, match=re.escape(f"{said} is a number, not a condition")):
        call(model, x)


def _jug_and_step() -> tuple[Planning, object, object]:
    """The jug, and a step counter of domain 0..3 (a number, not a condition)."""
    model, x = _jug()
    return model, x, model.add_variable("k", 0, 3)


@pytest.mark.parametrize("call, what, part", [
    (lambda m, x, k: m.add_action("pour", True, {x: If(k, x - 1, x)}), "action 'pour'",
     "effects"),
    (lambda m, x, k: m.add_action("pour", If(k, x > 0, x > 1), {x: 0}), "action 'pour'",
     "guard"),
    (lambda m, x, k: m.add_action("pour", True, {x: 0}, If(k + 1, 1, 2)), "action 'pour' cost",
     "cost"),
    (lambda m, x, k: m.set_goal(If(k, x, 4) == 4), "goal", None),
    (lambda m, x, k: m.add_action("pour", True, {x: If(x == 1, If(k, 0, 1), 2)}),
     "action 'pour'", "effects"),  # an if inside an if's branch
])
def test_an_if_whose_condition_is_a_number_is_refused(call, what, part):
    """``If(k, a, b)`` with ``k`` in 0..3 read ``k`` as true when non-zero, where a number
    standing as a condition is refused everywhere else (``And(x == 4, 5)``): in any
    expression, an effect, a cost or a condition, its condition is one."""
    model, x, k = _jug_and_step()
    with pytest.raises(ModelError) as info:
        call(model, x, k)
    said = "'k + 1'" if "cost" in what else "'k'"
    assert str(info.value) == (f"{what}: {said} is a number, not a condition: compare it "
                               "(==, !=, <, ...) or combine conditions (&, |, ~)")
    assert info.value.part == part


def test_an_if_on_a_comparison_a_0_1_variable_or_a_constant_0_1_stands():
    model, x, k = _jug_and_step()
    flag = model.add_variable("flag", 0, 1)
    model.add_action("pour", True, {x: If(k == 2, x - 1, x), k: If(flag, 0, k)},
                     If(True, 1, 2))
    model.add_action("drain", If(1, x > 0, False) & If(k > 0, True, 0), {x: If(0, 1, 0)})
    assert [a.name for a in model.actions] == ["fill", "pour", "drain"]


def test_conditions_of_0_1_parts_are_conditions():
    """A 0/1 variable, True and 1 are conditions inside ``And`` (their value is 0 or 1)."""
    model = Planning("flags")
    flag = model.add_variable("flag", 0, 1)
    model.set_goal(And(flag, True, 1))
    assert model.goal is not None


def test_an_effect_that_keeps_its_variable_is_no_effect():
    """``{x: x}`` changes nothing, as a file's ``x = "x"``: alone it is refused, beside
    another effect it is left out."""
    model, x = _jug()
    with pytest.raises(ModelError, match="changes nothing"):
        model.add_action("keep", x < 3, {x: x})
    y = model.add_variable("y", 0, 3)
    effects = model.add_action("bump", y < 3, {x: x, "y": y + 1}).effects
    assert [(name, str(value)) for name, value in effects] == [("y", "y + 1")]


@pytest.mark.parametrize("keep", [lambda x: x + 0, lambda x: x * 1, lambda x: x - 0,
                                  lambda x: 1 * x, lambda x: x // 1, lambda x: (x + 0) * 1,
                                  lambda x: If(x > 2, x, x + 0)])
def test_an_effect_that_folds_to_its_variable_is_no_effect(keep):
    """``{x: x + 0}`` was a change where ``{x: x}`` is none: the model's folding of the
    effect (``cpsolve.language.fold``) sees both keep ``x``."""
    model, x = _jug()
    with pytest.raises(ModelError, match="action 'keep' changes nothing"):
        model.add_action("keep", x < 3, {x: keep(x)})
    y = model.add_variable("y", 0, 3)
    effects = model.add_action("bump", y < 3, {x: keep(x), "y": y + 0 + 1}).effects
    assert [name for name, _ in effects] == ["y"]


def test_0_and_1_are_conditions_as_in_a_file():
    """A file's ``goal = "1"`` was accepted where ``set_goal(1)`` was refused."""
    model, x = _jug()
    model.set_goal(1)
    model.forbid(0)
    assert [str(model.goal), str(model.forbidden[0].expr)] == ["1", "0"]


def test_an_initial_state_that_breaks_an_invariant_is_said_so_with_its_values():
    """An invariant is what must hold: the initial state breaks it (with the values it reads),
    as a model file's invariant says; a forbidden condition forbids it."""
    from cpsolve import Planning
    from cpsolve.model import ModelError

    def model(declare):
        m = Planning("t")
        x = m.add_variable("x", 0, 3)
        m.set_initial({"x": 0})
        m.set_goal(x == 3)
        m.add_action("inc", x <= 2, {x: x + 1})
        declare(m, x)
        return m

    with pytest.raises(ModelError, match=r"^the initial state breaks the invariant "
                                         r"x >= 1 \(x = 0\)$"):
        model(lambda m, x: m.invariant(x >= 1, "x stays positive")).validate()
    with pytest.raises(ModelError, match=r"^the initial state is forbidden: x is zero \(x = 0\)$"):
        model(lambda m, x: m.forbid(x == 0, "x is zero")).validate()
