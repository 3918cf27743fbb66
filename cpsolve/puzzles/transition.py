"""Family ``transition``: state variables and actions written directly in the file.

    family = "transition"
    name = "Water jugs"
    [constants]            # named integers and lists, usable in expressions
    cap = [8, 5]
    [variables]            # scalar: [lo, hi]; array: {size = n, domain = [lo, hi]}
    jug = { size = 2, domain = [0, 8] }
    [initial]
    jug = [0, 0]
    goal = "jug[0] == 4 or jug[1] == 4"
    [[actions]]            # expanded over every combination of params
    name = "pour {i} into {j}"
    params = { i = [0, 1], j = [0, 1] }
    where = "i != j"       # optional filter on the parameters
    guard = "jug[i] > 0"   # optional, true by default
    effects = { "jug[i]" = "...", "jug[j]" = "..." }
    cost = "1"             # optional expression over the current state

Optional ``show = "{jug[0]} L | {jug[1]} L"`` draws a state (each ``{...}`` is
an expression) and ``[labels]`` names the values of a variable or array
(``on = ["red", "blue", ...]``) wherever states are drawn; labels named
after an action parameter name its values in action names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..expr import Const, Var, bounds, evaluate, variables
from ..model import MAX_ACTIONS, ModelError, Planning, check_size, combinations, expand, format_name
from .base import Puzzle
from .data import Data
from .declare import Template, constants_and_variables, parse_in, template

KEYS = {"family", "name", "description", "constants", "variables", "initial", "goal",
        "actions", "show", "labels"}
ACTION_KEYS = {"name", "params", "where", "guard", "effects", "cost"}


@dataclass(frozen=True, kw_only=True)
class TransitionPuzzle(Puzzle):
    """A transition system drawn with the file's ``show`` template and ``labels``."""

    template: Template

    def render_state(self, state: tuple[int, ...]) -> str:
        model = self.model
        assert isinstance(model, Planning)
        return self.template.render(model.assignment(state))


def build(data: Data) -> TransitionPuzzle:
    """Build the planning model of a ``transition`` file."""
    data.unknown_keys(KEYS)
    model = Planning(data.get("name", str, "transition model"))
    scope = constants_and_variables(data, model)
    _initial(data, model)
    goal = data.get("goal", str)
    model.set_goal(parse_in(data, "goal", goal, scope))
    actions = data.get("actions", list)
    if not actions:
        raise data.error("actions", "no actions declared")
    for number, table in enumerate(actions, start=1):
        if not isinstance(table, dict):
            raise data.error(f"actions[{number}]", "expected a table ([[actions]])")
        _actions(data, model, scope, table, f"actions[{number}].")
    model.validate()
    return TransitionPuzzle(model.name, "transition", model, data.get("description", str, ""),
                            "one move = one action", template=template(data, scope))


def _initial(data: Data, model: Planning) -> None:
    initial = data.get("initial", dict)
    values: dict[str, int] = {}
    for name, value in initial.items():
        key = f"initial.{name}"
        if isinstance(value, list):
            for i, v in enumerate(value):
                values[f"{name}[{i}]"] = _int(data, f"{key}[{i}]", v)
        else:
            values[name] = _int(data, key, value)
    for name, value in values.items():
        if name not in model.domains:
            raise data.error(f"initial.{name}", "not a declared variable")
        d = model.domains[name]
        if value not in d:
            raise data.error(f"initial.{name}",
                             f"value {value} is outside the domain {d.lo}..{d.hi}")
    missing = [n for n in model.names if n not in values]
    if missing:
        raise data.error("initial", f"no value for {', '.join(missing)}")
    model.set_initial(values)


def _int(data: Data, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise data.error(key, f"expected an integer, got {value!r}")
    return value


def _actions(data: Data, model: Planning, scope: dict, table: dict, prefix: str) -> None:
    data.unknown_keys(ACTION_KEYS, table, prefix)
    name = data.get("name", str, table=table, prefix=prefix)
    params = data.get("params", dict, {}, table=table, prefix=prefix)
    over: dict[str, list[int]] = {}
    for p, values in params.items():
        if p in scope:
            raise data.error(f"{prefix}params.{p}", "a parameter name hides a variable or constant")
        if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            raise data.error(f"{prefix}params.{p}", "expected a list of integers")
        over[p] = values
    effects = data.get("effects", dict, {}, table=table, prefix=prefix)
    try:
        check_size("parameter combinations", combinations(over), MAX_ACTIONS)
    except ModelError as err:
        raise data.error(prefix + "params", str(err)) from None
    for binding in expand(over):
        local = {**scope, **{k: Const(v) for k, v in binding.items()}}
        if "where" in table:
            where = parse_in(data, prefix + "where", table["where"], local)
            if variables(where):
                raise data.error(prefix + "where", "may only use parameters and constants")
            if not evaluate(where, {}):
                continue
        labels = data.get("labels", dict, {})
        shown = {k: _name_of(labels.get(k), v) for k, v in binding.items()}
        try:
            label = format_name(name, shown)
        except ModelError as err:
            raise data.error(prefix + "name", str(err)) from None
        guard = parse_in(data, prefix + "guard", table.get("guard", "True"), local)
        cost = parse_in(data, prefix + "cost", table.get("cost", "1"), local)
        eff = {}
        for target, value in effects.items():
            var = parse_in(data, f"{prefix}effects", target, local)
            if not isinstance(var, Var):
                raise data.error(f"{prefix}effects", f"{target!r} is not a variable")
            if var.name in eff:
                raise data.error(f"{prefix}effects.{target}",
                                 f"a second effect on {var.name} (one effect per variable)")
            eff[var.name] = parse_in(data, f"{prefix}effects.{target}", value, local)
        try:
            model.add_action(label, guard, eff, cost)
            if bounds(model.actions[-1].cost, model.domain)[0] < 0:
                raise data.error(prefix + "cost", f"action {label!r}: the cost may be negative; "
                                 "costs must be >= 0")
        except ModelError as err:
            raise data.error(prefix + "name", str(err)) from None


def _name_of(names: Any, value: int) -> Any:
    if isinstance(names, list) and 0 <= value < len(names):
        return names[value]
    return value
