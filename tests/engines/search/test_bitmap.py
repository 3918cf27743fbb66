"""Two bits per state over ranked permutations (statespace/bitmap.py, permrank.py, twobits.py).

The layer sizes are checked against a plain breadth-first search written here (tuples in
a Python set, its own slide generator), independent of the model and of the engine."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from cpsolve import And, Planning, Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.engine import default_analysis
from cpsolve.engines.search.statespace.bitmap import Space, prepare
from cpsolve.engines.search.statespace.permrank import Ranker
from cpsolve.engines.search.statespace.twobits import CURRENT, NEXT, OLD, UNSEEN, TwoBitMap
from cpsolve.puzzles.files import load

ROOT = Path(__file__).resolve().parents[3]


def board(rows: int, cols: int, start: tuple[int, ...]) -> Planning:
    """A ``rows`` x ``cols`` sliding puzzle, cells row-major, 0 the blank; goal 1, 2, ..., 0."""
    n = rows * cols
    m = Planning(f"{rows}x{cols}")
    c = m.add_array("c", n, 0, n - 1)
    m.set_initial({f"c[{i}]": v for i, v in enumerate(start)})
    goal = (*range(1, n), 0)
    m.set_goal(And(*[c[i] == v for i, v in enumerate(goal)]))
    m.add_actions("move {i} to {j}", {"i": range(n), "j": range(n)},
                  lambda i, j: ((c[i] != 0) & (c[j] == 0), {c[j]: c[i], c[i]: 0}),
                  where=lambda i, j: abs(i // cols - j // cols) + abs(i % cols - j % cols) == 1)
    return m


def plain_distances(rows: int, cols: int, root: tuple[int, ...]) -> dict[tuple, int]:
    """The distance of every state from ``root`` by a plain BFS: the blank swaps with a
    neighbour."""
    dist, frontier = {root: 0}, [root]
    while frontier:
        nxt = []
        for s in frontier:
            b = s.index(0)
            r, q = divmod(b, cols)
            for dr, dq in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= r + dr < rows and 0 <= q + dq < cols:
                    t = list(s)
                    j = (r + dr) * cols + q + dq
                    t[b], t[j] = t[j], t[b]
                    u = tuple(t)
                    if u not in dist:
                        dist[u] = dist[s] + 1
                        nxt.append(u)
        frontier = nxt
    return dist


def plain_layers(rows: int, cols: int, root: tuple[int, ...]) -> list[int]:
    """Layer sizes of :func:`plain_distances`."""
    counts = Counter(plain_distances(rows, cols, root).values())
    return [counts[d] for d in range(len(counts))]


def analyze(model: Planning, **options):
    return run("search", "analyze", model, Options(algorithm="bitmap", **options))


# ---------------------------------------------------------------- ranks


@pytest.mark.parametrize("n", range(1, 8))
def test_ranks_are_the_places_in_lexicographic_order(n):
    ranker = Ranker(n)
    perms = np.array(list(itertools.permutations(range(n))), np.int8).T  # in lex order
    ranks = ranker.rank(perms)
    assert ranks.tolist() == list(range(math.factorial(n)))
    assert (ranker.unrank(ranks) == perms).all()


def test_ranks_of_sixteen_values_round_trip():
    rng = np.random.default_rng(7)
    perms = np.array([rng.permutation(16) for _ in range(500)], np.int8).T
    ranker = Ranker(16)
    ranks = ranker.rank(perms)
    assert (ranks >= 0).all() and (ranks < math.factorial(16)).all()
    assert (ranker.unrank(ranks) == perms).all()
    assert ranker.rank(np.arange(16, dtype=np.int8)[::-1, None])[0] == math.factorial(16) - 1


# ---------------------------------------------------------------- the 2-bit map


def test_two_bit_marks_and_advance():
    bits = TwoBitMap(100)
    for r in (0, 5, 31, 32):
        bits.put(r, CURRENT)
    # repeats, and several fields of one byte at once (4, 5, 6, 7 share a byte)
    bits.mark_next(np.array([5, 4, 6, 7, 7, 31, 33, 64, 64, 99]))
    assert [bits.get(r) for r in (0, 4, 5, 6, 7, 33, 64, 99, 98)] == \
        [CURRENT, NEXT, CURRENT, NEXT, NEXT, NEXT, NEXT, NEXT, UNSEEN]
    assert np.concatenate(list(bits.current())).tolist() == [0, 5, 31, 32]
    assert bits.advance() == 6
    assert np.concatenate(list(bits.current())).tolist() == [4, 6, 7, 33, 64, 99]
    assert [bits.get(r) for r in (0, 5, 31, 32, 98)] == [OLD, OLD, OLD, OLD, UNSEEN]


# ---------------------------------------------------------------- layers against a plain BFS


@pytest.mark.parametrize(("rows", "cols"), [(2, 3), (2, 4), (3, 3)])
def test_layers_equal_a_plain_bfs(rows, cols):
    n = rows * cols
    goal = (*range(1, n), 0)
    result = analyze(board(rows, cols, goal))
    assert result.details["algorithm"] == "bitmap" and result.status is Status.COMPLETE
    expected = plain_layers(rows, cols, goal)
    assert list(result.layers) == expected
    assert result.states == math.factorial(n) // 2 == sum(expected)
    assert result.answer.direction == "goal" and result.details["initial_distance"] == 0
    assert result.details["bits_per_state"] == 2 and not result.details["map_on_disk"]


def test_from_the_start_and_farthest_states():
    start = (4, 1, 2, 0, 5, 3)
    model = board(2, 3, start)
    forward = analyze(model, direction="start")
    assert forward.answer.direction == "start"
    assert list(forward.layers) == plain_layers(2, 3, start)
    back = analyze(model)
    from_goal = plain_distances(2, 3, (1, 2, 3, 4, 5, 0))
    assert back.details["initial_distance"] == from_goal[start]
    far = max(from_goal.values())
    assert set(back.farthest) == {s for s, d in from_goal.items() if d == far}
    numpy = run("search", "analyze", model, Options(algorithm="numpy"))
    assert back.farthest == numpy.farthest and back.layers == numpy.layers


def test_unsolvable_start_counts_both_halves():
    # two tiles swapped: the goal's half of 6!/2 is not reached from the start
    model = board(2, 3, (2, 1, 3, 4, 5, 0))
    result = analyze(model)
    assert result.states == 360 and result.details["reachable"] == 360
    assert result.details["initial_distance"] is None


def test_a_limit_counts_each_half_on_its_own():
    # 360 states reach the goal, 360 others are reachable: a limit of 400 holds each half
    # (it stopped the count from the start at 40 and called the analysis partial from there)
    result = analyze(board(2, 3, (2, 1, 3, 4, 5, 0)), limit=400)
    assert result.status is Status.COMPLETE and result.answer.direction == "goal"
    assert result.states == 360 and result.details["reachable"] == 360
    short = analyze(board(2, 3, (2, 1, 3, 4, 5, 0)), limit=100)  # the goal's half stops
    assert short.status is Status.PARTIAL and short.answer.direction == "goal"


def test_map_on_disk_gives_the_same_layers(tmp_path):
    """A map larger than its budget goes on disk.  The budget is ``Options.memory_limit``
    under a command's memory limit (``--memory-limit`` gives the arrays half of it); a run
    without one takes it for the process's limit, which 1,000 bytes would stop at once."""
    from cpsolve.engines.runtime import memory

    model = board(2, 4, (*range(1, 8), 0))
    memory.set_limit(1 << 40)  # as a command sets it
    try:
        result = analyze(model, memory_limit=1000, work_dir=str(tmp_path))
    finally:
        memory.set_limit(None)
    assert result.details["map_on_disk"] is True
    assert list(result.layers) == plain_layers(2, 4, (*range(1, 8), 0))
    assert list(tmp_path.iterdir()) == []  # the map's file is removed


def limited(layers: list[int], limit: int) -> tuple[list[int], bool]:
    """The layers an analysis stopped by ``--limit`` keeps: whole ones while they fit, then
    the states up to the limit as a partial last one (True) (docs/json.md ``layers``)."""
    kept, seen = [], 0
    for size in layers:
        if seen + size > limit:
            if limit > seen:
                kept.append(limit - seen)
            return kept, limit > seen
        kept.append(size)
        seen += size
    return kept, False


@pytest.mark.parametrize("limit", [1, 7, 1000, 1102])
def test_a_limit_is_held_exactly(limit):
    """At most ``limit`` states, as the numpy analysis: a layer the limit falls inside keeps
    the states up to it as a partial last layer, which ``bound`` does not count (8-puzzle
    from the goal: 1, 2, 4, ... so 7 and 1,102 end whole layers, 1,000 cuts distance 11)."""
    whole = plain_layers(3, 3, (*range(1, 9), 0))
    expected, cut = limited(whole, limit)
    result = analyze(board(3, 3, (*range(1, 9), 0)), limit=limit)
    assert result.status is Status.PARTIAL and result.states == result.explored == limit
    assert list(result.layers) == expected
    assert (result.details.get("last_layer") == "partial") is cut
    assert result.bound == len(expected) - 1 - cut
    numpy = run("search", "analyze", board(3, 3, (*range(1, 9), 0)),
                Options(algorithm="numpy", limit=limit))
    assert numpy.layers == result.layers and numpy.message == result.message


def test_a_limit_is_held_exactly_with_the_map_on_disk(tmp_path):
    from cpsolve.engines.runtime import memory

    memory.set_limit(1 << 40)  # as a command sets it
    try:
        result = analyze(board(2, 4, (*range(1, 8), 0)), memory_limit=1000,
                         work_dir=str(tmp_path), limit=100)
    finally:
        memory.set_limit(None)
    assert result.details["map_on_disk"] is True and result.states == 100
    expected, cut = limited(plain_layers(2, 4, (*range(1, 8), 0)), 100)
    assert list(result.layers) == expected and cut


def test_models_that_are_not_permutations_fall_back():
    m = Planning("counter")
    x = m.add_variable("x", 0, 5)
    y = m.add_variable("y", 0, 5)
    m.set_initial({"x": 0, "y": 1})
    m.set_goal(x == 5)
    m.add_action("inc", x < 5, {x: x + 1})  # writes a new value: not a permutation
    m.add_action("swap", True, {x: y, y: x})
    result = analyze(m)
    assert result.details["algorithm"] == "numpy"
    assert "does not just move values around" in result.details["fallback"]
    repeated = board(2, 3, (1, 2, 3, 4, 5, 0))
    repeated.set_initial({"c[0]": 1, "c[1]": 1, "c[2]": 3, "c[3]": 4, "c[4]": 5, "c[5]": 0})
    assert "repeats a value" in analyze(repeated).details["fallback"]


def test_default_for_twelve_values_is_the_bitmap():
    eleven = compile_planning(load(ROOT / "examples" / "eleven_puzzle.toml").model)
    assert default_analysis(Options(), eleven) == "bitmap"
    assert default_analysis(Options(limit=math.inf), eleven) == "bitmap"  # --limit none
    assert default_analysis(Options(limit=10), eleven) == "numpy"
    eight = compile_planning(board(3, 3, (*range(1, 9), 0)))
    assert default_analysis(Options(), eight) == "numpy"  # 9! fits the in-memory bit map
    fifteen = compile_planning(load(ROOT / "models" / "fifteen_puzzle.toml").model)
    assert default_analysis(Options(), fifteen) != "bitmap"  # 16!/4 bytes: 5.2 TB


def test_successor_ranks_of_sixteen_values_in_64_bits():
    # the 15-puzzle's sixteen 4-bit cells fill the whole int64 (codes offset by 2^63)
    task = compile_planning(load(ROOT / "models" / "fifteen_puzzle.toml").model)
    space = Space(*prepare(task))
    assert space.packed.offset
    rng = np.random.default_rng(3)
    for _ in range(20):
        state = tuple(int(v) for v in rng.permutation(16))
        rank = space.rank(state)
        assert space.state(rank) == state
        got = sorted(space.state(int(r)) for r in space.successors(np.array([rank])))
        assert got == sorted(task.next_states(state))


def test_spooled_marks_equal_direct_ones(tmp_path):
    rng = np.random.default_rng(5)
    direct, spooled = TwoBitMap(5000), TwoBitMap(5000, tmp_path / "map.bin")
    # 400 ranks per segment: 13 segments; settled by itself past 8,000 bytes (1,000 ranks)
    spooled.spool(tmp_path / "spool", 100, 8000)
    for bits in (direct, spooled):
        for r in (0, 17, 4999):
            bits.put(r, CURRENT)
    for _ in range(3):
        batch = rng.integers(0, 5000, 700)
        direct.mark_next(batch)
        spooled.mark_next(batch)
    assert spooled.get(int(batch[-1])) in (UNSEEN, CURRENT)  # the last batch: not yet
    direct.settle()
    spooled.settle()
    assert (np.asarray(spooled.mem) == direct.mem).all() and direct.advance() == spooled.advance()
    assert list((tmp_path / "spool").iterdir()) == []
    spooled.close()


def test_cli_names_the_bitmap_analysis(cli, tmp_path):
    run = cli("analyze", ROOT / "models" / "eight_puzzle.toml", "--algorithm", "bitmap",
              "--json")
    assert run.code == 0
    data = json.loads(run.out.strip().splitlines()[-1])
    assert data["details"]["algorithm"] == "bitmap" and data["details"]["bits_per_state"] == 2
    assert data["states"] == 181_440 and data["max_distance"] == 31  # the model's [expected]
    stopped = cli("analyze", ROOT / "examples" / "eleven_puzzle.toml", "--algorithm", "bitmap",
                  "--limit", "5000", "--json")
    partial = json.loads(stopped.out.strip().splitlines()[-1])
    assert partial["status"] == "partial" and partial["details"]["algorithm"] == "bitmap"
    # OEIS A090166, the 3x4 from a corner blank, complete up to distance 11 (3,094 states),
    # then the 1,906 states of distance 12 up to the limit
    assert partial["layers"] == [1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 1906]
    assert partial["bound"] == 11 and partial["states"] == 5000
    assert partial["details"]["last_layer"] == "partial"


def test_moves_that_cannot_be_undone_count_from_the_start():
    # a one-way rotation of three values: every move is a permutation, none undoes itself
    m = Planning("rotate")
    xs = m.add_array("x", 3, 0, 2)
    m.set_initial({"x[0]": 0, "x[1]": 1, "x[2]": 2})
    m.set_goal(And(xs[0] == 1, xs[1] == 2, xs[2] == 0))
    m.add_action("rotate", True, {xs[0]: xs[1], xs[1]: xs[2], xs[2]: xs[0]})
    result = analyze(m)
    assert result.answer.direction == "start" and "undone" in result.details["backward"]
    assert result.layers == (1, 1, 1) and result.states == 3


def test_a_map_larger_than_the_free_disk_is_refused_in_one_line(cli, tmp_path, monkeypatch):
    """The 15-puzzle's map ranks all 16! arrangements at 2 bits, and its spool as much
    again: 16!/4 * 2 bytes, more than any test disk has (the message read the directory
    after letting it go: an AttributeError, exit 3).  The map goes to the temporary
    directory, here ``tmp_path``."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    run = cli("analyze", "fifteen_puzzle", "--algorithm", "bitmap")
    assert run.code == 2 and len(run.err_lines) == 1 and not run.out
    assert f"need {math.factorial(16) // 4 * 2:,} bytes; {tmp_path} has " in run.err
    assert list(tmp_path.iterdir()) == []  # its directory there is removed
