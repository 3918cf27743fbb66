"""Puzzles with a unique solution, up to symmetry: every one, or random ones.

Generic: a :class:`~cpsolve.model.csp.Csp`, the :class:`~cpsolve.model.symmetry.canonical.Symmetry`
its family hands over, and :func:`cpsolve.engines.run`.  Nothing here knows
what a grid is.

Definitions used throughout:

* a *puzzle* is a set of givens (variable -> value) added to the board's
  rules (the model without its own givens); it is *unique* when exactly one
  solution of the board agrees with every given; it is *minimal* when
  removing any one given leaves more than one solution;
* two puzzles are *the same up to symmetry* when one becomes the other by a
  board symmetry followed by a renaming of the values (see
  :mod:`cpsolve.model.symmetry.canonical`); a *class* is one such equivalence class, and
  generation returns one puzzle per class.

:class:`Generator` chooses the method: exhaustive (:mod:`.exhaustive`) when
the board's solutions can be enumerated and the cell sets are not too many,
random removal (:mod:`.randomized`) otherwise.  :meth:`Generator.check`
re-solves puzzles with another engine; random output is always checked.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time

from ...answers.kinds import Count
from ...answers.result import Status
from ...answers.words import plural
from ...engines import Options, engines_for, load, run
from ...engines.runtime import interrupt, memory
from ...language.quoting import figure
from ...model import Csp
from ...model.symmetry.canonical import Symmetry, canonical_puzzle
from . import exhaustive, randomized
from .counting import Grids, board, checked_symmetry, enumerate_classes, with_givens
from .generated import Generated, Generation, Tally

__all__ = ["Generated", "Generation", "Generator", "Tally", "Disagreement", "NoSolution",
           "TooLarge", "available", "second_engine", "stop_reason"]

MAX_CLASSES = 2_000
"""Largest number of solutions up to renaming that exhaustive generation enumerates."""

CHECK_ORDER = ("search", "pyconstraint", "cpsat")
"""Preferred engines for re-solving generated puzzles."""


class Disagreement(RuntimeError):
    """The checking engine did not find a generated puzzle unique (or found another solution)."""


class TooLarge(ValueError):
    """Every puzzle was asked for, but the board is too big to enumerate."""


class NoSolution(ValueError):
    """The board has no solution: there is nothing to give."""


def stop_reason() -> str:
    """Why generation must stop now — a stop asked for by Ctrl-C or SIGTERM, the command's
    clock or the memory limit, in its words — or ``""`` to go on.  Asked between steps:
    generation then ends with what it has, saying why (``Generation.short``)."""
    return interrupt.reason() if memory.stop_asked() else ""


def both(first: str, second: str) -> str:
    """Two reasons for a generation short of what was asked, either of which may be ``""``."""
    return "; ".join(part for part in (first, second) if part)


def available(model: Csp, task: str = "solve") -> list[str]:
    """Engines that can do ``task`` on ``model`` (an engine that fails to import raises)."""
    out = []
    for name in engines_for(model, task):
        module = load(name)
        if not (hasattr(module, "supports") and module.supports(model)):
            out.append(name)
    return out


def second_engine(model: Csp, avoid: str) -> str | None:
    """An engine other than ``avoid`` that can solve ``model``, in :data:`CHECK_ORDER`."""
    ok = available(model)
    return next((e for e in CHECK_ORDER if e != avoid and e in ok), None)


def clue_symmetry(sym: Symmetry, clues: tuple[str, ...]) -> tuple[Symmetry, tuple[int, ...]]:
    """``sym`` kept to the board symmetries that map the clue variables onto themselves (a
    subgroup), and the clues' positions; without declared clues every variable is one."""
    if not clues:
        return sym, tuple(range(len(sym.variables)))
    pos = sym.position
    allowed = tuple(sorted(pos[n] for n in clues))
    inside = set(allowed)
    keep = [g for g, p in enumerate(sym.perms) if {p[i] for i in allowed} == inside]
    if len(keep) == len(sym.perms):
        return sym, allowed
    names = tuple(sym.names[g] for g in keep)
    kept = dataclasses.replace(
        sym, perms=tuple(sym.perms[g] for g in keep), names=names,
        value_maps=tuple(sym.value_maps[g] for g in keep) if sym.value_maps else (),
        summary=f"{plural(len(keep), 'symmetry', 'symmetries')} that keep the clues "
                f"({', '.join(names)})")
    return kept, allowed


class Generator:
    """Generation on one board, with one engine; enumerates at most once."""

    def __init__(self, csp: Csp, sym: Symmetry | None = None, engine: str = "cpsat",
                 options: Options | None = None, max_classes: int = MAX_CLASSES):
        self.board = board(csp)
        self.sym, self.clues = clue_symmetry(checked_symmetry(self.board, sym), csp.clues)
        self.engine = engine
        self.options = options or Options()
        self.max_classes = max_classes
        self._grids: Grids | None | bool = False
        self._why = f"more than {max_classes:,} solutions up to renaming"
        self._stopped = ""
        """Why the enumeration stopped short of all solutions (a limit), or ``""``."""

    def grids(self) -> Grids | None:
        """Every solution up to renaming, or ``None`` when there are too many."""
        if self._grids is False:
            opts = Options(time_limit=self.options.time_limit, limit=self.max_classes + 1,
                           workers=self.options.workers, progress=self.options.progress)
            grids = enumerate_classes(self.board, self.sym, self.engine, opts)
            answer = grids.result.answer  # an exact count whose list the limit cut is no list
            complete = grids.result.status is Status.EXACT and isinstance(answer, Count) \
                and answer.listed() == answer.count
            self._grids = grids if complete and len(grids.reps) <= self.max_classes else None
            if not complete and (grids.result.count or 0) < (opts.limit or 0):  # time ran out
                self._stopped = grids.result.message or "a limit reached"
        return self._grids  # type: ignore[return-value]

    def exhaustive(self, k: int) -> bool:
        """True when every puzzle with ``k`` givens can be found by enumeration."""
        grids = self.grids()
        return grids is not None and \
            exhaustive.work(grids, k, self.clues) <= exhaustive.MAX_WORK

    def solvable(self) -> None:
        """Refuse (:class:`NoSolution`) a board that provably has no solution: nothing to give."""
        if run(self.engine, "solve", self.board, self.options).status is Status.INFEASIBLE:
            raise NoSolution("nothing to generate: the model has no solution")

    def bounds(self, k: int) -> None:
        """Refuse (``ValueError``) ``k`` givens when there are not that many clues."""
        if len(self.clues) < len(self.sym.variables) and not 0 <= k <= len(self.clues):
            raise ValueError(f"--givens {figure(k)}: the model declares "
                             f"{plural(len(self.clues), 'clue variable')}")
        if not 0 <= k <= len(self.sym.variables):
            cells = plural(len(self.sym.variables), "cell")
            raise ValueError(f"--givens {figure(k)}: the board has {cells}")

    def every(self, k: int, minimal: bool = False, puzzles: bool = True) -> Generation:
        """One puzzle per class of unique puzzles with ``k`` givens (exact figures).

        With ``puzzles=False`` only the figures are computed.
        """
        self.bounds(k)
        if why := stop_reason():
            return Generation(k, "exhaustive", (), message="not started", short=why)
        grids = self.grids()
        if grids is None and (why := stop_reason() or self._stopped):  # a limit: no advice
            return Generation(k, "exhaustive", (), message="the board's solutions were not "
                              "all enumerated", short=why)
        if grids is None:
            raise TooLarge(f"{self._why}, so not every puzzle can be "
                           f"listed; draw some with --random N")
        if not self.exhaustive(k):
            raise TooLarge(f"{len(grids.reps):,} solutions up to renaming × "
                           f"{plural(math.comb(len(self.clues), k), 'set')} of "
                           f"{plural(k, 'cell')} is "
                           f"more than {exhaustive.MAX_WORK:,}; draw some with --random N")
        if grids.total == 0:
            self.solvable()
        gen = exhaustive.every(grids, k, minimal, puzzles, self.clues, stop_reason)
        return Generation(gen.givens, gen.method, gen.puzzles, gen.tally, gen.seconds,
                          gen.message, {"engine": self.engine, "solutions": grids.total,
                                        "enumeration": grids.method}, gen.short)

    def random(self, k: int, count: int, seed: int | None = None, minimal: bool = False,
               attempts: int | None = None, check: str | None = None) -> Generation:
        """``count`` puzzles with ``k`` givens, different up to symmetry, each checked;
        fewer when fewer classes exist, when ``attempts`` random solutions (20 per puzzle
        asked) gave no more, or when a stop is asked for (``short`` says which)."""
        start = time.perf_counter()
        self.bounds(k)
        gen = self._drawn_from_every(k, count, seed, minimal) if self.exhaustive(k) else \
            self._drawn_at_random(k, count, seed, minimal, attempts or 20 * count)
        checked = self.check(gen, check)
        return Generation(k, "random", checked.puzzles, gen.tally, time.perf_counter() - start,
                          gen.message, {**gen.details, "asked": count,
                                        "checked_by": checked.details["checked_by"]},
                          checked.short)

    def _drawn_from_every(self, k: int, count: int, seed: int | None,
                          minimal: bool) -> Generation:
        """``count`` puzzles drawn from the list of every class (all of them when there are
        fewer classes, which ``short`` says)."""
        every = self.every(k, minimal)
        pool = list(every.puzzles)
        picked = random.Random(seed).sample(pool, min(count, len(pool)))
        few = "" if every.short or len(pool) >= count else \
            (f"only {plural(len(pool), 'class', 'classes')} of {'minimal ' * minimal}unique "
             f"puzzles with {plural(k, 'given')} exist up to symmetry, fewer than the "
             f"{figure(count)} asked")
        return Generation(k, "random", tuple(picked), every.tally, 0.0,
                          f"drawn from the {plural(len(pool), 'class')} found by enumeration",
                          every.details, both(every.short, few))

    def _drawn_at_random(self, k: int, count: int, seed: int | None, minimal: bool,
                         attempts: int) -> Generation:
        """``count`` puzzles made from random solutions (:func:`.randomized.draw`)."""
        found, short = randomized.draw(self.board, self.sym, k, count, seed, minimal,
                                       self.engine, self.options, attempts, self.canonical,
                                       [self.sym.variables[p] for p in self.clues],
                                       stop_reason)
        if not found and not stop_reason():
            self.solvable()
        puzzles = tuple(Generated(g, s, True if minimal else None) for g, s in found)
        how = "every given tried: minimal" if minimal else \
            "not tried for minimality (--minimal keeps only minimal ones)"
        return Generation(k, "random", puzzles, None, 0.0,
                          "givens removed at random from random solutions while the "
                          f"puzzle stays unique; {how}", {"engine": self.engine}, short)

    def canonical(self, givens: dict[str, int]) -> object:
        """A key equal for two puzzles exactly when they are the same up to symmetry."""
        return canonical_puzzle(self.sym, givens)

    def check(self, gen: Generation, engine: str | None = None) -> Generation:
        """Re-solve every puzzle with another engine; raise :class:`Disagreement` on a miss."""
        engine = engine or second_engine(self.board, self.engine)
        if engine is None:
            raise Disagreement(f"no second engine to check the puzzles (generator: {self.engine})")
        if engine == self.engine:
            raise ValueError(f"puzzles made with {engine} must be checked by another engine")
        out: list[Generated] = []
        short = ""
        for p in gen.puzzles:
            result = None if stop_reason() else \
                run(engine, "solve", with_givens(self.board, p.givens),
                    Options(time_limit=self.options.time_limit))
            if result is None or result.status is Status.UNKNOWN or result.unique is None \
                    and dict(result.solution or {}) == p.solution:  # stopped, or a limit
                why = stop_reason() or (result.message if result else "") or "a limit"
                short = (f"{why} while re-solving with {engine}: {len(out):,} of "
                         f"{plural(len(gen.puzzles), 'puzzle')} checked")
                out += [Generated(q.givens, q.solution, q.minimal)
                        for q in gen.puzzles[len(out):]]
                break
            if result.unique is not True or dict(result.solution or {}) != p.solution:
                raise Disagreement(f"{engine} does not find a generated puzzle unique: "
                                   f"{result.message or result.status.value}")
            out.append(Generated(p.givens, p.solution, p.minimal, engine))
        return Generation(gen.givens, gen.method, tuple(out), gen.tally, gen.seconds,
                          gen.message, {**gen.details, "checked_by": engine},
                          both(gen.short, short))
