"""Comprehensions unrolled while parsing (``all(x[i] != 0 for i in range(n))``, ``[x[r][c]
for c in range(n)]``) and constant lists, so that engines never see a loop.

:class:`Unrolling` is mixed into :class:`cpsolve.language.build.Builder`: it uses the
builder's ``scope``, ``fail``, ``build``, ``value`` and ``build_constant``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .combine import And, Max, Min, Or, Product, Sum
from .expr import Const, Expr
from .interpret import evaluate
from .quoting import figure
from .scope import ScopeValue
from .shortcircuit import Decided, decided
from .walk import variables

MAX_UNROLL = 100_000
"""Most values one ``range`` gives, and one list or generator holds once unrolled, its
nested lists counted in full (:func:`values_in`): ``[[i * j for i in range(20000)] for j in
range(20000)]`` holds 400,000,000, and is refused before it is built."""


def values_in(value: ScopeValue) -> int:
    """How many values a (nested) list holds, counted in full: 1 for an expression."""
    if isinstance(value, Expr):
        return 1
    return sum(values_in(v) for v in value)


class Unrolling:
    """The builder's loops: generators, list comprehensions, ``range`` and constant lists."""

    def constant(self, node: ast.AST) -> ScopeValue:
        """A constant integer or list (see :func:`cpsolve.language.parse.constant_list`)."""
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
        """An expression, or a (nested) list of expressions (see
        :func:`cpsolve.language.parse.listing`)."""
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

    def generator(self, name: str, gen: ast.GeneratorExp) -> Expr:
        if name in ("abs", "ite"):
            raise self.fail(f"{name}(...) does not take a generator")
        items: list[Expr] = []
        outer = self.scope
        try:
            self.unroll(gen.elt, list(gen.generators), items, self.deciding(name))
        except Decided as end:
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
        (:class:`.Decided`), and the elements after it are not read; None for the others."""
        op = {"all": "and", "any": "or"}.get(name)
        if op is None:
            return None

        def element(elt: ast.AST) -> Expr:
            item = self.build(elt)
            outcome = decided(op, item)
            if outcome is not None:
                raise Decided(outcome)
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
                raise self.fail(f"range of {figure(size)} values; at most {MAX_UNROLL:,} "
                                "are unrolled")
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
