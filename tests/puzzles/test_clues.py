"""Issue 26: declared clue variables (``clues``) for ``generate`` on csp and tour models.

Expected figures come from a brute force written here: the 92 solutions of
8 queens by permutations, a puzzle (a set of rows with their columns) being
unique when exactly one solution agrees with it.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from test_language import one_error_line, queens

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import with_givens
from cpsolve.workflows.grids.generator import Generator

ROOT = Path(__file__).resolve().parents[2]

QUEENS = """family = "csp"
name = "8 queens, clues in the top half"
all_different = [["q"]]
constraints = ["all(abs(q[i] - q[j]) != j - i for i in range(n) for j in range(i + 1, n))"]
clues = {clues}
[constants]
n = 8
[variables]
q = {{ size = "n", domain = [0, "n - 1"] }}
{symmetries}"""

MIRRORS = """[[symmetries]]
name = "left-right mirror"
values = "n - 1 - v"
[[symmetries]]
name = "top-bottom mirror"
variables = { "q[i]" = "q[n - 1 - i]" }
"""


def unique_puzzles(rows: range, k: int) -> set[tuple[tuple[int, int], ...]]:
    """Every puzzle of ``k`` (row, column) givens on ``rows`` that one solution alone fits."""
    solutions = queens(8)
    out = set()
    for chosen in itertools.combinations(rows, k):
        for s in solutions:
            givens = tuple((r, s[r]) for r in chosen)
            if sum(all(t[r] == c for r, c in givens) for t in solutions) == 1:
                out.add(givens)
    return out


@pytest.mark.parametrize("clues", ['"[q[r] for r in range(4)]"',
                                   '["q[0]", "q[1]", "q[2]", "q[3]"]'])
def test_every_puzzle_gives_only_clues_and_the_count_is_the_brute_force(write_model, clues):
    puzzle = load(write_model("q.toml", QUEENS.format(clues=clues, symmetries="")))
    assert puzzle.model.clues == ("q[0]", "q[1]", "q[2]", "q[3]")
    want = unique_puzzles(range(4), 3)
    every = Generator(puzzle.model, puzzle.symmetry(), "cpsat").every(3)
    assert every.tally.classes == len(want) and len(every.puzzles) == len(want)
    got = {tuple(sorted((int(n[2]), v) for n, v in p.givens.items())) for p in every.puzzles}
    assert got == want


def test_symmetries_that_move_clues_off_the_clues_are_dropped(write_model):
    """The top-bottom mirror takes rows 0-3 to rows 4-7: only the identity and the
    left-right mirror (columns c -> 7 - c) stay, and classes are counted under those two."""
    text = QUEENS.format(clues='"[q[r] for r in range(4)]"', symmetries=MIRRORS)
    puzzle = load(write_model("q.toml", text))
    gen = Generator(puzzle.model, puzzle.symmetry(), "cpsat")
    assert len(gen.sym.perms) == 2
    want = unique_puzzles(range(4), 3)
    mirror = {p: tuple((r, 7 - c) for r, c in p) for p in want}
    classes = len({min(p, mirror[p]) for p in want})
    assert gen.every(3).tally.classes == classes


def test_random_puzzles_give_only_clues_and_are_unique(write_model):
    puzzle = load(write_model("q.toml", QUEENS.format(clues='["q[0]", "q[1]", "q[2]", "q[3]"]',
                                                      symmetries="")))
    found = Generator(puzzle.model, puzzle.symmetry(), "cpsat").random(3, 2, seed=3)
    assert found.puzzles
    for p in found.puzzles:
        assert set(p.givens) <= set(puzzle.model.clues) and len(p.givens) == 3
        counted = run("search", "count", with_givens(puzzle.model, p.givens),
                      Options(time_limit=60))
        assert counted.status is Status.EXACT and counted.count == 1


TOUR = """family = "tour"
name = "open 5x5 tour, clues on the edge"
board = '''
. . . . .
. . . . .
. . . . .
. . . . .
. . . . .
'''
closed = false
start = [0, 0]
clues = [[0, 1], [0, 2], [0, 3], [0, 4], [4, 0], [4, 1], [4, 2], [4, 3], [4, 4]]
"""


def test_a_tour_gives_moves_from_its_clue_squares_only(write_model, cli):
    path = write_model("t.toml", TOUR)
    puzzle = load(path)
    assert puzzle.model.clues == ("next[1]", "next[2]", "next[3]", "next[4]", "next[20]",
                                  "next[21]", "next[22]", "next[23]", "next[24]")
    found = Generator(puzzle.model, puzzle.symmetry(), "cpsat").random(4, 2, seed=1)
    assert found.puzzles
    for p in found.puzzles:
        assert set(p.givens) <= set(puzzle.model.clues)
        counted = run("search", "count", with_givens(puzzle.model, p.givens),
                      Options(time_limit=60))
        assert counted.status is Status.EXACT and counted.count == 1
    result = cli("generate", path, "--givens", "4", "--random", "1", "--seed", "1")
    assert result.code == 0, result.err
    assert "given moves: (0, " in result.out or "given moves: (4, " in result.out


@pytest.mark.parametrize(("text", "key"), [
    (QUEENS.format(clues='["nope"]', symmetries=""), "clues"),
    (QUEENS.format(clues='[]', symmetries=""), "clues"),
    (QUEENS.format(clues='"[q[r] + 1 for r in range(4)]"', symmetries=""), "clues"),
    (TOUR.replace("[4, 4]]", "[5, 5]]"), "clues"),
    (TOUR.replace("clues = [[0, 1],", "clues = [[0, 1, 2],"), "clues"),
])
def test_bad_clues_are_one_line(write_model, cli, text, key):
    one_error_line(cli("solve", write_model("m.toml", text)), key)


def test_generate_refuses_in_one_line_when_nothing_can_be_generated(write_model, cli):
    path = write_model("q.toml", QUEENS.format(clues='"[q[r] for r in range(4)]"',
                                               symmetries=""))
    one_error_line(cli("generate", path, "--givens", "5"), "4 clue variables")
    # no closed knight's tour exists on 4x4: nothing to give
    for extra in ([], ["--random", "1"]):
        one_error_line(cli("generate", ROOT / "models" / "knight_4x4.toml", "--givens", "2",
                           *extra), "nothing to generate")
