"""Shortest plans from above: a known plan is beaten, or proven shortest, by one solve.

With unit costs and a known plan of ``U`` steps (a hint, :mod:`.hint`), one
stuttering timeline of ``U - stride`` steps asks "is there any plan of
``lower`` to ``U - stride`` steps?" (``lower``: every shorter length is
already ruled out; ``stride``: 2 when every plan's length has one parity).
A plan found becomes the best known and the bound drops below it on the same
model; the first infeasible solve proves the best known plan shortest — one
proof for every length instead of one per horizon.

That single proof is much faster where the horizons below the optimum each
cost a search of their own (Tower of Hanoi: no estimate prunes them; 6 discs,
63 moves: 0.34 s for the one proof against 6.0 s for the 62 horizons, measured
together), and no faster where a good estimate settles each exact horizon
almost at once (8-puzzle from its optimal plan: 1.1 s for the one proof of 21
to 29 steps, about what its five horizons take; 18 s with the settings of the
horizons, :func:`.solving.solve_staged`).  So the driver interleaves the two
(:class:`Descent`): horizons from below for a while (none when there is no
estimate), then a descent in a time slice as long as everything so far, then
horizons again for twice that, and so on; whichever proves first ends it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...answers.result import Step
from ...model import Planning
from ..runtime.clock import Clock
from .library import cp_model
from .solving import FOUND
from .timeline import Timeline

FIRST_AFTER = 0.5
"""Seconds of horizons from below before the first descent, when an estimate prunes each
horizon (without one the first descent comes at once) ..."""
FIRST_HORIZONS = 8
"""... and horizons proven empty (a count, not a time, so that a loaded machine does not
bring the descent earlier: the 8-puzzle's 5 horizons never wait for one)."""
SLICE = 1.0
"""Least seconds one descent may take; it gets as long as everything before it."""
SIZE = 100_000
"""Largest ``steps x actions`` of a descent's timeline (Hanoi 8: 254 x 24; a hint far longer
than any plan needs only bounds the horizons)."""
FEW = 3
"""No descent when at most this many horizons are left below the best known plan (the
8-puzzle from above at 33 with 21 to 29 proven empty: the horizons 31 and 33 cost less)."""
GROWTH = 2
"""No descent either while the horizons left, at this many times the mean time of those
proven so far, would take less than a :data:`SLICE` (ON-OFF: 39 horizons in 0.7 s, then
7 left below a 48-step hint; a descent took 0.9 s of the 1.7 s, the horizons 0.1 s)."""

Solve = Callable[[Timeline, Clock], tuple[cp_model.CpSolver, object]]


class Descent:
    """The descents of one driver run, sharing one stuttering timeline (``eager``: the
    first one at once, when no estimate prunes the horizons from below)."""

    def __init__(self, planning: Planning, best: tuple[Step, ...], stride: int,
                 forbidden: Sequence[tuple[int, int]], estimate: bool,
                 eager: bool = False) -> None:
        self.planning = planning
        self.best = best
        self.stride = stride
        self.forbidden = tuple(forbidden)
        self.estimate = estimate
        self.proven = False
        self.by_solve = False
        """:attr:`proven` by an infeasible solve (not because no shorter plan can exist)."""
        self.attempts = 0
        self._timeline: Timeline | None = None
        self._lower = 0
        self._closed = False
        self.eager = eager
        self._next = 0.0 if eager else FIRST_AFTER

    def due(self, elapsed: float, lower: int, tried: int) -> bool:
        """Is it time for a descent, ``elapsed`` seconds into the run, when every plan
        has at least ``lower`` steps and ``tried`` horizons were proven empty?"""
        left = (len(self.best) - lower) // self.stride
        size = (len(self.best) - self.stride) * len(self.planning.actions)
        waited = self.eager or tried >= FIRST_HORIZONS
        cheap = not self.eager and tried and left * GROWTH * elapsed / tried < SLICE
        return (not self.proven and waited and elapsed >= self._next and left > FEW
                and size <= SIZE and not cheap)

    def attempt(self, lower: int, budget: Clock, solve: Solve) -> None:
        """Descend from :attr:`best` within a slice of ``budget``; every plan has at least
        ``lower`` steps.  Sets :attr:`proven` when :attr:`best` is shown shortest (and
        :attr:`by_solve` when a solve showed it)."""
        self.attempts += 1
        spent = budget.elapsed()
        length = max(SLICE, spent)
        slice_ = budget.child(length)
        self._next = spent + 2 * length  # horizons from below get as long again
        while not slice_.expired():
            top = len(self.best) - self.stride
            if top < lower:
                self.proven = True
                return
            timeline = self._timeline_for(top, lower, slice_)
            if timeline is None:  # out of time while growing it; growth resumes next time
                return
            solver, status = solve(timeline, slice_)
            if status == cp_model.INFEASIBLE:
                self.proven = self.by_solve = True
                return
            if status not in FOUND:
                return
            self.best = timeline.plan(solver)

    def _timeline_for(self, top: int, lower: int, slice_: Clock) -> Timeline | None:
        """The stuttering timeline limited to ``lower`` to ``top`` real steps (``None``:
        the slice ran out, or the user interrupted, before it was grown)."""
        tl = self._timeline
        if tl is None:
            tl = self._timeline = Timeline(self.planning, stutter=True, forbidden=self.forbidden)
            if self.stride == 2:
                tl.plan_parity(len(self.best) % 2)
        if not self._closed:
            if not tl.extend(top, slice_).reached(top):  # a long timeline takes a while
                return None
            tl.model.add_bool_or([tl.close(self.estimate)])
            self._closed = True
        if top < tl.horizon:
            tl.model.add(tl.steps <= top)
        if lower > self._lower:
            tl.model.add(tl.steps >= lower)
            self._lower = lower
        return tl
