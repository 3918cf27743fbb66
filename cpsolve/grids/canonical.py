"""Symmetries of a :class:`~cpsolve.model.Csp` and canonical forms under them.

A :class:`Symmetry` is what a puzzle family hands to the generic tools
(:mod:`cpsolve.grids.counting`, :mod:`cpsolve.grids.generator`): permutations of the
model's variables and, optionally, the *renaming of values* (any permutation
of ``values``).  Nothing here knows about grids; the grid family builds its
symmetries in :mod:`cpsolve.grids.board`.

Vocabulary:

* *position* — the index of a variable in ``Symmetry.variables``;
* *board symmetry* ``p`` — a permutation of positions: the value at position
  ``i`` moves to position ``p[i]``;
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

from ..model import AllDifferent, Condition, Csp


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

    Provable here: every constraint other than a given is an all-different
    group, board symmetries map the set of groups onto itself, and (for
    relabelling) every variable ranges over exactly ``values``.  Givens are
    ignored: symmetries belong to the rules, not to one puzzle.  The identity
    alone holds for any model.
    """
    out: list[str] = []
    if tuple(csp.domains) != sym.variables:
        return ["the symmetry's variables are not the model's"]
    groups = set()
    moves = sym.relabel or any(p != tuple(range(len(p))) for p in sym.perms)
    for c in csp.constraints:
        if isinstance(c, AllDifferent):
            groups.add(frozenset(sym.position[n] for n in c.names))
        elif moves and not (isinstance(c, Condition) and c.label == "given"):
            out.append(f"constraint {c.label or type(c).__name__} is not an all-different group")
    for name, perm in zip(sym.names, sym.perms):
        if sorted(perm) != list(range(len(sym.variables))):
            out.append(f"{name} is not a permutation")
        elif {frozenset(perm[i] for i in g) for g in groups} != groups:
            out.append(f"{name} does not map the groups onto themselves")
        elif any(csp.values(sym.variables[perm[i]]) != csp.values(n)
                 for i, n in enumerate(sym.variables)):
            out.append(f"{name} moves a variable onto one with other values")
    if sym.relabel and any(csp.values(n) != sym.values for n in csp.domains):
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
        for p in perms:
            image = np.empty_like(grids)
            image[:, p] = grids
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
        for p in sym.perm_array():
            moved = p[positions]
            order = np.argsort(moved, axis=1, kind="stable")
            vals = np.take_along_axis(values, order, axis=1)
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
    return {sym.variables[perm[pos[n]]]: rename.get(v, v) for n, v in assignment.items()}


def as_rows(sym: Symmetry, assignments: Sequence[Mapping[str, int]]) -> np.ndarray:
    """Full assignments as an array of values, one column per position."""
    return np.array([[a[n] for n in sym.variables] for a in assignments],
                    dtype=np.int64).reshape(len(assignments), len(sym.variables))
