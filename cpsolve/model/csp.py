"""The constraint model: :class:`Csp`, finite-domain variables and constraints; its
answers are assignments."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..language.expr import Binary, Const, Expr, ExprLike, Var, readable, wrap
from .variables import Domain, ModelError, Variables


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


def named(constraint: Constraint) -> str:
    """How a message names ``constraint``: its label, else what it says — a condition's
    readable text (as a model file's condition is labelled by its text), an all-different
    group's or a circuit's variables — never its class (an unlabelled condition built in
    Python)."""
    if constraint.label:
        return constraint.label
    if isinstance(constraint, Condition):
        return readable(constraint.expr)
    kind = "all-different" if isinstance(constraint, AllDifferent) else "circuit"
    return f"{kind} {', '.join(constraint.names)}"


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


class Csp(Variables):
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
        self.objective = Objective(sense, checked, label or readable(checked))

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

    def values(self, name: str) -> Sequence[int]:
        """Every value a variable may take, in increasing order: the allowed values
        (:meth:`restrict`), else its domain as a ``range`` — never a list of a million
        values for ``0..999999``, whose length, bounds and membership cost nothing."""
        if name in self.allowed:
            return self.allowed[name]
        d = self.domains[name]
        return range(d.lo, d.hi + 1)

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
        expr = self._condition(condition, f"constraint {label or ''}".strip())
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

        ``rows`` 0: a square board, refused when the number of cells is not a square (no
        layout is guessed).  ``use`` names them (:data:`cpsolve.model.symmetry.boards.MOVES`);
        by default every one the board has (8 for a square, 4 for another rectangle).
        """
        from .symmetry.boards import cell_map, names

        if cells and all(isinstance(row, list) for row in cells):  # a 2-D array
            rows, cells = len(cells), [c for row in cells for c in row]
        if rows == 0 and cols is None:
            rows = math.isqrt(len(cells))
            if rows * rows != len(cells):
                raise ModelError(f"{_board_name(cells)} has {len(cells)} cells, not a square: "
                                 "give rows = R")
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


def _board_name(cells: Sequence) -> str:
    """The array a board's cells belong to (``x`` for ``x[0], x[1], ...``), for messages;
    "the board" when they are not one array's."""
    bases = {(c.name if isinstance(c, Var) else str(c)).split("[", 1)[0] for c in cells}
    return bases.pop() if len(bases) == 1 else "the board"
