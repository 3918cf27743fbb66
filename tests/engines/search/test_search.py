"""The search engine: known answers, agreement between algorithms, limits, bad input.

Expected numbers come from reasoning (noted beside each), never from the
engine's own output.  Every result also passes the independent checker,
because the tests go through :func:`cpsolve.engines.run`.
"""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve import And, Csp, If, Max, Min, Not, Or, Planning, Status, Sum
from cpsolve.answers.check.assignments import violations
from cpsolve.answers.result import Unsupported
from cpsolve.engines import Options, run
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search import common, engine
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.emit import build, source
from cpsolve.engines.search.registry import Finds, Need
from cpsolve.language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var
from cpsolve.language.fold import keeps
from cpsolve.language.interpret import evaluate
from cpsolve.model import ModelError

# ---------------------------------------------------------------- planning models


def water_jugs(big: int = 8, small: int = 5, want: int = 4) -> Planning:
    m = Planning("water jugs")
    a = m.add_variable("a", 0, big)
    b = m.add_variable("b", 0, small)
    m.set_initial({"a": 0, "b": 0})
    m.set_goal((a == want) | (b == want))
    m.add_action("fill a", a < big, {a: big})
    m.add_action("fill b", b < small, {b: small})
    m.add_action("empty a", a > 0, {a: 0})
    m.add_action("empty b", b > 0, {b: 0})
    pour = Min(a, small - b)
    m.add_action("pour a into b", (a > 0) & (b < small), {a: a - pour, b: b + pour})
    back = Min(b, big - a)
    m.add_action("pour b into a", (b > 0) & (a < big), {b: b - back, a: a + back})
    return m


def hanoi(n: int = 3) -> Planning:
    """pos[d] = peg of disc d (0 = smallest); all discs start on peg 0 and go to peg 2."""
    m = Planning("hanoi")
    pos = m.add_array("pos", n, 0, 2)
    m.set_initial({f"pos[{d}]": 0 for d in range(n)})
    m.set_goal(And(*[p == 2 for p in pos]))

    def move(d: int, p: int, q: int):
        clear = [(pos[e] != p) & (pos[e] != q) for e in range(d)]
        return And(pos[d] == p, *clear), {pos[d]: q}

    m.add_actions("disc {d} from {p} to {q}", {"d": range(n), "p": range(3), "q": range(3)},
                  move, where=lambda d, p, q: p != q)
    return m


ADJACENT = [(i, j) for i in range(9) for j in range(9)
            if abs(i // 3 - j // 3) + abs(i % 3 - j % 3) == 1]


def eight_puzzle(start: str, goal: str = "123456780") -> Planning:
    """Cells row-major, 0 = blank; a move slides the tile at cell i into the blank at j."""
    m = Planning("8-puzzle")
    c = m.add_array("c", 9, 0, 8)
    m.set_initial({f"c[{i}]": int(ch) for i, ch in enumerate(start)})
    m.set_goal(And(*[c[i] == int(ch) for i, ch in enumerate(goal)]))
    m.add_actions("move {i} to {j}", {"i": range(9), "j": range(9)},
                  lambda i, j: ((c[i] != 0) & (c[j] == 0), {c[j]: c[i], c[i]: 0}),
                  where=lambda i, j: (i, j) in ADJACENT)
    return m


def counter(cost: Expr | int, free_flip: bool = False) -> Planning:
    """x counts 0..10 by ``inc`` (+1, cost ``cost``) and ``add3`` (+3, cost 1); goal x = 10."""
    m = Planning("counter")
    x = m.add_variable("x", 0, 10)
    init = {"x": 0}
    if free_flip:
        y = m.add_variable("y", 0, 1)
        init["y"] = 0
        m.add_action("flip", True, {y: 1 - y}, 0)  # a 0-cost cycle
    m.set_initial(init)
    m.set_goal(x == 10)
    m.add_action("inc", True, {x: x + 1}, cost)
    m.add_action("add3", True, {x: x + 3}, 1)
    return m


def hoppers() -> Planning:
    """13 holes ((r + c) even on a 5x5 grid), pegs everywhere but the centre.

    A jump takes a peg over a neighbour along a line of holes into an empty
    hole; it costs 0 when the same peg jumped last (``last``), so the cost
    counts moves (chains of jumps by one peg).
    """
    holes = [(r, c) for r in range(5) for c in range(5) if (r + c) % 2 == 0]
    at = {h: i for i, h in enumerate(holes)}
    centre = at[(2, 2)]
    m = Planning("hoppers")
    peg = m.add_array("peg", 13, 0, 1)
    last = m.add_variable("last", 0, 13)  # 13: no jump yet
    m.set_initial({**{f"peg[{i}]": int(i != centre) for i in range(13)}, "last": 13})
    m.set_goal(And(*[peg[i] == int(i == centre) for i in range(13)]))
    for (r, c), a in at.items():
        for dr, dc in [(0, 2), (0, -2), (2, 0), (-2, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]:
            b, t = at.get((r + dr, c + dc)), at.get((r + 2 * dr, c + 2 * dc))
            if b is not None and t is not None:
                m.add_action(f"{a} over {b} to {t}",
                             (peg[a] == 1) & (peg[b] == 1) & (peg[t] == 0),
                             {peg[a]: 0, peg[b]: 0, peg[t]: 1, last: t}, If(last == a, 0, 1))
    return m


def solve(model, algorithm=None, **options):
    return run("search", "solve", model, Options(algorithm=algorithm, **options))


# ---------------------------------------------------------------- planning: known answers


@pytest.mark.parametrize("algorithm", ["bfs", "iddfs", "dijkstra", None])
def test_water_jugs_take_ten_moves(algorithm):
    # 8 L and 5 L jugs, get 4 L: the classic answer is 10 pourings
    result = solve(water_jugs(), algorithm)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.steps == 10 and result.cost == 10


def test_dfs_finds_a_plan_without_claiming_optimality():
    result = solve(water_jugs(), "dfs")
    assert result.status is Status.SOLVED and result.verified
    assert result.steps >= 10


@pytest.mark.parametrize("algorithm", list(engine.ALGORITHMS))
def test_hanoi_three_discs_take_seven_moves(algorithm):
    result = solve(hanoi(3), algorithm)  # 2**3 - 1
    assert result.verified
    if engine.ALGORITHMS[algorithm].finds is Finds.ANY:  # some plan; optimal only when proven
        assert result.found and result.steps >= 7
        assert result.status is Status.SOLVED or result.steps == 7
    else:
        assert result.status is Status.OPTIMAL and result.steps == 7


def test_eight_puzzle_two_moves():
    # 123/4_5/786: slide 5 left, then 6 up
    for algorithm in ("bfs", "bidir", "iddfs", "dijkstra"):
        result = solve(eight_puzzle("123405786"), algorithm)
        assert result.steps == 2 and result.status is Status.OPTIMAL
        assert [s.action for s in result.plan] == ["move 5 to 4", "move 8 to 5"]


def test_eight_puzzle_hardest_start_bidir():
    result = solve(eight_puzzle("867254301"), "bidir")
    assert result.status is Status.OPTIMAL and result.steps == 31 and result.verified
    assert result.plan[-1].state == (1, 2, 3, 4, 5, 6, 7, 8, 0)


def test_eight_puzzle_hardest_start_bfs():
    result = solve(eight_puzzle("867254301"), "bfs")
    assert result.status is Status.OPTIMAL and result.steps == 31


def test_default_algorithm():
    # unit costs and one goal state, no estimate: packed_bidir when the packing says the
    # space is small (9! arrangements), else bidir; a goal with "or": bfs;
    # costs other than 1: dijkstra; a declared estimate: anytime (weighted A*, then a proof)
    assert solve(eight_puzzle("867254301")).details["algorithm"] == "packed_bidir"
    assert solve(water_jugs()).details["algorithm"] == "bfs"
    # jumps costing 0 or 1 by the last landing hole (a memory variable): closure
    assert solve(hoppers()).details["algorithm"] == "closure"
    model = eight_puzzle("123405786")
    model.set_estimate(0)   # an estimate, but 9! arrangements: the packed search proves it
    assert solve(model).details["algorithm"] == "packed_bidir"
    from pathlib import Path

    from cpsolve.puzzles.files import load

    fifteen = load(Path(__file__).parents[3] / "models" / "fifteen_easy.toml").model
    # 16! arrangements: A* and friends
    assert solve(fifteen).details["algorithm"] == "anytime"


@pytest.mark.slow
def test_eight_puzzle_hardest_start_dijkstra():
    result = solve(eight_puzzle("867254301"), "dijkstra")
    assert result.status is Status.OPTIMAL and result.cost == 31


def test_goal_already_holds():
    model = eight_puzzle("123456780")
    for algorithm in engine.ALGORITHMS:
        result = solve(model, algorithm)
        assert result.found and result.plan == () and result.cost == 0


# ---------------------------------------------------------------- planning: agreement


@st.composite
def scrambles(draw):
    """A start reached from the goal by a short random walk of the blank."""
    cells = list("123456780")
    for _ in range(draw(st.integers(0, 9))):
        blank = cells.index("0")
        options = [i for i, j in ADJACENT if j == blank]
        i = draw(st.sampled_from(options))
        cells[blank], cells[i] = cells[i], "0"
    return "".join(cells)


@settings(max_examples=15, deadline=None)
@given(scrambles())
def test_algorithms_agree_on_optimal_moves(start):
    model = eight_puzzle(start)
    moves = {a: solve(model, a).steps for a in ("bfs", "bidir", "iddfs", "dijkstra")}
    assert len(set(moves.values())) == 1, moves
    assert moves["bfs"] <= 9


@pytest.mark.parametrize("model", [water_jugs(), hanoi(3)], ids=["jugs", "hanoi"])
def test_optimal_algorithms_agree(model):
    task = compile_planning(model)
    optimal = [name for name, e in engine.ALGORITHMS.items()
               if e.finds is not Finds.ANY and not e.missing(task)]
    assert len({solve(model, a).steps for a in optimal}) == 1


# ---------------------------------------------------------------- planning: costs


def test_zero_one_costs_prefer_cost_then_moves():
    # inc is free from x = 4 on.  Cost 2 is least (two paid moves reach 4 at best);
    # add3, add3 reaches 6 for 2, then 4 free incs: 6 moves (add3, inc, then 6 incs: 8).
    result = solve(counter(If(Var("x") >= 4, 0, 1)), "dijkstra")
    assert result.status is Status.OPTIMAL and result.cost == 2 and result.steps == 6


def test_heap_dijkstra_with_zero_cost_cycle():
    # inc costs 2 below 4: same optimum (cost 2, 6 moves); flip is a free cycle
    model = counter(If(Var("x") >= 4, 0, 2), free_flip=True)
    result = solve(model)
    assert result.details["algorithm"] == "dijkstra"
    assert result.status is Status.OPTIMAL and result.cost == 2 and result.steps == 6


def test_hoppers_seven_moves_eleven_jumps():
    # 12 pegs to 1: every solution has 11 jumps; the least number of moves is 7
    result = solve(hoppers())
    assert result.status is Status.OPTIMAL and result.cost == 7 and result.steps == 11
    jumps = solve(hoppers(), "bfs")
    assert jumps.status is Status.SOLVED and jumps.steps == 11


def test_negative_costs_are_refused():
    # the model itself refuses them: every optimality claim relies on costs >= 0
    with pytest.raises(ModelError, match="costs must be >= 0"):
        solve(counter(-1), "dijkstra")


def test_bfs_with_costs_minimises_moves_only():
    # 4 moves (three add3 and one inc) is fewest; it costs 3 or 4, never the optimum 2
    result = solve(counter(If(Var("x") >= 4, 0, 1)), "bfs")
    assert result.status is Status.SOLVED and result.steps == 4 and result.cost in (3, 4)
    assert result.details["steps_optimal"]


# ---------------------------------------------------------------- planning: infeasible, bad input


@pytest.mark.parametrize("algorithm", [name for name, e in engine.ALGORITHMS.items()
                                       if Need.GOAL_STATE not in e.needs])
def test_unreachable_goal_is_infeasible(algorithm):
    result = solve(water_jugs(6, 4, 3), algorithm)  # only even amounts
    assert result.status is Status.INFEASIBLE and result.plan is None


def test_unsolvable_eight_puzzle_explores_half_the_permutations():
    # two tiles swapped: odd permutation; the reachable half has 9!/2 states
    result = solve(eight_puzzle("213456780"), "bfs")
    assert result.status is Status.INFEASIBLE and result.explored == 181_440


def test_bidir_unreachable_goal_state():
    m = Planning("stuck")  # x climbs to 2 and no further; the goal is x = 3
    x = m.add_variable("x", 0, 3)
    m.set_initial({"x": 0})
    m.set_goal(x == 3)
    m.add_action("up", x < 2, {x: x + 1})
    result = solve(m, "bidir")
    assert result.status is Status.INFEASIBLE


def test_successors_leaving_a_domain_are_skipped_and_counted():
    m = Planning("twos")
    x = m.add_variable("x", 0, 5)
    m.set_initial({"x": 0})
    # not a pin (x >= 5 would now read as x == 5, its top): no invariant (x stays even)
    # answers before the search
    m.set_goal((x == 5) | (x == 3))
    m.add_action("add2", True, {x: x + 2})
    result = solve(m, "bfs")  # 0, 2, 4, then 6 is outside 0..5
    assert result.status is Status.INFEASIBLE and result.explored == 3
    assert result.details["skipped_out_of_domain"] >= 1


def test_goal_state_outside_the_domains():
    m = Planning("outside")
    x = m.add_variable("x", 0, 3)
    m.set_initial({"x": 0})
    m.set_goal(x == 4)  # x + 1 would reach 4, but 4 is not a value of x
    m.add_action("up", True, {x: x + 1})
    for algorithm in ("bfs", "bidir"):
        assert solve(m, algorithm).status is Status.INFEASIBLE
    assert analyze(m).answer.direction == "start"


def test_names_never_reach_generated_code():
    m = Planning("names")
    x = m.add_variable("x) or __import__('os').system('false') or (", 0, 2)
    m.set_initial({x.name: 0})
    m.set_goal(x == 2)
    m.add_action("'; raise SystemExit #", x < 2, {x: x + 1})
    result = solve(m)
    assert result.steps == 2 and result.plan[0].action == "'; raise SystemExit #"


def test_bidir_needs_a_single_goal_state():
    with pytest.raises(Unsupported, match="single goal state"):
        solve(water_jugs(), "bidir")


def test_unknown_algorithm_lists_the_known_ones():
    with pytest.raises(Unsupported, match="bfs, bidir, iddfs, dfs, dijkstra, astar"):
        solve(water_jugs(), "a-star")


# ---------------------------------------------------------------- planning: limits, progress


@pytest.mark.parametrize("algorithm", ["bfs", "bidir", "dijkstra", "iddfs"])
def test_state_limit_gives_unknown_with_a_bound(algorithm):
    result = solve(eight_puzzle("867254301"), algorithm, limit=500)
    assert result.status is Status.UNKNOWN and result.plan is None
    assert 1 <= result.bound <= 31  # a proven lower bound on the optimum
    assert 500 <= result.explored <= 500 + 2 * 24
    assert "limit" in result.message


def test_time_limit_gives_unknown():
    result = solve(eight_puzzle("213456780"), "bfs", time_limit=0.01)
    assert result.status is Status.UNKNOWN and result.bound >= 1 and result.explored > 0


def test_dfs_limit_has_no_bound():
    result = solve(eight_puzzle("213456780"), "dfs", limit=100)
    assert result.status is Status.UNKNOWN and result.bound is None


def test_progress_lines(monkeypatch):
    monkeypatch.setattr(common, "REPORT_EVERY", 0.0)
    lines: list[str] = []
    solve(hanoi(3), "bfs", progress=lines.append)
    assert lines and all(line.startswith("bfs depth") for line in lines)


# ---------------------------------------------------------------- planning: analysis


def analyze(model, algorithm=None, **options):
    return run("search", "analyze", model, Options(algorithm=algorithm, **options))


IN_PROCESS = [name for name in engine.ANALYSES if name != "cluster"]
"""Analyses run here; the one on a Dask cluster is tested in tests/workflows/test_cluster.py."""

FROM_GOAL = [name for name, entry in engine.ANALYSES.items() if entry.from_goal]
"""Analyses that sweep back from a single goal state (the others explore from the start)."""


@pytest.mark.parametrize("algorithm", FROM_GOAL)
def test_analyze_hanoi(algorithm):
    # every one of the 3**3 placements is legal and connected.  A state is 2**n - 1
    # moves from "all on peg 2" when disc n-1 is off peg 2 (2 ways) and the smaller
    # discs are 2**(n-1) - 1 moves from the third peg (recursively): 2**n such states.
    result = analyze(hanoi(3), algorithm)
    assert result.status is Status.COMPLETE and result.states == 27
    assert result.max_distance == 7 and sum(result.layers) == 27
    assert len(result.farthest) == 8 and result.layers[7] == 8
    assert {(0, 0, 0), (1, 1, 1)} <= set(result.farthest)
    assert all(s[2] != 2 for s in result.farthest)
    assert result.answer.direction == "goal"
    assert result.details["initial_distance"] == 7


@pytest.mark.parametrize("algorithm", IN_PROCESS)
def test_analyze_without_single_goal_counts_forward(algorithm):
    # reachable jug states have a jug empty or full: 2*6 + 2*9 - 4 corners = 26
    result = analyze(water_jugs(), algorithm)
    assert result.states == 26 and result.answer.direction == "start"
    assert result.layers[0] == 1 and sum(result.layers) == 26


def test_analyze_eight_puzzle_numpy():
    result = analyze(eight_puzzle("867254301"), "numpy")
    assert result.status is Status.COMPLETE and result.states == 181_440
    assert result.details["reachable"] == 181_440
    assert result.max_distance == 31 and result.layers[31] == 2
    assert result.farthest == ((6, 4, 7, 8, 5, 0, 3, 2, 1), (8, 6, 7, 2, 5, 4, 3, 0, 1))


@pytest.mark.slow
def test_analyze_eight_puzzle_python():
    result = analyze(eight_puzzle("867254301"), "python")
    assert result.states == 181_440 and result.max_distance == 31
    assert {"".join(map(str, s)) for s in result.farthest} == {"867254301", "647850321"}


@pytest.mark.parametrize("algorithm", IN_PROCESS)
def test_analyze_limit(algorithm):
    result = analyze(eight_puzzle("867254301"), algorithm, limit=1000)
    assert result.status is Status.PARTIAL and result.states >= 1000
    cut = result.details.get("last_layer") == "partial"  # the layer the limit fell in
    assert result.bound == len(result.layers) - 1 - cut  # the last complete layer


class StopAt(common.Budget):
    """A budget that looks every 50 expansions and asks to stop at its ``n``-th look: a
    stop (the time limit, Ctrl-C) inside a layer."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def interval(self, seen: int) -> int:
        return 50

    def exceeded(self, seen, status=None, *args) -> bool:
        self.n -= 1
        return self.n <= 0 and self.halt(Stop.INTERRUPT, "stopped by the test")


def test_a_stop_inside_a_layer_counts_only_the_complete_layers():
    """The layer under way when the stop came is kept, partial: it is no complete layer, so
    ``bound`` (the last distance whose layer is complete) and the message stop before it
    (they said "all within distance d known" of the partial layer d)."""
    from cpsolve.engines.search.statespace.layers import layers

    task = compile_planning(eight_puzzle("867254301"))
    full = layers(task, common.Budget(), "start")
    result = layers(task, StopAt(40), "start")  # 2,000 expansions: layer 13 under way
    sizes = result.answer.layers
    assert result.status is Status.PARTIAL and result.details["last_layer"] == "partial"
    assert sizes[:-1] == full.answer.layers[:len(sizes) - 1]  # complete layers
    assert 0 < sizes[-1] < full.answer.layers[len(sizes) - 1]  # and the one cut short
    assert result.bound == len(sizes) - 2
    assert f"all within distance {result.bound} known" in result.message
    assert f"the last layer (distance {result.bound + 1}) is partial" in result.message


def switches(n: int) -> Planning:
    """``n`` variables 0..63 (6 bits each), each switched from 0 to 1 once: all 2**n
    subsets can reach "all on", the farthest being "all off", ``n`` moves away."""
    m = Planning("wide")
    xs = m.add_array("x", n, 0, 63)
    m.set_initial({f"x[{i}]": 0 for i in range(n)})
    m.set_goal(And(*[x == 1 for x in xs]))
    for i, x in enumerate(xs):
        m.add_action(f"set {i}", x == 0, {x: 1})
    return m


def test_analyze_packs_wide_states_into_two_words():
    # 64**11 = 2**66 codes: too many for one int64, two words of 60 and 6 bits
    result = analyze(switches(11))
    assert result.details["algorithm"] == "numpy" and result.details["words"] == 2
    assert result.states == 2048 and result.max_distance == 11
    assert result.farthest == ((0,) * 11,)


@pytest.mark.parametrize("algorithm", ["numpy", "python"])
@pytest.mark.parametrize("limit", [5, 20])
def test_a_state_limit_is_never_passed(algorithm, limit):
    """docs/json.md: with ``--limit N`` the states never exceed N, though one state's
    predecessors come at once: "all on" has 8 (a switch turned back off each), then 28
    at distance 2, so the limit falls inside a layer and that layer is cut to fit."""
    result = analyze(switches(8), algorithm, limit=limit)
    assert result.status is Status.PARTIAL and result.details["last_layer"] == "partial"
    assert result.states == sum(result.layers) == limit
    assert result.layers == ((1, 4) if limit == 5 else (1, 8, 11))


def test_analyze_falls_back_when_states_do_not_pack():
    # 43 fields of 6 bits: 10 per word of at most 63 bits, 5 words; the numpy analysis
    # takes 4 at most
    result = analyze(switches(43), limit=1000)
    assert result.details["algorithm"] == "python" and "5 words" in result.details["fallback"]
    assert result.layers[:3] == (1, 43, 43 * 42 // 2)


def test_analyze_without_predecessors_counts_forward():
    # "add" writes x, whose 2**17 values are too many to enumerate backwards
    m = Planning("big")
    x = m.add_variable("x", 0, (1 << 17) - 1)
    m.set_initial({"x": 0})
    m.set_goal(x == 5)
    m.add_action("add", x < 5, {x: x + 1})
    result = analyze(m, "python")
    assert result.answer.direction == "start"
    assert "backward" in result.details and result.states == 6


def test_predecessors_invert_successors():
    for model in (water_jugs(), hanoi(3), counter(1)):
        task = compile_planning(model)
        states = itertools.product(*(range(lo, hi + 1) for lo, hi in zip(task.lo, task.hi)))
        forward = {(s, k, t) for s in states for k, t, _ in task.successors(s)}
        backward = {(p, k, t) for _, _, t in forward for k, p in task.predecessors(t)}
        assert forward == backward


# ---------------------------------------------------------------- compiled expressions


@functools.cache
def trees(names: tuple[str, ...] = ("x", "y")):
    """Random expression trees over the named variables (one strategy per tuple)."""
    leaves = st.one_of(st.integers(-3, 3).map(Const), st.sampled_from([Var(n) for n in names]))

    def extend(inner):
        return st.one_of(
            st.builds(Unary, st.sampled_from(["-", "abs", "not"]), inner),
            st.builds(Binary, st.sampled_from(["+", "-", "*", "==", "!=", "<", "<=", ">", ">="]),
                      inner, inner),
            st.builds(Nary, st.sampled_from(["and", "or", "min", "max"]),
                      st.lists(inner, min_size=2, max_size=3).map(tuple)),
            st.builds(lambda c, a, b: IfThenElse(Binary("!=", c, Const(0)), a, b),
                      inner, inner, inner),
        )  # an if's condition is a condition: a model refuses a number there

    return st.recursive(leaves, extend, max_leaves=8)


def conditions(names: tuple[str, ...] = ("x", "y")):
    """Random trees as conditions, true where their value is not 0 (a model refuses a
    number where a condition must stand)."""
    return trees(names).map(lambda e: Binary("!=", e, Const(0)))


def changes(name: str, names: tuple[str, ...]):
    """Random trees as the new value of ``name``, never ``name`` itself (``x := x``, or
    ``x + 0``, is no effect: an action must change the state)."""
    return trees(names).filter(lambda e: not keeps(e, name))


@settings(max_examples=300, deadline=None)
@given(trees(), st.integers(-3, 3), st.integers(-3, 3))
def test_compiled_expressions_match_the_reference(expr, x, y):
    import numpy as np

    from cpsolve.engines.search.emit import np_helpers

    def ref(name: str) -> str:
        return f"s[{'xy'.index(name)}]"

    env = {"x": x, "y": y}
    want = evaluate(expr, env)
    value = build(f"def f(s):\n    return {source(expr, ref, 'v')}\n", {}, "f")((x, y))
    assert value == want and type(value) is int
    truth = build(f"def f(s):\n    return {source(expr, ref, 'c')}\n", {}, "f")((x, y))
    assert bool(truth) == bool(want)
    fn = build(f"def f(s):\n    return {source(expr, ref, 'v', 'np')}\n", np_helpers(np), "f")
    column = fn((np.array([x, x]), np.array([y, y])))
    assert np.array_equal(np.broadcast_to(column, (2,)), [want, want])


@st.composite
def small_plannings(draw):
    """2-3 variables in 0..3, random guards, effects (some leave the domains) and costs,
    a goal pinning every variable."""
    n = draw(st.integers(2, 3))
    names = tuple(f"x[{i}]" for i in range(n))
    m = Planning("random")
    for name in names:
        m.add_variable(name, 0, 3)
    m.set_initial({name: draw(st.integers(0, 3)) for name in names})
    m.set_goal(And(*[Var(name) == draw(st.integers(0, 3)) for name in names]))
    for k in range(draw(st.integers(1, 4))):
        written = draw(st.lists(st.sampled_from(names), min_size=1, max_size=n, unique=True))
        effects = {name: draw(changes(name, names)) for name in written}
        cost = draw(st.sampled_from([1, 1, 0, If(Var(names[0]) > 1, 0, 2)]))
        m.add_action(f"a{k}", draw(conditions(names)), effects, cost)
    return m


def reference_optima(model: Planning) -> tuple[int | None, int | None]:
    """(fewest moves, least cost) by a plain Dijkstra over the reference interpreter."""
    import heapq

    def successors(env):
        for a in model.actions:
            if evaluate(a.guard, env):
                new = dict(env, **{v: evaluate(e, env) for v, e in a.effects})
                if all(new[n] in d for n, d in model.domains.items()):
                    yield new, evaluate(a.cost, env)

    def least(weight) -> int | None:
        start = tuple(model.initial.items())
        best, heap = {start: 0}, [(0, start)]
        while heap:
            g, key = heapq.heappop(heap)
            env = dict(key)
            if g > best[key]:
                continue
            if evaluate(model.goal, env):
                return g
            for new, cost in successors(env):
                k, h = tuple(new.items()), g + weight(cost)
                if h < best.get(k, h + 1):
                    best[k] = h
                    heapq.heappush(heap, (h, k))
        return None

    return least(lambda cost: 1), least(lambda cost: cost)


@settings(max_examples=150, deadline=None)
@given(small_plannings())
def test_random_models_agree(model):
    moves, cost = reference_optima(model)
    first = solve(model, "bfs")
    assert first.steps == moves
    both = solve(model, "bidir")
    assert both.steps == moves and both.status is first.status
    if moves is not None and moves <= 6:
        assert solve(model, "iddfs").steps == moves
    cheapest = solve(model, "dijkstra")
    assert cheapest.cost == cost
    assert cheapest.status is (Status.INFEASIBLE if cost is None else Status.OPTIMAL)
    fast, slow = analyze(model, "numpy"), analyze(model, "python")
    for field in ("states", "layers", "max_distance", "farthest"):
        assert getattr(fast, field) == getattr(slow, field)
    assert fast.details.get("reachable") == slow.details.get("reachable")


@pytest.mark.parametrize("n", [3, 600])  # the checker's evaluate() recurses: ~900 at most
def test_long_sums_compile(n):
    m = Planning("sum")
    xs = m.add_array("x", n, 0, 1)
    m.set_initial({f"x[{i}]": 0 for i in range(n)})
    m.set_goal(sum(xs[1:], xs[0]) - xs[0] - xs[1] >= 1)  # some x[i], i >= 2, is set
    m.add_actions("set {i}", {"i": range(n)}, lambda i: (xs[i] == 0, {xs[i]: 1}))
    assert solve(m).steps == 1


def test_long_sums_in_numpy_flavour():
    import numpy as np

    from cpsolve.engines.search.emit import np_helpers

    total = Sum(Var(f"x{i}") for i in range(5000)) - Var("x0")
    text = source(total, lambda name: f"c[{name[1:]}]", "v", "np")
    fn = build(f"def f(c):\n    return {text}\n", np_helpers(np), "f")
    columns = [np.array([1, 2])] * 5000
    assert list(fn(columns)) == [4999, 9998]


def test_long_sum_constraint():
    m = Csp()
    xs = [m.add_variable(f"x{i}", 0, 1) for i in range(600)]
    m.require(Sum(xs) == 1)
    m.require(xs[0] == 0)
    result = run("search", "solve", m, Options())
    assert result.unique is False and sum(result.solution.values()) == 1


def test_deep_search_needs_no_recursion():
    # 1,200 choices deep: x[i] <= x[i+1] leaves 1,201 monotone 0/1 sequences
    m = Csp()
    xs = [m.add_variable(f"x{i}", 0, 1) for i in range(1200)]
    for a, b in zip(xs, xs[1:]):
        m.require(a <= b)
    result = run("search", "solve", m, Options())
    assert result.unique is False and sum(result.solution.values()) == 0


# ---------------------------------------------------------------- csp models


def latin(n: int) -> tuple[Csp, list[list[Var]]]:
    m = Csp("latin")
    grid = [[m.add_variable(f"r{r}c{c}", 1, n) for c in range(n)] for r in range(n)]
    for i in range(n):
        m.all_different(grid[i])
        m.all_different([grid[r][i] for r in range(n)])
    return m, grid


def x_sudoku5() -> tuple[Csp, list[list[Var]]]:
    m, grid = latin(5)
    m.all_different([grid[i][i] for i in range(5)])
    m.all_different([grid[i][4 - i] for i in range(5)])
    return m, grid


def queens(n: int) -> Csp:
    m = Csp("queens")
    q = [m.add_variable(f"q{i}", 0, n - 1) for i in range(n)]
    m.all_different(q)
    for i, j in itertools.combinations(range(n), 2):
        m.require(abs(q[i] - q[j]) != j - i)
    return m


INKALA = ("..53..... 8......2. .7..1.5.. 4....53.. .1..7...6 ..32...8. .6.5....9 "
          "..4....3. .....97..").split()


def sudoku(rows: list[str]) -> Csp:
    m = Csp("sudoku")
    g = [[m.add_variable(f"r{r}c{c}", 1, 9) for c in range(9)] for r in range(9)]
    for i in range(9):
        m.all_different(g[i])
        m.all_different([g[r][i] for r in range(9)])
        r0, c0 = 3 * (i // 3), 3 * (i % 3)
        m.all_different([g[r0 + a][c0 + b] for a in range(3) for b in range(3)])
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                m.fix(g[r][c], int(ch))
    return m


def tour_graph(edges: list[tuple[int, int]], n: int) -> Csp:
    """Successor variables over an undirected graph, required to form one circuit."""
    m = Csp("circuit")
    succ = [m.add_variable(f"next[{i}]", 0, n - 1) for i in range(n)]
    for i in range(n):
        m.restrict(f"next[{i}]", [j for a, b in edges for j in (a, b) if i in (a, b) and j != i])
    m.circuit(succ)
    return m


def knight_graph(rows: int, cols: int) -> tuple[list[tuple[int, int]], int]:
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    edges = [(i, j) for i, j in itertools.combinations(range(len(cells)), 2)
             if sorted((abs(cells[i][0] - cells[j][0]), abs(cells[i][1] - cells[j][1])))
             == [1, 2]]
    return edges, len(cells)


def count(model, **options):
    return run("search", "count", model, Options(**options))


# ---------------------------------------------------------------- csp: known answers


def test_latin_squares_4x4():
    assert count(latin(4)[0]).count == 576  # 4! * 3! * 4 reduced squares


def test_queens():
    assert count(queens(4)).count == 2
    assert count(queens(6)).count == 4


def test_x_sudoku_5x5_count():
    result = count(x_sudoku5()[0])
    assert result.status is Status.EXACT and result.count == 960


def test_x_sudoku_5x5_with_first_row_fixed():
    m, grid = x_sudoku5()
    for c in range(5):
        m.fix(grid[0][c], c + 1)
    assert count(m).count == 8  # 960 / 5! relabellings


def test_inkala_sudoku_is_unique():
    result = run("search", "solve", sudoku(INKALA), Options())
    assert result.status is Status.SOLVED and result.unique is True and result.second is None
    assert result.verified


def test_two_solutions_are_not_unique():
    result = run("search", "solve", queens(4), Options())
    assert result.unique is False and result.second != result.solution


def test_circuit_on_a_four_cycle_has_two_directions():
    result = count(tour_graph([(0, 1), (1, 2), (2, 3), (3, 0)], 4), keep=True)
    assert result.count == 2 and len(result.solutions) == 2


def test_circuit_on_complete_graph():
    edges = list(itertools.combinations(range(5), 2))
    assert count(tour_graph(edges, 5)).count == 24  # (5 - 1)! directed Hamiltonian cycles


def test_no_closed_knights_tour_on_4x4():
    edges, n = knight_graph(4, 4)
    result = run("search", "solve", tour_graph(edges, n), Options())
    assert result.status is Status.INFEASIBLE


def test_closed_knights_tour_on_6x6():
    edges, n = knight_graph(6, 6)
    result = run("search", "solve", tour_graph(edges, n), Options(time_limit=20))
    assert result.found and result.verified


def test_negative_values_and_conditions():
    m = Csp()
    x = m.add_variable("x", -3, 3)
    y = m.add_variable("y", -3, 3)
    m.require(x * x == 4)
    m.require(Or(y == x, Not(y <= 2)) & (Max(x, y) >= Min(x, y)))
    # x = -2: y = -2 or 3; x = 2: y = 2 or 3
    result = count(m, keep=True)
    assert result.count == 4
    assert {(s["x"], s["y"]) for s in result.solutions} == {(-2, -2), (-2, 3), (2, 2), (2, 3)}


def test_infeasible_csp():
    m = Csp()
    xs = [m.add_variable(f"x{i}", 1, 2) for i in range(3)]
    m.all_different(xs)
    assert run("search", "solve", m, Options()).status is Status.INFEASIBLE
    assert count(m).count == 0


def test_constant_false_condition():
    m = Csp()
    m.add_variable("x", 0, 1)
    m.require(Const(0))
    assert count(m).status is Status.EXACT and count(m).count == 0


@st.composite
def small_csps(draw):
    """2-4 variables over small domains, with random all-different groups, conditions
    and sometimes a circuit."""
    n = draw(st.integers(2, 4))
    m = Csp("random")
    names = tuple(f"v{i}" for i in range(n))
    for name in names:
        lo = draw(st.integers(-2, 1))
        m.add_variable(name, lo, lo + draw(st.integers(0, 3)))
    for _ in range(draw(st.integers(0, 2))):
        group = draw(st.lists(st.sampled_from(names), min_size=2, max_size=n, unique=True))
        m.all_different(group)
    for _ in range(draw(st.integers(0, 3))):
        m.require(draw(conditions(names)))
    if draw(st.booleans()):
        m.circuit(names)
    return m


@settings(max_examples=200, deadline=None)
@given(small_csps())
def test_count_matches_brute_force(model):
    values = [model.values(n) for n in model.names]
    want = sum(not violations(model, dict(zip(model.names, combo)))
               for combo in itertools.product(*values))
    result = count(model, keep=True)
    assert result.status is Status.EXACT and result.count == want
    solved = run("search", "solve", model, Options())
    assert solved.status is (Status.SOLVED if want else Status.INFEASIBLE)
    assert solved.unique is (want == 1 if want else None)


# ---------------------------------------------------------------- csp: limits


def test_count_limit():
    result = count(latin(4)[0], limit=10, keep=True)
    assert result.status is Status.AT_LEAST and result.count == 10 and len(result.solutions) == 10


def test_count_time_limit():
    result = count(latin(6)[0], time_limit=0.05)  # 812,851,200 squares: cannot finish
    assert result.status in (Status.AT_LEAST, Status.UNKNOWN)
    assert result.bound == (result.count or 0)


# ---------------------------------------------------------------- edge cases


def test_csp_without_variables_has_the_empty_solution():
    result = run("search", "solve", Csp(), Options())
    assert result.solution == {} and result.unique is True


def test_unknown_csp_algorithm():
    with pytest.raises(Unsupported, match="backtracking"):
        run("search", "solve", queens(4), Options(algorithm="bfs"))


# ---------------------------------------------------------------- informed search


def manhattan(model: Planning, goal: str = "123456780") -> Planning:
    """The 8-puzzle model with the sum of the tiles' Manhattan distances as its estimate."""
    home = {int(ch): i for i, ch in enumerate(goal)}
    terms = [(Var(f"c[{i}]") == tile) * (abs(i // 3 - j // 3) + abs(i % 3 - j % 3))
             for i in range(9) for tile, j in home.items() if tile]
    model.set_estimate(Sum(terms))
    return model


INFORMED = ["astar", "idastar", "wastar", "anytime"]


@settings(max_examples=15, deadline=None)
@given(scrambles())
def test_informed_searches_agree_with_bfs(start):
    model = manhattan(eight_puzzle(start))
    moves = solve(model, "bfs").steps
    for algorithm in ("astar", "idastar", "anytime"):
        result = solve(model, algorithm)
        assert result.status is Status.OPTIMAL and result.steps == moves, algorithm
    weighted = solve(model, "wastar")
    assert weighted.found and moves <= weighted.steps <= 3 * moves
    assert weighted.status is Status.SOLVED or weighted.steps == moves


@pytest.mark.parametrize("algorithm", INFORMED)
def test_informed_hardest_eight_puzzle(algorithm):
    result = solve(manhattan(eight_puzzle("867254301")), algorithm)
    assert result.verified and result.found
    if algorithm == "wastar":
        assert result.steps >= 31 and result.bound <= 31
    else:
        assert result.status is Status.OPTIMAL and result.steps == 31


@settings(max_examples=100, deadline=None)
@given(small_plannings())
def test_informed_searches_on_random_models(model):
    # no estimate: A*, IDA* and weighted A* are uniform-cost searches
    _, cost = reference_optima(model)
    for algorithm in INFORMED:
        result = solve(model, algorithm)
        if cost is None:
            assert result.status is Status.INFEASIBLE, algorithm
        else:
            assert result.status is Status.OPTIMAL and result.cost == cost, algorithm


@pytest.mark.parametrize("algorithm", ["astar", "idastar", "wastar"])
def test_informed_limit_gives_a_bound(algorithm):
    result = solve(manhattan(eight_puzzle("867254301")), algorithm, limit=300)
    assert result.status is Status.UNKNOWN and result.plan is None
    assert 21 <= result.bound <= 31  # 21: the estimate of the start; 31: the optimum
    assert "limit" in result.message


def test_anytime_returns_the_plan_and_the_bound_at_the_time_limit():
    model = manhattan(eight_puzzle("867254301"))
    result = solve(model, "anytime", limit=2_000)  # the plan needs ~750 states, A* more
    assert result.status is Status.SOLVED and result.verified and result.steps >= 31
    assert 21 <= result.bound <= 31 and "state limit" in result.message


def test_estimate_must_vanish_at_the_goal():
    model = eight_puzzle("123405786")
    model.set_estimate(Var("c[0]"))  # 1 at the goal: not admissible
    with pytest.raises(ModelError, match="it says 1 but it is a goal: .* is 0 there"):
        solve(model, "astar")  # refused by the door's audit (cpsolve.engines.estimates)


def test_informed_searches_refuse_negative_costs():
    for algorithm in INFORMED:
        with pytest.raises(ModelError, match="costs must be >= 0"):
            solve(counter(-1), algorithm)


def test_parity_rounds_bounds_up():
    # every move moves the blank one cell: plans from 867254301 have odd length
    model = manhattan(eight_puzzle("867254301"))
    model.set_parity(Sum((Var(f"c[{i}]") == 0) * (i // 3 + i % 3) for i in range(9)))
    result = solve(model, "idastar", limit=50)
    assert result.status is Status.UNKNOWN and result.bound % 2 == 1


def test_long_estimate_over_negative_domains():
    # 120 counters from -2 up to 1; the estimate 1 - x per counter is exact: 360 moves
    m = Planning("counters")
    xs = m.add_array("x", 120, -2, 1)
    m.set_initial({f"x[{i}]": -2 for i in range(120)})
    m.set_goal(And(*[x == 1 for x in xs]))
    for i, x in enumerate(xs):
        m.add_action(f"inc {i}", x < 1, {x: x + 1})
    m.set_estimate(Sum(1 - x for x in xs))
    for algorithm in ("astar", "anytime"):
        result = solve(m, algorithm)
        assert result.status is Status.OPTIMAL and result.steps == 360


def test_circuit_closing_when_no_variable_takes_the_lowest_node():
    # no successor can be node 0, so there is no circuit; the backtracker must say 0, not crash
    m = Csp()
    for i, values in enumerate([[1], [2], [3], [1, 2]]):
        m.add_variable(f"x{i}", 0, 3)
        m.restrict(f"x{i}", values)
    m.circuit([f"x{i}" for i in range(4)])
    result = run("search", "count", m, Options(algorithm="backtracking"))
    assert result.count == 0


@pytest.mark.parametrize("algorithm", ["numpy", "python"])
def test_an_analysis_from_a_goal_that_is_no_single_state_says_what_to_do(algorithm):
    """Water jugs' goal (4 L in either jug) holds in many states: there is no one state to
    go back from, and the message says to analyze from the start instead."""
    from cpsolve.puzzles.files import MODELS_DIR, load

    model = load(MODELS_DIR / "water_jugs.toml").model
    with pytest.raises(Unsupported, match="not a single state; use --from start"):
        run("search", "analyze", model, Options(direction="goal", algorithm=algorithm))
