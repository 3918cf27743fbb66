"""The independent checker: valid answers pass, and every kind of wrong answer is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.answers.check import verify
from cpsolve.answers.check.assignments import Words, violations
from cpsolve.answers.check.plans import replay
from cpsolve.answers.check.proofs import parity_problem
from cpsolve.answers.result import (
    Analysis,
    Assignment,
    Count,
    EngineBug,
    Plan,
    Result,
    Status,
    Step,
)
from cpsolve.language.expr import Const, Nary, Var
from cpsolve.language.interpret import evaluate
from cpsolve.model import Csp, Planning
from cpsolve.model.invariants import Parity
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[2] / "models"

# ------------------------------------------------------------ water jugs (8 L, 5 L; get 4 L)
#
# Worked out by hand, state = (8 L jug, 5 L jug):
#   fill 5 (0,5), pour into 8 (5,0), fill 5 (5,5), pour: 8 L takes 3 (8,2), empty 8 (0,2),
#   pour 2 (2,0), fill 5 (2,5), pour 5 (7,0), fill 5 (7,5), pour: 8 L takes 1 (8,4).
JUGS_PLAN = [
    ("fill the 5 L jug", (0, 5)),
    ("pour the 5 L jug into the 8 L jug", (5, 0)),
    ("fill the 5 L jug", (5, 5)),
    ("pour the 5 L jug into the 8 L jug", (8, 2)),
    ("empty the 8 L jug", (0, 2)),
    ("pour the 5 L jug into the 8 L jug", (2, 0)),
    ("fill the 5 L jug", (2, 5)),
    ("pour the 5 L jug into the 8 L jug", (7, 0)),
    ("fill the 5 L jug", (7, 5)),
    ("pour the 5 L jug into the 8 L jug", (8, 4)),
]

# Blocks: objects red=0, blue=1, green=2, x=3, y=4, z=5; state = (on[red], on[blue], on[green]).
# Start: red on blue on green on x.  Goal: the same stack on z.
BLOCKS_PLAN = [
    ("put red on y", (4, 2, 3)),
    ("put blue on red", (4, 0, 3)),
    ("put green on z", (4, 0, 5)),
    ("put blue on green", (4, 2, 5)),
    ("put red on blue", (1, 2, 5)),
]


@pytest.fixture(scope="module")
def jugs() -> Planning:
    model = load(MODELS / "water_jugs.toml").model
    assert isinstance(model, Planning)
    return model


@pytest.fixture(scope="module")
def blocks() -> Planning:
    model = load(MODELS / "blocks.toml").model
    assert isinstance(model, Planning)
    return model


def steps(plan: list[tuple[str, tuple[int, ...]]]) -> tuple[Step, ...]:
    return tuple(Step(name, state) for name, state in plan)


def names(plan: list[tuple[str, tuple[int, ...]]]) -> list[str]:
    return [name for name, _ in plan]


# ------------------------------------------------------------ replay: valid plans


@pytest.mark.parametrize("as_steps", [False, True], ids=["names", "steps"])
def test_water_jugs_plan_is_accepted(jugs, as_steps):
    verdict = replay(jugs, steps(JUGS_PLAN) if as_steps else names(JUGS_PLAN))
    assert verdict.ok and bool(verdict)
    assert verdict.cost == 10 and verdict.step is None and verdict.message == ""


def test_longer_water_jugs_plan_is_accepted(jugs):
    """The other way round (fill the 8 L jug first) takes 12 moves and ends at (4, 5)."""
    fill, empty, pour = "fill the 8 L jug", "empty the 5 L jug", "pour the 8 L jug into the 5 L jug"
    plan = [fill, pour, empty, pour, fill, pour, empty, pour, empty, pour, fill, pour]
    verdict = replay(jugs, plan)
    assert verdict.ok and verdict.cost == 12


@pytest.mark.parametrize("as_steps", [False, True], ids=["names", "steps"])
def test_blocks_plan_is_accepted(blocks, as_steps):
    verdict = replay(blocks, steps(BLOCKS_PLAN) if as_steps else names(BLOCKS_PLAN))
    assert verdict.ok and verdict.cost == 5


# ------------------------------------------------------------ replay: broken plans


def _replace(plan, index, new):
    out = list(plan)
    out[index] = new
    return out


@pytest.mark.parametrize("plan, step, fragment", [
    (_replace(names(JUGS_PLAN), 2, "fill jug 2"), 3, "no action named 'fill jug 2'"),
    (_replace(names(JUGS_PLAN), 0, "fill the jug"), 1, "no action named"),
    (_replace(names(JUGS_PLAN), 0, "empty the 8 L jug"), 1, "guard"),  # it is empty already
    (_replace(names(JUGS_PLAN), 4, "fill the 8 L jug"), 5, "guard"),  # (8, 2): the 8 L jug is full
    (_replace(names(JUGS_PLAN), 5, "pour the 8 L jug into the 5 L jug"), 6,
     "guard"),  # (0, 2): the 8 L jug is empty
    (names(JUGS_PLAN)[:8], None, "goal"),  # stops at (7, 0): every step legal
    ([], None, "goal"),
])
def test_broken_water_jugs_plans(jugs, plan, step, fragment):
    verdict = replay(jugs, plan)
    assert not verdict.ok and not bool(verdict)
    assert verdict.step == step
    assert fragment in verdict.message
    if step and fragment != "goal":
        assert verdict.message.startswith(f"step {step}")


def test_guard_message_names_action_and_guard(jugs):
    verdict = replay(jugs, ["empty the 8 L jug"])
    assert verdict.message == ("step 1 (empty the 8 L jug) cannot be played: its guard needs "
                               "jug[0] > 0")


def test_a_false_guard_is_said_by_the_conjuncts_that_fail():
    """x == 0 and y == 1: from (0, 0) only y == 1 fails, so only it is named; from (1, 0)
    both fail, and the whole guard is."""
    for start, needs in (((0, 0), "y == 1"), ((1, 0), "x == 0 and y == 1")):
        model = Planning("two")
        model.add_variable("x", 0, 1)
        model.add_variable("y", 0, 1)
        model.set_initial({"x": start[0], "y": start[1]})
        model.set_goal(Var("x") == 1)
        model.add_action("go", (Var("x") == 0) & (Var("y") == 1), {"x": 1})
        verdict = replay(model, ["go"])
        assert verdict.message == f"step 1 (go) cannot be played: its guard needs {needs}"


def test_a_true_constant_in_a_false_guard_is_not_said():
    """Hanoi's guard for the smallest disc is ``peg[0] != t and all(... for e in range(0))``:
    the ``all`` over no discs is the constant true, and the words name only what fails
    (they said ``peg[0] != 0 and 1``)."""
    model = Planning("one disc")
    model.add_variable("p", 0, 2)
    model.set_initial({"p": 0})
    model.set_goal(Var("p") == 2)
    model.add_action("to 0", Nary("and", (Var("p") != 0, Const(1))), {"p": 0})
    verdict = replay(model, ["to 0"])
    assert verdict.message == "step 1 (to 0) cannot be played: its guard needs p != 0"


def test_violations_name_variables_and_values_in_the_words_given(xsudoku):
    """A puzzle's words name the cells and values: cell[0][0] as CELL[0][0], 2 as B."""
    rows = [row[:] for row in XS_GOOD]
    rows[0][0] = 2  # 2 twice in row 1, with cell[0][1]
    words = Words(variable=str.upper, value=lambda name, v: "ABCDE"[v - 1],
                  condition=lambda e: "<said>")
    found = violations(xsudoku, assignment(rows), words)
    assert found[0] == "row 1: CELL[0][0] and CELL[0][1] are both B"
    values = assignment(XS_GOOD)
    del values["cell[2][2]"]
    assert violations(xsudoku, values, words) == ["CELL[2][2] has no value"]


def test_messages_say_conditions_in_the_callers_words_and_a_missed_goal_keeps_its_state(jugs):
    """``say`` writes the guard and the goal (a puzzle's words); a legal plan that misses
    the goal carries the state it ends in: fill the 5 L jug from (0, 0) gives (0, 5); its
    one step is legal, so it names no illegal step."""
    said = replay(jugs, ["empty the 8 L jug"], say=lambda e: "<the guard>")
    assert said.message == ("step 1 (empty the 8 L jug) cannot be played: its guard needs "
                            "<the guard>")
    assert said.reached is None
    missed = replay(jugs, ["fill the 5 L jug"], say=lambda e: "<the goal>")
    assert missed.message == "the goal <the goal> does not hold after the plan"
    assert missed.reached == (0, 5) and missed.step is None


def test_steps_claiming_a_wrong_state(jugs):
    plan = list(steps(JUGS_PLAN))
    plan[3] = Step("pour the 5 L jug into the 8 L jug", (8, 3))  # the rules give (8, 2)
    verdict = replay(jugs, plan)
    assert not verdict.ok and verdict.step == 4
    assert "(8, 3)" in verdict.message and "(8, 2)" in verdict.message


def test_steps_claiming_a_wrong_cost(jugs):
    plan = list(steps(JUGS_PLAN))
    plan[6] = Step("fill the 5 L jug", (2, 5), cost=0)
    verdict = replay(jugs, plan)
    assert not verdict.ok and verdict.step == 7 and "cost 0" in verdict.message


def test_blocks_plans_breaking_the_rules(blocks):
    # green is under blue: it cannot move first
    verdict = replay(blocks, ["put green on z"])
    assert not verdict.ok and verdict.step == 1 and "guard" in verdict.message
    # a block cannot go onto itself: no such action exists
    verdict = replay(blocks, ["put red on red"])
    assert not verdict.ok and "no action named" in verdict.message
    # y is taken by red after step 1, so blue cannot go there
    verdict = replay(blocks, ["put red on y", "put blue on y"])
    assert not verdict.ok and verdict.step == 2
    # legal moves that end elsewhere
    verdict = replay(blocks, names(BLOCKS_PLAN)[:4])
    assert not verdict.ok and "goal" in verdict.message


def test_effect_leaving_its_domain_is_illegal():
    model = Planning("counter")
    x = model.add_variable("x", 0, 2)
    model.set_initial({"x": 0})
    model.add_action("inc", effects={x: x + 1})  # no guard: it can overflow
    model.set_goal(x == 2)
    assert replay(model, ["inc", "inc"]).ok
    verdict = replay(model, ["inc", "inc", "inc"])
    assert not verdict.ok and verdict.step == 3 and "domain 0..2" in verdict.message


def test_costs_follow_the_state():
    """A cost expression is evaluated in the state before the step."""
    model = Planning("costly")
    x = model.add_variable("x", 0, 3)
    model.set_initial({"x": 0})
    model.add_action("inc", guard=x < 3, effects={x: x + 1}, cost=x)  # costs 0, 1, 2
    model.set_goal(x == 3)
    verdict = replay(model, [Step("inc", (1,), 0), Step("inc", (2,), 1), Step("inc", (3,), 2)])
    assert verdict.ok and verdict.cost == 3
    assert not replay(model, [Step("inc", (1,), 1)]).ok


# ------------------------------------------------------------ violations: grids

# value at (r, c) = (c + 2r) mod 5 + 1: rows and columns are permutations (2 is invertible
# mod 5), the main diagonal gives 3r, the anti-diagonal 4 + r: all different too.
XS_GOOD = [[(c + 2 * r) % 5 + 1 for c in range(5)] for r in range(5)]


def assignment(rows: list[list[int]]) -> dict[str, int]:
    return {f"cell[{r}][{c}]": v for r, row in enumerate(rows) for c, v in enumerate(row)}


@pytest.fixture(scope="module")
def xsudoku() -> Csp:
    model = load(MODELS / "xsudoku5.toml").model
    assert isinstance(model, Csp)
    return model


def test_hand_made_x_sudoku_is_accepted(xsudoku):
    assert XS_GOOD[0] == [1, 2, 3, 4, 5] and XS_GOOD[1] == [3, 4, 5, 1, 2]
    assert violations(xsudoku, assignment(XS_GOOD)) == []


@pytest.mark.parametrize("rows, broken", [
    # every row 1 2 3 4 5: rows and diagonals fine, every column constant
    ([[1, 2, 3, 4, 5]] * 5, {f"column {c}" for c in range(1, 6)}),
    # row r all r+1: the transpose of the above
    ([[r + 1] * 5 for r in range(5)], {f"row {r}" for r in range(1, 6)}),
    # a Latin square with shift 1: the anti-diagonal is all 5s
    ([[(c + r) % 5 + 1 for c in range(5)] for r in range(5)], {"anti-diagonal"}),
    # shift -1: the main diagonal is all 1s
    ([[(c - r) % 5 + 1 for c in range(5)] for r in range(5)], {"main diagonal"}),
])
def test_x_sudoku_groups_are_named(xsudoku, rows, broken):
    found = violations(xsudoku, assignment(rows))
    assert {m.split(":")[0] for m in found} == broken


def test_repeated_symbol_message(xsudoku):
    rows = [row[:] for row in XS_GOOD]
    rows[0][0] = 2  # now 2 twice in row 1 (with cell[0][1]), column 1 and the main diagonal
    found = violations(xsudoku, assignment(rows))
    assert "row 1: cell[0][0] and cell[0][1] are both 2" in found
    assert any(m.startswith("column 1: ") for m in found)
    assert any(m.startswith("main diagonal: ") for m in found)
    assert not any(m.startswith("anti-diagonal") for m in found)


def test_value_outside_domain_and_missing_variable(xsudoku):
    values = assignment(XS_GOOD)
    values["cell[2][2]"] = 6
    assert violations(xsudoku, values) == ["cell[2][2] = 6 is outside its domain"]
    values["cell[2][2]"] = 0
    assert violations(xsudoku, values) == ["cell[2][2] = 0 is outside its domain"]
    del values["cell[2][2]"]
    assert violations(xsudoku, values) == ["cell[2][2] has no value"]


def test_violated_given(write_model, xsudoku):
    """First row given as 1 2 3 4 5; the good grid fits, the same grid with 1 and 2 swapped not."""
    path = write_model("x.toml", 'family = "grid"\nsize = 5\n'
                       'groups = ["rows", "columns", "diagonals"]\n'
                       'givens = "12345\\n.....\\n.....\\n.....\\n....."\n')
    model = load(path).model
    assert violations(model, assignment(XS_GOOD)) == []
    swap = {1: 2, 2: 1}
    relabelled = [[swap.get(v, v) for v in row] for row in XS_GOOD]
    assert violations(xsudoku, assignment(relabelled)) == []  # still an X-sudoku
    found = violations(model, assignment(relabelled))
    assert found == ["given: cell[0][0] == 1 is false", "given: cell[0][1] == 2 is false"]


def test_restricted_values_and_conditions():
    model = Csp()
    x = model.add_variable("x", 0, 9)
    y = model.add_variable("y", 0, 9)
    model.restrict("x", [1, 3, 7])
    model.require(x + y == 10, "sum is ten")
    assert violations(model, {"x": 3, "y": 7}) == []
    assert violations(model, {"x": 2, "y": 8}) == ["x = 2 is outside its domain"]
    assert violations(model, {"x": 7, "y": 4}) == ["sum is ten: x + y == 10 is false"]


def test_a_condition_labelled_with_its_own_text_is_named_once(cli, tmp_path):
    """A file's constraint is labelled with its text; validate said "x + y == 1: x + y == 1
    is false".  A part of a longer constraint still names the whole."""
    model = Csp()
    x = model.add_variable("x", 0, 1)
    y = model.add_variable("y", 0, 1)
    model.require(x + y == 1, "x+y == 1")
    model.require(x <= y, "all(v <= y for v in [x])")
    assert violations(model, {"x": 0, "y": 0}) == ["x + y == 1 is false"]
    assert violations(model, {"x": 1, "y": 0}) == ["all(v <= y for v in [x]): x <= y is false"]
    path = tmp_path / "m.toml"
    path.write_text('family = "csp"\nconstraints = ["x + y == 1"]\n[variables]\n'
                    'x = [0, 1]\ny = [0, 1]\n')
    answer = tmp_path / "a.json"
    answer.write_text('{"x": 1, "y": 1}')
    run = cli("validate", path, answer)
    assert run.code == 1 and run.out.strip() == "invalid: x + y == 1 is false (JSON)"


# ------------------------------------------------------------ violations: circuits


def circuit_model(n: int = 4) -> Csp:
    model = Csp("tour")
    succ = model.add_array("succ", n, 0, n - 1)
    model.circuit(succ, "tour")
    return model


def succ(*values: int) -> dict[str, int]:
    return {f"succ[{i}]": v for i, v in enumerate(values)}


def test_hamiltonian_cycle_is_accepted():
    model = circuit_model()
    assert violations(model, succ(1, 2, 3, 0)) == []
    assert violations(model, succ(2, 3, 1, 0)) == []  # 0 -> 2 -> 1 -> 3 -> 0
    assert violations(circuit_model(1), succ(0)) == []


@pytest.mark.parametrize("values", [
    (1, 0, 3, 2),  # two 2-cycles
    (0, 2, 3, 1),  # a self-loop at 0 and a 3-cycle
    (1, 2, 0, 3),  # a 3-cycle and a self-loop at 3
    (1, 2, 3, 1),  # 0 leads into the cycle 1 -> 2 -> 3 -> 1 and is never re-entered
    (1, 1, 1, 1),  # not a permutation
])
def test_sub_cycles_are_rejected(values):
    found = violations(circuit_model(), succ(*values))
    assert len(found) == 1 and found[0].startswith("tour: ")


# ------------------------------------------------------------ verify


def test_verify_marks_good_plans_verified(jugs):
    result = Result(Status.OPTIMAL, "test", answer=Plan(steps(JUGS_PLAN), 10))
    checked = verify(jugs, result)
    assert checked.verified is True and result.verified is None  # results are immutable
    assert checked.but(verified=None) == result


@pytest.mark.parametrize("result, fragment", [
    (Result(Status.OPTIMAL, "test", answer=Plan.of(steps(JUGS_PLAN)[:9])), "invalid plan"),
    (Result(Status.OPTIMAL, "test", answer=Plan.of((Step("fill the 5 L jug", (0, 4)),))),
     "invalid plan"),
    (Result(Status.OPTIMAL, "test", answer=Plan(steps(JUGS_PLAN), 9)), "cost 9"),
])
def test_verify_rejects_bad_plans(jugs, result, fragment):
    with pytest.raises(EngineBug, match="test") as info:
        verify(jugs, result)
    assert fragment in str(info.value)


def test_verify_csp_answers(xsudoku):
    good = assignment(XS_GOOD)
    other = assignment([row[::-1] for row in XS_GOOD])  # mirror image: still an X-sudoku
    assert violations(xsudoku, other) == []
    ok = verify(xsudoku, Result(Status.SOLVED, "t", answer=Assignment(good, False, other)))
    assert ok.verified is True
    counted = verify(xsudoku, Result(Status.EXACT, "t", task="count",
                                     answer=Count(2, (good, other))))
    assert counted.verified is True

    bad = dict(good, **{"cell[0][0]": 2})
    with pytest.raises(EngineBug, match="invalid assignment"):
        verify(xsudoku, Result(Status.SOLVED, "t", answer=Assignment(bad)))
    with pytest.raises(EngineBug, match="invalid assignment"):
        verify(xsudoku, Result(Status.SOLVED, "t", answer=Assignment(good, False, bad)))
    with pytest.raises(EngineBug, match="same solution twice"):
        verify(xsudoku, Result(Status.SOLVED, "t", answer=Assignment(good, False, good)))
    with pytest.raises(EngineBug, match="twice"):
        verify(xsudoku, Result(Status.EXACT, "t", task="count",
                               answer=Count(2, (good, dict(good)))))
    with pytest.raises(EngineBug):
        verify(xsudoku, Result(Status.EXACT, "t", task="count", answer=Count(2, (good, bad))))


def test_a_bare_count_is_not_verified(xsudoku):
    """The checker re-checks listed solutions; a count without all of them is not verified."""
    good = assignment(XS_GOOD)
    partly = verify(xsudoku, Result(Status.EXACT, "t", task="count", answer=Count(2, (good,))))
    assert partly.verified is False
    bare = verify(xsudoku, Result(Status.EXACT, "t", task="count", answer=Count(960)))
    assert bare.verified is False


def test_a_count_must_count_what_its_model_has(xsudoku, jugs):
    """A csp has solutions and a planning model plans: a count of the other kind is an
    engine's bug (its words, "0 optimal plans" or "0 solutions", would be wrong too)."""
    with pytest.raises(EngineBug, match="a count of plans for a csp model"):
        verify(xsudoku, Result(Status.EXACT, "t", task="count", answer=Count(0, of="plans")))
    with pytest.raises(EngineBug, match="a count of solutions for a planning model"):
        verify(jugs, Result(Status.EXACT, "t", task="count", answer=Count(0)))
    assert verify(jugs, Result(Status.EXACT, "t", task="count",
                               answer=Count(0, of="plans"))).verified is False


def test_verify_does_not_claim_what_it_cannot_check(jugs):
    """An infeasibility proof carries nothing to replay: not verified, its proof says how."""
    checked = verify(jugs, Result(Status.INFEASIBLE, "t", proof="exhausted search"))
    assert checked.verified is None and checked.proof == "exhausted search"


def test_verify_rejects_malformed_farthest_states(jugs):
    good = Result(Status.COMPLETE, "t", task="analyze",
                  answer=Analysis(3, (1, 1, 1), "start", 2, ((8, 4),)))
    assert verify(jugs, good).verified is False  # state counts are cross-checked, not checked
    for state in [(9, 0), (1, 2, 3)]:
        with pytest.raises(EngineBug, match="malformed state"):
            verify(jugs, good.but(answer=Analysis(3, (1, 1, 1), "start", 2, (state,))))


@pytest.mark.parametrize("status, task, fields", [
    (Status.OPTIMAL, "solve", {}),                      # an answer is promised
    (Status.EXACT, "solve", {"answer": Count(1)}),      # not a solve status
    (Status.OPTIMAL, "count", {"answer": Count(1)}),    # counts are exact, not optimal
    (Status.COMPLETE, "count", {"answer": Count(1)}),
    (Status.UNKNOWN, "analyze", {}),                    # analyses are complete or partial
    (Status.SOLVED, "solve", {"answer": Count(1)}),     # a count does not answer a solve
    (Status.UNKNOWN, "solve", {"proof": "parity"}),     # only infeasibility has a proof
])
def test_statuses_and_answers_are_enforced_per_task(status, task, fields):
    with pytest.raises(ValueError):
        Result(status, "t", task=task, **fields)


# ------------------------------------------------------------ a permutation-parity proof
#
# A 2x2 sliding puzzle written here by hand, cells a b / c d (colours 0 1 / 1 0 on the
# checkerboard), tiles 1 2 3 and the blank 0, from 1 2 / 3 _ to 2 1 / 3 _.  The parity
# claimed: inversions of (a, b, c, d) plus the colour of the blank's cell.  Start (1, 2, 3, 0):
# 3 inversions (each tile before the 0), blank on d (colour 0): 1.  Goal (2, 1, 3, 0): 4
# inversions (2 > 1, and each tile before the 0), blank on d: 0.  They differ: no plan.

CELLS = ("a", "b", "c", "d")
COLOURS = (0, 1, 1, 0)
NEIGHBOURS = (("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"))


def two_by_two(extra: str | None = None) -> Planning:
    """The 2x2 puzzle; ``extra`` adds one action that breaks the parity argument."""
    p = Planning("2x2")
    v = {n: p.add_variable(n, 0, 3) for n in CELLS}
    p.set_initial({"a": 1, "b": 2, "c": 3, "d": 0})
    p.set_goal((v["a"] == 2) & (v["b"] == 1) & (v["c"] == 3) & (v["d"] == 0))
    for x, y in NEIGHBOURS:
        for into, out in ((x, y), (y, x)):
            p.add_action(f"{out} into {into}", (v[into] == 0) & (v[out] != 0),
                         {v[into]: v[out], v[out]: 0})
    if extra == "swap":  # two tiles trade places: a transposition, the blank stays
        p.add_action("swap a b", (v["a"] != 0) & (v["b"] != 0), {v["a"]: v["b"], v["b"]: v["a"]})
    elif extra == "paint":  # a tile is replaced: no rearrangement at all
        p.add_action("paint a", v["a"] == 1, {v["a"]: 2})
    return p


def reachable(p: Planning) -> set[tuple[int, ...]]:
    """Every state reachable from the start, by a plain search with the reference
    interpreter (to confirm, independently of the parity, that the goal is not)."""
    names = list(p.domains)
    seen = {tuple(p.initial[n] for n in names)}
    todo = list(seen)
    while todo:
        env = dict(zip(names, todo.pop()))
        for action in p.actions:
            if evaluate(action.guard, env):
                new = dict(env)
                new.update({n: evaluate(e, env) for n, e in action.effects})
                state = tuple(new[n] for n in names)
                if state not in seen:
                    seen.add(state)
                    todo.append(state)
    return seen


def test_the_two_by_two_goal_is_unreachable_and_the_parity_says_why():
    states = reachable(two_by_two())
    assert len(states) == 12 and (2, 1, 3, 0) not in states  # half of the 4! arrangements
    assert parity_problem(two_by_two(), CELLS, COLOURS, 0, 1, 0) is None


@pytest.mark.parametrize("claim, fragment", [
    ((CELLS, COLOURS, 0, 0, 1), "the parity is 1 at the start, not 0"),  # start, goal swapped
    ((CELLS, COLOURS, 0, 1, 1), "in the goal, claimed 1"),              # no difference
    ((CELLS, (0, 0, 0, 0), 0, 1, 0), "changes the parity"),              # no checkerboard
    ((CELLS, COLOURS[:3], 0, 1, 0), "malformed"),                         # colours for 3 of 4
    ((CELLS[:3], COLOURS[:3], 0, 1, 0), "one of them 0, at the start"),   # the blank left out
    ((CELLS, COLOURS, 3, 1, 0), "the parity is 0 at the start"),          # 3 is no blank
    ((("a", "b", "c", "x"), COLOURS, 0, 1, 0), "malformed"),              # no such variable
])
def test_a_wrong_parity_claim_is_refused(claim, fragment):
    problem = parity_problem(two_by_two(), *claim)
    assert problem is not None and fragment in problem


@pytest.mark.parametrize("extra, fragment", [
    ("swap", "action 'swap a b' changes the parity"),
    ("paint", "action 'paint a' turns the values [1] into [2]"),
])
def test_an_action_that_breaks_the_argument_is_found(extra, fragment):
    problem = parity_problem(two_by_two(extra), CELLS, COLOURS, 0, 1, 0)
    assert problem is not None and fragment in problem
    if extra == "swap":  # and rightly: the goal is then reachable
        assert (2, 1, 3, 0) in reachable(two_by_two(extra))


def test_a_goal_that_leaves_a_cell_free_proves_nothing():
    p = two_by_two()
    v = {n: Var(n) for n in CELLS}
    p.set_goal((v["a"] == 2) & (v["b"] == 1))
    assert "does not fix c" in parity_problem(p, CELLS, COLOURS, 0, 1, 0)


def test_verify_re_derives_a_parity_and_refuses_a_forged_one():
    claim = Parity(CELLS, COLOURS, 0, 1, 0, "odd permutation, blank at home")
    proof = Result(Status.INFEASIBLE, "invariant", proof="parity", parity=claim)
    assert verify(two_by_two(), proof).verified is True
    count = Result(Status.EXACT, "invariant", "count", Count(0, of="plans"), proof="parity",
                   parity=claim)
    assert verify(two_by_two(), count).verified is True
    with pytest.raises(EngineBug, match="claims a parity proof, but action 'swap a b'"):
        verify(two_by_two("swap"), proof)
    forged = proof.but(parity=Parity(CELLS, COLOURS, 0, 0, 1))
    with pytest.raises(EngineBug, match="claims a parity proof, but the parity is 1 at the"):
        verify(two_by_two(), forged)
    with pytest.raises(ValueError):  # a parity comes with the proof that names it
        Result(Status.INFEASIBLE, "invariant", proof="invariant", parity=claim)


def walk(goal) -> Planning:
    """x in 0..6 from 0, one step right or left at a time, to ``goal(x)``."""
    model = Planning("walk")
    x = model.add_variable("x", 0, 6)
    model.set_initial({"x": 0})
    model.set_goal(goal(x))
    model.add_action("right", x < 6, {x: x + 1})
    model.add_action("left", x > 0, {x: x - 1})
    return model


@pytest.mark.parametrize("goal, met_nowhere", [
    (lambda x: x == 9, True),                 # 9 is no value of x
    (lambda x: (x == 3) & (x == 4), True),    # one value cannot be both
    (lambda x: x == 6, False),                # reachable: no proof of none to re-derive
    (lambda x: (x > 2) & (x < 4), False),     # x = 3 meets it
])
def test_a_goal_no_values_meet_is_re_derived_whatever_the_engines_proof(goal, met_nowhere):
    """An engine's "no plan" whose goal no values within the domains meet is verified by
    the checker's own evaluation of the goal over every value, not taken on trust; any
    other proof without an invariant or parity object stays unverified."""
    said = Result(Status.INFEASIBLE, "search", "solve", proof="exhausted search")
    assert verify(walk(goal), said).verified is (True if met_nowhere else None)


def counters(goal) -> Planning:
    """v[0..3] in 0..100 from 0, each counted up one at a time, to ``goal(v)``: 101^4
    combinations, more than the checker evaluates at once."""
    model = Planning("counters")
    v = model.add_array("v", 4, 0, 100)
    model.set_initial({c.name: 0 for c in v})
    model.set_goal(goal(v))
    for i, c in enumerate(v):
        model.add_action(f"inc {i}", c < 100, {c: c + 1})
    return model


@pytest.mark.parametrize("goal, met_nowhere", [
    # one conjunct met nowhere, evaluated over v[0] alone (before the fix: unverified)
    (lambda v: (v[0] == 101) & (v[1] == 101) & (v[2] == 0) & (v[3] == 0), True),
    (lambda v: (v[2] == 0) & (v[3] == 0) & ((v[0] > 100) | (v[1] < 0)) & (v[1] == 3), True),
    # every disjunct met nowhere, each over its own variables
    (lambda v: ((v[0] + v[1] == 201) & (v[2] == 0)) | (v[3] + v[2] == 201), True),
    # v = (100, 100, 0, 0) meets it: nothing to re-derive
    (lambda v: (v[0] == 100) & (v[1] == 100) & (v[2] == 0) & (v[3] == 0), False),
    # too many values to decide, and no part met nowhere: not re-derived (no claim of none)
    (lambda v: v[0] + v[1] + v[2] + v[3] == 401, False),
])
def test_a_goal_met_nowhere_is_re_derived_part_by_part(goal, met_nowhere):
    """A conjunction is met nowhere when one conjunct is, a disjunction when every
    disjunct is, each evaluated over its own variables only."""
    said = Result(Status.INFEASIBLE, "search", "solve", proof="exhausted search")
    assert verify(counters(goal), said).verified is (True if met_nowhere else None)
