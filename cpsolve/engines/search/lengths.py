"""When every plan has the same length: then any plan is a shortest one.

:func:`fixed_length` proves it by a potential argument, from the model's
text alone:

* an action's change of a variable it writes is *known* when the effect is
  ``v := c`` and the guard pins ``v == c0`` (change ``c - c0``), or the
  effect is ``v := v + c`` / ``v - c`` (change ``±c``);
* the *tracked* variables are those whose every writer changes them by a
  known amount (pegs: the holes; not a "last hole landed in" marker);
* every action must change the sum of the tracked variables by the same
  non-zero amount ``d``, and the goal must pin every tracked variable.

Then each step moves the sum by exactly ``d`` from its initial value to the
value the goal forces, so every plan has ``(end - start) / d`` steps.  When,
moreover, every action has the same constant cost, every plan costs the
same: the first plan any search finds is optimal (:func:`any_plan_is_optimal`).
"""

from __future__ import annotations

from ...expr import Binary, Const, Expr, Unary, Var, conjuncts
from ...model import Action, Planning
from ...result import Result, Status
from .common import found
from .compile import State, Task


def _pins(action: Action, model: Planning) -> dict[str, int]:
    """Variables the guard pins to a constant: ``v == c``, or ``v`` / ``not v`` for 0/1."""
    out: dict[str, int] = {}
    for c in conjuncts(action.guard):
        if isinstance(c, Binary) and c.op == "==":
            if isinstance(c.left, Var) and isinstance(c.right, Const):
                out[c.left.name] = c.right.value
            elif isinstance(c.right, Var) and isinstance(c.left, Const):
                out[c.right.name] = c.left.value
        elif isinstance(c, Var) and model.domain(c.name) == (0, 1):
            out[c.name] = 1
        elif isinstance(c, Unary) and c.op == "not" and isinstance(c.arg, Var) \
                and model.domain(c.arg.name) == (0, 1):
            out[c.arg.name] = 0
    return out


def _increment(name: str, value: Expr) -> int | None:
    """``c`` when ``value`` is ``name``, ``name + c``, ``c + name`` or ``name - c``."""
    if isinstance(value, Var) and value.name == name:
        return 0
    if isinstance(value, Binary) and value.op in ("+", "-"):
        left, right = value.left, value.right
        if isinstance(left, Var) and left.name == name and isinstance(right, Const):
            return right.value if value.op == "+" else -right.value
        if value.op == "+" and isinstance(right, Var) and right.name == name \
                and isinstance(left, Const):
            return left.value
    return None


def known_changes(action: Action, model: Planning) -> dict[str, int]:
    """The known change of each variable ``action`` writes (the others are left out)."""
    pins = _pins(action, model)
    out: dict[str, int] = {}
    for name, value in action.effects:
        if isinstance(value, Const) and name in pins:
            out[name] = value.value - pins[name]
        elif (step := _increment(name, value)) is not None:
            out[name] = step
    return out


def fixed_length(model: Planning) -> int | None:
    """The number of steps of every plan, when the potential argument above proves one.

    ``None`` when it does not apply (which says nothing either way).
    """
    if not model.actions or not model.initial:
        return None
    changes = [known_changes(a, model) for a in model.actions]
    tracked = [n for n in model.domains
               if all(n in c for a, c in zip(model.actions, changes) if n in a.writes())]
    deltas = {sum(c.get(n, 0) for n in tracked) for c in changes}
    if len(deltas) != 1 or 0 in deltas:
        return None
    pinned = model.goal_assignment()
    if any(n not in pinned for n in tracked):
        return None
    (d,) = deltas
    gap = sum(pinned[n] for n in tracked) - sum(model.initial[n] for n in tracked)
    if gap % d or gap // d < 0:
        return None  # no plan can exist; the search will find that out itself
    return gap // d


def any_plan_is_optimal(model: Planning) -> bool:
    """True when every plan has the same length and every action the same constant cost."""
    costs = {a.cost.value if isinstance(a.cost, Const) else None for a in model.actions}
    return len(costs) == 1 and None not in costs and fixed_length(model) is not None


def plan_found(task: Task, path: list[State], explored: int, how: str,
               **details: object) -> Result:
    """The result of a search that finds *a* plan: ``OPTIMAL`` when any plan is optimal."""
    if any_plan_is_optimal(task.model):
        return found(task, path, Status.OPTIMAL, explored,
                     f"{how}; every plan has {len(path) - 1} steps and the same cost "
                     "(each step moves a sum of the state by the same amount), so this one "
                     "is optimal", **details)
    return found(task, path, Status.SOLVED, explored,
                 f"{how}: a plan, not necessarily an optimal one", **details)
