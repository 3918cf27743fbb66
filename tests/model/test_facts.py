"""Every fact of :mod:`cpsolve.model.facts` against plain BFS on random small planning models.

The models are built with the expression API: a few variables with small
domains, actions whose guards mix pins (``x == c``, ``c == x``, a 0/1 ``x``,
``not x``) with other comparisons, effects that are increments, constants or
copies, reversible pairs, a declared parity (a clock every action flips),
and a declared swap symmetry (with every action mirrored, or not).  The
reference below is written here with :func:`cpsolve.language.interpret.evaluate` and
shares no code with the facts or the engines.
"""

from __future__ import annotations

import heapq
import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolve.language.combine import Not
from cpsolve.language.expr import Const, Expr, Var, conjuncts
from cpsolve.language.interpret import evaluate
from cpsolve.language.walk import substitute
from cpsolve.model import Planning, facts
from cpsolve.model.moves import goal_symmetries, reversible, start_symmetries
from cpsolve.model.pins import goal_pins, goal_state, pin, pins
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[2] / "models"
DEPTH = 14
"""Plan lengths are enumerated up to this many steps."""

# ---------------------------------------------------------------- the reference


def states(model: Planning) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(d.lo, d.hi + 1) for d in model.domains.values())))


def moves(model: Planning, s: tuple[int, ...]) -> list[tuple[int, tuple[int, ...], int]]:
    """``(action, next state, cost)`` for every action that applies in ``s``."""
    env = dict(zip(model.domains, s))
    out = []
    for k, a in enumerate(model.actions):
        if not evaluate(a.guard, env):
            continue
        new = dict(env)
        new.update({n: evaluate(e, env) for n, e in a.effects})
        if all(v in model.domains[n] for n, v in new.items()):
            out.append((k, tuple(new.values()), evaluate(a.cost, env)))
    return out


def is_goal(model: Planning, s: tuple[int, ...]) -> bool:
    return bool(evaluate(model.goal, dict(zip(model.domains, s))))


def plan_lengths(model: Planning) -> set[int]:
    """Every ``k <= DEPTH`` such that some plan has exactly ``k`` steps."""
    layer, out = {model.initial_state()}, set()
    for k in range(DEPTH + 1):
        if any(is_goal(model, s) for s in layer):
            out.add(k)
        layer = {t for s in layer for _, t, _ in moves(model, s)}
    return out


def reachable(model: Planning) -> set[tuple[int, ...]]:
    seen, todo = {model.initial_state()}, [model.initial_state()]
    while todo:
        for _, t, _ in moves(model, todo.pop()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def cheapest(model: Planning) -> int | None:
    """The least cost of a plan (Dijkstra), None when there is none."""
    start = model.initial_state()
    best, heap = {start: 0}, [(0, start)]
    while heap:
        c, s = heapq.heappop(heap)
        if c > best[s]:
            continue
        if is_goal(model, s):
            return c
        for _, t, d in moves(model, s):
            if c + d < best.get(t, c + d + 1):
                best[t] = c + d
                heapq.heappush(heap, (c + d, t))
    return None


def image(model: Planning, mapping: dict[str, str], s: tuple[int, ...]) -> tuple[int, ...]:
    """The state where the value of ``v`` sits at ``mapping[v]``."""
    env = dict(zip(model.domains, s))
    moved = {mapping[v]: x for v, x in env.items()}
    return tuple(moved[n] for n in model.domains)


# ---------------------------------------------------------------- random models

NAMES = ("x", "y", "z")


@st.composite
def conditions(draw, model: Planning, pinned_only: bool = False) -> Expr:
    """A conjunction of pins and (unless ``pinned_only``) other comparisons."""
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(model.names))
        lo, hi = model.domain(name)
        c = draw(st.integers(lo, hi + 1))  # sometimes outside: never true
        v = Var(name)
        kinds = ["pin", "pin_left"] + (["bool", "not"] if (lo, hi) == (0, 1) else [])
        if not pinned_only:
            kinds += ["<", ">=", "!="]
        kind = draw(st.sampled_from(kinds))
        parts.append({"pin": v == c, "pin_left": Const(c) == v, "bool": v, "not": Not(v),
                      "<": v < c, ">=": v >= c, "!=": v != c}[kind])
    out: Expr = Const(1)
    for p in parts:
        out = p if isinstance(out, Const) else out & p
    return out


@st.composite
def effects(draw, model: Planning) -> dict[str, Expr]:
    out: dict[str, Expr] = {}
    # at least one effect: an action must change the state (v + 0, v - 0 keep v: the model
    # leaves them out, so a step is never 0)
    for name in draw(st.lists(st.sampled_from(model.names), min_size=1, max_size=2,
                              unique=True)):
        v, c = Var(name), draw(st.sampled_from([-2, -1, 1, 2]))
        other = Var(draw(st.sampled_from([n for n in model.names if n != name])))  # x := x
        # is no effect
        kind = draw(st.sampled_from(["+", "c+", "-", "const", "copy", "copy+1"]))
        out[name] = {"+": v + c, "c+": c + v, "-": v - c, "const": Const(abs(c) - 1),
                     "copy": other, "copy+1": other + 1}[kind]
    return out


def mirrored(expr: Expr, swap: dict[str, str]) -> Expr:
    return substitute(expr, lambda v: Var(swap[v.name]))


@st.composite
def models(draw) -> Planning:
    model = Planning("random")
    n = draw(st.integers(2, 3))
    symmetric = draw(st.booleans())
    top = draw(st.integers(1, 3))
    for i, name in enumerate(NAMES[:n]):
        model.add_variable(name, 0, top if symmetric and i < 2 else draw(st.integers(1, 3)))
    clock = draw(st.booleans())
    if clock:
        model.add_variable("t", 0, 1)
    swap = {**{n: n for n in model.names}, "x": "y", "y": "x"}
    actions: list[tuple[Expr, dict[str, Expr], Expr]] = []
    for _ in range(draw(st.integers(1, 4))):
        cost = draw(st.sampled_from([Const(0), Const(1), Const(2), Var("x"), Var("y") + 1]))
        actions.append((draw(conditions(model)), draw(effects(model)), cost))
    if draw(st.booleans()):  # a reversible pair
        name = draw(st.sampled_from(model.names))
        v, hi = Var(name), model.domain(name)[1]
        actions += [(v < hi, {name: v + 1}, Const(1)), (v > 0, {name: v - 1}, Const(1))]
    if symmetric and draw(st.booleans()):
        actions += [(mirrored(g, swap), {swap[k]: mirrored(e, swap) for k, e in eff.items()},
                     mirrored(c, swap)) for g, eff, c in actions]
    for k, (guard, eff, cost) in enumerate(actions):
        if clock:
            eff = {**eff, "t": 1 - Var("t")}
        model.add_action(f"a{k}", guard, eff, cost)
    model.set_initial({name: draw(st.integers(*model.domain(name))) for name in model.names})
    if symmetric and draw(st.booleans()):
        c = draw(st.integers(0, top))
        model.set_goal((Var("x") == c) & (Var("y") == c))
    else:
        model.set_goal(draw(st.one_of(conditions(model, pinned_only=True),
                                      conditions(model))))
    if clock:
        model.set_parity(Var("t"))
    if symmetric:
        model.add_symmetry(swap)
    return model


SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- the properties


@SETTINGS
@given(models())
def test_pins_accept_exactly_what_the_condition_accepts(model: Planning) -> None:
    for condition in [model.goal, *(a.guard for a in model.actions)]:
        found = pins(condition, model.domain)
        every = [pin(c, model.domain) for c in conjuncts(condition)]
        exact = None not in every and len(set(every)) == len(dict(every))  # type: ignore
        for s in states(model):
            env = dict(zip(model.domains, s))
            holds = bool(evaluate(condition, env))
            pinned = all(env[n] == v for n, v in found.items())
            assert not holds or pinned
            if exact:
                assert holds == pinned


@SETTINGS
@given(models())
def test_goal_state_is_the_only_goal(model: Planning) -> None:
    goal = goal_state(model)
    if goal is not None:
        inside = all(v in d for v, d in zip(goal, model.domains.values()))
        assert [s for s in states(model) if is_goal(model, s)] == ([goal] if inside else [])
    assert facts.goal_at_start(model) == is_goal(model, model.initial_state())


@SETTINGS
@given(models())
def test_changes_are_the_changes(model: Planning) -> None:
    for s in states(model):
        for k, t, _ in moves(model, s):
            for name, d in facts.changes(model.actions[k], model).items():
                i = model.names.index(name)
                assert t[i] - s[i] == d


@SETTINGS
@given(models())
def test_plan_lengths_keep_to_the_potential_bounds(model: Planning) -> None:
    lengths = plan_lengths(model)
    found = facts.potential_bounds(model)
    if found is not None:
        fewest, most = found
        assert all(fewest <= k <= most for k in lengths)
    length = facts.fixed_length(model)
    if length is not None:
        assert lengths <= {length}
    if facts.any_plan_is_optimal(model) and lengths:
        costs = {evaluate(a.cost, {}) for a in model.actions}
        assert len(costs) == 1


@SETTINGS
@given(models())
def test_plan_parity(model: Planning) -> None:
    parity = facts.plan_parity(model)
    if parity is not None:
        assert all(k % 2 == parity for k in plan_lengths(model))
    if model.parity is not None and "t" in goal_pins(model):
        assert parity is not None


@SETTINGS
@given(models())
def test_cost_floor_and_least_plan_cost(model: Planning) -> None:
    floor = facts.cost_floor(model)
    assert all(floor <= c for s in states(model) for _, _, c in moves(model, s))
    best = cheapest(model)
    if best is not None:
        assert facts.least_plan_cost(model) <= best


def cheapest_within(model: Planning, steps: int) -> int | None:
    """The least cost of a plan of at most ``steps`` steps (layer by layer), None: none."""
    best = {model.initial_state(): 0}
    found = [c for s, c in best.items() if is_goal(model, s)]
    for _ in range(steps):
        nxt = dict(best)
        for s, c in best.items():
            for _, t, d in moves(model, s):
                if c + d < nxt.get(t, c + d + 1):
                    nxt[t] = c + d
        best = nxt
        found += [c for s, c in best.items() if is_goal(model, s)]
    return min(found, default=None)


@SETTINGS
@given(models())
def test_a_plan_of_a_cost_fits_in_steps_for_cost(model: Planning) -> None:
    best = cheapest(model)
    if best is None or facts.cost_floor(model) < 0:
        return
    assert cheapest_within(model, facts.steps_for_cost(model, best)) == best


@SETTINGS
@given(models())
def test_reversible_moves_come_back(model: Planning) -> None:
    if not reversible(model):
        return
    for s in states(model):
        for _, t, _ in moves(model, s):
            assert any(u == s for _, u, _ in moves(model, t))


@SETTINGS
@given(models())
def test_goal_symmetries_map_goals_and_moves(model: Planning) -> None:
    for mapping in goal_symmetries(model):
        for s in states(model):
            assert is_goal(model, s) == is_goal(model, image(model, mapping, s))
        for s in reachable(model):
            after = {t for _, t, _ in moves(model, s)}
            assert {image(model, mapping, t) for t in after} == \
                {t for _, t, _ in moves(model, image(model, mapping, s))}


def test_a_forbidden_condition_the_swap_breaks_keeps_start_and_goal_symmetries_out() -> None:
    """Two counters from 0 to 2 and the swap of them: it keeps the start, the goal and the
    moves, but once ``a == 2`` is forbidden (and ``b == 2`` not) the reachable states are no
    longer closed under it ((0, 2) is reachable, its image (2, 0) is not)."""
    model = Planning("two counters")
    a, b = model.add_variable("a", 0, 2), model.add_variable("b", 0, 2)
    model.set_initial({"a": 0, "b": 0})
    model.set_goal((a == 1) & (b == 1))
    model.add_action("inc a", a < 2, {a: a + 1})
    model.add_action("inc b", b < 2, {b: b + 1})
    model.add_symmetry({"a": "b", "b": "a"})
    swap = [{"a": "b", "b": "a"}]
    assert start_symmetries(model) == swap and goal_symmetries(model) == swap
    model.forbid(a == 2)
    assert start_symmetries(model) == [] and goal_symmetries(model) == []


def test_the_random_models_reach_each_fact() -> None:
    """The generator is not vacuous: each fact is proven on some model it makes."""
    seen: set[str] = set()

    @settings(max_examples=300, deadline=None, database=None, derandomize=True)
    @given(models())
    def collect(model: Planning) -> None:
        seen.update(name for name, ok in [
            ("fixed", facts.fixed_length(model) is not None),
            ("potential", facts.potential_bounds(model) is not None),
            ("parity", facts.plan_parity(model) is not None),
            ("reversible", reversible(model) and len(model.actions) > 1),
            ("symmetry", bool(goal_symmetries(model))),
            ("goal state", goal_state(model) is not None),
        ] if ok)

    collect()
    assert seen == {"fixed", "potential", "parity", "reversible", "symmetry", "goal state"}


# ---------------------------------------------------------------- bundled models


def test_known_facts_of_bundled_models() -> None:
    """Pegs: each jump removes a peg (32 to 1: 31 jumps); sliding: moves can be undone,
    the blank's colour flips each move; the 8-puzzle's blank travels an odd distance."""
    english = load(MODELS / "english33.toml").model
    assert facts.fixed_length(english) == 31 and not reversible(english)
    eight = load(MODELS / "eight_puzzle.toml").model
    assert reversible(eight) and facts.plan_parity(eight) == 1
    assert goal_state(eight) is not None and facts.fixed_length(eight) is None
    jugs = load(MODELS / "water_jugs.toml").model
    assert not reversible(jugs) and facts.cost_floor(jugs) == 1


def test_reversibility_past_its_work_is_not_tried(monkeypatch) -> None:
    """Eight queens placed row by row: the actions of the last rows read up to eight
    variables of eight values (8^8 combinations), far past the work allowed; the answer
    "not proven" comes at once, before any guard is evaluated (it took seconds when the
    work was counted as it went)."""
    import cpsolve.model.undo as undo  # where the guards are evaluated

    model = Planning("queens placed row by row")
    q = [model.add_variable(f"q{i}", 0, 7) for i in range(8)]
    placed = model.add_variable("placed", 0, 8)
    model.set_initial({**{f"q{i}": 0 for i in range(8)}, "placed": 0})
    model.set_goal(placed == 8)
    for k in range(8):
        for c in range(8):
            safe = [(q[j] != c) & (q[j] - c != k - j) & (c - q[j] != k - j) for j in range(k)]
            guard = placed == k
            for condition in safe:
                guard = guard & condition
            model.add_action(f"row {k} col {c}", guard, {q[k]: c, placed: k + 1})

    def never(*_):
        raise AssertionError("a guard was evaluated")

    monkeypatch.setattr(undo, "value_at", never)
    assert not reversible(model)


def _hanoi(discs: int) -> Planning:
    """Tower of Hanoi as the bundled model writes it: a disc moves to another peg when no
    smaller disc is on its peg or on the target."""
    model = Planning(f"hanoi {discs}")
    peg = [model.add_variable(f"peg{d}", 0, 2) for d in range(discs)]
    model.set_initial({f"peg{d}": 0 for d in range(discs)})
    model.set_goal(peg[-1] == 2)
    for d in range(discs):
        for t in range(3):
            guard = peg[d] != t
            for e in range(d):
                guard = guard & (peg[e] != peg[d]) & (peg[e] != t)
            model.add_action(f"disc {d} to {t}", guard, {peg[d]: t})
    return model


def test_hanoi_s_moves_are_undone_by_parts_however_many_discs() -> None:
    """A disc's move is undone by moving it back: the smaller discs, which the guard reads
    one by one, are off both pegs before and after.  Fourteen discs' largest move reads
    3^14 value combinations, far past the work an enumeration may do; by parts, 3 values
    of its own peg and 3 of each smaller disc's."""
    assert reversible(_hanoi(3)) and reversible(_hanoi(14))


def test_a_side_condition_that_differs_keeps_a_move_from_being_undone() -> None:
    """``x`` goes up when ``y`` is 0 and down when ``y`` is 1, and ``y`` never changes: from
    x = 0, y = 0 the move up cannot be undone."""
    model = Planning("one way")
    x, y = model.add_variable("x", 0, 1), model.add_variable("y", 0, 1)
    model.set_initial({"x": 0, "y": 0})
    model.set_goal(x == 1)
    model.add_action("up", (x == 0) & (y == 0), {x: 1})
    model.add_action("down", (x == 1) & (y == 1), {x: 0})
    assert not reversible(model)
    model.add_action("down when y is 0", (x == 1) & (y == 0), {x: 0})
    assert not reversible(model)  # down from x = 1, y = 1 still has no way back up
    model.add_action("up when y is 1", (x == 0) & (y == 1), {x: 1})
    assert reversible(model)
