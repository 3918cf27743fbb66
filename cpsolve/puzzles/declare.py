"""Declarations shared by the ``transition`` and ``csp`` families.

Both read ``[constants]`` and ``[variables]`` the same way, parse
expressions against the same scope, and draw assignments with the file's
``show`` template and ``[labels]`` (see :mod:`cpsolve.puzzles.transition`
for the file format).  A family calls :func:`constants_and_variables` on its
model, :func:`parse_in` for each expression, and keeps the :class:`Template`
that :func:`template` returns to draw states or solutions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..expr import Var, evaluate
from ..model import Csp, ModelError, Planning
from ..parse import ExprError, Scope, constant_scope, parse, variable_scope
from .data import Data


@dataclass(frozen=True)
class Template:
    """How the file draws an assignment: ``show`` (may be empty), ``labels``, and the scope.

    ``show`` is a template whose ``{...}`` parts are expressions over
    ``scope``; ``labels`` maps a variable or array name to the names of its
    values.
    """

    show: str
    labels: Mapping[str, list]
    scope: Scope

    def render(self, env: Mapping[str, int]) -> str:
        """An assignment drawn with ``show`` (or ``name=value`` pairs) and ``labels``."""
        if self.show:
            return re.sub(r"\{([^}]*)\}", lambda m: self._expression(m.group(1), env),
                          self.show)
        return "  ".join(f"{n}={self.label(n, v)}" for n, v in env.items())

    def _expression(self, text: str, env: Mapping[str, int]) -> str:
        expr = parse(text, self.scope)
        value = evaluate(expr, env)
        return self.label(expr.name, value) if isinstance(expr, Var) else str(value)

    def label(self, name: str, value: int) -> str:
        """The label of ``value`` for variable ``name`` (or of its array), else the number."""
        base = name.split("[", 1)[0]
        names = self.labels.get(name, self.labels.get(base))
        if names and 0 <= value < len(names):
            return str(names[value])
        return str(value)


def template(data: Data, scope: dict[str, Any]) -> Template:
    """The file's ``show`` and ``labels``, with ``show`` parsed now so errors name the file."""
    check_show(data, scope)
    return Template(data.get("show", str, ""), data.get("labels", dict, {}), scope)


def constants_and_variables(data: Data, model: Planning | Csp) -> dict[str, Any]:
    """Declare the file's ``[variables]`` on ``model``; the scope of constants and variables."""
    constants = data.get("constants", dict, {})
    try:
        scope: dict[str, Any] = constant_scope(constants)
    except ExprError as err:
        raise data.error("constants", str(err)) from None
    _declare(data, model)
    overlap = set(constants) & {n.split("[", 1)[0] for n in model.names}
    if overlap:
        raise data.error("constants", f"{sorted(overlap)[0]!r} is also a variable")
    scope.update(variable_scope(model.names))
    return scope


def check_show(data: Data, scope: dict) -> None:
    """Parse every ``{...}`` of the ``show`` template now, so errors name the file."""
    for part in re.findall(r"\{([^}]*)\}", data.get("show", str, "")):
        parse_in(data, "show", part, scope)


def parse_in(data: Data, key: str, text: Any, scope: dict, whole: bool = False) -> Any:
    """Parse an expression of the file; ``whole`` also accepts a bare array name."""
    if whole and isinstance(text, str) and isinstance(scope.get(text.strip()), list):
        return scope[text.strip()]
    try:
        return parse(text, scope)
    except ExprError as err:
        raise data.error(key, str(err)) from None




def _declare(data: Data, model: Planning | Csp) -> None:
    variables = data.get("variables", dict)
    if not variables:
        raise data.error("variables", "no state variables declared")
    for name, spec in variables.items():
        key = f"variables.{name}"
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise data.error(key, "a variable name is a plain identifier")
        try:
            _declare_one(data, model, name, key, spec)
        except ModelError as err:
            raise data.error(key, str(err)) from None


def _declare_one(data: Data, model: Planning | Csp, name: str, key: str, spec: Any) -> None:
    if isinstance(spec, list):
        lo, hi = _interval(data, key, spec)
        model.add_variable(name, lo, hi)
    elif isinstance(spec, dict):
        data.unknown_keys({"size", "domain"}, spec, key + ".")
        size = data.get("size", int, table=spec, prefix=key + ".")
        if size < 1:
            raise data.error(key + ".size", "must be at least 1")
        lo, hi = _interval(data, key + ".domain",
                           data.get("domain", list, table=spec, prefix=key + "."))
        model.add_array(name, size, lo, hi)
    else:
        raise data.error(key, "expected [lo, hi] or {size = n, domain = [lo, hi]}")


def _interval(data: Data, key: str, spec: list) -> tuple[int, int]:
    if len(spec) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in spec):
        raise data.error(key, f"a domain is [lo, hi] with two integers, got {spec!r}")
    if spec[0] > spec[1]:
        raise data.error(key, f"empty domain {spec[0]}..{spec[1]}")
    return spec[0], spec[1]
