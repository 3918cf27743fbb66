"""What every search algorithm shares: limits, progress, paths and results."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...answers.result import Plan, Result, Status, Unsupported
from ...answers.words import all_of, lower_bound, plural
from ...model.facts import any_plan_is_optimal
from ..runtime.clock import Clock
from ..runtime.stop import Stop
from .compile import State, Task

CHECK_EVERY = 2048
"""Expansions between two looks at the clock (at most: see :data:`TICK`).  The first look
comes after the first expansion: a run that starts past the memory limit (pattern tables
read from the cache, a limit below what the process holds) stops at once, with nothing
proven, however soon it would have ended."""

TICK = 0.05
"""Seconds between two looks at the clock, at most, as far as :meth:`Budget.interval` can
tell: when :data:`CHECK_EVERY` expansions took longer (each state tested against
thousands of forbidden conditions, or a huge model's successors), the next interval is
cut to what fits in a tick, and grows back as expansions get faster."""

REPORT_EVERY = 0.5
"""Seconds between two progress lines."""


class Inapplicable(Unsupported):
    """This algorithm cannot run on this model (the message says why); its fallback may."""


class Budget:
    """The caller's limits (a :class:`Clock` for time, ``limit`` on states) and progress
    callback.

    Algorithms count down :meth:`interval` expansions, then call :meth:`exceeded`;
    when it returns True, :attr:`stop` says which limit was hit (tested by identity)
    and :attr:`reason` says it in words for messages ("time limit 5 s reached").
    The time comes from :attr:`clock`: ``clock`` if one is given, else a new
    ``Clock(time_limit)``.  ``lifted``: the caller lifted every time limit
    (:attr:`~cpsolve.engines.Options.no_time_limit`), so a clock without a limit is no
    reason for a default budget of the algorithm's own.
    """

    def __init__(self, time_limit: float | None = None, limit: int | None = None,
                 progress: Callable[[str], None] | None = None, width: int = 1,
                 clock: Clock | None = None, lifted: bool = False) -> None:
        self.clock = clock if clock is not None else Clock(time_limit)
        self.lifted = lifted
        self.limit = limit
        self.progress = progress
        self.width = max(1, width)  # most states one expansion can add
        self.last_report = self.clock.now()
        self.stop: Stop | None = None
        self.reason = ""
        self._pace: list = [CHECK_EVERY, None, self.last_report]  # the most to hand out;
        # the last interval handed out (None: none yet), and when

    @classmethod
    def of(cls, options, width: int = 1) -> Budget:
        """The budget described by an :class:`~cpsolve.engines.Options`."""
        return cls(options.time_limit, options.limit, options.progress, width,
                   lifted=options.no_time_limit)

    def halt(self, stop: Stop, reason: str) -> bool:
        """Record why the work stops (:attr:`stop`, :attr:`reason`); True."""
        self.stop, self.reason = stop, reason
        return True

    def interval(self, seen: int) -> int:
        """Expansions that may run before the next call to :meth:`exceeded`: 1 the first
        time, then at most :data:`CHECK_EVERY`, fewer near the state limit, and fewer when
        the last interval took longer than a :data:`TICK`."""
        most, handed, since = self._pace
        now = self.clock.now()
        took = now - since
        if handed and took > TICK:
            most = max(1, int(handed * TICK / took))
        elif handed and took < TICK / 4:
            most = min(CHECK_EVERY, 2 * most)
        count = 1 if handed is None else most  # the first look after the first expansion
        if self.limit is not None:
            count = max(1, min(count, (self.limit - seen) // self.width))
        self._pace = [most, count, now]
        return count

    def exceeded(self, seen: int, status: Callable[..., str] | None = None,
                 *args: object) -> bool:
        """True when a limit is reached; else reports ``status(*args)`` if one is due."""
        if self.limit is not None and seen >= self.limit:
            return self.halt(Stop.STATES, f"state limit {self.limit:,} reached")
        stop = self.clock.stop()
        if stop is not None:
            return self.halt(stop, self.clock.why(self.clock.limit_reached()))
        if status is not None:
            self.report(status, *args)
        return False

    def leaves_time_for(self, seconds: float) -> bool:
        """False (and says why) when a step expected to take ``seconds`` would end past the
        time limit: a step that cannot look at the budget while it runs (one NumPy call
        over millions of states) is better not started — the command's clock stops it
        hard, with nothing to show, soon after the limit."""
        if self.clock.allows(seconds):
            return True
        return not self.halt(Stop.TIME, f"{self.clock.limit_reached()} (the next step, about "
                             f"{seconds:.1f} s, would end past it)")

    def leaves_memory_for(self, nbytes: int) -> bool:
        """False (and says why) when a step expected to need ``nbytes`` more would take the
        process past the memory limit: one NumPy step over tens of millions of states
        allocates in one go, faster than the limit's watch can see."""
        from ..runtime import memory

        limit, used = memory.limit(), memory.resident()
        if limit is None or used is None or used + nbytes <= limit:
            return True
        return not self.halt(Stop.MEMORY, f"{memory.reason(limit)} (the next step, about "
                             f"{memory.size_text(nbytes)}, would pass it)")

    def report(self, status: Callable[..., str], *args: object) -> None:
        """Send ``status(*args)`` to the progress callback if one is due."""
        if self.progress is None:
            return
        now = self.clock.now()
        if now - self.last_report >= REPORT_EVERY:
            self.last_report = now
            self.progress(status(*args))


def path_to(parent: Mapping[State, State | None], state: State) -> list[State]:
    """The states from the root of ``parent`` links to ``state``."""
    path = [state]
    while (state := parent[state]) is not None:  # type: ignore[assignment]
        path.append(state)
    path.reverse()
    return path


def found(task: Task, path: list[State], status: Status, explored: int,
          message: str = "", **details: object) -> Result:
    """A result carrying the plan that follows ``path``."""
    return Result(status=status, engine="search", answer=Plan.of(task.plan(path)),
                  explored=explored, message=message, details=details)


def infeasible(task: Task, explored: int, message: str = "", **details: object) -> Result:
    """The goal is unreachable, proven by a search that ran out of states; ``explored`` is
    the states or nodes it examined (docs/json.md), ``message`` what it exhausted.

    Without ``message`` the words are "all N reachable states explored" (:func:`all_of`:
    "the 1 reachable state" when there is one): true only of a
    search whose ``explored`` counts each state reachable from the start once (bfs, dfs,
    dijkstra, A*).  A search that merges symmetric states says so
    (:func:`exhausted_up_to_symmetry`), one that expands states again says what it did."""
    return Result(status=Status.INFEASIBLE, engine="search", explored=explored,
                  proof="exhausted search",
                  message=message or f"goal unreachable: {all_of(explored, 'reachable state')} "
                  f"explored", details=details)


def exhausted_up_to_symmetry(classes: int, symmetries: int) -> str:
    """The words for a search over canonical states that ran out: ``classes`` reachable
    states, each standing for itself and its images under ``symmetries`` (the model's
    symmetries that keep the goal, the identity left out)."""
    reached = f"goal unreachable: {all_of(classes, 'reachable state')} explored"
    if not symmetries:
        return reached
    return (f"{reached}, up to the model's {plural(symmetries, 'symmetry', 'symmetries')} "
            f"that {'keeps' if symmetries == 1 else 'keep'} the goal")


def stopped(budget: Budget, explored: int, bound: int | None, what: str = "steps",
            **details: object) -> Result:
    """A limit was hit: ``bound`` is a proven lower bound on the optimum."""
    proven = "" if bound is None else f"; {lower_bound(bound, what == 'steps')}"
    return Result(status=Status.UNKNOWN, engine="search", explored=explored, bound=bound,
                  message=f"stopped: {budget.reason} after {plural(explored, 'state')}{proven}",
                  details=details)


def fewest_moves(task: Task, path: list[State], explored: int, **details: object) -> Result:
    """A plan with the fewest moves: ``OPTIMAL`` when every action costs 1, else ``SOLVED``."""
    if task.unit_costs:
        return found(task, path, Status.OPTIMAL, explored, **details)
    return found(task, path, Status.SOLVED, explored,
                 f"fewest steps ({len(path) - 1}); actions cost other than 1, so the cost is "
                 "not proven minimal (use dijkstra)", steps_optimal=True, **details)


def plan_found(task: Task, path: list[State], explored: int, how: str,
               **details: object) -> Result:
    """The result of a search that finds *a* plan: ``OPTIMAL`` when any plan is optimal
    (:func:`cpsolve.model.facts.any_plan_is_optimal`), else ``SOLVED``."""
    if any_plan_is_optimal(task.model):
        return found(task, path, Status.OPTIMAL, explored,
                     f"{how}; every plan has {plural(len(path) - 1, 'step')} and the same cost "
                     "(each step moves a sum of the state by the same amount), so this one "
                     "is optimal", **details)
    return found(task, path, Status.SOLVED, explored,
                 f"{how}: a plan, not necessarily an optimal one", **details)
