"""The model language of issue 10: each feature through the CLI and the Python API.

Known answers come from small searches written here (independent of the
engines), from Python's own meaning of an operator, or from the classic
literature; bad input must give one line on stderr, exit 2, naming the key.
"""

from __future__ import annotations

import itertools
import runpy
from collections import deque
from pathlib import Path

import pytest

from cpsolve import Csp, Planning
from cpsolve.answers.check.plans import replay
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.language.expr import Var
from cpsolve.language.interpret import evaluate
from cpsolve.language.parse import constant_list, parse
from cpsolve.language.scope import variable_scope
from cpsolve.model import ModelError
from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import load
from cpsolve.puzzles.transition import shown
from cpsolve.workflows.grids.counting import count_up_to

ROOT = Path(__file__).resolve().parents[2]
MODELS, EXAMPLES = ROOT / "models", ROOT / "examples"
PLANNERS = ("cpsat", "search")


def solve_all(model) -> dict[str, object]:
    """Every planning engine's result; each must be verified when it found a plan."""
    out = {}
    for engine in PLANNERS:
        result = run(engine, "solve", model, Options(time_limit=60))
        assert result.verified or not result.found, (engine, result)
        out[engine] = result
    return out


def bfs(start, moves, goal) -> int | None:
    """Fewest moves from ``start`` to a state where ``goal`` holds (a plain BFS)."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        s = queue.popleft()
        if goal(s):
            return seen[s]
        for t in moves(s):
            if t not in seen:
                seen[t] = seen[s] + 1
                queue.append(t)
    return None


def one_error_line(run_result, key: str) -> None:
    assert run_result.code == 2, run_result
    assert len(run_result.err_lines) == 1, run_result.err
    assert key in run_result.err_lines[0] and "Traceback" not in run_result.err


TINY = """family = "transition"
goal = "{goal}"
{top}
[constants]
n = 3
[variables]
x = {{ size = "n", domain = [-5, 5] }}
[initial]
x = 0
[[actions]]
name = "step {{i}} by {{d}}"
params = {{ i = "range(n)", d = [-1, 1] }}
effects = {{ "x[i]" = "x[i] + d" }}
"""


def tiny(goal: str = "x[0] == 2", top: str = "") -> str:
    return TINY.format(goal=goal, top=top)


# ---------------------------------------------------------------- // and %


@pytest.mark.parametrize("text, meaning", [
    ("a // 3", lambda a: a // 3),
    ("a % 3", lambda a: a % 3),
    ("(a - 2) // 4 + a % 2", lambda a: (a - 2) // 4 + a % 2),
    ("-a % 5", lambda a: -a % 5),
])
def test_floor_division_and_remainder_mean_what_python_means(text, meaning):
    expr = parse(text, variable_scope(["a"]))
    for a in range(-9, 10):
        assert evaluate(expr, {"a": a}) == meaning(a), (text, a)


def test_every_engine_reaches_a_goal_written_with_floor_division(write_model):
    # x[0] // 2 == -2 and x[0] % 2 == 1 holds for x[0] = -3 only (Python's meaning):
    # 3 unit steps from 0
    model = load(write_model("m.toml", tiny("x[0] // 2 == -2 and x[0] % 2 == 1"))).model
    for engine, result in solve_all(model).items():
        assert result.status is Status.OPTIMAL and result.steps == 3, engine


def test_python_api_divides_by_positive_constants_only():
    a = Var("a")
    assert evaluate(a // 4, {"a": -1}) == -1 and evaluate(a % 4, {"a": -1}) == 3
    for bad in (lambda: a // 0, lambda: a % -2, lambda: a // a):
        with pytest.raises(ValueError, match="positive constant"):
            bad()


def test_a_variable_divisor_is_refused_naming_the_key(write_model, cli):
    path = write_model("m.toml", tiny("x[0] // x[1] == 1"))
    one_error_line(cli("solve", path), "goal")


# ---------------------------------------------------------------- multi-line, constants


def test_a_multi_line_expression_needs_no_parentheses(write_model):
    text = tiny('''x[0] == 1 and   # a comment
    x[1] == -1''').replace('goal = "x[0] == 1', 'goal = """x[0] == 1').replace(
        'x[1] == -1"', 'x[1] == -1"""')
    model = load(write_model("m.toml", text)).model
    for result in solve_all(model).values():
        assert result.steps == 2


def test_constant_lists_are_written_as_in_python():
    scope = {"n": parse("4", {})}
    values = {"range(n)": [0, 1, 2, 3], "range(1, n)": [1, 2, 3], "[0] * n": [0, 0, 0, 0],
              "[i * i for i in range(n)]": [0, 1, 4, 9], "[1, 2] + [n]": [1, 2, 4]}
    for text, want in values.items():
        got = constant_list(text, scope)
        assert [evaluate(v, {}) for v in got] == want, text


@pytest.mark.parametrize("discs", [2, 3, 5])
def test_hanoi_depends_on_its_disc_count_in_one_place(write_model, discs):
    text = (MODELS / "hanoi4.toml").read_text(encoding="utf-8").replace(
        "discs = 4", f"discs = {discs}").split("[expected]")[0]
    model = load(write_model("h.toml", text)).model
    assert len(model.names) == discs and len(model.actions) == 3 * discs
    result = run("search", "solve", model)
    assert result.status is Status.OPTIMAL and result.steps == 2 ** discs - 1


def test_per_cell_domains_give_each_jug_its_capacity():
    model = load(MODELS / "three_jugs.toml").model
    assert [model.domain(n) for n in model.names] == [(0, 8), (0, 5), (0, 3)]


def test_three_jugs_split_in_seven_pourings_by_an_independent_search():
    cap = (8, 5, 3)

    def pours(s):
        for i, j in itertools.permutations(range(3), 2):
            amount = min(s[i], cap[j] - s[j])
            if amount:
                t = list(s)
                t[i] -= amount
                t[j] += amount
                yield tuple(t)

    assert bfs((8, 0, 0), pours, lambda s: s[0] == s[1] == 4) == 7
    for result in solve_all(load(MODELS / "three_jugs.toml").model).values():
        assert result.status is Status.OPTIMAL and result.steps == 7


def test_parameters_may_use_earlier_ones(write_model):
    text = tiny().replace('params = { i = "range(n)", d = [-1, 1] }',
                          'params = { i = "range(n)", d = "range(i + 1, n)" }').replace(
        "x[i] + d", "x[i] + 1")
    model = load(write_model("m.toml", text)).model
    assert sorted(a.name for a in model.actions) == ["step 0 by 1", "step 0 by 2",
                                                     "step 1 by 2"]


# ---------------------------------------------------------------- forbid / invariant


def river_moves(n: int, seats: int):
    def moves(s):
        m, c, b = s
        sign = -1 if b == 0 else 1
        for dm in range(seats + 1):
            for dc in range(seats + 1 - dm):
                if dm + dc:
                    t = (m + sign * dm, c + sign * dc, 1 - b)
                    if 0 <= t[0] <= n and 0 <= t[1] <= n and safe(t):
                        yield t

    def safe(s):
        m, c, _ = s
        return not (0 < m < c) and not (0 < n - m < n - c)

    return moves


def test_missionaries_and_cannibals_take_eleven_crossings_every_way():
    assert bfs((3, 3, 0), river_moves(3, 2), lambda s: s == (0, 0, 1)) == 11
    model = load(MODELS / "missionaries.toml").model
    assert len(model.forbidden) == 2
    for result in solve_all(model).values():
        assert result.status is Status.OPTIMAL and result.steps == 11
    for result in solve_all(runpy.run_path(str(EXAMPLES / "river.py"))["build"]().model).values():
        assert result.status is Status.OPTIMAL and result.steps == 11


def test_missionaries_state_space_counted_backwards_from_the_goal():
    n, moves = 3, river_moves(3, 2)
    safe = [(m, c, b) for m in range(n + 1) for c in range(n + 1) for b in (0, 1)
            if not (0 < m < c) and not (0 < n - m < n - c)]
    dist, queue = {(0, 0, 1): 0}, deque([(0, 0, 1)])
    while queue:
        t = queue.popleft()
        for p in safe:
            if p not in dist and t in set(moves(p)):
                dist[p] = dist[t] + 1
                queue.append(p)
    far = max(dist.values())
    assert (len(safe), len(dist), far) == (20, 16, 12)
    assert [s for s, d in dist.items() if d == far] == [(3, 2, 1)]
    want = load(MODELS / "missionaries.toml").expected
    assert (want["states"], want["max_distance"], want["farthest"]) == (16, 12, 1)


def test_four_couples_with_a_boat_of_two_cannot_cross():
    assert bfs((4, 4, 0), river_moves(4, 2), lambda s: s == (0, 0, 1)) is None
    model = runpy.run_path(str(EXAMPLES / "river.py"))["build"](4, 2).model
    for result in solve_all(model).values():
        assert result.status is Status.INFEASIBLE


def test_farmer_wolf_goat_cabbage_two_plans_of_seven():
    def moves(s):
        for x in range(4):
            if s[x] == s[0]:
                t = tuple(1 - v if k in (0, x) else v for k, v in enumerate(s))
                if not (t[1] == t[2] != t[0] or t[2] == t[3] != t[0]):
                    yield t

    assert bfs((0, 0, 0, 0), moves, lambda s: s == (1, 1, 1, 1)) == 7
    model = load(MODELS / "farmer.toml").model
    for engine in PLANNERS:
        result = run(engine, "count", model, Options(time_limit=60))
        assert result.count == 2, engine


def test_without_forbid_the_river_is_easier():
    """The forbidden states are what make the puzzle: dropped, 3 + 3 cross in 9."""
    text = (MODELS / "missionaries.toml").read_text(encoding="utf-8")
    model = load(MODELS / "missionaries.toml").model
    model.forbidden.clear()
    assert "forbid" in text
    for result in solve_all(model).values():
        # 4 round trips carry one person net each, then one crossing carries the last 2
        assert result.steps == 9


def test_the_checker_refuses_a_plan_through_a_forbidden_state():
    model = load(MODELS / "missionaries.toml").model
    first = next(a.name for a in model.actions if a.name.startswith("2M 0C"))
    verdict = replay(model, [first])
    assert not verdict and "forbidden" in verdict.message and verdict.step == 1


def test_a_forbidden_initial_state_is_refused_naming_the_key(write_model, cli):
    path = write_model("m.toml", tiny(top='forbid = ["x[1] == 1", "x[0] == 0"]'))
    one_error_line(cli("solve", path), "forbid[1]")
    path = write_model("i.toml", tiny(top='invariant = ["x[2] > 0"]'))
    one_error_line(cli("solve", path), "invariant[0]")


def test_an_invariant_is_kept_by_every_engine(write_model):
    # x[0] + x[1] <= 1 forever: x[0] = 2 needs x[1] = -1 first; 3 steps
    model = load(write_model("m.toml", tiny(top='invariant = ["x[0] + x[1] <= 1"]'))).model
    for result in solve_all(model).values():
        assert result.steps == 3


def test_python_api_forbid_and_invariant():
    model = Planning("p")
    x = model.add_variable("x", 0, 5)
    model.set_initial({"x": 0})
    model.set_goal(x == 4)
    model.add_action("up", True, {x: x + 1})
    model.add_action("jump", True, {x: x + 2})
    model.forbid(x == 2)
    model.invariant(x != 3, "never three")
    # 0 -> 1 -> ... 2 and 3 are forbidden: no way to 4
    for result in solve_all(model).values():
        assert result.status is Status.INFEASIBLE
    model.forbidden.pop()
    for result in solve_all(model).values():  # 0 -> 1 -> 3 -> 4 or 0 -> 1 -> 3 -> 5...
        assert result.steps == 3
    bad = Planning("q")
    y = bad.add_variable("y", 0, 1)
    bad.set_initial({"y": 0})
    bad.set_goal(y == 1)
    bad.add_action("flip", True, {y: 1 - y})
    bad.forbid(y == 0)
    with pytest.raises(ModelError, match="initial state is forbidden"):
        bad.validate()


# ---------------------------------------------------------------- effects written once


def test_lights_out_writes_only_the_cells_a_press_toggles():
    model = load(EXAMPLES / "lights_out.toml").model
    toggled = {i: sum(abs(k // 3 - i // 3) + abs(k % 3 - i % 3) <= 1 for k in range(9))
               for i in range(9)}
    assert {int(a.name.split()[1]): len(a.effects) for a in model.actions} == toggled


def test_lights_out_all_on_needs_five_presses_by_brute_force():
    def press(board, i):
        return tuple(1 - v if abs(k // 3 - i // 3) + abs(k % 3 - i % 3) <= 1 else v
                     for k, v in enumerate(board))

    fewest = min(len(s) for r in range(10) for s in itertools.combinations(range(9), r)
                 if _pressed((1,) * 9, s, press) == (0,) * 9)
    assert fewest == 5
    for result in solve_all(load(EXAMPLES / "lights_out.toml").model).values():
        assert result.steps == 5


def _pressed(board, cells, press):
    for i in cells:
        board = press(board, i)
    return board


def test_an_effect_with_a_constant_when_is_kept_or_dropped(write_model):
    text = tiny().replace('effects = { "x[i]" = "x[i] + d" }',
                          'effects = { "x[i]" = { value = "x[i] + d", when = "d > 0" }, '
                          '"x[(i + 1) % n]" = { value = "0", when = "d < 0" } }')
    model = load(write_model("m.toml", text)).model
    effects = {a.name: [v for v, _ in a.effects] for a in model.actions}
    assert effects["step 1 by 1"] == ["x[1]"] and effects["step 1 by -1"] == ["x[2]"]


def test_an_action_whose_every_effect_is_dropped_is_refused(write_model):
    """It would change nothing (a no-op, or a free loop at cost 0): an action must change
    the state.  d takes -1 first, so step 0 by -1 is the first such action."""
    text = tiny().replace('effects = { "x[i]" = "x[i] + d" }',
                          'effects = { "x[i]" = { value = "x[i] + d", when = "d > 0" } }')
    with pytest.raises(ModelFileError) as info:
        load(write_model("m.toml", text))
    assert info.value.key == "actions[0].effects"
    assert "action 'step 0 by -1' changes nothing: an action must change the state" \
        in info.value.message
    assert info.value.message.endswith("or leave out, with where, the parameters whose when "
                                       "drops every effect")  # the other way to mend it


def test_an_action_whose_only_effect_keeps_its_variable_is_refused_without_a_where_hint(
        write_model):
    """``x = "x"`` keeps the variable as it was: no effect, no ``when`` to blame, so the
    message does not point at ``where``."""
    text = tiny().replace('effects = { "x[i]" = "x[i] + d" }', 'effects = { "x[i]" = "x[i]" }')
    with pytest.raises(ModelFileError) as info:
        load(write_model("m.toml", text))
    assert "changes nothing" in info.value.message and "where" not in info.value.message


@pytest.mark.parametrize("value", ["x[i] + 0", "x[i] * 1", "x[i] - 0", "0 + x[i]",
                                   "x[i] + (n - 3)", "x[i] if x[0] > 0 else x[i] * 1"])
def test_an_effect_that_folds_to_its_variable_keeps_it(write_model, value):
    """``x = "x + 0"`` (or ``* 1``, ``- 0``, an ``if`` whose two branches are both) was a
    change, where ``x = "x"`` is none: the model's folding sees that each keeps the
    variable, so the action, without another effect, changes nothing."""
    text = tiny().replace('effects = { "x[i]" = "x[i] + d" }',
                          f'effects = {{ "x[i]" = "{value}" }}')
    with pytest.raises(ModelFileError) as info:
        load(write_model("m.toml", text))
    assert info.value.key == "actions[0].effects"
    assert "action 'step 0 by -1' changes nothing" in info.value.message


def test_an_effect_that_folds_to_its_variable_is_left_out_beside_a_change(write_model):
    text = tiny().replace('effects = { "x[i]" = "x[i] + d" }',
                          'effects = { "x[i]" = "x[i] * 1", '
                          '"x[(i + 1) % n]" = "x[(i + 1) % n] + d" }')
    model = load(write_model("m.toml", text)).model
    assert [v for v, _ in model.actions[0].effects] == ["x[1]"]


RISE = """family = "transition"
goal = "x == GOAL"
[variables]
x = [0, 4]
[initial]
x = 0
[[actions]]
name = "up"
effects = { x = { value = "x + 1", when = "x < 2" } }
"""


def test_an_effect_with_a_state_when_keeps_the_old_value_when_false(write_model):
    model = load(write_model("m.toml", RISE.replace("GOAL", "2"))).model
    for result in solve_all(model).values():
        assert result.steps == 2
    model = load(write_model("n.toml", RISE.replace("GOAL", "3"))).model  # x stops at 2
    for result in solve_all(model).values():
        assert result.status is Status.INFEASIBLE


@pytest.mark.parametrize("effects", [
    '{ "x[i]" = "x[i] + d", "x[0]" = "1" }',
    '{ "x[k]" = "x[k] + d if k == i else x[k]", "x[1]" = "0" }',
    '{ "x[i]" = "x[i] + d", "x[k]" = { value = "0", when = "k == i" } }',
])
def test_two_effects_on_one_variable_are_an_error_however_written(write_model, cli, effects):
    text = tiny().replace('effects = { "x[i]" = "x[i] + d" }', f"effects = {effects}")
    result = cli("solve", write_model("m.toml", text))
    one_error_line(result, "effects")
    assert "second effect" in result.err
    assert "action 'step " in result.err  # the action instance at fault, by its name


# ---------------------------------------------------------------- show without subclassing


def test_a_python_model_gets_a_show_template():
    model = Planning("jugs")
    jug = model.add_array("jug", 2, 0, 5)
    model.set_initial({j.name: 0 for j in jug})
    model.set_goal(jug[0] == 1)
    puzzle = shown(model, "{jug[0]} L | {jug[1]} L, total {jug[0] + jug[1]}",
                   labels={"jug": ["empty", "one", "two", "three", "four", "full"]})
    assert puzzle.render_state((0, 3)) == "empty L | three L, total 3"
    with pytest.raises(Exception, match="unknown name"):
        shown(model, "{jugs[0]}")


def test_a_python_file_returning_a_shown_model_is_drawn_by_the_cli(cli):
    result = cli("solve", EXAMPLES / "river.py", "--engine", "search")
    assert result.code == 0 and "left 0M 0C | boat right | right 3M 3C" in result.out


# ---------------------------------------------------------------- misplaced keys


def test_a_top_level_key_after_a_table_gets_a_hint(write_model, cli):
    text = tiny().replace('goal = "x[0] == 2"\n', "") + 'goal = "x[0] == 2"\n'
    result = cli("solve", write_model("m.toml", text))
    one_error_line(result, "actions[0].goal")  # in the first (and only) [[actions]] table
    assert "top-level key" in result.err and "[[actions]]" in result.err
    text = tiny().replace('goal = "x[0] == 2"\n', "").replace(
        "[initial]\nx = 0\n", '[initial]\nx = 0\ngoal = "x[0] == 2"\n')
    result = cli("solve", write_model("n.toml", text))
    one_error_line(result, "initial.goal")
    assert "top-level key" in result.err


# ---------------------------------------------------------------- csp symmetries


def queens(n: int) -> list[tuple[int, ...]]:
    """Every solution as q[row] = column (plain brute force)."""
    return [p for p in itertools.permutations(range(n))
            if all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))]


def orbits(solutions, maps) -> int:
    seen, count = set(), 0
    for s in solutions:
        if s not in seen:
            count += 1
            seen |= {f(s) for f in maps}
    return count


def test_queens8_board_has_12_classes_of_92():
    n = 8
    square = [lambda p: p, lambda p: tuple(n - 1 - v for v in p), lambda p: p[::-1],
              lambda p: tuple(p.index(r) for r in range(n))]  # identity, mirrors, transpose
    # words of length 3 in two mirrors and the transpose: all 8 symmetries of the square
    sols = queens(n)
    closure = [lambda p, f=f, g=g, h=h: f(g(h(p))) for f in square for g in square
               for h in square]
    assert len(sols) == 92 and orbits(sols, closure) == 12
    puzzle = load(MODELS / "queens8.toml")
    result = count_up_to(puzzle.model, puzzle.symmetry(), "symmetry", "cpsat")
    assert result.count == 12 and result.details["total"] == 92


QUEENS_Q = """family = "csp"
name = "queens, one variable per row"
all_different = [["q"]]
constraints = ["all(abs(q[i] - q[j]) != j - i for i in range(n) for j in range(i + 1, n))"]
[constants]
n = {n}
[variables]
q = {{ size = "n", domain = [0, "n - 1"] }}
{symmetries}
"""
MIRRORS = """[[symmetries]]
name = "left-right mirror"
values = "n - 1 - v"
[[symmetries]]
name = "top-bottom mirror"
variables = { "q[i]" = "q[n - 1 - i]" }
"""


@pytest.mark.parametrize("n", [6, 7, 8])
def test_mirrors_with_value_maps_count_as_an_independent_count_says(write_model, cli, n):
    mirrors = [lambda p: p, lambda p: tuple(n - 1 - v for v in p), lambda p: p[::-1],
               lambda p: tuple(n - 1 - v for v in p[::-1])]
    want = orbits(queens(n), mirrors)
    path = write_model("q.toml", QUEENS_Q.format(n=n, symmetries=MIRRORS))
    puzzle = load(path)
    assert len(puzzle.symmetry().perms) == 4
    result = count_up_to(puzzle.model, puzzle.symmetry(), "symmetry", "cpsat")
    assert result.count == want and result.details["total"] == len(queens(n))
    out = cli("count", path, "--up-to", "symmetry")
    assert out.code == 0 and f"{want} classes" in out.out


def test_a_declared_symmetry_that_breaks_a_constraint_is_refused(write_model, cli):
    shift = '[[symmetries]]\nname = "shift"\nvalues = "(v + 1) % n"\n'
    result = cli("count", write_model("q.toml", QUEENS_Q.format(n=6, symmetries=shift)))
    one_error_line(result, "symmetries[0]")
    assert "abs(q[i] - q[j])" in result.err and "shift" in result.err
    board = ('[[symmetries]]\nboard = "q"\nrows = 2\n')
    result = cli("count", write_model("b.toml", QUEENS_Q.format(n=6, symmetries=board)))
    one_error_line(result, "symmetries[0]")


@pytest.mark.parametrize("size", [3, 6])
def test_a_1d_board_that_is_not_a_square_needs_its_rows(write_model, cli, size):
    """3 or 6 cells make no square: no layout (one row, 2 x 3) is guessed; with the rows
    given, 6 cells are a 2 x 3 board (a rectangle: identity, half turn and two mirrors)."""
    text = (f'family = "csp"\nconstraints = ["sum(x[i] for i in range({size})) == 1"]\n'
            f'[variables]\nx = {{ size = {size}, domain = [0, 1] }}\n'
            '[[symmetries]]\nboard = "x"\n')
    result = cli("count", write_model("x.toml", text), "--up-to", "symmetry")
    one_error_line(result, "symmetries[0]")
    assert f"x has {size} cells, not a square: give rows = R" in result.err
    if size == 6:
        rows = load(write_model("r.toml", text + "rows = 2\n"))
        assert len(rows.model.symmetries) == 3


def test_the_python_api_declares_board_symmetries():
    n = 5
    csp = Csp("5 queens on a board")
    x = csp.add_array("x", n * n, 0, 1)
    for k in range(n):
        csp.require(sum((x[k * n + c] for c in range(n)), 0) == 1, f"row {k}")
        csp.require(sum((x[r * n + k] for r in range(n)), 0) == 1, f"column {k}")
    for d in range(-n + 1, n):
        csp.require(sum((x[r * n + c] for r in range(n) for c in range(n) if r - c == d), 0)
                    <= 1, f"diagonal {d}")
        csp.require(sum((x[r * n + c] for r in range(n) for c in range(n) if r + c == d + n - 1),
                        0) <= 1, f"anti-diagonal {d}")
    csp.board_symmetries(x, rows=n)
    from cpsolve.model.symmetry.declared import declared_symmetry

    result = count_up_to(csp, declared_symmetry(csp), "symmetry", "cpsat")
    assert result.details["total"] == len(queens(n)) == 10
    square = [lambda p: p, lambda p: tuple(n - 1 - v for v in p), lambda p: p[::-1],
              lambda p: tuple(p.index(r) for r in range(n))]
    closure = [lambda p, f=f, g=g, h=h: f(g(h(p))) for f in square for g in square
               for h in square]
    assert result.count == orbits(queens(n), closure) == 2
    with pytest.raises(ModelError, match="not square"):
        csp.board_symmetries(x[:10], rows=2, use=["quarter turn clockwise"])
    with pytest.raises(ModelError, match="x has 10 cells, not a square: give rows = R"):
        csp.board_symmetries(x[:10])  # rows not given: a square, and 10 cells make none


def test_generation_uses_the_declared_board_symmetries(write_model):
    """5 queens on a 25-cell board: puzzles (cells given 0 or 1) with one solution, counted
    here by brute force over the 10 solutions and the square's 8 symmetries."""
    n = 5
    text = (ROOT / "docs" / "families" / "csp.md").read_text(encoding="utf-8")
    block = next(b.split("```")[0] for b in text.split("```toml\n")[1:]
                 if 'name = "5 queens' in b.split("```")[0])
    puzzle = load(write_model("q5.toml", block))
    boards = [tuple(int(p[r] == c) for r in range(n) for c in range(n)) for p in queens(n)]
    moves = [lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
             lambda r, c: (n - 1 - c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
             lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r)]
    maps = [[m(i // n, i % n)[0] * n + m(i // n, i % n)[1] for i in range(n * n)] for m in moves]
    from cpsolve.workflows.grids.generator import Generator

    gen = Generator(puzzle.model, puzzle.symmetry(), "cpsat")
    for k in (1, 2):
        unique, classes = 0, set()
        for cells in itertools.combinations(range(n * n), k):
            for values in itertools.product((0, 1), repeat=k):
                if sum(all(b[c] == v for c, v in zip(cells, values)) for b in boards) == 1:
                    unique += 1
                    classes.add(min(tuple(sorted((m[c], v) for c, v in zip(cells, values)))
                                    for m in maps))
        tally = gen.every(k, puzzles=False).tally
        assert (tally.classes, tally.labelled) == (len(classes), unique), k


def test_domains_and_initial_values_may_be_list_expressions(write_model):
    text = (MODELS / "three_jugs.toml").read_text(encoding="utf-8").split("[expected]")[0]
    text = text.replace('domain = [0, "cap"]', 'domain = [0, "[8, 5, 3]"]').replace(
        "jug = [8, 0, 0]", 'jug = "[cap[0]] + [0] * 2"')
    model = load(write_model("j.toml", text)).model
    assert [model.domain(n) for n in model.names] == [(0, 8), (0, 5), (0, 3)]
    assert model.initial_state() == (8, 0, 0)
    assert run("search", "solve", model).steps == 7


@pytest.mark.parametrize("labels, what", [
    ('x = ["."]', "1 label for the values 0..1 of x"),
    ('x = "."', "expected a list of labels"),
    ('i = ["first"]', "1 label for parameter i, which takes the value 1"),
])
def test_labels_must_name_every_value(write_model, cli, labels, what):
    """A label list names the values 0, 1, ... in order: one shorter than the values a
    variable or parameter takes would draw some values as labels and others as numbers."""
    text = ('family = "transition"\ngoal = "x == 1"\n[variables]\nx = [0, 1]\n'
            '[initial]\nx = 0\n[[actions]]\nname = "set {i}"\nparams = { i = [0, 1] }\n'
            'effects = { x = "i" }\n[labels]\n' + labels + "\n")
    result = cli("solve", write_model("m.toml", text))
    one_error_line(result, "labels.")
    assert what in result.err
    with pytest.raises(ModelError, match="labels"):
        model = Planning("two")
        model.add_variable("x", 0, 1)
        shown(model, labels={"x": ["."]})


def test_a_rule_over_several_lines_is_said_on_one_line(write_model):
    """golomb6's rule, written over two lines, broke validate's message in the middle (with
    its indentation); a comment inside a rule ran on into the next line's text."""
    path = write_model("two.toml", 'family = "csp"\nconstraints = ["""x[0] != x[1]   # ünï\n'
                                   '     and x[1] != x[2]"""]\n'
                                   '[variables]\nx = { size = 3, domain = [0, 2] }\n')
    labels = {c.label for c in load(path).model.constraints}
    assert labels == {"x[0] != x[1] and x[1] != x[2]"}
