"""Family ``csp``: variables and constraints written directly in the file.

    family = "csp"
    name = "8 queens"
    [constants]
    n = 8
    [variables]                  # scalar: [lo, hi]; array: {size = n, domain = [lo, hi]}
    q = { size = 8, domain = [0, 7] }
    all_different = [["q"]]      # groups: each a list of variables or whole arrays
    constraints = ["all(abs(q[i] - q[j]) != j - i for i in range(n) for j in range(i + 1, n))"]
    show = "{q[0]} {q[1]} ..."   # optional, as in the transition family

The declarations are the ones of the ``transition`` family
(:mod:`cpsolve.puzzles.declare`); only the constraints differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..expr import Var
from ..model import Csp
from .base import Puzzle
from .data import Data
from .declare import Template, constants_and_variables, parse_in, template

KEYS = {"family", "name", "description", "constants", "variables", "all_different",
        "constraints", "show", "labels"}


@dataclass(frozen=True, kw_only=True)
class CspPuzzle(Puzzle):
    """A CSP drawn with the file's ``show`` template, or variable by variable."""

    template: Template

    def render_solution(self, solution: Mapping[str, int]) -> str:
        return self.template.render(solution)


def build(data: Data) -> CspPuzzle:
    """Build the CSP of a ``csp`` file."""
    data.unknown_keys(KEYS)
    model = Csp(data.get("name", str, "csp model"))
    scope = constants_and_variables(data, model)
    for i, group in enumerate(data.get("all_different", list, [])):
        key = f"all_different[{i}]"
        if not isinstance(group, list) or not all(isinstance(g, str) for g in group):
            raise data.error(key, "expected a list of variable or array names")
        names: list[str] = []
        for item in group:
            names.extend(_names(data, key, parse_in(data, key, item, scope, whole=True)))
        model.all_different(names, key)
    for i, text in enumerate(data.get("constraints", list, [])):
        key = f"constraints[{i}]"
        if not isinstance(text, str):
            raise data.error(key, "expected an expression string")
        model.require(parse_in(data, key, text, scope), text)
    return CspPuzzle(model.name, "csp", model, data.get("description", str, ""),
                     "an assignment satisfying every constraint",
                     template=template(data, scope))


def _names(data: Data, key: str, value: Any) -> list[str]:
    if isinstance(value, Var):
        return [value.name]
    if isinstance(value, list):
        out: list[str] = []
        for v in value:
            out.extend(_names(data, key, v))
        return out
    raise data.error(key, "an all-different group lists variables, not expressions")
