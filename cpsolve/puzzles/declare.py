"""Declarations shared by the ``transition`` and ``csp`` families.

Both read ``[constants]`` and ``[variables]`` the same way, parse
expressions against the same scope, and draw assignments with the file's
``show`` template and ``[labels]`` (see :mod:`cpsolve.puzzles.transition`
for the file format).  A family calls :func:`constants_and_variables` on its
model, :func:`~cpsolve.puzzles.file_expressions.parse_in` for each expression, and
keeps the :class:`~cpsolve.puzzles.show_template.Template` that
:func:`~cpsolve.puzzles.show_template.template` returns to draw states or solutions.

The pieces: this module declares the variables; :mod:`~cpsolve.puzzles.constants` reads
constant values, :mod:`~cpsolve.puzzles.arrays` an array's cells,
:mod:`~cpsolve.puzzles.file_expressions` expressions and conditions, and
:mod:`~cpsolve.puzzles.show_template` the ``show`` template and ``[labels]``.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from typing import Any

from ..language.quoting import shown
from ..language.scope import Scope, variable_scope
from ..model import MAX_VARIABLES, Csp, ModelError, Planning, check_size
from .arrays import array_values
from .constants import integer, integers, read_constants, read_values
from .data import Data, key_part


def constants_and_variables(data: Data, model: Planning | Csp) -> dict[str, Any]:
    """Declare the file's ``[variables]`` on ``model``; the scope of constants and variables."""
    constants = data.get("constants", dict, {})
    data.misplaced(constants, "constants.")
    scope = read_constants(data, constants)
    _declare(data, model, scope)
    overlap = set(constants) & {n.split("[", 1)[0] for n in model.names}
    if overlap:
        raise data.error("constants", f"{shown(sorted(overlap)[0])} is also a variable")
    scope.update(variable_scope(model.names))
    return scope


def _declare(data: Data, model: Planning | Csp, scope: Scope) -> None:
    variables = data.get("variables", dict)
    if not variables:
        raise data.error("variables", "no state variables declared")
    data.misplaced(variables, "variables.")
    for name, spec in variables.items():
        key = f"variables.{key_part(name)}"
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise data.error(key, "a variable name is a plain identifier")
        with data.entry(key):
            try:
                _declare_one(data, model, name, key, spec, scope)
            except ModelError as err:
                raise data.error(key, str(err)) from None


def _declare_one(data: Data, model: Planning | Csp, name: str, key: str, spec: Any,
                 scope: Scope) -> None:
    if isinstance(spec, list):
        lo, hi = _interval(data, key, spec, scope)
        if isinstance(lo, list) or isinstance(hi, list):
            raise data.error(key, "a scalar variable has one domain [lo, hi]; per-cell bounds "
                                  "are for arrays ({size = n, domain = [lo, hi]})")
        model.add_variable(name, lo, hi)
    elif isinstance(spec, dict):
        data.unknown_keys({"size", "shape", "domain"}, spec, key + ".")
        where = key + ".domain"
        if "domain" not in spec:
            raise data.error(where, f"missing: {_ARRAY}; a scalar variable is written "
                                    f"{name} = [lo, hi]")
        lo, hi = _interval(data, where, data.get("domain", list, table=spec, prefix=key + "."),
                           scope)
        shape = _shape(data, key, spec, scope) or [_size(data, name, key, spec, scope, lo, hi)]
        try:  # before any list of that size is built
            check_size(f"array {name}: variables", len(model.domains) + math.prod(shape),
                       MAX_VARIABLES)
        except ModelError as err:
            raise data.error(key + ".size", str(err)) from None
        los = array_values(data, where + ".lo", lo, shape, name)
        his = array_values(data, where + ".hi", hi, shape, name)
        for i, (a, b) in enumerate(zip(los, his)):
            if a > b:
                raise data.error(where, f"cell {i}: empty domain {a}..{b}")
        cells = itertools.product(*(range(n) for n in shape))
        for index, a, b in zip(cells, los, his):
            model.add_variable(name + "".join(f"[{i}]" for i in index), a, b)
    else:
        raise data.error(key, "expected [lo, hi] or {size = n, domain = [lo, hi]}")


_ARRAY = "a table declares an array, {size = n, domain = [lo, hi]} (shape = [rows, cols] for size)"
"""What a table in ``[variables]`` is, said where one lacks a key."""


def _size(data: Data, name: str, key: str, spec: dict, scope: Scope, lo: Any, hi: Any) -> int:
    """The size of a 1-D array: ``size``, else the length of a per-cell bound's list.
    Without either, the table may have been meant as a scalar ``name``'s domain: the error
    says how that one is written, with the table's own domain."""
    if "size" in spec:
        size = integer(data, key + ".size", spec["size"], scope)
    elif isinstance(lo, list) or isinstance(hi, list):
        size = len(lo if isinstance(lo, list) else hi)
    else:
        domain = json.dumps(spec["domain"], ensure_ascii=False)
        raise data.error(key + ".size", f"missing: {_ARRAY}; a scalar variable is written "
                                        f"{name} = {domain}")
    if size < 1:
        raise data.error(key + ".size", "must be at least 1")
    return size


def _shape(data: Data, key: str, spec: dict, scope: Scope) -> list[int]:
    """``shape = [rows, cols, ...]`` of an array (``[]`` when absent): variables
    ``name[i][j]...``, declared row by row."""
    if "shape" not in spec:
        return []
    if "size" in spec:
        raise data.error(key + ".shape", "give either size or shape, not both")
    shape = integers(data, key + ".shape", spec["shape"], scope)
    if not shape or any(n < 1 for n in shape):
        raise data.error(key + ".shape", f"expected a list of sizes of at least 1, "
                                         f"got {shown(spec['shape'])}")
    check_size(f"array {key}: variables", math.prod(shape), MAX_VARIABLES)
    return shape


def _interval(data: Data, key: str, spec: list, scope: Scope) -> tuple[Any, Any]:
    """``[lo, hi]``: each an integer, a constant expression, or one bound per cell (a list,
    flat or nested as the array's shape, or a string naming a constant array such as
    ``"cap"``), as :func:`~cpsolve.puzzles.constants.read_values` reads it."""
    if len(spec) != 2:
        raise data.error(key, f"a domain is [lo, hi], got {shown(spec)}")
    lo, hi = (read_values(data, f"{key}.{which}", bound, scope)
              for which, bound in zip(("lo", "hi"), spec))
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        raise data.error(key, f"empty domain {lo}..{hi}")
    return lo, hi
