"""Issue 26: sliding pieces restricted to an axis (Rush Hour) and the multi-tile metric.

Optima and the 8-puzzle's largest distance are recounted here by plain
breadth-first searches over positions, sharing nothing with the family.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.puzzles.files import load

ROOT = Path(__file__).resolve().parents[2]
N = 6
# examples/rush_hour.toml: (row, col, length, horizontal) of each car, rows/cols from 0
CARS = {"A": (0, 0, 2, True), "B": (0, 5, 3, False), "C": (1, 3, 3, False),
        "D": (5, 2, 3, True), "E": (4, 0, 2, False), "X": (2, 0, 2, True)}


def rush_hour_optimum(line: bool) -> int:
    """Fewest moves until X's first cell is at (2, 4): a car moves along its axis one cell
    (step) or any distance (line) per move."""
    names = sorted(CARS)
    start = tuple((CARS[n][0], CARS[n][1]) for n in names)

    def cells(i: int, pos) -> list[tuple[int, int]]:
        r, c = pos
        _, _, length, horizontal = CARS[names[i]]
        return [(r, c + k) if horizontal else (r + k, c) for k in range(length)]

    def moves(state):
        taken = {cell for i, pos in enumerate(state) for cell in cells(i, pos)}
        for i, (r, c) in enumerate(state):
            own = set(cells(i, (r, c)))
            horizontal = CARS[names[i]][3]
            for sign in (1, -1):
                k = 1
                while True:
                    pos = (r, c + sign * k) if horizontal else (r + sign * k, c)
                    new = cells(i, pos)
                    if not all(0 <= a < N and 0 <= b < N for a, b in new) or \
                            any(cell in taken and cell not in own for cell in new):
                        break
                    yield state[:i] + (pos,) + state[i + 1:]
                    if not line:
                        break
                    k += 1

    x = names.index("X")
    seen, queue = {start: 0}, deque([start])
    while queue:
        s = queue.popleft()
        if s[x] == (2, 4):
            return seen[s]
        for t in moves(s):
            if t not in seen:
                seen[t] = seen[s] + 1
                queue.append(t)
    raise AssertionError("no way out")


@pytest.mark.parametrize("metric", ["line", "step"])
def test_rush_hour_optimum_by_every_engine_as_a_brute_force_says(write_model, metric):
    want = rush_hour_optimum(metric == "line")
    text = (ROOT / "examples" / "rush_hour.toml").read_text(encoding="utf-8")
    text = text.split("[expected]")[0].replace('metric = "line"', f'metric = "{metric}"')
    puzzle = load(write_model("rh.toml", text))
    for engine in ("search", "cpsat"):
        result = run(engine, "solve", puzzle.model, Options(time_limit=120))
        assert result.status is Status.OPTIMAL and result.verified, result
        assert result.steps == want, (engine, metric)
    if metric == "line":
        assert puzzle.expected == {} and want == 5  # examples/rush_hour.toml says 5


def test_a_car_never_leaves_its_axis():
    puzzle = load(ROOT / "examples" / "rush_hour.toml")
    names = list(puzzle.moves)
    assert any(n.startswith("B at") and " down" in n for n in names)
    assert not any(n.startswith(("B at", "C at", "E at")) and (" left" in n or " right" in n)
                   for n in names)
    assert not any(n.startswith(("A at", "D at", "X at")) and (" up" in n or " down" in n)
                   for n in names)


def eight_puzzle_distances() -> dict[tuple[int, ...], int]:
    """Multi-tile distances of every 8-puzzle state to the goal (BFS; moves reversible)."""
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    seen, queue = {goal: 0}, deque([goal])
    while queue:
        s = queue.popleft()
        hole = s.index(0)
        r, c = divmod(hole, 3)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            t, (rr, cc) = list(s), (r, c)
            while 0 <= rr + dr < 3 and 0 <= cc + dc < 3:  # the hole runs 1 or 2 cells
                nr, nc = rr + dr, cc + dc
                t[rr * 3 + cc], t[nr * 3 + nc] = t[nr * 3 + nc], 0
                rr, cc = nr, nc
                key = tuple(t)
                if key not in seen:
                    seen[key] = seen[s] + 1
                    queue.append(key)
    return seen


EIGHT = """family = "sliding"
name = "8-puzzle, multi-tile"
metric = "tiles"
start = '''
8 6 7
2 5 4
3 _ 1
'''
goal = '''
1 2 3
4 5 6
7 8 _
'''
"""


def test_the_multi_tile_8_puzzle_as_an_independent_bfs_counts(write_model):
    dist = eight_puzzle_distances()
    assert len(dist) == 181_440
    far = max(dist.values())
    start = (8, 6, 7, 2, 5, 4, 3, 0, 1)
    puzzle = load(write_model("e.toml", EIGHT))
    analysis = run("search", "analyze", puzzle.model, Options(time_limit=300))
    assert analysis.status is Status.COMPLETE
    assert (analysis.answer.states, analysis.answer.max_distance) == (len(dist), far) == \
        (181_440, 24)
    assert len(analysis.answer.farthest) == sum(d == far for d in dist.values())
    for engine in ("search", "cpsat"):
        result = run(engine, "solve", puzzle.model, Options(time_limit=120))
        assert result.status is Status.OPTIMAL and result.steps == dist[start], engine
    bundled = load(ROOT / "examples" / "eight_puzzle_tiles.toml").expected
    assert bundled == {"solve": "optimal", "steps": dist[start], "states": len(dist),
                       "max_distance": far, "farthest": sum(d == far for d in dist.values())}


def test_tiles_is_for_one_cell_pieces_and_axis_for_blocks(write_model, cli):
    from test_language import one_error_line

    text = (ROOT / "examples" / "rush_hour.toml").read_text(encoding="utf-8")
    one_error_line(cli("solve", write_model("a.toml", text.replace(
        'metric = "line"', 'metric = "tiles"'))), "metric")
    one_error_line(cli("solve", write_model("b.toml", text.replace(
        'A = "horizontal"', 'A = "sideways"'))), "axis.A")
    for way in ('{ way = "horizontal" }', '["horizontal"]', "1"):  # not a string at all
        one_error_line(cli("solve", write_model("c.toml", text.replace(
            'A = "horizontal"', f"A = {way}"))), "axis.A")
