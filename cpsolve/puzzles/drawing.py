"""A transition file's ``[draw]`` table: how its states are pictured, beyond a table of
variables (issue 24). One array of state variables is drawn as

* ``board = "x"``, ``rows = R`` — a 2-D board, row by row (Lights Out);
* ``stacks = "peg"`` — item ``i`` sits on stack ``peg[i]``, item 0 the smallest and on top
  (Tower of Hanoi); one stack per value of the array's domain, empty or not, named by the
  array's ``[labels]``;
* ``levels = "jug"``, ``capacity = [8, 5]`` — vessels filled to their values (water jugs;
  without ``capacity``, each cell's domain maximum).

The pictures themselves are drawn by :mod:`cpsolve.output.draw.transition`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..language.quoting import shown
from ..model import Planning
from .data import Data

KINDS = ("board", "stacks", "levels")
KEYS = {*KINDS, "rows", "capacity"}


@dataclass(frozen=True)
class Drawing:
    """What ``[draw]`` declares: ``kind`` of picture of the array ``array`` (its cells in
    order), with ``rows`` (board), ``capacity`` (levels, one per cell) or ``stacks`` (the
    values a cell may take, one stack each: the same stacks in every state)."""

    kind: str
    array: str
    cells: tuple[str, ...]
    rows: int = 1
    capacity: tuple[int, ...] = ()
    stacks: tuple[int, ...] = ()


def drawing(data: Data, model: Planning) -> Drawing | None:
    """The file's ``[draw]`` table, checked against the model, or None."""
    table = data.get("draw", dict, None)
    if table is None:
        return None
    data.unknown_keys(KEYS, table, "draw.")
    kinds = [k for k in KINDS if k in table]
    if len(kinds) != 1:
        raise data.error("draw", "give one of board, stacks or levels (the array to draw)")
    kind = kinds[0]
    array = data.get(kind, str, table=table, prefix="draw.")
    cells = tuple(n for n in model.names if n.startswith(f"{array}[")) or \
        ((array,) if array in model.names else ())
    if not cells:
        raise data.error(f"draw.{kind}", f"no state variable or array named {shown(array)}")
    if kind == "board":
        rows = data.get("rows", int, 1, table=table, prefix="draw.")
        if rows < 1 or len(cells) % rows:
            raise data.error("draw.rows", f"{len(cells)} cells do not make {rows} equal rows")
        return Drawing(kind, array, cells, rows=rows)
    if kind == "levels":
        capacity = data.items("capacity", int, [model.domain(c)[1] for c in cells], table=table,
                            prefix="draw.")
        if len(capacity) != len(cells) or not all(isinstance(v, int) and v > 0
                                                  for v in capacity):
            raise data.error("draw.capacity", f"expected {len(cells)} integers > 0")
        return Drawing(kind, array, cells, capacity=tuple(capacity))
    lo = min(model.domain(c)[0] for c in cells)
    hi = max(model.domain(c)[1] for c in cells)
    return Drawing(kind, array, cells, stacks=tuple(range(lo, hi + 1)))
