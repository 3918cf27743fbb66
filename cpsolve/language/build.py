"""The builder: a Python syntax tree rebuilt node by node, from a whitelist, into an
expression (:mod:`.expr`); nothing is ever evaluated as Python.  Generators and lists are
unrolled by :class:`cpsolve.language.unroll.Unrolling`, which the builder mixes in."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from . import slips
from .combine import If, Max, Min
from .expr import Binary, Const, Expr, Nary, Unary
from .interpret import evaluate
from .quoting import shorten
from .scope import Scope, ScopeValue, is_constant
from .shortcircuit import decided
from .syntax import ExprError
from .unroll import Unrolling
from .walk import variables

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


class Builder(Unrolling):
    """Builds the expression of one text's syntax tree in a scope."""

    def __init__(self, text: str, scope: Scope):
        self.text = text
        self.scope = scope
        self.constant_only = False
        """Building a part that must be constant: an unknown name lists the constants."""

    def fail(self, message: str, part: ast.AST | None = None) -> ExprError:
        """The error of this text: ``message``, about ``part`` of it when given, that part
        quoted before it (``'(a, a)': tuples are ...``) unless it is the whole text, which
        the error quotes already (``in '(a, a) != (b, b)': tuples are ...``, said once)."""
        if part is not None and not self._whole(part):
            message = f"{ast.unparse(part)!r}: {message}"
        return ExprError(f"in {shorten(self.text)}: {message}")

    def _whole(self, part: ast.AST) -> bool:
        """Whether ``part`` is the whole text (its outer brackets aside)."""
        try:
            return ast.unparse(part) == ast.unparse(ast.parse(self.text, mode="eval").body)
        except SyntaxError:  # a text the builder was not given as parsed
            return False

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
                          if not self.constant_only or is_constant(v)]
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
            return self.choice(node.test, node.body, node.orelse)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Tuple):
            raise self.fail(slips.TUPLE_VALUE, node)
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

    def choice(self, node: ast.AST, body: ast.AST, orelse: ast.AST) -> Expr:
        """``body if test else orelse``; a constant ``test`` keeps only the chosen branch,
        and must be a condition (0 or 1: a number is refused, as an operand of ``and``)."""
        test = self.build(node)
        self._no_number(node, test)
        if not variables(test):
            return self.build(body if evaluate(test, {}) else orelse)
        return If(test, self.build(body), self.build(orelse))

    def subscript(self, node: ast.Subscript) -> ScopeValue:
        base = self.value(node.value)
        if isinstance(node.slice, ast.Tuple):
            raise self.fail(slips.subscript(node), node)
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
            self._no_number(operand, built[-1])
            outcome = decided(op, built[-1])
            if outcome is not None:
                built[-1] = outcome
                break
        return built[0] if len(built) == 1 else Nary(op, tuple(built))

    def _no_number(self, node: ast.AST, expr: Expr) -> None:
        """Refuse an ``and``/``or`` operand or an ``if``'s condition without variables whose
        value is a number other than 0 or 1 (``x == 3 or 5``, ``a if 2 else b``): it would
        decide the whole as true, where a number standing as a condition is refused (the
        operands over variables are checked by the model, which knows their domains)."""
        if variables(expr):
            return
        value = evaluate(expr, {})
        if value not in (0, 1):
            said = ast.unparse(node)
            value_said = "" if said == str(value) else f" ({value})"
            raise self.fail(slips.not_a_condition(f"{said!r}{value_said}"))

    def compare(self, node: ast.Compare) -> Expr:
        """A comparison; a chain ``a < b < c`` is the conjunction of its links, and, as in
        Python, a link without variables that is false ends it (the rest is not read)."""
        tuples = slips.tuple_comparison(node)
        if tuples is not None:
            raise self.fail(tuples, node)
        left = self.build(node.left)
        parts: list[Expr] = []
        for op_node, right_node in zip(node.ops, node.comparators):
            op = _CMPOPS.get(type(op_node))
            if op is None:
                raise self.fail(f"comparison {type(op_node).__name__} is not supported")
            right = self.build(right_node)
            parts.append(Binary(op, left, right))
            outcome = decided("and", parts[-1])
            if outcome is not None and len(node.ops) > 1:
                parts[-1] = outcome
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
