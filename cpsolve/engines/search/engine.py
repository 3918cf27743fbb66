"""The search engine's door: ``solve``, ``count`` and ``analyze`` as :func:`cpsolve.engines.run`
calls them (``CAPABILITIES``), each choosing its algorithm from :mod:`.registry`."""

from __future__ import annotations

import math
from dataclasses import replace

from ...answers.kinds import Direction
from ...answers.result import Result, Status, Unsupported
from ...model import Csp, Planning
from .. import Options
from ..runtime.stop import Stop
from ..unsolvable import before_search
from . import registry
from .choosing import pick, pick_algorithm
from .common import Budget
from .compile import Task, compile_planning
from .forbidden import Stopped
from .registry import (
    ALGORITHMS,
    ANALYSES,
    DEFAULT_ANALYSIS,
    Analysis,
    default_algorithm,
)

__all__ = ["ALGORITHMS", "ANALYSES", "CAPABILITIES", "analyze", "count", "default_algorithm",
           "solve"]

CAPABILITIES = {("planning", "solve"), ("planning", "analyze"), ("planning", "count"),
                ("csp", "solve"), ("csp", "count")}

def solve(model: Csp | Planning, options: Options) -> Result:
    """A plan (planning) or a solution and whether it is unique (csp)."""
    if isinstance(model, Csp):
        from .csp.circuit import chosen, solve_circuit
        from .csp.solve import solve_csp

        circuit = chosen(model, options)
        return solve_circuit(model, circuit, options) if circuit else solve_csp(model, options)
    budget = Budget.of(options)  # the clock starts now: the proofs before the search read
    # every forbidden state too
    if options.algorithm is not None:  # an unknown name is refused before any proof
        pick_algorithm(options.algorithm, "planning")
    if (proven := before_search(model, "search", "solve")) is not None:
        return proven
    try:
        task = compile_planning(model, budget.clock)
    except Stopped as stop:
        return stopped_compiling(stop, "solve")
    budget.width = max(1, len(task.actions))
    return _planned(task, options.algorithm or default_algorithm(model, task),
                    options.algorithm is None, budget)


def _planned(task: Task, name: str, default: bool, budget: Budget) -> Result:
    """The plan of algorithm ``name``; when it was only the ``default``, what stands in for it
    (its ``fallback``) runs when it cannot: refused before it starts, or found inapplicable
    once under way (packed layers with no predecessor tables: their relations too large)."""
    from .common import Inapplicable

    entry, why = ALGORITHMS[name], ""
    while True:
        refusal = entry.refusal(task)
        if not refusal:
            try:
                result = _finish(task, entry.name, entry.function(task, budget))
            except Inapplicable as exc:
                if not default or entry.fallback is None:
                    raise
                refusal = why = str(exc)  # found once under way: the result says so
            else:
                return result.but(details={**result.details, "fallback": why}) if why \
                    else result
        if not default or entry.fallback is None:
            raise Unsupported(refusal)
        entry = ALGORITHMS[entry.fallback]


def count(model: Csp | Planning, options: Options) -> Result:
    """Count (and with ``options.keep`` list) every solution of a csp, or every optimal plan.

    Planning: the count is exact (:mod:`.planning.count_plans`); ``options.limit`` only caps
    how many plans are listed.
    """
    if isinstance(model, Planning):
        from .planning.count_plans import count_optimal

        budget = Budget(options.time_limit, None, options.progress)
        if (proven := before_search(model, "search", "count", options.keep)) is not None:
            return proven
        try:
            task = compile_planning(model, budget.clock)
        except Stopped as stop:
            return stopped_compiling(stop, "count")
        return count_optimal(task, budget, options.keep, options.limit)
    from .csp.circuit import chosen, count_circuit
    from .csp.solve import count_csp

    circuit = chosen(model, options)
    return count_circuit(model, circuit, options) if circuit else count_csp(model, options)


ANALYZE_LIMIT = registry.ANALYZE_LIMIT
"""States an analysis explores when the caller sets no limit (~1 GB with Python sets);
a limit of ``math.inf`` (``--limit none``) means none at all."""


def analyze(model: Csp | Planning, options: Options) -> Result:
    """State-space analysis of a planning model (see :mod:`.statespace`).

    Without ``options.limit``, an analysis in memory (``numpy``, ``python``, also as a
    bit map's fallback) explores at most :data:`ANALYZE_LIMIT` states (the message says
    so when that stops it); the ``scaled`` ones, made for more (the bit map, on disk, on
    a cluster), have no state limit, whether named or chosen by :func:`default_analysis`;
    ``options.limit = math.inf`` lifts every limit on states.
    """
    if not isinstance(model, Planning):
        raise Unsupported("search: analyze applies to planning models")
    unlimited = options.limit == math.inf
    if unlimited:
        options = replace(options, limit=None)
    budget = Budget.of(options)
    try:
        task = compile_planning(model, budget.clock)
    except Stopped as stop:
        return stopped_compiling(stop, "analyze")
    budget.width = max(1, len(task.actions))
    analysis = pick(options.algorithm or default_analysis(options, task), ANALYSES, "analysis")
    default = None if unlimited or options.limit is not None else ANALYZE_LIMIT
    result = _finish(task, *run_analysis(analysis, task, budget, options.direction, options,
                                         default))
    if default is not None and budget.stop is Stop.STATES:
        result = result.but(message=f"{result.message} (the default limit for analyze; "
                            "set another with --limit N, or lift it with --limit none)")
    return result


def stopped_compiling(stop: Stopped, task: str) -> Result:
    """The result of a run whose clock stopped it while it compiled the model's forbidden
    states: nothing explored, nothing proven (``partial`` for an analysis)."""
    status = Status.PARTIAL if task == "analyze" else Status.UNKNOWN
    return Result(status=status, engine="search", task=task, explored=0,
                  message=f"stopped: {stop}")


def default_analysis(options: Options, task: Task) -> str:
    """``cluster`` when a cluster is named; ``external`` when a work directory or resume is;
    ``bitmap`` when no state limit is set (``None`` or ``math.inf``: the same here) and the
    states are permutations of 12 or 13 values (``n!``
    above :data:`.statespace.packing.BITMAP_BITS`: the 3x4 sliding puzzle's 12!);
    ``external`` when an analysis from the start (``direction`` not ``"goal"``; it then
    explores from the start even when the goal is one state), with no state limit or one
    above the in-memory default (:data:`.registry.ANALYZE_LIMIT`), meets
    a space of packed codes too large for a bit map (above
    :data:`.statespace.packing.BITMAP_BITS`; English 33: 2^33) and moves that cannot
    all be undone (undoable moves keep two layers in memory, which is what the disk would
    hold); else :data:`DEFAULT_ANALYSIS`.  (English 33 to 60 million states: 16 s and
    1.2 GB on disk, against 103 s and 6 GB in memory.)"""
    if options.cluster is not None:
        return "cluster"
    if options.work_dir is not None or options.resume:
        return "external"
    unlimited = options.limit is None or options.limit == math.inf
    if unlimited and _many_permutations(task):
        return "bitmap"
    bits = sum((hi - lo).bit_length() for lo, hi in zip(task.lo, task.hi))
    large = unlimited or options.limit > ANALYZE_LIMIT
    if large and options.direction != "goal" and bits < 62 and _beyond_bit_map(task, bits):
        return "external"
    return DEFAULT_ANALYSIS


def _many_permutations(task: Task) -> bool:
    """The states are permutations of distinct values (:mod:`.statespace.bitmap`), more
    of them than the in-memory analysis's bit map holds, and at most 13 values (a 2-bit
    map of 1.6 GB; 14! takes 22 GB: ``--algorithm bitmap`` asks for it)."""
    import math

    n = len(task.initial)
    if len(set(task.initial)) != n or not 12 <= n <= 13:  # 11! < 2^27 <= 12!; 13!/4: 1.6 GB
        return False
    from .statespace.bitmap import permutation_like  # numpy is imported only here
    from .statespace.packing import BITMAP_BITS

    return math.factorial(n) > BITMAP_BITS and permutation_like(task)


def _beyond_bit_map(task: Task, bits: int) -> bool:
    """Codes of ``bits`` bits exceed the in-memory analysis's bit map, and not every move
    can be undone."""
    from .statespace.packing import BITMAP_BITS  # numpy is imported only here
    from .statespace.vector import reversible_moves

    return 1 << bits > BITMAP_BITS and not reversible_moves(task)


def _finish(task: Task, name: str, result: Result) -> Result:
    """Add what every planning result reports: the algorithm and skipped successors."""
    details = {"algorithm": name, **result.details}
    if task.skipped[0]:
        details["skipped_out_of_domain"] = task.skipped[0]
    return result.but(details=details)


def run_analysis(entry: Analysis, task: Task, budget: Budget,
                 direction: Direction | None = None, options=None,
                 default_limit: int | None = None) -> tuple[str, Result]:
    """Run an analysis (falling back as its entry says): the name that ran, and its result.

    ``direction``: explore from the ``"start"`` or back from the ``"goal"``
    (None: the analysis chooses); ``options``: what a ``scaled`` entry also reads;
    ``default_limit``: the state limit of an analysis in memory (not ``scaled``) when the
    caller set none, applied to the one that runs (a bit map's fallback too).
    """
    from .common import Inapplicable

    if default_limit is not None and not entry.scaled:
        budget.limit = default_limit
    try:
        if entry.scaled:
            return entry.name, entry.function(task, budget, direction, options)
        return entry.name, entry.function(task, budget, direction)
    except Inapplicable as exc:
        if entry.fallback is None:
            raise
        name, result = run_analysis(ANALYSES[entry.fallback], task, budget, direction, options,
                                    default_limit)
        return name, result.but(details={**result.details, "fallback": str(exc)})
