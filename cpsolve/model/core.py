"""The two generic models: :class:`Csp` and :class:`Planning`.

Models know neither puzzles nor solvers.  A puzzle family (or a user's own
Python file) builds one; every engine consumes one.  Nothing here imports an
engine.

Vocabulary, used everywhere in cpsolve:

* *variable* — a name with a finite integer domain ``lo..hi``;
* *state* — a tuple of values, one per state variable, in declaration order;
* *action* — name, *guard* (condition on the current state), *effects*
  (new values of some variables, as expressions over the current state;
  all other variables keep their values) and *cost* (an expression over the
  current state; 1 by default);
* *plan* — a sequence of action names leading from the initial state to a
  state where the *goal* holds;
* *forbidden* conditions — conditions that no state of a plan may satisfy,
  the initial state included (river crossings: more cannibals than
  missionaries on a bank).  A successor that satisfies one is not reached.

Two rules every engine and the checker share: an action whose effects would
take a variable outside its domain is not applicable in that state, and
action costs are never negative (checked by :meth:`Planning.validate` from
the costs' bounds), so that optimality claims mean what they say.
"""

from __future__ import annotations

import itertools
import math
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..language.expr import (
    Binary,
    Const,
    Expr,
    ExprLike,
    Unary,
    Var,
    bad_divisors,
    bounds,
    children,
    evaluate,
    to_text,
    variables,
    wrap,
)


class ModelError(ValueError):
    """A model that is not well formed (unknown variable, empty domain, ...)."""


MAX_DOMAIN = 1_000_000
"""Most values one variable may take (engines enumerate domains value by value)."""

MAX_VARIABLES = 100_000
"""Most variables one model may declare."""

MAX_ACTIONS = 200_000
"""Most ground actions one planning model may hold."""


MAX_PATTERN_ENTRIES = 1 << 30
"""Largest pattern database (entries: variables ** pattern values) a model may declare."""


MAX_MAGNITUDE = 2 ** 62
"""Largest absolute value any (sub)expression may reach: engines use 64-bit integers."""


def _check_magnitude(expr: Expr, domain: Callable[[str], tuple[int, int]], what: str) -> None:
    """Raise :class:`ModelError` when some subexpression can leave ±:data:`MAX_MAGNITUDE`."""
    stack = [expr]
    while stack:
        node = stack.pop()
        lo, hi = bounds(node, domain)
        if max(-lo, hi) > MAX_MAGNITUDE:
            raise ModelError(f"{what}: values up to {max(-lo, hi):.3g} do not fit in 64-bit "
                             f"integers (at most 2**62 in absolute value)")
        stack.extend(children(node))


def check_size(what: str, size: int, limit: int) -> None:
    """Raise :class:`ModelError` when ``size`` exceeds ``limit`` (checked before building)."""
    if size > limit:
        raise ModelError(f"{what}: {size:,} is more than the {limit:,} a model may have")


@dataclass(frozen=True)
class Domain:
    """The integer interval ``lo..hi`` (both included)."""

    lo: int
    hi: int

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            raise ModelError(f"empty domain {self.lo}..{self.hi}")
        check_size(f"domain {self.lo}..{self.hi}: values", self.hi - self.lo + 1, MAX_DOMAIN)

    def __contains__(self, value: int) -> bool:
        return self.lo <= value <= self.hi

    @property
    def size(self) -> int:
        """Number of values in the domain."""
        return self.hi - self.lo + 1


class _Variables:
    """Ordered named variables with domains, shared by both model kinds."""

    def __init__(self) -> None:
        self.domains: dict[str, Domain] = {}

    def add_variable(self, name: str, lo: int, hi: int) -> Var:
        """Declare a variable with domain ``lo..hi`` and return a reference to it."""
        if name in self.domains:
            raise ModelError(f"variable {name!r} is declared twice")
        check_size("variables", len(self.domains) + 1, MAX_VARIABLES)
        self.domains[name] = Domain(int(lo), int(hi))
        return Var(name)

    def add_array(self, name: str, size: int | Sequence[int], lo: int, hi: int) -> list:
        """Declare ``name[0] .. name[size-1]`` with one domain; with a shape
        (``(rows, cols)``, any number of sizes) ``name[r][c]``, row by row, returned
        as nested lists (``x[r][c]``)."""
        shape = (size,) if isinstance(size, int) else tuple(int(n) for n in size)
        if not shape or min(shape) < 1:
            raise ModelError(f"array {name}: sizes must be at least 1, not {size!r}")
        check_size(f"array {name}: variables", len(self.domains) + math.prod(shape),
                   MAX_VARIABLES)

        def level(prefix: str, rest: tuple[int, ...]) -> list:
            if len(rest) == 1:
                return [self.add_variable(f"{prefix}[{i}]", lo, hi) for i in range(rest[0])]
            return [level(f"{prefix}[{i}]", rest[1:]) for i in range(rest[0])]

        return level(name, shape)

    @property
    def names(self) -> list[str]:
        """Variable names in declaration order."""
        return list(self.domains)

    def domain(self, name: str) -> tuple[int, int]:
        """``(lo, hi)`` of a variable."""
        d = self.domains[name]
        return d.lo, d.hi

    def _check_expr(self, expr: Expr, what: str) -> Expr:
        unknown = [v for v in variables(expr) if v not in self.domains]  # O(expr), not O(model)
        if unknown:
            raise ModelError(f"{what}: unknown variable(s) {', '.join(sorted(unknown))}")
        wrong = bad_divisors(expr)
        if wrong:
            raise ModelError(f"{what}: {to_text(wrong[0])}: // and % divide by a positive "
                             "constant only")
        _check_magnitude(expr, self.domain, what)
        return expr


# ---------------------------------------------------------------- Csp


@dataclass(frozen=True)
class AllDifferent:
    """The listed variables take pairwise different values."""

    names: tuple[str, ...]
    label: str = ""


@dataclass(frozen=True)
class Condition:
    """A boolean expression that must hold."""

    expr: Expr
    label: str = ""


@dataclass(frozen=True)
class Circuit:
    """Successor variables forming one cycle through every node.

    ``names[i]`` is the successor variable of node ``i``; its value is the
    index of the next node.  An open path is modelled by the caller as a
    circuit through an extra node.
    """

    names: tuple[str, ...]
    label: str = ""


Constraint = AllDifferent | Condition | Circuit


@dataclass(frozen=True)
class CspSymmetry:
    """A declared symmetry of a CSP's rules: the value of variable ``x`` moves to
    ``variables[x]`` (itself when absent) and is renamed by ``values`` (itself when absent).

    Declaring is a claim; :mod:`cpsolve.model.symmetry.declared` checks that the
    symmetry maps the set of constraints onto itself before anything uses it.
    """

    name: str
    variables: Mapping[str, str]
    values: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Objective:
    """What a csp asks to optimise: ``sense`` (``"minimize"`` or ``"maximize"``) of
    ``expr``; ``label`` is how it reads."""

    sense: str
    expr: Expr
    label: str = ""

    @property
    def minimizing(self) -> bool:
        """True for ``minimize``."""
        return self.sense == "minimize"


class Csp(_Variables):
    """Finite-domain variables and constraints; answers are assignments."""

    def __init__(self, name: str = "csp") -> None:
        super().__init__()
        self.name = name
        self.constraints: list[Constraint] = []
        self.allowed: dict[str, tuple[int, ...]] = {}
        self.symmetries: list[CspSymmetry] = []
        self.objective: Objective | None = None
        self.clues: tuple[str, ...] = ()
        """The variables a generated puzzle may give (empty: every variable)."""

    kind = "csp"

    def declare_clues(self, names: Iterable[Var | str]) -> None:
        """Name the variables ``generate`` may give as clues (the others are never shown)."""
        out = tuple(dict.fromkeys(n.name if isinstance(n, Var) else n for n in names))
        for name in out:
            self._require(name)
        if not out:
            raise ModelError("no clue variables: name at least one")
        self.clues = out

    def minimize(self, expr: ExprLike, label: str = "") -> None:
        """Ask for a solution of least ``expr`` (one objective per model)."""
        self._set_objective("minimize", expr, label)

    def maximize(self, expr: ExprLike, label: str = "") -> None:
        """Ask for a solution of greatest ``expr`` (one objective per model)."""
        self._set_objective("maximize", expr, label)

    def _set_objective(self, sense: str, expr: ExprLike, label: str) -> None:
        if self.objective is not None:
            raise ModelError(f"a second objective ({sense}): a model has at most one")
        checked = self._check_expr(wrap(expr), f"objective {label}".strip())
        self.objective = Objective(sense, checked, label or to_text(checked))

    def with_objective(self, value: int) -> Csp:
        """A copy of this model whose solutions are the ones with objective ``value``
        (and no objective): counting it counts the optimal solutions."""
        if self.objective is None:
            raise ModelError("the model has no objective")
        copy = Csp(self.name)
        copy.domains, copy.allowed = dict(self.domains), dict(self.allowed)
        copy.constraints = [*self.constraints, Condition(
            Binary("==", self.objective.expr, Const(int(value))), "optimal objective")]
        copy.symmetries = list(self.symmetries)
        copy.clues = self.clues
        return copy

    def restrict(self, var: Var | str, values: Iterable[int]) -> None:
        """Allow only ``values`` (a subset of the domain) for a variable."""
        name = var.name if isinstance(var, Var) else var
        self._require(name)
        vals = tuple(sorted(set(int(v) for v in values)))
        if not vals:
            raise ModelError(f"variable {name!r}: no allowed values")
        self.domains[name] = Domain(vals[0], vals[-1])
        if len(vals) != self.domains[name].size:
            self.allowed[name] = vals

    def values(self, name: str) -> tuple[int, ...]:
        """Every value a variable may take."""
        if name in self.allowed:
            return self.allowed[name]
        d = self.domains[name]
        return tuple(range(d.lo, d.hi + 1))

    def all_different(self, vars: Sequence[Var | str], label: str = "") -> None:
        """Require pairwise different values."""
        names = tuple(v.name if isinstance(v, Var) else v for v in vars)
        for n in names:
            self._require(n)
        if len(set(names)) != len(names):
            raise ModelError(f"all-different {label or names}: a variable is listed twice")
        self.constraints.append(AllDifferent(names, label))

    def require(self, condition: ExprLike, label: str = "") -> None:
        """Require a boolean expression to hold."""
        expr = self._check_expr(wrap(condition), f"constraint {label or ''}".strip())
        self.constraints.append(Condition(expr, label))

    def fix(self, var: Var | str, value: int) -> None:
        """A given: the variable takes ``value``."""
        name = var.name if isinstance(var, Var) else var
        self._require(name)
        if value not in self.domains[name] or (
            name in self.allowed and value not in self.allowed[name]
        ):
            raise ModelError(f"given {name} = {value} is outside its domain")
        self.constraints.append(Condition(Binary("==", Var(name), Const(int(value))), "given"))

    def circuit(self, vars: Sequence[Var | str], label: str = "") -> None:
        """Require the successor variables to form a single circuit."""
        names = tuple(v.name if isinstance(v, Var) else v for v in vars)
        for n in names:
            self._require(n)
        self.constraints.append(Circuit(names, label))

    def _require(self, name: str) -> None:
        if name not in self.domains:
            raise ModelError(f"unknown variable {name!r}")

    def add_symmetry(self, variables: Mapping[Var | str, Var | str] | None = None,
                     values: Mapping[int, int] | None = None, name: str = "") -> CspSymmetry:
        """Declare a symmetry: variable ``x``'s value moves to ``variables[x]`` and is renamed
        by ``values`` (both default to the identity; e.g. ``values={v: 7 - v ...}``).

        ``count --up-to symmetry`` and generation use the group the declared
        symmetries generate, once :mod:`cpsolve.model.symmetry.declared` has checked
        that each maps the constraints onto themselves.
        """
        perm: dict[str, str] = {}
        for x, y in (variables or {}).items():
            xn = x.name if isinstance(x, Var) else str(x)
            yn = y.name if isinstance(y, Var) else str(y)
            self._require(xn)
            self._require(yn)
            if xn != yn:
                perm[xn] = yn
        if sorted(perm) != sorted(perm.values()):
            raise ModelError(f"symmetry {name or len(self.symmetries) + 1}: the variable map "
                             "is not a permutation (each variable must be the image of one)")
        vmap = {int(a): int(b) for a, b in (values or {}).items() if int(a) != int(b)}
        if sorted(vmap) != sorted(vmap.values()):
            raise ModelError(f"symmetry {name or len(self.symmetries) + 1}: the value map is "
                             "not a permutation of values")
        item = CspSymmetry(name or f"symmetry {len(self.symmetries) + 1}", perm, vmap)
        self.symmetries.append(item)
        return item

    def board_symmetries(self, cells: Sequence, rows: int = 0, cols: int | None = None,
                         use: Iterable[str] | None = None) -> list[CspSymmetry]:
        """Declare rotations and reflections of variables laid out as a board, row by row
        (or of a 2-D array from :meth:`add_array`, whose shape gives ``rows``).

        ``use`` names them (:data:`cpsolve.model.symmetry.boards.MOVES`); by default every one
        the board has (8 for a square, 4 for another rectangle).
        """
        from .symmetry.boards import cell_map, names

        if cells and all(isinstance(row, list) for row in cells):  # a 2-D array
            rows, cells = len(cells), [c for row in cells for c in row]
        cols = len(cells) // rows if cols is None else cols
        if rows < 1 or cols < 1 or rows * cols != len(cells):
            raise ModelError(f"a board of {rows} rows and {cols} columns has {rows * cols} "
                             f"cells, not {len(cells)}")
        cell_names = [c.name if isinstance(c, Var) else c for c in cells]
        out = []
        for sym in (names(rows, cols) if use is None else list(use)):
            try:
                where = cell_map(sym, rows, cols)
            except ValueError as err:
                raise ModelError(str(err)) from None
            if sym != "identity":
                out.append(self.add_symmetry(
                    {cell_names[i]: cell_names[j] for i, j in enumerate(where)}, name=sym))
        return out

    def uses(self) -> set[str]:
        """Constraint kinds this model uses (engines declare what they support)."""
        return {type(c).__name__ for c in self.constraints}


# ---------------------------------------------------------------- Planning


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


class Planning(_Variables):
    """A transition system: state variables, initial state, goal and actions."""

    kind = "planning"

    def __init__(self, name: str = "planning") -> None:
        super().__init__()
        self.name = name
        self.initial: dict[str, int] = {}
        self.goal: Expr = Const(1)
        self.actions: list[Action] = []
        self._action_names: set[str] = set()
        self.estimate: Expr | None = None
        self.patterns: list[tuple[int, ...]] = []
        self.parity: Expr | None = None
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
                    f"initial state: {name} = {value} is outside its domain {d.lo}..{d.hi}"
                )
        self.initial = {n: int(values[n]) for n in self.domains}

    def set_goal(self, condition: ExprLike) -> None:
        """Set the goal condition."""
        self.goal = self._check_expr(wrap(condition), "goal")

    def add_action(
        self,
        name: str,
        guard: ExprLike = True,
        effects: Mapping[str | Var, ExprLike] | None = None,
        cost: ExprLike = 1,
    ) -> Action:
        """Add one ground action."""
        if name in self._action_names:
            raise ModelError(f"action {name!r} is declared twice")
        check_size("ground actions", len(self.actions) + 1, MAX_ACTIONS)
        eff: list[tuple[str, Expr]] = []
        for var, value in (effects or {}).items():
            vname = var.name if isinstance(var, Var) else var
            if vname not in self.domains:
                raise ModelError(f"action {name!r}: effect on unknown variable {vname!r}")
            eff.append((vname, self._check_expr(wrap(value), f"action {name!r}")))
        if len({v for v, _ in eff}) != len(eff):
            raise ModelError(f"action {name!r}: a variable is assigned twice")
        action = Action(
            name,
            self._check_expr(wrap(guard), f"action {name!r}"),
            tuple(eff),
            self._check_expr(wrap(cost), f"action {name!r} cost"),
        )
        self.actions.append(action)
        self._action_names.add(name)
        return action

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
        filters combinations (``lambda i, j: i != j``).
        """
        out = []
        check_size(f"actions {name!r}: parameter combinations", combinations(over), MAX_ACTIONS)
        for binding in expand(over):
            if where is not None and not where(**binding):
                continue
            parts = build(**binding)
            out.append(self.add_action(format_name(name, binding), *parts))
        return out

    def forbid(self, condition: ExprLike, label: str = "") -> Forbidden:
        """Declare a condition no state may satisfy (the initial state included).

        Every engine treats a successor that satisfies it as unreachable, and
        the checker refuses a plan that passes through such a state.
        """
        expr = self._check_expr(wrap(condition), f"forbidden {label or ''}".strip())
        item = Forbidden(expr, label or to_text(expr))
        self.forbidden.append(item)
        return item

    def invariant(self, condition: ExprLike, label: str = "") -> Forbidden:
        """Declare a condition every state must satisfy: :meth:`forbid` of its negation."""
        expr = wrap(condition)
        return self.forbid(Unary("not", expr), label or f"breaks the invariant {to_text(expr)}")

    def set_estimate(self, estimate: ExprLike) -> None:
        """Declare an admissible estimate: a lower bound on the cost still to pay.

        It must never exceed the true remaining cost from any state (0 at a
        goal).  Engines use it to prune (A*, IDA*, a per-step bound in CP-SAT);
        tests check it against exhaustive search on small models.
        """
        self.estimate = self._check_expr(wrap(estimate), "estimate")

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
        for item in self.forbidden:
            if evaluate(item.expr, self.initial):
                raise ModelError(f"the initial state is forbidden: {item.label}")
        if not self.actions:
            raise ModelError("the model has no actions (no move is possible)")
        for action in self.actions:
            if bounds(action.cost, self.domain)[0] < 0:
                raise ModelError(f"action {action.name!r}: its cost may be negative; "
                                 "costs must be >= 0")


_SPEC = re.compile(r"[<>^]?\d{0,3}\Z")
MAX_NAME_WIDTH = 200


def format_name(template: str, values: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` or ``{name:WIDTH}`` replaced by ``values[name]``.

    Only plain fields are allowed (no attributes, indexes or conversions) and
    widths of at most :data:`MAX_NAME_WIDTH`, so a name can neither read
    attributes of its values nor grow huge; anything else raises
    :class:`ModelError` saying which placeholder is wrong.
    """
    out = []
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as err:
        raise ModelError(f"bad placeholder in {template!r}: {err}") from None
    for literal, field_name, spec, conversion in parts:
        out.append(literal)
        if field_name is None:
            continue
        if field_name not in values:
            known = ", ".join(sorted(values)) or "none"
            raise ModelError(f"placeholder {{{field_name}}} names no parameter (known: {known})")
        if conversion or not _SPEC.match(spec or "") or \
                int(re.sub(r"\D", "", spec or "") or 0) > MAX_NAME_WIDTH:
            raise ModelError(f"placeholder {{{field_name}{'!' + conversion if conversion else ''}"
                             f"{':' + spec if spec else ''}}}: only {{name}} or {{name:WIDTH}} "
                             f"with WIDTH <= {MAX_NAME_WIDTH} is allowed")
        out.append(format(values[field_name], spec or ""))
    return "".join(out)


def combinations(over: Mapping[str, Iterable[int]]) -> int:
    """How many bindings :func:`expand` would make (computed without making them)."""
    return math.prod(len(list(values)) for values in over.values())


def expand(over: Mapping[str, Iterable[int]]) -> list[dict[str, int]]:
    """Every combination of parameter values, in order."""
    keys = list(over)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(list(over[k]) for k in keys))]


Model = Csp | Planning
