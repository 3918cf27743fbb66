"""Optimal plans for a :class:`~cpsolve.model.planning.Planning` by growing the horizon.

The driver (:func:`solve`):

1. the goal already holds: the empty plan (optimal, costs are never negative);
2. horizons ``T = s, s + d, s + 2d, ...`` are tried exactly, on one growing
   :class:`.timeline.Timeline`, until one has a plan; each horizon proven
   empty is part of the proof.  ``s`` is the least number of steps the
   declared estimate (:func:`cpsolve.model.facts.estimate_bound`) or a potential allows;
   ``d`` is 2 when a parity invariant fixes the parity of every plan's length
   (:func:`cpsolve.model.facts.plan_parity`), else 1.  With unit costs the first plan
   found is optimal; otherwise the cheapest plan of that length is kept.
   Redundant constraints, each true of some optimal plan, prune the search:
   states two steps apart differ (a shortest plan never revisits a state), no
   action is followed by its inverse, independent neighbours come in a
   canonical order, no two steps in a row can be replaced by one (:mod:`.pairs`),
   and every state's estimate is at most the cost of the steps still to come;
3. every needed plan has at most ``cap`` steps (states never repeat, or a
   potential argument: :func:`~cpsolve.model.facts.potential_bounds`), so when
   ``T`` passes ``cap`` the goal is unreachable.  When the horizon has grown to
   a third of a small ``cap``, one stuttering solve at horizon ``cap`` asks whether any plan
   exists at all: none proves the goal unreachable at once; one bounds the
   horizons still to try by its length;
   A plan offered as a hint (``Options.hint``, replayed by :mod:`.hint`
   first: a rejected hint is ignored) bounds the horizons (its length) or the
   cost (its cost); with unit costs, descents from above (:mod:`.descent`:
   one stuttering solve proves no plan shorter than the best known) are
   interleaved with the horizons from below, whichever proves first;
4. with costs other than 1, a stuttering solve at the largest horizon a
   cheaper plan could have (``cap``; ``(C - 1) // floor`` when every step
   costs at least ``floor >= 1``; with steps of cost 0,
   :func:`~cpsolve.model.facts.steps_for_cost`) either finds the optimum or proves the
   incumbent optimal.

Every limit is honoured: the answer then says what was proven (a bound).
"""

from __future__ import annotations

from ...answers.result import Hint, Result, Status, Step
from ...model import Planning
from ...model.facts import (
    cost_floor,
    estimate_bound,
    goal_at_start,
    plan_parity,
    potential_bounds,
    state_count,
)
from .. import Options
from ..runtime.clock import Clock
from . import additions
from .cheapest import cheapest
from .descent import Descent
from .hint import replay
from .library import cp_model
from .pairs import commuting, shortcuts, undoing
from .planning_run import Run
from .solving import FOUND
from .timeline import Timeline, unroll

DISTINCT = 2
"""Exact horizons require states up to this many steps apart to differ (unless implied)."""
PROBE_AFTER = 8
"""Exact horizons tried before one solve at the full horizon bound is considered ..."""
PROBE_RATIO = 3
"""... once the horizon times this has reached the bound ..."""
PROBE_SIZE = 20_000
"""Largest ``horizon x actions`` for that solve ..."""
PROBE_SECONDS = 1.0
"""... and the least time it may take (it may also take as long as the horizons before)."""


def solve(planning: Planning, options: Options, hint: Hint | None = None) -> Result:
    """The cheapest plan (fewest steps with unit costs), or a proof that none exists.

    ``hint`` says where ``options.hint`` came from (:func:`cpsolve.engines.hints.prepare`);
    the result carries it with the replay's verdict (:attr:`Hint.verdict`).
    """
    budget = Clock(options.time_limit)  # from the start: validating thousands of forbidden
    # states takes a while
    planning.validate()
    run, fewest, potential = _start(planning, options, budget, hint)
    if goal_at_start(planning):
        return run.result(Status.OPTIMAL, (), "the goal holds in the initial state")
    floor = cost_floor(planning)
    if floor < 0:
        run.details["warning"] = "an action may cost less than 0"
    horizon, stride, timeline = _prepare(run, fewest, potential is not None)
    known = _hint(run)
    descent = _descent(run, known, stride)
    probed = descent is not None  # a descent asks more than the probe would
    while True:
        if (descent is not None and descent.due(budget.elapsed(), horizon, len(run.tried))
                and not budget.expired()):
            proven = _descend(run, descent, horizon, stride)
            known = descent.best
            if proven is not None:
                return proven
        if horizon > run.cap:
            return _unreachable(run, fewest)
        if budget.expired():
            return run.unknown(horizon, known, floor)
        if run.unit and known is not None and horizon == len(known):
            plan, status = known, cp_model.OPTIMAL
            break
        if (not probed and len(run.tried) >= PROBE_AFTER and horizon * PROBE_RATIO >= run.cap
                and run.cap * len(planning.actions) <= PROBE_SIZE):
            probed = True
            found = _probe(run, horizon)
            if found == ():
                return _unreachable(run, fewest)
            if found is not None and (known is None or len(found) < len(known)):
                known = found
            continue
        if not timeline.extend(horizon, budget).reached(horizon):  # the clock stopped the build
            return run.unknown(horizon, known, floor)
        if known is not None and not run.unit and horizon == len(known) \
                and "solution_hint" not in additions.OFF:
            timeline.suggest(known)  # a solution from the start for the cheapest of this length
        solver, status = run.solve(timeline, end=timeline.close(estimate=additions.estimate()),
                                   minimize=not run.unit)
        if status == cp_model.INFEASIBLE:
            run.tried.append(horizon)
            run.say(f"horizon {horizon}: no plan")
            horizon += stride
            continue
        if status not in FOUND:
            return run.unknown(horizon, known, floor)
        plan = timeline.plan(solver)
        break
    return _found(run, plan, horizon, known, status == cp_model.OPTIMAL, floor)


def _start(planning: Planning, options: Options, budget: Clock, hint: Hint | None = None
           ) -> tuple[Run, int, int | None]:
    """The run, with ``cap`` (the most steps a needed plan has) and why; the fewest steps
    and the potential's cap (``None``: no potential) from :func:`potential_bounds`."""
    cap, why = state_count(planning) - 1, "a plan never needs to repeat a state"
    fewest, potential = potential_bounds(planning) or (1, None)
    if potential is not None and potential < cap:
        cap, why = potential, "every action moves a sum of the state the same way"
    run = Run(planning, options, budget, planning.unit_costs(), cap, why, hint=hint)
    return run, fewest, potential


def _descent(run: Run, known: tuple[Step, ...] | None, stride: int) -> Descent | None:
    """The descents from the hint's plan ``known`` (with unit costs), which also caps the
    horizons at its length; ``None`` when there are none."""
    if known is None or not run.unit:
        return None
    descent = None
    if "descend" not in additions.OFF:
        descent = Descent(run.planning, known, stride, run.forbidden, additions.estimate(),
                          eager=not run.estimated)
    if len(known) < run.cap:
        run.cap = len(known)
        run.why = "a plan of that many steps is known (the hint)"
    return descent


def _descend(run: Run, descent: Descent, horizon: int, stride: int) -> Result | None:
    """One descent from its best plan down to ``horizon``; the optimal result when it
    proved its best plan optimal, else ``None`` (its best plan caps the horizons)."""
    run.say(f"looking for a plan of {horizon} to {len(descent.best) - stride} steps")
    descent.attempt(horizon, run.budget,
                    lambda tl, slice_: run.solve(tl, slice_, staged=False))
    run.details["descents"] = descent.attempts
    known = descent.best
    run.cap = min(run.cap, len(known))
    if not descent.proven:
        return None
    run.details["plan_horizon"] = len(known)
    if descent.by_solve:
        run.reasons.insert(0, f"none of {horizon} to {len(known) - stride} "
                           "steps exists, by one solve over every length")
    return run.result(Status.OPTIMAL, known, run.shortest(len(known)))


def _unreachable(run: Run, fewest: int) -> Result:
    """No plan of at most ``cap`` steps exists: the goal is unreachable (by the potential
    alone when it asks for more than ``fewest > cap`` steps)."""
    if fewest > run.cap:
        return run.result(Status.INFEASIBLE, proof="invariant", message=(
            f"no plan: {run.why}, and no number of steps takes that sum from its "
            "start to a value the goal allows"))
    return run.result(Status.INFEASIBLE, message=(
        f"no plan: none has at most {run.cap} steps and {run.why}{run.proof()}"))


def _found(run: Run, plan: tuple[Step, ...], horizon: int, known: tuple[Step, ...] | None,
           cheapest_of_length: bool, floor: int) -> Result:
    """A plan of the shortest length ``horizon`` was found: optimal with unit costs, else
    the cheaper of it and the hint's plan ``known``, then proven cheapest or not."""
    run.details["plan_horizon"] = horizon
    run.say(f"horizon {horizon}: plan found")
    if run.unit:
        return run.result(Status.OPTIMAL, plan, run.shortest(horizon))
    shortest = len(plan)
    if known is not None and sum(s.cost for s in known) < sum(s.cost for s in plan):
        plan = known  # the hint is cheaper than the cheapest plan of the shortest length
    return cheapest(run, plan, shortest, cheapest_of_length, floor)


def _prepare(run: Run, fewest: int, potential: bool) -> tuple[int, int, Timeline]:
    """The first horizon, the stride between horizons and the timeline with its pruning.

    ``fewest`` steps at least by the potential (``potential``: there is one).
    """
    planning = run.planning
    undo, implied = undoing(planning) if "undo" not in additions.OFF else ([], False)
    # independent actions in canonical order only: unsound with forbidden states, since
    # one order may pass through a forbidden state and the other not
    commute = "commuting" not in additions.OFF and not planning.forbidden
    # two steps that one step (or none) replaces: never in a shortest plan with unit costs
    short = shortcuts(planning) if "shortcut" not in additions.OFF and run.unit else []
    run.forbidden = list(dict.fromkeys(undo + (commuting(planning) if commute else [])
                                       + short))
    horizon = max(1, fewest)
    if fewest > 1:
        run.details["fewest_steps"] = fewest  # horizons below are impossible by the potential
        run.reasons.append(f"fewer than {fewest} ruled out because {run.why}")
    run.estimated, at_least = estimate_bound(planning) if "estimate" not in additions.OFF \
        else (0, 0)
    if run.estimated:
        run.details["estimate"] = run.estimated
    if at_least > horizon:
        horizon = at_least
        run.reasons.append(f"fewer than {at_least} ruled out by the estimate")
    parity, stride = plan_parity(planning) if "parity" not in additions.OFF else None, 1
    if parity is not None:
        run.details["parity"] = parity
        run.reasons.append(f"every plan has an {('even', 'odd')[parity]} number of steps "
                           "by the parity invariant")
        horizon, stride = horizon + (horizon - parity) % 2, 2
    # a state two steps later differs unless a forbidden undoing pair restores it, or
    # every action moves a potential one way (then no state ever comes back)
    distinct = 0 if implied or potential or "distinct" in additions.OFF else DISTINCT
    return horizon, stride, Timeline(planning, distinct=distinct, forbidden=run.forbidden)


def _hint(run: Run) -> tuple[Step, ...] | None:
    """The hint's steps, once replayed (``None``: no hint, or a rejected one); ``run.hint``
    records the verdict."""
    names = run.options.hint
    if names is None or "hint" in additions.OFF:
        return None
    offered = run.hint or Hint("given", len(names), 0.0)
    replayed = replay(run.planning, names)
    if replayed.steps is None:
        run.hint = offered.rejected(replayed.problem)
        run.say(f"hint rejected: {replayed.problem}")
        return None
    run.hint = offered.accepted()
    run.details.update(hint_steps=len(replayed.steps), hint_cost=replayed.cost)
    return replayed.steps


def _probe(run: Run, shortest: int) -> tuple[Step, ...] | None:
    """Is there any plan of ``shortest`` to ``cap`` steps?  One stuttering solve.

    Returns a plan, ``()`` when there is none, or ``None`` when undecided in
    the time allowed (no more than the horizons so far have taken, and at
    least a second).
    """
    run.say(f"looking for any plan of {shortest} to {run.cap} steps")
    tl = unroll(run.planning, run.cap, stutter=True, forbidden=run.forbidden,
                estimate=additions.estimate())
    tl.model.add(tl.steps >= shortest)
    slice_ = run.budget.child(max(PROBE_SECONDS, run.budget.elapsed()))
    solver, status = run.solve(tl, slice_)
    run.details["probe"] = {"horizon": run.cap, "status": solver.status_name(status)}
    if status == cp_model.INFEASIBLE:
        return ()
    return tl.plan(solver) if status in FOUND else None
