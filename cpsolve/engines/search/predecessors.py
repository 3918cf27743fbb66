"""Predecessors of a compiled planning task, generically (for backward search).

A predecessor ``p`` of ``t`` by action ``a`` agrees with ``t`` outside
``a.writes()``; the written variables are enumerated over their domains and
``p`` is kept when ``guard(p)`` holds and ``effect(p) == t``.  Which written
values qualify depends only on ``t`` restricted to the variables ``a`` reads or
writes, so the answer is cached per action under that key.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from ...answers.result import Unsupported
from .emit import build, grouped, source

State = tuple[int, ...]
Task = Any
"""A :class:`.compile.Task` (not imported: compile.py imports this module)."""

MAX_WRITE_PRODUCT = 1 << 16
"""Most value combinations of an action's written variables that
:meth:`Task.predecessors` will enumerate per cache key."""


def build_predecessors(task: Task) -> Callable[[State], list[tuple[int, State]]]:
    """The predecessor function of ``task`` (see the module docstring)."""
    keys, writes = [], []
    for a in task.actions:
        w = sorted(task.index[v] for v in a.writes())
        size = 1
        for i in w:
            size *= task.hi[i] - task.lo[i] + 1
        if size > MAX_WRITE_PRODUCT:
            raise Unsupported(
                f"search: action {a.name!r} writes {size:,} value combinations; too many "
                "to enumerate predecessors (backward search)")
        writes.append(w)
        keys.append(sorted(set(w) | {task.index[v] for v in a.reads()}))
    tables: list[dict[tuple[int, ...], list[tuple[int, ...]]]] = [{} for _ in task.actions]
    checks = [_action_check(task, k) for k in range(len(task.actions))]

    def fill(k: int, t: Sequence[int]) -> list[tuple[int, ...]]:
        w = writes[k]
        want = tuple(t[i] for i in w)
        p = list(t)
        found = []
        for combo in itertools.product(*(range(task.lo[i], task.hi[i] + 1) for i in w)):
            for i, v in zip(w, combo):
                p[i] = v
            if checks[k](p) == want:
                found.append(combo)
        tables[k][tuple(t[i] for i in keys[k])] = found
        return found

    def lines_for(k: int, pin) -> list[str]:
        key = "(" + "".join(f"t[{i}], " for i in keys[k]) + ")"
        pos = {i: j for j, i in enumerate(writes[k])}
        new = "(" + "".join(f"w[{pos[i]}], " if i in pos else f"t[{i}], "
                            for i in range(len(task.names))) + ")"
        return [f"r = _T{k}.get({key})", "if r is None:", f"    r = _fill({k}, t)",
                "for w in r:", f"    add(({k}, {new}))"]

    text = grouped("predecessors", "t", task.after_groups(), lines_for)
    names = {f"_T{k}": table for k, table in enumerate(tables)}
    return build(text, {"_fill": fill, **names}, "predecessors")


def _action_check(task: Task, k: int) -> Callable[[Sequence[int]], tuple[int, ...] | None]:
    """``f(p)``: the written values after action ``k`` if its guard holds, else None."""
    a = task.actions[k]
    order = sorted(a.effects, key=lambda e: task.index[e[0]])
    values = "".join(f"{source(e, task._ref, 'v')}, " for _, e in order)
    text = (f"def check(s):\n    if not ({source(a.guard, task._ref, 'c')}):\n"
            f"        return None\n    return ({values})\n")
    return build(text, {}, "check")
