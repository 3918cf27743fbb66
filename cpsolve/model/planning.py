"""The planning model: :class:`Planning`, a transition system of state variables, an
initial state, a goal and ground actions; its answers are plans."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..language.expr import Const, Expr, ExprLike, Unary, Var, readable, wrap
from ..language.fold import keeps
from ..language.interpret import evaluate
from ..language.intervals import bounds
from ..language.quoting import figure
from ..language.walk import variables
from .claims import Parity
from .naming import combinations, expand, format_name, same_name
from .variables import MAX_ACTIONS, MAX_PATTERN_ENTRIES, ModelError, Variables, check_size


@dataclass(frozen=True, eq=False)
class Action:
    """A ground action: guard, effects (variable -> new value) and cost."""

    name: str
    guard: Expr
    effects: tuple[tuple[str, Expr], ...]
    cost: Expr = field(default_factory=lambda: Const(1))

    def reads(self) -> set[str]:
        """Variables the guard, effects or cost look at."""
        out = variables(self.guard) | variables(self.cost)
        for _, e in self.effects:
            out |= variables(e)
        return out

    def writes(self) -> set[str]:
        """Variables the action may change."""
        return {v for v, _ in self.effects}


@dataclass(frozen=True, eq=False)
class Forbidden:
    """A condition no state may satisfy; ``label`` says it in words (or as text)."""

    expr: Expr
    label: str = ""
    kept: Expr | None = None
    """The condition an :meth:`Planning.invariant` declared (``expr`` is its negation)."""


class Planning(Variables):
    """A transition system: state variables, initial state, goal and actions."""

    kind = "planning"

    def __init__(self, name: str = "planning") -> None:
        super().__init__()
        self.name = name
        self.initial: dict[str, int] = {}
        self.goal: Expr = Const(1)
        self.goal_set = False
        """Whether :meth:`set_goal` was called: :meth:`validate` refuses a model without."""
        self.actions: list[Action] = []
        self._action_names: set[str] = set()
        self.estimate: Expr | None = None
        self.estimate_vouched = False
        """The estimate is admissible by its construction (:meth:`set_estimate`)."""
        self.patterns: list[tuple[int, ...]] = []
        self.parity: Expr | None = None
        self.unsolvable: Parity | None = None
        """A family's own argument that no plan exists (:meth:`set_unsolvable`)."""
        self.symmetries: list[dict[str, str]] = []
        self.forbidden: list[Forbidden] = []

    def set_initial(self, values: Mapping[str, int]) -> None:
        """Set the initial value of every state variable."""
        missing = self.domains.keys() - values.keys()
        extra = values.keys() - self.domains.keys()
        if extra:
            raise ModelError(f"initial state: unknown variable(s) {', '.join(sorted(extra))}")
        if missing:
            raise ModelError(f"initial state: no value for {', '.join(sorted(missing))}")
        for name, value in values.items():
            if int(value) not in self.domains[name]:
                d = self.domains[name]
                raise ModelError(
                    f"initial state: {name} = {figure(int(value), False)} is outside its domain {d}"
                )
        self.initial = {n: int(values[n]) for n in self.domains}

    def set_goal(self, condition: ExprLike) -> None:
        """Set the goal condition."""
        self.goal = self._condition(condition, "goal")
        self.goal_set = True

    def add_action(
        self,
        name: str,
        guard: ExprLike = True,
        effects: Mapping[str | Var, ExprLike] | None = None,
        cost: ExprLike = 1,
        *,
        no_effect_ok: bool = False,
    ) -> Action:
        """Add one ground action (a :class:`ModelError` says which argument is wrong in its
        ``part``: ``name``, ``guard``, ``effects`` or ``cost``).

        An action changes the state: one without ``effects`` (an effect that keeps its
        variable, ``{x: x}``, ``{x: x + 0}``, whatever folds to ``x``:
        :func:`~cpsolve.language.fold.keeps`, is left out) is refused, unless
        ``no_effect_ok`` (a reader of another system's tasks, whose actions may change
        nothing: a PDDL action with only static effects, or none).
        """
        if name in self._action_names:
            raise ModelError(f"action {name!r} is declared twice", "name")
        check_size("ground actions", len(self.actions) + 1, MAX_ACTIONS)
        eff: list[tuple[str, Expr]] = []
        for var, value in (effects or {}).items():
            vname = var.name if isinstance(var, Var) else var
            if vname not in self.domains:
                raise ModelError(f"action {name!r}: effect on unknown variable {vname!r}",
                                 "effects")
            new = self._part_checked(value, f"action {name!r}", "effects")
            if not keeps(new, vname):  # x := x (or x + 0, x * 1...) changes nothing
                eff.append((vname, new))
        if not eff and not no_effect_ok:
            raise ModelError(f"action {name!r} changes nothing: an action must change the "
                             "state (give it at least one effect)", "effects")
        if len({v for v, _ in eff}) != len(eff):
            raise ModelError(f"action {name!r}: a variable is assigned twice", "effects")
        action = Action(
            name,
            self._part_checked(guard, f"action {name!r}", "guard", condition=True),
            tuple(eff),
            self._part_checked(cost, f"action {name!r} cost", "cost"),
        )
        self.actions.append(action)
        self._action_names.add(name)
        return action

    def _part_checked(self, value: ExprLike, what: str, part: str,
                      condition: bool = False) -> Expr:
        """``value`` as a checked expression (:meth:`_check_expr`), or a checked condition
        (:meth:`_condition`); refused, its :class:`ModelError` names ``part``."""
        try:
            return self._condition(value, what) if condition else \
                self._check_expr(wrap(value), what)
        except ModelError as err:
            raise ModelError(str(err), part) from None

    def add_actions(
        self,
        name: str,
        over: Mapping[str, Iterable[int]],
        build: Callable[..., tuple[ExprLike, Mapping[str | Var, ExprLike]]
                        | tuple[ExprLike, Mapping[str | Var, ExprLike], ExprLike]],
        where: Callable[..., bool] | None = None,
    ) -> list[Action]:
        """Expand a parameterised action over every combination of parameters.

        ``name`` is a format string (``"pour {i} into {j}"``); ``build(**params)``
        returns ``(guard, effects)`` or ``(guard, effects, cost)``; ``where``
        filters combinations (``lambda i, j: i != j``).  The expanded names must differ: a
        ``name`` that leaves out a parameter that varies is refused (:func:`same_name`)
        before any action is added.
        """
        check_size(f"actions {name!r}: parameter combinations", combinations(over), MAX_ACTIONS)
        named: dict[str, dict[str, int]] = {}  # each name given, by its binding
        for binding in expand(over):
            if where is not None and not where(**binding):
                continue
            label = format_name(name, binding)
            if label in named:  # before any is added: a refused name leaves the model as it was
                raise ModelError(same_name(name, label, named[label], binding), "name")
            named[label] = binding
        return [self.add_action(label, *build(**binding)) for label, binding in named.items()]

    def forbid(self, condition: ExprLike, label: str = "") -> Forbidden:
        """Declare a condition no state may satisfy (the initial state included).

        Every engine treats a successor that satisfies it as unreachable, and
        the checker refuses a plan that passes through such a state.
        """
        expr = self._condition(condition, f"forbidden {label or ''}".strip())
        return self._forbidden(Forbidden(expr, label or readable(expr)))

    def _forbidden(self, item: Forbidden) -> Forbidden:
        self.forbidden.append(item)
        return item

    def invariant(self, condition: ExprLike, label: str = "") -> Forbidden:
        """Declare a condition every state must satisfy: :meth:`forbid` of its negation."""
        expr = self._condition(condition, f"invariant {label or ''}".strip())
        return self._forbidden(Forbidden(Unary("not", expr),
                                         label or f"breaks the invariant {readable(expr)}", expr))

    def set_estimate(self, estimate: ExprLike, *, vouched: bool = False) -> None:
        """Declare an admissible estimate: a lower bound on the cost still to pay.

        It must never exceed the true remaining cost from any state (0 at a
        goal).  Engines use it to prune (A*, IDA*, a per-step bound in CP-SAT), after
        :func:`cpsolve.engines.estimates.audit` has checked it where the reachable states
        are few enough.  ``vouched``: the estimate is admissible by its construction (a
        family's Manhattan distance or box distances, tested against breadth-first
        search), so it is not audited and proofs that use it are not qualified.
        """
        self.estimate = self._check_expr(wrap(estimate), "estimate")
        self.estimate_vouched = vouched

    def set_patterns(self, patterns: Sequence[Iterable[int]]) -> None:
        """Declare value patterns for pattern-database estimates (disjoint sets of values).

        Each pattern keeps its values and turns every other value (except the
        ones the actions test or write as constants) into one "don't care"
        value; the distances in that abstract space are a lower bound on the
        true ones.  The search engine builds the tables and derives whether
        they may be added (see :mod:`cpsolve.engines.search.planning.pdb`).
        """
        out: list[tuple[int, ...]] = []
        seen: set[int] = set()
        for k, pattern in enumerate(patterns):
            values = tuple(sorted({int(v) for v in pattern}))
            if not values:
                raise ModelError(f"pattern {k + 1} is empty")
            if seen & set(values):
                raise ModelError(f"pattern {k + 1}: value {min(seen & set(values))} is in "
                                 "an earlier pattern too (patterns must be disjoint)")
            seen |= set(values)
            entries = len(self.domains) ** len(values)
            if entries > MAX_PATTERN_ENTRIES:
                raise ModelError(f"pattern {k + 1}: {len(values)} values over "
                                 f"{len(self.domains)} variables make a table of {entries:,} "
                                 f"entries (at most {MAX_PATTERN_ENTRIES:,})")
            out.append(values)
        self.patterns = out

    def set_parity(self, parity: ExprLike) -> None:
        """Declare an expression that every action changes by an odd amount.

        Then a plan's length has the parity of ``parity(goal) - parity(start)``
        and engines may skip horizons of the wrong parity.
        """
        self.parity = self._check_expr(wrap(parity), "parity")

    def set_unsolvable(self, argument: Parity) -> None:
        """Declare an argument that no plan exists, as a family states it (the sliding
        puzzles' permutation parity, :class:`~cpsolve.model.invariants.Parity`).

        It travels with the model: :func:`cpsolve.engines.run` answers every planning solve
        and count with it before any engine starts
        (:func:`cpsolve.engines.argued`), and the independent checker re-derives
        every part of it from the model first, so a wrong claim is an
        :class:`~cpsolve.answers.result.EngineBug`, never an answer.  Its cells must be
        state variables.
        """
        unknown = [c for c in argument.cells if c not in self.domains]
        if unknown:
            raise ModelError(f"unsolvable: unknown variable(s) {', '.join(unknown)}")
        self.unsolvable = argument

    def add_symmetry(self, mapping: Mapping[str, str]) -> None:
        """Declare a permutation of the state variables that maps the actions onto themselves.

        State ``s`` and its image (value of ``v`` moved to ``mapping[v]``) then
        have the same future up to the permutation; engines may merge them
        when the goal is invariant too (they check that themselves).
        """
        if set(mapping) != set(self.domains) or set(mapping.values()) != set(self.domains):
            raise ModelError("a symmetry must permute all the state variables")
        self.symmetries.append(dict(mapping))

    # -- helpers every engine may use (they are facts about the model)

    def state(self, values: Mapping[str, int]) -> tuple[int, ...]:
        """The state tuple of an assignment."""
        return tuple(values[n] for n in self.domains)

    def assignment(self, state: Sequence[int]) -> dict[str, int]:
        """The assignment of a state tuple."""
        return dict(zip(self.domains, state))

    def initial_state(self) -> tuple[int, ...]:
        """The initial state as a tuple."""
        if not self.initial:
            raise ModelError("the model has no initial state")
        return self.state(self.initial)

    def unit_costs(self) -> bool:
        """True when every action costs exactly 1."""
        return all(isinstance(a.cost, Const) and a.cost.value == 1 for a in self.actions)

    def validate(self) -> None:
        """Raise :class:`ModelError` unless the model is complete."""
        if not self.domains:
            raise ModelError("the model has no state variables")
        self.initial_state()
        if not self.goal_set:
            raise ModelError("the model has no goal: call set_goal(condition), "
                             "e.g. set_goal(x == 3)")
        for item in self.forbidden:
            if evaluate(item.expr, self.initial):
                read = variables(item.expr)
                values = ", ".join(f"{n} = {self.initial[n]}" for n in self.domains if n in read)
                if item.kept is not None:  # what must hold: the initial state breaks it
                    raise ModelError(f"the initial state breaks the invariant "
                                     f"{readable(item.kept)} ({values})")
                raise ModelError(f"the initial state is forbidden: {item.label} ({values})")
        for action in self.actions:
            if bounds(action.cost, self.domain)[0] < 0:
                raise ModelError(f"action {action.name!r}: its cost may be negative; "
                                 "costs must be >= 0")
