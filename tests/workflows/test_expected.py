"""A model's ``[expected]`` against a run's answer: a proven answer that differs is a
mismatch; an answer without the proof the key needs contradicts nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsolve.answers.kinds import Assignment, Count, Plan, Step
from cpsolve.answers.result import Result, Status
from cpsolve.workflows.expected import mismatches

MODELS = Path(__file__).resolve().parents[2] / "models"


def ruler(status: Status, objective: int = 17) -> Result:
    """A solve of a model that minimizes, with ``objective`` at its answer."""
    return Result(status, "search", answer=Assignment({"m": 0}, objective=objective))


def test_a_proven_optimum_other_than_the_expected_objective_is_a_mismatch():
    assert mismatches({"objective": 99}, ruler(Status.OPTIMAL)) == [
        "the model's [expected] says objective = 99; this run found 17"]


def test_the_expected_objective_agrees_with_the_proven_optimum():
    assert mismatches({"objective": 17}, ruler(Status.OPTIMAL)) == []


def test_an_objective_without_an_optimality_proof_contradicts_nothing():
    """A limit stopped the search at 20: the optimum may still be 17."""
    assert mismatches({"objective": 17}, ruler(Status.SOLVED, objective=20)) == []


def stopped(value: int, bound: int | None, minimizing: bool = True) -> Result:
    """A solve of a csp with an objective stopped by a limit: a solution of ``value``
    found, ``bound`` proven on the optimum (below a minimum, above a maximum)."""
    return Result(Status.SOLVED, "cpsat", answer=Assignment({"m": 0}, objective=value,
                                                            minimizing=minimizing),
                  bound=bound)


def test_a_stopped_run_bounds_the_optimum_by_its_solution_and_its_proven_bound():
    """queens_dominate8 stopped with 5 queens found and 4 proven needed: the least number
    of queens is 4 or 5, so 0 and 99 are contradicted; 4 and 5 are not."""
    said = "the model's [expected] says objective = {}; this run found 4 to 5"
    assert mismatches({"objective": 0}, stopped(5, 4)) == [said.format(0)]
    assert mismatches({"objective": 99}, stopped(5, 4)) == [said.format(99)]
    assert mismatches({"objective": 4}, stopped(5, 4)) == []
    assert mismatches({"objective": 5}, stopped(5, 4)) == []


def test_a_found_solution_alone_bounds_the_optimum_on_one_side():
    """No proven bound: a minimum is no more than the solution found, a maximum no less;
    the other side is open."""
    assert mismatches({"objective": 99}, stopped(5, None)) == [
        "the model's [expected] says objective = 99; this run found 5 or less"]
    assert mismatches({"objective": -3}, stopped(5, None)) == []
    assert mismatches({"objective": 2}, stopped(5, None, minimizing=False)) == [
        "the model's [expected] says objective = 2; this run found 5 or more"]
    assert mismatches({"objective": 99}, stopped(5, None, minimizing=False)) == []
    assert mismatches({"objective": 9}, stopped(5, 8, minimizing=False)) == [
        "the model's [expected] says objective = 9; this run found 5 to 8"]


def plan(status: Status, steps: int = 2) -> Result:
    """A solve of a planning model that found a plan of ``steps`` unit steps."""
    return Result(status, "search", answer=Plan.of([Step("inc", (i + 1,)) for i in
                                                    range(steps)]))


@pytest.mark.parametrize("status", [Status.OPTIMAL, Status.SOLVED])
def test_a_plan_found_contradicts_a_count_of_none(status):
    """A plan, optimal or not, proves that the goal can be reached, so that an optimal plan
    exists: ``count = 0`` (no optimal plan) is contradicted; any count from 1 is not."""
    assert mismatches({"count": 0}, plan(status)) == [
        "the model's [expected] says count = 0; this run found 1 or more"]
    assert mismatches({"count": 1}, plan(status)) == mismatches({"count": 7},
                                                                plan(status)) == []


def test_a_plan_found_without_proof_bounds_the_least_cost_from_above():
    """A 2-step plan of unit costs, not proven optimal: the least cost is 2 or less, so
    ``cost = 5`` is contradicted; ``steps`` is not bounded (with other costs, an optimal
    plan may take more steps than a dearer one)."""
    assert mismatches({"cost": 5}, plan(Status.SOLVED)) == [
        "the model's [expected] says cost = 5; this run found 2 or less"]
    assert mismatches({"cost": 1}, plan(Status.SOLVED)) == []
    assert mismatches({"cost": 2, "steps": 5}, plan(Status.SOLVED)) == []


def test_a_csp_solution_found_contradicts_a_count_of_none():
    """Uniqueness not decided (a limit): the one solution found is still a count of 1 or
    more."""
    assert mismatches({"count": 0}, solved(None)) == [
        "the model's [expected] says count = 0; this run found 1 or more"]
    assert mismatches({"count": 0}, ruler(Status.SOLVED)) != []


def test_a_proven_status_other_than_the_expected_one_is_a_mismatch():
    """``optimal`` proven against ``solved``, and ``solved`` of a csp without an objective
    (all it can prove) against ``optimal``; ``infeasible`` against either, either against
    ``infeasible``."""
    said = "the model's [expected] says solve = '{}'; this run found '{}'"
    assert mismatches({"solve": "solved"}, plan(Status.OPTIMAL)) == [
        said.format("solved", "optimal")]
    assert mismatches({"solve": "solved"}, ruler(Status.OPTIMAL)) == [
        said.format("solved", "optimal")]
    assert mismatches({"solve": "optimal"}, solved(True)) == [
        said.format("optimal", "solved")]
    assert mismatches({"solve": "optimal"}, Result(Status.INFEASIBLE, "search")) == [
        said.format("optimal", "infeasible")]
    assert mismatches({"solve": "infeasible"}, plan(Status.SOLVED)) == [
        said.format("infeasible", "solved")]
    assert mismatches({"solve": "optimal"}, plan(Status.OPTIMAL)) == []
    assert mismatches({"solve": "solved"}, solved(False)) == []


@pytest.mark.parametrize("stopped_short", [plan(Status.SOLVED), ruler(Status.SOLVED)])
def test_a_run_stopped_short_of_an_optimality_proof_contradicts_neither_status(stopped_short):
    """A plan or a csp's solution found without the proof that it is optimal (a limit, an
    engine that proves no optimum): the expected ``optimal`` may still hold, and so may
    ``solved``."""
    assert mismatches({"solve": "optimal"}, stopped_short) == []
    assert mismatches({"solve": "solved"}, stopped_short) == []


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_solve_json_names_an_objective_mismatch(cli, tmp_path, engine):
    """golomb6's optimum is 17: an ``[expected]`` of 99 is said on stderr and in the JSON;
    the answer is still printed, exit 0 (as for any other key)."""
    model = tmp_path / "g.toml"
    model.write_text((MODELS / "golomb6.toml").read_text().replace("objective = 17",
                                                                   "objective = 99"))
    run = cli("solve", model, "--engine", engine, "--json")
    out = json.loads(run.out)
    assert run.code == 0 and out["status"] == "optimal" and out["objective"] == 17
    assert out["expected_mismatch"] == [
        "the model's [expected] says objective = 99; this run found 17"]
    assert "warning: the model's [expected] says objective = 99" in run.err


def solved(unique: bool | None) -> Result:
    """A solve of a csp without an objective: its solution unique, one of several (a second
    one found), or not decided (None)."""
    second = None if unique in (True, None) else {"x": 2}
    return Result(Status.SOLVED, "search", answer=Assignment({"x": 1}, unique, second))


def test_a_solve_that_proves_how_many_solutions_checks_the_expected_count():
    """Unique is a count of 1, a second solution a count of 2 or more, infeasible a count
    of 0; an undecided uniqueness says nothing about the count."""
    assert mismatches({"count": 2}, solved(True)) == [
        "the model's [expected] says count = 2; this run found 1"]
    assert mismatches({"count": 1}, solved(True)) == []
    assert mismatches({"count": 1}, solved(False)) == [
        "the model's [expected] says count = 1; this run found 2 or more"]
    assert mismatches({"count": 0}, solved(False)) != []
    assert mismatches({"count": 2}, solved(False)) == mismatches({"count": 576},
                                                                 solved(False)) == []
    assert mismatches({"count": 5}, solved(None)) == []
    none = Result(Status.INFEASIBLE, "search")
    assert mismatches({"count": 3}, none) == [
        "the model's [expected] says count = 3; this run found 0"]
    assert mismatches({"count": 0}, none) == []


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_solve_warns_when_its_uniqueness_contradicts_the_expected_count(cli, tmp_path, engine):
    """x == 1 over 0..3 has one solution: an [expected] count of 2 is a warning (as count
    gives), the answer still printed, exit 0."""
    model = tmp_path / "one.toml"
    model.write_text('family = "csp"\nconstraints = ["x == 1"]\n[variables]\nx = [0, 3]\n'
                     "[expected]\ncount = 2\n")
    run = cli("solve", model, "--engine", engine)
    assert run.code == 0 and "unique" in run.out
    assert run.err.splitlines() == [
        "warning: the model's [expected] says count = 2; this run found 1"]


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_solve_warns_when_a_plan_contradicts_an_expected_count_of_none(cli, tmp_path, engine):
    """x goes 0 -> 1 -> 2 by "inc": a 2-step plan, so there is an optimal plan and
    ``count = 0`` is contradicted; the plan is still printed, exit 0."""
    model = tmp_path / "c.toml"
    model.write_text('family = "transition"\ngoal = "x == 2"\n[variables]\nx = [0, 3]\n'
                     '[initial]\nx = 0\n[[actions]]\nname = "inc"\nguard = "x < 3"\n'
                     'effects = { x = "x + 1" }\n[expected]\nsolve = "optimal"\ncount = 0\n')
    run = cli("solve", model, "--engine", engine, "--json")
    out = json.loads(run.out)
    said = "the model's [expected] says count = 0; this run found 1 or more"
    assert run.code == 0 and out["status"] == "optimal" and out["steps"] == 2
    assert out["expected_mismatch"] == [said]
    assert run.err.splitlines() == [f"warning: {said}"]


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_solve_warns_when_it_proves_optimal_against_an_expected_solved(cli, tmp_path, engine):
    """Water jugs: every engine here proves its 10 steps optimal, which ``solve = "solved"``
    (an answer, no optimality proof) contradicts; the plan is still printed, exit 0."""
    model = tmp_path / "wj.toml"
    model.write_text((MODELS / "water_jugs.toml").read_text().replace(
        'solve = "optimal"', 'solve = "solved"'))
    run = cli("solve", model, "--engine", engine)
    assert run.code == 0 and "10" in run.out
    assert run.err.splitlines() == [
        "warning: the model's [expected] says solve = 'solved'; this run found 'optimal'"]


def up_to(kind: str, classes: int, total: int | None) -> Result:
    """An exact ``count --up-to kind``: ``classes`` classes of ``total`` solutions."""
    return Result.counted("cpsat", Count(classes), True,
                          details={"up_to": kind, "total": total})


def test_a_count_up_to_symmetry_checks_classes_and_its_total_as_count():
    expected = {"classes": 99, "count": 92}
    assert mismatches(expected, up_to("symmetry", 12, 92)) == [
        "the model's [expected] says classes = 99; this run found 12"]
    # the 12 classes are not the count: the 92 solutions are
    assert mismatches({"classes": 12, "count": 92}, up_to("symmetry", 12, 92)) == []
    assert mismatches({"count": 12}, up_to("symmetry", 12, 92)) == [
        "the model's [expected] says count = 12; this run found 92"]


def test_classes_under_renaming_alone_are_not_the_expected_classes():
    """``classes`` is the count up to the model's symmetries, not up to renaming."""
    assert mismatches({"classes": 5, "count": 288}, up_to("relabel", 12, 288)) == []


def test_a_count_up_to_cut_short_below_the_expected_contradicts_nothing():
    stopped = Result.counted("cpsat", Count(3), False, details={"up_to": "symmetry",
                                                                 "total": None})
    assert mismatches({"classes": 12, "count": 92}, stopped) == []


def test_a_count_up_to_cut_short_above_the_expected_is_a_mismatch():
    """Stopped with 12 classes among 20 solutions counted: there are at least that many,
    so ``classes = 10`` and ``count = 19`` are contradicted; 12 and 20 or more are not."""
    stopped = Result.counted("cpsat", Count(12), False, details={
        "up_to": "symmetry", "total": None, "total_at_least": 20})
    assert mismatches({"classes": 10, "count": 19}, stopped) == [
        "the model's [expected] says classes = 10; this run found 12 or more",
        "the model's [expected] says count = 19; this run found 20 or more"]
    assert mismatches({"classes": 12, "count": 20}, stopped) == []
    assert mismatches({"classes": 99, "count": 92}, stopped) == []


def test_a_count_stopped_by_a_limit_proves_at_least_its_count():
    """``count -n 5`` stopped at 5 solutions: ``count = 0`` or 4 is contradicted, 5 or
    more is not."""
    stopped = Result.counted("search", Count(5), False)
    assert mismatches({"count": 0}, stopped) == [
        "the model's [expected] says count = 0; this run found 5 or more"]
    assert mismatches({"count": 4}, stopped) != []
    assert mismatches({"count": 5}, stopped) == mismatches({"count": 24}, stopped) == []
    assert mismatches({"count": 0}, Result.counted("search", Count(0), False)) == []


def test_a_count_decides_unique_when_it_says_one_exactly_or_finds_two():
    """A count of every solution proves ``unique``: exactly 1, yes; 2 found (exact or
    stopped), no; 1 found before a limit, nothing.  It warned only from ``solve``'s own
    search for a second solution."""
    def warns(unique: bool, n: int, exact: bool) -> bool:
        return mismatches({"unique": unique}, Result.counted("search", Count(n), exact)) != []

    assert warns(True, 24, True) and warns(True, 2, False) and warns(False, 1, True)
    assert not warns(False, 24, True) and not warns(True, 1, True)
    assert not warns(True, 1, False) and not warns(False, 1, False)  # one, then stopped
    classes = Result.counted("cpsat", Count(12), True, details={"up_to": "symmetry",
                                                                 "total": 92})
    assert mismatches({"unique": True}, classes) != []  # 92 solutions sorted into 12


def test_count_up_to_symmetry_says_an_expected_classes_mismatch(cli, tmp_path):
    """queens8's 92 solutions fall in 12 classes under the 8 symmetries of the board (the
    classic count of "fundamental solutions"): ``classes = 99`` is a warning and an
    ``expected_mismatch``, the answer is still printed, exit 0."""
    model = tmp_path / "q.toml"
    model.write_text((MODELS / "queens8.toml").read_text().replace("classes = 12",
                                                                   "classes = 99"))
    run = cli("count", model, "--up-to", "symmetry", "--engine", "cpsat", "--json")
    out = json.loads(run.out)
    assert run.code == 0 and out["count"] == 12 and out["total"] == 92
    assert out["expected_mismatch"] == [
        "the model's [expected] says classes = 99; this run found 12"]
    assert "warning: the model's [expected] says classes = 99; this run found 12" in run.err
    text = cli("count", model, "--up-to", "symmetry", "--engine", "cpsat")
    assert text.code == 0 and "12 classes" in text.out and "classes = 99" in text.err
    agreed = cli("count", MODELS / "queens8.toml", "--up-to", "symmetry", "--engine", "cpsat")
    assert agreed.code == 0 and "warning" not in agreed.err


SMALL_OPT = """family = "csp"
name = "small opt"
minimize = "x + y"
constraints = ["x + y >= 3"]
[variables]
x = [0, 5]
y = [0, 5]
[expected]
objective = 4
"""
"""A csp whose optimum is 3 (x + y >= 3 is the only bound): its ``[expected]`` is wrong."""


def test_a_solve_batch_checks_each_row_against_its_expected(cli, tmp_path):
    """water_jugs takes 10 steps: a copy that expects 99 gets a warning naming it and
    ``expected_mismatch`` on its line; the true copy gets neither; the exit is the
    answers' (0), as for a single solve."""
    wrong = tmp_path / "wj_bad.toml"
    wrong.write_text((MODELS / "water_jugs.toml").read_text().replace("steps = 10",
                                                                      "steps = 99"))
    run = cli("solve", wrong, MODELS / "water_jugs.toml", "--engine", "search", "--json")
    lines = [json.loads(line) for line in run.out.splitlines()]
    said = "the model's [expected] says steps = 99; this run found 10"
    assert run.code == 0
    assert lines[0]["source"] == str(wrong) and lines[0]["expected_mismatch"] == [said]
    assert "expected_mismatch" not in lines[1]
    assert run.err.splitlines() == [f"warning: {wrong}: {said}"]


def test_a_text_solve_batch_warns_too(cli, tmp_path):
    wrong = tmp_path / "opt.toml"
    wrong.write_text(SMALL_OPT)
    run = cli("solve", wrong, MODELS / "water_jugs.toml", "--engine", "search")
    assert run.code == 0
    assert run.err.splitlines() == [
        f"warning: {wrong}: the model's [expected] says objective = 4; this run found 3"]


@pytest.mark.parametrize("json_wanted", [True, False])
def test_compare_checks_every_engine_against_expected_and_warns_once(cli, tmp_path,
                                                                      json_wanted):
    """Every engine that proves the optimum 3 contradicts ``objective = 4``: each such
    result carries ``expected_mismatch``, but stderr says it once for the model; the
    engines agree with one another, so the exit stays 0."""
    wrong = tmp_path / "opt.toml"
    wrong.write_text(SMALL_OPT)
    said = "the model's [expected] says objective = 4; this run found 3"
    run = cli("compare", wrong, *(["--json"] if json_wanted else []))
    assert run.code == 0
    assert [line for line in run.err.splitlines() if line.startswith("warning:")] == [
        f"warning: {wrong}: {said}"]
    if json_wanted:
        results = json.loads(run.out)["models"][0]["results"]
        optimal = [r for r in results if r["status"] == "optimal"]
        assert len(optimal) >= 2  # cpsat and search at least
        assert all(r.get("expected_mismatch") == [said] for r in optimal)
        assert all("expected_mismatch" not in r for r in results if r["status"] != "optimal")


@pytest.mark.parametrize("none", [Result(Status.INFEASIBLE, "search"),
                                  Result.counted("search", Count(0), True)],
                         ids=["infeasible", "exact count of 0"])
def test_a_proof_that_there_is_none_contradicts_every_key_that_says_there_is_one(none):
    said = "the model's [expected] says {} = {}; this run found {}"
    assert mismatches({"steps": 5, "cost": 5}, none) == [
        said.format("steps", 5, "no plan"), said.format("cost", 5, "no plan")]
    assert mismatches({"objective": 10}, none) == [said.format("objective", 10, "no solution")]
    assert mismatches({"unique": True}, none) == [said.format("unique", "true", "no solution")]
    assert mismatches({"classes": 1}, none) == [said.format("classes", 1, 0)]
    assert mismatches({"unique": False, "classes": 0, "count": 0}, none) == []


UNREACHABLE = """family = "transition"
goal = "x == 7"
[variables]
x = [0, 6]
[initial]
x = 0
[[actions]]
name = "inc"
guard = "x < 6"
effects = { x = "x + 1" }
[expected]
steps = 7
cost = 7
"""
"""x can never pass 6, so the goal x == 7 is never reached, yet it expects a 7-step plan."""


@pytest.mark.parametrize("command", [["solve"], ["count", "--optimal"]])
@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_a_proof_of_no_plan_warns_against_expected_steps_and_cost(cli, tmp_path, engine,
                                                                   command):
    model = tmp_path / "unreachable.toml"
    model.write_text(UNREACHABLE)
    run = cli(*command, model, "--engine", engine)
    assert run.code == 0 and ("no plan" in run.out or "infeasible" in run.out)
    assert run.err.splitlines() == [
        "warning: the model's [expected] says steps = 7; this run found no plan",
        "warning: the model's [expected] says cost = 7; this run found no plan"]


def optimal_solutions(n: int) -> Result:
    """``count --optimal`` of a csp: ``n`` solutions of the proven optimum 10."""
    return Result.counted("search", Count(n), True, details={"optimum": 10})


def test_a_count_of_optimal_solutions_is_not_the_count_of_every_solution():
    """The optimal solutions are some of the solutions: their number bounds ``count`` from
    below only; the optimum it proved is checked against ``objective``."""
    assert mismatches({"count": 24, "objective": 10}, optimal_solutions(1)) == []
    assert mismatches({"count": 1}, optimal_solutions(2)) == [
        "the model's [expected] says count = 1; this run found 2 or more"]
    assert mismatches({"objective": 11}, optimal_solutions(1)) == [
        "the model's [expected] says objective = 11; this run found 10"]


def test_a_count_of_optimal_plans_checks_count_and_the_least_cost():
    """For a planning model ``count`` is the number of optimal plans: counted, it is
    compared as it is, and their cost is the least cost."""
    counted = Result.counted("search", Count(72, cost=7, of="plans"), True)
    assert mismatches({"count": 72, "cost": 7}, counted) == []
    assert mismatches({"count": 18, "cost": 6}, counted) == [
        "the model's [expected] says count = 18; this run found 72",
        "the model's [expected] says cost = 6; this run found 7"]


THREE_WEIGHTS = """family = "csp"
all_different = [["x", "y", "z"]]
minimize = "x + 2 * y + 3 * z"
[variables]
x = [1, 4]
y = [1, 4]
z = [1, 4]
[expected]
objective = 10
count = 24
"""
"""4 * 3 * 2 = 24 solutions; the least weighted sum puts the largest value on the smallest
weight: z = 1, y = 2, x = 3, 3 + 4 + 3 = 10, and only there (any swap costs more)."""


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_count_optimal_of_a_csp_agrees_with_the_count_of_every_solution(cli, tmp_path,
                                                                        engine):
    model = tmp_path / "weights.toml"
    model.write_text(THREE_WEIGHTS)
    run = cli("count", "--optimal", model, "--engine", engine)
    assert run.code == 0 and run.err == ""
    assert "1 optimal solution (objective 10)" in run.out
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(THREE_WEIGHTS.replace("objective = 10", "objective = 9"))
    assert cli("count", "--optimal", wrong, "--engine", engine).err.splitlines() == [
        "warning: the model's [expected] says objective = 9; this run found 10"]


def test_count_stopped_by_its_limit_warns_against_a_smaller_expected_count(cli, tmp_path):
    """The 24 solutions of THREE_WEIGHTS (any objective aside): ``-n 5`` proves 5 or more,
    which ``count = 0`` contradicts; the exit stays 1 (a count stopped short)."""
    model = tmp_path / "none.toml"
    model.write_text(THREE_WEIGHTS.replace("objective = 10\n", "").replace(
        "count = 24", "count = 0"))
    run = cli("count", model, "-n", "5", "--engine", "search", "--json")
    out = json.loads(run.out)
    said = "the model's [expected] says count = 0; this run found 5 or more"
    assert run.code == 1 and out["status"] == "at_least" and out["count"] == 5
    assert out["expected_mismatch"] == [said]
    assert run.err.splitlines() == [f"warning: {said}"]


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_count_up_to_stopped_by_its_limit_checks_classes_and_count(cli, tmp_path, engine):
    """queens8 stopped after 20 of its solutions: a class holds at most 8 (the board's
    symmetries), so the 20 fall in 3 or more classes, and ``classes = 2`` and
    ``count = 10`` are contradicted; queens8's own 12 and 92 are not."""
    model = tmp_path / "q.toml"
    model.write_text((MODELS / "queens8.toml").read_text().replace(
        "classes = 12", "classes = 2").replace("count = 92", "count = 10"))
    run = cli("count", model, "--up-to", "symmetry", "--limit", "20", "--engine", engine,
              "--json")
    out = json.loads(run.out)
    assert out["status"] == "at_least" and out["count"] >= 3
    assert out["details"]["total_at_least"] == 20
    assert out["expected_mismatch"] == [
        "the model's [expected] says count = 10; this run found 20 or more",
        f"the model's [expected] says classes = 2; this run found {out['count']} or more"]
    agreed = cli("count", MODELS / "queens8.toml", "--up-to", "symmetry", "--limit", "20",
                 "--engine", engine)
    assert "warning" not in agreed.err
