"""A plan found fast, handed to another engine as a hint (``Options.hint``).

CP-SAT proves a plan shortest by showing that no shorter one exists; a
plan known in advance bounds how far it has to look (:mod:`cpsolve.engines`
documents ``hint``).  Weighted A* of the search engine usually finds one in
a fraction of a second; this module asks it, through the one door to every
engine (:func:`cpsolve.engines.run`, so the plan is checked like any other
answer), within a small time slice.  A hint is only ever an upper bound:
the receiving engine replays it and still proves everything it claims.
"""

from __future__ import annotations

from dataclasses import replace

from .engines import Options, run
from .model import Planning
from .result import EngineBug, Unsupported

SECONDS = 2.0
"""Most seconds spent looking for a hint (a tenth of a smaller time limit)."""
ALGORITHM = "wastar"
"""The search that finds it: weighted A* (Dijkstra's search without an estimate)."""


def first_plan(model: Planning, time_limit: float | None = None) -> tuple[str, ...] | None:
    """The action names of a plan found fast, or ``None`` (none within the slice)."""
    seconds = SECONDS if time_limit is None else min(SECONDS, time_limit / 10)
    try:
        result = run("search", "solve", model, Options(time_limit=seconds, algorithm=ALGORITHM))
    except (Unsupported, EngineBug):  # no hint; a bug is the search engine's to report
        return None
    plan = result.plan
    return None if plan is None else tuple(step.action for step in plan)


def hinted(options: Options, model: Planning, time_limit: float | None = None) -> Options:
    """``options`` with a hint for ``model`` (unchanged when none was found)."""
    hint = first_plan(model, time_limit)
    return options if hint is None else replace(options, hint=hint)
