"""The OR-Tools CP-SAT engine: the only place in cpsolve that imports ortools.

Modules, in pipeline order:

* :mod:`.compile` — expression trees to CP-SAT terms, literals and constraints
  (with :mod:`.relations` for comparison operators);
* :mod:`.direct` — one literal per value for small domains, and small
  conditions as clauses (truth tables from :mod:`.table`);
* :mod:`.csp` — a :class:`~cpsolve.model.csp.Csp` compiled directly: solve with
  a uniqueness check, count;
* :mod:`.timeline` — a :class:`~cpsolve.model.planning.Planning` as a time-indexed
  model, grown step by step (:mod:`.steps`: one step as value literals and
  clauses); the bounds on the horizons worth trying (potential, estimate,
  parity) are model facts (:mod:`cpsolve.model.facts`); :mod:`.pairs` — pairs of
  actions that never need to follow each other (inverses, independent
  actions out of order);
* :mod:`.exhaust` — before any horizon: an invariant
  (:mod:`cpsolve.engines.unsolvable`), then a bounded exhaustion of a small
  state space, may prove that no plan exists;
* then, for a solve without a hint, :func:`cpsolve.engines.hints.prepare`: weighted A*
  of the search engine looks for a first plan within a small share of the
  time limit (``Options.find_hint``); the result says what it found
  (``Result.hint``);
* :mod:`.graph` — for a model with unit costs over a small code space, the
  plan as a path in the explicit transition graph (one automaton constraint),
  before any hint or horizon; else (None) the time-indexed model below;
* :mod:`.planning` — the driver that grows the horizon to an optimal plan (:mod:`.planning_run`:
  one call of it, its figures and results; :mod:`.additions`: what it adds to the plain model;
  :mod:`.cheapest`: with costs, the cheapest plan proven optimal);
  :mod:`.hint` — a plan offered in ``Options.hint``, replayed before it bounds
  the horizons or the cost; :mod:`.descent` — with such a plan, one solve
  that proves nothing shorter exists, interleaved with the horizons;
  :mod:`.count_plans` — every optimal plan, enumerated;
* :mod:`.solving` — time budgets and solver set-up.

Import this package only through :func:`cpsolve.engines.run` (or
:func:`cpsolve.engines.load`).  Importing ortools costs about half a second,
so the modules that need it are imported when a task first needs them: a
model that :mod:`.exhaust` proves unsolvable is answered without it.
"""

from __future__ import annotations

from ...answers.result import Result, Unsupported
from ...model import Csp, Planning
from .. import Options
from ..runtime.clock import Clock
from .exhaust import before_horizons

CAPABILITIES = {("csp", "solve"), ("csp", "count"), ("planning", "solve"), ("planning", "count")}


def solve(model: Csp | Planning, options: Options) -> Result:
    """Solve a CSP (with a uniqueness check) or find an optimal plan."""
    if model.kind == "csp":
        from ..hints import assignment
        from . import csp

        if model.objective is not None:  # type: ignore[union-attr]
            from . import optimize

            return optimize.solve(model, options)  # type: ignore[arg-type]
        options, hint, note = assignment(model, options)  # type: ignore[arg-type]
        result = csp.solve(model, options, hint)  # type: ignore[arg-type]
        return result.but(details={**result.details, "solution_hint": note}) if note else result
    if model.kind == "planning":
        clock = Clock(options.time_limit)  # each stage gets what is left of it
        proven, options = before_horizons(model, "solve", options)  # type: ignore[arg-type]
        if proven is not None:
            return proven
        from . import graph

        if (options.hint is None and options.encoding != "time-indexed"
                and graph.applies(model)):  # type: ignore[arg-type]
            found = graph.solve(model, _left(options, clock))  # type: ignore[arg-type]
            if found is not None:
                return found
        from ..hints import prepare
        from . import planning

        options, hint = prepare(model, _left(options, clock))  # type: ignore[arg-type]
        return planning.solve(model, _left(options, clock), hint)  # type: ignore[arg-type]
    raise Unsupported(f"cpsat cannot solve a {model.kind} model")


def _left(options: Options, clock: Clock) -> Options:
    """``options`` with what is left of ``clock`` as the time limit."""
    from dataclasses import replace

    return options if clock.limit is None else replace(options, time_limit=clock.left())


def count(model: Csp | Planning, options: Options) -> Result:
    """Count the solutions of a CSP, or the optimal plans (:mod:`.count_plans`)."""
    if model.kind == "csp":
        from . import csp

        return csp.count(model, options)  # type: ignore[arg-type]
    if model.kind == "planning":
        proven, options = before_horizons(model, "count", options)  # type: ignore[arg-type]
        if proven is not None:
            return proven
        from . import count_plans

        return count_plans.count(model, options)  # type: ignore[arg-type]
    raise Unsupported(f"cpsat cannot count the solutions of a {model.kind} model")
