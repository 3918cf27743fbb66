"""A PDDL task as a puzzle: its states drawn as the atoms that hold, and its conditions (a
guard, the goal) said as the atoms they test; :mod:`.pddl_task` makes one."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..language.combine import If, Or
from ..language.expr import Binary, Const, Expr, ExprLike, Var, readable, wrap
from ..language.walk import same
from ..model import Action, Planning
from .base import Puzzle
from .pddl_schemas import Schemas, StepFault, step_fault

if TYPE_CHECKING:
    from ..answers.result import Result


@dataclass(frozen=True, kw_only=True)
class PddlPuzzle(Puzzle):
    """A grounded PDDL task: states are drawn as their true atoms, in text, JSON and
    pictures, and conditions (a guard, the goal) name the atoms they test."""

    domain_file: str
    problem_file: str
    atoms: tuple[tuple[tuple[str, ...], ...], ...] = ()
    """Per variable, the atoms each value means (none: a negated atom, or none of the
    variable's atoms); empty when every variable is one atom (0/1, named like it)."""
    settled: bool = False
    """The translator settled the task itself: its one variable is a stand-in, whose
    conditions read as they are."""
    schemas: Schemas | None = None
    """The task as its files write it (through the translator; none from the fallback
    grounder): what a plan's step that is no ground action is (:meth:`step_fault`)."""
    unreachable: tuple[str, ...] = ()
    """For a task the translator settled as having no plan: its goal as the problem's
    atoms, and why no plan reaches it (``the translator proves that ...``; ``""``: its
    reason says none) — the stand-in variable says nothing of the atoms."""
    idle: tuple[Action, ...] = ()
    """Ground actions that change nothing (``move rooma rooma``), without effects: kept out
    of the model, as they never help a plan, but legal steps of a plan (:meth:`checking_model`)."""

    def checking_model(self) -> Planning:
        """The model with :attr:`idle`'s actions too, for replaying someone's plan: a name
        that is a model action already (some variants of a disjunctive precondition change
        something, others nothing) is that action, playable where either guard holds."""
        assert isinstance(self.model, Planning)
        if not self.idle:
            return self.model
        model = copy.copy(self.model)
        known = {a.name: i for i, a in enumerate(model.actions)}
        model.actions = list(model.actions)
        for still in self.idle:
            if still.name not in known:
                model.actions.append(still)
                continue
            action = model.actions[known[still.name]]
            effects, cost = merged([(action.guard, dict(action.effects), action.cost),
                                    (still.guard, {}, still.cost)])
            model.actions[known[still.name]] = Action(
                action.name, Or(action.guard, still.guard), tuple(effects.items()), cost)
        return model

    def holds(self, state: tuple[int, ...]) -> list[str]:
        """The atoms that hold in ``state``, as PDDL writes them: ``(at ball1 rooma)``."""
        if self.atoms:
            true = [a for m, v in zip(self.atoms, state) if 0 <= v < len(m) for a in m[v]]
        else:
            true = [n for n, v in zip(self.model.names, state) if v]
        return [f"({a})" for a in true]

    def step_fault(self, written: str, state: tuple[int, ...]) -> StepFault | None:
        """Why the step ``written`` is no ground action in ``state``
        (:func:`~.pddl_schemas.step_fault`), or ``None`` when no reason is found."""
        if self.settled or self.schemas is None:
            return None
        changing = [f"({a})" for m in self.atoms for atoms in m for a in atoms] \
            if self.atoms else [f"({n})" for n in self.model.names]
        return step_fault(self.schemas, written, self.holds(state), changing)

    def render_state(self, state: tuple[int, ...]) -> str:
        """The tracked atoms that hold, one line (:data:`NO_ATOM` when none does)."""
        return " ".join(self.holds(state)) or NO_ATOM

    def json_state(self, state: tuple[int, ...]) -> list[str]:
        """The atoms that hold, a list (``["(at ball1 rooma)", ...]``)."""
        return self.holds(state)

    def state_lines(self, state: tuple[int, ...]) -> tuple[str, ...]:
        """The atoms that hold, one a line."""
        return tuple(self.holds(state)) or (NO_ATOM,)

    def condition_text(self, condition: Expr) -> str:
        """``condition`` with each test of a variable's value said as the atom it means:
        ``(at-robby rooma) and (free left)``."""
        return readable(condition, self._atom_test)

    def goal_text(self) -> str:
        """The goal as its atoms (and, when the translator proved it unreachable, that no
        plan reaches it and why: :attr:`unreachable`)."""
        assert isinstance(self.model, Planning)
        return self.unreachable_goal() or self.condition_text(self.model.goal)

    def unreachable_goal(self) -> str | None:
        """``(at b1 rb), which no plan reaches (the translator proves that ...)`` when the
        translator proved the goal unreachable (:attr:`unreachable`), else None."""
        if not self.unreachable:
            return None
        goal, why = self.unreachable
        return f"{goal}, which no plan reaches" + (f" ({why})" if why else "")

    def message_text(self, result: Result) -> str:
        """A proof that no plan exists of a task the translator settled as having none is
        an invariant of its stand-in variable (``whether the goal can be reached (...) is
        preserved exactly by every action, but it is 0 at the start...``): said instead as
        the translator's proof, by the goal's atoms."""
        if not self.unreachable or result.invariant is None:
            return super().message_text(result)
        goal, why = self.unreachable
        return f"no plan: the goal {goal} cannot be reached" + (f": {why}" if why else "")

    def _atom_test(self, expr: Expr) -> str | None:
        """``x == v`` (or ``x != v`` of a 0/1 variable) as the atom it means, or None."""
        if self.settled or not (isinstance(expr, Binary) and expr.op in ("==", "!=")
                                and isinstance(expr.left, Var)
                                and isinstance(expr.right, Const)):
            return None
        names = self.model.names
        if expr.left.name not in names:
            return None
        i, value = names.index(expr.left.name), expr.right.value
        meaning = self.atoms[i] if self.atoms else ((), (expr.left.name,))
        if not 0 <= value < len(meaning) or any(len(m) > 1 for m in meaning):
            return None
        every = [a for m in meaning for a in m]
        if expr.op == "!=":
            if len(meaning) != 2 or len(every) != 1:
                return None
            value = 1 - value
        if meaning[value]:
            return f"({meaning[value][0]})"
        if len(every) == 1:
            return f"(not ({every[0]}))"
        return "none of " + " ".join(f"({a})" for a in every)


NO_ATOM = "(none of the tracked atoms holds)"
"""A state in which no atom a state variable stands for holds.  Atoms that never change
(the problem's static facts: ``(tok o1)``) and, but for ``validate``, atoms the goal does
not depend on have no state variable (the translator leaves them out), and may hold."""


Variant = tuple[Expr, Mapping[str, Expr], ExprLike]
"""One variant of a PDDL action: its guard, effects (variable -> value) and cost."""


def merged(group: Sequence[Variant]) -> tuple[dict[str, Expr], Expr]:
    """The effects and cost of one action whose variants are ``group`` (the operators the
    translator splits a disjunctive precondition into, an idle variant beside a changing
    one): each the first variant's whose guard holds (the last one's when no earlier guard
    does) — where several hold they are the same PDDL action, with the same result."""
    *earlier, (_, last, last_cost) = group
    cost = wrap(last_cost)
    written = list(dict.fromkeys(var for _, effects, _ in group for var in effects))
    effects = {var: last.get(var, Var(var)) for var in written}
    for guard, mine, own in reversed(earlier):
        effects = {var: _either(guard, mine.get(var, Var(var)), effects[var])
                   for var in written}
        cost = _either(guard, wrap(own), cost)
    return effects, cost


def _either(guard: Expr, then: Expr, other: Expr) -> Expr:
    """``ite(guard, then, other)``, or one of them when they are the same."""
    return then if same(then, other) else If(guard, then, other)
