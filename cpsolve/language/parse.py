"""Parse expression text from model files into :mod:`cpsolve.language.expr` trees.

Text is read with Python's own grammar (``ast.parse`` in ``eval`` mode) and
then rebuilt node by node from a whitelist; nothing is ever evaluated as
Python.  Allowed: integers, ``True``/``False``, names, ``name[index]``,
``+ - *``, ``//`` and ``%`` (floor division and remainder, as in Python, by
a positive constant), comparisons (chains too), ``and or not``, ``min max
abs``, ``ite(c, a, b)``, ``a if c else b`` (the latter decided while
parsing when ``c`` is constant, so only the chosen branch is kept; ``ite``
is always kept as written), and ``all/any/sum/min/max`` over a
generator with constant bounds, e.g. ``all(on[c] != t for c in range(3))``
(expanded while parsing, so engines never see a loop).

``and``/``or``, ``all``/``any`` and comparison chains are read left to right as
Python reads them: an operand without variables that is false (``and``, ``all``,
a chain) or true (``or``, ``any``) decides the whole, and what comes after it is
never read (``i >= 1 and x[i - 1] == 0`` does not index ``x[-1]``).  Operands over
variables decide nothing while parsing: all of them are kept.

Names are looked up in a *scope*: a mapping from a name to an expression
(a variable or a constant) or to a list of them (an array, indexed by an
expression that must be constant once parameters are filled in).

An expression may span several lines (a TOML multi-line string): lines are
joined with spaces, a ``#`` starts a comment to the end of its line, and a
trailing ``\\`` is dropped.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from typing import Union

from . import slips
from .expr import (
    And,
    Binary,
    Const,
    Expr,
    If,
    Max,
    Min,
    Nary,
    Or,
    Product,
    Sum,
    Unary,
    Var,
    evaluate,
    variables,
)

ScopeValue = Union[Expr, Sequence["ScopeValue"]]  # noqa: UP007 - a recursive alias
Scope = Mapping[str, ScopeValue]

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
_CMPOPS = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
}
_FUNCS = ("min", "max", "abs", "ite", "all", "any", "sum", "prod", "len")


MAX_UNROLL = 100_000
"""Most values one ``range`` gives, and one list or generator holds once unrolled, its
nested lists counted in full (:func:`values_in`): ``[[i * j for i in range(20000)] for j in
range(20000)]`` holds 400,000,000, and is refused before it is built."""


MAX_DEPTH = 200
"""Deepest expression tree accepted (engines walk trees recursively)."""

MAX_TEXT = 100_000
"""Longest expression text accepted, in characters."""


def shorten(text: str, at: int = 0, width: int = 60) -> str:
    """``text`` quoted, cut to about ``width`` characters around position ``at``."""
    if len(text) <= width:
        return repr(text)
    start = max(0, min(at - width // 2, len(text) - width))
    cut = text[start:start + width]
    return ("..." if start else "") + repr(cut) + ("..." if start + width < len(text) else "")


def _depth(node: ast.AST) -> int:
    """Depth of an ast tree, measured without recursion."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_DEPTH:
            stack.extend((child, depth + 1) for child in ast.iter_child_nodes(current))
    return deepest


def one_line(text: str) -> str:
    """``text`` with its lines joined by spaces, comments and trailing backslashes removed."""
    if "\n" not in text and "#" not in text:
        return text.strip()
    lines = (line.split("#", 1)[0].rstrip() for line in text.splitlines())
    return " ".join(line[:-1] if line.endswith("\\") else line for line in lines).strip()


class ExprError(ValueError):
    """An expression text that cannot be read; the message says where and why."""


def parse(text: str, scope: Scope, constant: bool = False) -> Expr:
    """Parse ``text`` in ``scope``; raise :class:`ExprError` on anything not allowed.
    ``constant``: the text stands where only constants may be used (an unknown name then
    lists only the constant names of ``scope``; the caller refuses variables)."""
    if not isinstance(text, str):
        if isinstance(text, bool) or isinstance(text, int):
            return Const(int(text))
        raise ExprError(f"expected an expression string, got {text!r}")
    text, tree = _tree(text)
    builder = _Builder(text, scope)
    return builder.build_constant(tree) if constant else builder.build(tree)


def _tree(text: str) -> tuple[str, ast.expr]:
    """``text`` on one line and its syntax tree, within :data:`MAX_TEXT` and
    :data:`MAX_DEPTH`; else :class:`ExprError`."""
    text = one_line(text)
    if len(text) > MAX_TEXT:
        raise ExprError(f"expression of {len(text):,} characters (at most {MAX_TEXT:,}): "
                        f"{shorten(text)}")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as err:
        raise ExprError(f"syntax error in {shorten(text, (err.offset or 1) - 1)}: "
                        f"{err.msg} (column {err.offset or 1})"
                        f"{slips.syntax(text, err.offset or 1, err.msg)}") from None
    except (RecursionError, MemoryError):
        raise ExprError(f"expression nested too deeply: {shorten(text)}") from None
    if _depth(tree.body) > MAX_DEPTH:
        raise ExprError(f"expression nested more than {MAX_DEPTH} levels deep: {shorten(text)}")
    return text, tree.body


class _Builder:
    def __init__(self, text: str, scope: Scope):
        self.text = text
        self.scope = scope
        self.constant_only = False
        """Building a part that must be constant: an unknown name lists the constants."""

    def fail(self, message: str) -> ExprError:
        return ExprError(f"in {shorten(self.text)}: {message}")

    def build(self, node: ast.AST) -> Expr:
        value = self.value(node)
        if not isinstance(value, Expr):
            name = ast.unparse(node)
            raise self.fail(f"{name!r} is an array; index it, e.g. {name}[0], or compare it "
                            f"cell by cell: all({name}[i] == ... for i in "
                            f"range(len({name})))")
        return value

    def value(self, node: ast.AST) -> ScopeValue:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or isinstance(node.value, int):
                return Const(int(node.value))
            raise self.fail(f"only integers are allowed, not {node.value!r}")
        if isinstance(node, ast.Name):
            if node.id not in self.scope:
                usable = [n for n, v in self.scope.items()
                          if not self.constant_only or _is_constant(v)]
                known = ", ".join(sorted(usable)) or "none"
                if len(usable) < len(self.scope):
                    known += "; a variable cannot be used here"
                raise self.fail(f"unknown name {node.id!r} (known: {known})")
            return self.scope[node.id]
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.BinOp):
            op = _BINOPS.get(type(node.op))
            if op is None:
                raise self.fail(slips.operator(node.op))
            left, right = self.build(node.left), self.build(node.right)
            if op in ("//", "%") and (variables(right) or evaluate(right, {}) <= 0):
                raise self.fail(f"{ast.unparse(node.right)!r}: {op} divides by a positive "
                                "constant only")
            if op in ("//", "%"):
                right = Const(evaluate(right, {}))
            return Binary(op, left, right)
        if isinstance(node, ast.UnaryOp):
            arg = self.build(node.operand)
            if isinstance(node.op, ast.USub):
                if isinstance(arg, Const):
                    return Const(-arg.value)
                return Unary("-", arg)
            if isinstance(node.op, ast.UAdd):
                return arg
            if isinstance(node.op, ast.Not):
                return Unary("not", arg)
            raise self.fail("operator ~ is not supported; use not")
        if isinstance(node, ast.BoolOp):
            return self.boolean("and" if isinstance(node.op, ast.And) else "or", node.values)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            return self.choice(self.build(node.test), node.body, node.orelse)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise self.fail(slips.not_allowed(node))

    def build_constant(self, node: ast.AST, make: Callable[[ast.AST], ScopeValue] | None = None
                       ) -> ScopeValue:
        """``node`` built (by ``make``, :meth:`build` by default) where only constants may be
        used (the caller checks the value): an unknown name is told among the constants."""
        outer, self.constant_only = self.constant_only, True
        try:
            return (make or self.build)(node)
        finally:
            self.constant_only = outer

    def constant(self, node: ast.AST) -> ScopeValue:
        """A constant integer or list (see :func:`constant_list`)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "range":
            return [Const(v) for v in self.iteration_values(node)]
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.constant(e) for e in node.elts]
        if isinstance(node, ast.ListComp):
            items: list[ScopeValue] = []
            outer = self.scope
            try:
                self.unroll(node.elt, list(node.generators), items, self.constant)
            finally:
                self.scope = outer
            return items
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add)):
            left, right = self.constant(node.left), self.constant(node.right)
            if isinstance(node.op, ast.Add) and isinstance(left, list) \
                    and isinstance(right, list):
                self.within(values_in(left) + values_in(right))
                return left + right
            if isinstance(node.op, ast.Mult) and isinstance(left, list) != isinstance(right, list):
                items, times = (left, right) if isinstance(left, list) else (right, left)
                count = self.fixed(times, node).value  # type: ignore[union-attr]
                self.within(count * values_in(items))  # type: ignore[arg-type]
                return list(items) * max(0, count)  # type: ignore[arg-type]
        if isinstance(node, ast.Name) and isinstance(self.scope.get(node.id), list):
            value = self.scope[node.id]
            self.fixed_all(value, node)
            return value
        return self.fixed(self.build_constant(node), node)

    def listing(self, node: ast.AST) -> ScopeValue:
        """An expression, or a (nested) list of expressions (see :func:`listing`)."""
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.listing(e) for e in node.elts]
        if isinstance(node, ast.ListComp):
            items: list[ScopeValue] = []
            outer = self.scope
            try:
                self.unroll(node.elt, list(node.generators), items, self.listing)
            finally:
                self.scope = outer
            return items
        return self.value(node)

    def within(self, count: int) -> None:
        """Refuse a list or generator of ``count`` values, nested lists counted in full,
        past :data:`MAX_UNROLL`."""
        if count > MAX_UNROLL:
            raise self.fail(f"a list of more than {MAX_UNROLL:,} values (nested lists "
                            "counted in full)")

    def fixed(self, value: ScopeValue, node: ast.AST) -> Const:
        """``value`` as a constant integer, or an error naming ``node``."""
        if not isinstance(value, Expr) or variables(value):
            raise self.fail(f"{ast.unparse(node)!r} must be constant")
        return Const(evaluate(value, {}))

    def fixed_all(self, value: ScopeValue, node: ast.AST) -> None:
        """Raise unless every element of a (nested) list is constant."""
        if isinstance(value, Expr):
            self.fixed(value, node)
        else:
            for v in value:
                self.fixed_all(v, node)

    def choice(self, test: Expr, body: ast.AST, orelse: ast.AST) -> Expr:
        """``body if test else orelse``; a constant ``test`` keeps only the chosen branch."""
        if not variables(test):
            return self.build(body if evaluate(test, {}) else orelse)
        return If(test, self.build(body), self.build(orelse))

    def subscript(self, node: ast.Subscript) -> ScopeValue:
        base = self.value(node.value)
        if isinstance(node.slice, ast.Tuple):
            raise self.fail(slips.subscript(node))
        if isinstance(base, Expr):
            raise self.fail(f"{ast.unparse(node.value)!r} is not an array")
        index_expr = self.build_constant(node.slice)
        if variables(index_expr):
            raise self.fail(f"index {ast.unparse(node.slice)!r} must be a constant")
        index = evaluate(index_expr, {})
        if not 0 <= index < len(base):
            raise self.fail(
                f"index {index} out of range for {ast.unparse(node.value)!r} "
                f"(size {len(base)})"
            )
        return base[index]

    def boolean(self, op: str, operands: Sequence[ast.AST]) -> Expr:
        """``a and b ...`` or ``a or b ...``, read left to right as Python reads it: an
        operand without variables that decides (false for ``and``, true for ``or``)
        stands as that value (0 or 1), and the operands after it are not read at all
        (``k >= n and x[k - n] == 1`` never indexes out of range).  Operands over
        variables decide nothing here: all of them are kept."""
        built: list[Expr] = []
        for operand in operands:
            built.append(self.build(operand))
            decided = _decided(op, built[-1])
            if decided is not None:
                built[-1] = decided
                break
        return built[0] if len(built) == 1 else Nary(op, tuple(built))

    def compare(self, node: ast.Compare) -> Expr:
        """A comparison; a chain ``a < b < c`` is the conjunction of its links, and, as in
        Python, a link without variables that is false ends it (the rest is not read)."""
        tuples = slips.tuple_comparison(node)
        if tuples is not None:
            raise self.fail(tuples)
        left = self.build(node.left)
        parts: list[Expr] = []
        for op_node, right_node in zip(node.ops, node.comparators):
            op = _CMPOPS.get(type(op_node))
            if op is None:
                raise self.fail(f"comparison {type(op_node).__name__} is not supported")
            right = self.build(right_node)
            parts.append(Binary(op, left, right))
            decided = _decided("and", parts[-1])
            if decided is not None and len(node.ops) > 1:
                parts[-1] = decided
                break
            left = right
        return parts[0] if len(parts) == 1 else Nary("and", tuple(parts))

    def call(self, node: ast.Call) -> Expr:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _FUNCS or node.keywords:
            raise self.fail(
                f"unknown function {ast.unparse(node.func)!r} (allowed: {', '.join(_FUNCS)})"
            )
        if name == "len":
            if len(node.args) != 1:
                raise self.fail("len takes one array")
            value = self.value(node.args[0])
            if isinstance(value, Expr):
                raise self.fail(f"len: {ast.unparse(node.args[0])!r} is not an array")
            return Const(len(value))
        if len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            return self.generator(name, node.args[0])
        if name in ("all", "any", "sum", "prod"):
            raise self.fail(f"{name} takes a generator: {name}(... for x in range(n))")
        args = [self.build(a) for a in node.args]
        if name == "abs":
            if len(args) != 1:
                raise self.fail("abs takes one argument")
            return Unary("abs", args[0])
        if name == "ite":
            if len(args) != 3:
                raise self.fail("ite takes three arguments: ite(condition, then, else)")
            return If(*args)
        if not args:
            raise self.fail(f"{name} needs at least one argument")
        return Min(*args) if name == "min" else Max(*args)


    def generator(self, name: str, gen: ast.GeneratorExp) -> Expr:
        if name in ("abs", "ite"):
            raise self.fail(f"{name}(...) does not take a generator")
        items: list[Expr] = []
        outer = self.scope
        try:
            self.unroll(gen.elt, list(gen.generators), items, self.deciding(name))
        except _Decided as end:
            items.append(end.value)
        finally:
            self.scope = outer
        if name == "sum":
            return Sum(items)
        if name == "prod":
            return Product(items)
        if name == "all":
            return And(*items)
        if name == "any":
            return Or(*items)
        if not items:
            raise self.fail(f"{name}() of nothing")
        return Min(*items) if name == "min" else Max(*items)

    def deciding(self, name: str) -> Callable[[ast.AST], ScopeValue] | None:
        """How ``all``/``any`` build an element, as Python runs them: an element without
        variables that decides (false for ``all``, true for ``any``) ends the generator
        (:class:`_Decided`), and the elements after it are not read; None for the others."""
        op = {"all": "and", "any": "or"}.get(name)
        if op is None:
            return None

        def element(elt: ast.AST) -> Expr:
            item = self.build(elt)
            decided = _decided(op, item)
            if decided is not None:
                raise _Decided(decided)
            return item
        return element

    def unroll(self, elt: ast.AST, comps: list[ast.comprehension], out: list,
               make: Callable[[ast.AST], ScopeValue] | None = None,
               held: list[int] | None = None) -> None:
        """Expand nested ``for`` clauses (later bounds may use earlier names); each
        element is built by ``make`` (an expression by default, :meth:`constant` for a
        list of constants, which may itself be a list).  ``out`` holds at most
        :data:`MAX_UNROLL` values, nested lists counted in full (``held``: how many so
        far), checked as each element comes."""
        held = [0] if held is None else held
        if not comps:
            item = (make or self.build)(elt)
            held[0] += values_in(item)
            self.within(held[0])
            out.append(item)
            return
        comp, rest = comps[0], comps[1:]
        if not isinstance(comp.target, ast.Name) or comp.is_async:
            raise self.fail("a generator must bind one plain name per for")
        saved = self.scope
        for v in self.iteration_items(comp.iter):
            self.scope = {**saved, comp.target.id: Const(v) if isinstance(v, int) else v}
            if all(self.constant_truth(cond) for cond in comp.ifs):
                self.unroll(elt, rest, out, make, held)
        self.scope = saved

    def iteration_items(self, node: ast.AST) -> list:
        """What a ``for`` runs over: :meth:`iteration_values`, or the elements of a
        constant (nested) list named or indexed (``for cage in cages``, ``for c in
        cage[1]``): an integer, or a list bound to the name."""
        if isinstance(node, (ast.Name, ast.Subscript)):
            value = self.build_constant(node, self.value)
            if isinstance(value, list):
                for item in value:
                    self.fixed_all(item, node)
                return [v.value if isinstance(v, Const) else v  # type: ignore[union-attr]
                        for v in value]
        return self.iteration_values(node)

    def constant_truth(self, node: ast.AST) -> bool:
        """The value of a generator's filter, read left to right as Python does: the
        right of ``and``/``or`` is not read once the left decides (``k >= n and
        x[k - n] == 1`` never indexes out of range)."""
        if isinstance(node, ast.BoolOp):
            want = isinstance(node.op, ast.Or)
            for operand in node.values:
                if self.constant_truth(operand) == want:
                    return want
            return not want
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.constant_truth(node.operand)
        cond = self.build_constant(node)
        if variables(cond):
            raise self.fail(f"generator filter {ast.unparse(node)!r} must be constant")
        return bool(evaluate(cond, {}))

    def iteration_values(self, node: ast.AST) -> list[int]:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "range" and 1 <= len(node.args) <= 2 and not node.keywords:
            bounds = []
            for a in node.args:
                e = self.build_constant(a)
                if variables(e):
                    raise self.fail("range() bounds must be constant")
                bounds.append(evaluate(e, {}))
            lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
            size = max(0, hi - lo)  # not len(range(...)): it overflows past 2**63
            if size > MAX_UNROLL:
                raise self.fail(f"range of {size:,} values; at most {MAX_UNROLL:,} are unrolled")
            return list(range(lo, hi))
        if isinstance(node, (ast.List, ast.Tuple)):
            out = []
            for a in node.elts:
                e = self.build_constant(a)
                if variables(e):
                    raise self.fail("generator values must be constant")
                out.append(evaluate(e, {}))
            return out
        raise self.fail("a generator iterates over range(n), range(a, b) or a list of constants")


class _Decided(Exception):
    """An element of ``all``/``any`` decided the whole (:meth:`_Builder.deciding`)."""

    def __init__(self, value: Const):
        super().__init__()
        self.value = value


def _decided(op: str, operand: Expr) -> Const | None:
    """The value, 0 or 1 as every ``and``/``or`` has, of an ``op`` that ``operand`` decides
    by itself, being without variables and false (``and``) or true (``or``); else None."""
    if variables(operand):
        return None
    decides = bool(evaluate(operand, {})) == (op == "or")
    return Const(int(op == "or")) if decides else None


def _is_constant(value: ScopeValue) -> bool:
    """Whether a scope entry holds no variable (a constant, a parameter, a constant table)."""
    if isinstance(value, Expr):
        return not variables(value)
    return all(_is_constant(v) for v in value)


def values_in(value: ScopeValue) -> int:
    """How many values a (nested) list holds, counted in full: 1 for an expression."""
    if isinstance(value, Expr):
        return 1
    return sum(values_in(v) for v in value)


def listing(text: str, scope: Scope) -> ScopeValue:
    """The value of ``text`` as an expression or a (nested) list of them: a list written
    ``[a, b]``, a comprehension ``[x[r][c] for c in range(n)]`` (nested:
    ``[[x[r][c] for c in range(n)] for r in range(n)]``), or an array's name; the
    elements may be variables (all-different groups)."""
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {text!r}")
    text, tree = _tree(text)
    return _Builder(text, scope).listing(tree)


def constant_list(text: str, scope: Scope) -> ScopeValue:
    """The constant value of ``text``: an integer (as :class:`Const`) or a (nested) list.

    Lists are written ``[a, b]``, ``range(n)``, ``range(a, b)``, ``[0] * n``,
    ``a + b`` (concatenation), ``[e for i in range(n)]`` or the name of a
    constant array; every element must be constant.
    """
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {text!r}")
    text, tree = _tree(text)
    return _Builder(text, scope).constant(tree)


def variable_scope(names: Sequence[str]) -> dict[str, ScopeValue]:
    """A scope in which each plain name refers to the variable of that name.

    Names of the form ``base[i]`` (and ``base[i][j]``) are also collected into
    arrays so that ``base[i]`` can be written in expressions.
    """
    scope: dict[str, ScopeValue] = {}
    arrays: dict[str, dict[tuple[int, ...], Var]] = {}
    for name in names:
        if "[" in name:
            base, _, rest = name.partition("[")
            index = tuple(int(p) for p in rest.rstrip("]").split("]["))
            arrays.setdefault(base, {})[index] = Var(name)
        else:
            scope[name] = Var(name)
    for base, cells in arrays.items():
        scope[base] = _nest(cells)
    return scope


def _nest(cells: dict[tuple[int, ...], Var]) -> list:
    """The variables ``cells`` (by index tuple) as nested lists, in one pass over them (a
    pass per first index made a 100,000-variable array take minutes)."""
    rows: dict[int, dict[tuple[int, ...], Var]] = {}
    for index, var in cells.items():
        rows.setdefault(index[0], {})[index[1:]] = var
    out: list = []
    for k in range(max(rows) + 1):
        sub = rows.get(k, {})
        if () in sub:
            out.append(sub[()])
        else:
            out.append(_nest(sub) if sub else [])
    return out


def constant_scope(values: Mapping[str, object]) -> dict[str, ScopeValue]:
    """A scope of named integer constants and (nested) lists of them."""

    def conv(v: object) -> ScopeValue:
        if isinstance(v, bool) or isinstance(v, int):
            return Const(int(v))
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        raise ExprError(f"constant {v!r} is not an integer or a list of integers")

    return {k: conv(v) for k, v in values.items()}


__all__ = ["ExprError", "parse", "variable_scope", "constant_scope", "constant_list", "listing"]
