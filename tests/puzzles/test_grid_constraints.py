"""Issue 26: grid ``constraints`` (cages, inequalities, clues) over ``cell[r][c]``.

Known answers come from searches written here, apart from cpsolve: KenKen by
a cell-by-cell backtracking over rows, columns and cages read from the TOML
table itself; inequality grids by filtering every Latin square of order 4.
"""

from __future__ import annotations

import itertools
import math
import shutil
import tomllib
from pathlib import Path

import pytest
from test_language import one_error_line

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.language.expr import Var
from cpsolve.language.interpret import evaluate
from cpsolve.language.parse import parse
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import count_up_to

KENKEN = Path(__file__).resolve().parents[2] / "examples" / "kenken6.toml"
ENGINES = ["search", "cpsat", "pyconstraint",
           *(["minizinc"] if shutil.which("minizinc") else [])]


def latin_fill(n: int, fits, limit: int = 10) -> list[list[list[int]]]:
    """Latin squares of order ``n`` (at most ``limit``), filled cell by cell in reading
    order; ``fits(grid, r, c)`` judges the value just written at (r, c), the cells after it
    still 0."""
    grid = [[0] * n for _ in range(n)]
    found: list[list[list[int]]] = []

    def fill(k: int) -> None:
        if len(found) >= limit:
            return
        if k == n * n:
            found.append([row[:] for row in grid])
            return
        r, c = divmod(k, n)
        for v in range(1, n + 1):
            if v in grid[r][:c] or any(grid[i][c] == v for i in range(r)):
                continue
            grid[r][c] = v
            if fits(grid, r, c):
                fill(k + 1)
            grid[r][c] = 0

    fill(0)
    return found


def kenken_solutions(path: Path, limit: int = 10) -> list[list[list[int]]]:
    """Every solution (at most ``limit``) of the KenKen file, by backtracking cell by
    cell; a cage is checked when its last cell (in reading order) is filled."""
    table = tomllib.loads(path.read_text())["constants"]
    n, cage, ops, targets = len(table["cage"]), table["cage"], table["op"], table["target"]
    members = [[(r, c) for r in range(n) for c in range(n) if cage[r][c] == k]
               for k in range(len(ops))]
    rule = {0: sum, 1: math.prod, 2: lambda v: max(v) - min(v),
            3: lambda v: max(v) // min(v) if max(v) % min(v) == 0 else -1}

    def fits(grid: list[list[int]], r: int, c: int) -> bool:
        cells = members[cage[r][c]]
        return (r, c) != cells[-1] or \
            rule[ops[cage[r][c]]]([grid[i][j] for i, j in cells]) == targets[cage[r][c]]

    return latin_fill(n, fits, limit)


def latin_squares(n: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every Latin square of order ``n`` (576 for n = 4), row by row from permutations."""
    rows = list(itertools.permutations(range(1, n + 1)))
    out: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(n):
        out = [sq + (row,) for sq in out for row in rows
               if all(row[c] != prev[c] for prev in sq for c in range(n))]
    return out


def test_the_independent_search_finds_one_kenken_solution():
    found = kenken_solutions(KENKEN)
    assert len(found) == 1
    assert found[0][0] == [5, 6, 4, 1, 2, 3]  # row 1 of the grid the cages were cut from


def rules_lines(text: str) -> list[str]:
    """A model file's lines before its ``[picture]`` (which only draws the puzzle)."""
    return text.split("\n[picture]")[0].splitlines()


def test_the_kenken_file_is_short_and_uses_all_four_operations():
    text = KENKEN.read_text()
    assert len(rules_lines(text)) <= 25
    assert set(tomllib.loads(text)["constants"]["op"]) == {0, 1, 2, 3}


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_finds_the_one_kenken_solution(engine):
    want = kenken_solutions(KENKEN)
    puzzle = load(KENKEN)
    counted = run(engine, "count", puzzle.model, Options(time_limit=60))
    assert counted.status is Status.EXACT and counted.answer.count == len(want) == 1
    solved = run(engine, "solve", puzzle.model, Options(time_limit=60))
    assert solved.verified
    values = solved.answer.values
    assert [[values[f"cell[{r}][{c}]"] for c in range(6)] for r in range(6)] == want[0]


FUTOSHIKI = """family = "grid"
size = 4
constraints = [{rules}]
[constants]
{constants}
"""


@pytest.mark.parametrize(("rules", "constants", "keep"), [
    ('"cell[0][0] < cell[0][1]", "cell[1][2] > cell[2][2]"', "",
     lambda s: s[0][0] < s[0][1] and s[1][2] > s[2][2]),
    # the same kind of clue, written once for a table of them by comprehension
    ('"all(cell[p[0]][p[1]] < cell[p[2]][p[3]] for p in less)"',
     "less = [[0, 0, 0, 1], [3, 3, 2, 3], [1, 1, 1, 2]]",
     lambda s: s[0][0] < s[0][1] and s[3][3] < s[2][3] and s[1][1] < s[1][2]),
    ('"sum(cell[r][r] for r in range(size)) == diagonal"', "diagonal = 10",
     lambda s: sum(s[r][r] for r in range(4)) == 10),
])
@pytest.mark.parametrize("engine", ["search", "cpsat", "pyconstraint"])
def test_constraints_count_as_filtering_every_latin_square(write_model, rules, constants,
                                                           keep, engine):
    want = sum(1 for s in latin_squares(4) if keep(s))
    puzzle = load(write_model("g.toml", FUTOSHIKI.format(rules=rules, constants=constants)))
    result = run(engine, "count", puzzle.model, Options(time_limit=60))
    assert result.status is Status.EXACT and result.answer.count == want


def test_latin_squares_of_order_4_are_576():
    assert len(latin_squares(4)) == 576  # 4! * 3! * 4 (the standard count)


def test_constraints_keep_only_the_symmetries_that_map_them_onto_themselves(write_model):
    kenken = load(KENKEN).symmetry()
    assert kenken.names == ("identity",) and not kenken.relabel
    # the main diagonal summing to 10 is kept by the 4 symmetries that keep that diagonal
    puzzle = load(write_model("g.toml", FUTOSHIKI.format(
        rules='"sum(cell[r][r] for r in range(size)) == 10"', constants="")))
    sym = puzzle.symmetry()
    assert set(sym.names) == {"identity", "half turn", "main-diagonal mirror",
                              "anti-diagonal mirror"} and not sym.relabel
    # classes, counted here: squares with the diagonal summing to 10, up to those 4 moves
    moves = [lambda s: s, lambda s: tuple(tuple(s[3 - r][3 - c] for c in range(4))
                                           for r in range(4)),
             lambda s: tuple(tuple(s[c][r] for c in range(4)) for r in range(4)),
             lambda s: tuple(tuple(s[3 - c][3 - r] for c in range(4)) for r in range(4))]
    squares = [s for s in latin_squares(4) if sum(s[r][r] for r in range(4)) == 10]
    want = len({min(m(s) for m in moves) for s in squares})
    classes = count_up_to(puzzle.model, sym, "symmetry", "cpsat", Options(time_limit=60))
    assert classes.count == want


def test_prod_multiplies_a_generator():
    scope = {"x": [Var("x[0]"), Var("x[1]"), Var("x[2]")]}
    expr = parse("prod(x[i] for i in range(3))", scope)
    assert evaluate(expr, {"x[0]": 2, "x[1]": 3, "x[2]": 7}) == 42
    assert evaluate(parse("prod(x[i] for i in range(0))", scope), {}) == 1


@pytest.mark.parametrize(("top", "constants", "key"), [
    ('constraints = ["cell[0][0] + 1"]', "", "constraints[0]"),
    ('constraints = ["cell[9][0] == 1"]', "", "constraints[0]"),
    ('constraints = [3]', "", "constraints[0]"),
    ('constraints = ["cell[0][0] == size"]', "size = 3", "constants.size"),
    ('constraints = ["cell[0][0] == k"]', 'k = "nope + 1"', "constants.k"),
])
def test_bad_grid_constraints_are_one_line(write_model, cli, top, constants, key):
    text = f'family = "grid"\nsize = 4\n{top}\n[constants]\n{constants}\n'
    one_error_line(cli("solve", write_model("g.toml", text)), key)


def test_the_futoshiki_of_the_grid_docs_has_one_solution():
    text = (Path(__file__).resolve().parents[2] / "docs" / "families" / "grid.md").read_text()
    less = tomllib.loads(text.split("```toml")[2].split("```")[0])["constants"]["less"]
    found = [s for s in latin_squares(4)
             if all(s[a][b] < s[c][d] for a, b, c, d in less)]
    assert len(found) == 1


@pytest.mark.parametrize("name", ["kenken6.toml", "skyscrapers5.toml"])
def test_the_latin_square_puzzles_are_at_most_25_lines(name):
    path = KENKEN.parent / name
    assert len(rules_lines(path.read_text())) <= 25
    assert load(path).expected == {"solve": "solved", "unique": True, "count": 1}
