"""A PDDL task in people's and programs' terms: its states are the atoms that hold, in the
text, in ``--json`` and in pictures; a validate message names atoms, not the translator's
value numbers; the settled stand-in task still draws its start; a domain's fault names the
domain file.  Every expected atom is worked out by hand from the small gripper below."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cpsolve.puzzles.pddl_task import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
import pddl_cases as cases  # noqa: E402

pytest.importorskip("fast_downward.translate")

GRIPPER = """
(define (domain gripper)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper)
               (carry ?b - ball ?g - gripper))
  (:action move :parameters (?from ?to - room)
    :precondition (at-robby ?from)
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carry ?b ?g) (at-robby ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
"""

ONE_BALL = """
(define (problem one) (:domain gripper)
  (:objects rooma roomb - room ball1 - ball left - gripper)
  (:init (at-robby rooma) (at ball1 rooma) (free left))
  (:goal (at ball1 roomb)))
"""
"""The one optimal plan: pick ball1 rooma left, move rooma roomb, drop ball1 roomb left."""

START = {"(at-robby rooma)", "(at ball1 rooma)", "(free left)"}
PICKED = {"(at-robby rooma)", "(carry ball1 left)"}  # free left and at ball1 rooma deleted
MOVED = {"(at-robby roomb)", "(carry ball1 left)"}
DROPPED = {"(at-robby roomb)", "(at ball1 roomb)", "(free left)"}


@pytest.fixture
def gripper(tmp_path) -> tuple[Path, Path]:
    return cases.write(tmp_path, GRIPPER, ONE_BALL)


def test_json_states_are_the_atoms_that_hold(cli, gripper):
    out = cli("solve", *gripper, "--engine", "search", "--json")
    assert out.code == 0, out.err
    plan = json.loads(out.out)["plan"]
    assert [s["action"] for s in plan] == ["pick ball1 rooma left", "move rooma roomb",
                                           "drop ball1 roomb left"]
    assert [set(s["state"]) for s in plan] == [PICKED, MOVED, DROPPED]
    assert all(isinstance(s["state"], list) for s in plan)


def test_the_text_and_the_json_draw_the_same_atoms(gripper):
    puzzle = load(*gripper)
    start = puzzle.model.initial_state()
    assert set(puzzle.json_state(start)) == START
    assert set(puzzle.render_state(start).replace(") (", ")|(").split("|")) == START


def test_pictures_show_the_atoms_not_value_numbers(cli, gripper, tmp_path):
    svg, page = tmp_path / "start.svg", tmp_path / "plan.html"
    assert cli("show", *gripper, "--svg", svg).code == 0
    drawn = svg.read_text()
    assert all(f">{atom}<" in drawn for atom in START), drawn
    assert "at/carry" not in drawn  # no variable of the translator's
    assert cli("show", *gripper, "--plan", "--html", page).code == 0
    assert all(f">{atom}<" in page.read_text() for atom in PICKED | MOVED | DROPPED)


def test_a_false_guard_is_said_as_its_atoms(cli, gripper, tmp_path):
    plan = tmp_path / "plan"
    plan.write_text("(pick ball1 rooma left)\n(pick ball1 rooma left)\n")  # picked already
    verdict = json.loads(cli("validate", *gripper, plan, "--json").out)
    assert not verdict["valid"] and verdict["step"] == 2
    message = verdict["message"]
    assert message.startswith("step 2 (pick ball1 rooma left) cannot be played: its guard "
                              "needs "), message
    for atom in ("(at ball1 rooma)", "(free left)"):  # ball1 is held, by the left gripper
        assert atom in message
    assert "(at-robby rooma)" not in message  # robby is still there: not what is missing
    assert "==" not in message and "/" not in message, message


def test_a_missed_goal_draws_where_the_plan_ends_and_the_goal(cli, gripper, tmp_path):
    plan = tmp_path / "plan"
    plan.write_text("(move rooma roomb)\n")  # legal, but ball1 stays in rooma
    verdict = json.loads(cli("validate", *gripper, plan, "--json").out)
    assert not verdict["valid"] and verdict["step"] is None  # no step is illegal
    message = verdict["message"]
    ends, goal = message.split("; the goal is ")
    assert ends.startswith("the goal does not hold after the plan: it ends in "), message
    assert set(ends.split(" in ", 1)[1].replace(") (", ")|(").split("|")) == \
        {"(at-robby roomb)", "(at ball1 rooma)", "(free left)"}
    assert goal == "(at ball1 roomb)"


def test_a_goal_true_at_the_start_draws_the_start_and_no_cost_metric(cli, tmp_path):
    """With one room the robot is where the goal wants it, always: the translator settles
    the task itself (a stand-in variable, no operators).  The start is still drawn as its
    atoms, and a domain without :action-costs says nothing of costs."""
    at_start = ONE_BALL.replace("rooma roomb - room", "rooma - room").replace(
        "(:goal (at ball1 roomb))", "(:goal (at-robby rooma))")
    d, p = cases.write(tmp_path, GRIPPER, at_start)
    out = cli("solve", d, p, "--engine", "search")
    assert out.code == 0, out.err
    assert "(none of the tracked atoms holds)" not in out.out, out.out
    assert "total-cost" not in out.out, out.out
    start = next(ln for ln in out.out.splitlines() if ln.split()[:2] == ["0", "start"])
    assert set(start.split(None, 2)[2].strip().replace(") (", ")|(").split("|")) == START


def test_a_start_of_static_atoms_only_is_not_said_to_have_none(cli, tmp_path):
    """Every atom of the start is static (no action changes it), so none has a state
    variable: the start was drawn "(no atom holds)" while four atoms held."""
    domain = """(define (domain st) (:requirements :strips)
     (:predicates (tok ?x) (a) (g))
     (:action win :parameters (?x) :precondition (and (tok ?x) (a)) :effect (g)))"""
    problem = """(define (problem st1) (:domain st) (:objects o1 o2)
     (:init (tok o1) (tok o2) (a)) (:goal (g)))"""
    d, p = cases.write(tmp_path, domain, problem)
    out = cli("solve", d, p, "--engine", "search")
    assert out.code == 0, out.err
    start = next(ln for ln in out.out.splitlines() if ln.split()[:2] == ["0", "start"])
    assert start.split(None, 2)[2].strip() == "(none of the tracked atoms holds)"
    assert "no atom holds" not in out.out


UNREACHABLE = [
    ("(and (at ball1 roomb) (at ball2 roomb))",  # ball2 is in roomc, where robby never goes
     "(at ball1 roomb) and (at ball2 roomb)",
     "the translator proves that no actions reach some of its facts, even ignoring what they "
     "delete"),
    ("(and (at ball1 roomb) (at ball1 rooma))",  # one ball in two rooms
     "(at ball1 roomb) and (at ball1 rooma)",
     "the translator proves that two of them exclude each other"),
]
"""Goals of :func:`_fenced` that the translator proves no plan reaches: the goal, its atoms
and the proof."""
LEGAL = "pick ball1 rooma left\nmove rooma roomb\ndrop ball1 roomb left\n"
"""A plan of :func:`_fenced` each of whose steps is legal where it stands (robby takes
ball1 through the door of roomb)."""


def _fenced(tmp_path, goal: str) -> tuple[Path, Path]:
    """Gripper whose robby enters only rooms with a door (rooma, roomb), ball2 in roomc."""
    problem = ONE_BALL.replace("rooma roomb - room ball1 - ball",
                               "rooma roomb roomc - room ball1 ball2 - ball").replace(
        "(free left))", "(free left) (at ball2 roomc) (door rooma) (door roomb))").replace(
        "(:goal (at ball1 roomb))", f"(:goal {goal})")
    fenced = GRIPPER.replace(":precondition (at-robby ?from)", ":precondition (and "
                             "(at-robby ?from) (door ?to))").replace(
        "(free ?g - gripper)", "(free ?g - gripper) (door ?r - room)")
    return cases.write(tmp_path, fenced, problem)


@pytest.mark.parametrize("goal, atoms, why", UNREACHABLE)
def test_a_goal_the_translator_proves_unreachable_is_said_by_its_atoms(cli, tmp_path, goal,
                                                                       atoms, why):
    """validate of the empty plan: the goal was said as the translator's stand-in
    variable, "whether the goal can be reached (...) == 1"."""
    d, p = _fenced(tmp_path, goal)
    plan = tmp_path / "plan"
    plan.write_text("")
    out = cli("validate", d, p, plan, "--json")
    assert out.code == 1, out.out
    message = json.loads(out.out)["message"]
    assert message.endswith(f"; the goal is {atoms}, which no plan reaches ({why})"), message
    assert "==" not in message and "whether" not in message, message


@pytest.mark.parametrize("goal, atoms, why", UNREACHABLE)
def test_a_plan_of_legal_steps_to_an_unreachable_goal_misses_the_goal(cli, tmp_path, goal,
                                                                      atoms, why):
    """The translator's stand-in task has none of the PDDL's actions: the first of these
    legal steps was said to be "no action named 'pick ball1 rooma left'; no step can be
    played there".  Whatever the steps, the goal is what no plan reaches."""
    d, p = _fenced(tmp_path, goal)
    plan = tmp_path / "plan"
    plan.write_text(LEGAL)
    out = cli("validate", d, p, plan, "--json")
    assert out.code == 1, out.out
    verdict = json.loads(out.out)
    assert verdict["valid"] is False and verdict["step"] is None and verdict["steps"] == 3
    assert verdict["message"].endswith(f": the goal is {atoms}, which no plan reaches ({why})")
    assert "no action named" not in verdict["message"], verdict["message"]
    text = cli("validate", d, p, plan)
    assert text.code == 1 and "no action named" not in text.out and "which no plan reaches" in \
        " ".join(text.out.split()), text.out


@pytest.mark.parametrize("command", [("solve",), ("count", "--optimal"),
                                     ("solve", "--engine", "cpsat")])
def test_no_plan_to_an_unreachable_goal_is_the_translators_proof(cli, tmp_path, command):
    """The proof read "whether the goal can be reached (...) is preserved exactly by every
    action, but it is 0 at the start and 1 in every goal state": an invariant of the
    stand-in variable, which says nothing a person can act on."""
    goal, atoms, why = UNREACHABLE[0]
    d, p = _fenced(tmp_path, goal)
    said = f"no plan: the goal {atoms} cannot be reached: {why}"
    out = cli(*command, d, p, "--json")
    assert out.code == 0, out.err
    data = json.loads(out.out)
    assert data["message"] == said, data["message"]
    notes = [e["note"] for e in data.get("race", {}).get("engines", []) if e["status"]]
    assert all(note == said for note in notes), notes
    text = cli(*command, d, p)
    assert said in " ".join(text.out.split()) and "preserved" not in text.out, text.out


def test_compare_says_no_plan_to_an_unreachable_goal_by_its_atoms(cli, tmp_path):
    goal, atoms, why = UNREACHABLE[1]
    d, p = _fenced(tmp_path, goal)
    out = cli("compare", d, p, "--json")
    assert out.code == 0, out.err
    results = json.loads(out.out)["models"][0]["results"]
    said = f"no plan: the goal {atoms} cannot be reached: {why}"
    mine = [r["message"] for r in results if r["engine"] in ("cpsat", "search")]
    assert mine == [said, said], results


def test_action_costs_are_still_said_for_a_task_the_translator_settles(tmp_path):
    """A goal of a static fact is true in itself: the translator settles the task, and the
    domain's :action-costs still make the metric."""
    d, p = cases.write(tmp_path, cases.EQ_DOMAIN,
                       cases.EQ_PROBLEM.replace("(:goal (and (at p3) (visited p1)))",
                                                "(:goal (road p1 p2))"))
    puzzle = load(d, p)
    assert puzzle.settled and "total-cost" in puzzle.metric


def test_recursive_derived_predicates_name_the_domain_file(cli, tmp_path):
    d, p = cases.write(tmp_path, cases.DERIVED_DOMAIN, cases.DERIVED_PROBLEM)
    out = cli("solve", d, p)
    assert out.code == 2 and out.err.startswith(f"error: {d}: recursive derived"), out.err
