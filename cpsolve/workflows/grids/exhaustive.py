"""Every unique puzzle with K givens, up to symmetry, from the enumerated solutions.

When the board's solutions can be enumerated: the engine lists one solution
per renaming class (:func:`~.counting.enumerate_classes`); then, for every set of ``K``
cells, the givens a solution shows there form a unique puzzle exactly when no
other solution shows the same givens.  Comparing *patterns* (which cells
hold equal values) instead of values works on the class representatives
only: a representative ``r`` using ``u`` values matches a pattern with ``d``
distinct values through ``(n - d)! / (n - u)!`` solutions, so a puzzle is
unique iff one representative matches its pattern and ``d >= n - 1`` or
``d == u``.  NumPy does this for all ``C(V, K)`` cell sets at once.

Classes under the board symmetries are then told apart by canonical forms
(:func:`cpsolve.model.symmetry.canonical.canonical_givens`), and minimality by looking up
every puzzle minus one given among the unique puzzles with ``K - 1`` givens.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ...answers.words import plural
from ...model.symmetry.canonical import Symmetry, canonical_givens, relabel_normal
from .counting import Grids
from .generated import Generated, Generation, Tally

MAX_WORK = 4_000_000
"""Largest ``classes × C(cells, K)`` that exhaustive generation takes on.

It bounds the number of unique puzzles held at once, hence memory: 5×5
X-sudoku with 7 givens (8 × 480,700 = 3.8 million) takes about 20 s and
1.2 GB; with 8 givens it is refused (use random generation)."""

CHUNK = 1_000_000
"""Values gathered per NumPy step (bounds memory, and the time between two looks at
:data:`Stop`)."""

BATCH = 50_000
"""Puzzles brought to canonical form, or looked up among those with a given fewer, per
NumPy step."""

EVERY = 256
"""Puzzles written out between two looks at :data:`Stop` (:func:`representatives`)."""

Stop = Callable[[], str]
"""Why the work must stop now (Ctrl-C, a limit), or ``""`` to go on: asked between steps.
Once it has said why, it keeps saying so (a stop asked for is not taken back)."""


def go_on() -> str:
    """The :data:`Stop` of work that nothing stops."""
    return ""


@dataclass(frozen=True)
class Uniques:
    """Unique puzzles with ``K`` givens, one per renaming class (all without renaming).

    ``positions`` and ``values`` are (U, K) arrays, positions ascending per
    row; ``rep`` is the class representative each came from.
    """

    positions: np.ndarray
    values: np.ndarray
    rep: np.ndarray


def work(grids: Grids, k: int, clues: Sequence[int] | None = None) -> int:
    """The size of exhaustive generation with ``k`` givens (representatives × cell sets);
    ``clues`` are the positions a given may take (all by default)."""
    return len(grids.reps) * math.comb(grids.reps.shape[1] if clues is None else len(clues), k)


def _subsets(v: Sequence[int], k: int, size: int) -> Iterator[np.ndarray]:
    """All ``k``-subsets of the positions ``v`` (ascending) in lexicographic order, as
    (size, k) chunks."""
    it = itertools.combinations(v, k)
    while True:
        block = list(itertools.islice(it, size))
        if not block:
            return
        yield np.array(block, dtype=np.int64).reshape(len(block), k)


def _codes(x: np.ndarray, sym: Symmetry) -> np.ndarray:
    """One integer per row (last axis) identifying its pattern (or its values).

    Codes are comparable within one call only (rows too long for an
    ``int64`` are numbered by ``np.unique``).
    """
    digits, radices = _digits(sym, x)
    if math.prod(radices) < 2 ** 62:
        weights = np.cumprod([1, *radices[:-1]], dtype=np.int64)[: len(radices)]
        return digits @ weights
    flat = digits.reshape(-1, x.shape[-1])
    return np.unique(flat, axis=0, return_inverse=True)[1].reshape(x.shape[:-1])


def uniques(grids: Grids, k: int, clues: Sequence[int] | None = None,
            stop: Stop = go_on) -> Uniques:
    """Every unique puzzle with ``k`` givens among the positions ``clues`` (all by
    default), one per renaming class; only some of them when ``stop`` said to stop."""
    sym, reps = grids.sym, grids.reps
    m, v = reps.shape
    positions = sorted(clues) if clues is not None else range(v)
    n = len(sym.values)
    found_pos, found_rep = [], []
    size = max(1, CHUNK // max(1, m * max(k, 1)))
    for block in _subsets(positions, k, size):
        if stop():
            break
        x = np.transpose(reps[:, block], (1, 0, 2))        # (subsets, reps, k)
        codes = _codes(x, sym)
        order = np.argsort(codes, axis=1, kind="stable")
        cs = np.take_along_axis(codes, order, axis=1)
        single = np.ones(cs.shape, dtype=bool)
        single[:, 1:] &= cs[:, 1:] != cs[:, :-1]
        single[:, :-1] &= cs[:, :-1] != cs[:, 1:]
        sub, j = np.nonzero(single)
        rep = order[sub, j]
        if sym.relabel and len(sub):
            vals = x[sub, rep]
            d = (np.sort(vals, axis=1)[:, 1:] != np.sort(vals, axis=1)[:, :-1]).sum(1) + 1
            d = d if k else np.zeros(len(sub), dtype=np.int64)
            ok = (d >= n - 1) | (d == grids.used[rep])
            sub, rep = sub[ok], rep[ok]
        found_pos.append(block[sub])
        found_rep.append(rep)
    positions = np.concatenate(found_pos) if found_pos else np.zeros((0, k), np.int64)
    rep = np.concatenate(found_rep) if found_rep else np.zeros(0, np.int64)
    values = np.take_along_axis(reps[rep], positions, axis=1)
    return Uniques(positions, values, rep)


def _digits(sym: Symmetry, values: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Each row as digits and their radices: the renaming pattern, or the values."""
    k, n, lo = values.shape[-1], len(sym.values), min(sym.values)
    if sym.relabel:  # label j is at most j, and below n
        return relabel_normal(values), [min(j + 1, n) for j in range(k)]
    return values - lo, [max(sym.values) - lo + 1] * k


def _mask_code(sym: Symmetry, positions: np.ndarray, values: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Position bits, pattern (or value) code and the code's range; ``None`` on overflow."""
    digits, radices = _digits(sym, values)
    radix = math.prod(radices)
    if len(sym.variables) > 62 or radix >= 2 ** 62:
        return None
    weights = np.cumprod([1, *radices[:-1]], dtype=np.int64)[: len(radices)]
    mask = (np.int64(1) << positions).sum(axis=1)
    return mask, digits @ weights, radix


def pack(sym: Symmetry, groups: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """One key per puzzle in each (positions, values) group, with one encoding for all.

    Positions are ascending per row; keys are equal exactly when the puzzles
    are equal up to renaming.  Keys are ``int64`` (position bits times the
    pattern code, or times a dense number of the code) when they fit, bytes
    otherwise; both sort, so ``np.unique`` and ``np.isin`` work on them.
    """
    parts = [_mask_code(sym, p, v) for p, v in groups]
    room = 2 ** 62 // 2 ** len(sym.variables)
    if parts and all(x is not None for x in parts):
        radix = parts[0][2]
        if radix < room:
            return [mask * np.int64(radix) + code for mask, code, _ in parts]
        ids, inverse = np.unique(np.concatenate([code for _, code, _ in parts]),
                                 return_inverse=True)
        if len(ids) < room:
            cuts = np.cumsum([len(code) for _, code, _ in parts])[:-1]
            return [mask * np.int64(len(ids)) + number
                    for (mask, _, _), number in zip(parts, np.split(inverse, cuts))]
    out = []
    for positions, values in groups:
        rows = np.concatenate([positions, _digits(sym, values)[0]], axis=1)
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        out.append(rows.view(np.dtype(("S", 8 * rows.shape[1]))).ravel())
    return out


def minimal_flags(grids: Grids, found: Uniques, fewer: Uniques,
                  stop: Stop = go_on) -> np.ndarray | None:
    """For each puzzle in ``found`` (K givens): is it minimal?  ``fewer`` has K - 1.
    ``None`` when ``stop`` said to stop.

    A puzzle is not minimal when dropping some given ``j`` leaves a unique puzzle: one of
    ``fewer``.  For each ``j``, the puzzles without their ``j``-th given are looked up,
    :data:`BATCH` at a time, in the sorted keys of ``fewer``."""
    k = found.positions.shape[1]
    minimal = np.ones(len(found.rep), dtype=bool)
    if k == 0 or not len(fewer.rep):
        return minimal
    for j in range(k):
        if stop():
            return None
        keep = [i for i in range(k) if i != j]
        table, keys = pack(grids.sym, [(fewer.positions, fewer.values),
                                       (found.positions[:, keep], found.values[:, keep])])
        table = np.unique(table)
        for start in range(0, len(keys), BATCH):
            if stop():
                return None
            part = keys[start:start + BATCH]
            at = np.minimum(np.searchsorted(table, part), len(table) - 1)
            minimal[start:start + BATCH] &= table[at] != part
    return minimal


def labelled(sym: Symmetry, values: np.ndarray) -> int:
    """Puzzles with concrete values behind these renaming classes: ``n! / (n - d)!`` each."""
    if not sym.relabel:
        return len(values)
    n = len(sym.values)
    if values.shape[1] == 0:
        return len(values)
    s = np.sort(values, axis=1)
    d = (s[:, 1:] != s[:, :-1]).sum(axis=1) + 1
    return sum(int(c) * math.perm(n, int(dd)) for dd, c in zip(*np.unique(d, return_counts=True)))


def classes(grids: Grids, found: Uniques, stop: Stop = go_on) -> np.ndarray | None:
    """Orbits under the whole group: the index in ``found`` of one puzzle per orbit
    (``None`` when ``stop`` said to stop)."""
    sym, k = grids.sym, found.positions.shape[1]
    if not len(found.rep):
        return np.zeros(0, np.int64)
    canon = []
    for start in range(0, len(found.rep), BATCH):
        if stop():
            return None
        part = slice(start, start + BATCH)
        keys, _ = canonical_givens(sym, found.positions[part], found.values[part])
        canon.append((keys[:, :k], keys[:, k:]))
    _, first = np.unique(np.concatenate(pack(sym, canon)), return_index=True)
    return np.sort(first)


def representatives(grids: Grids, found: Uniques, index: np.ndarray,
                    flags: np.ndarray, stop: Stop = go_on) -> list[Generated]:
    """The canonical puzzle of each chosen class, with its solution (those of the first
    classes only, when ``stop`` said to stop)."""
    sym = grids.sym
    k = found.positions.shape[1]
    keys, which = canonical_givens(sym, found.positions[index], found.values[index])
    out: list[Generated] = []
    for key, g, i in zip(keys.tolist(), which.tolist(), index.tolist()):
        if len(out) % EVERY == 0 and stop():
            break
        positions, labels = key[:k], key[k:]
        values = [sym.values[x] for x in labels] if sym.relabel else labels
        rep = grids.reps[found.rep[i]]
        image = np.empty_like(rep)
        image[np.asarray(sym.perms[g])] = sym.map_values(g, rep)
        rename: dict[int, int] = {}
        if sym.relabel:
            rename = {int(image[p]): val for p, val in zip(positions, values)}
            spare = iter(v for v in sym.values if v not in rename.values())
            for old in sorted(set(image.tolist()) - rename.keys()):
                rename[old] = next(spare)
        solution = {name: rename.get(x, x) for name, x in zip(sym.variables, image.tolist())}
        givens = {sym.variables[p]: val for p, val in zip(positions, values)}
        out.append(Generated(givens, solution, bool(flags[i])))
    return out


def every(grids: Grids, k: int, minimal: bool = False, puzzles: bool = True,
          clues: Sequence[int] | None = None, stop: Stop = go_on) -> Generation:
    """Every unique puzzle with ``k`` givens up to symmetry (only minimal ones on request),
    the givens among the positions ``clues`` (all by default; the symmetry must map
    them onto themselves).

    With ``puzzles=False`` only the figures are computed.  ``stop`` is asked between
    steps: stopped, the generation has what was finished (its figures once every cell set
    was checked, the puzzles written out so far) and ``short`` says why.
    """
    start = time.perf_counter()
    sym = grids.sym

    def cut(why: str) -> Generation:
        return Generation(k, "exhaustive", (), None, time.perf_counter() - start,
                          f"not every cell set of {k} was checked", short=why)

    found = uniques(grids, k, clues, stop)
    fewer = uniques(grids, k - 1, clues, stop) if k else found
    if why := stop():  # the lists may be partial: no figure is made of them
        return cut(why)
    flags = minimal_flags(grids, found, fewer, stop)
    first = None if flags is None else classes(grids, found, stop)
    if flags is None or first is None:
        return cut(stop())
    chosen = first[flags[first]] if minimal else first
    listed = representatives(grids, found, chosen, flags, stop) if puzzles else []
    tally = Tally(k, len(first), int(flags[first].sum()),
                  len(found.rep) if sym.relabel else None, labelled(sym, found.values))
    short = f"{stop()}: {len(listed):,} of {len(chosen):,} puzzles written out" \
        if puzzles and len(listed) < len(chosen) else ""
    return Generation(k, "exhaustive", tuple(listed), tally, time.perf_counter() - start,
                      f"every cell set of {k} checked against {plural(grids.total, 'solution')} "
                      f"({len(grids.reps):,} up to renaming)", short=short)
