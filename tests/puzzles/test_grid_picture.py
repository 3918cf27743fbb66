"""A grid file's ``[picture]``: regions, notes and signs read and checked, hostile values
refused in one line naming the key, signs on the text board (and read back from it).

Expected values come from small boards worked out by hand in each test, and the
Futoshiki example's count from a backtracking search written here, apart from cpsolve.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from test_grid_constraints import latin_fill
from test_language import one_error_line

from cpsolve.puzzles.files import load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FUTOSHIKI = EXAMPLES / "futoshiki5.toml"
KENKEN = EXAMPLES / "kenken6.toml"

GRID3 = """family = "grid"
size = 3
[constants]
less = [[0, 0, 0, 1], [2, 2, 1, 2]]
[picture]
{picture}
"""


def futoshiki_solutions(path: Path, limit: int = 10) -> list[list[list[int]]]:
    """Every solution (at most ``limit``) of a Futoshiki file without givens whose signs are
    its constant ``less`` (``[r, c, r2, c2]``: cell (r, c) < cell (r2, c2)), by filling
    the Latin square cell by cell and checking each sign once both its cells are filled."""
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    n, less = table["size"], table["constants"]["less"]

    def fits(grid: list[list[int]], r: int, c: int) -> bool:
        return all(grid[a][b] < grid[a2][b2] for a, b, a2, b2 in less
                   if grid[a][b] and grid[a2][b2])

    return latin_fill(n, fits, limit)


def test_the_futoshiki_example_has_the_one_solution_its_own_search_finds():
    found = futoshiki_solutions(FUTOSHIKI)
    assert len(found) == 1
    puzzle = load(FUTOSHIKI)
    assert puzzle.expected["count"] == len(found)
    from cpsolve.engines import Options, run

    solved = run("search", "solve", puzzle.model, Options(time_limit=60))
    values = solved.answer.values
    assert solved.verified
    assert [[values[f"cell[{r}][{c}]"] for c in range(5)] for r in range(5)] == found[0]


def test_the_futoshiki_example_draws_every_inequality_as_a_sign():
    less = tomllib.loads(FUTOSHIKI.read_text(encoding="utf-8"))["constants"]["less"]
    picture = load(FUTOSHIKI).picture
    assert sorted(picture.signs) == sorted(((a, b), (a2, b2)) for a, b, a2, b2 in less)


def test_the_kenken_example_draws_its_cages_and_a_note_in_each():
    table = tomllib.loads(KENKEN.read_text(encoding="utf-8"))["constants"]
    cage, targets = table["cage"], table["target"]
    picture = load(KENKEN).picture
    assert picture.regions == tuple(tuple(row) for row in cage)
    firsts = {min((r, c) for r in range(6) for c in range(6) if cage[r][c] == k): k
              for k in range(len(targets))}
    assert {(r, c) for r, c, _ in picture.notes} == set(firsts)
    for r, c, text in picture.notes:  # the note starts with its cage's target
        assert text.startswith(str(targets[firsts[(r, c)]]))


def test_regions_notes_and_signs_are_read(write_model):
    text = GRID3.format(picture='regions = [[0, 0, 1], [2, 2, 1], [2, 2, 1]]\n'
                                'notes = [[0, 0, "3+"], [0, 2, 6]]\n'
                                'signs = [[1, 0, 1, 1, ">"], [2, 0, 2, 1, "<"], [0, 0, 1, 0]]')
    picture = load(write_model("g.toml", text)).picture
    assert picture.regions == ((0, 0, 1), (2, 2, 1), (2, 2, 1))
    # regions 0 | 1 on the top row, 0 over 2 twice, 2 | 1 on rows 2 and 3: 5 borders
    assert sorted(picture.borders()) == [((0, 0), (1, 0)), ((0, 1), (0, 2)), ((0, 1), (1, 1)),
                                         ((1, 1), (1, 2)), ((2, 1), (2, 2))]
    assert picture.notes == ((0, 0, "3+"), (0, 2, "6"))
    # each sign as (smaller cell, larger cell): ">" turns the first around
    assert picture.signs == (((1, 1), (1, 0)), ((2, 0), (2, 1)), ((0, 0), (1, 0)))


def test_picture_keys_may_be_computed_from_the_constants(write_model):
    text = GRID3.format(picture='regions = "[[r // 2 for c in range(size)] for r in range(size)]"\n'
                                'notes = "[[p[0], p[1], 10 * p[2]] for p in less]"\n'
                                'signs = "less"')
    picture = load(write_model("g.toml", text)).picture
    assert picture.regions == ((0, 0, 0), (0, 0, 0), (1, 1, 1))
    assert picture.notes == ((0, 0, "0"), (2, 2, "10"))
    assert picture.signs == (((0, 0), (0, 1)), ((2, 2), (1, 2)))


def test_without_a_picture_nothing_is_drawn(models_dir):
    picture = load(models_dir / "sudoku4.toml").picture
    assert picture.regions is None and picture.notes == () and picture.signs == ()


@pytest.mark.parametrize(("picture", "key"), [
    ("regions = [[0, 0], [1, 1]]", "picture.regions"),             # 2 rows, not 3
    ("regions = [[0, 0, 0], [1, 1, 1], [2, 2]]", "picture.regions"),
    ('regions = [[0, 0, 0], [1, "a", 1], [2, 2, 2]]', "picture.regions"),
    ("regions = 4", "picture.regions"),
    ('regions = "nope"', "picture.regions"),
    ('notes = [[0, 0]]', "picture.notes[0]"),
    ('notes = [[0, 3, "x"]]', "picture.notes[0]"),                   # column 3 of 0..2
    ('notes = [[-1, 0, "x"]]', "picture.notes[0]"),
    ('notes = [[0, 0, ""]]', "picture.notes[0]"),
    ('notes = [[0, 0, "far too long a note"]]', "picture.notes[0]"),
    ('notes = [[0, 0, "a\\nb"]]', "picture.notes[0]"),
    ('notes = [[0, 0, true]]', "picture.notes[0]"),
    ('notes = [[0, 0, "a"], [1, 1, "b"], [0, 0, "c"]]', "picture.notes[2]"),
    ('notes = "less"', "picture.notes[0]"),                           # 4 numbers, not 3
    ('notes = [0, 0, "x"]', "picture.notes"),
    ("signs = [[0, 0, 1, 1]]", "picture.signs[0]"),                   # diagonal
    ("signs = [[0, 0, 0, 2]]", "picture.signs[0]"),                   # two apart
    ("signs = [[0, 0, 0, 0]]", "picture.signs[0]"),
    ("signs = [[0, 2, 0, 3]]", "picture.signs[0]"),                   # off the board
    ('signs = [[0, 0, 0, 1, "="]]', "picture.signs[0]"),
    ("signs = [[0, 0, 0]]", "picture.signs[0]"),
    ('signs = [[0, 0, "0", 1]]', "picture.signs[0]"),
    ('signs = [[0, 0, 0, 1], [0, 1, 0, 0, ">"]]', "picture.signs[1]"),  # the same pair
    ('signs = "size"', "picture.signs"),
    ("colours = 1", "picture.colours"),
    ('constraints = ["cell[0][0] == 1"]', "picture.constraints"),     # after the header
])
def test_hostile_picture_values_are_one_line_naming_the_key(write_model, cli, picture, key):
    one_error_line(cli("solve", write_model("g.toml", GRID3.format(picture=picture))), key)


def test_a_picture_that_is_not_a_table_is_one_line(write_model, cli):
    text = 'family = "grid"\nsize = 3\npicture = "regions"\n'
    one_error_line(cli("solve", write_model("g.toml", text)), "picture")


def test_the_text_board_draws_signs_between_cells_and_reads_them_back(write_model):
    text = GRID3.format(picture='signs = [[0, 0, 0, 1], [1, 2, 0, 2], [1, 0, 2, 0, "<"]]')
    puzzle = load(write_model("g.toml", text))
    values = {f"cell[{r}][{c}]": v for r, row in enumerate([[1, 2, 3], [3, 1, 2], [2, 3, 1]])
              for c, v in enumerate(row)}
    board = puzzle.draw(values)
    # "<" between (0,0) and (0,1); (0,2) over (1,2) points down, (1,0) over (2,0) up
    assert board.splitlines() == ["1 < 2   3",
                                  "        \u2228",
                                  "3   1   2",
                                  "\u2227",
                                  "2   3   1"]
    assert puzzle.read_solution(board) == values
    assert puzzle.read_solution(f"\u256d\u2500\u256e\n{board}\n\u2570\u2500\u256f") == values


def test_a_board_with_boxes_keeps_its_lines_with_signs(write_model):
    text = ('family = "grid"\nsize = 4\ngroups = ["rows", "columns", "boxes"]\nbox = [2, 2]\n'
            '[picture]\nsigns = [[0, 1, 0, 2], [2, 3, 1, 3]]\n')
    puzzle = load(write_model("g.toml", text))
    rows = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    values = {f"cell[{r}][{c}]": v for r, row in enumerate(rows) for c, v in enumerate(row)}
    board = puzzle.draw(values)
    # the sign across the box wall takes its place; the one across the rule sits in it
    assert board.splitlines() == ["1   2 < 3   4",
                                  "3   4 | 1   2",
                                  "------+-----\u2228",
                                  "2   1 | 4   3",
                                  "4   3 | 2   1"]
    assert puzzle.read_solution(board) == values


def test_a_board_without_signs_is_drawn_as_before(models_dir):
    puzzle = load(models_dir / "sudoku4.toml")
    rows = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    values = {f"cell[{r}][{c}]": v for r, row in enumerate(rows) for c, v in enumerate(row)}
    assert puzzle.draw(values).splitlines() == ["1 2 | 3 4", "3 4 | 1 2", "----+----",
                                                "2 1 | 4 3", "4 3 | 2 1"]


def test_a_long_value_in_a_message_is_cut_as_every_message_cuts_it(write_model, cli):
    """A note far too long is quoted in the message cut to 60 characters and ``...``, as the
    expression language cuts an expression (:func:`cpsolve.language.quoting.shorten`)."""
    note = "n" * 100
    run = cli("solve", write_model("g.toml", GRID3.format(picture=f'notes = [[0, 0, "{note}"]]')))
    assert run.code == 2
    assert run.err.rstrip().endswith(f"got '{'n' * 59}...")  # the quote and 59 of the n's
