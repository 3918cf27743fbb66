"""Compile cpsolve expression trees into CP-SAT variables and constraints.

A :class:`Compiler` works over one *environment*: a mapping from model
variable names to CP-SAT integer variables or to plain ints (a variable whose
value is already known, such as the initial state of a plan).  It offers three
views of a tree:

* :meth:`Compiler.integer` — a linear expression (or an int) equal to the
  tree's value; auxiliary variables are created for ``min``, ``max``, ``abs``,
  ``ite`` and non-linear products, each fully defined by its operands;
* :meth:`Compiler.literal` — a literal (or a bool) that is true exactly when
  the tree's value is non-zero (full reification);
* :meth:`Compiler.post` — require the tree to be true, optionally only when
  some literals hold, without reifying what need not be reified.

Every auxiliary variable is a function of the environment's variables, so
enumerating solutions never counts one assignment twice.  Subtrees whose value
is known (constants, known variables, comparisons decided by the operands'
bounds) are folded to Python values and create nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from ...language.expr import MIRRORED, Binary, Const, Expr, IfThenElse, Nary, Unary, Var, is_boolean
from ...language.intervals import bounds
from .library import cp_model
from .relations import NEGATED, decided, relation

Term = int | cp_model.LinearExpr
"""An integer view: a Python int (folded) or a CP-SAT linear expression."""
Lit = bool | cp_model.IntVar | cp_model.NotBooleanVariable
"""A boolean view: a Python bool (folded) or a CP-SAT literal."""

def negate(lit: Lit) -> Lit:
    """The negation of a literal or of a folded bool."""
    return (not lit) if isinstance(lit, bool) else ~lit


class Compiler:
    """Compiles trees over one environment into one :class:`cp_model.CpModel`.

    ``domain(name)`` gives ``(lo, hi)`` for the environment's variables;
    ``literals`` is a cache of reified single-variable comparisons, keyed by
    ``(variable index, op, value)``, that may be shared by several compilers
    on the same model.  ``one_hot`` gives, for some variables, a literal per
    value (``name -> value -> literal`` for ``name == value``): comparisons of
    such a variable with a constant use them instead of new literals.
    """

    def __init__(
        self,
        model: cp_model.CpModel,
        env: Mapping[str, Term],
        domain: Callable[[str], tuple[int, int]],
        literals: dict[tuple[int, str, int], Lit] | None = None,
        one_hot: Mapping[str, Mapping[int, Lit]] | None = None,
    ) -> None:
        self.model = model
        self.one_hot = one_hot or {}
        self.env = env
        self._domain = domain
        self.literals: dict[tuple[int, str, int], Lit] = {} if literals is None else literals
        self._ints: dict[int, tuple[Expr, Term]] = {}
        self._lits: dict[int, tuple[Expr, Lit]] = {}
        self._bounds: dict[int, tuple[Expr, tuple[int, int]]] = {}

    # ------------------------------------------------------------ helpers

    def domain(self, name: str) -> tuple[int, int]:
        """Bounds of a variable of the environment (a point when it is known)."""
        value = self.env[name]
        if isinstance(value, int):
            return value, value
        return self._domain(name)

    def bounds(self, expr: Expr) -> tuple[int, int]:
        """An interval containing every value ``expr`` takes here."""
        hit = self._bounds.get(id(expr))
        if hit is None:
            hit = (expr, bounds(expr, self.domain))
            self._bounds[id(expr)] = hit
        return hit[1]

    def new_int(self, lo: int, hi: int) -> cp_model.IntVar:
        """A fresh auxiliary integer variable."""
        return self.model.new_int_var(lo, hi, "")

    def as_var(self, term: Term, lo: int, hi: int) -> cp_model.IntVar:
        """``term`` as a single variable (a fresh one equal to it if need be)."""
        if isinstance(term, cp_model.IntVar):
            return term
        var = self.new_int(lo, hi)
        self.model.add(var == term)
        return var

    def fail(self, only_if: Iterable[Lit] = ()) -> None:
        """Post *false*: the enforcement literals cannot all hold."""
        self.clause([], only_if)

    # ------------------------------------------------------------ integer view

    def integer(self, expr: Expr) -> Term:
        """A linear expression (or an int) equal to the value of ``expr``."""
        hit = self._ints.get(id(expr))
        if hit is None:
            hit = (expr, self._integer(expr))
            self._ints[id(expr)] = hit
        return hit[1]

    def _integer(self, expr: Expr) -> Term:
        if isinstance(expr, Const):
            return expr.value
        if isinstance(expr, Var):
            return self.env[expr.name]
        if is_boolean(expr):
            lit = self.literal(expr)
            return int(lit) if isinstance(lit, bool) else lit
        lo, hi = self.bounds(expr)
        if lo == hi:
            return lo
        if isinstance(expr, Unary):
            return self._unary(expr, lo, hi)
        if isinstance(expr, Binary):
            left, right = self.integer(expr.left), self.integer(expr.right)
            if expr.op == "+":
                return left + right
            if expr.op == "-":
                return left - right
            if expr.op in ("//", "%"):
                return self._divide(expr, left, right)
            return self._product(expr, left, right, lo, hi)
        if isinstance(expr, Nary):
            return self._min_max(expr, lo, hi)
        if isinstance(expr, IfThenElse):
            return self._ite(expr, lo, hi)
        raise TypeError(f"unknown expression node {expr!r}")

    def _unary(self, expr: Unary, lo: int, hi: int) -> Term:
        arg = self.integer(expr.arg)
        if expr.op == "-":
            return -arg
        if isinstance(arg, int):
            return abs(arg)
        a_lo, a_hi = self.bounds(expr.arg)
        if a_lo >= 0:
            return arg
        if a_hi <= 0:
            return -arg
        out = self.new_int(lo, hi)
        self.model.add_abs_equality(out, arg)
        return out

    def _product(self, expr: Binary, left: Term, right: Term, lo: int, hi: int) -> Term:
        if isinstance(left, int) or isinstance(right, int):
            return left * right
        for flag, other in ((expr.left, right), (expr.right, left)):
            if is_boolean(flag):  # a condition times a number: a guarded copy
                return self._choose(self.literal(flag), other, 0, lo, hi)
        factors = [self.as_var(t, *self.bounds(e))
                   for t, e in ((left, expr.left), (right, expr.right))]
        out = self.new_int(lo, hi)
        self.model.add_multiplication_equality(out, factors)
        return out

    def _divide(self, expr: Binary, left: Term, right: Term) -> Term:
        """Floor quotient or remainder by a positive constant ``c``, through the quotient
        ``q`` defined by ``c*q <= a <= c*q + c - 1`` (Python's meaning for negative ``a``)."""
        if not isinstance(right, int) or right <= 0:
            raise TypeError("// and % divide by a positive constant only")
        if isinstance(left, int):
            return left // right if expr.op == "//" else left % right
        a_lo, a_hi = self.bounds(expr.left)
        q = self.new_int(a_lo // right, a_hi // right)
        self.model.add(right * q <= left)
        self.model.add(left <= right * q + right - 1)
        return q if expr.op == "//" else left - right * q

    def _min_max(self, expr: Nary, lo: int, hi: int) -> Term:
        pick = min if expr.op == "min" else max
        terms = [self.integer(a) for a in expr.args]
        known = [t for t in terms if isinstance(t, int)]
        rest = [t for t in terms if not isinstance(t, int)]
        if known:
            rest.append(pick(known))
        if len(rest) == 1:
            return rest[0]
        out = self.new_int(lo, hi)
        if expr.op == "min":
            self.model.add_min_equality(out, rest)
        else:
            self.model.add_max_equality(out, rest)
        return out

    def _ite(self, expr: IfThenElse, lo: int, hi: int) -> Term:
        cond = self.literal(expr.cond)
        if isinstance(cond, bool):
            return self.integer(expr.then if cond else expr.otherwise)
        return self._choose(cond, self.integer(expr.then), self.integer(expr.otherwise), lo, hi)

    def _choose(self, cond: Lit, then: Term, otherwise: Term, lo: int, hi: int) -> Term:
        """``then`` when ``cond`` holds, else ``otherwise``."""
        if isinstance(cond, bool):
            return then if cond else otherwise
        if isinstance(then, int) and isinstance(otherwise, int):
            return otherwise + (then - otherwise) * cond
        out = self.new_int(lo, hi)
        self.model.add(out == then).only_enforce_if(cond)
        self.model.add(out == otherwise).only_enforce_if(negate(cond))
        return out

    # ------------------------------------------------------------ boolean view

    def literal(self, expr: Expr) -> Lit:
        """A literal (or a bool) true exactly when ``expr`` is non-zero."""
        hit = self._lits.get(id(expr))
        if hit is None:
            hit = (expr, self._literal(expr))
            self._lits[id(expr)] = hit
        return hit[1]

    def _literal(self, expr: Expr) -> Lit:
        if isinstance(expr, Const):
            return expr.value != 0
        if isinstance(expr, Unary):
            if expr.op == "not":
                return negate(self.literal(expr.arg))
            return self.literal(expr.arg)  # -x and abs(x) are non-zero exactly when x is
        if isinstance(expr, Binary) and expr.op in NEGATED:
            return self.compare(expr.left, expr.op, expr.right)
        if isinstance(expr, Nary) and expr.op in ("and", "or"):
            return self._junction(expr)
        lo, hi = self.bounds(expr)
        if lo == hi:
            return lo != 0
        return self.reify(self.integer(expr), "!=", 0, self.bounds(expr), (0, 0))

    def _junction(self, expr: Nary) -> Lit:
        conj = expr.op == "and"
        lits: list[Lit] = []
        for a in expr.args:
            lit = self.literal(a)
            if isinstance(lit, bool):
                if lit != conj:  # a false conjunct or a true disjunct decides it
                    return not conj
                continue
            lits.append(lit)
        if not lits:
            return conj
        if len(lits) == 1:
            return lits[0]
        out = self.model.new_bool_var("")
        if conj:
            self.model.add_bool_and(lits).only_enforce_if(out)
            self.model.add_bool_or([negate(lit) for lit in lits]).only_enforce_if(~out)
        else:
            self.model.add_bool_or(lits).only_enforce_if(out)
            self.model.add_bool_and([negate(lit) for lit in lits]).only_enforce_if(~out)
        return out

    def compare(self, left: Expr, op: str, right: Expr) -> Lit:
        """A literal for ``left op right``."""
        known = decided(op, self.bounds(left), self.bounds(right))
        if known is not None:
            return known
        lit = self._value_test(left, op, right)
        if lit is not None:
            return lit
        return self.reify(self.integer(left), op, self.integer(right),
                          self.bounds(left), self.bounds(right))

    def _value_test(self, left: Expr, op: str, right: Expr) -> Lit | None:
        """The one-hot literal for ``var == c`` / ``var != c``, if there is one."""
        if op not in ("==", "!="):
            return None
        if not isinstance(left, Var):
            left, right = right, left
        if not isinstance(left, Var) or left.name not in self.one_hot:
            return None
        lo, hi = self.bounds(right)
        if lo != hi:
            return None
        lit = self.one_hot[left.name].get(lo, False)
        return lit if op == "==" else negate(lit)

    def reify(self, left: Term, op: str, right: Term,
              left_bounds: tuple[int, int], right_bounds: tuple[int, int]) -> Lit:
        """A literal equivalent to ``left op right``; single-variable tests are shared.

        ``left_bounds`` and ``right_bounds`` contain every value of the two sides.
        """
        if isinstance(left, int) and isinstance(right, int):
            return bool(relation(left, op, right))
        if isinstance(left, int):
            left, right, op = right, left, MIRRORED[op]
            left_bounds, right_bounds = right_bounds, left_bounds
        if isinstance(right, int):
            right_bounds = (right, right)
        known = decided(op, left_bounds, right_bounds)
        if known is not None:
            return known
        key = None
        if isinstance(left, cp_model.IntVar) and isinstance(right, int):
            if op == "!=":
                return negate(self.reify(left, "==", right, left_bounds, right_bounds))
            key = (left.index, op, right)
            if key in self.literals:
                return self.literals[key]
            if op == "==" and list(self.model.proto.variables[left.index].domain) == [0, 1]:
                return left if right == 1 else ~left  # a 0/1 variable is its own literal
        out = self.model.new_bool_var("")
        self.model.add(relation(left, op, right)).only_enforce_if(out)
        self.model.add(relation(left, NEGATED[op], right)).only_enforce_if(~out)
        if key is not None:
            self.literals[key] = out
        return out

    # ------------------------------------------------------------ constraints

    def post(self, expr: Expr, only_if: Iterable[Lit] = ()) -> None:
        """Require ``expr`` to hold (whenever every literal of ``only_if`` holds)."""
        guard: list[Lit] = []
        for g in only_if:
            if isinstance(g, bool):
                if not g:
                    return
                continue
            guard.append(g)
        self._post(expr, guard, True)

    def _post(self, expr: Expr, guard: list[Lit], positive: bool) -> None:
        if isinstance(expr, Unary) and expr.op == "not":
            self._post(expr.arg, guard, not positive)
        elif isinstance(expr, Nary) and expr.op in ("and", "or"):
            if (expr.op == "and") == positive:  # every operand must (not) hold
                for a in expr.args:
                    self._post(a, guard, positive)
            else:  # at least one operand must (not) hold
                lits = [self.literal(a) for a in expr.args]
                self.clause(lits if positive else [negate(lit) for lit in lits], guard)
        elif isinstance(expr, Binary) and expr.op in NEGATED:
            op = expr.op if positive else NEGATED[expr.op]
            held = decided(op, self.bounds(expr.left), self.bounds(expr.right))
            if held is None:
                lit = self._value_test(expr.left, op, expr.right)
                if lit is not None:
                    self.clause([lit], guard)
                    return
                rel = relation(self.integer(expr.left), op, self.integer(expr.right))
                if not isinstance(rel, bool):
                    self.model.add(rel).only_enforce_if(guard)
                    return
                held = rel
            if not held:
                self.fail(guard)
        else:
            lit = self.literal(expr)
            self.clause([lit if positive else negate(lit)], guard)

    def clause(self, lits: Iterable[Lit], only_if: Iterable[Lit] = ()) -> None:
        """Require one of ``lits`` to hold (whenever every literal of ``only_if`` holds)."""
        rest: list[Lit] = []
        for lit in [*lits, *(negate(g) for g in only_if)]:
            if isinstance(lit, bool):
                if lit:
                    return
                continue
            rest.append(lit)
        self.model.add_bool_or(rest)
