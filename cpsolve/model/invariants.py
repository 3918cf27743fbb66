"""Invariants of a :class:`~.core.Planning` model, and the impossibility they prove.

Two kinds: linear invariants (:class:`Invariant`, derived here from the actions' text)
and the permutation parity a family states (:class:`Parity`, derived by the family).

A linear *invariant* is a weighted sum ``w . x`` of state variables that no action
changes: over the integers (``modulus`` 0), or modulo a prime ``p``.  When
the start and every goal state give it different values, no plan exists —
whatever the search would say, and at once.  Peg solitaire's classic
colourings (the French 37-hole board cannot go from the centre to the
centre) are such sums modulo 2; nothing here knows pegs.

Derivation (:func:`find`), from the actions' text only:

1. every action's *change vector*: the constant change of each variable it
   writes (:func:`cpsolve.model.facts.changes`).  A variable some action changes
   by an amount its text does not fix gets weight 0, and so does a variable
   the goal does not pin to a constant (its final value is not known);
2. ``w`` must be orthogonal to every change vector (mod ``p``), so it lies
   in the null space of the matrix of change vectors restricted to the
   remaining *candidate* variables; ``d = goal - start`` on them;
3. a ``w`` with ``w . d != 0`` exists exactly when ``d`` is not in the row
   space; Gaussian elimination finds the null-space basis vector of fewest
   variables that has one, modulo :data:`LARGE` (a prime), then 2, 3 and 5.
   Modulo the large prime it finds what elimination over the rationals would
   (except for the rare matrices whose minors :data:`LARGE` divides); its
   weights, read back as small fractions and scaled to integers, are
   reported as an exact integer invariant when they are one (checked on
   every change vector), else as an invariant modulo :data:`LARGE`, which
   proves just as much.

Sound by construction: an action changes ``w . x`` by ``w . (change vector)``
= 0, since every weighted variable it writes changes by its constant; the
non-negativity of plan multiplicities is never assumed.  Every invariant
returned is also re-verified by the independent checker
(:func:`cpsolve.answers.check.proofs.invariant_problem`) by enumerating the states where
each action applies, so an action whose variables have too many value
combinations to enumerate (:data:`CHECKABLE`) gives its written variables
weight 0 here.  Nothing is derived when the matrix is too large
(:data:`MAX_ROWS`, :data:`MAX_COLUMNS`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..language.expr import conjuncts
from .claims import Parity  # noqa: F401  (stated here before; its home is claims)
from .facts import changes
from .pins import conjunct_pins, goal_pins
from .planning import Planning

if TYPE_CHECKING:  # imported where a weight is found (fractions loads decimal): not at start-up
    from fractions import Fraction

LARGE = 1_000_003
"""The large prime the elimination standing in for the rationals works modulo."""

MODULI = (LARGE, 2, 3, 5)
"""Tried in this order."""

CHECKABLE = 1 << 12
"""Most value combinations of the variables one action reads or writes for its writes to
be weighted (the checker enumerates them)."""

CHECK_TOTAL = 1 << 18
"""Most value combinations over all the actions that write a candidate variable."""

MAX_ROWS = 20_000
"""Most distinct change vectors eliminated."""

MAX_COLUMNS = 2_000
"""Most candidate variables."""

WORK = 1_000_000
"""Most entry updates one elimination makes before it gives up (nothing is derived)."""


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

    def words(self, name: Callable[[str], str] = str) -> str:
        """The invariant stated for people, in one sentence, each variable as ``name``
        says it (a family's :meth:`~cpsolve.puzzles.base.Puzzle.variable_text`)."""
        terms = _terms(self.weights, name)
        where = "exactly" if self.modulus == 0 else f"modulo {self.modulus}"
        return (f"no plan: {terms} is preserved {where} by every action, "
                f"but it is {self.start} at the start and {self.goal} in every goal state")


SHOWN = 24
"""Most terms :meth:`Invariant.words` writes out (the result carries them all)."""


def _terms(weights: tuple[tuple[str, int], ...], said: Callable[[str], str] = str) -> str:
    """``a + b - 2*c``: a weighted sum in text (at most :data:`SHOWN` terms written out),
    each variable as ``said`` says it."""
    out = []
    for name, w in weights[:SHOWN]:
        term = said(name) if abs(w) == 1 else f"{abs(w)}*{said(name)}"
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
    found = [p for c in conjuncts(model.goal) for p in conjunct_pins(c, model.domain) or ()]
    if any(v not in model.domains[n] for n, v in pinned.items()) or \
            any(pinned[p[0]] != p[1] for p in found):
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
        try:
            weights = _separating(rows, delta, len(columns), modulus)
        except _TooLarge:
            return None
        if weights is None:
            continue
        if modulus == LARGE and (exact := _lifted(weights, rows, delta)) is not None:
            weights, modulus = exact, 0
        named = tuple((columns[i], w) for i, w in enumerate(weights) if w)
        if not _checkable(model, {n for n, _ in named}):
            continue
        start = sum(w * model.initial[n] for n, w in named)
        goal = sum(w * pinned[n] for n, w in named)
        if modulus:
            start, goal = start % modulus, goal % modulus
        return Invariant(named, modulus, start, goal)
    return None


def _lifted(weights: list[int], rows: set[tuple[tuple[int, int], ...]],
            delta: list[int]) -> list[int] | None:
    """Weights modulo :data:`LARGE` read back as the smallest fractions they can be
    (rational reconstruction), scaled to coprime integers: returned when they are an
    invariant over the integers (orthogonal to every row, not to ``delta``), else None."""
    fractions = [_rational(w % LARGE) for w in weights]
    if None in fractions:
        return None
    scale = math.lcm(*(f.denominator for f in fractions))  # type: ignore[union-attr]
    ints = [int(f * scale) for f in fractions]  # type: ignore[operator]
    common = math.gcd(*ints)
    ints = [v // common for v in ints]
    if all(sum(ints[c] * v for c, v in row) == 0 for row in rows) and \
            sum(w * d for w, d in zip(ints, delta)) != 0:
        return ints
    return None


def _rational(value: int) -> Fraction | None:
    """The fraction ``a / b`` with ``a == value * b`` mod :data:`LARGE` and ``|a|``, ``b`` at
    most ``sqrt(LARGE / 2)``, when there is one (extended Euclid, stopped half-way)."""
    bound = math.isqrt(LARGE // 2)
    r0, r1, s0, s1 = LARGE, value, 0, 1
    while r1 > bound:
        q = r0 // r1
        r0, r1, s0, s1 = r1, r0 - q * r1, s1, s0 - q * s1
    if s1 == 0 or abs(s1) > bound:
        return None
    from fractions import Fraction

    return Fraction(r1 if s1 > 0 else -r1, abs(s1))


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
                p: int) -> list[int] | None:
    """Weights ``w`` in ``-p/2 .. p/2`` with ``w . r == 0`` mod the prime ``p`` for every
    row and ``w . delta != 0`` mod ``p``, of fewest non-zero entries among the null-space
    basis vectors; None when ``delta`` is in the row space mod ``p``.

    The rows are brought to reduced row echelon form one by one (every basis row has a
    pivot entry 1 and zeros in the other pivot columns); the null-space basis vector of a
    free column ``f`` is 1 at ``f`` and ``-row[f]`` at each row's pivot.  Raises
    :class:`_TooLarge` past :data:`WORK` entry updates.
    """
    work = [WORK]
    basis: dict[int, dict[int, int]] = {}  # pivot column -> reduced row
    for row in sorted(rows):
        vec = {c: v % p for c, v in row if v % p}
        for c in [c for c in vec if c in basis]:  # basis rows bring in no other pivots
            factor = vec.get(c)
            if factor:
                _add(vec, basis[c], p - factor, p, work)
        if not vec:
            continue
        pivot = min(vec)
        inverse = pow(vec[pivot], p - 2, p)
        vec = {c: v * inverse % p for c, v in vec.items()}
        _spend(work, len(basis))
        for brow in basis.values():
            factor = brow.get(pivot)
            if factor:
                _add(brow, vec, p - factor, p, work)
        basis[pivot] = vec
    nullspace = {f: {f: 1} for f in range(size) if f not in basis}
    for pivot, brow in basis.items():
        _spend(work, len(brow))
        for c, v in brow.items():
            if c != pivot:
                nullspace[c][pivot] = p - v
    best: dict[int, int] | None = None
    for w in nullspace.values():
        if sum(v * delta[c] for c, v in w.items()) % p and (best is None or len(w) < len(best)):
            best = w
    if best is None:
        return None
    return [v - p if v > p // 2 else v for v in (best.get(c, 0) for c in range(size))]


def _add(target: dict[int, int], row: dict[int, int], factor: int, p: int,
         work: list[int]) -> None:
    """``target += factor * row`` mod ``p`` in place, dropping zeros."""
    _spend(work, len(row))
    for c, v in row.items():
        value = (target.get(c, 0) + factor * v) % p
        if value:
            target[c] = value
        else:
            target.pop(c, None)


def _spend(work: list[int], amount: int) -> None:
    """Count ``amount`` entry updates; :class:`_TooLarge` once :data:`WORK` are spent."""
    work[0] -= amount
    if work[0] < 0:
        raise _TooLarge


class _TooLarge(Exception):
    """An elimination would take more than :data:`WORK` entry updates."""
