"""A grid file's optional ``[picture]`` table: what a person must see of rules the family
cannot read back from its ``constraints`` (cages, regions, inequalities).

    [picture]
    regions = "cage"              # n×n region ids: thick borders between different ones
    notes = [[0, 0, "60×"]]       # [row, col, text]: small text in a cell's top-left corner
    signs = "less"                # [r1, c1, r2, c2] (cell 1 < cell 2), or with "<" or ">"

Each key is a TOML value or a constant expression over ``size`` and the ``[constants]``
(``"cage"``, ``"[[p[0], p[1], t] for p in ...]"``); the language has no strings, so a
computed note's text is a number.  The picture only draws: the rules stay the file's
``constraints``.  Boards are drawn by :mod:`cpsolve.output.draw.grid` and by
:meth:`cpsolve.puzzles.grid_board.GridPuzzle.draw`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..language.expr import Const
from ..language.parse import constant_list
from ..language.quoting import shorten, shown
from ..language.scope import Scope
from ..language.syntax import ExprError
from .data import Data, key_part

KEYS = {"regions", "notes", "signs"}
NOTE_CHARACTERS = 8
"""The longest note: it must fit in a corner of its cell."""
Cell = tuple[int, int]


@dataclass(frozen=True)
class GridPicture:
    """What ``[picture]`` declares: ``regions`` (region id by row, or None), ``notes``
    (``(row, col, text)``) and ``signs``, each ``(smaller cell, larger cell)`` of two
    cells side by side."""

    regions: tuple[tuple[int, ...], ...] | None = None
    notes: tuple[tuple[int, int, str], ...] = ()
    signs: tuple[tuple[Cell, Cell], ...] = ()

    def borders(self) -> list[tuple[Cell, Cell]]:
        """Each pair of side-by-side cells in different regions, the upper or left one
        first (where a thick border is drawn)."""
        regions = self.regions
        if regions is None:
            return []
        n = len(regions)
        return [((r, c), (r + dr, c + dc)) for r in range(n) for c in range(n)
                for dr, dc in ((0, 1), (1, 0))
                if r + dr < n and c + dc < n and regions[r][c] != regions[r + dr][c + dc]]

    def marks(self) -> dict[tuple[Cell, Cell], str]:
        """The text mark of each sign, keyed by its cells upper or left first: ``<`` / ``>``
        between cells of a row, ``∧`` / ``∨`` between cells of a column (the point at the
        smaller cell)."""
        out = {}
        for small, large in self.signs:
            first, second = sorted((small, large))
            across = first[0] == second[0]
            out[(first, second)] = ("<" if across else "∧") if first == small else \
                (">" if across else "∨")
        return out


def grid_picture(data: Data, n: int, scope: Scope) -> GridPicture:
    """The file's ``[picture]`` table, checked for an ``n`` × ``n`` grid (``scope``: the
    constants), or an empty picture."""
    table = data.get("picture", dict, None)
    if table is None:
        return GridPicture()
    data.unknown_keys(KEYS, table, "picture.")
    raw = {key: _value(data, f"picture.{key_part(key)}", table[key], scope)
           for key in sorted(KEYS) if key in table}
    return GridPicture(
        _regions(data, n, raw["regions"]) if "regions" in raw else None,
        _notes(data, n, raw.get("notes", [])), _signs(data, n, raw.get("signs", [])))


def _value(data: Data, key: str, value: Any, scope: Scope) -> Any:
    """A TOML value as is, or a constant expression's value as plain (nested) integers."""
    if not isinstance(value, str):
        return value
    try:
        return _plain(constant_list(value, scope))
    except ExprError as err:
        raise data.error(key, str(err)) from None


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value.value if isinstance(value, Const) else value


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _regions(data: Data, n: int, value: Any) -> tuple[tuple[int, ...], ...]:
    if not (isinstance(value, list) and len(value) == n and all(
            isinstance(row, list) and len(row) == n and all(map(_integer, row))
            for row in value)):
        raise data.error("picture.regions", f"expected {n} rows of {n} region ids "
                         f"(integers), got {_short(value)}")
    return tuple(tuple(row) for row in value)


def _cell(data: Data, key: str, n: int, item: list, at: int) -> Cell:
    r, c = item[at], item[at + 1]
    if not (_integer(r) and _integer(c) and 0 <= r < n and 0 <= c < n):
        raise data.error(key, f"[{shown(r)}, {shown(c)}] is not a [row, col] inside the {n}x{n} "
                         "grid (0-based)")
    return r, c


def _items(data: Data, key: str, value: Any, what: str) -> list:
    if not isinstance(value, list) or not all(isinstance(v, list) for v in value):
        raise data.error(key, f"expected a list of {what}, got {_short(value)}")
    return value


def _notes(data: Data, n: int, value: Any) -> tuple[tuple[int, int, str], ...]:
    out: dict[Cell, str] = {}
    for i, item in enumerate(_items(data, "picture.notes", value, '[row, col, "text"]')):
        key = f"picture.notes[{i}]"
        if len(item) != 3:
            raise data.error(key, f'expected [row, col, "text"], got {_short(item)}')
        text = str(item[2]) if _integer(item[2]) else item[2]
        if not (isinstance(text, str) and text.strip() and text.isprintable()
                and len(text) <= NOTE_CHARACTERS):
            raise data.error(key, f"the text must be a number or a string of 1 to "
                             f"{NOTE_CHARACTERS} printable characters, got {_short(item[2])}")
        cell = _cell(data, key, n, item, 0)
        if cell in out:
            raise data.error(key, f"cell [{cell[0]}, {cell[1]}] has a note already")
        out[cell] = text
    return tuple((r, c, text) for (r, c), text in out.items())


def _signs(data: Data, n: int, value: Any) -> tuple[tuple[Cell, Cell], ...]:
    out: dict[frozenset, tuple[Cell, Cell]] = {}
    for i, item in enumerate(_items(data, "picture.signs", value, "[r1, c1, r2, c2]")):
        key = f"picture.signs[{i}]"
        if len(item) not in (4, 5) or (len(item) == 5 and item[4] not in ("<", ">")):
            raise data.error(key, f'expected [r1, c1, r2, c2] or [r1, c1, r2, c2, "<" or '
                             f'">"], got {_short(item)}')
        one, two = _cell(data, key, n, item, 0), _cell(data, key, n, item, 2)
        if abs(one[0] - two[0]) + abs(one[1] - two[1]) != 1:
            raise data.error(key, f"cells [{one[0]}, {one[1]}] and [{two[0]}, {two[1]}] "
                             "are not side by side: a sign stands between neighbours")
        if frozenset((one, two)) in out:
            raise data.error(key, "these two cells have a sign already")
        out[frozenset((one, two))] = (two, one) if item[4:] == [">"] else (one, two)
    return tuple(out.values())


def _short(value: Any) -> str:
    """``value`` as Python writes it, cut to 60 characters (for a message)."""
    return shorten(repr(value), quote=False)
