"""Random puzzles for boards too big to enumerate (9×9 sudoku has about 6.7e21 grids).

1. A random solution: random givens are added one at a time while the board
   stays solvable (an engine's ``solve`` tells), the engine completes the
   grid, and a random board symmetry and renaming of the values are applied.
   The grids are varied, not uniformly distributed.
2. Givens are removed in random order, each removal kept only if the puzzle
   stays unique (``Result.unique`` of an engine's ``solve``), until ``K``
   givens remain.  With ``minimal`` every given is tried, so the result is
   minimal: a given that could not be removed from a larger set cannot be
   removed from a smaller one.  A run that ends with a number of givens other
   than ``K`` is discarded and another solution is drawn.

An engine that could not tell (a limit reached: no solution found yet, uniqueness not
decided, or the engine not started in the time left) proves nothing: the draw ends there
(:class:`Undecided`, its message the reason), never reading it as "no solution" or "not
unique".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ...answers.result import Result, Status
from ...answers.words import plural
from ...engines import Options, run
from ...model import Csp
from ...model.symmetry.canonical import Symmetry, transform
from .counting import with_givens
from .exhaustive import Stop, go_on

SEED_FRACTION = 6
"""About one cell in this many gets a random value before the engine completes the grid."""


class Undecided(Exception):
    """An engine could not answer the question asked of it (a limit came first); the
    message says why, in the engine's words."""


def _decided(result: Result, question: str) -> Result:
    """``result`` when it answers ``question`` (``"solve"``: a solution found, or none proven;
    ``"unique"``: uniqueness decided), else :class:`Undecided`."""
    if question == "solve" and (result.found or result.status is Status.INFEASIBLE) or \
            question == "unique" and result.unique is not None:
        return result
    raise Undecided(result.message or f"{result.engine}: {result.status.value}")


def random_solution(csp: Csp, sym: Symmetry, rng: random.Random, engine: str,
                    options: Options) -> dict[str, int] | None:
    """A random solution of ``csp`` (``None`` when it provably has none; :class:`Undecided`
    when an engine could not tell)."""
    names = list(csp.domains)
    rng.shuffle(names)
    fixed: dict[str, int] = {}
    solution: dict[str, int] | None = None
    for name in names[: max(1, len(names) // SEED_FRACTION)]:
        value = rng.choice(csp.values(name))
        if solution is not None and solution[name] == value:
            fixed[name] = value
            continue
        result = _decided(run(engine, "solve", with_givens(csp, {**fixed, name: value}),
                              options), "solve")
        if result.found:
            fixed[name] = value
            solution = dict(result.solution or {})
    if solution is None:
        result = _decided(run(engine, "solve", csp, options), "solve")
        if not result.found:
            return None
        solution = dict(result.solution or {})
    renaming = None
    if sym.relabel:
        shuffled = list(sym.values)
        rng.shuffle(shuffled)
        renaming = dict(zip(sym.values, shuffled))
    return transform(sym, rng.randrange(len(sym.perms)), solution, renaming)


def reduce(csp: Csp, solution: Mapping[str, int], k: int, minimal: bool, rng: random.Random,
           engine: str, options: Options, clues: Sequence[str] | None = None,
           stop: Stop = go_on) -> dict[str, int] | None:
    """Givens of ``solution`` removed at random down to ``k`` while the puzzle stays unique.

    ``clues`` names the variables that may be given (all by default): the run starts
    from all of them, and ends at once when they do not make the puzzle unique.
    Returns ``None`` when the run cannot end with exactly ``k`` givens (too few
    removals possible, or, with ``minimal``, more), or was stopped (``stop``); raises
    :class:`Undecided` when the engine could not tell whether a puzzle is unique.
    """
    options = replace(options, unique=True)  # decided also on a board with a large circuit

    def unique(givens: Mapping[str, int]) -> bool:
        return bool(_decided(run(engine, "solve", with_givens(csp, givens), options),
                             "unique").unique)

    givens = dict(solution) if clues is None else {n: solution[n] for n in clues}
    if clues is not None and not unique(givens):
        return None
    order = list(givens)
    rng.shuffle(order)
    for name in order:
        if len(givens) <= k and not minimal or stop():
            break
        trial = {n: v for n, v in givens.items() if n != name}
        if unique(trial):
            givens = trial
            if len(givens) < k:
                return None
    return givens if len(givens) == k else None


def draw(csp: Csp, sym: Symmetry, k: int, count: int, seed: int | None, minimal: bool,
         engine: str, options: Options, attempts: int,
         canonical: Callable[[Mapping[str, int]], object],
         clues: Sequence[str] | None = None, stop: Stop = go_on
         ) -> tuple[list[tuple[dict, dict]], str]:
    """Up to ``count`` puzzles, pairwise different up to symmetry: ``(givens, solution)``,
    the givens among ``clues`` (every variable by default); and why there are fewer than
    ``count`` (``""``: there are not).

    Stops after ``attempts`` random solutions, or when ``stop`` says why (the command's
    clock, Ctrl-C), whatever was found by then.
    """
    if clues is not None and len(clues) == len(csp.domains):
        clues = None
    rng = random.Random(seed)
    found: dict[object, tuple[dict, dict]] = {}
    reduced = 0
    for attempt in range(attempts):
        if len(found) >= count:
            return list(found.values()), ""
        if why := stop():
            return list(found.values()), why
        if options.progress:
            options.progress(f"attempt {attempt + 1}, {len(found)} of {count} found")
        try:
            solution = random_solution(csp, sym, rng, engine, options)
            if solution is None:  # proven: the board has no solution (the caller asks)
                return list(found.values()), stop() or "the board has no solution"
            givens = reduce(csp, solution, k, minimal, rng, engine, options, clues, stop)
        except Undecided as err:  # a limit: nothing proven about the board
            return list(found.values()), stop() or str(err)
        if givens is not None:
            reduced += 1
            found.setdefault(canonical(givens), (givens, solution))
    if len(found) >= count or (why := stop()):
        return list(found.values()), "" if len(found) >= count else why
    return list(found.values()), (
        f"gave up after {plural(attempts, 'random solution')}: {reduced:,} reduced to a "
        f"unique puzzle with {plural(k, 'given')}, {plural(len(found), 'class')} among them")
