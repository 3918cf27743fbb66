"""Memory variables: state that only prices the next action, and the model without it.

A variable ``m`` is a *memory variable* of a :class:`~cpsolve.model.planning.Planning` model
when no guard, no effect, the goal and no forbidden condition reads it, every action
writes a constant into it, and it is read by the action costs only (a cost reads no
other variable).  Peg solitaire counted in moves is the example: ``last`` (where the
last jump landed) makes a jump cost 0 when it continues the chain, 1 otherwise.

What holds then (the reason :mod:`cpsolve.engines.search.planning.closure` exists):

* two states that differ only in ``m`` have the same successors after one action
  (every action overwrites ``m``, nothing else reads it), so their costs to the goal
  differ by at most the largest difference of one action's cost between them;
  with costs 0 and 1, by at most 1;
* the rest of the state (the *board*) follows the :func:`board_model`: the same
  variables, guards and effects without ``m``.  Its declared symmetries are
  symmetries of the full model when a value map of ``m`` (:func:`value_map`,
  derived from the constants the actions write and checked on every cost) goes
  with them.

Everything here is derived from the model's text and checked by evaluation; a claim
that fails is not used (the answer is None), never trusted.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..language.combine import And
from ..language.expr import Const, Expr, conjuncts
from ..language.expr import Var as VarRef
from ..language.intervals import bounds
from ..language.walk import normal_text, substitute, variables
from .pins import goal_state, pin
from .planning import Action, Planning
from .values import value_at

MAX_MEMORY_VALUES = 63
"""Most values a memory variable may take (searches pack it, and one more mark, in six
bits beside the board)."""


def memory_variable(model: Planning) -> str | None:
    """The model's one memory variable (see the module docstring), or None.

    Also required: the model has actions and every cost reads only that variable.
    Models with several memory variables get None (not handled yet).
    """
    if not model.actions:
        return None
    read = variables(model.goal)
    for f in model.forbidden:
        read |= variables(f.expr)
    if model.estimate is not None:
        read |= variables(model.estimate)
    costs: set[str] = set()
    for a in model.actions:
        read |= variables(a.guard)
        for _, e in a.effects:
            read |= variables(e)
        costs |= variables(a.cost)
    found = [m for m in costs if m not in read]
    if len(found) != 1 or costs != set(found):
        return None
    m = found[0]
    d = model.domains[m]
    if d.hi - d.lo + 1 > MAX_MEMORY_VALUES:
        return None
    if not all(isinstance(dict(a.effects).get(m), Const) for a in model.actions):
        return None
    return m


def lacking_memory(model: Planning, constant_ok: bool = False) -> str | None:
    """Why the model has no memory variable with costs 0 or 1 (None: it has one);
    ``constant_ok``: constant costs 0 or 1 will do too."""
    if constant_ok and constant_costs(model):
        return None
    if memory_variable(model) is None:
        return "no variable only the costs read"
    if not all(0 <= lo and hi <= 1 for lo, hi in (bounds(a.cost, model.domain)
                                                  for a in model.actions)):
        return "some action costs other than 0 or 1"
    return None


def written(action: Action, memory: str) -> int:
    """The constant ``action`` writes into the memory variable."""
    value = dict(action.effects)[memory]
    assert isinstance(value, Const)
    return int(value.value)


def constant_costs(model: Planning) -> bool:
    """Every action's cost is a constant 0 or 1 (the case without a memory variable)."""
    return all(isinstance(a.cost, Const) and a.cost.value in (0, 1) for a in model.actions)


def board_model(model: Planning, memory: str | None) -> Planning:
    """The model without its memory variable: same variables, start, goal, guards and
    effects, every action costing 1; the declared symmetries that fix ``memory`` kept
    (restricted to the other variables; checked by whoever uses them).  ``memory``
    None: the model itself with costs 1."""
    out = Planning(f"{model.name} (board)")
    for name, d in model.domains.items():
        if name != memory:
            out.add_variable(name, d.lo, d.hi)
    out.set_initial({n: v for n, v in model.initial.items() if n != memory})
    out.set_goal(model.goal)
    for a in model.actions:
        out.add_action(a.name, a.guard, {v: e for v, e in a.effects if v != memory},
                       no_effect_ok=True)  # one that wrote only the memory changes no board
    for f in model.forbidden:
        out.forbid(f.expr, f.label)
    for sym in model.symmetries:
        if sym.get(memory) == memory:
            out.add_symmetry({v: w for v, w in sym.items() if v != memory})
    return out


def reversed_model(model: Planning) -> Planning | None:
    """The model run backwards from its one goal state, or None when it cannot be read
    off the text.

    Needed: the goal pins every variable (:func:`~.pins.goal_state`), no forbidden
    condition, every effect a constant, and every guard conjunct that mentions a
    written variable a pin of it (``x == c``), each written variable pinned.  Then
    ``p`` leads to ``t`` by action ``a`` exactly when ``t`` meets ``a``'s effects and
    its guard's other conjuncts, and ``p`` is ``t`` with the written variables at
    their pins: the reversed action (same name) has that guard and those effects.
    The reversed model starts at the goal state; its goal is the start.
    """
    goal = goal_state(model)
    if goal is None or model.forbidden:
        return None
    out = Planning(f"{model.name} (reversed)")
    for name, d in model.domains.items():
        out.add_variable(name, d.lo, d.hi)
    out.set_initial(dict(zip(model.domains, goal)))
    out.set_goal(And(*(VarRef(n) == v for n, v in model.initial.items())))
    for a in model.actions:
        effects = dict(a.effects)
        if not all(isinstance(e, Const) for e in effects.values()):
            return None
        pinned: dict[str, int] = {}
        rest = []
        for c in conjuncts(a.guard):
            if not variables(c) & effects.keys():
                rest.append(c)
                continue
            p = pin(c, model.domain)
            if p is None or p[0] in pinned:
                return None
            pinned[p[0]] = p[1]
        if pinned.keys() != effects.keys():
            return None
        guard = And(*(VarRef(v) == e for v, e in effects.items()), *rest)
        out.add_action(a.name, guard, pinned, a.cost, no_effect_ok=True)  # as the model's
    return out


def value_map(model: Planning, memory: str | None, mapping: Mapping[str, str]
              ) -> list[int] | None:
    """The map of the memory variable's values (index ``value - lo``) that makes the
    board permutation ``mapping`` a symmetry of the whole model, or None.

    Each action ``a`` is matched with the action ``a'`` whose board part (guard and
    effects, the memory variable left out) is ``a``'s renamed by ``mapping``; ``a``
    writes ``x``, ``a'`` writes ``y``: the map sends ``x`` to ``y``.  Values no action
    writes stay in place.  The map must be a bijection, fix the start's value, and
    every action's cost at every value ``v`` must equal its image's cost at the image
    of ``v`` (checked by evaluation).
    """
    names = [n for n in model.domains if n != memory]
    full = {**{n: mapping[n] for n in names}}
    by_signature: dict[tuple, Action] = {}
    for a in model.actions:
        by_signature.setdefault(_signature(a, memory, None), a)
    if memory is None:  # constant costs: the matched action must cost the same
        same = all((b := by_signature.get(_signature(a, None, full))) is not None
                   and value_at(a.cost, {}) == value_at(b.cost, {}) for a in model.actions)
        return [0] if same else None
    full[memory] = memory
    d = model.domains[memory]
    image = list(range(d.lo, d.hi + 1))
    pairs: dict[Action, Action] = {}
    fixed: dict[int, int] = {}
    for a in model.actions:
        b = by_signature.get(_signature(a, memory, full))
        if b is None:
            return None
        pairs[a] = b
        x, y = written(a, memory), written(b, memory)
        if fixed.setdefault(x, y) != y:
            return None
    for x, y in fixed.items():
        image[x - d.lo] = y
    if len(set(image)) != len(image):
        return None
    start = model.initial.get(memory)
    if start is not None and image[start - d.lo] != start:
        return None
    for a, b in pairs.items():
        for v in range(d.lo, d.hi + 1):
            if value_at(a.cost, {memory: v}) != value_at(b.cost, {memory: image[v - d.lo]}):
                return None
    return image


def _signature(action: Action, memory: str | None, mapping: Mapping[str, str] | None) -> tuple:
    """An action's board part (guard conjuncts, effects), renamed by ``mapping``."""
    def text(e: Expr) -> str:
        if mapping is None:
            return normal_text(e)
        return normal_text(substitute(e, lambda v: VarRef(mapping[v.name])))

    rename = (lambda v: v) if mapping is None else (lambda v: mapping[v])
    guard = tuple(sorted(text(c) for c in conjuncts(action.guard)))
    effects = tuple(sorted((rename(v), text(e)) for v, e in action.effects if v != memory))
    return guard, effects
