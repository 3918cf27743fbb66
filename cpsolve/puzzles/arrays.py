"""Arrays of a ``transition`` or ``csp`` file: the value of every cell from what the file
wrote (:func:`array_values`, refusing a misfit in words), an array's shape and cell names.
"""

from __future__ import annotations

import math
from typing import Any

from .data import Data


def leaves(value: Any) -> Any:
    """The elements of a (nested) list, row by row."""
    for v in value:
        if isinstance(v, list):
            yield from leaves(v)
        else:
            yield v


def array_values(data: Data, key: str, value: int | list, shape: list[int], name: str
                 ) -> list[int]:
    """The value of every cell of array ``name`` (of ``shape``), row by row, from ``value``
    as :func:`~cpsolve.puzzles.constants.read_values` read it at ``key``: one integer for
    every cell, a flat list of every cell row by row, or lists nested as the shape
    (``[[1, 0], [0, 1]]`` for a 2 x 2 array).  Any other list is refused in one line saying
    what was expected."""
    total = math.prod(shape)
    if isinstance(value, int):
        return [value] * total
    flat = not any(isinstance(v, list) for v in value)
    if flat and len(value) == total:
        return list(value)
    misfit = None if flat else _misfit(value, shape, name)
    if not flat and misfit is None:
        return list(leaves(value))
    wanted = _layout(shape) + (f" (or {total} values row by row)" if len(shape) > 1 else "")
    got = f"got {_count(len(value), 'value')}" if flat else misfit
    raise data.error(key, f"expected {wanted}; {got}")


def shape_of(cells: list) -> list[int]:
    """The shape of an array of the scope (its cells as nested lists of variables)."""
    shape = []
    while isinstance(cells, list):
        shape.append(len(cells))
        cells = cells[0]
    return shape


def cell_names(cells: list) -> list[str]:
    """The names of an array's cells (nested lists of variables), row by row."""
    return [v.name for v in leaves(cells)]


def _layout(shape: list[int]) -> str:
    """``shape`` in words: "3 values", "4 rows of 4 values", "2 lists of 3 rows of 4 values"."""
    if len(shape) == 1:
        return _count(shape[0], "value")
    if len(shape) == 2:
        return f"{_count(shape[0], 'row')} of {_count(shape[1], 'value')}"
    return f"{_count(shape[0], 'list')} of {_layout(shape[1:])}"


def _misfit(value: Any, shape: list[int], path: str) -> str | None:
    """Where ``value`` does not nest as ``shape`` (``path`` names it: ``x``, ``x[2]``), in
    words; None when it does."""
    row = "row " if len(shape) == 1 and "[" in path else ""
    unit = "value" if len(shape) == 1 else "row" if len(shape) == 2 else "list"
    if not isinstance(value, list):
        return f"{row}{path} is {value}, not a list of {_layout(shape)}"
    if len(value) != shape[0]:
        return f"{row}{path} has {_count(len(value), unit)}"
    for i, item in enumerate(value):
        if len(shape) == 1 and isinstance(item, list):
            return f"{path}[{i}] is a list, not a value"
        if len(shape) > 1 and (where := _misfit(item, shape[1:], f"{path}[{i}]")) is not None:
            return where
    return None


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1."""
    return f"{n} {word}{'' if n == 1 else 's'}"
