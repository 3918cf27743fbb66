"""Family ``transition``: state variables and actions written directly in the file.

    family = "transition"
    name = "Water jugs"
    goal = "jug[0] == 4 or jug[1] == 4"
    show = "{jug[0]} L | {jug[1]} L"
    forbid = []            # optional: conditions no state may satisfy
    [constants]            # integers, lists, or expressions of the constants above
    cap = [8, 5]
    [variables]            # scalar: [lo, hi]; array: {size = n, domain = [lo, hi]}
    jug = { size = 2, domain = [0, "cap"] }    # one upper bound per cell
    [initial]
    jug = [0, 0]           # or jug = 0: every cell
    [[actions]]            # expanded over every combination of params
    name = "fill {i}"
    params = { i = "range(2)" }
    guard = "jug[i] < cap[i]"
    effects = { "jug[i]" = "cap[i]" }
    [[actions]]
    name = "empty {i}"
    params = { i = [0, 1] }
    guard = "jug[i] > 0"
    effects = { "jug[i]" = "0" }
    [[actions]]
    name = "pour {i} into {j}"
    params = { i = "range(2)", j = "range(2)" }
    where = "i != j"       # optional filter on the parameters
    guard = "jug[i] > 0 and jug[j] < cap[j]"    # optional, true by default
    cost = "1"             # optional expression over the current state
    [actions.effects]      # the effects of this action, one per line
    "jug[i]" = "jug[i] - min(jug[i], cap[j] - jug[j])"
    "jug[j]" = "min(cap[j], jug[i] + jug[j])"

Every top-level key (``name``, ``goal``, ``show``, ``forbid``, ...) comes
before the first ``[table]`` header: TOML puts a key written after a header
inside that table.  The full reference, with every feature, is
``docs/families/transition.md``.  In short:

* ``[constants]`` are usable everywhere: in expressions, sizes, domain
  bounds (a constant array gives one bound per cell), initial values and
  parameter lists;
* ``[initial]`` gives an array one value for every cell, a list of every cell
  row by row, or (a shaped array) lists nested as its shape
  (:func:`~cpsolve.puzzles.arrays.array_values`, which reads per-cell
  bounds too);
* ``params`` values are lists or strings: ``"range(n)"``, ``"range(a, b)"``,
  a constant array, a list expression; a later parameter may use the
  earlier ones (``j = "range(i + 1, n)"``);
* ``forbid = [...]`` lists conditions no state may satisfy and
  ``invariant = [...]`` conditions every state must satisfy (the initial
  state too: a file whose initial state breaks one is refused);
* an effect target may index an array with a name that is neither a
  parameter nor a constant (``"x[k]"``): the effect is then written once for
  every index ``k`` of that array, and a cell whose new value is the cell
  itself (``"1 - x[k] if adjacent else x[k]"``, the condition decided from
  the parameters) is not written at all.  An effect may also be a table
  ``{ value = "...", when = "condition" }``: a constant condition keeps or
  drops the effect; a condition on the state keeps the old value when false;
* two effects on one variable are an error, however they are written, and an
  action must change the state: one left without effects is an error too;
* there is no objective: plans are minimised by cost (``minimize`` and
  ``maximize`` are a csp's keys, refused here saying so).

Optional ``show`` draws a state (each ``{...}`` is an expression) and
``[labels]`` names the values of a variable or array (``on = ["red", "blue",
...]``) wherever states are drawn; labels named after an action parameter
name its values in action names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..language.combine import If
from ..language.expr import Const, Expr, Var
from ..language.fold import keeps
from ..language.interpret import evaluate
from ..language.intervals import bounds
from ..language.quoting import figure
from ..language.quoting import shown as echoed
from ..language.scope import variable_scope
from ..language.syntax import as_said
from ..language.walk import variables
from ..model import MAX_ACTIONS, ModelError, Planning, format_name, same_name
from .arrays import array_values, cell_names, shape_of
from .base import Puzzle
from .constants import integers, read_values
from .data import Data, key_part
from .declare import constants_and_variables
from .drawing import Drawing, drawing
from .file_expressions import condition_in, free_indices, parse_in, value_in
from .show_template import Template, check_show, labels_problem, read_labels, template

KEYS = {"family", "name", "description", "constants", "variables", "initial", "goal",
        "actions", "show", "labels", "forbid", "invariant", "draw"}
ACTION_KEYS = {"name", "params", "where", "guard", "effects", "cost"}
EFFECT_KEYS = {"value", "when"}
OBJECTIVE_KEYS = {"minimize", "maximize"}


@dataclass(frozen=True, kw_only=True)
class TransitionPuzzle(Puzzle):
    """A transition system drawn with the file's ``show`` template and ``labels``."""

    template: Template
    drawing: Drawing | None = None
    """How a state is pictured (``[draw]``); None: a table of the variables."""

    def render_state(self, state: tuple[int, ...]) -> str:
        model = self.model
        assert isinstance(model, Planning)
        return self.template.render(model.assignment(state))

    def value_text(self, name: str, value: int) -> str:
        """A value as its label, when the file labels the variable's values."""
        return self.template.label(name, value)


def shown(model: Planning, show: str = "", labels: Mapping[str, list] | None = None,
          description: str = "") -> TransitionPuzzle:
    """A Python planning model drawn with a ``show`` template and ``labels``, no subclass.

    ``show`` is written as in a model file (``"{jug[0]} L | {jug[1]} L"``: each
    ``{...}`` an expression over the model's variables); a Python file may
    return the result from ``build()``.
    """
    scope = variable_scope(model.names)
    check_show(show, scope)  # an error in the template shows now, not when drawing
    problem = labels_problem(labels or {}, model)
    if problem is not None:
        raise ModelError(f"labels[{echoed(problem[0])}]: {problem[1]}")
    return TransitionPuzzle(model.name, "transition", model, description,
                            "one move = one action",
                            template=Template(show, dict(labels or {}), scope,
                                              model.domains))


def build(data: Data) -> TransitionPuzzle:
    """Build the planning model of a ``transition`` file."""
    data.top_level = KEYS
    objective = sorted(OBJECTIVE_KEYS & data.table.keys())  # a csp's key, not a typo
    if objective:
        raise data.error(objective[0], "a transition model has no objective: its plans are "
                         "minimised by cost, the sum of each action's cost (cost = \"...\", "
                         "1 by default); minimize and maximize belong to csp models")
    data.unknown_keys(KEYS)
    model = Planning(data.get("name", str, "transition model"))
    scope = constants_and_variables(data, model)
    _initial(data, model, scope)
    goal = data.get("goal", str)
    model.set_goal(condition_in(data, "goal", goal, scope, model))
    _forbidden(data, model, scope)
    actions = data.get("actions", list)
    if not actions:
        raise data.error("actions", "no actions declared")
    emptied: list[tuple[str, str]] = []  # why an action has no instance: (key, message)
    for number, table in enumerate(actions):  # counted from 0, as the TOML array index
        if not isinstance(table, dict):
            raise data.error(f"actions[{number}]", "expected a table ([[actions]])")
        emptied += _actions(data, model, scope, table, f"actions[{number}].")
    if emptied:  # a declared action that can never be taken: a slip that would change answers
        key, message = emptied[0]
        whole = "" if model.actions else " (and the model no action at all)"
        with data.entry(key):  # a top-level key after [actions.params] is no parameter
            raise data.error(key, f"{message}, so this action has no instance{whole}")
    try:
        model.validate()
    except ModelError as err:
        raise data.error("initial", str(err)) from None  # _forbidden named a forbid key
    return TransitionPuzzle(model.name, "transition", model, data.get("description", str, ""),
                            "one move = one action", template=template(data, scope, model, {
                                p for t in actions for p in t.get("params", {})}),
                            drawing=drawing(data, model))


def _forbidden(data: Data, model: Planning, scope: dict) -> None:
    for key, add in (("forbid", model.forbid), ("invariant", model.invariant)):
        for i, text in enumerate(data.get(key, list, [])):
            where = f"{key}[{i}]"
            if not isinstance(text, str):
                raise data.error(where, "expected an expression string")
            expr = condition_in(data, where, text, scope, model)
            try:
                item = add(expr, as_said(text) if key == "forbid" else "")
            except ModelError as err:
                raise data.error(where, str(err)) from None
            if evaluate(item.expr, model.initial):
                raise data.error(where, _initial_refused(key, text, expr, model))


def _initial_refused(key: str, text: str, condition: Expr, model: Planning) -> str:
    """Why the initial state is refused by ``condition`` (``text`` as the file wrote it):
    a ``forbid`` entry forbids it; an ``invariant`` is what must hold, so the initial
    state breaks it, with the values of the variables it reads."""
    if key == "forbid":
        return f"the initial state is forbidden by {echoed(as_said(text))}"
    read = variables(condition)
    values = ", ".join(f"{n} = {figure(model.initial[n], False)}"
                       for n in model.names if n in read)
    return f"the initial state breaks the invariant {echoed(as_said(text))} ({values})"


def _initial(data: Data, model: Planning, scope: dict) -> None:
    """``[initial]``: a value for every variable, an array's given as :func:`array_values`
    reads it (one value for every cell, a flat list, or lists nested as its shape), or one
    key per cell (``"x[0][1]" = 1``)."""
    initial = data.get("initial", dict)
    data.misplaced(initial, "initial.")
    values: dict[str, int] = {}
    arrays = {n.split("[", 1)[0] for n in model.names if "[" in n}
    for name, value in initial.items():
        key = f"initial.{key_part(name)}"
        with data.entry(key):
            values.update(_initial_value(data, model, scope, arrays, key, name, value))
    for name, value in values.items():
        d = model.domains[name]
        if value not in d:
            raise data.error(f"initial.{key_part(name)}",
                             f"value {figure(value, False)} is outside the domain {d}")
    missing = [n for n in model.names if n not in values]
    if missing:
        raise data.error("initial", f"no value for {', '.join(missing)}")
    model.set_initial(values)


def _initial_value(data: Data, model: Planning, scope: dict, arrays: set[str], key: str,
                   name: str, value: Any) -> dict[str, int]:
    """The initial values ``name = value`` of ``[initial]`` gives: of a variable, or of
    every cell of an array."""
    given = read_values(data, key, value, scope)
    if name in arrays:
        cells = scope[name]
        return dict(zip(cell_names(cells), array_values(data, key, given, shape_of(cells), name)))
    if name not in model.domains:
        raise data.error(key, "not a declared variable")
    if isinstance(given, list):
        raise data.error(key, f"{name} is one variable: expected one value, not a list")
    return {name: given}


def _bindings(data: Data, params: dict, scope: dict, prefix: str
              ) -> tuple[list[dict[str, int]], str]:
    """Every combination of parameter values (a parameter's values may use earlier ones),
    and when there is none the key of the parameter that leaves none."""
    out: list[dict[str, int]] = [{}]
    for p, values in params.items():
        key = f"{prefix}params.{key_part(p)}"
        if p in scope:
            raise data.error(key, "a parameter name hides a variable or constant")
        if not re.fullmatch(r"[A-Za-z_]\w*", p):
            raise data.error(key, "a parameter name is a plain identifier")
        grown: list[dict[str, int]] = []
        for binding in out:
            local = {**scope, **{k: Const(v) for k, v in binding.items()}}
            with data.entry(key):
                grown.extend({**binding, p: v} for v in integers(data, key, values, local))
            if len(grown) > MAX_ACTIONS:
                raise data.error(prefix + "params", f"parameter combinations: more than the "
                                 f"{MAX_ACTIONS:,} a model may have")
        if not grown:
            return [], key
        out = grown
    return out, ""


def _actions(data: Data, model: Planning, scope: dict, table: dict, prefix: str
             ) -> list[tuple[str, str]]:
    """Add the actions of one ``[[actions]]`` table, one per combination of its parameters
    that ``where`` keeps; when there is none, why, in a list: the key that leaves none
    (``where``, or a parameter that takes no values) and what it does."""
    data.unknown_keys(ACTION_KEYS, table, prefix)
    name = data.get("name", str, table=table, prefix=prefix)
    params = data.get("params", dict, {}, table=table, prefix=prefix)
    effects = data.get("effects", dict, {}, table=table, prefix=prefix)
    labels = read_labels(data)
    bindings, none = _bindings(data, params, scope, prefix)
    named: dict[str, dict[str, int]] = {}  # each name given, by its first binding
    for binding in bindings:
        local = {**scope, **{k: Const(v) for k, v in binding.items()}}
        if "where" in table:
            where = parse_in(data, prefix + "where", table["where"], local, constant=True)
            if variables(where):
                raise data.error(prefix + "where", "may only use parameters and constants")
            if not evaluate(where, {}):
                continue
        shown_values = {k: _name_of(data, labels, k, v) for k, v in binding.items()}
        try:
            label = format_name(name, shown_values)
        except ModelError as err:
            raise data.error(prefix + "name", str(err)) from None
        if label in named:
            raise data.error(prefix + "name", same_name(name, label, named[label], binding))
        named[label] = binding
        guard = condition_in(data, prefix + "guard", table.get("guard", "True"), local, model)
        cost = value_in(data, prefix + "cost", table.get("cost", "1"), local, model)
        eff: dict[str, Expr] = {}
        for target, value in effects.items():
            key = f"{prefix}effects.{key_part(target)}"
            with data.entry(key):
                _effect(data, key, target, value, local, eff, label, model)
        try:
            model.add_action(label, guard, eff, cost)
            if bounds(model.actions[-1].cost, model.domain)[0] < 0:
                raise data.error(prefix + "cost", f"action {echoed(label)}: the cost may be "
                                 "negative; costs must be >= 0")
        except ModelError as err:  # the key of the part refused (its name by default)
            raise data.error(prefix + (err.part or "name"), str(err) + (
                "; or leave out, with where, the parameters whose when drops every effect"
                if not eff and any(isinstance(v, dict) and "when" in v
                                   for v in effects.values()) else "")) from None
    if named:
        return []
    if bindings:
        return [(prefix + "where", f"{echoed(str(table['where']).strip())} leaves no combination "
                 "of the parameters")]
    return [(none, "the parameter takes no values")]


def _effect(data: Data, key: str, target: str, value: Any, local: dict,
            eff: dict[str, Expr], label: str, model: Planning) -> None:
    """Add the effects one ``effects`` entry stands for (one per free index binding) to
    those of the action ``label``."""
    when: Any = None
    if isinstance(value, dict):
        data.unknown_keys(EFFECT_KEYS, value, key + ".")
        when = value.get("when")
        value = data.get("value", (str, int), table=value, prefix=key + ".")
    if not target.strip():
        raise data.error(key, f"{echoed(target)} is not a variable")
    for free in free_indices(data, key, target, local):
        inner = {**local, **{k: Const(v) for k, v in free.items()}}
        var = parse_in(data, key, target, inner)
        if not isinstance(var, Var):
            raise data.error(key, f"{echoed(target)} is not a variable")
        new = value_in(data, key, value, inner, model)
        if when is not None:
            cond = condition_in(data, key + ".when", when, inner, model)
            if not variables(cond):
                if not evaluate(cond, {}):
                    continue
            else:
                new = If(cond, new, var)
        if keeps(new, var.name):
            continue  # the cell keeps its value (x, x + 0, ...: as the model sees it): no effect
        if var.name in eff:
            raise data.error(key, f"action {echoed(label)}: a second effect on {var.name} (one "
                             "effect per variable; `where` can leave out such parameter values)")
        eff[var.name] = new


def _name_of(data: Data, labels: dict, name: str, value: int) -> Any:
    """Parameter ``name``'s ``value`` as its labels name it (a number without labels)."""
    names = labels.get(name)
    if names is None:
        return value
    key = f"labels.{key_part(name)}"
    if not isinstance(names, list):
        raise data.error(key, "expected a list of labels, the first naming the value 0")
    if not 0 <= value < len(names):
        raise data.error(key, f"{len(names)} label{'s' if len(names) != 1 else ''}"
                         f" for parameter {name}, which takes the value {value}: labels name "
                         "the values 0, 1, 2, ... in order, and each value needs one")
    return names[value]
