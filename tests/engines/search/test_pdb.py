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
import re
from collections import deque

import numpy as np
import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.runtime.clock import Clock
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import pdb, pdb_store
from cpsolve.engines.search.planning.heuristic import compile_estimate
from cpsolve.engines.search.planning.pdb_build import build_table
from cpsolve.engines.search.planning.pdb_ida import hole_swap
from cpsolve.engines.search.statespace.packing import Packed
from cpsolve.language.combine import And
from cpsolve.model import Planning
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.files import ModelFileError, load
from cpsolve.puzzles.sliding import build

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
    assert len(list(own_cache.glob("pdb-*[0-9a-f].npz"))) == 2
    again = pdb.pattern_set(compile_planning(first.model))
    assert again.cached == [True, True] and again.tables == tables.tables
    other = board(2, 3, [5, 4, 3, 2, 1, 0], [[1, 2, 3], [4, 5]])  # another start, same goal
    assert pdb.pattern_set(compile_planning(other.model)).cached == [True, True]
    changed = board(2, 3, [1, 2, 3, 4, 0, 5], [[1, 2], [3, 4, 5]])
    assert pdb.pattern_set(compile_planning(changed.model)).cached == [False, False]


def test_a_damaged_cache_file_is_rebuilt(own_cache):
    puzzle = board(2, 3, [1, 2, 3, 4, 0, 5], [[1, 2, 3, 4, 5]])
    good = pdb.pattern_set(compile_planning(puzzle.model)).tables
    for path in own_cache.glob("pdb-*[0-9a-f].npz"):
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
    models = Path(__file__).resolve().parents[3] / "models"
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


# --- Builds stopped by a limit: saved, resumed, and used as they are -----------------------

class StopAt(Budget):
    """A budget that runs out once a build reports distance ``at``, after ``extra`` more
    looks (0: at that layer's end; more: inside the next layer; ``at`` -1: at the first
    look; None: never) — unlike a clock, the same point on every run."""

    def __init__(self, at: int | None, extra: int = 0) -> None:
        self.lines: list[str] = []
        super().__init__(progress=self._line)
        self.at, self.extra, self.armed = at, extra, at == -1

    def _line(self, line: str) -> None:
        self.lines.append(line)
        found = re.search(r"distance (\d+),", line)
        if self.at is not None and found and int(found.group(1)) >= self.at:
            self.armed = True

    def exceeded(self, seen, status=None, *args) -> bool:
        if self.armed:
            if self.extra <= 0:
                return self.halt(Stop.STATES, "test limit reached")
            self.extra -= 1
        return False


class Halt(Exception):
    pass


def eight(patterns=((1, 2, 3, 4), (5, 6, 7, 8))):
    goal = (*range(1, 9), 0)
    puzzle = board(3, 3, list(goal), [list(p) for p in patterns])
    return puzzle, compile_planning(puzzle.model), goal


@pytest.mark.parametrize("at", [0, 4, 9, 14])
def test_a_partial_table_is_the_exact_one_capped_at_one_more_than_its_distance(at):
    """Layers 0..at hold every abstract state that close to the goal (each is closed under
    the cost-0 moves of other patterns' tiles), so an entry not met yet is at least at + 1:
    the partial table is min(exact, at + 1), entry by entry — a lower bound of the exact
    one, hence of every concrete distance (checked on all 181,440 boards)."""
    puzzle, task, goal = eight()
    full = pdb.pattern_set(task)
    assert full.additive and not full.partial
    partial = []
    for ab, table in zip(full.abstractions, full.tables):
        kept = []

        def progress(d, states):
            if d == at:
                raise Halt

        with pytest.raises(Halt):
            build_table(task, Packed(task), ab, progress, None, None, kept.append)
        assert kept[-1].distance == at
        exact = np.frombuffer(table, np.uint8)
        assert (kept[-1].estimate() == np.minimum(exact, at + 1)).all()
        partial.append(kept[-1].estimate().tobytes())
    tables = pdb.PatternSet(task, full.abstractions, partial, [False, False], [at, at])
    assert tables.partial and "to distance" in tables.describe()
    dist = distances(3, 3, goal)
    assert len(dist) == 181_440
    assert all(tables.h(as_state(puzzle, s)) <= d for s, d in dist.items())


def test_a_partial_table_without_cost_0_moves_is_admissible_too():
    """The blank in a pattern: not additive, every move costs 1 in every table."""
    goal = (1, 2, 3, 4, 5, 0)
    puzzle = board(2, 3, list(goal), [[1, 2]])
    puzzle.model.set_patterns([[puzzle.tokens.index("_"), 1], [2, 3]])
    task = compile_planning(puzzle.model)
    stopped = pdb.pattern_set(task, StopAt(3))
    assert stopped.partial and not stopped.additive
    dist = distances(2, 3, goal)
    assert all(stopped.h(as_state(puzzle, s)) <= d for s, d in dist.items())


@pytest.mark.parametrize("at, extra", [(0, 0), (3, 0), (7, 2), (11, 5)])
def test_a_resumed_build_gives_the_same_bytes_as_an_uninterrupted_one(own_cache, tmp_path,
                                                                        monkeypatch, at, extra):
    _, task, _ = eight()
    first = pdb.pattern_set(task, StopAt(at, extra))
    assert first.partial and first.stop == "test limit reached"
    assert first.reached[0] is not None and first.reached[0] >= at
    assert first.reached[1] == -1  # not started: zeros
    assert set(np.frombuffer(first.tables[1], np.uint8)) == {0}
    assert len(list(own_cache.glob("pdb-*.partial.npz"))) == 1
    watch = StopAt(None)
    again = pdb.pattern_set(task, watch)
    assert not again.partial
    assert any(f"resuming table 1 at distance {first.reached[0] + 1}" in line
               for line in watch.lines)
    assert not list(own_cache.glob("pdb-*.partial.npz"))  # finished: the partial is gone
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "fresh"))
    assert again.tables == pdb.pattern_set(task).tables


def test_tables_not_reached_use_their_own_saved_builds(own_cache):
    _, task, _ = eight()
    pdb.pattern_set(task, StopAt(5))  # table 1 stopped at 5
    second = pdb.pattern_set(task, StopAt(12))  # table 1 resumed to 12, table 2 not started
    assert second.reached[0] >= 12 and second.reached[1] == -1
    third = pdb.pattern_set(task, StopAt(-1))  # stops at the first look: nothing built
    assert third.reached == second.reached
    assert third.tables == second.tables  # read back from the saved build, not rebuilt


def _flip(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "foreign"])
def test_a_damaged_or_foreign_partial_file_is_ignored_with_one_line(own_cache, damage):
    _, task, _ = eight()
    pdb.pattern_set(task, StopAt(6))
    (path,) = own_cache.glob("pdb-*.partial.npz")
    if damage == "garbage":
        path.write_bytes(b"not a build")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:2000])
    elif damage == "flipped":
        _flip(path)
    else:  # another table's build under this table's name
        _, other, _ = eight(((1, 2, 3, 5), (4, 6, 7, 8)))
        pdb.pattern_set(other, StopAt(6))
        (theirs,) = set(own_cache.glob("pdb-*.partial.npz")) - {path}
        os.replace(theirs, path)
    watch = StopAt(None)
    again = pdb.pattern_set(task, watch)
    assert not again.partial
    assert len(again.notes) == 1 and "\n" not in again.notes[0]
    assert "saved partial build of table 1 ignored" in again.notes[0]
    assert again.notes[0] in watch.lines and again.notes[0] in again.describe()
    if damage == "foreign":
        assert "another table" in again.notes[0]
    ref = board(3, 3, [*range(1, 9), 0], [[1, 2, 3, 4], [5, 6, 7, 8]])
    for p in own_cache.glob("pdb-*"):
        p.unlink()
    assert again.tables == pdb.pattern_set(compile_planning(ref.model)).tables


def _walk(cells: list[int], cols: int, steps: int, seed: int) -> list[int]:
    """``cells`` after a random walk of the blank (no immediate undo)."""
    rng = random.Random(seed)
    cells, back = list(cells), -1
    for _ in range(steps):
        z = cells.index(0)
        r, c = divmod(z, cols)
        options = [(r + dr) * cols + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if 0 <= r + dr < len(cells) // cols and 0 <= c + dc < cols
                   and (r + dr) * cols + c + dc != back]
        j = rng.choice(options)
        cells[z], cells[j], back = cells[j], 0, z
    return cells


def _distance(cells: tuple[int, ...], goal: tuple[int, ...], cols: int, most: int) -> int:
    """Breadth-first from ``cells`` until ``goal`` (within ``most`` moves)."""
    seen, layer = {cells}, [cells]
    for d in range(most + 1):
        if goal in layer:
            return d
        nxt = []
        for s in layer:
            z = s.index(0)
            r, c = divmod(z, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < len(s) // cols and 0 <= cc < cols:
                    t = list(s)
                    t[z], t[rr * cols + cc] = t[rr * cols + cc], 0
                    t = tuple(t)
                    if t not in seen:
                        seen.add(t)
                        nxt.append(t)
        layer = nxt
    raise AssertionError(f"no path within {most} moves")


@pytest.mark.parametrize("algorithm", ["idastar", "astar", None])
def test_a_short_limit_stops_the_build_and_still_answers_with_a_checked_plan(own_cache,
                                                                           algorithm):
    """The 15-puzzle's 6-6-3 tables take tens of seconds; a 3 s limit leaves the 6-tile
    ones partial, and the search still proves an easy start optimal with them."""
    goal = (0, *range(1, 16))
    cells = _walk(list(goal), 4, 16, 3)
    puzzle = board(4, 4, cells, [[1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11], [13, 14, 15]],
                   goal=list(goal))
    result = run("search", "solve", puzzle.model, Options(algorithm=algorithm, time_limit=3))
    assert result.status is Status.OPTIMAL and result.verified
    assert result.steps == _distance(tuple(cells), goal, 4, 16)
    assert result.details["pattern_tables"] == "partial"
    assert "partial" in result.details["patterns"]
    if algorithm == "idastar":  # the fast loop, with the larger of tables and Manhattan
        assert "inner_loop" in result.details
    assert list(own_cache.glob("pdb-*.partial.npz"))  # kept for the next run


def test_a_build_stopped_before_its_first_layer_leaves_the_declared_estimate():
    from cpsolve.engines.search.planning.heuristic import compile_estimate

    _, task, _ = eight()
    estimate = compile_estimate(task, StopAt(-1))
    assert estimate.patterns is None and estimate.declared
    assert estimate.details()["pattern_tables"] == "not built"
    assert "not built: test limit reached" in estimate.note


def test_temporary_files_of_killed_writers_are_swept(own_cache):
    own_cache.mkdir(parents=True)
    key = "0" * 32
    old = own_cache / f"pdb-{key}.npzabc.tmp"
    new = own_cache / f"pdb-{key}.npzdef.tmp"  # maybe another process writing right now
    for f in (old, new):
        f.write_bytes(b"half a table")
    os.utime(old, (0, 0))
    pdb_store.save_table(key, np.zeros(4, np.uint8))
    assert not old.exists() and new.exists()
    assert pdb_store.load_table(key, 4) is not None


def test_ctrl_c_during_a_build_saves_it(own_cache):
    """The first Ctrl-C only sets a flag (:mod:`cpsolve.engines.runtime.interrupt`); the build sees
    it at its next look, like a time limit, and keeps what it has."""
    from cpsolve.engines.runtime import interrupt

    _, task, _ = eight()

    def line(text: str) -> None:
        if "distance 3," in text:
            interrupt.request()

    try:
        stopped = pdb.pattern_set(task, Budget(progress=line))
    finally:
        interrupt.clear()
    assert stopped.partial and stopped.stop == interrupt.REASON and stopped.reached[0] == 3
    assert len(list(own_cache.glob("pdb-*.partial.npz"))) == 1


def test_a_finished_build_met_every_arrangement_it_forecast():
    """The 8-puzzle's 4-tile abstraction: four tiles, the blank and four "don't care" tiles,
    which make every arrangement reachable (two equal tiles undo the parity): 9!/4!."""
    import math

    _, task, _ = eight()
    full = pdb.pattern_set(task)
    for ab in full.abstractions:
        kept = []
        build_table(task, Packed(task), ab, None, None, None, kept.append)
        assert kept[-1].states == pdb.arrangements(task, ab) == math.perm(9, 5)


def test_the_build_budget_goes_past_its_share_only_when_the_builds_fit():
    budget = pdb_store.BuildBudget(Clock(100.0), Clock(0.0))
    assert budget.exceeded(0)  # past its share, nothing forecast
    assert budget.stop is Stop.TIME
    assert budget.reason == "the build's share of the time limit (0.0 s) used"
    budget.forecast(1.0)
    assert not budget.exceeded(0)  # done in a second: well before the hard limit
    budget.forecast(1000.0)
    assert budget.exceeded(0)
    hard = pdb_store.BuildBudget(Clock(0.0), Clock(0.0))
    assert hard.exceeded(0) and hard.stop is Stop.TIME  # the hard limit itself
    assert hard.reason == "the build's share of the time limit (0.0 s) used"


def test_actions_costing_more_than_1_are_refused_not_mistaken():
    """The build is a 0-1 breadth-first search: a move of cost 2 would never be followed,
    every entry but the goal's would read "unreachable" — an estimate far too high."""
    m = Planning("costly swaps")
    xs = m.add_array("x", 3, 0, 2)
    m.set_initial({"x[0]": 2, "x[1]": 1, "x[2]": 0})
    m.set_goal(And(*(xs[i] == i for i in range(3))))
    for i, j in itertools.permutations(range(3), 2):
        m.add_action(f"{j} to {i}", xs[i] == 0, {xs[i]: xs[j], xs[j]: 0}, cost=2)
    m.set_patterns([[1], [2]])
    from cpsolve.answers.result import Unsupported

    with pytest.raises(Unsupported, match="costs 2"):
        pdb.pattern_set(compile_planning(m))


@pytest.mark.parametrize("at", [2, 6, 10])
def test_ida_with_partial_tables_finds_the_bfs_distance_on_2x4_boards(at):
    """Partial tables (saved at distance ``at``, then used as they are): the fast loop
    prunes on the larger of them and Manhattan, and still ends at the exact distance."""
    from cpsolve.engines.search.planning.heuristic import compile_estimate
    from cpsolve.engines.search.planning.idastar import ida
    from cpsolve.engines.search.planning.pdb_ida import fast_form

    goal = (1, 2, 3, 4, 5, 6, 7, 0)
    dist = distances(2, 4, goal)
    rng = random.Random(at)
    for cells in rng.sample(sorted(dist), 5):
        puzzle = board(2, 4, list(cells), [[1, 2, 5, 6], [3, 4, 7]])
        task = compile_planning(puzzle.model)
        pdb.pattern_set(task, StopAt(at))  # saved at `at` (the other table not started)
        estimate = compile_estimate(task, StopAt(-1))  # no building now: the saved ones
        assert estimate.patterns is not None and estimate.patterns.partial
        assert fast_form(task, estimate) is not None and estimate.terms is not None
        out = ida(task, Budget(), estimate)
        assert out.stop == "goal" and out.cost == dist[cells], (cells, at)
        assert "inner_loop" in out.details
        for path in pdb_store.cache_dir().glob("pdb-*"):
            path.unlink()


@pytest.mark.parametrize("algorithm", ["idastar", "anytime"])
def test_tables_read_from_the_cache_count_towards_the_memory_limit(algorithm):
    """A search whose tables come from the cache can end within a few thousand expansions,
    before the budget's usual first look (the 8-puzzle below: 31 moves, DESIGN.md).  A
    process that holds more than the limit once its tables are read stops at its first
    look, with nothing proven, as one that built them does."""
    from cpsolve.engines.runtime import interrupt, memory

    puzzle = board(3, 3, [8, 6, 7, 2, 5, 4, 3, 0, 1], [[1, 2, 3, 4], [5, 6, 7, 8]])
    first = run("search", "solve", puzzle.model, Options(algorithm=algorithm))
    assert first.status is Status.OPTIMAL and first.steps == 31  # the tables are built
    try:
        memory.set_limit(1)  # any process holds more than a byte
        result = run("search", "solve", puzzle.model, Options(algorithm=algorithm))
    finally:
        memory.set_limit(None)
        interrupt.clear()
    assert result.status is Status.UNKNOWN, result.message
    assert result.plan is None and "memory limit 1 byte reached" in result.message
    assert "cached" in result.details.get("patterns", "")


# --- A resumed build says so: in its result, not only on the passing progress line ------
# A build is saved whole layers at a time, so a run stopped inside the layer after the
# saved ones keeps the saved file as it was: the next run begins that layer again.

def eight_task():
    """The 8-puzzle with two 4-tile tables: table 1's build has about 20 layers."""
    table = {"family": "sliding", "start": "8 6 7\n2 5 4\n3 _ 1",
             "goal": "1 2 3\n4 5 6\n7 8 _",
             "estimate": {"patterns": [["1", "2", "3", "4"], ["5", "6", "7", "8"]]}}
    return compile_planning(build(Data(table, "test.toml")).model)


def test_a_run_that_resumes_and_gets_further_says_so_in_its_result(own_cache):
    task = eight_task()
    first = pdb.pattern_set(task, StopAt(5))
    assert first.reached[0] == 5 and first.notes == []  # a fresh build: nothing resumed
    second = pdb.pattern_set(task, StopAt(9))
    assert second.reached[0] == 9
    assert second.notes == ["resuming table 1 at distance 6"]  # the first layer not saved
    assert "resuming table 1 at distance 6" in second.describe()
    assert "not finished" not in second.describe()


def test_a_resumed_build_that_finishes_says_it_was_resumed(own_cache):
    task = eight_task()
    pdb.pattern_set(task, StopAt(5))
    done = pdb.pattern_set(task)
    assert not done.partial
    assert done.describe().endswith("built now; resuming table 1 at distance 6")


def test_a_run_stopped_inside_the_next_layer_says_it_added_nothing(own_cache):
    task = eight_task()
    pdb.pattern_set(task, StopAt(5))
    (saved,) = own_cache.glob("pdb-*.partial.npz")
    before = saved.read_bytes()
    stalled = pdb.pattern_set(task, StopAt(-1, extra=2))  # three looks into layer 6
    assert stalled.reached[0] == 5  # layers 0-5, as saved: layer 6 was not finished
    (note,) = stalled.notes
    assert re.fullmatch(r"resuming table 1 at distance 6: layer 6 not finished in this "
                        r"run's \d+\.\d s \(\d+\.\d s of it reading the saved build\), "
                        r"kept layers 0-5", note)
    assert note in stalled.describe()
    assert saved.read_bytes() == before  # nothing to save: the file is the first run's
    again = StopAt(6)
    assert pdb.pattern_set(task, again).reached[0] == 6  # the next run begins layer 6 again
    assert any("resuming table 1 at distance 6" in line for line in again.lines)


def test_the_details_carry_the_resume(own_cache):
    """``details.patterns`` is the text output's ``Estimate:`` line and ``--json``'s."""
    task = eight_task()
    compile_estimate(task, StopAt(5))
    resumed = compile_estimate(task, StopAt(9)).details()
    assert resumed["pattern_tables"] == "partial"
    assert "table 1 to distance 9" in resumed["patterns"]
    assert "resuming table 1 at distance 6" in resumed["patterns"]
    stalled = compile_estimate(task, StopAt(-1, extra=2)).details()
    assert "layer 10 not finished in this run's" in stalled["patterns"]
    assert "kept layers 0-9" in stalled["patterns"]
