"""Issue 26: n-dimensional variables (``shape``) and constant tables nested to any depth.

Known answers come from brute force written here (queens by permutations,
Lights Out by a BFS over bit boards) or from Python's own arithmetic; bad
input must give one line on stderr, exit 2, naming the key.
"""

from __future__ import annotations

import itertools

import pytest
from test_language import EXAMPLES, MODELS, bfs, one_error_line, orbits, queens

from cpsolve import Csp
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import count_up_to

BOARD_QUEENS = """family = "csp"
name = "queens on a board"
constraints = [
    "all(sum(x[r][c] for c in range(n)) == 1 for r in range(n))",
    "all(sum(x[r][c] for r in range(n)) == 1 for c in range(n))",
    '''all(sum(x[r][c] for r in range(n) for c in range(n) if r - c == d) <= 1
        for d in range(1 - n, n))''',
    '''all(sum(x[r][c] for r in range(n) for c in range(n) if r + c == d) <= 1
        for d in range(2 * n - 1))''',
]
show = "{x}"
[constants]
n = 5
[variables]
x = { shape = ["n", "n"], domain = [0, 1] }
[labels]
x = [".", "Q"]
[[symmetries]]
board = "x"
"""


def square_maps(n: int) -> list:
    """The 8 symmetries of the square acting on q[row] = column."""
    square = [lambda p: p, lambda p: tuple(n - 1 - v for v in p), lambda p: p[::-1],
              lambda p: tuple(p.index(r) for r in range(n))]
    return [lambda p, f=f, g=g, h=h: f(g(h(p))) for f in square for g in square for h in square]


def test_a_shape_declares_cells_row_by_row_read_as_x_r_c(write_model):
    puzzle = load(write_model("q.toml", BOARD_QUEENS))
    names = puzzle.model.names
    assert len(names) == 25 and names[:6] == ["x[0][0]", "x[0][1]", "x[0][2]", "x[0][3]",
                                              "x[0][4]", "x[1][0]"]


@pytest.mark.parametrize("engine", ["cpsat", "search", "pyconstraint"])
def test_queens_on_a_shaped_board_count_as_brute_force_says(write_model, engine):
    want = queens(5)
    puzzle = load(write_model("q.toml", BOARD_QUEENS))
    result = run(engine, "count", puzzle.model, Options(time_limit=120))
    assert result.status is Status.EXACT and result.count == len(want) == 10
    classes = count_up_to(puzzle.model, puzzle.symmetry(), "symmetry", engine)
    assert classes.count == orbits(want, square_maps(5)) == 2


def test_the_bundled_eight_queens_board_is_drawn_whole(cli):
    text = cli("solve", MODELS / "queens8.toml", "--engine", "cpsat").out
    rows = [cells.split() for cells in (line.strip("│ ") for line in text.splitlines())
            if cells and set(cells) <= {".", "Q", " "}][:8]
    assert len(rows) == 8 and all(len(r) == 8 and r.count("Q") == 1 for r in rows), text
    assert tuple(r.index("Q") for r in rows) in set(queens(8))


def test_show_draws_an_array_whole_with_labels_one_row_a_line(write_model):
    puzzle = load(write_model("q.toml", BOARD_QUEENS.replace("n = 5", "n = 4")))
    solution = {f"x[{r}][{c}]": int(c == (1, 3, 0, 2)[r]) for r in range(4) for c in range(4)}
    assert puzzle.render_solution(solution) == ". Q . .\n. . . Q\nQ . . .\n. . Q ."


def test_constant_tables_nest_to_any_depth_and_comprehensions_nest(write_model, cli):
    text = """family = "csp"
constraints = ["x == T[1][0][1] + sum(T[i][k][0] for i in range(2) for k in range(2)) + U[2][1]"]
[constants]
T = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
U = "[[i * j + 1 for j in range(3)] for i in range(3)]"
[variables]
x = [0, 100]
"""
    puzzle = load(write_model("t.toml", text))
    # 6 + (1 + 3 + 5 + 7) + (2 * 1 + 1)
    for engine in ("cpsat", "search"):
        result = run(engine, "solve", puzzle.model, Options(time_limit=30))
        assert result.answer.values == {"x": 6 + 16 + 3}


def test_a_generator_filter_stops_at_the_first_deciding_operand(write_model):
    # k >= 3 guards x[k - 3]: read eagerly, x[-3] would be out of range
    text = """family = "csp"
constraints = ["sum(x[k - 3] for k in range(6) if k >= 3 and x0[k - 3] == 1) == 2"]
[constants]
x0 = [1, 0, 1]
[variables]
x = { size = 3, domain = [0, 1] }
"""
    puzzle = load(write_model("f.toml", text))
    result = run("cpsat", "count", puzzle.model, Options(time_limit=30))
    assert result.count == 2  # x[0] = x[2] = 1, x[1] free


def test_per_cell_bounds_of_a_shaped_array_may_be_nested(write_model):
    text = """family = "csp"
[variables]
x = { shape = [2, 2], domain = [0, [[1, 2], [3, 4]]] }
"""
    model = load(write_model("b.toml", text)).model
    assert [model.domain(n) for n in model.names] == [(0, 1), (0, 2), (0, 3), (0, 4)]
    assert run("cpsat", "count", model, Options(time_limit=30)).count == 2 * 3 * 4 * 5


@pytest.mark.parametrize("spec, key", [
    ('{ shape = [2, 0], domain = [0, 1] }', "variables.x.shape"),
    ('{ shape = [2, 2], size = 4, domain = [0, 1] }', "variables.x.shape"),
    ('{ shape = "[2, 2]", domain = [0, [1, 2, 3]] }', "variables.x.domain"),
])
def test_bad_shapes_are_one_line(write_model, cli, spec, key):
    path = write_model("b.toml", f'family = "csp"\n[variables]\nx = {spec}\n')
    one_error_line(cli("solve", path), key)


def test_python_arrays_take_a_shape_and_a_board_takes_it():
    csp = Csp("queens")
    x = csp.add_array("x", (5, 5), 0, 1)
    n = 5
    for r in range(n):
        csp.require(sum((x[r][c] for c in range(n)), 0) == 1)
        csp.require(sum((x[c][r] for c in range(n)), 0) == 1)
    for d in range(-n + 1, n):
        csp.require(sum((x[r][r - d] for r in range(n) if 0 <= r - d < n), 0) <= 1)
    for d in range(2 * n - 1):
        csp.require(sum((x[r][d - r] for r in range(n) if 0 <= d - r < n), 0) <= 1)
    assert len(csp.board_symmetries(x)) == 7
    assert run("cpsat", "count", csp, Options(time_limit=30)).count == 10


LIGHTS = """family = "transition"
name = "Lights Out 3x3 on a shaped board"
goal = "all(x[r][c] == 0 for r in range(n) for c in range(n))"
show = "{x}"
[constants]
n = 3
[variables]
x = { shape = ["n", "n"], domain = [0, 1] }
[initial]
x = 1
[[actions]]
name = "press {i} {j}"
params = { i = "range(n)", j = "range(n)" }
[actions.effects]
"x[r][c]" = "1 - x[r][c] if abs(r - i) + abs(c - j) <= 1 else x[r][c]"
"""


def lights_distance(n: int) -> int:
    """Presses from all-on to all-off on an n x n board (BFS over bit boards)."""
    masks = [sum(1 << (r * n + c) for r in range(n) for c in range(n)
                 if abs(r - i) + abs(c - j) <= 1) for i in range(n) for j in range(n)]
    found = bfs((1 << n * n) - 1, lambda s: [s ^ m for m in masks], lambda s: s == 0)
    assert found is not None
    return found


def test_effects_and_goals_read_a_shaped_state(write_model):
    puzzle = load(write_model("l.toml", LIGHTS))
    want = lights_distance(3)
    for engine in ("cpsat", "search"):
        result = run(engine, "solve", puzzle.model, Options(time_limit=60))
        assert result.status is Status.OPTIMAL and result.steps == want == 5 and result.verified
    assert puzzle.render_state(puzzle.model.initial_state()) == "1 1 1\n1 1 1\n1 1 1"


LIGHTS4 = """family = "transition"
name = "Lights Out 4x4, shaped"
goal = "sum(x[r][c] for r in range(n) for c in range(n)) == 0"
show = "{x}"
[constants]
n = 4
[variables]
x = { shape = ["n", "n"], domain = [0, 1] }
[initial]
x = START
[labels]
x = [".", "#"]
[[actions]]
name = "press {i} {j}"
params = { i = "range(n)", j = "range(n)" }
[actions.effects]
"x[r][c]" = "1 - x[r][c] if abs(r - i) + abs(c - j) <= 1 else x[r][c]"
"""

UNSOLVABLE4 = [[1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]  # the tester's start
CORNERS4 = [[1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1]]


def lights_from(rows: list[list[int]]) -> int | None:
    """Fewest presses from ``rows`` to a dark board (None: never), by a BFS over the 2^16
    bit boards of 4 x 4 Lights Out."""
    n = len(rows)
    masks = [sum(1 << (r * n + c) for r in range(n) for c in range(n)
                 if abs(r - i) + abs(c - j) <= 1) for i in range(n) for j in range(n)]
    start = sum(1 << (r * n + c) for r in range(n) for c in range(n) if rows[r][c])
    return bfs(start, lambda s: [s ^ m for m in masks], lambda s: s == 0)


@pytest.mark.parametrize("rows", [UNSOLVABLE4, CORNERS4])
@pytest.mark.parametrize("written", ["nested", "flat"])
def test_a_shaped_start_is_given_as_nested_rows_or_flat(write_model, rows, written):
    start = rows if written == "nested" else [v for row in rows for v in row]
    puzzle = load(write_model("l.toml", LIGHTS4.replace("START", str(start))))
    assert puzzle.model.initial == {f"x[{r}][{c}]": rows[r][c] for r in range(4)
                                    for c in range(4)}
    want = lights_from(rows)
    # 4 x 4 Lights Out reaches only 2^12 of the 2^16 boards: the tester's start is dark-less
    assert want == (None if rows is UNSOLVABLE4 else 4)
    for engine in ("search", "cpsat"):
        result = run(engine, "solve", puzzle.model, Options(time_limit=120))
        if want is None:
            assert result.status is Status.INFEASIBLE, (engine, result)
        else:
            assert result.status is Status.OPTIMAL and result.steps == want, (engine, result)


def test_a_shaped_start_may_be_a_constant_table(write_model):
    text = LIGHTS4.replace("START", '"[[(r + c) % 2 for c in range(n)] for r in range(n)]"')
    initial = load(write_model("l.toml", text)).model.initial
    assert [initial[f"x[1][{c}]"] for c in range(4)] == [1, 0, 1, 0]


BAD_STARTS = {
    "[[1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 0], [1, 0, 0, 0]]": "row x[2] has 3 values",
    "[[1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 0, 0]]": "x has 3 rows",
    "[[1, 0, 0, 1], 0, [0, 1, 0, 0], [1, 0, 0, 0]]": "row x[1] is 0, not a list of 4 values",
    "[[1, 0, 0, 1], [0, 1, [1], 0], [0, 1, 0, 0], [1, 0, 0, 0]]": "x[1][2] is a list, not a value",
    "[1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0]": "got 15 values",
}


@pytest.mark.parametrize("start", sorted(BAD_STARTS))
def test_a_start_nested_unlike_the_shape_is_one_line(write_model, cli, start):
    path = write_model("l.toml", LIGHTS4.replace("START", start))
    one_error_line(cli("solve", path), "initial.x: expected 4 rows of 4 values (or 16 "
                                       f"values row by row); {BAD_STARTS[start]}")


@pytest.mark.parametrize("start, message", [
    ("m = 0\nx = [[[1, 0], [0, 1]], [[1, 1], [0, 0]]]", None),
    ("m = 0\nx = [[[1, 0], [0, 1]], [[1, 1], [0]]]", "initial.x: expected 2 lists of 2 rows of 2 "
     "values (or 8 values row by row); row x[1][1] has 1 value"),
    ("m = 0\nx = [[1, 0], [0, 1]]", "initial.x: expected 2 lists of 2 rows of 2 values "
     "(or 8 values row by row); row x[0][0] is 1, not a list of 2 values"),
    ("m = [1]\nx = 0", "initial.m: m is one variable: expected one value, not a list"),
    ("x = 0\ny = 1", "initial.y: not a declared variable"),
])
def test_a_start_of_three_dimensions_and_scalars(write_model, cli, start, message):
    text = """family = "transition"
goal = "m == 1"
[variables]
m = [0, 1]
x = { shape = [2, 2, 2], domain = [0, 1] }
[initial]
START
[[actions]]
name = "set"
effects = { m = "1" }
""".replace("START", start)
    path = write_model("c.toml", text)
    if message is None:
        initial = load(path).model.initial
        assert [initial[f"x[1][{r}][{c}]"] for r in range(2) for c in range(2)] == [1, 1, 0, 0]
    else:
        one_error_line(cli("solve", path), message)


def test_per_cell_bounds_are_read_as_a_start_is(write_model, cli):
    flat = 'family = "csp"\n[variables]\nx = { shape = [2, 2], domain = [0, [1, 2, 3, 4]] }\n'
    model = load(write_model("f.toml", flat)).model
    assert [model.domain(n)[1] for n in model.names] == [1, 2, 3, 4]
    ragged = flat.replace("[1, 2, 3, 4]", "[[1, 2], [3]]")
    one_error_line(cli("solve", write_model("r.toml", ragged)),
                   "variables.x.domain.hi: expected 2 rows of 2 values (or 4 values row by "
                   "row); row x[1] has 1 value")


def test_exports_take_shaped_models(write_model, tmp_path, cli):
    for name, text, kind, out in (("q.toml", BOARD_QUEENS, "minizinc", "q.mzn"),
                                  ("l.toml", LIGHTS, "pddl", "l-domain.pddl")):
        path = write_model(name, text)
        result = cli("export", "--to", kind, path, "-o", tmp_path)
        assert result.code == 0, result.err
        assert (tmp_path / out).is_file()
    assert "x_4_4" in (tmp_path / "q.mzn").read_text(encoding="utf-8")


def test_every_placement_of_a_board_is_a_permutation_brute_force():
    # the brute force the tests above rely on, checked against the classic table
    assert [len(queens(n)) for n in range(4, 9)] == [2, 10, 4, 40, 92]
    assert len(list(itertools.permutations(range(5)))) == 120


def chase_presses(n: int) -> list[int]:
    """The sizes of the press sets that switch an all-on n x n board off, by light chasing:
    any first row of presses, then each row presses under the lights left on above it."""
    sizes = []
    for first in itertools.product((0, 1), repeat=n):
        lit, presses = [[1] * n for _ in range(n)], 0
        for i in range(n):
            for j in range(n):
                if (first[j] if i == 0 else lit[i - 1][j]):
                    presses += 1
                    for r, c in ((i, j), (i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                        if 0 <= r < n and 0 <= c < n:
                            lit[r][c] ^= 1
        if not any(lit[n - 1]):
            sizes.append(presses)
    return sizes


def test_lights_out_5x5_written_with_a_sum_is_solved_by_bidirectional_search():
    from cpsolve.model.pins import goal_state

    assert lights_distance(3) == min(chase_presses(3)) == 5  # the chase agrees with a BFS
    sizes = chase_presses(5)
    assert sorted(sizes) == [15, 15, 15, 15]
    puzzle = load(EXAMPLES / "lights_out5.toml")
    assert goal_state(puzzle.model) == (0,) * 25
    assert puzzle.expected["steps"] == min(sizes)


def latin_squares(n: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every Latin square of order n on 1..n, row by row (plain backtracking)."""
    perms = list(itertools.permutations(range(1, n + 1)))
    out: list = []

    def rows(done: list) -> None:
        if len(done) == n:
            out.append(tuple(done))
            return
        for p in perms:
            if all(p[c] != r[c] for r in done for c in range(n)):
                rows(done + [p])

    rows([])
    return out


def seen(line) -> int:
    """Buildings seen along ``line``: each taller than every one before it."""
    tallest = count = 0
    for h in line:
        if h > tallest:
            count, tallest = count + 1, h
    return count


@pytest.mark.slow  # 161,280 squares: about 20 s
def test_skyscrapers_clues_have_one_solution_among_every_latin_square():
    puzzle = load(EXAMPLES / "skyscrapers5.toml")
    assert puzzle.expected == {"solve": "solved", "unique": True, "count": 1}
    left, top, bottom = (0, 0, 3, 0, 2), (0, 1, 0, 5, 0), (0, 0, 0, 0, 4)  # as in the file
    squares = latin_squares(5)
    assert len(squares) == 161_280  # the number of Latin squares of order 5

    def fits(sq) -> bool:
        cols = [tuple(row[c] for row in sq) for c in range(5)]
        return all(not k or seen(sq[r]) == k for r, k in enumerate(left)) and \
            all(not k or seen(cols[c]) == k for c, k in enumerate(top)) and \
            all(not k or seen(cols[c][::-1]) == k for c, k in enumerate(bottom))

    assert sum(fits(sq) for sq in squares) == 1


def test_all_different_groups_and_loops_over_constant_tables(write_model):
    text = """family = "csp"
all_different = ["[[x[r][c] for c in range(n)] for r in range(n)]",
                 "[[x[r][c] for r in range(n)] for c in range(n)]"]
constraints = ["all(sum(x[k // n][k % n] for k in cage[1]) == cage[0] for cage in cages)",
               "len(cages) == 2 and len(cages[1][1]) == n"]
[constants]
n = 4
cages = [[3, [0, 1]], [10, [4, 5, 6, 7]]]
[variables]
x = { shape = ["n", "n"], domain = [1, "n"] }
"""
    model = load(write_model("k.toml", text)).model
    assert sum(1 for c in model.constraints if type(c).__name__ == "AllDifferent") == 8
    want = sum(sq[0][0] + sq[0][1] == 3 for sq in latin_squares(4))
    for engine in ("cpsat", "search"):
        assert run(engine, "count", model, Options(time_limit=60)).count == want == 96


def test_a_comprehension_group_of_expressions_is_refused(write_model, cli):
    text = 'family = "csp"\nall_different = ["[x[i] + 1 for i in range(2)]"]\n' \
           '[variables]\nx = { size = 2, domain = [0, 3] }\n'
    one_error_line(cli("solve", write_model("g.toml", text)), "all_different[0]")
