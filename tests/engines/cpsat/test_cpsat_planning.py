"""CP-SAT planning with its redundant constraints: estimate bounds, parity, pairs of actions.

The pruning that makes optimality proofs fast (the declared estimate at every
step, horizons of one parity, no action followed by its inverse, independent
neighbours in one order) must never change an optimum.  Known answers come
from docs/design.md; random models are checked against Dijkstra / BFS written here
with the reference interpreter :func:`cpsolve.language.interpret.evaluate`, which the engine
never uses.  Every call goes through :func:`cpsolve.engines.run`, so every plan
is also replayed by the independent checker.
"""

from __future__ import annotations

import heapq
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpsolve import And, Planning, Status, Sum
from cpsolve.engines import Options, run
from cpsolve.engines.cpsat.pairs import commuting, shortcuts, undoing  # noqa: E402
from cpsolve.language.expr import Const, Expr, Var
from cpsolve.language.fold import keeps
from cpsolve.language.interpret import evaluate
from cpsolve.model.facts import estimate_bound, plan_parity  # noqa: E402
from cpsolve.puzzles import sliding
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[3] / "models"


def cpsat(model: Planning, **options: object):
    return run("cpsat", "solve", model, Options(**options))


# ---------------------------------------------------------------- known answers


@pytest.mark.parametrize("name, moves", [
    ("eight_puzzle", 31),
    ("onoff", 44),
    ("fifteen_easy", 20),
    ("line_puzzle", 30),
])
def test_sliding_optima(name: str, moves: int) -> None:
    result = cpsat(load(MODELS / f"{name}.toml").model)
    assert result.status is Status.OPTIMAL
    assert result.steps == moves and result.verified


def test_eight_puzzle_proof_says_what_was_proven() -> None:
    """Manhattan distance 21 at the start, odd parity: horizons 21, 23, ..., 29 are the proof."""
    result = cpsat(load(MODELS / "eight_puzzle.toml").model)
    assert result.details["horizons_infeasible"] == (21, 23, 25, 27, 29)
    assert result.details["estimate"] == 21 and result.details["parity"] == 1
    assert "none of 21, 23, ..., 29 steps exists" in result.message
    assert "fewer than 21 ruled out by the estimate" in result.message
    assert "odd number of steps" in result.message


def test_time_limit_keeps_the_proven_bound(cp_sat_loaded) -> None:
    model = load(MODELS / "fifteen_korf1.toml").model  # 57 moves
    result = cpsat(model, time_limit=0.5, find_hint=False)
    assert result.status is Status.UNKNOWN
    assert 41 <= result.bound <= 57   # the start's Manhattan distance is 41
    assert f"no plan has fewer than {result.bound} step" in result.message  # 1 step, 2 steps
    hinted = cpsat(model, time_limit=0.5)  # weighted A*'s plan, if found, comes back unproven
    assert hinted.status in (Status.UNKNOWN, Status.SOLVED) and 41 <= hinted.bound <= 57
    assert hinted.steps is None or hinted.steps >= 57


# ---------------------------------------------------------------- facts the driver uses


def test_inverse_moves_are_found_and_imply_distinct_states() -> None:
    model = load(MODELS / "eight_puzzle.toml").model
    pairs, complete = undoing(model)
    names = [a.name for a in model.actions]
    assert len(pairs) == len(model.actions) == 24
    assert ("r1c1 down", "r2c1 up") in {(names[k], names[j]) for k, j in pairs}
    assert complete     # no other pair of moves ever restores a position


def test_jumps_have_no_inverse_and_pours_sometimes_undo() -> None:
    pegs, complete = undoing(load(MODELS / "english33.toml").model)
    assert pegs == [] and complete
    pours, complete = undoing(load(MODELS / "water_jugs.toml").model)
    assert pours == [] and not complete  # pouring back undoes a pour only sometimes


def test_the_pair_facts_stop_at_their_budget_with_what_they_found(monkeypatch) -> None:
    """A model of thousands of actions has millions of pairs: past PAIRS evaluated, the
    pairs found so far stand (each was proven) and the rest are not claimed absent."""
    import cpsolve.engines.cpsat.pairs as pairs

    eight, hanoi = (load(MODELS / f"{name}.toml").model for name in ("eight_puzzle", "hanoi4"))
    every, complete = undoing(eight)
    every_short = shortcuts(hanoi)
    assert complete and every_short
    monkeypatch.setattr(pairs, "PAIRS", 3)
    found, complete = undoing(eight)
    assert not complete and set(found) <= set(every)
    short = shortcuts(hanoi)
    assert set(short) <= set(every_short) and len(short) <= 3


def counters(n: int, top: int) -> Planning:
    """``n`` independent counters from 0 to ``top``: every order of the increments works."""
    p = Planning("counters")
    xs = [p.add_variable(f"x{i}", 0, top) for i in range(n)]
    p.set_initial({f"x{i}": 0 for i in range(n)})
    p.set_goal(And(*(x == top for x in xs)))
    for i, x in enumerate(xs):
        p.add_action(f"inc {i}", x < top, {x: x + 1})
        p.add_action(f"dec {i}", x > 0, {x: x - 1})
    return p


def test_independent_steps_come_in_one_order() -> None:
    model = counters(3, 2)
    assert (2, 0) in commuting(model) and (1, 0) not in commuting(model)   # inc 1, inc 0
    # a hint of 6 steps would be the answer as it is; the graph would not order the steps
    result = cpsat(model, find_hint=False, encoding="time-indexed")
    assert result.status is Status.OPTIMAL and result.steps == 6
    assert [s.action for s in result.plan] == ["inc 0"] * 2 + ["inc 1"] * 2 + ["inc 2"] * 2


def test_a_disc_moved_twice_in_a_row_is_a_shortcut() -> None:
    """Hanoi: disc d moved twice in a row ends where one move of it (or none) takes it, and
    moves of one disc are the only such pairs: 3 x 2 ordered pairs of distinct targets per
    disc.  Water jugs: filling then emptying a jug is emptying it (or nothing), emptying then
    filling jug 0 is filling it; emptying then filling jug 1 is not, on jug 1's whole domain
    0..8 (from 6 to 8 L, no one action gives 5 L: fill applies below 5 only)."""
    model = load(MODELS / "hanoi4.toml").model
    names = [a.name for a in model.actions]
    pairs = {(names[k], names[j]) for k, j in shortcuts(model)}
    assert pairs == {(f"disc {d} to {a}", f"disc {d} to {b}") for d in range(4)
                     for a in "ABC" for b in "ABC" if a != b}
    jugs = load(MODELS / "water_jugs.toml").model
    names = [a.name for a in jugs.actions]
    assert {(names[k], names[j]) for k, j in shortcuts(jugs)} == {
        ("fill the 8 L jug", "empty the 8 L jug"), ("fill the 5 L jug", "empty the 5 L jug"),
        ("empty the 8 L jug", "fill the 8 L jug")}


def random_start_and_goal(draw: st.DrawFn, name: str, names: list[str],
                          most_conditions: int) -> tuple[Planning, st.SearchStrategy]:
    """A model over ``names`` (domains from DOMAINS) with a random start and a random goal
    of up to ``most_conditions`` comparisons that the start does not meet; and the strategy
    of such comparisons (for guards)."""
    p = Planning(name)
    for n in names:
        p.add_variable(n, *DOMAINS[n])
    p.set_initial({n: draw(st.integers(*DOMAINS[n])) for n in names})
    conditions = st.builds(lambda n, op, c: COMPARE[op](Var(n), c),
                           st.sampled_from(names), st.sampled_from(list(COMPARE)),
                           st.integers(-2, 3))
    p.set_goal(And(*draw(st.lists(conditions, min_size=1, max_size=most_conditions))))
    assume(not evaluate(p.goal, p.initial))
    return p, conditions


@st.composite
def one_variable_moves(draw: st.DrawFn) -> Planning:
    """Unit-cost actions that each write one variable (to a constant or by a step), so that
    many pairs in a row are shortcuts."""
    names = ["x", "y", "z"]
    p, conditions = random_start_and_goal(draw, "random moves", names, 3)
    for k in range(draw(st.integers(2, 8))):
        n = draw(st.sampled_from(names))
        if draw(st.booleans()):
            effect = Const(draw(st.integers(*DOMAINS[n])))
        else:
            effect = Var(n) + draw(st.sampled_from([-1, 1]))  # x + 0 keeps x: no effect
        guard = draw(st.one_of(st.just(Const(1)), conditions))
        p.add_action(f"a{k}", guard, {Var(n): effect}, 1)
    return p


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_variable_moves())
def test_random_one_variable_moves_with_shortcuts_match_bfs(model: Planning) -> None:
    """Shortcut pairs are forbidden in every plan CP-SAT considers: its optimum is still BFS's
    (no hint: CP-SAT's own horizons, where the pairs prune)."""
    expected = costs_to_goal(model).get(model.state(model.initial))
    result = cpsat(model, find_hint=False)
    if expected is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.OPTIMAL and result.steps == expected


def test_parity_needs_a_goal_that_pins_it() -> None:
    p = counters(2, 1)
    p.set_parity(Sum([Var("x0"), Var("x1")]))   # every step changes it by 1
    assert plan_parity(p) == 0
    p.set_goal(Var("x0") == 1)                  # x1 is free at the goal
    assert plan_parity(p) is None


def test_estimate_bounds_steps_by_the_dearest_action() -> None:
    p = counters(1, 4)
    p.set_estimate(4 - Var("x0"))
    assert estimate_bound(p) == (4, 4)
    dear = Planning("dear steps")
    x = dear.add_variable("x", 0, 4)
    dear.set_initial({"x": 0})
    dear.set_goal(x == 4)
    dear.add_action("up", x < 4, {x: x + 1}, cost=2)
    dear.add_action("down", x > 0, {x: x - 1}, cost=1)
    dear.set_estimate(2 * (4 - x))
    assert estimate_bound(dear) == (8, 4)       # cost at least 8, each step costs at most 2
    result = cpsat(dear)
    assert result.status is Status.OPTIMAL and result.cost == 8
    assert "no plan can cost less" in result.message


# ---------------------------------------------------------------- random models


DOMAINS = {"x": (-2, 2), "y": (0, 3), "z": (0, 1)}
COMPARE = {"<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "==": lambda a, b: a == b,
           "!=": lambda a, b: a != b}


def all_states(p: Planning) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(lo, hi + 1) for lo, hi in
                                    (p.domain(n) for n in p.domains))))


def costs_to_goal(p: Planning) -> dict[tuple[int, ...], int]:
    """Least cost from every state to a goal state (Dijkstra backwards; unreachable: absent)."""
    names = list(p.domains)
    back: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}
    for state in all_states(p):
        env = dict(zip(names, state))
        for a in p.actions:
            if not evaluate(a.guard, env):
                continue
            new = dict(env)
            new.update({v: evaluate(e, env) for v, e in a.effects})
            if all(new[n] in p.domains[n] for n in names):
                nxt = tuple(new[n] for n in names)
                back.setdefault(nxt, []).append((state, evaluate(a.cost, env)))
    best = {s: 0 for s in all_states(p) if evaluate(p.goal, dict(zip(names, s)))}
    queue = [(0, s) for s in best]
    while queue:
        cost, state = heapq.heappop(queue)
        if cost > best[state]:
            continue
        for prev, c in back.get(state, []):
            if cost + c < best.get(prev, cost + c + 1):
                best[prev] = cost + c
                heapq.heappush(queue, (cost + c, prev))
    return best


def exact_estimate(p: Planning, fraction: float) -> Expr:
    """A fraction of the true remaining cost, state by state (50 where the goal is unreachable)."""
    names, dist = list(p.domains), costs_to_goal(p)
    terms = []
    for state in all_states(p):
        value = int(dist[state] * fraction) if state in dist else 50
        if value:
            terms.append(And(*(Var(n) == v for n, v in zip(names, state))) * value)
    return Sum(terms)


def one_variable_estimate(p: Planning) -> Expr:
    """The least remaining cost over the states sharing ``x``'s value: a table over ``x``."""
    names, dist = list(p.domains), costs_to_goal(p)
    lo, hi = p.domain("x")
    terms = []
    for value in range(lo, hi + 1):
        same = [d for s, d in dist.items() if s[names.index("x")] == value]
        least = min(same, default=50)
        if least:
            terms.append((Var("x") == value) * least)
    return Sum(terms)


@st.composite
def estimated_models(draw: st.DrawFn) -> Planning:
    """Random actions over two or three small variables, with an admissible estimate."""
    names = draw(st.sampled_from([["x", "y"], ["x", "y", "z"]]))
    p, conditions = random_start_and_goal(draw, "random", names, 2)
    unit = draw(st.booleans())
    for k in range(draw(st.integers(2, 6))):
        written = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
        effects = {n: draw(st.builds(lambda m, c: Var(m) + c, st.sampled_from(names),
                                     st.integers(-2, 2)).filter(lambda e, n=n: not keeps(e, n)))
                   for n in written}  # x + 0 keeps x: no effect (an action must change)
        guard = draw(st.one_of(st.just(Const(1)), conditions))
        p.add_action(f"a{k}", guard, effects, 1 if unit else draw(st.integers(0, 3)))
    kind = draw(st.sampled_from(["zero", "half", "exact", "one variable"]))
    if kind == "one variable":
        p.set_estimate(one_variable_estimate(p))
    else:
        p.set_estimate(exact_estimate(p, {"zero": 0.0, "half": 0.5, "exact": 1.0}[kind]))
    return p


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(estimated_models())
def test_random_plans_with_an_estimate_match_dijkstra(model: Planning) -> None:
    result = cpsat(model)
    expected = costs_to_goal(model).get(model.state(model.initial))
    if expected is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.OPTIMAL
        assert result.cost == expected


def two_by_three(tiles: list[int]) -> Planning:
    """A 2x3 sliding puzzle from a permutation of 0..5 (0 is the blank) to ``1 2 3 / 4 5 _``."""
    start = " ".join("_" if t == 0 else str(t) for t in tiles)
    data = Data({"family": "sliding", "start": f"{start[:5]}\n{start[6:]}",
                 "goal": "1 2 3\n4 5 _"}, "<2x3>")
    return sliding.build(data).model


def fewest_moves(p: Planning) -> int | None:
    """Breadth-first search with the reference interpreter."""
    names = list(p.domains)
    start = p.state(p.initial)
    seen, layer, depth = {start}, [start], 0
    while layer:
        if any(evaluate(p.goal, dict(zip(names, s))) for s in layer):
            return depth
        nxt = []
        for state in layer:
            env = dict(zip(names, state))
            for a in p.actions:
                if evaluate(a.guard, env):
                    new = dict(env)
                    new.update({v: evaluate(e, env) for v, e in a.effects})
                    s = tuple(new[n] for n in names)
                    if s not in seen:
                        seen.add(s)
                        nxt.append(s)
        layer, depth = nxt, depth + 1
    return None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(6)))
def test_random_two_by_three_puzzles_match_bfs(tiles: list[int]) -> None:
    """Manhattan estimate, blank parity, inverse moves: the optimum is BFS's."""
    model = two_by_three(list(tiles))
    expected = fewest_moves(model)
    assume(expected is not None)  # half of the positions cannot be solved
    result = cpsat(model)
    assert result.status is Status.OPTIMAL and result.steps == expected


@pytest.mark.parametrize("seconds", [0.3, 1.0, 2.0])
def test_a_bound_under_a_time_limit_is_a_bound_on_the_cost(seconds):
    """Triangle 15 in moves: a plan of 13 jumps costs 10 moves (the literature's optimum
    from the top hole), so "no plan shorter than N steps" says nothing above 10 about the
    cost — the reported bound must never exceed the optimum (compare read it as a
    disagreement)."""
    from cpsolve.puzzles.files import load

    model = load(Path(__file__).resolve().parents[3] / "models" / "triangle15.toml").model
    result = run("cpsat", "solve", model, Options(time_limit=seconds))
    assert result.status is Status.OPTIMAL or result.bound is None or result.bound <= 10


def test_a_bound_of_one_step_is_said_in_the_singular() -> None:
    """'no plan shorter than 1 steps' read wrong: one step, two steps."""
    from cpsolve.engines.cpsat.graph import _unknown

    class Stopped:
        def why(self) -> str:
            return "time limit 1 s reached"

    assert _unknown(Stopped(), {}, 1).message.endswith("no plan has fewer than 1 step")
    assert _unknown(Stopped(), {}, 2).message.endswith("no plan has fewer than 2 steps")


# ---------------------------------------------------------------- counting optimal plans


def free_walk(switch_cost: int = 0) -> Planning:
    """A counter ``x`` raised to 2 (cost 1 a step) beside a lamp ``y`` switched at
    ``switch_cost``.  At 0, no action costs at least 1 and the switch moves no sum one way,
    so nothing bounds the length of a plan of cost 2 (switch, switch back, ...)."""
    p = Planning("free walk")
    x, y = p.add_variable("x", 0, 3), p.add_variable("y", 0, 1)
    p.set_initial({"x": 0, "y": 0})
    p.set_goal(x == 2)
    p.add_action("up", x < 3, {x: x + 1})
    p.add_action("switch", True, {y: 1 - y}, cost=switch_cost)
    return p


def test_a_count_with_unbounded_plan_lengths_is_refused_before_any_solve(monkeypatch) -> None:
    """The refusal comes from the model's structure (a 0-cost action, no potential), so it
    needs no least cost first: a model whose least cost CP-SAT's horizons take long to prove
    (Sokoban counted in pushes) is refused at once, as one they prove at once is."""
    from cpsolve.answers.result import Unsupported
    from cpsolve.engines.cpsat import count_plans

    def no_solve(*args: object) -> None:
        raise AssertionError("the least cost was sought before the refusal")

    monkeypatch.setattr(count_plans._planning, "solve", no_solve)
    with pytest.raises(Unsupported, match="cannot count optimal plans here: actions may cost 0"):
        run("cpsat", "count", free_walk(), Options())


def test_a_count_with_a_bounded_length_still_counts() -> None:
    """With the switch costing 1 too, every step costs at least 1: plans of the least cost
    2 have at most 2 steps, and the only one is up, up."""
    counted = run("cpsat", "count", free_walk(switch_cost=1), Options())
    assert counted.status is Status.EXACT and counted.answer.count == 1
