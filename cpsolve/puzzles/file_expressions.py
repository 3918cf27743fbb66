"""Expressions of a ``transition`` or ``csp`` file, parsed against its scope with errors
naming the file and the key: any expression (:func:`parse_in`), a condition
(:func:`condition_in`), and the free index names of an effect's target
(:func:`free_indices`).
"""

from __future__ import annotations

import ast
from typing import Any

from ..language.expr import Const, Expr
from ..language.interpret import evaluate
from ..language.parse import parse
from ..language.quoting import shown
from ..language.slips import not_a_condition
from ..language.syntax import ExprError, one_line
from ..language.walk import variables
from ..model import Csp, Planning
from .data import Data


def parse_in(data: Data, key: str, text: Any, scope: dict, whole: bool = False,
             constant: bool = False) -> Any:
    """Parse an expression of the file; ``whole`` also accepts a bare array name;
    ``constant``: where only constants may be used (the caller refuses variables)."""
    if whole and isinstance(text, str) and isinstance(scope.get(text.strip()), list):
        return scope[text.strip()]
    try:
        return parse(text, scope, constant)
    except ExprError as err:
        raise data.error(key, str(err)) from None


def condition_in(data: Data, key: str, text: Any, scope: dict,
                 model: Planning | Csp) -> Expr:
    """Parse a condition of the file (a goal, guard, forbid or constraint): an expression
    whose value is a number other than 0 or 1 (``jug[0] + 4``) is refused, not read as
    "true when non-zero"."""
    expr = parse_in(data, key, text, scope)
    if not isinstance(expr, Expr):
        raise data.error(key, f"expected a condition, got {shown(text)}")
    _no_number(data, key, text, expr, model)
    return expr


def value_in(data: Data, key: str, text: Any, scope: dict, model: Planning | Csp) -> Any:
    """Parse an expression of the file that is a value (an effect, a cost, an objective):
    the condition of an ``if`` in it (``a if c else b``, ``ite(c, a, b)``) that is a number
    other than 0 or 1 is refused, as a condition's is (:func:`condition_in`)."""
    expr = parse_in(data, key, text, scope)
    if isinstance(expr, Expr):
        _no_number(data, key, text, expr, model, whole=False)
    return expr


def _no_number(data: Data, key: str, text: Any, expr: Expr, model: Planning | Csp,
               whole: bool = True) -> None:
    """Refuse a number standing where a condition must in ``expr``, parsed from ``text``
    (the model's check, :meth:`~cpsolve.model.variables.Variables.number_in`, in the
    file's words)."""
    number = model.number_in(expr, whole)
    if number is not None:
        said = str(text).strip() if number is expr else str(number)
        raise data.error(key, not_a_condition(shown(said)))


def free_indices(data: Data, key: str, target: str, local: dict) -> list[dict[str, int]]:
    """The bindings of the names in ``target``'s indexes that are not in scope (``x[k]``:
    ``k`` over the indexes of ``x``); ``[{}]`` when every index is known."""
    try:
        node = ast.parse(one_line(target), mode="eval").body
    except SyntaxError:
        return [{}]  # parse_in reports it
    indexes: list[ast.AST] = []
    while isinstance(node, ast.Subscript):
        indexes.append(node.slice)
        node = node.value
    if not isinstance(node, ast.Name) or not isinstance(local.get(node.id), list):
        return [{}]
    indexes.reverse()
    out: list[dict[str, int]] = [{}]
    for depth, index in enumerate(indexes):
        if not (isinstance(index, ast.Name) and index.id not in local):
            continue
        grown = []
        for binding in out:
            level = local[node.id]
            for earlier in indexes[:depth]:
                i = (binding[earlier.id] if isinstance(earlier, ast.Name) and earlier.id
                     in binding else None)
                if i is None:
                    expr = parse_in(data, key, ast.unparse(earlier),
                                    {**local, **{k: Const(v) for k, v in binding.items()}})
                    i = evaluate(expr, {}) if not variables(expr) else 0
                level = level[i] if isinstance(level, list) and 0 <= i < len(level) else []
            if index.id in binding:
                grown.append(binding)
            elif isinstance(level, list):
                grown.extend({**binding, index.id: i} for i in range(len(level)))
            else:
                grown.append(binding)  # not an array at this depth: parse_in says so
        out = grown
    return out
