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
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ..language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var, conjuncts
from ..language.fold import fold
from ..language.walk import variables
from ..model import Planning
from . import ExportError, ExportStopped, TooLarge

MAX_VALUES = 1_000
"""Most values a variable may have to be exported (each value is a PDDL object)."""

MAX_VARIANTS = 200_000
"""Most ground PDDL actions one export may write."""

MB = 1024 * 1024

MAX_BYTES = 16 * MB
"""Most bytes the domain may take: the largest file cpsolve reads back (a model file or
PDDL, ``cpsolve.puzzles.data.MAX_FILE_BYTES``).  Fast Downward's translator spends minutes
on a domain of that size."""

ACTION_TEXT = ("  (:action {name}\n    :parameters ()\n    :precondition {pre}\n"
               "    :effect (and {effect}))")
"""One ground action in the domain."""

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
        self.last: dict[str, int] = {}
        """Base name -> the last number given to it: the next one is tried first (one
        model action grounded into 46,656 variants names them in one pass, not in a
        quadratic search from ``-2`` each time)."""

    def make(self, text: str, prefix: str = "x") -> str:
        base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or prefix
        if not base[0].isalpha():
            base = f"{prefix}{base}"
        name, n = base, self.last.get(base, 1)
        if n > 1:
            name = f"{base}-{n}"
        while name in self.used:
            n += 1
            name = f"{base}-{n}"
        self.used.add(name)
        self.last[base] = n
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

    def __init__(self, model: Planning, stop: Callable[[], object] | None = None):
        self.model = model
        self.stop = stop
        for name, d in model.domains.items():
            if d.size > MAX_VALUES:
                raise ExportError(f"variable {name} has {d.size:,} values; PDDL export writes "
                                  f"each value as an object (at most {MAX_VALUES:,})")
        names = _Names()
        self.var = {n: names.make(n, "v") for n in model.domains}
        self.values = sorted({v for d in model.domains.values() for v in range(d.lo, d.hi + 1)})
        self.widest = max((len(value_name(v)) for v in self.values), default=2)
        self.action_names = _Names()
        self.action_names.used |= set(self.var.values()) | {value_name(v) for v in self.values}
        self.uses: set[str] = set()
        self.variants: dict[str, Variant] = {}
        self.actions: list[str] = []
        self.written = 0
        """Characters of the actions written so far."""
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
        for cond, leaf, order, choices in self.bindings(guard, effects, cost):
            yield from self._enumerate(cond, leaf, effects, order, choices, {}, what)

    def bindings(self, guard: Expr, effects: tuple[tuple[str, Expr], ...], cost: Expr
                 ) -> Iterator[tuple[Expr, Expr, list[str], list[list[int]]]]:
        """Per case of the cost (:func:`_cases`): its condition, its cost, the variables its
        variants bind and the values each may take (one when the condition pins it)."""
        for conds, leaf in _cases(cost):
            cond = Nary("and", (guard, *conds)) if conds else guard
            reads = variables(leaf).union(*(variables(e) for _, e in effects))
            order = self.binding([cond], reads)
            pins = _pins(cond)
            yield cond, leaf, order, \
                [[pins[n]] if n in pins else list(range(*self._span(n))) for n in order]

    def size(self, label: str, guard: Expr, effects: tuple[tuple[str, Expr], ...],
             cost: Expr) -> tuple[int, int]:
        """How many variants one action has, and about how many bytes of the domain they
        take, from its structure alone (nothing is built): every combination of the values
        of the variables its bindings leave open (:meth:`bindings`) that its condition does
        not mention — those the condition mentions may be pruned by it (a goal
        ``sum(hole) == 1`` binds every hole and keeps one variant per hole), so they count
        once.  Each variant takes its name, a fact per bound variable and, per effect, the
        old value deleted (every other one when it is not bound) and the new one added."""
        fact = {n: len(self.fact(n, 0)) - 2 + self.widest for n in self.model.domains}
        count = size = 0
        for cond, _, order, choices in self.bindings(guard, effects, cost):
            mentioned = variables(cond)
            n = math.prod(len(c) for v, c in zip(order, choices) if v not in mentioned)
            bound = set(order)
            each = len(ACTION_TEXT) + len(label) + 8 + sum(fact[v] + 1 for v in order) + sum(
                (fact[v] + 7) * (1 if v in bound else self.model.domains[v].size - 1)
                + fact[v] + 1 for v, _ in effects)
            count, size = count + n, size + n * each
        return count, size

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
                raise TooLarge(f"it would write more than the {MAX_VARIANTS:,} ground PDDL "
                               "actions an export may write")
            if self.written > MAX_BYTES:
                raise TooLarge(f"its PDDL domain would take more than the {MAX_BYTES // MB} "
                               "MB of the largest file cpsolve reads")
            if self.stop is not None and self.stop():
                raise ExportStopped
            name = self.action_names.make(label, "a")
            self.variants[name] = Variant(name, action, assigned, cost)
            effect = list(literals)
            if action is None:
                effect.append("(goal-reached)")
            effect.append(f"(increase (total-cost) {cost})")
            self.actions.append(ACTION_TEXT.format(name=name, pre=pre or "(and)",
                                                   effect=" ".join(effect)))
            self.written += len(self.actions[-1]) + 1


def too_large(model: Planning) -> str | None:
    """Why the export of ``model`` would be too large — more than :data:`MAX_VARIANTS` ground
    actions, or a domain of more than :data:`MAX_BYTES` — or ``None``: an estimate from the
    model's structure (:meth:`_Writer.size`), made before anything is built.  Effects that
    read the state ground into one variant per combination of the values they read: six
    pancakes, ``p[i] = p[k - 1 - i]``, flipping all six, 6^6 = 46,656 variants, a 17 MB
    domain that Fast Downward's translator reads for minutes.  What the estimate cannot
    see (a guard that prunes the values the effects read) :meth:`_Writer.add` counts as it
    writes."""
    w = _Writer(model)
    count = size = 0
    for action in model.actions:
        more, longer = w.size(action.name, action.guard, action.effects, action.cost)
        count, size = count + more, size + longer
    if not _goal_facts(model):
        more, longer = w.size(GOAL_ACTION, model.goal, (), Const(0))
        count, size = count + more, size + longer
    if count > MAX_VARIANTS:
        return f"it would write {count:,} ground PDDL actions, more than the " \
            f"{MAX_VARIANTS:,} an export may write"
    if size > MAX_BYTES:
        return f"its PDDL domain would take about {size / MB:,.0f} MB for {count:,} ground " \
            f"actions, more than the {MAX_BYTES // MB} MB of the largest file cpsolve reads"
    return None


def export(model: Planning, stop: Callable[[], object] | None = None) -> PddlTask:
    """The PDDL domain and problem of ``model`` (see the module's docstring).

    Raises :class:`~cpsolve.interop.TooLarge` before building anything when the export
    would be too large (:func:`too_large`), and :class:`~cpsolve.interop.ExportStopped`
    as soon as ``stop()`` is true (it is asked before each ground action is written)."""
    model.validate()
    if model.forbidden:
        raise ExportError(f"forbidden states ({model.forbidden[0].label}, ...) have no PDDL "
                          "form here (classical PDDL has no state constraints)")
    why = too_large(model)
    if why:
        raise TooLarge(why)
    w = _Writer(model, stop)
    for action in model.actions:
        w.add(action.name, action.name,
              w.ground(action.guard, action.effects, action.cost, f"action {action.name!r}"))
    domain_uses = set(w.uses)
    w.uses = set()
    goal = w.condition(fold(model.goal, {})) if _goal_facts(model) else None
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


def _goal_facts(model: Planning) -> bool:
    """Whether the goal is written as a condition on single variables (else as the
    actions :data:`GOAL_ACTION`)."""
    return all(len(variables(a)) <= 1 for a in _atoms(model.goal))


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
