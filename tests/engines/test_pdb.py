"""Pattern databases: admissible (against distances counted here), additivity derived
from the actions, cached on disk, read from model files, and the fast IDA* they feed.

Exact distances come from a breadth-first search written in this file over
boards (its own moves: swap the blank with a neighbour), sharing no code with
the engine.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import deque

import pytest

from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import pdb, pdb_store
from cpsolve.engines.search.planning.pdb_ida import hole_swap
from cpsolve.expr import And
from cpsolve.files import ModelFileError, load
from cpsolve.model import Planning
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.sliding import build
from cpsolve.result import Status

SHARED_CACHE = os.environ.get("CPSOLVE_CACHE_DIR")  # the suite's (conftest), kept between runs


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def board(rows: int, cols: int, start: list[int], patterns=None, goal=None):
    """A sliding model through the family (``0`` is the blank)."""
    goal = goal or [*range(1, rows * cols), 0]

    def picture(cells):
        return "\n".join(" ".join(str(c) if c else "_" for c in cells[r * cols:(r + 1) * cols])
                         for r in range(rows))

    table = {"family": "sliding", "start": picture(start), "goal": picture(goal)}
    if patterns is not None:
        table["estimate"] = {"patterns": [[str(t) for t in p] for p in patterns]}
    return build(Data(table, "test.toml"))


def distances(rows: int, cols: int, goal: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Every board that reaches ``goal``, with its distance (moves: blank <-> neighbour)."""
    out = {goal: 0}
    todo = deque([goal])
    while todo:
        s = todo.popleft()
        z = s.index(0)
        r, c = divmod(z, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols:
                t = list(s)
                t[z], t[rr * cols + cc] = t[rr * cols + cc], 0
                t = tuple(t)
                if t not in out:
                    out[t] = out[s] + 1
                    todo.append(t)
    return out


def as_state(puzzle, cells: tuple[int, ...]) -> tuple[int, ...]:
    """The model state of a board of numbers (the family numbers pieces its own way)."""
    value = {t: v for v, t in enumerate(puzzle.tokens)}
    return tuple(value["_" if c == 0 else str(c)] for c in cells)


def check_admissible(rows, cols, patterns, exact_for_full=False):
    goal = (*range(1, rows * cols), 0)
    puzzle = board(rows, cols, list(goal), patterns)
    task = compile_planning(puzzle.model)
    tables = pdb.pattern_set(task)
    dist = distances(rows, cols, goal)
    over = [s for s, d in dist.items() if tables.h(as_state(puzzle, s)) > d]
    assert not over, over[:3]
    if exact_for_full:
        assert all(tables.h(as_state(puzzle, s)) == d for s, d in dist.items())
    return tables, dist, puzzle


@pytest.mark.parametrize("patterns", [[[1, 2, 3], [4, 5]], [[1], [2], [3], [4], [5]],
                                      [[1, 2, 3, 4, 5]], [[2, 4]]])
def test_admissible_on_every_2x3_board(patterns):
    tables, _, _ = check_admissible(2, 3, patterns)
    assert tables.additive


def test_one_pattern_of_every_piece_is_the_exact_distance():
    check_admissible(2, 3, [[1, 2, 3, 4, 5]], exact_for_full=True)


@pytest.mark.slow
@pytest.mark.parametrize("patterns", [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2], [3, 4, 5], [6, 7, 8]]])
def test_admissible_on_every_8_puzzle_board(patterns):
    tables, dist, puzzle = check_admissible(3, 3, patterns)
    # additive 4-4 beats Manhattan on average (Korf and Felner's point): it must be informative
    mean = sum(tables.h(as_state(puzzle, s)) for s in dist) / len(dist)
    assert mean > 14.0  # the mean Manhattan distance of the 8-puzzle is 14


def test_patterns_holding_the_blank_are_not_additive_but_still_admissible():
    # a move changes where the blank and one piece are: two patterns when the blank is in one
    goal = (1, 2, 3, 4, 5, 0)
    puzzle = board(2, 3, list(goal), [[1, 2]])
    value_blank = puzzle.tokens.index("_")
    puzzle.model.set_patterns([[value_blank, 1], [2, 3]])
    task = compile_planning(puzzle.model)
    tables = pdb.pattern_set(task)
    assert not tables.additive
    dist = distances(2, 3, goal)
    assert all(tables.h(as_state(puzzle, s)) <= d for s, d in dist.items())


def _swapper(pairs_move_two: bool) -> Planning:
    """Three variables holding 0, 1, 2; actions swap two variables' values."""
    m = Planning("swaps")
    xs = m.add_array("x", 3, 0, 2)
    m.set_initial({"x[0]": 2, "x[1]": 1, "x[2]": 0})
    m.set_goal((xs[0] == 0) & (xs[1] == 1) & (xs[2] == 2))
    for i, j in itertools.combinations(range(3), 2):
        guard = True if pairs_move_two else (xs[i] == 0)  # else: only the hole 0 moves
        m.add_action(f"swap {i} {j}", guard, {xs[i]: xs[j], xs[j]: xs[i]})
    return m


@pytest.mark.parametrize("two, patterns, want", [
    (True, [[1], [2]], False),   # swapping 1 and 2 moves two patterns' values at once
    (True, [[1, 2]], True),      # ... which are then one pattern
    (False, [[1], [2]], True),   # only 0 (in no pattern) trades places with one value
    (False, [[0], [1]], False),  # 0 in a pattern: a move changes 0 and another value
])
def test_additivity_is_derived_from_the_actions(two, patterns, want):
    task = compile_planning(_swapper(two))
    from cpsolve.engines.search.statespace.packing import Packed

    assert pdb.additive(task, Packed(task), patterns) is want


def test_a_generic_model_gets_admissible_tables():
    """Not a board: four variables, the value 0 trades places with any other variable."""
    m = Planning("any swap")
    xs = m.add_array("x", 4, 0, 3)
    m.set_initial({"x[0]": 3, "x[1]": 2, "x[2]": 1, "x[3]": 0})
    m.set_goal(And(*(xs[i] == i for i in range(4))))
    for i, j in itertools.permutations(range(4), 2):
        m.add_action(f"{j} to {i}", xs[i] == 0, {xs[i]: xs[j], xs[j]: 0})
    m.set_patterns([[1], [2, 3]])
    task = compile_planning(m)
    tables = pdb.pattern_set(task)
    assert tables.additive and hole_swap(task) is not None
    goal = (0, 1, 2, 3)
    dist = {goal: 0}
    todo = deque([goal])
    while todo:  # every move can be undone: distances from the goal are distances to it
        s = todo.popleft()
        z = s.index(0)
        for j in range(4):
            if j != z:
                t = list(s)
                t[z], t[j] = t[j], 0
                t = tuple(t)
                if t not in dist:
                    dist[t] = dist[s] + 1
                    todo.append(t)
    assert len(dist) == 24
    assert all(tables.h(s) <= d for s, d in dist.items())
    assert tables.h((0, 2, 3, 1)) == 3  # 1 goes home, and 2, 3 need two more: exact here
    result = run("search", "solve", m, Options(algorithm="idastar"))
    assert result.status is Status.OPTIMAL and result.steps == dist[(3, 2, 1, 0)]


def test_cache_miss_then_hit_and_shared_by_other_starts(own_cache):
    first = board(2, 3, [1, 2, 3, 4, 0, 5], [[1, 2, 3], [4, 5]])
    tables = pdb.pattern_set(compile_planning(first.model))
    assert tables.cached == [False, False]
    assert len(list(own_cache.glob("pdb-*.npy"))) == 2
    again = pdb.pattern_set(compile_planning(first.model))
    assert again.cached == [True, True] and again.tables == tables.tables
    other = board(2, 3, [5, 4, 3, 2, 1, 0], [[1, 2, 3], [4, 5]])  # another start, same goal
    assert pdb.pattern_set(compile_planning(other.model)).cached == [True, True]
    changed = board(2, 3, [1, 2, 3, 4, 0, 5], [[1, 2], [3, 4, 5]])
    assert pdb.pattern_set(compile_planning(changed.model)).cached == [False, False]


def test_a_damaged_cache_file_is_rebuilt(own_cache):
    puzzle = board(2, 3, [1, 2, 3, 4, 0, 5], [[1, 2, 3, 4, 5]])
    good = pdb.pattern_set(compile_planning(puzzle.model)).tables
    for path in own_cache.glob("pdb-*.npy"):
        path.write_bytes(b"not a table")
    again = pdb.pattern_set(compile_planning(puzzle.model))
    assert again.cached == [False] and again.tables == good


def test_the_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("CPSOLVE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert pdb_store.cache_dir() == tmp_path / "cpsolve"


def test_random_2x4_boards_solve_to_the_bfs_distance():
    goal = (1, 2, 3, 4, 5, 6, 7, 0)
    dist = distances(2, 4, goal)
    rng = random.Random(12)
    for cells in rng.sample(sorted(dist), 6):
        puzzle = board(2, 4, list(cells), [[1, 2, 5, 6], [3, 4, 7]])
        for algorithm in ("idastar", "astar"):
            result = run("search", "solve", puzzle.model, Options(algorithm=algorithm))
            assert result.status is Status.OPTIMAL and result.verified
            assert result.steps == dist[cells], (cells, algorithm)


def test_the_hole_swap_form_is_found_only_where_it_holds():
    puzzle = board(2, 3, [1, 2, 3, 4, 0, 5], [[1, 2, 3, 4, 5]])
    form = hole_swap(compile_planning(puzzle.model))
    assert form is not None and form.hole == puzzle.tokens.index("_")
    assert hole_swap(compile_planning(_swapper(True))) is None  # no hole: any two swap


def test_a_model_file_declares_patterns(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('family = "sliding"\nstart = "1 2 3\\n4 _ 5"\ngoal = "1 2 3\\n4 5 _"\n'
                    '[estimate]\npatterns = [["1", "2"], [3, "4", "5"]]\n')
    model = load(path).model
    values = {t: v for v, t in enumerate(load(path).tokens)}
    assert model.patterns == [tuple(sorted((values["1"], values["2"]))),
                              tuple(sorted((values["3"], values["4"], values["5"])))]


@pytest.mark.parametrize("patterns, fragment", [
    ('[["9"]]', "not a one-cell piece"), ('[["_"]]', "not a one-cell piece"),
    ('[["1"], ["1"]]', "in two patterns"), ('["1"]', "non-empty list"),
    ('[[]]', "non-empty list"),
])
def test_bad_patterns_name_the_key(tmp_path, patterns, fragment):
    path = tmp_path / "p.toml"
    path.write_text('family = "sliding"\nstart = "1 2 3\\n4 _ 5"\ngoal = "1 2 3\\n4 5 _"\n'
                    f'[estimate]\npatterns = {patterns}\n')
    with pytest.raises(ModelFileError) as err:
        load(path)
    assert "estimate.patterns" in str(err.value) and fragment in str(err.value)


@pytest.mark.slow
def test_korf_1_is_proven_57(monkeypatch):
    """Korf's first instance: optimum 57 (Korf 1985).  The 6-6-3 tables take minutes to
    build once; they go to the suite's shared cache, so later runs take a second."""
    from pathlib import Path

    if SHARED_CACHE:
        monkeypatch.setenv("CPSOLVE_CACHE_DIR", SHARED_CACHE)
    models = Path(__file__).resolve().parents[2] / "models"
    result = run("search", "solve", load(models / "fifteen_korf1.toml").model,
                 Options(algorithm="idastar"))
    assert result.status is Status.OPTIMAL and result.verified and result.steps == 57


def test_abstract_states_may_fill_all_64_bits():
    """Sixteen cells, seven pattern pieces, the blank and "don't care": 4 bits a cell."""
    import numpy as np

    from cpsolve.engines.search.planning.pdb_build import Abstraction, _Space
    from cpsolve.engines.search.statespace.packing import Packed

    puzzle = board(4, 4, [*range(1, 16), 0], [[1, 2, 3, 4, 5, 6, 7]])
    task = compile_planning(puzzle.model)
    (pattern,) = puzzle.model.patterns
    blank = puzzle.tokens.index("_")
    space = _Space(task, Packed(task), Abstraction(pattern, tuple(sorted({blank, *pattern})),
                                                   True), lambda: None)
    assert space.bits * 16 == 64
    state = list(task.goal_state)
    other = state.index(puzzle.tokens.index("15"))  # a piece outside the pattern
    state[0], state[other] = state[other], state[0]  # "don't care" (code 8) in the top field
    assert int(space.codes[state[0] - space.low]) == 8
    code = space.encode(state)
    assert code < 0  # bit 63 set: stored as a negative int64, no overflow
    codes = np.array([code], np.int64)
    assert [int(space.field(codes, i)[0]) for i in range(16)] == \
        [int(space.codes[v - space.low]) for v in state]
