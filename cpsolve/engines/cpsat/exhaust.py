"""Before any horizon: proofs that no plan exists that need no time-indexed model.

A time-indexed model proves "no plan" only at a horizon as long as the
longest needed plan, and CP-SAT can take minutes to refute such a horizon
even when a few dozen states are reachable (a jugs model with 30).  So
:func:`before_horizons`, run by both planning tasks (solve and count) before
the driver, tries two proofs first, and says which one it used:

1. an invariant (:func:`cpsolve.engines.unsolvable.before_search`, the same for
   every engine): proof ``invariant``;
2. an exhaustion of a small state space: the search engine's breadth-first
   search (:func:`cpsolve.engines.search.planning.bfs.bfs`) runs with a
   budget of :data:`STATES` states and :data:`SECONDS` seconds; when it has
   generated every state reachable from the start and none is a goal, the
   proof is ``exhausted search`` and the message says that the search
   engine's exhaustion, not CP-SAT, proved it.  When it finds a goal or
   runs out of budget, it proves nothing and CP-SAT's horizons follow with
   the time left.
"""

from __future__ import annotations

from dataclasses import replace

from ...answers.agreement import PROOF_BY
from ...answers.result import Result, Status, Unsupported
from ...answers.words import all_of
from ...model import Planning
from .. import Options
from ..runtime.clock import Clock
from ..unsolvable import before_search, none_exists

STATES = 5_000
"""Most states the exhaustion generates (give or take one expansion): well above the
few hundred of a small model; on a large solvable one (the 8-puzzle, English 33) it
costs some tens of milliseconds before the horizons (benchmarks/infeasible.py)."""

SECONDS = 0.25
"""Most seconds the exhaustion takes ..."""

SHARE = 0.25
"""... and at most this share of the caller's time limit."""

MAX_ACTIONS = 5_000
"""Models with more actions skip the exhaustion (compiling them costs time)."""


def before_horizons(model: Planning, task: str, options: Options) -> tuple[Result | None, Options]:
    """A result when an invariant or an exhaustion proves that no plan exists (else None),
    and the options with what is left of the time limit for the horizons."""
    clock = Clock(options.time_limit)  # from the start: the proofs read every forbidden state
    proven = before_search(model, "cpsat", task, options.keep)
    if proven is not None:
        return proven, options
    if len(model.actions) > MAX_ACTIONS:
        return None, replace(options, time_limit=clock.left())
    from ..search.common import Budget
    from ..search.compile import compile_planning
    from ..search.forbidden import Stopped
    from ..search.planning.bfs import bfs

    seconds = SECONDS if options.time_limit is None \
        else min(SECONDS, SHARE * options.time_limit)
    try:  # (the successor function is compiled on first use, within bfs)
        budget = Budget(limit=STATES, clock=clock.child(seconds))
        compiled = compile_planning(model, budget.clock)
        budget.width = max(1, len(compiled.actions))  # width: stop near STATES
        result = bfs(compiled, budget)
    except (Unsupported, Stopped):  # the search engine cannot compile this model (in its
        # share of the time): no exhaustion
        result = None
    options = replace(options, time_limit=clock.left())
    if result is None or result.status is not Status.INFEASIBLE:
        return None, options
    message = (f"no plan: before any horizon, an exhaustive breadth-first search (the search "
               f"engine's) generated {all_of(result.explored, 'state')} reachable from the "
               "start, and none is a goal")
    return none_exists("cpsat", task, "exhausted search", message, options.keep,
                       explored=result.explored,
                       details={"exhausted_states": result.explored,
                                PROOF_BY: "search"}), options
