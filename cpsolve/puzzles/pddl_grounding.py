"""cpsolve's own grounder of a PDDL domain and problem as the ``pddl`` package parsed them
(:mod:`.pddl_task` reads the files), into a :class:`~cpsolve.model.planning.Planning`.

The static predicates (in no effect) are evaluated from the
initial state while the parameters are bound, one at a time; a relaxed
reachability fixpoint (delete effects ignored) then keeps only the actions
whose positive preconditions can ever hold, and the atoms they can add.
Every atom that can change becomes a 0/1 state variable named like the atom
(``at ball1 rooma``); a ground action becomes a model action named like the
PDDL action (``pick ball1 rooma left``): its guard is the precondition, its
effects set the added atoms to 1 and the deleted ones to 0 (an atom added and
deleted by one action ends true, as in PDDL), a conditional effect is an
``ite``.  Without ``:action-costs`` every action costs 1.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from ..language.combine import And, If, Not, Or
from ..language.expr import Const, Expr, Var
from ..language.quoting import shown
from ..model import MAX_ACTIONS, Planning

MAX_TRIES = 1_000_000
"""Most parameter bindings grounding may try for one action (static atoms prune early)."""


class Unsupported(ValueError):
    """A PDDL construct this grounder does not take."""


def _name(term: Any) -> str:
    return str(term.name)


class Grounder:
    """Grounds one domain and problem (see the module's docstring)."""

    def __init__(self, domain, problem):
        self.domain, self.problem = domain, problem
        parents = {str(k): (str(v) if v else "object") for k, v in (domain.types or {}).items()}
        self.objects: dict[str, set[str]] = {}  # type -> objects of it or a subtype
        for obj in (*domain.constants, *problem.objects):
            kind = str(obj.type_tag) if obj.type_tag else "object"
            while True:
                self.objects.setdefault(kind, set()).add(_name(obj))
                if kind == "object":
                    break
                kind = parents.get(kind, "object")
        self.objects.setdefault("object", set())
        self.fluent = {str(p) for a in domain.actions for p in _effect_predicates(a.effect)}
        self.init: set[tuple[str, ...]] = set()
        self.projections: dict[tuple[str, tuple[int, ...]], set[tuple[str, ...]]] = {}
        self.numbers: dict[tuple[str, ...], int] = {}
        for fact in problem.init:
            if type(fact).__name__ == "Predicate":
                self.init.add(_atom(fact, {}))
            elif type(fact).__name__ == "EqualTo":
                func, value = fact.operands
                self.numbers[_atom(func, {})] = _integer(value.value)
            else:
                raise Unsupported(f"initial state: {fact} is not supported")
        self._declared(self.init, "initial state")

    def _declared(self, atoms: set[tuple[str, ...]], where: str) -> None:
        """Refuse an atom of an undeclared predicate, of the wrong arity, or naming an
        undeclared object (the parser takes them; the plans would be about nothing)."""
        arity = {str(p.name): len(p.terms) for p in self.domain.predicates}
        known = self.objects["object"]
        for name, *args in sorted(atoms):
            if name not in arity:
                raise Unsupported(f"{where}: ({name} ...) uses the predicate {shown(name)}, which "
                                   "the domain does not declare")
            if len(args) != arity[name]:
                raise Unsupported(f"{where}: ({' '.join([name, *args])}) gives {len(args)} "
                                   f"arguments; the domain declares {name} with {arity[name]}")
            unknown = [a for a in args if a not in known]
            if unknown:
                raise Unsupported(f"{where}: ({' '.join([name, *args])}) names "
                                   f"{shown(unknown[0])}, which is neither an object of the "
                                   "problem nor a constant of the domain")

    # -- binding parameters

    def typed(self, variable) -> list[str]:
        tags = [str(t) for t in variable.type_tags] or ["object"]
        return sorted(set().union(*(self.objects.get(t, set()) for t in tags)))

    def bindings(self, action) -> Iterator[dict[str, str]]:
        """Parameter bindings that satisfy the static positive preconditions."""
        params = [str(v.name) for v in action.parameters]
        domains = [self.typed(v) for v in action.parameters]
        statics = [a for a in _positive_atoms(action.precondition)
                   if a.name not in self.fluent]

        touching = [[a for a in statics if any(_is_var(t) and str(t.name) == p
                                               for t in a.terms)] for p in params]

        tries = [0]

        def extend(i: int, env: dict[str, str]) -> Iterator[dict[str, str]]:
            if i == len(params):
                yield dict(env)
                return
            for obj in domains[i]:
                tries[0] += 1
                if tries[0] > MAX_TRIES:
                    raise Unsupported(f"action {action.name}: more than {MAX_TRIES:,} "
                                       "parameter bindings to try; too large to ground")
                env[params[i]] = obj
                if all(self.may_hold(a, env) for a in touching[i]):
                    yield from extend(i + 1, env)
                del env[params[i]]
        yield from extend(0, {})

    def may_hold(self, atom, env: dict[str, str]) -> bool:
        """Some initial fact of a static predicate agrees with ``atom`` where it is bound."""
        key = _atom(atom, env)
        terms = list(atom.terms)
        mask = tuple(i for i, t in enumerate(terms) if not _is_var(t) or str(t.name) in env)
        index = self.projections.get((key[0], mask))
        if index is None:
            index = {tuple(f[1 + i] for i in mask) for f in self.init
                     if f[0] == key[0] and len(f) == len(key)}
            self.projections[(key[0], mask)] = index
        return tuple(key[1 + i] for i in mask) in index

    # -- formulas and effects

    def condition(self, formula, env: dict[str, str], atoms: dict[tuple, str]) -> Expr:
        """A precondition or goal as a 0/1 expression over the state variables."""
        kind = type(formula).__name__
        if formula is None:
            return Const(1)
        if kind == "Predicate":
            key = _atom(formula, env)
            if formula.name not in self.fluent:
                return Const(int(key in self.init))
            return Var(atoms[key]) == 1 if key in atoms else Const(0)
        if kind == "EqualTo":  # (= ?x ?y): the logic class (left, right), not the numeric one
            terms = getattr(formula, "operands", None) or (formula.left, formula.right)
            left, right = (env.get(str(t.name), str(t.name)) for t in terms)
            return Const(int(left == right))
        if kind == "And":
            return And(*(self.condition(f, env, atoms) for f in formula.operands))
        if kind == "Or":
            return Or(*(self.condition(f, env, atoms) for f in formula.operands))
        if kind == "Not":
            return Not(self.condition(formula.argument, env, atoms))
        if kind == "Imply":
            a, b = formula.operands
            return Or(Not(self.condition(a, env, atoms)), self.condition(b, env, atoms))
        if kind in ("ForallCondition", "ExistsCondition"):
            parts = [self.condition(formula.condition, {**env, **more}, atoms)
                     for more in self.quantified(formula.variables)]
            return (And if kind == "ForallCondition" else Or)(*parts)
        raise Unsupported(f"condition {formula} is not supported")

    def quantified(self, variables) -> Iterator[dict[str, str]]:
        names = [str(v.name) for v in variables]
        for combo in itertools.product(*(self.typed(v) for v in variables)):
            yield dict(zip(names, combo))

    def effects(self, effect, env: dict[str, str], cond: Any = None
                ) -> Iterator[tuple[Any, bool, tuple[str, ...] | None, int]]:
        """(condition formula and bindings, add?, atom, cost increase) for every literal."""
        kind = type(effect).__name__
        if effect is None:
            return
        if kind == "And":
            for e in effect.operands:
                yield from self.effects(e, env, cond)
        elif kind == "Predicate":
            yield cond, True, _atom(effect, env), 0
        elif kind == "Not" and type(effect.argument).__name__ == "Predicate":
            yield cond, False, _atom(effect.argument, env), 0
        elif kind == "When":
            if cond is not None:
                raise Unsupported("nested conditional effects are not supported")
            yield from self.effects(effect.effect, env, (effect.condition, dict(env)))
        elif kind == "Forall":
            for more in self.quantified(effect.variables):
                yield from self.effects(effect.effect, {**env, **more}, cond)
        elif kind == "Increase":
            func, value = effect.operands
            if _atom(func, {}) != ("total-cost",) or cond is not None:
                raise Unsupported(f"effect {effect}: only unconditional increases of "
                                   "total-cost are supported")
            yield None, True, None, self.number(value, env)
        else:
            raise Unsupported(f"effect {effect} is not supported")

    def number(self, value, env: dict[str, str]) -> int:
        if type(value).__name__ == "NumericValue":
            return _integer(value.value)
        key = _atom(value, env)
        if key not in self.numbers:
            raise Unsupported(f"cost {value}: no value in the initial state")
        return self.numbers[key]

    # -- the model

    def ground(self) -> list[tuple[str, Any, dict[str, str], list]]:
        """Every reachable ground action: (name, action, bindings, effect literals)."""
        candidates = []
        for action in sorted(self.domain.actions, key=lambda a: str(a.name)):
            for env in self.bindings(action):
                literals = list(self.effects(action.effect, env))
                needs = {_atom(a, env) for a in _positive_atoms(action.precondition)
                         if a.name in self.fluent}
                name = " ".join([str(action.name), *(env[str(v.name)]
                                                     for v in action.parameters)])
                candidates.append((name, action, env, literals, needs))
                if len(candidates) > MAX_ACTIONS:
                    raise Unsupported(f"more than {MAX_ACTIONS:,} ground actions before "
                                       "reachability; too large to ground")
        reached = {a for a in self.init if a[0] in self.fluent}
        kept: dict[str, tuple] = {}
        grew = True
        while grew:  # relaxed reachability: delete effects ignored
            grew = False
            for name, action, env, literals, needs in candidates:
                if name in kept or not needs <= reached:
                    continue
                kept[name] = (name, action, env, literals)
                for _, add, atom, _ in literals:
                    if add and atom is not None and atom not in reached:
                        reached.add(atom)
                grew = True
        self.reached = reached
        return list(kept.values())

    def model(self) -> Planning:
        ground = self.ground()
        atoms = {a: " ".join(a) for a in sorted(self.reached)}
        model = Planning(str(self.problem.name))
        for var in atoms.values():
            model.add_variable(var, 0, 1)
        if not atoms:  # nothing can change: one constant variable keeps the model well formed
            model.add_variable("(nothing changes)", 0, 0)
        model.set_initial({v: int(a in self.init) for a, v in atoms.items()} or
                          {"(nothing changes)": 0})
        costs = "action-costs" in {str(r).lstrip(":") for r in self.domain.requirements}
        for name, action, env, literals in ground:
            guard = self.condition(action.precondition, env, atoms)
            effects: dict[str, Expr] = {}
            cost = 0
            for cond, add, atom, increase in sorted(literals, key=lambda x: x[1]):  # adds last
                cost += increase
                if atom is None or atom not in atoms:
                    continue  # a delete of an atom that never holds
                var = atoms[atom]
                value: Expr = Const(int(add))
                if cond is not None:
                    value = If(self.condition(cond[0], cond[1], atoms), value,
                               effects.get(var, Var(var)))
                effects[var] = value
            model.add_action(name, guard, effects, cost if costs else 1, no_effect_ok=True)
        if not ground:  # no action is ever applicable: the task is its initial state
            model.add_action("(no applicable action)", Const(0), {}, no_effect_ok=True)
        model.set_goal(self.condition(self.problem.goal, {}, atoms))
        return model


def _is_var(term) -> bool:
    return type(term).__name__ == "Variable"


def _atom(pred, env: dict[str, str]) -> tuple[str, ...]:
    return (str(pred.name), *(env.get(str(t.name), str(t.name)) if _is_var(t) else str(t.name)
                              for t in pred.terms))


def _integer(value: Any) -> int:
    number = float(value)
    if number != int(number) or number < 0:
        raise Unsupported(f"cost {value}: only non-negative integers are supported")
    return int(number)


def _positive_atoms(formula) -> list:
    """The atoms of a precondition's top-level conjunction that must hold."""
    kind = type(formula).__name__
    if kind == "Predicate":
        return [formula]
    if kind == "And":
        return [a for f in formula.operands for a in _positive_atoms(f)]
    return []


def _effect_predicates(effect) -> Iterator[str]:
    kind = type(effect).__name__
    if kind == "Predicate":
        yield str(effect.name)
    elif kind == "Not":
        yield from _effect_predicates(effect.argument)
    elif kind == "And":
        for e in effect.operands:
            yield from _effect_predicates(e)
    elif kind in ("When", "Forall"):
        yield from _effect_predicates(effect.effect)
