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
compile it into axioms, which admissible heuristics such as LM-cut reject.
Costs other than 1 use ``:action-costs`` (``(increase (total-cost) k)``
and ``(:metric minimize (total-cost))``).
:class:`PddlTask` carries both files, the requirements each uses, and every
variant's model action and effects, which map a planner's plan back.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var, conjuncts
from ..language.fold import fold
from ..language.walk import variables
from ..model import Planning
from . import ExportError

MAX_VALUES = 1_000
"""Most values a variable may have to be exported (each value is a PDDL object)."""

MAX_VARIANTS = 200_000
"""Most ground PDDL actions one export may write."""

GOAL_ACTION = "reach-goal"


@dataclass(frozen=True)
class Variant:
    """One PDDL action: the model action it grounds (``None``: the goal action),
    the values its effects assign and its cost."""

    name: str
    action: str | None
    effects: tuple[tuple[str, int], ...]
    cost: int


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


class _Names:
    """PDDL names: letters, digits, ``-`` and ``_``, starting with a letter, all distinct."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def make(self, text: str, prefix: str = "x") -> str:
        base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or prefix
        if not base[0].isalpha():
            base = f"{prefix}{base}"
        name, n = base, 1
        while name in self.used:
            n += 1
            name = f"{base}-{n}"
        self.used.add(name)
        return name


def value_name(v: int) -> str:
    """The object of a value: ``n3``, or ``m3`` for -3."""
    return f"n{v}" if v >= 0 else f"m{-v}"


def _atoms(expr: Expr) -> Iterator[Expr]:
    """The maximal subterms of a condition that are not ``and`` / ``or`` / ``not``."""
    if isinstance(expr, Nary) and expr.op in ("and", "or"):
        for a in expr.args:
            yield from _atoms(a)
    elif isinstance(expr, Unary) and expr.op == "not":
        yield from _atoms(expr.arg)
    elif not isinstance(expr, Const):
        yield expr


def _cases(cost: Expr) -> list[tuple[list[Expr], Expr]]:
    """``cost`` split at its top-level ``ite``s: (conditions, cost under them)."""
    if isinstance(cost, IfThenElse):
        return [([cost.cond, *conds], leaf) for conds, leaf in _cases(cost.then)] + \
            [([Unary("not", cost.cond), *conds], leaf) for conds, leaf in _cases(cost.otherwise)]
    return [([], cost)]


def _pins(guard: Expr) -> dict[str, int]:
    """Variables the guard fixes by a top-level conjunct ``x == k``."""
    out: dict[str, int] = {}
    for c in conjuncts(guard):
        if isinstance(c, Binary) and c.op == "==":
            for a, b in ((c.left, c.right), (c.right, c.left)):
                if isinstance(a, Var) and isinstance(b, Const):
                    out[a.name] = b.value
    return out


class _Writer:
    """Builds the two files of one model."""

    def __init__(self, model: Planning):
        self.model = model
        for name, d in model.domains.items():
            if d.size > MAX_VALUES:
                raise ExportError(f"variable {name} has {d.size:,} values; PDDL export writes "
                                  f"each value as an object (at most {MAX_VALUES:,})")
        names = _Names()
        self.var = {n: names.make(n, "v") for n in model.domains}
        self.values = sorted({v for d in model.domains.values() for v in range(d.lo, d.hi + 1)})
        self.action_names = _Names()
        self.action_names.used |= set(self.var.values()) | {value_name(v) for v in self.values}
        self.uses: set[str] = set()
        self.variants: dict[str, Variant] = {}
        self.actions: list[str] = []
        self.goal_action = False

    # -- conditions

    def fact(self, var: str, value: int) -> str:
        return f"(value {self.var[var]} {value_name(value)})"

    def member(self, var: str, allowed: list[int]) -> bool | str:
        """The condition "``var`` takes one of ``allowed``"."""
        d = self.model.domains[var]
        every = range(d.lo, d.hi + 1)
        if len(allowed) == d.size:
            return True
        if not allowed:
            return False
        others = [v for v in every if v not in set(allowed)]
        if len(allowed) == 1:
            return self.fact(var, allowed[0])
        if len(allowed) <= len(others):
            self.uses.add(":disjunctive-preconditions")
            return "(or " + " ".join(self.fact(var, v) for v in allowed) + ")"
        self.uses.add(":negative-preconditions")
        parts = [f"(not {self.fact(var, v)})" for v in others]
        return parts[0] if len(parts) == 1 else "(and " + " ".join(parts) + ")"

    def condition(self, expr: int | Expr) -> bool | str:
        """A folded condition over single unbound variables, as a PDDL formula."""
        if isinstance(expr, int):
            return bool(expr)
        if isinstance(expr, Nary) and expr.op in ("and", "or"):
            return self.combine(expr.op, [self.condition(a) for a in expr.args])
        if isinstance(expr, Unary) and expr.op == "not":
            inner = self.condition(expr.arg)
            if isinstance(inner, bool):
                return not inner
            self.uses.add(":negative-preconditions")
            return f"(not {inner})"
        free = variables(expr)
        if len(free) != 1:  # pragma: no cover - _binding() binds every such variable
            raise ExportError(f"cannot write {expr!r} as a condition on one variable")
        (var,) = free
        d = self.model.domains[var]
        return self.member(var, [v for v in range(d.lo, d.hi + 1) if fold(expr, {var: v})])

    def combine(self, op: str, parts: list[bool | str]) -> bool | str:
        decisive = op == "or"
        if any(p is decisive for p in parts):
            return decisive
        rest = [p for p in parts if not isinstance(p, bool)]
        if not rest:
            return not decisive
        if len(rest) == 1:
            return rest[0]
        if op == "or":
            self.uses.add(":disjunctive-preconditions")
        return f"({op} " + " ".join(rest) + ")"  # type: ignore[arg-type]

    # -- grounding

    def binding(self, conditions: list[Expr], reads: set[str]) -> list[str]:
        """The variables a variant binds: those read by ``reads``, those the conditions pin,
        and those that occur with another unbound variable in one atom."""
        bound = set(reads)
        for c in conditions:
            bound |= set(_pins(c))
        for c in conditions:
            for atom in _atoms(c):
                free = variables(atom) - bound
                if len(free) > 1:
                    bound |= free
        return [n for n in self.model.domains if n in bound]

    def ground(self, guard: Expr, effects: tuple[tuple[str, Expr], ...], cost: Expr,
               what: str) -> Iterator[tuple[str, tuple[tuple[str, int], ...], list[str], int]]:
        """Every variant of one action: (precondition, assignments, effect literals, cost)."""
        for conds, leaf in _cases(cost):
            cond = Nary("and", (guard, *conds)) if conds else guard
            reads = variables(leaf).union(*(variables(e) for _, e in effects))
            order = self.binding([cond], reads)
            pins = _pins(cond)
            choices = [[pins[n]] if n in pins else list(range(*self._span(n))) for n in order]
            yield from self._enumerate(cond, leaf, effects, order, choices, {}, what)

    def _span(self, name: str) -> tuple[int, int]:
        d = self.model.domains[name]
        return d.lo, d.hi + 1

    def _enumerate(self, cond, leaf, effects, order, choices, env, what):
        if len(env) < len(order):
            name = order[len(env)]
            for v in choices[len(env)]:
                if v not in self.model.domains[name]:
                    continue
                env[name] = v
                still = fold(cond, env)
                if not isinstance(still, int) or still:
                    yield from self._enumerate(cond, leaf, effects, order, choices, env, what)
                del env[name]
            return
        pre = self.condition(fold(cond, env))
        if pre is False:
            return
        cost = fold(leaf, env)
        if not isinstance(cost, int):  # pragma: no cover - every variable of leaf is bound
            raise ExportError(f"{what}: cost {leaf!r} not determined")
        assigned, literals = [], []
        for var, e in effects:
            new = fold(e, env)
            if not isinstance(new, int):  # pragma: no cover - bound likewise
                raise ExportError(f"{what}: effect on {var} not determined")
            if new not in self.model.domains[var]:
                return  # the effect leaves the domain: not applicable here
            assigned.append((var, new))
            if env.get(var) == new:
                continue
            olds = [env[var]] if var in env else \
                [v for v in range(*self._span(var)) if v != new]
            literals += [f"(not {self.fact(var, v)})" for v in olds]
            literals.append(self.fact(var, new))
        facts = [self.fact(n, v) for n, v in env.items()]
        if pre is not True:
            facts.append(pre)
        text = facts[0] if len(facts) == 1 else "(and " + " ".join(facts) + ")"
        yield text, tuple(assigned), literals, cost

    def add(self, label: str, action: str | None, variants) -> None:
        """Write the PDDL actions of one model action (or of the goal)."""
        for pre, assigned, literals, cost in variants:
            if len(self.variants) >= MAX_VARIANTS:
                raise ExportError(f"more than {MAX_VARIANTS:,} ground PDDL actions")
            name = self.action_names.make(label, "a")
            self.variants[name] = Variant(name, action, assigned, cost)
            effect = list(literals)
            if action is None:
                effect.append("(goal-reached)")
            effect.append(f"(increase (total-cost) {cost})")
            self.actions.append(
                f"  (:action {name}\n    :parameters ()\n    :precondition {pre or '(and)'}\n"
                f"    :effect (and {' '.join(effect)}))")


def export(model: Planning) -> PddlTask:
    """The PDDL domain and problem of ``model`` (see the module's docstring)."""
    model.validate()
    if model.forbidden:
        raise ExportError(f"forbidden states ({model.forbidden[0].label}, ...) have no PDDL "
                          "form here (classical PDDL has no state constraints)")
    w = _Writer(model)
    for action in model.actions:
        w.add(action.name, action.name,
              w.ground(action.guard, action.effects, action.cost, f"action {action.name!r}"))
    domain_uses = set(w.uses)
    w.uses = set()
    goal = w.condition(fold(model.goal, {})) \
        if all(len(variables(a)) <= 1 for a in _atoms(model.goal)) else None
    goal_needs = goal is None or goal is False or bool(w.uses)
    if goal_needs:  # not a conjunction of facts: planners would compile it into axioms
        w.uses, w.goal_action = set(), True  # a goal that never holds: no variant at all
        w.add(GOAL_ACTION, None, w.ground(model.goal, (), Const(0), "the goal"))
        goal = "(goal-reached)"
        domain_uses |= w.uses
        w.uses = set()
    problem_uses = set(w.uses)
    costs = {v.cost for v in w.variants.values()}
    if costs - {1} or goal_needs:
        domain_uses.add(":action-costs")
        problem_uses.add(":action-costs")
    domain_req = (":strips", ":typing", *sorted(domain_uses | problem_uses))
    problem_req = tuple(sorted(problem_uses))
    name = _Names().make(model.name, "m")
    return PddlTask(_domain(w, name, domain_req), _problem(w, name, goal, problem_req),
                    domain_req, problem_req, dict(w.variants))


def _domain(w: _Writer, name: str, requirements: tuple[str, ...]) -> str:
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


def _problem(w: _Writer, name: str, goal: bool | str, requirements: tuple[str, ...]) -> str:
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
