"""The CP-SAT engine against answers known by reasoning or by brute force.

Every call goes through :func:`cpsolve.engines.run`, so every answer is also
passed through the independent checker.  The brute-force oracles here use the
reference interpreter :func:`cpsolve.language.interpret.evaluate`, which the engine never
uses.
"""

from __future__ import annotations

import heapq
import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpsolve import And, Csp, If, Max, Min, Planning, Status, Sum
from cpsolve.engines import Options, run
from cpsolve.language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var
from cpsolve.language.fold import keeps
from cpsolve.language.interpret import evaluate
from cpsolve.language.walk import variables


def cpsat(task: str, model: Csp | Planning, **options: object):
    return run("cpsat", task, model, Options(**options))


# ---------------------------------------------------------------- CSP models


def latin(n: int) -> Csp:
    m = Csp("latin")
    g = [[m.add_variable(f"r{r}c{c}", 1, n) for c in range(n)] for r in range(n)]
    for r in range(n):
        m.all_different(g[r])
    for c in range(n):
        m.all_different([g[r][c] for r in range(n)])
    return m


def x_sudoku_5(first_row: list[int] | None = None) -> Csp:
    m = latin(5)
    g = [[Var(f"r{r}c{c}") for c in range(5)] for r in range(5)]
    m.all_different([g[i][i] for i in range(5)])
    m.all_different([g[i][4 - i] for i in range(5)])
    for c, v in enumerate(first_row or []):
        m.fix(g[0][c], v)
    return m


INKALA = "..53..... 8......2. .7..1.5.. 4....53.. .1..7...6 ..32...8. .6.5....9 ..4....3. .....97.."


def sudoku(rows: str = INKALA) -> Csp:
    m = latin(9)
    g = [[Var(f"r{r}c{c}") for c in range(9)] for r in range(9)]
    for br, bc in itertools.product(range(3), range(3)):
        m.all_different([g[3 * br + i][3 * bc + j] for i in range(3) for j in range(3)])
    for r, row in enumerate(rows.split()):
        for c, ch in enumerate(row):
            if ch != ".":
                m.fix(g[r][c], int(ch))
    return m


def queens(n: int) -> Csp:
    m = Csp("queens")
    q = m.add_array("q", n, 0, n - 1)
    m.all_different(q)
    for i, j in itertools.combinations(range(n), 2):
        m.require(abs(q[i] - q[j]) != j - i, "diagonal")
    return m


def circuit_on(edges: list[tuple[int, int]], n: int) -> Csp:
    """Successor variables on an undirected graph: a circuit is a Hamiltonian cycle."""
    m = Csp("circuit")
    succ = [m.add_variable(f"s{i}", 0, n - 1) for i in range(n)]
    for i in range(n):
        m.restrict(f"s{i}", [b for a, b in edges if a == i] + [a for a, b in edges if b == i])
    m.circuit(succ)
    return m


def knight_graph(rows: int, cols: int) -> tuple[list[tuple[int, int]], int]:
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    index = {cell: i for i, cell in enumerate(cells)}
    edges = [(index[(r, c)], index[(r + dr, c + dc)]) for r, c in cells
             for dr, dc in ((1, 2), (2, 1), (2, -1), (1, -2)) if (r + dr, c + dc) in index]
    return edges, len(cells)


# ---------------------------------------------------------------- CSP: counts


@pytest.mark.parametrize("model, expected", [
    (latin(3), 12),                         # 3! * 2!
    (latin(4), 576),                        # 4! * 3! * 4 reduced squares
    (x_sudoku_5(), 960),
    (x_sudoku_5([1, 2, 3, 4, 5]), 8),       # 960 / 5! relabellings of the symbols
    (queens(4), 2),
    (queens(6), 4),
    (circuit_on([(0, 1), (1, 2), (2, 3), (3, 0)], 4), 2),    # a square, both ways round
    (circuit_on(list(itertools.combinations(range(4), 2)), 4), 6),  # K4: (4 - 1)!
    (circuit_on([(0, 1), (1, 2), (2, 3)], 4), 0),            # a path has no circuit
    (circuit_on(*knight_graph(4, 4)), 0),                    # no closed tour on 4 x n
])
def test_count(model: Csp, expected: int) -> None:
    result = cpsat("count", model)
    assert result.status is Status.EXACT
    assert result.count == expected


@pytest.mark.slow
def test_closed_knights_tours_of_6x6() -> None:
    # 9,862 closed tours (Jelliss; OEIS A001230), each in two directions
    assert cpsat("count", circuit_on(*knight_graph(6, 6))).count == 2 * 9862


def test_count_keeps_distinct_checked_solutions() -> None:
    result = cpsat("count", latin(3), keep=True)
    assert result.count == len(result.solutions) == 12
    assert result.verified


def test_count_stops_at_the_limit() -> None:
    result = cpsat("count", latin(4), limit=5)
    assert result.status is Status.AT_LEAST
    assert result.count == 5
    assert "limit" in result.message


def test_count_time_limit_gives_a_lower_bound(cp_sat_loaded) -> None:
    result = cpsat("count", latin(6), time_limit=0.2)   # 812,851,200 squares
    assert result.status in (Status.AT_LEAST, Status.UNKNOWN)
    assert result.bound == (result.count or 0)


# ---------------------------------------------------------------- CSP: solve


def test_inkala_sudoku_is_unique() -> None:
    result = cpsat("solve", sudoku())
    assert result.status is Status.SOLVED
    assert result.unique is True and result.second is None
    assert result.verified


def test_a_second_solution_is_reported() -> None:
    result = cpsat("solve", queens(4))
    assert result.unique is False
    assert dict(result.solution) != dict(result.second)


def test_portfolio_stage_when_the_quick_enumeration_gives_up(monkeypatch) -> None:
    from cpsolve.engines.cpsat import csp

    monkeypatch.setattr(csp, "QUICK_SECONDS", 0.0)
    assert cpsat("solve", sudoku()).unique is True
    assert cpsat("solve", queens(4)).unique is False
    assert cpsat("solve", queens(3)).status is Status.INFEASIBLE


def test_unsolvable_csps_are_infeasible() -> None:
    assert cpsat("solve", queens(3)).status is Status.INFEASIBLE
    assert cpsat("solve", circuit_on([(0, 1), (1, 2), (2, 3)], 4)).status is Status.INFEASIBLE


def test_allowed_values_and_a_one_node_circuit() -> None:
    m = Csp()
    x = m.add_variable("x", 0, 9)
    m.restrict("x", [2, 5, 7])
    m.require(x != 5)
    assert cpsat("count", m, keep=True).solutions == ({"x": 2}, {"x": 7})
    one = Csp()
    one.circuit([one.add_variable("s", 0, 0)])
    assert cpsat("count", one).count == 1


def test_arithmetic_over_many_variables() -> None:
    m = Csp()
    xs = m.add_array("x", 4, 0, 3)
    m.require(Min(xs[0], xs[1]) + Max(xs[2], xs[3]) * 2 == 5)
    expected = sum(min(a, b) + 2 * max(c, d) == 5
                   for a, b, c, d in itertools.product(range(4), repeat=4))
    assert cpsat("count", m).count == expected


# ---------------------------------------------------------------- compiler vs brute force

DOMAINS = {"x": (-2, 2), "y": (0, 3), "z": (0, 1)}


def trees() -> st.SearchStrategy[Expr]:
    leaves = st.one_of(st.sampled_from([Var("x"), Var("y"), Var("z")]),
                       st.integers(-3, 3).map(Const))

    def grow(sub: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            st.builds(Unary, st.sampled_from(["-", "abs", "not"]), sub),
            st.builds(Binary, st.sampled_from(["+", "-", "*", "==", "!=", "<", "<=", ">", ">="]),
                      sub, sub),
            st.builds(lambda op, a, b: Nary(op, (a, b)),
                      st.sampled_from(["and", "or", "min", "max"]), sub, sub),
            st.builds(lambda c, a, b: IfThenElse(truthy(c), a, b), sub, sub, sub),
        )  # an if's condition is a condition: a model refuses a number there

    return st.recursive(leaves, grow, max_leaves=6)


def truthy(expr: Expr) -> Expr:
    """``expr`` as a condition, true where its value is not 0 (a model refuses a number
    where a condition must stand: the random trees are numbers as often as not)."""
    return Binary("!=", expr, Const(0))


def assignments() -> list[dict[str, int]]:
    ranges = [range(lo, hi + 1) for lo, hi in DOMAINS.values()]
    return [dict(zip(DOMAINS, combo)) for combo in itertools.product(*ranges)]


def small_model(extra_hi: int) -> Csp:
    m = Csp()
    for n, (lo, hi) in DOMAINS.items():
        m.add_variable(n, lo, hi)
    m.add_variable("u", 0, extra_hi)
    return m


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.booleans())
def test_compiled_condition_matches_brute_force(expr: Expr, tables: bool) -> None:
    """``require(e)`` has as many solutions as assignments that make ``e`` true.

    Without ``tables``, the condition mentions a fourth variable (in a test
    that is always false), which keeps it out of the clause tables and sends
    it through the arithmetic compiler.
    """
    m = small_model(0 if tables else 70)
    m.require(truthy(expr) if tables else truthy(expr) | (Var("u") > 99))
    expected = sum(1 for env in assignments() if evaluate(expr, env))
    assert cpsat("count", m).count == expected * (1 if tables else 71)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_compiled_value_matches_brute_force(expr: Expr) -> None:
    """``w == e`` has one solution per assignment, with the interpreter's value."""
    values = [evaluate(expr, env) for env in assignments()]
    m = small_model(70)
    m.add_variable("w", min(values), max(values))
    m.require((Var("w") == expr) & (Var("u") == 0))
    result = cpsat("count", m, keep=True)
    assert result.count == len(values)
    assert all(s["w"] == evaluate(expr, s) for s in result.solutions)


# ---------------------------------------------------------------- planning models


def jugs(goal: int = 4, big: int = 8, small: int = 5, fill_cost: int = 1) -> Planning:
    p = Planning("jugs")
    a, b = p.add_variable("a", 0, big), p.add_variable("b", 0, small)
    p.set_initial({"a": 0, "b": 0})
    p.set_goal((a == goal) | (b == goal))
    p.add_action("fill a", a < big, {a: big}, fill_cost)
    p.add_action("fill b", b < small, {b: small}, fill_cost)
    p.add_action("empty a", a > 0, {a: 0})
    p.add_action("empty b", b > 0, {b: 0})
    p.add_action("pour a into b", (a > 0) & (b < small),
                 {a: a - Min(a, small - b), b: b + Min(a, small - b)})
    p.add_action("pour b into a", (b > 0) & (a < big),
                 {b: b - Min(b, big - a), a: a + Min(b, big - a)})
    return p


def hanoi(discs: int) -> Planning:
    p = Planning("hanoi")
    peg = [p.add_variable(f"disc{d}", 0, 2) for d in range(discs)]   # disc 0 is the smallest
    p.set_initial({f"disc{d}": 0 for d in range(discs)})
    p.set_goal(And(*[x == 2 for x in peg]))
    p.add_actions(
        "move disc {d} from {src} to {dst}",
        {"d": range(discs), "src": range(3), "dst": range(3)},
        lambda d, src, dst: (And(peg[d] == src, *[(peg[e] != src) & (peg[e] != dst)
                                                  for e in range(d)]), {peg[d]: dst}),
        where=lambda d, src, dst: src != dst)
    return p


def counter(small_cost: Expr | int = 1) -> Planning:
    """x = 0..6, goal x == 4; +4 costs 5, +1 costs ``small_cost``, +1 from odd x is free."""
    p = Planning("counter")
    x = p.add_variable("x", 0, 6)
    p.set_initial({"x": 0})
    p.set_goal(x == 4)
    p.add_action("big", x <= 2, {x: x + 4}, cost=5)
    p.add_action("small", x <= 5, {x: x + 1}, cost=small_cost)
    p.add_action("free", (x == 1) | (x == 3) | (x == 5), {x: x + 1}, cost=0)
    return p


def pegs_line() -> Planning:
    """Peg solitaire on a line of 6 holes; a jump is free while the last hole is full."""
    p = Planning("line")
    h = p.add_array("h", 6, 0, 1)
    p.set_initial({f"h[{i}]": int(i != 1) for i in range(6)})
    p.set_goal(Sum(h) == 1)
    for a in range(6):
        for d in (-1, 1):
            b, c = a + d, a + 2 * d
            if 0 <= c < 6:
                p.add_action(f"{a} over {b}", (h[a] == 1) & (h[b] == 1) & (h[c] == 0),
                             {h[a]: 0, h[b]: 0, h[c]: 1}, cost=If(h[5] == 1, 0, 1))
    return p


def cheapest_cost(p: Planning) -> int | None:
    """Dijkstra over the reachable states, with the reference interpreter."""
    names = list(p.domains)
    start = tuple(p.initial[n] for n in names)
    best, queue = {start: 0}, [(0, start)]
    while queue:
        cost, state = heapq.heappop(queue)
        env = dict(zip(names, state))
        if evaluate(p.goal, env):
            return cost
        if cost > best[state]:
            continue
        for a in p.actions:
            if not evaluate(a.guard, env):
                continue
            new = dict(env)
            new.update({v: evaluate(e, env) for v, e in a.effects})
            if any(new[n] not in p.domains[n] for n in names):
                continue
            nxt, c = tuple(new[n] for n in names), cost + evaluate(a.cost, env)
            if c < best.get(nxt, c + 1):
                best[nxt] = c
                heapq.heappush(queue, (c, nxt))
    return None


# ---------------------------------------------------------------- planning: unit costs


@pytest.mark.parametrize("model, moves", [
    (jugs(), 10),
    (hanoi(2), 3),
    (hanoi(3), 7),          # 2**3 - 1
])
def test_shortest_plans(model: Planning, moves: int) -> None:
    result = cpsat("solve", model)
    assert result.status is Status.OPTIMAL
    assert result.steps == result.cost == moves
    assert result.verified


def test_long_plan_through_the_probe() -> None:
    """A chain of 13 states: the plan has every state, found past a third of the bound."""
    p = Planning("chain")
    x = p.add_variable("x", 0, 12)
    p.set_initial({"x": 0})
    p.set_goal(x == 12)
    p.add_action("step", x < 12, {x: x + 1})
    p.add_action("reset", x > 0, {x: 0})      # no potential argument: 12 = states - 1
    said: list[str] = []
    result = cpsat("solve", p, progress=said.append, encoding="time-indexed")
    assert result.status is Status.OPTIMAL and result.steps == 12
    assert "horizon 11: no plan" in said


def test_potential_fixes_the_length_of_peg_solitaire() -> None:
    """Every jump removes one peg: 5 pegs to 1 takes exactly 4 jumps, so no horizon
    below 4 is tried; and 5 pegs never become 7."""
    p = Planning("line")
    h = p.add_array("h", 7, 0, 1)
    p.set_initial({f"h[{i}]": int(i in (1, 3, 4, 5, 6)) for i in range(7)})   # .o.oooo
    p.set_goal(And(*[x == int(i == 2) for i, x in enumerate(h)]))              # ..o....
    for a, d in itertools.product(range(7), (-1, 1)):
        if 0 <= a + 2 * d < 7:
            b, c = h[a + d], h[a + 2 * d]
            p.add_action(f"{a}>{a + 2 * d}", (h[a] == 1) & (b == 1) & (c == 0),
                         {h[a]: 0, b: 0, c: 1})
    result = cpsat("solve", p, encoding="time-indexed")
    assert result.status is Status.OPTIMAL and result.steps == 4
    assert result.details["horizons_infeasible"] == ()
    p.set_goal(And(*[x == 1 for x in h]))       # 7 pegs: the sum cannot rise
    impossible = cpsat("solve", p)              # an invariant says so before any horizon
    assert impossible.status is Status.INFEASIBLE and impossible.proof == "invariant"
    from cpsolve.engines.cpsat import planning  # the driver alone: by the potential

    driver = planning.solve(p, Options())
    assert driver.status is Status.INFEASIBLE and "no number of steps" in driver.message


def test_goal_in_the_initial_state_is_the_empty_plan() -> None:
    result = cpsat("solve", jugs(goal=0))
    assert result.status is Status.OPTIMAL
    assert result.plan == () and result.cost == 0


@pytest.mark.parametrize("model", [
    jugs(goal=3, big=6, small=4),   # every amount stays even
    jugs(goal=4, big=3, small=2),   # 4 fits in neither jug
])
def test_unreachable_goal_is_infeasible(model: Planning) -> None:
    assert cpsat("solve", model).status is Status.INFEASIBLE


def test_time_limit_gives_a_bound(cp_sat_loaded) -> None:
    # 127 moves are needed; the subject is CP-SAT's own bound, so no weighted A* hint (with
    # one, its plan may come back "solved" within the 0.3 s)
    result = cpsat("solve", hanoi(7), time_limit=0.3, find_hint=False, encoding="time-indexed")
    assert result.status is Status.UNKNOWN
    assert 1 <= result.bound <= 127
    assert f"no plan has fewer than {result.bound} step" in result.message  # 1 step, 2 steps


def test_counting_optimal_plans_agrees_with_search() -> None:
    counted = cpsat("count", jugs(), keep=True)
    searched = run("search", "count", jugs(), Options(keep=True))
    assert counted.status is searched.status is Status.EXACT
    assert (counted.count, counted.cost) == (searched.count, searched.cost) == (1, 10)
    assert [s.action for s in counted.plans[0]] == [s.action for s in searched.plans[0]]


# ---------------------------------------------------------------- planning: costs


def test_zero_cost_actions_make_the_cheapest_plan_longer() -> None:
    # small, free, small, free: 1 + 0 + 1 + 0 = 2 < 5 for the one-step plan
    result = cpsat("solve", counter())
    assert result.status is Status.OPTIMAL
    assert (result.cost, result.steps) == (2, 4)


def test_state_dependent_cost() -> None:
    # small costs 3 from x == 2: 0 -1-> 1 -0-> 2 -3-> 3 -0-> 4 costs 4 < 5
    result = cpsat("solve", counter(If(Var("x") == 2, 3, 1)))
    assert result.status is Status.OPTIMAL
    assert result.cost == 4


@pytest.mark.parametrize("model", [
    jugs(fill_cost=3),              # every step costs at least 1
    jugs(goal=3, big=6, small=4, fill_cost=2),
    pegs_line(),                    # zero-cost steps; every jump removes a peg
    counter(),
    counter(If(Var("x") == 2, 3, 1)),
])
def test_cheapest_plan_matches_dijkstra(model: Planning) -> None:
    result = cpsat("solve", model)
    expected = cheapest_cost(model)
    if expected is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.OPTIMAL
        assert result.cost == expected


# ---------------------------------------------------------------- random planning models

PLAN_DOMAINS = {"x": (-2, 2), "y": (0, 3), "z": (0, 1)}


@st.composite
def planning_models(draw: st.DrawFn, unit: bool) -> Planning:
    """Two or three variables, a goal false at the start and up to four random actions."""
    p = Planning("random")
    names = draw(st.sampled_from([["x", "y"], ["x", "y", "z"]]))
    for n in names:
        p.add_variable(n, *PLAN_DOMAINS[n])
    p.set_initial({n: draw(st.integers(*PLAN_DOMAINS[n])) for n in names})
    exprs = trees().filter(lambda e: variables(e) <= set(names))
    p.set_goal(truthy(draw(exprs)))
    assume(not evaluate(p.goal, p.initial))
    steps = st.builds(lambda n, c: Var(n) + c, st.sampled_from(names),
                      st.sampled_from([-2, -1, 1, 2]))  # + 0 is no step (filtered below)
    for k in range(draw(st.integers(1, 4))):
        written = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
        guard = draw(st.one_of(st.just(Const(1)), exprs.map(truthy)))
        effects = {n: draw(st.one_of(steps, exprs).filter(lambda e, n=n: not keeps(e, n)))
                   for n in written}  # x := x (x + 0...) is no effect: an action must change
        p.add_action(f"a{k}", guard, effects, 1 if unit else Unary("abs", draw(exprs)))
    return p


@settings(max_examples=40, deadline=None,  # trees over the model's variables are filtered
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.booleans().flatmap(planning_models))
def test_random_plans_match_dijkstra(model: Planning) -> None:
    result = cpsat("solve", model)
    expected = cheapest_cost(model)
    if expected is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.OPTIMAL
        assert result.cost == expected
