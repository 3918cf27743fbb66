"""Compile a :class:`~cpsolve.model.planning.Planning` model into a fast search task.

After :func:`compile_planning`, a state is a tuple of ints in
``model.names`` order and the returned :class:`Task` answers everything the
algorithms ask: ``successors(s)``, ``next_states(s)``, ``is_goal(s)`` and,
on demand, ``predecessors(t)``.

Guards, effects and costs are turned into Python source by :mod:`.emit`
(variables become ``s[i]``; see there why this is safe) and compiled once
on first use, into a single successor function for the whole model.  Two tricks keep it
fast without knowing anything about puzzles:

* actions whose guards share a pin ``x == c`` (:func:`~cpsolve.model.pins.pin`) are grouped
  under one ``if s[i] == c:`` test (in a sliding puzzle, "the blank is at cell j"
  selects the 2-4 moves worth testing out of 24);
* an effect is range-checked only when interval arithmetic
  (:func:`cpsolve.language.intervals.bounds`) cannot prove it stays in its domain.  A
  successor that would leave a domain is not allowed: it is skipped and
  counted in ``Task.skipped``.

Forbidden conditions (``model.forbidden``) are compiled into one test
``_allowed(t)`` (:mod:`.forbidden`: thousands of them as tables and in chunks, the
clock asked between) that every successor passes before it is added; a forbidden
state has no predecessors and is no predecessor.

Predecessors (``Task.predecessors``, for backward search) are built on first use
by :mod:`.predecessors`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

from ...answers.result import Step, Unsupported
from ...language.expr import Const, Expr, conjuncts
from ...language.intervals import bounds
from ...model import Action, Planning
from ...model.pins import goal_state, pin
from ..runtime.clock import Clock
from .emit import TooDeep, build, grouped, source
from .forbidden import allowed_test

State = tuple[int, ...]


class Task:
    """A compiled planning model (see the module docstring)."""

    def __init__(self, model: Planning, clock: Clock | None = None) -> None:
        model.validate()
        self.model = model
        self.names: list[str] = model.names
        self.index = {n: i for i, n in enumerate(self.names)}
        self.lo = [model.domains[n].lo for n in self.names]
        self.hi = [model.domains[n].hi for n in self.names]
        self.actions: list[Action] = list(model.actions)
        self.action_names = [a.name for a in self.actions]
        self.initial: State = model.initial_state()
        self.goal_state: State | None = goal_state(model)
        self.unit_costs = model.unit_costs()
        self.cost_bounds = [bounds(a.cost, model.domain) for a in self.actions]
        self.skipped = [0]
        self.memo: dict[str, object] = {}  # what engines derive from the task once (by name)
        try:
            self.allowed: Callable[[State], bool] | None = allowed_test(model, self.index, clock)
        except TooDeep as exc:
            raise Unsupported(f"search: {exc}") from exc
        self._predecessors: Callable[[State], list[tuple[int, State]]] | None = None

    # -- compiled on first use (the NumPy analyses never call them)

    @cached_property
    def successors(self) -> Callable[[State], list[tuple[int, State, int]]]:
        return self._compiled(self._build_successors, True)

    @cached_property
    def next_states(self) -> Callable[[State], list[State]]:
        return self._compiled(self._build_successors, False)

    @cached_property
    def is_goal(self) -> Callable[[State], bool]:
        goal = self._compiled(source, self.model.goal, self._ref, "c")
        return build(f"def is_goal(s):\n    return bool({goal})\n", {}, "is_goal")

    @staticmethod
    def _compiled(make: Callable, *args):
        try:
            return make(*args)
        except TooDeep as exc:
            raise Unsupported(f"search: {exc}") from exc

    # -- code generation

    def _ref(self, name: str) -> str:
        return f"s[{self.index[name]}]"

    def _pin(self, c: Expr) -> tuple[int, int] | None:
        """``(i, value)`` when ``c`` pins ``x_i`` to ``value`` (:func:`~cpsolve.model.pins.pin`)."""
        found = pin(c, self.model.domain)
        return None if found is None else (self.index[found[0]], found[1])

    def _guard_pins(self, a: Action) -> set[tuple[int, int]]:
        """``(i, c)`` for every guard conjunct that pins ``x_i`` to ``c``."""
        pins = (self._pin(c) for c in conjuncts(a.guard))
        return {p for p in pins if p is not None}

    def _after_pins(self, a: Action) -> set[tuple[int, int]]:
        """``(i, c)`` that hold in every state action ``a`` leads to.

        A constant effect ``x_i := c``, or a guard pin on a variable ``a``
        does not write.
        """
        written = {self.index[v] for v in a.writes()}
        pins = {(i, c) for i, c in self._guard_pins(a) if i not in written}
        pins |= {(self.index[v], int(e.value)) for v, e in a.effects if isinstance(e, Const)}
        return pins

    def guard_groups(self) -> list[tuple[tuple[int, int] | None, list[int]]]:
        """Actions grouped by a shared guard conjunct ``x_i == c`` (``(i, c)``; None: the rest)."""
        return self._group([self._guard_pins(a) for a in self.actions])

    def after_groups(self) -> list[tuple[tuple[int, int] | None, list[int]]]:
        """Actions grouped by a pin ``x_i == c`` that holds after them (for predecessors)."""
        return self._group([self._after_pins(a) for a in self.actions])

    @staticmethod
    def _group(pinned: list[set[tuple[int, int]]]) -> list[tuple[tuple[int, int] | None,
                                                                 list[int]]]:
        """Actions grouped by a shared pin ``s[i] == c`` (greedy, most shared first; of pins
        shared as often, the one met first).  The tally of the actions left is kept up to
        date as each group takes its members, not counted again per group (a Sokoban room
        of 14,456 actions in 1,936 groups: 6 s before its first step)."""
        holders: dict[tuple[int, int], list[int]] = {}
        for k, pins in enumerate(pinned):
            for shared in sorted(pins):
                holders.setdefault(shared, []).append(k)
        tally = {shared: len(ks) for shared, ks in holders.items()}
        taken = [False] * len(pinned)
        groups: list[tuple[tuple[int, int] | None, list[int]]] = []
        while tally:
            best = max(tally, key=tally.__getitem__)
            members = [k for k in holders[best] if not taken[k]]
            groups.append((best, members))
            for k in members:
                taken[k] = True
                for shared in pinned[k]:
                    tally[shared] -= 1
                    if not tally[shared]:
                        del tally[shared]
        left = [k for k in range(len(pinned)) if not taken[k]]
        if left:
            groups.append((None, left))
        return groups

    def _action_lines(self, k: int, pin: tuple[int, int] | None, full: bool) -> list[str]:
        """Statements adding action ``k``'s successor (indented one level less)."""
        a = self.actions[k]
        rest = [c for c in conjuncts(a.guard) if pin is None or self._pin(c) != pin]
        lines: list[str] = []
        ind = ""
        if rest:
            conds = " and ".join(f"({source(c, self._ref, 'c')})" for c in rest)
            lines.append(f"if {conds}:")
            ind = "    "
        values: dict[int, str] = {}
        checks: list[str] = []
        for var, expr in a.effects:
            i = self.index[var]
            text = source(expr, self._ref, "v")
            lo, hi = bounds(expr, self.model.domain)
            if lo < self.lo[i] or hi > self.hi[i]:
                lines.append(f"{ind}v{i} = {text}")
                checks.append(f"{self.lo[i]} <= v{i} <= {self.hi[i]}")
                text = f"v{i}"
            values[i] = text
        if len(self.names) <= 16 or len(values) * 3 > len(self.names):
            items = (values.get(i, f"s[{i}]") for i in range(len(self.names)))
            new = "(" + "".join(f"{v}, " for v in items) + ")"
            pre: list[str] = []
        else:
            pre = ["t = list(s)"] + [f"t[{i}] = {v}" for i, v in values.items()]
            new = "tuple(t)"
        item = f"({k}, {new}, {source(a.cost, self._ref, 'v')})" if full else new
        if self.allowed is not None:  # the new state, named once, must pass _allowed
            pre.append(f"n = {new}")
            item = f"({k}, n, {source(a.cost, self._ref, 'v')})" if full else "n"
            add = f"if _allowed(n): add({item})"
        else:
            add = f"add({item})"
        if checks:
            lines.append(f"{ind}if {' and '.join(checks)}:")
            lines += [f"{ind}    {p}" for p in pre] + [f"{ind}    {add}"]
            lines += [f"{ind}else:", f"{ind}    _bad[0] += 1"]
        else:
            lines += [f"{ind}{p}" for p in pre] + [f"{ind}{add}"]
        return lines

    def _build_successors(self, full: bool) -> Callable:
        name = "successors" if full else "next_states"
        text = grouped(name, "s", self.guard_groups(),
                       lambda k, pin: self._action_lines(k, pin, full))
        return build(text, {"_bad": self.skipped, "_allowed": self.allowed}, name)

    # -- predecessors

    def predecessors(self, t: State) -> list[tuple[int, State]]:
        """Every ``(action index, p)`` with ``p`` leading to ``t`` by that action."""
        if self._predecessors is None:
            from .predecessors import build_predecessors

            self._predecessors = build_predecessors(self)
        if self.allowed is None:
            return self._predecessors(t)
        if not self.allowed(t):
            return []
        return [(k, p) for k, p in self._predecessors(t) if self.allowed(p)]

    def in_domain(self, state: State) -> bool:
        """True when every value lies in its variable's domain."""
        return all(lo <= v <= hi for v, lo, hi in zip(state, self.lo, self.hi))

    # -- plans

    def step(self, s: State, t: State) -> tuple[int, int]:
        """``(action, cost)`` of the cheapest action leading from ``s`` to ``t``."""
        best: tuple[int, int] | None = None
        for k, u, c in self.successors(s):
            if u == t and (best is None or c < best[1]):
                best = (k, c)
        if best is None:
            raise RuntimeError(f"search: no action leads from {s} to {t}")
        return best

    def plan(self, path: Sequence[State]) -> tuple[Step, ...]:
        """The plan following a path of states that starts at the initial state."""
        steps = []
        for s, t in zip(path, path[1:]):
            k, c = self.step(s, t)
            steps.append(Step(self.action_names[k], t, c))
        return tuple(steps)


def compile_planning(model: Planning, clock: Clock | None = None) -> Task:
    """The compiled :class:`Task` of a planning model; ``clock`` may stop the compilation of
    many forbidden conditions (:class:`~.forbidden.Stopped`)."""
    return Task(model, clock)
