"""Constant values of a ``transition``, ``csp`` or ``grid`` file: its ``[constants]``
(:func:`read_constants`), and integers or lists of integers written as numbers or as
constant expressions (:func:`integer`, :func:`integers`, :func:`read_values`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..language.expr import Const
from ..language.interpret import evaluate
from ..language.parse import constant_list
from ..language.quoting import shown
from ..language.scope import Scope, constant_scope
from ..language.syntax import ExprError
from ..language.walk import variables
from .arrays import leaves
from .data import Data, key_part
from .file_expressions import parse_in


def read_constants(data: Data, constants: Mapping[str, Any],
                   given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The scope of ``[constants]``: integers, (nested) lists of integers, and expression
    strings over the constants above them (``cells = "n * n"``, ``row = "[0] * n"``);
    ``given`` names a family already defines (the grid's ``size``) come first."""
    scope: dict[str, Any] = dict(given or {})
    for name, value in constants.items():
        key = f"constants.{key_part(name)}"
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise data.error(key, "a constant name is a plain identifier")
        if value == [] and name in data.top_level and name not in data.table:
            raise data.misplaced_error(key)  # forbid = [] under [constants]: no constant meant
        with data.entry(key):
            try:
                scope[name] = (constant_list(value, scope) if isinstance(value, str)
                               else constant_scope({name: value})[name])
            except ExprError as err:
                raise data.error(key, str(err)) from None
    return scope


def integer(data: Data, key: str, value: Any, scope: Scope) -> int:
    """An integer written as a number or as a constant expression (``"discs"``, ``"2 * n"``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        expr = parse_in(data, key, value, scope, constant=True)
        if variables(expr):
            raise data.error(key, f"{shown(value)} must be constant (no variables)")
        return evaluate(expr, {})
    raise data.error(key, f"expected an integer or a constant expression, got {shown(value)}")


def integers(data: Data, key: str, value: Any, scope: Scope) -> list[int]:
    """A list of integers: a TOML list (of numbers or constant expressions), or a string
    ``range(n)``, ``range(a, b)``, a constant array's name or a list expression."""
    if isinstance(value, list):  # of integers: a list in it is refused, not flattened
        return [integer(data, f"{key}[{i}]", v, scope) for i, v in enumerate(value)]
    if isinstance(value, str):
        return _flat(data, key, value, _constant(data, key, value, scope))
    raise data.error(key, f"expected a list of integers or a string such as \"range(n)\", "
                          f"got {shown(value)}")


def _constant(data: Data, key: str, text: str, scope: Scope) -> Any:
    """:func:`cpsolve.language.parse.constant_list` of ``text``, its errors naming ``key``."""
    try:
        return constant_list(text, scope)
    except ExprError as err:
        raise data.error(key, str(err)) from None


def _flat(data: Data, key: str, text: str, found: Any) -> list[int]:
    """The integers of ``found`` (the constant value of ``text``): a flat list, else an error."""
    flat = list(leaves(found)) if isinstance(found, list) else None
    if flat is not None and all(isinstance(v, Const) for v in flat):
        return [v.value for v in flat]
    raise data.error(key, f"{shown(text)} is not a list of integers")


def read_values(data: Data, key: str, value: Any, scope: Scope) -> int | list:
    """An integer or a (nested) list of integers as the file writes it: numbers, constant
    expressions (``"n"``, ``"2 * n"``) and constant lists (``"cap"``, ``"[0] * n"``), at
    any depth.  The nesting is kept: :func:`array_values` checks it against a shape."""
    if isinstance(value, list):
        return [read_values(data, f"{key}[{i}]", v, scope) for i, v in enumerate(value)]
    if isinstance(value, str):  # read once: a constant list, else a constant integer
        found = _constant(data, key, value, scope)
        if isinstance(found, Const):
            return found.value
        if not isinstance(found, list) or not all(isinstance(v, Const) for v in leaves(found)):
            raise data.error(key, f"{shown(value)} is not an integer or a list of integers")
        return _plain(found)
    return integer(data, key, value, scope)


def _plain(found: list) -> list:
    """A nested list of :class:`Const` as the same nested list of integers."""
    return [_plain(v) if isinstance(v, list) else v.value for v in found]
