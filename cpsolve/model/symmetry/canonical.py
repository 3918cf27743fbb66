"""Symmetries of a :class:`~cpsolve.model.csp.Csp` and canonical forms under them.

A :class:`Symmetry` is what a puzzle family hands to the generic tools
(:mod:`cpsolve.workflows.grids.counting`,
:mod:`cpsolve.workflows.grids.generator`): permutations of the
model's variables and, optionally, the *renaming of values* (any permutation
of ``values``).  Nothing here knows about grids; the grid family builds its
symmetries in :mod:`cpsolve.model.symmetry.grid`.

Vocabulary:

* *position* — the index of a variable in ``Symmetry.variables``;
* *board symmetry* ``p`` — a permutation of positions: the value at position
  ``i`` moves to position ``p[i]``;
* *value map* — with a board symmetry ``g``, a fixed renaming of the values
  it comes with (``value_maps[g]``, e.g. ``v -> 7 - v`` for a mirrored row of
  queens); empty ``value_maps`` means none;
* *relabelling* ``σ`` — a permutation of the values, applied to every value;
* the *group* acting on assignments and on partial assignments (givens) is
  every board symmetry followed by every relabelling (when ``relabel``);
* a *canonical form* is the least image under the whole group (lexicographic
  order on positions, then values), so two things are equivalent exactly when
  their canonical forms are equal.

Arrays hold values, not names; :func:`relabel_normal` renames values to
``0, 1, 2, ...`` in order of first appearance, which is the canonical form
under relabelling alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..csp import AllDifferent, Condition, Csp, CspSymmetry, named
from .rules import breaks


@dataclass(frozen=True)
class Symmetry:
    """Board symmetries (variable permutations) and, when ``relabel``, renaming of values.

    ``perms[0]`` is the identity; ``names[g]`` says in words what ``perms[g]``
    does.  ``values`` are the values every variable ranges over; ``summary``
    describes the board symmetries in a few words.
    """

    variables: tuple[str, ...]
    perms: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    values: tuple[int, ...]
    relabel: bool
    summary: str = ""
    value_maps: tuple[tuple[int, ...], ...] = ()
    """Per board symmetry, the image of each of ``values`` (empty: no value maps)."""

    def map_values(self, g: int, values: np.ndarray) -> np.ndarray:
        """``values`` renamed by board symmetry ``g``'s value map (unchanged without one)."""
        if not self.value_maps:
            return values
        lo = min(self.values)
        table = np.arange(lo, max(self.values) + 1, dtype=np.int64)
        for v, image in zip(self.values, self.value_maps[g]):
            table[v - lo] = image
        return table[np.asarray(values, dtype=np.int64) - lo]

    @property
    def position(self) -> dict[str, int]:
        """Variable name -> position."""
        return {n: i for i, n in enumerate(self.variables)}

    def perm_array(self) -> np.ndarray:
        """``perms`` as an integer array of shape (symmetries, positions)."""
        return np.asarray(self.perms, dtype=np.int64).reshape(len(self.perms), -1)

    def describe(self) -> str:
        """The group in words."""
        board = self.summary or f"{len(self.perms)} board symmetries ({', '.join(self.names)})"
        rename = " and any renaming of the symbols" if self.relabel else ""
        return f"{board}{rename}"


def trivial(csp: Csp) -> Symmetry:
    """The identity alone: every assignment is its own class."""
    values = sorted({v for n in csp.domains for v in csp.values(n)})
    names = tuple(csp.domains)
    return Symmetry(names, (tuple(range(len(names))),), ("identity",), tuple(values), False,
                    "no symmetry (the identity alone)")


def problems(csp: Csp, sym: Symmetry) -> list[str]:
    """Why ``sym`` is not a symmetry of ``csp`` (empty when it provably is).

    Each board symmetry (with its value map) is checked by
    :func:`cpsolve.model.symmetry.rules.breaks`: it must map the variables' values,
    the all-different groups and the conditions onto themselves.  With
    relabelling, every constraint other than a given must be an all-different
    group and every variable range over exactly ``values`` (then any renaming
    keeps the rules).  Givens are ignored: symmetries belong to the rules,
    not to one puzzle.  The identity alone holds for any model.
    """
    out: list[str] = []
    if tuple(csp.domains) != sym.variables:
        return ["the symmetry's variables are not the model's"]
    identity = tuple(range(len(sym.variables)))
    for g, (name, perm) in enumerate(zip(sym.names, sym.perms)):
        if sorted(perm) != list(identity):
            out.append(f"{name} is not a permutation")
            continue
        vmap = {v: w for v, w in zip(sym.values, sym.value_maps[g]) if v != w} \
            if sym.value_maps else {}
        if perm == identity and not vmap:
            continue
        mapping = {n: sym.variables[perm[i]] for i, n in enumerate(sym.variables)}
        why = breaks(csp, CspSymmetry(name, mapping, vmap))
        if why:
            out.append(why)
    if sym.relabel:
        if sym.value_maps:
            out.append("renaming symbols cannot be combined with value maps")
        for c in csp.constraints:
            if not isinstance(c, AllDifferent) and not (isinstance(c, Condition)
                                                        and c.label == "given"):
                out.append(f"constraint {named(c)} is not an all-different "
                           "group, so the symbols cannot be renamed freely")
        if any(tuple(csp.values(n)) != sym.values for n in csp.domains):
            out.append("renaming symbols needs every variable to range over the same values")
    return out


def relabel_normal(rows: np.ndarray) -> np.ndarray:
    """Rename the values of each row (last axis) to 0, 1, 2, ... by first appearance."""
    rows = np.asarray(rows)
    k = rows.shape[-1]
    if k > SHORT:
        eq = rows[..., :, None] == rows[..., None, :]
        first = eq.argmax(axis=-2)
        rank = np.cumsum(first == np.arange(k), axis=-1) - 1
        return np.take_along_axis(rank, first, axis=-1)
    out = np.empty(rows.shape, dtype=np.int8)
    seen = np.zeros(rows.shape[:-1], dtype=out.dtype)
    for j in range(k):
        col = rows[..., j]
        label = seen
        for i in range(j):
            label = np.where(rows[..., i] == col, out[..., i], label)
        out[..., j] = label
        seen = seen + (label == seen)
    return out.astype(np.int64)


SHORT = 12
"""Rows up to this length are renamed column by column; longer ones by a comparison matrix."""


def lexmin(keys: Iterable[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise lexicographic minimum over candidate arrays (each N × L), in order.

    Returns the minimal rows and, for each, the index of the candidate reaching it.
    """
    it = iter(keys)
    best = np.array(next(it), copy=True)
    arg = np.zeros(len(best), dtype=np.int64)
    rows = np.arange(len(best))
    for g, cand in enumerate(it, start=1):
        if best.shape[1] == 0:
            break
        diff = cand != best
        col = diff.argmax(axis=1)
        less = diff.any(axis=1) & (cand[rows, col] < best[rows, col])
        best[less] = cand[less]
        arg[less] = g
    return best, arg


def canonical_grids(sym: Symmetry, grids: np.ndarray, board: bool = True) -> np.ndarray:
    """Canonical forms of full assignments (rows of values, one column per position).

    With ``board=False`` only relabelling is applied.  Equal rows out mean
    equivalent assignments in.
    """
    grids = np.atleast_2d(np.asarray(grids))
    perms = sym.perm_array() if board else sym.perm_array()[:1]

    def images() -> Iterator[np.ndarray]:
        for g, p in enumerate(perms):
            image = np.empty_like(grids)
            image[:, p] = sym.map_values(g, grids)
            yield relabel_normal(image) if sym.relabel else image

    return lexmin(images())[0]


def canonical_givens(sym: Symmetry, positions: np.ndarray, values: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Canonical forms of partial assignments: ``K`` positions and their values per row.

    Returns ``(keys, which)``: ``keys`` has the canonical positions (sorted)
    in its first ``K`` columns and the values in the other ``K`` (renamed by
    first appearance when ``relabel``); ``which`` is the board symmetry that
    produced each key.
    """
    positions = np.atleast_2d(np.asarray(positions, dtype=np.int64))
    values = np.atleast_2d(np.asarray(values, dtype=np.int64))

    def images() -> Iterator[np.ndarray]:
        for g, p in enumerate(sym.perm_array()):
            moved = p[positions]
            order = np.argsort(moved, axis=1, kind="stable")
            vals = np.take_along_axis(sym.map_values(g, values), order, axis=1)
            if sym.relabel:
                vals = relabel_normal(vals)
            yield np.concatenate([np.take_along_axis(moved, order, axis=1), vals], axis=1)

    return lexmin(images())


def canonical_puzzle(sym: Symmetry, givens: Mapping[str, int]) -> tuple[tuple[int, ...], ...]:
    """The canonical form of one set of givens (variable -> value), hashable."""
    pos = sym.position
    items = sorted((pos[n], v) for n, v in givens.items())
    keys, _ = canonical_givens(sym, np.array([[i for i, _ in items]]).reshape(1, -1),
                               np.array([[v for _, v in items]]).reshape(1, -1))
    k = len(items)
    return tuple(int(x) for x in keys[0, :k]), tuple(int(x) for x in keys[0, k:])


def transform(sym: Symmetry, g: int, assignment: Mapping[str, int],
              renaming: Mapping[int, int] | None = None) -> dict[str, int]:
    """Apply board symmetry ``g`` and then ``renaming`` (value -> value) to an assignment."""
    perm, pos = sym.perms[g], sym.position
    rename = renaming or {}
    vmap = dict(zip(sym.values, sym.value_maps[g])) if sym.value_maps else {}
    return {sym.variables[perm[pos[n]]]: rename.get(vmap.get(v, v), vmap.get(v, v))
            for n, v in assignment.items()}


def as_rows(sym: Symmetry, assignments: Sequence[Mapping[str, int]]) -> np.ndarray:
    """Full assignments as an array of values, one column per position."""
    return np.array([[a[n] for n in sym.variables] for a in assignments],
                    dtype=np.int64).reshape(len(assignments), len(sym.variables))
