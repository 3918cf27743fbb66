"""The mirror look-up of the pattern-database IDA* (Korf and Felner's reflection), found
from the moves and the goal: which mirrors exist, that the image's estimate is a lower
bound, and that IDA* with it still proves the optimum (distances from this file's own
breadth-first search, or the lengths published with the puzzles)."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import pytest

# the boards, walks and breadth-first searches of the pattern tests
from test_pdb import _walk, as_state, board, distances

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import pdb, pdb_ida
from cpsolve.engines.search.planning.pdb_ida import hole_swap
from cpsolve.engines.search.planning.pdb_mirror import find_mirror
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.sliding import build

MODELS = Path(__file__).resolve().parents[3] / "models"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "cache"))


def mirror_of(puzzle):
    task = compile_planning(puzzle.model)
    form = hole_swap(task)
    goal = list(task.goal_state)
    return find_mirror(form.moves, goal, form.hole, list(zip(task.lo, task.hi)),
                       list(task.model.patterns)), task


def test_the_4x4_with_the_blank_in_a_corner_has_the_diagonal_mirror():
    goal = [0, *range(1, 16)]  # Korf's convention: blank top left
    patterns = [[1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11], [13, 14, 15]]
    puzzle = board(4, 4, goal, patterns, goal=goal)
    mirror, task = mirror_of(puzzle)
    assert mirror is not None
    # the only move-graph automorphism keeping the corner (besides the identity) is the
    # transpose: cell (r, c) goes to (c, r), so tile 4r + c becomes tile 4c + r
    assert list(mirror.place) == [4 * (i % 4) + i // 4 for i in range(16)]
    token = {t: v for v, t in enumerate(puzzle.tokens)}
    for r in range(4):
        for c in range(4):
            if r or c:
                assert mirror.value[token[str(4 * r + c)]] == token[str(4 * c + r)]


def test_no_mirror_when_none_keeps_the_hole_or_the_patterns_are_symmetric():
    # a 2x4 board: its mirrors and half turn all move every corner
    puzzle = board(2, 4, [1, 2, 3, 4, 5, 6, 7, 0], [[1, 2, 5, 6], [3, 4, 7]])
    assert mirror_of(puzzle)[0] is None
    # the 8-puzzle's transpose maps 2<->4, 3<->7, 6<->8: these patterns onto themselves
    symmetric = [[1, 5], [2, 4], [3, 7], [6, 8]]
    puzzle = board(3, 3, [1, 2, 3, 4, 5, 6, 7, 8, 0], symmetric)
    assert mirror_of(puzzle)[0] is None
    puzzle = board(3, 3, [1, 2, 3, 4, 5, 6, 7, 8, 0], [[1, 2, 3, 4], [5, 6, 7, 8]])
    assert mirror_of(puzzle)[0] is not None


def test_the_mirror_image_estimate_is_a_lower_bound_on_8_puzzle_boards():
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    puzzle = board(3, 3, list(goal), [[1, 2, 3, 4], [5, 6, 7, 8]])
    mirror, task = mirror_of(puzzle)
    tables = pdb.pattern_set(task)
    dist = distances(3, 3, goal)
    better = 0
    for cells in random.Random(3).sample(sorted(dist), 4000):
        s = as_state(puzzle, cells)
        image = [0] * len(s)
        for i, v in enumerate(s):
            image[mirror.place[i]] = mirror.value[v]
        assert tables.h(tuple(image)) <= dist[cells], cells
        better += tables.h(tuple(image)) > tables.h(s)
    assert better > 400  # the second look-up is often larger: it is worth its cost


def test_ida_with_the_mirror_proves_the_bfs_distance_on_8_puzzle_boards(monkeypatch):
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    dist = distances(3, 3, goal)
    for cells in random.Random(8).sample(sorted(dist), 12):
        puzzle = board(3, 3, list(cells), [[1, 2, 3, 4], [5, 6, 7, 8]])
        result = run("search", "solve", puzzle.model, Options(algorithm="idastar"))
        assert result.status is Status.OPTIMAL and result.verified
        assert result.steps == dist[cells] and "mirror" in result.details


def fifteen(name: str, patterns: list[list[int]]):
    """A 15-puzzle model file of ``models/`` with ``patterns`` declared."""
    table = tomllib.loads((MODELS / name).read_text())
    table["estimate"] = {"patterns": [[str(t) for t in p] for p in patterns]}
    table.pop("expected", None)
    return build(Data(table, name))


@pytest.mark.slow
@pytest.mark.parametrize("name, steps", [("fifteen_easy.toml", 20),
                                         ("fifteen_medium.toml", 32)])
def test_fifteen_puzzles_keep_their_optimum_with_and_without_the_mirror(name, steps,
                                                                         monkeypatch):
    """Rows 4-4-4-3 of the goal (blank bottom right): the transpose maps them to columns.
    The optimum is the model file's, proven by both engines before this look-up existed."""
    puzzle = fifteen(name, [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15]])
    got = {}
    for mirror in (True, False):
        monkeypatch.setattr(pdb_ida, "MIRROR", mirror)
        result = run("search", "solve", puzzle.model, Options(algorithm="idastar"))
        assert result.status is Status.OPTIMAL and result.verified and result.steps == steps
        assert ("mirror" in result.details) is mirror
        got[mirror] = result.explored
    assert got[True] <= got[False]  # a larger lower bound prunes at least as much here


def test_the_json_of_a_default_search_solve_says_the_mirror_was_read(cli, tmp_path,
                                                                     monkeypatch):
    """The default search on a large space (weighted A*, then IDA*'s proof) passes the note
    on. Pairs of tiles keep the tables small; the transpose maps them to other pairs. The
    length is checked against IDA* without the mirror (the loop that came before it)."""
    goal = (0, *range(1, 16))
    cells = _walk(list(goal), 4, 30, 2)
    pairs = [[t, t + 1] for t in range(1, 15, 2)] + [[15]]
    path = tmp_path / "fifteen.toml"
    rows = [" ".join(str(c) if c else "_" for c in cells[r * 4:r * 4 + 4]) for r in range(4)]
    groups = ", ".join("[" + ", ".join(f'"{t}"' for t in p) + "]" for p in pairs)
    path.write_text('family = "sliding"\nstart = """\n' + "\n".join(rows) + '\n"""\n'
                    'goal = """\n_ 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n"""\n'
                    f'[estimate]\npatterns = [{groups}]\n')
    out = cli("solve", path, "--engine", "search", "--json")
    assert out.code == 0, out.err
    data = json.loads(out.out)
    assert data["status"] == "optimal" and data["verified"]
    assert data["details"]["proof"] == "IDA*" and "mirror image" in data["details"]["mirror"]
    monkeypatch.setattr(pdb_ida, "MIRROR", False)
    plain = run("search", "solve", board(4, 4, cells, pairs, goal=list(goal)).model,
                Options(algorithm="idastar"))
    assert plain.status is Status.OPTIMAL and "mirror" not in plain.details
    assert data["steps"] == plain.steps
