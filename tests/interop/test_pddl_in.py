"""PDDL in through Fast Downward's translator: equality, ADL, action costs, axioms; every
command on a PDDL pair; IPC plan files out.  Expected optima are worked out by hand in
:mod:`pddl_cases`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.puzzles.pddl_task import load, load_grounded

sys.path.insert(0, str(Path(__file__).parent))
import pddl_cases as cases  # noqa: E402

pytest.importorskip("fast_downward.translate")

IPC = Path(__file__).resolve().parents[2] / "benchmarks" / "ipc"


@pytest.fixture
def roads(tmp_path) -> tuple[Path, Path]:
    return cases.write(tmp_path, cases.EQ_DOMAIN, cases.EQ_PROBLEM)


@pytest.fixture
def lights(tmp_path) -> tuple[Path, Path]:
    return cases.write(tmp_path, cases.LIGHTS_DOMAIN, cases.LIGHTS_PROBLEM)


def test_equality_and_costs_from_static_functions(roads):
    result = run("search", "solve", load(*roads).model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.cost == cases.EQ_COST
    assert [s.action for s in result.answer.steps] == ["go p1 p2", "go p2 p1", "go p1 p2",
                                                      "go p2 p3"]


def test_equality_no_longer_crashes_the_pddl_package_grounder(tmp_path):
    """The fallback grounder (no translator): ``(= ?a ?b)`` is the logic EqualTo (left,
    right), not the numeric one.  Unit costs (pddl 0.5 wants :numeric-fluents for dist):
    p1-p2-p1-p3, 3 steps (the self-road would make it 2)."""
    domain = cases.EQ_DOMAIN.replace(" :action-costs", "").replace(
        " (increase (total-cost) (dist ?a ?b))", "").replace(
        "(:functions (total-cost) - number (dist ?a ?b - place) - number)", "")
    problem = cases.EQ_PROBLEM.split("(= (dist")[0] + ")\n (:goal (and (at p3) (visited p1))))"
    d, p = cases.write(tmp_path, domain, problem)
    pytest.importorskip("pddl")
    result = run("search", "solve", load_grounded(d, p).model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.cost == 3
    assert run("search", "solve", load(d, p).model).cost == 3


def test_adl_conditional_effects_and_a_universal_goal(lights):
    """The translator turns the universal goal into axioms; they become expressions."""
    result = run("search", "solve", load(*lights).model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.cost == cases.LIGHTS_STEPS
    assert [s.action for s in result.answer.steps] == ["toggle-all", "flip l1"]


def test_recursive_derived_predicates_are_refused_in_one_line(cli, tmp_path):
    d, p = cases.write(tmp_path, cases.DERIVED_DOMAIN, cases.DERIVED_PROBLEM)
    out = cli("solve", d, p)
    assert out.code == 2 and out.err.count("\n") == 1, out.err
    assert "recursive derived predicates" in out.err


@pytest.mark.parametrize("file, old, new, said", [
    ("problem", "(visited p1))", "(visited p4))", "undefined object 'p4' in the goal"),
    ("problem", "(:domain roads)", "(:domain rods)", "the domain name specified by the "
     "problem file (rods) does not match"),
    ("domain", "(road ?a ?b) (not", "(rood ?a ?b) (not",
     "expected logical operator or predicate name, got 'rood' in the precondition of "
     "action 'go'"),
    ("domain", "(visited ?b) (inc", "(visited ?c) (inc",
     "undefined variable '?c' in the effect of action 'go'"),
], ids=["object-in-goal", "domain-name", "predicate", "variable"])
def test_a_parse_error_names_the_file_at_fault_in_a_sentence(cli, tmp_path, file, old, new,
                                                             said):
    texts = {"domain": cases.EQ_DOMAIN, "problem": cases.EQ_PROBLEM}
    assert old in texts[file]
    texts[file] = texts[file].replace(old, new)
    d, p = cases.write(tmp_path, texts["domain"], texts["problem"])
    out = cli("solve", d, p)
    assert out.code == 2 and out.err.count("\n") == 1, out.err
    assert out.err.startswith(f"error: {d if file == 'domain' else p}: "), out.err
    assert said in out.err and "Parsing" not in out.err, out.err


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_a_goal_that_contradicts_itself_is_explained_in_the_files_terms(cli, tmp_path, engine):
    d, p = cases.write(tmp_path, cases.FERRY_DOMAIN, cases.FERRY_PROBLEM)
    out = cli("solve", d, p, "--engine", engine, "--json")
    result = json.loads(out.out)
    assert result["status"] == "infeasible" and result["verified"], out.out
    assert result["message"] == "no plan: the goal (at c1 c) and (at c2 a) and (on c1) " \
        "cannot be reached: the translator proves that two of them exclude each other"
    assert "dummy" not in out.out and "var0" not in out.out


def test_variables_of_several_atoms_are_named_by_them():
    puzzle = load(IPC / "gripper" / "domain.pddl", IPC / "gripper" / "prob01.pddl")
    names = puzzle.model.names
    # the translator's mutex groups: a gripper carries one ball or is free (one variable,
    # named by its predicates and the gripper they share), a ball is in one room or none
    # (in a gripper), the robot in one room
    assert {"carry/free left", "carry/free right", "at ball1", "at-robby"} <= set(names)
    assert not [n for n in names if n.startswith("var")], names


def test_count_analyze_show_export_take_a_pddl_pair(cli, lights, tmp_path):
    counted = cli("count", *lights, "--optimal", "--json")
    assert counted.code == 0, counted.err
    assert json.loads(counted.out)["count"] == 1  # toggle-all, flip l1 (pddl_cases)
    analyzed = cli("analyze", *lights, "--json")
    assert analyzed.code == 0, analyzed.err
    assert json.loads(analyzed.out)["states"] == 16  # every set of lit lamps
    page = tmp_path / "plan.html"
    assert cli("show", *lights, "--plan", "--html", page).code == 0 and page.exists()
    out = tmp_path / "out"
    out.mkdir()
    assert cli("export", *lights, "--to", "pddl", "-o", out).code == 0
    assert {f.name for f in out.iterdir()} == {"problem-domain.pddl", "problem-problem.pddl"}


def test_a_domain_without_its_problem_is_one_line(cli, lights):
    out = cli("count", lights[0], "--optimal")
    assert out.code == 2 and "problem" in out.err and out.err.count("\n") == 1


def test_several_problems_of_one_domain_are_a_batch(cli, tmp_path, roads):
    second = tmp_path / "second.pddl"
    second.write_text(cases.EQ_PROBLEM.replace("(visited p1)", "(visited p2)"))
    out = cli("solve", roads[0], roads[1], second, "--engine", "search", "--json")
    assert out.code == 0, out.err
    lines = [json.loads(line) for line in out.out.splitlines()]
    # second: p1-p2-p3 visits p2 and ends at p3, 5 + 5 = 10
    assert [line.get("cost") for line in lines[:2]] == [cases.EQ_COST, 10]


def test_plan_file_is_in_the_ipc_format_with_the_pddl_names(cli, roads, tmp_path):
    plan = tmp_path / "plan"
    assert cli("solve", *roads, "--engine", "search", "--plan-file", plan).code == 0
    assert plan.read_text().splitlines() == ["(go p1 p2)", "(go p2 p1)", "(go p1 p2)",
                                             "(go p2 p3)", "; cost = 16 (general cost)"]
    checked = cli("validate", *roads, plan, "--json")
    assert checked.code == 0 and json.loads(checked.out)["cost"] == cases.EQ_COST


MIXED_DOMAIN = """(define (domain Carry) (:requirements :strips)
 (:predicates (at ?b ?r) (Hand-Empty))
 (:action Pick-Up :parameters (?b ?r) :precondition (and (at ?b ?r) (Hand-Empty))
   :effect (and (not (at ?b ?r)) (not (Hand-Empty)))))"""
MIXED_PROBLEM = """(define (problem one) (:domain CARRY) (:objects Ball_One Room-A)
 (:init (at Ball_One Room-A) (Hand-Empty)) (:goal (not (Hand-Empty))))"""


def test_plan_file_names_are_lower_case_and_validate_takes_either_spelling(cli, tmp_path):
    """PDDL names ignore case and are read in lower case (docs/interop.md): one step picks
    the ball up, written as the translator names it; the file's own spelling (a plan
    written by hand, or by a planner that keeps it) is as valid."""
    (tmp_path / "d.pddl").write_text(MIXED_DOMAIN)
    (tmp_path / "p.pddl").write_text(MIXED_PROBLEM)
    plan = tmp_path / "plan"
    files = (tmp_path / "d.pddl", tmp_path / "p.pddl")
    assert cli("solve", *files, "--engine", "search", "--plan-file", plan).code == 0
    assert plan.read_text().splitlines()[0] == "(pick-up ball_one room-a)"
    assert cli("validate", *files, plan).code == 0
    plan.write_text("(Pick-Up Ball_One Room-A)\n")
    assert cli("validate", *files, plan).code == 0


def test_plan_file_of_a_bundled_model_reads_back(cli, tmp_path):
    plan = tmp_path / "plan"
    assert cli("solve", "hanoi4", "--engine", "search", "--plan-file", plan).code == 0
    lines = plan.read_text().splitlines()
    assert len(lines) == 16 and lines[-1] == "; cost = 15 (unit cost)"  # 2^4 - 1 moves
    assert cli("validate", "hanoi4", plan).code == 0


def test_plan_file_refuses_a_batch(cli, tmp_path):
    out = cli("solve", "hanoi4", "water_jugs", "--plan-file", tmp_path / "p")
    assert out.code == 2 and "one instance" in out.err
