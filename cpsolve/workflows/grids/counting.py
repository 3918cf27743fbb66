"""Every solution of a board, up to symmetry, through the engines.

Generic: works on any :class:`~cpsolve.model.csp.Csp` with the
:class:`~cpsolve.model.symmetry.canonical.Symmetry` its family hands over, and only through
:func:`cpsolve.engines.run`.

Counting up to renaming of the symbols uses one fact about the model and
nothing about puzzles: when the values can be renamed freely and some
all-different group has as many variables as there are values (a row of a
grid), every solution shows that group as a permutation of the values, and
exactly one renaming turns it into ``values`` in order.  So the classes
under renaming are exactly the solutions with that group fixed to
``values`` in order — the engine counts those (8 for 5×5 X-sudoku instead
of 960), and the total is ``classes × n!``.  Without such a group every
solution is enumerated and brought to its canonical form.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...answers.result import Count, Result, Status
from ...answers.words import plural
from ...engines import Options, list_cut, run
from ...engines.runtime.clock import Clock
from ...model import AllDifferent, Condition, Csp
from ...model.symmetry.canonical import (
    Symmetry,
    as_rows,
    canonical_grids,
    problems,
    relabel_normal,
    trivial,
)
from ...model.symmetry.declared import SymmetryError

ENUMERATE_SHARE = 0.8
"""Of a time limit, what the enumeration of ``count --up-to`` may take: the rest checks
and sorts into classes the solutions it found (those the checker could re-check in time:
:func:`cpsolve.engines.run` cuts the list at the limit).  A stopped count's classes are a
lower bound: those its sorted solutions fall into, or more, ``ceil(n / order)``, when the
``n`` solutions the engine found (listed or not) say so (:func:`_order`)."""

UP_TO = ("relabel", "symmetry")
"""What ``count --up-to`` accepts: renaming of the symbols, or that and the board symmetries."""


def _is_given(c: object) -> bool:
    return isinstance(c, Condition) and c.label == "given"


def board(csp: Csp) -> Csp:
    """A copy of ``csp`` without its givens: the rules alone."""
    out = copy.copy(csp)
    out.domains = dict(csp.domains)
    out.allowed = dict(csp.allowed)
    out.constraints = [c for c in csp.constraints if not _is_given(c)]
    return out


def with_givens(csp: Csp, givens: Mapping[str, int]) -> Csp:
    """A copy of ``csp`` with more givens (``csp``'s own are kept)."""
    out = board(csp)
    out.constraints = list(csp.constraints)
    for name, value in givens.items():
        out.fix(name, value)
    return out


def has_givens(csp: Csp) -> bool:
    """True when the model fixes some variable by a given."""
    return any(_is_given(c) for c in csp.constraints)


def checked_symmetry(csp: Csp, sym: Symmetry | None) -> Symmetry:
    """``sym`` (or the identity alone) after checking that it holds for ``csp``'s rules."""
    sym = sym or trivial(csp)
    wrong = problems(csp, sym)
    if wrong:
        raise SymmetryError(f"not a symmetry of the model: {wrong[0]}")
    return sym


def full_group(csp: Csp, sym: Symmetry) -> tuple[str, ...] | None:
    """An all-different group holding every value once, when renaming is a symmetry."""
    if not sym.relabel:
        return None
    for c in csp.constraints:
        if isinstance(c, AllDifferent) and len(c.names) == len(sym.values):
            return c.names
    return None


@dataclass(frozen=True)
class Grids:
    """Every solution of a board, one per class under renaming (all of them without it).

    ``reps`` has one row of values per class (columns: ``sym.variables``);
    ``used[i]`` is the number of distinct values in row ``i``; ``total`` is
    the number of solutions; ``result`` is the engine's checked count, and ``counted``
    the solutions it counted (all of them, or those it reached before a limit).  ``fixed``
    names the group the engine's solutions have fixed (:func:`full_group`, ``cell[0][0] ..
    cell[0][4] fixed to 1 2 3 4 5``: each stands for ``n!`` solutions), ``""`` when every
    solution was enumerated: what ``result`` counts, and a limit on it (``count -n``).
    """

    sym: Symmetry
    reps: np.ndarray
    used: np.ndarray
    total: int
    result: Result
    method: str
    counted: int
    fixed: str = ""


def enumerate_classes(csp: Csp, sym: Symmetry, engine: str,
                      options: Options | None = None) -> Grids:
    """Enumerate the classes of ``csp``'s solutions under renaming.

    ``options.limit`` bounds the number of classes (or of solutions without
    a full group); ``result.status`` tells whether the enumeration is
    complete (``OPTIMAL``).
    """
    options = options or Options()
    group = full_group(csp, sym)
    opts = Options(time_limit=options.time_limit, limit=options.limit, keep=True,
                   workers=options.workers, progress=options.progress)
    if group is not None:
        fixed = with_givens(csp, dict(zip(group, sym.values)))
        result = run(engine, "count", fixed, opts)
        reps = as_rows(sym, result.solutions or ())
        n = len(sym.values)
        fixed_to = f"{_group_text(group)} fixed to {' '.join(map(str, sym.values))}"
        return Grids(sym, reps, np.full(len(reps), n), len(reps) * math.factorial(n), result,
                     f"solutions with {fixed_to}, times {n}! renamings",
                     _counted(result) * math.factorial(n), fixed_to)
    result = run(engine, "count", csp, opts)
    rows = as_rows(sym, result.solutions or ())
    if sym.relabel and len(rows):
        _, first = np.unique(relabel_normal(rows), axis=0, return_index=True)
        rows = rows[np.sort(first)]
    used = np.array([len(set(r)) for r in rows.tolist()], dtype=np.int64)
    return Grids(sym, rows, used, len(result.solutions or ()), result,
                 "every solution, brought to its canonical form", _counted(result))


def _counted(result: Result) -> int:
    """The solutions an engine's count reached, listed or not (0: it gave no count)."""
    return result.answer.count if isinstance(result.answer, Count) else 0


CANONICAL_CHUNK = 4096
"""Classes brought to their canonical forms between two looks at the clock."""


def _distinct_in_time(clock: Clock, sym: Symmetry, reps: np.ndarray) -> tuple[np.ndarray, int]:
    """The first of ``reps`` in each class under the board symmetries, among those whose
    canonical forms were made before ``clock`` ran out, and how many of ``reps`` that was
    (a stopped count's classes among them are still a lower bound)."""
    forms, done = [], 0
    while done < len(reps) and not (done and clock.expired()):
        forms.append(canonical_grids(sym, reps[done:done + CANONICAL_CHUNK]))
        done = min(len(reps), done + CANONICAL_CHUNK)
    _, first = np.unique(np.concatenate(forms), axis=0, return_index=True)
    return reps[np.sort(first)], done


def _unfinished(res: Result, classes: int, sorted_out: int, found: int) -> str:
    """Why a count up to symmetry is only a lower bound, in words: ``sorted_out`` of the
    ``found`` solutions were brought to their canonical forms in time, and fell into
    ``classes`` classes."""
    answer = res.answer
    if sorted_out < found:
        return (f"the time limit came before every grid found was sorted into its class "
                f"({sorted_out:,} of {found:,}): at least {plural(classes, 'class')} among them")
    listed, counted = (answer.listed(), answer.count) if isinstance(answer, Count) else (0, 0)
    if res.status is Status.EXACT:  # a list cut at the limit
        return (f"the time limit came before every solution was re-checked ("
                f"{listed:,} of {counted:,}): at least {plural(classes, 'class')} among them")
    said = res.message.removesuffix(list_cut(listed)).rstrip("; ")  # the list is no answer
    if listed < counted:  # the door cut it to what the checker could re-check in time
        said += (f"; the checker re-checked {listed:,} of them within the time limit "
                 f"({plural(classes, 'class')} among those)")
    # an engine's count says "stopped: why; at least N": once is enough
    return f"enumeration {said}" if said.startswith("stopped") else f"enumeration stopped: {said}"


def _fixed_words(grids: Grids) -> str:
    """What the solutions the engine counted (and ``-n`` limits) are, when not every
    solution: those with a group fixed, each standing for ``n!`` renamed ones."""
    if not grids.fixed:
        return ""
    n = len(grids.sym.values)
    return (f"; the solutions counted have {grids.fixed}, each standing for {n}! = "
            f"{math.factorial(n):,} renamed ones: {plural(grids.counted, 'solution')} found")


def _order(csp: Csp, sym: Symmetry, up_to: str) -> int:
    """How many members the group has that may map one solution the engine counted onto
    another: the board symmetries (``symmetry``) times the renamings of the symbols (unless
    :func:`full_group` fixed those already), so that ``n`` such solutions hold at least
    ``ceil(n / order)`` classes."""
    board = len(sym.perms) if up_to == "symmetry" else 1
    rename = sym.relabel and full_group(csp, sym) is None
    return board * (math.factorial(len(sym.values)) if rename else 1)


def _bound(res: Result, order: int) -> tuple[int, str]:
    """The classes the solutions ``res`` counted hold at least, none of them sorted into
    its class — a class holds at most ``order`` of them — and where that comes from, in
    words."""
    counted = _counted(res)
    least = -(-counted // order)
    return least, (f"at least {plural(least, 'class')}, as a class holds at most {order:,} "
                   f"of the {plural(counted, 'solution')} found")


def _group_text(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{names[0]} .. {names[-1]}"


def count_up_to(csp: Csp, sym: Symmetry | None, up_to: str, engine: str,
                options: Options | None = None) -> Result:
    """Count the solutions of ``csp`` up to ``relabel`` or ``symmetry``.

    The result's ``count`` is the number of classes, ``solutions`` (with
    ``options.keep``) one representative per class, and
    ``details["total"]`` the number of solutions; a count stopped short has
    ``details["total_at_least"]`` instead: the solutions the engine counted, a lower bound.
    """
    if up_to not in UP_TO:
        raise ValueError(f"--up-to takes {' or '.join(UP_TO)}, not {up_to!r}")
    if has_givens(csp):
        raise SymmetryError("the givens break the symmetry: count classes of a board "
                            "without givens")
    sym = checked_symmetry(csp, sym)
    if up_to == "relabel" and not sym.relabel:
        raise SymmetryError("--up-to relabel renames the symbols of a grid (family = \"grid\"); "
                            "declare a csp's renaming of values in [[symmetries]] and count "
                            "with --up-to symmetry (docs/families/csp.md#symmetries)")
    options = options or Options()
    clock = Clock(options.time_limit)
    if options.time_limit is not None:  # a stopped count leaves time to sort its classes
        options = dataclasses.replace(options, time_limit=ENUMERATE_SHARE * options.time_limit)
    grids = enumerate_classes(csp, sym, engine, options)
    reps = grids.reps
    res = grids.result
    sorted_out = len(reps)
    exact = res.status is Status.EXACT and isinstance(res.answer, Count) and \
        res.answer.listed() == res.answer.count  # every solution found is listed: checked
    if up_to == "symmetry" and len(reps):
        reps, sorted_out = _distinct_in_time(clock, sym, reps)
        exact = exact and sorted_out == len(grids.reps)
    what = ("renaming of the symbols" if up_to == "relabel"
            else sym.describe())
    classes = len(reps)
    if exact:
        message = (f"{plural(classes, 'class')} under {what}; "
                   f"{plural(grids.total, 'solution')} in all")
    else:  # the classes sorted out, or more by the number of solutions found
        message = _unfinished(res, classes, sorted_out, len(grids.reps)) + _fixed_words(grids)
        least, why = _bound(res, _order(csp, sym, up_to))
        if least > classes:
            classes, message = least, f"{message}; {why}"
    listing = tuple(dict(zip(sym.variables, map(int, r))) for r in reps) if options.keep else None
    return Result.counted(res.engine, Count(classes, listing), exact, seconds=res.seconds,
                          explored=res.explored, message=message, verified=False,
                          details={**res.details, "total": grids.total if exact else None,
                                   **({} if exact else {"total_at_least": grids.counted}),
                                   "up_to": up_to, "method": grids.method})
