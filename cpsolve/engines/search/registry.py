"""What each search algorithm and analysis does, in one place.

Every entry is a frozen record: its name, its function ``fn(task, budget)
-> Result``, what it finds (:class:`Finds`), what it needs from the model
(:class:`Need`: refused with :class:`~cpsolve.answers.result.Unsupported` naming what
is missing), what it uses when present, the algorithm it falls back to and
one line saying what it is.  The engine (:func:`~..search.solve`,
:func:`~..search.analyze`), :func:`default_algorithm`, the CLI's
``--algorithm`` choices and help, and the tests all read these tables
(:mod:`.choosing` picks one by name); adding a search is one module and one entry here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from . import csp

if TYPE_CHECKING:  # the CLI reads these tables for its help: no model, no answers loaded
    from ...answers.result import Result
    from ...model import Planning
    from .common import Budget
    from .compile import Task

SearchFn = Callable[["Task", "Budget"], "Result"]
AnalysisFn = Callable[..., "Result"]  # (task, budget, direction[, options])


def resolve(where: str) -> Callable:
    """The function at ``"module:name"`` (a module of this package), imported now: the
    tables name their functions so that reading them (the CLI's help) loads no search."""
    module, name = where.split(":")
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)


class Finds(Enum):
    """What a plan found by an algorithm is guaranteed to be."""

    SHORTEST = "shortest"
    """fewest steps (the cheapest too when every action costs 1)"""
    CHEAPEST = "cheapest"
    """least total cost"""
    NEAR_CHEAPEST = "near-cheapest"
    """at most a fixed factor over the least cost (the least cost without an estimate)"""
    ANY = "any"
    """some plan (optimal only when every plan provably has the same length and cost)"""


class Need(Enum):
    """Something about a model an algorithm needs, uses, or is chosen by default for."""

    GOAL_STATE = "a goal that pins every variable to a constant (a single goal state)"
    PREDECESSORS = "predecessors that can be enumerated (backward steps)"
    ESTIMATE = "a declared estimate"
    UNIT_COSTS = "every action costing 1"
    SAME_LENGTH = "every plan provably having the same length and cost"
    SMALL_SPACE = "a reachable space small enough to hold in memory, as the packing tells"
    MEMORY = "0/1 costs read from one variable every action overwrites (a memory)"
    ZERO_ONE = "0/1 costs, constant or read from a memory variable"

    def lacking(self, model: Planning, task: Task | None = None) -> str | None:
        """Why ``model`` lacks this (a short reason), or None when it has it; PREDECESSORS
        and SMALL_SPACE need the compiled ``task``."""
        from ...model import facts, pins
        if self is Need.GOAL_STATE:
            return None if pins.goal_state(model) is not None else "the goal is not one state"
        if self is Need.ESTIMATE:
            declared = model.estimate is not None or bool(model.patterns)
            return None if declared else "the model declares none"
        if self is Need.UNIT_COSTS:
            return None if model.unit_costs() else "some action costs other than 1"
        if self is Need.SAME_LENGTH:
            return None if facts.any_plan_is_optimal(model) else "plans may differ in length"
        if self in (Need.MEMORY, Need.ZERO_ONE):
            from ...model.memory import lacking_memory
            return lacking_memory(model, constant_ok=self is Need.ZERO_ONE)
        if self is Need.SMALL_SPACE:  # numpy: only for spaces beyond the plain searches'
            return resolve("planning.space:lacking")(task)
        assert task is not None, "PREDECESSORS is checked on a compiled task"
        return _predecessors_lacking(task)


def _predecessors_lacking(task: Task) -> str | None:
    from ...answers.result import Unsupported
    goal = task.goal_state
    try:
        if goal is not None and task.in_domain(goal):
            task.predecessors(goal)
    except Unsupported as exc:
        return str(exc)
    return None


@dataclass(frozen=True)
class Algorithm:
    """One planning search: what it finds, needs and uses, and what stands in for it.

    * ``needs`` — refused (:class:`Unsupported`) when the model lacks one;
      when the algorithm was only the default, ``fallback`` runs instead;
    * ``uses`` — exploited when present, not required (without an estimate
      the informed searches are uniform-cost search);
    * ``default_when`` — :func:`default_algorithm` picks, in ``default_rank``
      order, the first entry whose conditions all hold (None: never the default).
    """

    name: str
    where: str
    """``"module:function"`` of the search, a ``fn(task, budget) -> Result``."""
    finds: Finds
    description: str
    needs: frozenset[Need] = frozenset()
    uses: frozenset[Need] = frozenset()
    fallback: str | None = None
    default_when: frozenset[Need] | None = None
    default_rank: int = 0

    @property
    def function(self) -> SearchFn:
        """The search itself (its module imported on first use)."""
        return resolve(self.where)

    def missing(self, task: Task) -> list[str]:
        """What the task's model lacks of :attr:`needs`, one phrase each (empty: runnable)."""
        out = []
        for need in _ordered(self.needs):
            reason = need.lacking(task.model, task)
            if reason is not None:
                out.append(f"{need.value} ({reason})")
        return out

    def refusal(self, task: Task) -> str | None:
        """The :class:`Unsupported` message for this task, or None when it can run."""
        missing = self.missing(task)
        if not missing:
            return None
        entry = self  # suggest the first algorithm down the fallback chain that can run
        while entry.fallback and ALGORITHMS[entry.fallback].missing(task):
            entry = ALGORITHMS[entry.fallback]
        hint = f"; use {entry.fallback}" if entry.fallback else ""
        return f"search: {self.name} needs {' and '.join(missing)}{hint}"


def _entries(*entries: Algorithm) -> dict[str, Algorithm]:
    return {e.name: e for e in entries}


_INFORMED = frozenset({Need.ESTIMATE})
_PACKED = frozenset({Need.UNIT_COSTS, Need.GOAL_STATE, Need.SMALL_SPACE})

ALGORITHMS: Mapping[str, Algorithm] = _entries(
    Algorithm("packed_bidir", "planning.packed_bidir:packed_bidir", Finds.SHORTEST,
              "bidir over packed states, a whole layer per NumPy step",
              needs=_PACKED - {Need.SMALL_SPACE} | {Need.PREDECESSORS}, fallback="bidir",
              default_when=_PACKED, default_rank=0),
    Algorithm("bfs", "planning.bfs:bfs",
              Finds.SHORTEST, "breadth-first search, layer by layer",
              default_when=frozenset({Need.UNIT_COSTS}), default_rank=4),
    Algorithm("bidir", "planning.bidir:bidir",
              Finds.SHORTEST, "breadth-first from the start and from the goal",
              needs=frozenset({Need.GOAL_STATE, Need.PREDECESSORS}), fallback="bfs",
              default_when=frozenset({Need.UNIT_COSTS, Need.GOAL_STATE}), default_rank=3),
    Algorithm("iddfs", "planning.iddfs:iddfs",
              Finds.SHORTEST, "iterative deepening depth-first search"),
    Algorithm("dfs", "planning.dfs:dfs",
              Finds.ANY, "depth-first search"),
    Algorithm("dijkstra", "planning.dijkstra:dijkstra",
              Finds.CHEAPEST, "uniform-cost search (0-1 BFS or a heap)",
              default_when=frozenset(), default_rank=5),
    Algorithm("astar", "planning.astar:astar",
              Finds.CHEAPEST, "A*, guided by the estimate", uses=_INFORMED),
    Algorithm("idastar", "planning.idastar:idastar",
              Finds.CHEAPEST, "iterative deepening A* (little memory)",
              uses=_INFORMED),
    Algorithm("wastar", "planning.wastar:wastar",
              Finds.NEAR_CHEAPEST, "weighted A*: a plan quickly, within a factor "
              "of the cheapest", uses=_INFORMED),
    Algorithm("anytime", "planning.anytime:anytime",
              Finds.CHEAPEST, "weighted A* for a plan, then A* / IDA* to "
              "prove it cheapest", uses=_INFORMED, default_when=_INFORMED, default_rank=1),
    Algorithm("memo_dfs", "planning.memo_dfs:memo_dfs",
              Finds.ANY, "depth-first search remembering dead ends, "
              "symmetric states merged"),
    Algorithm("widening", "planning.widening:widening",
              Finds.ANY, "beam searches of growing width, then "
              "exhaustive", uses=frozenset({Need.SAME_LENGTH}),
              default_when=frozenset({Need.SAME_LENGTH}), default_rank=2),
    Algorithm("closure", "planning.closure:closure",
              Finds.CHEAPEST, "cost layers closed under 0-cost actions, from both ends",
              needs=frozenset({Need.ZERO_ONE}), fallback="dijkstra",
              default_when=frozenset({Need.MEMORY}), default_rank=1),
)
"""Planning search algorithms by name (``Options.algorithm``)."""

def default_algorithm(model: Planning, task: Task | None = None) -> str:
    """The algorithm :func:`~..search.solve` runs when the caller names none.

    The first entry, in order of preference, whose ``default_when`` holds:

    * ``packed_bidir``: unit costs, one goal state, a space the packing says is small;
    * ``anytime`` when the model declares an estimate: a plan at once
      (weighted A*), then an optimality proof within the time limit;
    * ``closure`` when 0/1 costs are read from a memory variable (:mod:`~...model.memory`);
    * ``widening`` when every plan provably has the same length and cost
      (:func:`cpsolve.model.facts.any_plan_is_optimal`): any plan is optimal, so the
      search only has to find one (English 33-hole solitaire: 31 jumps);
    * ``bidir`` when every action costs 1 and the goal is a single state
      (two small frontiers instead of one big one);
    * ``bfs`` when every action costs 1, else ``dijkstra``.
    """
    candidates = [e for e in ALGORITHMS.values() if e.default_when is not None]
    for entry in sorted(candidates, key=lambda e: e.default_rank):
        if all(need.lacking(model, task) is None for need in entry.default_when or ()):
            return entry.name
    raise AssertionError("dijkstra is always a default")  # pragma: no cover


@dataclass(frozen=True)
class Analysis:
    """One state-space analysis; ``fallback`` runs when it raises :class:`Inapplicable`."""

    name: str
    where: str
    """``"module:function"`` of the analysis, ``fn(task, budget, direction[, options])``."""
    description: str
    fallback: str | None = None
    scaled: bool = False  # also takes the Options: work dir, resume, memory limit, cluster
    # (no default state limit either: these analyses exist for spaces beyond memory)
    from_goal: bool = True  # can sweep back from a single goal state (else: start only)
    named: bool = False  # a scaled analysis ``analyze --algorithm`` may also name

    @property
    def function(self) -> AnalysisFn:
        """The analysis itself (its module imported on first use)."""
        return resolve(self.where)


ANALYSES: Mapping[str, Analysis] = {
    "numpy": Analysis("numpy", "statespace.vector:numpy_layers",
              "whole frontiers at once with NumPy "
                      "(states packed into one to four int64 words)", fallback="python"),
    "python": Analysis("python", "statespace.layers:layers",
              "breadth-first layers with Python sets"),
    "external": Analysis("external", "statespace.external:on_disk",
              "layers on disk under a memory limit, "
                         "resumable, one state per orbit of the start's symmetries",
                         scaled=True, from_goal=False),
    "cluster": Analysis("cluster", "statespace.cluster:on_cluster",
              "layers hash-partitioned over a Dask cluster",
                        scaled=True, from_goal=False),
    "bitmap": Analysis("bitmap", "statespace.bitmap:bitmap_layers",
              "permutations ranked by a perfect hash, two bits per state "
                       "(in a file past half the memory budget)", fallback="numpy",
                       scaled=True, named=True),
}
"""State-space analyses by name; ``numpy`` is the default."""

DEFAULT_ANALYSIS = "numpy"

ANALYZE_LIMIT = 5_000_000
"""States an analysis in memory explores when the caller sets no limit (~1 GB with Python
sets); ``--limit none`` lifts it."""

CSP_ALGORITHMS: Mapping[str, str] = csp.ALGORITHMS
"""Csp algorithms by name, with what each is (``Options.algorithm`` on a csp)."""


def help_text() -> str:
    """The CLI's ``--algorithm`` help: what each finds, and which is the default when."""
    plans = ", ".join(f"{e.name} ({e.finds.value})" for e in ALGORITHMS.values())
    ranked = sorted((e for e in ALGORITHMS.values() if e.default_when is not None),
                    key=lambda e: e.default_rank)
    rules = ", ".join(f"{e.name} ({' and '.join(n.value for n in _ordered(e.default_when))})"
                      if e.default_when else e.name for e in ranked)
    return (f"search engine algorithm. Planning: {plans}. Default, the first that applies: "
            f"{rules}. "
            f"Csp: {', '.join(CSP_ALGORITHMS)} (default: circuit when it applies)")


def _ordered(needs: frozenset[Need] | None) -> list[Need]:
    return sorted(needs or (), key=lambda n: list(Need).index(n))


def analysis_choices() -> list[str]:
    """The analyses ``analyze --algorithm`` chooses (the on-disk and cluster ones come with
    ``--work-dir`` and ``--workers``/``--scheduler``)."""
    return [name for name, entry in ANALYSES.items() if not entry.scaled or entry.named]


def choices() -> list[str]:
    """Every name ``solve --algorithm`` accepts (planning and csp algorithms)."""
    return [*ALGORITHMS, *CSP_ALGORITHMS]
