"""One step of a plan in the direct encoding: value literals and clauses between two states.

A state variable with a small domain is one literal per value
(:func:`state_variable`; a two-value variable is a single Boolean), larger
ones are integer variables.  Between the state before a step and the state
after it:

* :func:`assign` — when an action literal holds, a variable it writes takes
  the value of its effect.  A constant is one clause; an effect over a few
  small variables (a copy ``x := y`` included) is one clause per
  combination of their values, "these values and the action imply that new
  value", which propagates both ways; anything else is a linear equality;
* :func:`keep` — the frame: when none of a variable's writers is chosen, each
  of its values carries over (one clause per value);
* :func:`differ` — a literal equivalent to "the variable differs between two
  states", fully defined by them, so that counting solutions stays exact.

:class:`Separable` compiles a sum whose terms each mention one small variable
(an estimate such as a sum of distances) as constants times value literals,
tabulated once for every step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from ...language.expr import Binary, Expr
from ...language.walk import variables
from .compile import Compiler, Lit, Term, negate
from .direct import ONE_HOT_MAX, layout, one_hot
from .library import cp_model
from .table import value_table

Values = Mapping[int, Lit] | None
"""The value literals of a state variable (``None``: an integer variable, or a known value)."""
Table = tuple[list[str], list[tuple[tuple[int, ...], int]]]
"""The free variables of an effect and, per combination of their values, the effect's value."""


def state_variable(model: cp_model.CpModel, lo: int, hi: int, name: str,
                   ) -> tuple[Term, Values]:
    """A state variable with domain ``lo..hi``: its integer view and its value literals."""
    if hi - lo == 1:
        flag = model.new_bool_var(name)
        return (flag if lo == 0 else lo + flag), {lo: ~flag, hi: flag}
    if hi - lo < ONE_HOT_MAX:
        return one_hot(model, list(range(lo, hi + 1)))
    return model.new_int_var(lo, hi, name), None


def assign(comp: Compiler, value: Expr, term: Term, values: Values, only_if: Lit,
           tables: dict[int, tuple[Expr, Table | None]] | None = None) -> None:
    """When ``only_if`` holds, the variable (``term``, ``values``) after the step equals
    ``value`` evaluated before it (``comp`` compiles over the state before the step).

    A value outside the variable's domain makes the action inapplicable.
    ``tables`` caches the value tables of effects between steps whose
    variables are all unknown.
    """
    if values is None:
        comp.model.add(term == comp.integer(value)).only_enforce_if(only_if)
        return
    lo, hi = comp.bounds(value)
    if lo == hi:
        comp.clause([values.get(lo, False)], [only_if])
        return
    table = _table(comp, value, tables)
    if table is None:
        comp.model.add(term == comp.integer(value)).only_enforce_if(only_if)
        return
    names, rows = table
    for index, result in rows:
        comp.clause([values.get(result, False), *(negate(comp.one_hot[n][v])
                                                  for n, v in zip(names, index))], [only_if])



def _table(comp: Compiler, value: Expr, tables: dict[int, tuple[Expr, Table | None]] | None,
           ) -> Table | None:
    """The effect's table, if small enough (the same at every step after the first)."""
    free = all(not isinstance(comp.env[n], int) for n in variables(value))
    if tables is not None and free and id(value) in tables:
        return tables[id(value)][1]
    shape = layout(comp, value)
    table: Table | None = None
    if shape is not None:
        names, domains = shape
        result = value_table(value, names, domains)
        keep = [i for i, n in enumerate(names) if not isinstance(comp.env[n], int)]
        table = ([names[i] for i in keep],
                 [(tuple(domains[names[i]][index[i]] for i in keep), int(result[index]))
                  for index in np.ndindex(*result.shape)])
    if tables is not None and free:
        tables[id(value)] = (value, table)
    return table


def keep(comp: Compiler, before: Term, before_values: Values, after: Term,
         after_values: Values, writers: Sequence[Lit]) -> None:
    """Unless one of ``writers`` holds, the variable keeps its value over the step."""
    if after_values is not None and isinstance(before, int):
        comp.clause([after_values.get(before, False), *writers])
    elif after_values is not None and before_values is not None:
        for value, lit in before_values.items():
            comp.clause([after_values.get(value, False), *writers], [lit])
    else:
        comp.model.add(after == before).only_enforce_if([negate(w) for w in writers])


def differ(comp: Compiler, a: Term, a_values: Values, b: Term, b_values: Values,
           domain: tuple[int, int]) -> Lit:
    """A literal true exactly when the two terms (one variable at two steps) differ."""
    if isinstance(a, int) and b_values is not None:
        return negate(b_values.get(a, False))
    if a_values is None or b_values is None:
        bounds = domain if not isinstance(a, int) else (a, a)
        return comp.reify(b, "!=", a, domain, bounds)
    out = comp.model.new_bool_var("")
    for value in a_values.keys() | b_values.keys():
        at_a, at_b = a_values.get(value, False), b_values.get(value, False)
        comp.clause([out, negate(at_a), at_b])
        comp.clause([negate(out), negate(at_a), negate(at_b)])
    return out


class Separable:
    """``expr`` as one table per small variable (value -> contribution) plus the rest."""

    def __init__(self, expr: Expr, domain: Callable[[str], tuple[int, int]]) -> None:
        self.tables: dict[str, dict[int, int]] = {}
        self.rest: list[Expr] = []
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, Binary) and node.op == "+":
                stack += [node.left, node.right]
                continue
            names = variables(node)
            lo, hi = domain(next(iter(names))) if len(names) == 1 else (0, ONE_HOT_MAX)
            if len(names) != 1 or hi - lo >= ONE_HOT_MAX:
                self.rest.append(node)
                continue
            name = names.pop()
            values = list(range(lo, hi + 1))
            table = self.tables.setdefault(name, dict.fromkeys(values, 0))
            for value, amount in zip(values, value_table(node, [name], {name: values})):
                table[value] += int(amount)

    def compile(self, comp: Compiler, values: Mapping[str, Values]) -> Term:
        """The value of the sum over the compiler's environment (value literals of ``values``)."""
        total: Term = sum(comp.integer(e) for e in self.rest)
        for name, table in self.tables.items():
            state, lits = comp.env[name], values[name]
            if isinstance(state, int):
                total += table[state]
                continue
            assert lits is not None  # a small domain is always value literals
            pairs = [(lits[v], w) for v, w in table.items() if w]
            if pairs:
                total += cp_model.LinearExpr.weighted_sum([p[0] for p in pairs],
                                                          [p[1] for p in pairs])
        return total
