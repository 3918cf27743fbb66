"""Small PDDL domains whose optima are worked out by hand (shared by the PDDL-in tests)."""

from __future__ import annotations

from pathlib import Path

EQ_DOMAIN = """
(define (domain roads)
 (:requirements :strips :typing :equality :negative-preconditions :action-costs)
 (:types place)
 (:predicates (at ?p - place) (visited ?p - place) (road ?a ?b - place))
 (:functions (total-cost) - number (dist ?a ?b - place) - number)
 (:action go :parameters (?a ?b - place)
  :precondition (and (at ?a) (road ?a ?b) (not (= ?a ?b)))
  :effect (and (not (at ?a)) (at ?b) (visited ?b) (increase (total-cost) (dist ?a ?b)))))
"""

EQ_PROBLEM = """
(define (problem trip) (:domain roads)
 (:objects p1 p2 p3 - place)
 (:init (at p1) (road p1 p1) (road p1 p2) (road p2 p3) (road p1 p3) (road p2 p1)
        (= (dist p1 p1) 0) (= (dist p1 p2) 5) (= (dist p2 p3) 5) (= (dist p1 p3) 12)
        (= (dist p2 p1) 1) (= (total-cost) 0))
 (:goal (and (at p3) (visited p1)))
 (:metric minimize (total-cost)))
"""
"""The self-road p1 -> p1 (cost 0) would visit p1 at once, but ``(not (= ?a ?b))``
forbids it: p1 must be left and reached again.  p1-p2-p1-p2-p3 costs 5+1+5+5 = 16 in 4
steps; p1-p2-p1-p3 costs 5+1+12 = 18; nothing leaves p3.  So the optimum is 16, by one
plan (without the equality it would be 0+5+5 = 10)."""
EQ_COST = 16

LIGHTS_DOMAIN = """
(define (domain lights)
 (:requirements :adl)
 (:predicates (on ?l))
 (:action flip :parameters (?l) :precondition (not (on ?l)) :effect (on ?l))
 (:action toggle-all :parameters ()
  :effect (forall (?l) (and (when (on ?l) (not (on ?l))) (when (not (on ?l)) (on ?l))))))
"""

LIGHTS_PROBLEM = """
(define (problem four) (:domain lights)
 (:objects l1 l2 l3 l4)
 (:init (on l1))
 (:goal (forall (?l) (on ?l))))
"""
"""Flipping the three dark lights takes 3 steps; toggling all (l1 goes dark, the others
light up, every effect reading the state before the action) then flipping l1 takes 2.
No single action lights all four, so 2 is the optimum, by one plan (flip l1 cannot come
first: it is on).  Every one of the 2^4 states is reachable (toggle, then flips)."""
LIGHTS_STEPS = 2

DERIVED_DOMAIN = """
(define (domain paths)
 (:requirements :strips :derived-predicates)
 (:constants a c)
 (:predicates (edge ?x ?y) (reach ?x ?y) (done))
 (:derived (reach ?x ?y) (or (edge ?x ?y) (exists (?z) (and (edge ?x ?z) (reach ?z ?y)))))
 (:action cut :parameters (?x ?y) :precondition (edge ?x ?y) :effect (not (edge ?x ?y)))
 (:action finish :parameters () :precondition (reach a c) :effect (done)))
"""

DERIVED_PROBLEM = """
(define (problem p) (:domain paths) (:objects b)
 (:init (edge a b) (edge b a) (edge b c)) (:goal (done)))
"""
"""``reach a c`` needs ``reach b c``, which may come through ``reach a c`` (the edge b a):
a recursive derived predicate, refused."""


FERRY_DOMAIN = """
(define (domain ferry)
 (:requirements :strips :typing)
 (:types car place)
 (:predicates (at ?c - car ?p - place) (on ?c - car) (ferry-at ?p - place) (empty))
 (:action sail :parameters (?from ?to - place)
  :precondition (ferry-at ?from)
  :effect (and (ferry-at ?to) (not (ferry-at ?from))))
 (:action board :parameters (?c - car ?p - place)
  :precondition (and (at ?c ?p) (ferry-at ?p) (empty))
  :effect (and (on ?c) (not (at ?c ?p)) (not (empty))))
 (:action debark :parameters (?c - car ?p - place)
  :precondition (and (on ?c) (ferry-at ?p))
  :effect (and (at ?c ?p) (empty) (not (on ?c)))))
"""

FERRY_PROBLEM = """
(define (problem two) (:domain ferry)
 (:objects c1 c2 - car a b c - place)
 (:init (at c1 a) (at c2 b) (ferry-at a) (empty))
 (:goal (and (at c1 c) (at c2 a) (on c1))))
"""
"""A car is at one place or on the ferry, never both: the goal asks for c1 at c and on the
ferry at once, so no plan exists (the translator finds the goal violates a mutex)."""


def write(folder: Path, domain: str, problem: str) -> tuple[Path, Path]:
    """The two texts as ``domain.pddl`` and ``problem.pddl`` in ``folder``."""
    d, p = folder / "domain.pddl", folder / "problem.pddl"
    d.write_text(domain)
    p.write_text(problem)
    return d, p


LAMPS_DOMAIN = """
(define (domain lamps)
 (:requirements :strips :typing :disjunctive-preconditions :negative-preconditions)
 (:types lamp)
 (:predicates (on ?l - lamp) (master))
 (:action flip :parameters (?l - lamp)
  :precondition (or (not (on ?l)) (master))
  :effect (on ?l))
 (:action touch :parameters (?l - lamp)
  :precondition (or (not (on ?l)) (and (on ?l) (master)))
  :effect (on ?l))
 (:action unmaster :parameters () :precondition (master) :effect (not (master))))
"""

LAMPS_PROBLEM = """
(define (problem two) (:domain lamps)
 (:objects l1 l2 - lamp)
 (:init (master))
 (:goal (and (on l1) (on l2))))
"""
"""Both lamps must be lit; one step lights a lamp, by ``flip`` or by ``touch``: 2 ways per
lamp, 2 orders of the lamps, so 2 * 2 * 2 = 8 optimal plans of 2 steps.  The translator
splits each disjunctive precondition into two operators of one name; with the master on
and a lamp off both of flip's apply, which counted as 2 ways.  ``touch`` of a lit lamp
under the master changes nothing: a legal step, no help to a plan."""

LAMPS_OPTIMAL_PLANS = 8


WALK_DOMAIN = """
(define (domain walk)
 (:requirements :strips :typing :action-costs)
 (:types room)
 (:predicates (at ?r - room) (waved ?r - room))
 (:functions (total-cost) - number)
 (:action go :parameters (?from ?to - room)
  :precondition (at ?from)
  :effect (and (not (at ?from)) (at ?to) (increase (total-cost) 2)))
 (:action wave :parameters (?r - room)
  :precondition (at ?r)
  :effect (and (waved ?r) (increase (total-cost) 1))))
"""

WALK_PROBLEM = """
(define (problem across) (:domain walk)
 (:objects a b - room)
 (:init (at a) (= (total-cost) 0))
 (:goal (at b))
 (:metric minimize (total-cost)))
"""
"""``go a a`` deletes and adds ``(at a)``: it changes nothing, but is a legal step where
``(at a)`` holds, and costs 2 like any ``go``.  ``wave`` changes only ``waved``, which the
goal does not depend on: no plan needs it, but a plan may play it where its ``(at ?r)``
holds.  The one optimal plan is ``go a b``, cost 2."""
