"""A plan's step that is no ground action of a PDDL task, said by what it is: an action of
the domain, rightly typed, that the grounding left out because its precondition never
holds is one that cannot be played (named by that precondition); anything else is no
action, and the message says why (the name, the number of objects, an unknown or a
mistyped object).  Every expected atom is read off the small logistics task below."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
import pddl_cases as cases  # noqa: E402

pytest.importorskip("fast_downward.translate")

LOGISTICS = """
(define (domain mylog)
 (:requirements :strips :typing)
 (:types place city - object loc - place truck - object pkg - object)
 (:predicates (at ?o - object ?p - place) (in ?p - pkg ?t - truck) (incity ?p - place ?c - city))
 (:action load :parameters (?p - pkg ?t - truck ?l - place)
   :precondition (and (at ?p ?l) (at ?t ?l)) :effect (and (in ?p ?t) (not (at ?p ?l))))
 (:action drive :parameters (?t - truck ?a ?b - place ?c - city)
   :precondition (and (at ?t ?a) (incity ?a ?c) (incity ?b ?c))
   :effect (and (at ?t ?b) (not (at ?t ?a)))))
"""

TWO_CITIES = """
(define (problem log1) (:domain mylog)
 (:objects c1 c2 - city l1 l2 l3 - loc t1 - truck p1 - pkg)
 (:init (incity l1 c1) (incity l3 c1) (incity l2 c2) (at t1 l1) (at p1 l1))
 (:goal (in p1 t1)))
"""
"""t1 drives within c1 (l1, l3) only: ``drive t1 l1 l2 c1`` is an action of the domain,
its objects rightly typed, but ``(incity l2 c1)`` is in no init and no action adds it, so
the grounding keeps no such action."""


def verdict(cli, tmp_path, *steps: str) -> dict:
    d, p = cases.write(tmp_path, LOGISTICS, TWO_CITIES)
    plan = tmp_path / "plan"
    plan.write_text("".join(f"({s})\n" for s in steps))
    out = cli("validate", d, p, plan, "--json")
    assert out.code == 1, out.err
    return json.loads(out.out)


def test_a_pruned_action_cannot_be_played_for_the_precondition_that_never_holds(cli,
                                                                                tmp_path):
    got = verdict(cli, tmp_path, "drive t1 l1 l2 c1")
    assert got["step"] == 1
    assert got["message"] == "step 1 (drive t1 l1 l2 c1) cannot be played: its guard needs " \
        "(incity l2 c1), which never holds"


def test_a_pruned_action_names_only_what_fails_in_the_state_it_starts_from(cli, tmp_path):
    """After driving to l3, ``drive t1 l1 l2 c2``: t1 is at l3, not l1 (a fact that changes),
    and l1 is not in c2 (never); l2 is in c2, so ``(incity l2 c2)`` is not named."""
    got = verdict(cli, tmp_path, "drive t1 l1 l3 c1", "drive t1 l1 l2 c2")
    assert got["step"] == 2
    assert got["message"] == "step 2 (drive t1 l1 l2 c2) cannot be played: its guard needs " \
        "(at t1 l1) and (incity l1 c2) ((incity l1 c2) never holds)"


@pytest.mark.parametrize("step, why", [
    ("fly t1 l1 l3", "the domain has no action fly (its actions: load, drive)"),
    ("drive t1 l1 l3", "drive takes 4 objects (?t - truck ?a - place ?b - place ?c - city), "
                       "not 3"),
    ("drive t1 l1 l9 c1", "the problem has no object l9"),
    ("drive p1 l1 l3 c1", "p1 is a pkg, not a truck (drive's ?t)"),
])
def test_a_step_that_is_no_action_of_the_domain_says_why(cli, tmp_path, step, why):
    got = verdict(cli, tmp_path, step)
    assert got["message"].startswith(f"step 1: no action named {step!r}: {why}; steps that "
                                     "can be played there: "), got["message"]
