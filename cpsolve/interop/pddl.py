"""A :class:`~cpsolve.model.planning.Planning` as a PDDL domain and problem.

Encoding: every state variable is an object of type ``variable``, every value
an object of type ``val`` (``n3``, ``m1`` for -1), and the state is the set
of facts ``(value x n3)`` — exactly one per variable.  (The type is not named
``value`` like the predicate: Fast Downward's translator, cpsolve's own PDDL reader,
warns of a name clash between a type and a predicate.)  The model's actions are
ground already, so PDDL actions have no parameters; each model action becomes
one or more *variants*:

* the variables its effects and its cost read are bound to values (one variant
  per binding that the guard allows; values pinned by the guard come first);
* a cost ``ite(c, a, b)`` splits into a variant with ``c`` and one with
  ``not c`` (the peg-solitaire "moves" cost ``ite(last == from, 0, 1)``
  becomes two variants of cost 0 and 1, without binding ``last``);
* what is left of the guard is a condition on single variables, written as
  positive literals, negative ones (``:negative-preconditions``) or
  disjunctions (``:disjunctive-preconditions``); a comparison of two unbound
  variables binds both instead;
* effects assign constants: the old value is deleted (every other value when
  the old one is not bound) and the new one added; a variant whose effect
  leaves a domain is dropped (the model's rule: such an action is not
  applicable).

The goal becomes a conjunction of facts when it is one; any other goal (a
disjunction, a negation, a comparison of several variables) becomes zero-cost
actions ``reach-goal`` that add ``(goal-reached)`` — planners would otherwise
compile it into axioms, which admissible heuristics such as LM-cut reject.  Every
action, ``reach-goal`` included, then needs ``(not (goal-reached))``: a plan ends
with the one step ``reach-goal``, so the export has the model's plans, each with that
step added, and no more (a ``reach-goal`` that could be played again, or moves played
after it, would make more plans of the same cost: infinitely many, for a count).
Costs other than 1 use ``:action-costs`` (``(increase (total-cost) k)``
and ``(:metric minimize (total-cost))``).
:class:`PddlTask` carries both files, the requirements each uses, and every
variant's model action and effects, which map a planner's plan back.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ..language.expr import Const
from ..language.fold import fold
from ..language.walk import variables
from ..model import Planning
from . import ExportError, TooLarge
from .pddl_names import Names, value_name
from .pddl_writer import (
    GOAL_ACTION,
    MAX_BYTES,
    MAX_TRIED,
    MAX_VALUES,
    MAX_VARIANTS,
    MB,
    Variant,
    Writer,
    atoms,
)

__all__ = ["MAX_BYTES", "MAX_TRIED", "MAX_VALUES", "MAX_VARIANTS", "PddlTask", "Variant", "export",
           "too_large", "value_name"]


@dataclass(frozen=True)
class PddlTask:
    """Both PDDL files and what maps a plan back (``variants`` by lower-case name)."""

    domain: str
    problem: str
    domain_requirements: tuple[str, ...]
    problem_requirements: tuple[str, ...]
    variants: Mapping[str, Variant]

    def files(self, stem: str) -> dict[str, str]:
        """File name -> text (``STEM-domain.pddl``, ``STEM-problem.pddl``)."""
        return {f"{stem}-domain.pddl": self.domain, f"{stem}-problem.pddl": self.problem}


def too_large(model: Planning) -> str | None:
    """Why the export of ``model`` would be too large — more than :data:`MAX_VARIANTS` ground
    actions, a domain of more than :data:`MAX_BYTES`, or a grounding that tries more than
    :data:`MAX_TRIED` bindings — or ``None``: an estimate from the model's structure
    (:meth:`Writer.size`), made before anything is built.  Effects that read the state
    ground into one variant per combination of the values they read: six pancakes,
    ``p[i] = p[k - 1 - i]``, flipping all six, 6^6 = 46,656 variants, a 17 MB domain that
    Fast Downward's translator reads for minutes.  A condition over many variables is
    decided only once all of them are bound: Lights Out's goal ``sum(x) == 0`` on 5x5
    lights keeps one variant but tries 2 + 4 + ... + 2^25 bindings.  What the estimate
    cannot see (a guard that prunes the values the effects read) :meth:`Writer.add`
    counts as it writes."""
    w = Writer(model)
    parts = [w.size(a.name, a.guard, a.effects, a.cost) for a in model.actions]
    if not _goal_facts(model):
        parts.append(w.size(GOAL_ACTION, model.goal, (), Const(0)))
    count, size, tried = (sum(p[i] for p in parts) for i in range(3))
    if count > MAX_VARIANTS:
        return f"it would write {count:,} ground PDDL actions, more than the " \
            f"{MAX_VARIANTS:,} an export may write"
    if size > MAX_BYTES:
        return f"its PDDL domain would take about {size / MB:,.0f} MB for {count:,} ground " \
            f"actions, more than the {MAX_BYTES // MB} MB of the largest file cpsolve reads"
    if tried > MAX_TRIED:
        return f"its grounding would try up to {tried:,} bindings of values (a condition " \
            f"decided only once many variables are bound), more than the {MAX_TRIED:,} an " \
            "export may try"
    return None


def export(model: Planning, stop: Callable[[], object] | None = None) -> PddlTask:
    """The PDDL domain and problem of ``model`` (see the module's docstring).

    Raises :class:`~cpsolve.interop.TooLarge` before building anything when the export
    would be too large (:func:`too_large`), and :class:`~cpsolve.interop.ExportStopped`
    as soon as ``stop()`` is true (it is asked before each binding is tried and each ground
    action is written)."""
    model.validate()
    if model.forbidden:
        raise ExportError(f"forbidden states ({model.forbidden[0].label}, ...) have no PDDL "
                          "form here (classical PDDL has no state constraints)")
    why = too_large(model)
    if why:
        raise TooLarge(why)
    w = Writer(model, stop)
    goal = w.condition(fold(model.goal, {})) if _goal_facts(model) else None
    goal_needs = goal is None or goal is False or bool(w.uses)
    problem_uses, w.uses = set(w.uses), set()
    if goal_needs:  # not a conjunction of facts: planners would compile it into axioms
        w.goal_action, problem_uses = True, set()  # (goal-reached) ends every plan
        goal = "(goal-reached)"
    for action in model.actions:
        w.add(action.name, action.name,
              w.ground(action.guard, action.effects, action.cost, f"action {action.name!r}"))
    if goal_needs:  # a goal that never holds: no variant at all
        w.add(GOAL_ACTION, None, w.ground(model.goal, (), Const(0), "the goal"))
    domain_uses = set(w.uses)
    costs = {v.cost for v in w.variants.values()}
    if costs - {1} or goal_needs:
        domain_uses.add(":action-costs")
        problem_uses.add(":action-costs")
    domain_req = (":strips", ":typing", *sorted(domain_uses | problem_uses))
    problem_req = tuple(sorted(problem_uses))
    name = Names().make(model.name, "m")
    return PddlTask(_domain(w, name, domain_req), _problem(w, name, goal, problem_req),
                    domain_req, problem_req, dict(w.variants))


def _goal_facts(model: Planning) -> bool:
    """Whether the goal is written as a condition on single variables (else as the
    actions :data:`GOAL_ACTION`)."""
    return all(len(variables(a)) <= 1 for a in atoms(model.goal))


def _domain(w: Writer, name: str, requirements: tuple[str, ...]) -> str:
    costs = ":action-costs" in requirements
    actions = w.actions if costs else [re.sub(r" \(increase \(total-cost\) \d+\)", "", a)
                                       for a in w.actions]
    consts = " ".join(w.var.values())
    values = " ".join(value_name(v) for v in w.values)
    goal_pred = " (goal-reached)" if w.goal_action else ""
    lines = [
        f"; {w.model.name}: exported by cpsolve ({len(w.actions)} ground actions from "
        f"{len(w.model.actions)} model actions)",
        f"; requirements: {' '.join(requirements)}",
        f"(define (domain {name})",
        f"  (:requirements {' '.join(requirements)})",
        "  (:types variable val)",
        f"  (:constants {consts} - variable\n              {values} - val)",
        f"  (:predicates (value ?x - variable ?v - val){goal_pred})",
    ]
    if costs:
        lines.append("  (:functions (total-cost) - number)")
    return "\n".join(lines + actions) + "\n)\n"


def _problem(w: Writer, name: str, goal: bool | str, requirements: tuple[str, ...]) -> str:
    init = [w.fact(n, v) for n, v in w.model.initial.items()]
    costs = ":action-costs" in requirements
    if costs:
        init.append("(= (total-cost) 0)")
    body = "\n    ".join(" ".join(chunk) for chunk in _chunks(init, 4))
    lines = [
        f"; {w.model.name}: exported by cpsolve",
        f"; requirements used here: {' '.join(requirements) or 'none beyond the domain'}",
        f"(define (problem {name}-problem)",
        f"  (:domain {name})",
        f"  (:init\n    {body})",
        f"  (:goal {goal if isinstance(goal, str) else '(and)'})",
    ]
    if costs:
        lines.append("  (:metric minimize (total-cost))")
    return "\n".join(lines) + "\n)\n"


def _chunks(items: list[str], n: int) -> Iterator[list[str]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, n)):
        yield chunk
