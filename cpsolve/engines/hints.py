"""A plan found fast, handed to CP-SAT as a hint (``Options.hint``).

CP-SAT proves a plan shortest by showing that no shorter one exists; a
plan known in advance bounds how far it has to look (:mod:`cpsolve.engines`
documents ``hint``).  Weighted A* of the search engine usually finds one in
a fraction of a second; this module asks it, through the one door to every
engine (:func:`cpsolve.engines.run`, so the plan is checked like any other
answer), within a small time slice.  A hint is only ever an upper bound:
the receiving engine replays it and still proves everything it claims.

:func:`prepare` is the one place that decides whether to look and how long:
the CP-SAT engine calls it for every planning solve (``--engine cpsat``,
``compare``, ``auto``'s CP-SAT racer, the Python API), after its proofs that
no plan exists (:mod:`cpsolve.engines.cpsat.exhaust`) had their turn, so a
model that a proof settles never waits for a hint.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..answers.result import EngineBug, Hint, Unsupported
from ..model import Circuit, Csp, Planning
from ..model.facts import goal_at_start, potential_bounds, state_count
from . import Options, run
from .runtime import interrupt
from .runtime.clock import Clock

SECONDS = 2.0
"""Most seconds spent looking for a hint ..."""
SHARE = 0.1
"""... and at most this share of the caller's time limit (charged to it)."""
ALGORITHM = "wastar"
"""The search that finds it: weighted A* (Dijkstra's search without an estimate)."""
SOURCE = f"search {ALGORITHM}"
"""Where a hint looked for here comes from, as :class:`~cpsolve.answers.result.Hint` says it."""
TINY = 16
"""Models of at most this many states (the product of the domains' sizes) get no hint:
CP-SAT settles each of their few horizons in milliseconds (the farmer's crossing, 16
states: 0.010 s with a hint and without, in process, median of 5)."""


def slice_for(time_limit: float | None) -> float:
    """Seconds the hint may take under ``time_limit``."""
    return SECONDS if time_limit is None else max(0.0, min(SECONDS, SHARE * time_limit))


def look(model: Planning, time_limit: float | None = None) -> tuple[tuple[str, ...] | None, Hint]:
    """The action names of a plan found fast (``None``: none within the slice), and what
    the look found, as a :class:`~cpsolve.answers.result.Hint` (verdict ``"offered"``, or
    ``"none"`` when none was found)."""
    seconds = slice_for(time_limit)
    start = time.perf_counter()
    try:
        result = run("search", "solve", model,
                     Options(time_limit=seconds, algorithm=ALGORITHM))
    except (Unsupported, EngineBug) as err:  # no hint; a bug is the search engine's to report
        return None, Hint.missing(SOURCE, time.perf_counter() - start, f"no hint: {err}")
    took = time.perf_counter() - start
    plan = result.plan
    if plan is None:
        why = "interrupted" if interrupt.requested() else f"none within {seconds:.2g} s"
        return None, Hint.missing(SOURCE, took, f"no plan found ({why})")
    return tuple(step.action for step in plan), Hint(SOURCE, len(plan), took)


def prepare(model: Planning, options: Options) -> tuple[Options, Hint | None]:
    """``options`` for a solve of ``model`` with a hint, and what was done about it.

    A hint already in ``options`` is kept (source ``"given"``).  Otherwise, unless
    ``options.find_hint`` is off, the model is tiny (:data:`TINY`), its goal holds at
    the start, the potential fixes the plans' length (or rules them all out) or the
    user interrupted, weighted A* looks for one within
    :func:`slice_for` the time limit; the time it took is taken off the limit.
    The second value is ``None`` when no hint was looked for.
    """
    if options.hint is not None:
        return options, Hint("given", len(options.hint), 0.0)
    if (not options.find_hint or interrupt.requested() or state_count(model) <= TINY
            or goal_at_start(model) or _one_length(model)):
        return options, None
    clock = Clock(options.time_limit)
    if options.progress is not None:
        options.progress(f"looking for a first plan ({SOURCE}, at most "
                         f"{slice_for(options.time_limit):.3g} s)")
    names, hint = look(model, options.time_limit)
    if names is not None:
        options = replace(options, hint=names)
    return replace(options, time_limit=clock.left()), hint


def _one_length(model: Planning) -> bool:
    """True when every plan has one number of steps, or none can exist, by the potential
    (:func:`cpsolve.model.facts.potential_bounds`): CP-SAT tries that one horizon, or none, and a
    hint cannot narrow it."""
    bounds = potential_bounds(model)
    return bounds is not None and bounds[0] >= bounds[1]



def assignment(model: Csp, options: Options) -> tuple[Options, dict[str, int] | None, str]:
    """For a csp with a circuit (a knight's tour), a solution found fast by the search
    engine (its circuit search, within :func:`slice_for` the time limit), for CP-SAT to
    start from (its solution hint; CP-SAT still checks every constraint); the options with
    the time it took taken off, the solution (None: none looked for or found), and a note
    saying what happened (empty: none looked for).  ``options.find_hint`` off, a model
    without a circuit or an interruption: nothing is looked for."""
    if (not options.find_hint or interrupt.requested()
            or not any(isinstance(c, Circuit) for c in model.constraints)):
        return options, None, ""
    clock = Clock(options.time_limit)
    seconds = slice_for(options.time_limit)
    try:
        result = run("search", "solve", model, Options(time_limit=seconds))
    except (Unsupported, EngineBug) as err:
        return replace(options, time_limit=clock.left()), None, f"no hint: {err}"
    left = replace(options, time_limit=clock.left())
    values = getattr(result.answer, "values", None)
    if values is None:
        return left, None, f"search found no solution within {seconds:.2g} s"
    return left, dict(values), f"search found one in {clock.elapsed():.3f} s"
