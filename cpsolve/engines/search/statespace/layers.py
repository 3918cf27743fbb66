"""State-space analysis with Python sets: reachable states, distances, farthest states."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ....answers.kinds import Direction
from ....answers.result import Analysis, Result, Status, Unsupported
from ....answers.words import plural
from ....model import moves as model_moves
from ...runtime.stop import Stop
from ..common import Budget
from ..compile import State, Task

FROM_START = "use --from start: the states reachable from the start"
"""What an analysis from the goal that cannot be made does instead."""

NOT_SINGLE_GOAL = f"the goal is not a single state; {FROM_START}"
"""Why an analysis from the goal cannot be made: it starts from one state."""

Neighbours = Callable[[State], Iterable[State]]


def layers(task: Task, budget: Budget, direction: Direction | None = None) -> Result:
    """Breadth-first layers of the state space, one Python set of tuples.

    When the goal is a single state, a backward BFS from it over
    predecessors comes first: ``states`` is the number of states that can
    reach the goal, ``layers[d]`` the number at distance ``d`` *to* the goal
    and ``farthest`` those at the maximum distance; a forward BFS then counts
    the states reachable from the initial state (``details["reachable"]``), unless
    every move can be undone and the start was met: then they are those found.  Each
    sweep counts its own states against the state limit, and a stop in the forward
    one leaves the analysis from the goal complete (:func:`reachable_stopped`).
    Otherwise the layers are distances *from* the initial state.  The
    analysis's ``direction`` says which; ``direction`` chooses (``"goal"``
    raises :class:`Unsupported` when the goal is not one state with known
    predecessors).  On a limit the result is ``PARTIAL`` with the layers
    complete so far (``bound``: the last one).
    """
    goal = task.goal_state
    backward_ok = direction != "start" and goal is not None and task.in_domain(goal)
    reason = "" if backward_ok or direction != "goal" else NOT_SINGLE_GOAL
    if backward_ok:
        try:
            task.predecessors(goal)
        except Unsupported as exc:
            backward_ok, reason = False, f"not possible: {exc} ({FROM_START})"
    if not backward_ok and direction == "goal":
        raise Unsupported(f"search: analyze from the goal: {reason}")
    if not backward_ok:
        forward = sweep([task.initial], task.next_states, budget, "reachable", 0)
        if forward.stopped:
            return forward.unknown(budget, "reachable from the initial state", "start")
        extra = {"backward": reason} if reason else {}
        return forward.result("start", reachable=forward.seen, **extra)

    def predecessors(t: State) -> list[State]:
        return [p for _, p in task.predecessors(t)]

    backward = sweep([goal], predecessors, budget, "to goal", 0, task.initial)
    if backward.stopped:
        return backward.unknown(budget, "that can reach the goal", "goal")
    if backward.watched_at is not None and reversible_moves(task):
        return backward.result("goal", reachable=backward.seen,
                               initial_distance=backward.watched_at, reachable_by=REACHABLE_BY)
    forward = sweep([task.initial], task.next_states, budget, "reachable")
    done = backward.result("goal", reachable=forward.seen, initial_distance=backward.watched_at)
    return reachable_stopped(done, forward.seen, budget.reason) if forward.stopped else done


REACHABLE_BY = ("every move can be undone, so the states reachable from the start are those "
                "that reach the goal")
"""Why an analysis from the goal that met the start counts no states from the start."""


def reversible_moves(task: Task) -> bool:
    """Every move can be undone (:func:`cpsolve.model.moves.reversible`), unless
    :func:`.vector.reversible_moves` has already read it off the actions' relations
    (``task.memo``, which this leaves alone: the relations may prove what the model's
    facts cannot)."""
    known = task.memo.get("reversible")
    return bool(known) if known is not None else model_moves.reversible(task.model)


def reachable_stopped(done: Result, found: int, reason: str) -> Result:
    """``done``, a complete analysis from the goal, when the count of the states reachable
    from the start that follows it was stopped (``reason``: a limit, Ctrl-C) with ``found``
    states: still complete, for the states that can reach the goal are all counted (the
    state limit counts each sweep's own states); ``details["reachable"]`` gives way to
    ``reachable_so_far`` and the message says why."""
    details = {k: v for k, v in done.details.items() if k != "reachable"}
    return done.but(details={"reachable_so_far": found, **details},
                    message=f"every state that can reach the goal is counted; counting the "
                    f"states reachable from the start stopped: {reason}; "
                    f"{plural(found, 'state')} found so far")


class Sweep:
    """What a breadth-first sweep found: layer sizes, the last layer, a stop flag."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.last: list[State] = []
        self.seen = 0
        self.stopped = False
        self.partial = False
        """The last of :attr:`sizes` is a layer cut short by the state limit."""
        self.watched_at: int | None = None

    def cut(self, budget: Budget, offset: int, before: int, after: int) -> bool:
        """When the layer just made (``after - before`` new states) takes the count past the
        state limit: keep only the states up to the limit as a partial last layer, stopped
        (True); a limit is a limit."""
        if budget.limit is None or offset + after <= budget.limit:
            return False
        keep = max(0, budget.limit - offset - before)
        if keep:
            self.sizes.append(keep)
            self.partial = True
        self.seen, self.stopped = before + keep, True
        budget.halt(Stop.STATES, f"state limit {budget.limit:,} reached")
        return True

    def result(self, direction: Direction, **details: object) -> Result:
        """The exact analysis (``COMPLETE``), explored from ``direction``."""
        analysis = Analysis(self.seen, tuple(self.sizes), direction, len(self.sizes) - 1,
                            tuple(sorted(self.last)))
        return Result(status=Status.COMPLETE, engine="search", task="analyze", answer=analysis,
                      explored=self.seen, details=details)

    def unknown(self, budget: Budget, what: str, direction: Direction,
                **details: object) -> Result:
        """A limit was hit (``PARTIAL``): the layers so far (:func:`partial_analysis`)."""
        return partial_analysis(budget.reason, self.seen, tuple(self.sizes), direction, what,
                                details, self.partial)


WHAT = {"start": "reachable from the initial state", "goal": "that can reach the goal"}
"""What the states of an analysis from each side are, in its messages."""


def partial_analysis(reason: str, seen: int, sizes: tuple[int, ...], direction: Direction,
                     what: str, details: dict, partial: bool = False, hint: str = "") -> Result:
    """An analysis a limit stopped (``PARTIAL``) with ``seen`` states, ``sizes`` per
    distance, ``what`` they are (``reachable from the initial state``); ``partial``: the
    last of ``sizes`` is a layer cut short, its states found so far (``details``'
    ``last_layer`` says so).  ``bound`` and the message name the last complete layer: a
    partial one never counts, so the maximum distance is at least ``bound``.  ``hint`` ends
    the words in brackets (``; run again with --resume to go on``)."""
    depth = len(sizes) - 1
    complete = depth - 1 if partial else depth
    cut = ""
    if partial:
        details = {**details, "last_layer": "partial"}
        cut = f"; the last layer (distance {depth}) is partial: {sizes[-1]:,} of its states"
    return Result(status=Status.PARTIAL, engine="search", task="analyze",
                  answer=Analysis(seen, sizes, direction), explored=seen, bound=complete,
                  message=f"stopped: {reason}; {plural(seen, 'state')} {what} found so far, "
                  f"all within distance {complete} known (layers are complete up to distance "
                  f"{complete}{hint}){cut}", details=details)


def sweep(roots: list[State], neighbours: Neighbours, budget: Budget, label: str,
          offset: int = 0, watch: State | None = None) -> Sweep:
    """BFS from ``roots``; ``offset`` states already count against the state limit.

    ``watch``: record in ``watched_at`` the distance at which that state appears.
    """
    out = Sweep()
    seen = set(roots)
    frontier = list(seen)
    countdown = budget.interval(offset + len(seen))
    while frontier:
        out.sizes.append(len(frontier))
        out.last = frontier
        if out.watched_at is None and watch in seen:
            out.watched_at = len(out.sizes) - 1
        layer: list[State] = []
        for s in frontier:
            for t in neighbours(s):
                if t not in seen:
                    seen.add(t)
                    layer.append(t)
            countdown -= 1
            if not countdown:
                if budget.exceeded(offset + len(seen), _line, label, out, seen):
                    # a state's successors come together: those past the state limit go
                    over = 0 if budget.limit is None else \
                        min(len(layer), max(0, offset + len(seen) - budget.limit))
                    del layer[len(layer) - over:]
                    out.seen, out.stopped = len(seen) - over, True
                    if layer:  # the states of the layer under way count: a partial layer
                        out.sizes.append(len(layer))
                        out.partial = True
                    return out
                countdown = budget.interval(offset + len(seen))
        frontier = layer
        budget.report(_line, label, out, seen)
    out.seen = len(seen)
    return out


def _line(label: str, out: Sweep, seen: set) -> str:
    return (f"{label} depth {len(out.sizes) - 1}: {plural(out.sizes[-1], 'state')}, "
            f"{len(seen):,} seen")
