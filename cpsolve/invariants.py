"""Linear invariants of a :class:`~cpsolve.model.Planning` model, and the impossibility they prove.

An *invariant* is a weighted sum ``w . x`` of state variables that no action
changes: over the integers (``modulus`` 0), or modulo a prime ``p``.  When
the start and every goal state give it different values, no plan exists —
whatever the search would say, and at once.  Peg solitaire's classic
colourings (the French 37-hole board cannot go from the centre to the
centre) are such sums modulo 2; nothing here knows pegs.

Derivation (:func:`find`), from the actions' text only:

1. every action's *change vector*: the constant change of each variable it
   writes (:func:`cpsolve.facts.changes`).  A variable some action changes
   by an amount its text does not fix gets weight 0, and so does a variable
   the goal does not pin to a constant (its final value is not known);
2. ``w`` must be orthogonal to every change vector (mod ``p``), so it lies
   in the null space of the matrix of change vectors restricted to the
   remaining *candidate* variables; ``d = goal - start`` on them;
3. a ``w`` with ``w . d != 0`` exists exactly when ``d`` is not in the row
   space; Gaussian elimination (over the rationals, then GF(2), GF(3),
   GF(5)) finds the null-space basis vector of fewest variables that has one.

Sound by construction: an action changes ``w . x`` by ``w . (change vector)``
= 0, since every weighted variable it writes changes by its constant; the
non-negativity of plan multiplicities is never assumed.  Every invariant
returned is also re-verified by the independent checker
(:func:`cpsolve.check.invariant_problem`) by enumerating the states where
each action applies, so an action whose variables have too many value
combinations to enumerate (:data:`CHECKABLE`) gives its written variables
weight 0 here.  Nothing is derived when the matrix is too large
(:data:`MAX_ROWS`, :data:`MAX_COLUMNS`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .facts import changes, goal_pins
from .model import Planning

MODULI = (0, 2, 3, 5)
"""Tried in this order: integers (0), then the primes 2, 3 and 5."""

CHECKABLE = 1 << 12
"""Most value combinations of the variables one action reads or writes for its writes to
be weighted (the checker enumerates them)."""

CHECK_TOTAL = 1 << 18
"""Most value combinations over all the actions that write a candidate variable."""

MAX_ROWS = 20_000
"""Most distinct change vectors eliminated."""

MAX_COLUMNS = 2_000
"""Most candidate variables."""


@dataclass(frozen=True)
class Invariant:
    """``sum(w * x for x, w in weights)`` is the same (mod ``modulus``; 0: exactly) in every
    state reached from the start, and differs from its value in every goal state.

    ``start`` and ``goal`` are its values (reduced mod ``modulus`` when it is a prime).
    """

    weights: tuple[tuple[str, int], ...]
    modulus: int
    start: int
    goal: int

    def words(self) -> str:
        """The invariant stated for people, in one sentence."""
        terms = _terms(self.weights)
        where = "exactly" if self.modulus == 0 else f"modulo {self.modulus}"
        return (f"no plan: {terms} is preserved {where} by every action, "
                f"but it is {self.start} at the start and {self.goal} in every goal state")


SHOWN = 24
"""Most terms :meth:`Invariant.words` writes out (the result carries them all)."""


def _terms(weights: tuple[tuple[str, int], ...]) -> str:
    """``a + b - 2*c``: a weighted sum in text (at most :data:`SHOWN` terms written out)."""
    out = []
    for name, w in weights[:SHOWN]:
        term = name if abs(w) == 1 else f"{abs(w)}*{name}"
        sign = "-" if w < 0 else "+"
        out.append((sign.strip("+") + term) if not out else f"{sign} {term}")
    if len(weights) > SHOWN:
        out.append(f"+ ... ({len(weights) - SHOWN} more terms)")
    return " ".join(out)


def find(model: Planning) -> Invariant | None:
    """An invariant whose value at the start differs from its value in every goal state.

    ``None`` when none was found (which proves nothing) or when the model is too large
    to eliminate.  (When the goal holds at the start, ``goal - start`` is 0 on every
    pinned variable and no invariant separates them.)
    """
    if not model.initial or not model.actions:
        return None
    pinned = goal_pins(model)
    if any(v not in model.domains[n] for n, v in pinned.items()):
        return None  # the goal holds nowhere; not an argument about invariants
    vectors, free = _change_vectors(model)
    columns = [n for n in model.domains if n in pinned and n not in free]
    if not columns or len(columns) > MAX_COLUMNS:
        return None
    index = {n: i for i, n in enumerate(columns)}
    rows = {tuple(sorted((index[n], c) for n, c in vec.items() if n in index and c))
            for vec in vectors}
    rows.discard(())
    if len(rows) > MAX_ROWS:
        return None
    delta = [pinned[n] - model.initial[n] for n in columns]
    for modulus in MODULI:
        weights = _separating(rows, delta, len(columns), modulus)
        if weights is not None:
            named = tuple((columns[i], w) for i, w in enumerate(weights) if w)
            if not _checkable(model, {n for n, _ in named}):
                continue
            start = sum(w * model.initial[n] for n, w in named)
            goal = sum(w * pinned[n] for n, w in named)
            if modulus:
                start, goal = start % modulus, goal % modulus
            return Invariant(named, modulus, start, goal)
    return None


def _change_vectors(model: Planning) -> tuple[list[dict[str, int]], set[str]]:
    """Each action's constant changes, and the variables some action changes otherwise."""
    vectors, free = [], set()
    for action in model.actions:
        vec = changes(action, model)
        writes = action.writes()
        if _combinations(model, action.reads() | writes) > CHECKABLE:
            free |= writes
            continue
        free |= writes - vec.keys()
        vectors.append(vec)
    return vectors, free


def _combinations(model: Planning, names: set[str]) -> int:
    return math.prod(model.domains[n].size for n in names)


def _checkable(model: Planning, weighted: set[str]) -> bool:
    """True when the checker's enumeration over the actions writing ``weighted`` is small."""
    total = sum(_combinations(model, a.reads() | a.writes()) for a in model.actions
                if a.writes() & weighted)
    return total <= CHECK_TOTAL


# ---------------------------------------------------------------- elimination


def _separating(rows: set[tuple[tuple[int, int], ...]], delta: list[int], size: int,
                modulus: int) -> list[int] | None:
    """Integer weights ``w`` (reduced to ``-p/2 .. p/2`` mod a prime) with ``w . r == 0`` for
    every row and ``w . delta != 0`` (mod ``modulus``; 0: over the rationals), of fewest
    non-zero entries among the null-space basis vectors; None when ``delta`` is in the row
    space."""
    field = _Field(modulus)
    basis: dict[int, dict[int, object]] = {}  # pivot column -> reduced row, pivot entry 1
    for row in sorted(rows):
        vec = {c: field.of(v) for c, v in row}
        vec = {c: v for c, v in vec.items() if v}
        for pivot, brow in basis.items():
            factor = vec.get(pivot)
            if factor:
                _add(vec, brow, field.neg(factor), field)
        if not vec:
            continue
        pivot = min(vec)
        inverse = field.inv(vec[pivot])
        vec = {c: field.mul(v, inverse) for c, v in vec.items()}
        for brow in basis.values():
            factor = brow.get(pivot)
            if factor:
                _add(brow, vec, field.neg(factor), field)
        basis[pivot] = vec
    target = [field.of(d) for d in delta]
    best: list | None = None
    for free in range(size):
        if free in basis:
            continue
        w = {free: field.of(1)}
        for pivot, brow in basis.items():
            entry = brow.get(free)
            if entry:
                w[pivot] = field.neg(entry)
        dot = field.of(0)
        for c, v in w.items():
            dot = field.add(dot, field.mul(v, target[c]))
        if dot and (best is None or len(w) < len(best)):
            best = [w.get(c, 0) for c in range(size)]
    return None if best is None else field.integers(best)


def _add(target: dict[int, object], row: dict[int, object], factor: object,
         field: _Field) -> None:
    """``target += factor * row`` in place, dropping zeros."""
    for c, v in row.items():
        value = field.add(target.get(c, field.of(0)), field.mul(factor, v))
        if value:
            target[c] = value
        else:
            target.pop(c, None)


class _Field:
    """The rationals (``modulus`` 0) or the integers modulo a prime."""

    def __init__(self, modulus: int) -> None:
        self.p = modulus

    def of(self, value: int) -> object:
        return Fraction(value) if self.p == 0 else value % self.p

    def add(self, a, b):
        return a + b if self.p == 0 else (a + b) % self.p

    def mul(self, a, b):
        return a * b if self.p == 0 else (a * b) % self.p

    def neg(self, a):
        return -a if self.p == 0 else (-a) % self.p

    def inv(self, a):
        return 1 / a if self.p == 0 else pow(a, self.p - 2, self.p)

    def integers(self, values: list) -> list[int]:
        """Rationals scaled to coprime integers; residues as ``-p/2 .. p/2``."""
        if self.p:
            return [v - self.p if v > self.p // 2 else v for v in values]
        scale = math.lcm(*(Fraction(v).denominator for v in values))
        ints = [int(v * scale) for v in values]
        common = math.gcd(*ints)
        return [v // common for v in ints]
