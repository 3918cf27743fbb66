"""The grounding of a model's actions into PDDL actions (*variants*), and its limits:
see :mod:`cpsolve.interop.pddl` for the encoding."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var, conjuncts
from ..language.fold import fold
from ..language.walk import variables
from ..model import Planning
from . import ExportError, ExportStopped, TooLarge
from .pddl_names import Names, value_name

MAX_VALUES = 1_000
"""Most values a variable may have to be exported (each value is a PDDL object)."""

MAX_VARIANTS = 200_000
"""Most ground PDDL actions one export may write."""

MAX_TRIED = 1_000_000
"""Most bindings of values the grounding may try (:meth:`Writer.size`): a condition over many
variables at once (Lights Out's goal ``sum(x) == 0`` on 25 lights) is only decided once each
of them is bound, so its grounding tries every combination, however few it keeps."""

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



def atoms(expr: Expr) -> Iterator[Expr]:
    """The maximal subterms of a condition that are not ``and`` / ``or`` / ``not``."""
    if isinstance(expr, Nary) and expr.op in ("and", "or"):
        for a in expr.args:
            yield from atoms(a)
    elif isinstance(expr, Unary) and expr.op == "not":
        yield from atoms(expr.arg)
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


class Writer:
    """Builds the two files of one model."""

    def __init__(self, model: Planning, stop: Callable[[], object] | None = None):
        self.model = model
        self.stop = stop
        for name, d in model.domains.items():
            if d.size > MAX_VALUES:
                raise ExportError(f"variable {name} has {d.size:,} values; PDDL export writes "
                                  f"each value as an object (at most {MAX_VALUES:,})")
        names = Names()
        self.var = {n: names.make(n, "v") for n in model.domains}
        self.values = sorted({v for d in model.domains.values() for v in range(d.lo, d.hi + 1)})
        self.widest = max((len(value_name(v)) for v in self.values), default=2)
        self.action_names = Names()
        self.action_names.used |= set(self.var.values()) | {value_name(v) for v in self.values}
        self.uses: set[str] = set()
        self.variants: dict[str, Variant] = {}
        self.actions: list[str] = []
        self.written = 0
        """Characters of the actions written so far."""
        self.goal_action = False
        """Whether the goal is the action :data:`GOAL_ACTION` (every action then needs
        ``(not (goal-reached))``)."""

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
            for atom in atoms(c):
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
             cost: Expr) -> tuple[int, int, int]:
        """How many variants one action has, about how many bytes of the domain they take,
        and at most how many bindings its grounding tries, from its structure alone (nothing
        is built).  Variants: every combination of the values of the variables its bindings
        leave open (:meth:`bindings`) that its condition does not mention — those the
        condition mentions may be pruned by it (a goal ``sum(hole) == 1`` binds every hole
        and keeps one variant per hole), so they count once.  Each variant takes its name,
        a fact per bound variable and, per effect, the old value deleted (every other one
        when it is not bound) and the new one added.  Bindings tried: every partial binding
        of the variables in order, as :meth:`ground` may try them all (the condition prunes
        one only when it is decided before the last variable is bound)."""
        fact = {n: len(self.fact(n, 0)) - 2 + self.widest for n in self.model.domains}
        count = size = tried = 0
        for cond, _, order, choices in self.bindings(guard, effects, cost):
            mentioned = variables(cond)
            n = math.prod(len(c) for v, c in zip(order, choices) if v not in mentioned)
            bound = set(order)
            each = len(ACTION_TEXT) + len(label) + 8 + sum(fact[v] + 1 for v in order) + sum(
                (fact[v] + 7) * (1 if v in bound else self.model.domains[v].size - 1)
                + fact[v] + 1 for v, _ in effects)
            count, size = count + n, size + n * each
            partial = 1
            for c in choices:
                partial *= len(c)
                tried += partial
        return count, size, tried

    def _span(self, name: str) -> tuple[int, int]:
        d = self.model.domains[name]
        return d.lo, d.hi + 1

    def _enumerate(self, cond, leaf, effects, order, choices, env, what):
        if len(env) < len(order):
            name = order[len(env)]
            for v in choices[len(env)]:
                if self.stop is not None and self.stop():  # a binding may take long to decide
                    raise ExportStopped
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

    def _before_goal(self, pre: str) -> str:
        """``pre``, and with a goal action ``(not (goal-reached))``: nothing is played
        once the goal action is."""
        if not self.goal_action:
            return pre or "(and)"
        self.uses.add(":negative-preconditions")
        if not pre:
            return "(not (goal-reached))"
        inner = pre[len("(and "):-1].strip() if pre.startswith("(and ") else pre
        return f"(and (not (goal-reached)) {inner})" if inner else "(not (goal-reached))"

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
            self.actions.append(ACTION_TEXT.format(name=name, pre=self._before_goal(pre),
                                                   effect=" ".join(effect)))
            self.written += len(self.actions[-1]) + 1
