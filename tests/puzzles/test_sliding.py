"""Sliding-block puzzles: known answers, state spaces, the family's declared facts, output.

Expected figures are the puzzles' published facts (the seed articles and
docs/design.md): 8-puzzle 31 moves, 181,440 states, 2 states at distance 31
(867254301 and 647850321); line pieces 30 moves, 90,720 states, 6 at
distance 30; ON-OFF 44 moves, 540 states, 3 at distance 56, problem B 56;
with the o's and f's told apart, 44 and 48 moves, and the two other
swaps unsolvable (seed 000).  Korf's first 15-puzzle instance takes 57
moves (Korf 1985).  Nothing is pasted from the engines' own output.
"""

from __future__ import annotations

import importlib
import json
import random
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.answers.check.plans import replay
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.emit import build, source
from cpsolve.engines.search.planning.heuristic import compile_estimate
from cpsolve.language.interpret import evaluate
from cpsolve.model import Planning
from cpsolve.model.facts import plan_parity
from cpsolve.model.pins import goal_state
from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import bundled, load

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
FIFTEENS = sorted(p.name for p in MODELS.glob("fifteen_*.toml") if "unsolvable" not in p.name)


def solve(path: Path | str, algorithm: str | None = None, **options):
    puzzle = load(path)
    return run("search", "solve", puzzle.model, Options(algorithm=algorithm, **options))


def analyze(path: Path | str, algorithm: str | None = None, **options):
    puzzle = load(path)
    return run("search", "analyze", puzzle.model, Options(algorithm=algorithm, **options))


def sliding(tmp_path: Path, name: str, start: str, goal: str, blocks: str = "") -> Path:
    """A sliding model file under tmp_path (pictures as rows separated by '/')."""
    text = f'family = "sliding"\nname = "{name}"\n{blocks}\n'
    for key, picture in (("start", start), ("goal", goal)):
        rows = "\n".join(row.strip() for row in picture.split("/"))
        text += f'{key} = """\n{rows}\n"""\n'
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- known answers


KNOWN = {"eight_puzzle.toml": 31, "line_puzzle.toml": 30, "onoff.toml": 44,
         "onoff_problem_b.toml": 56}


@pytest.mark.parametrize("algorithm", [None, "astar", "idastar", "bidir"])
@pytest.mark.parametrize("name", list(KNOWN))
def test_bundled_sliding_models(name, algorithm):
    result = solve(MODELS / name, algorithm)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.steps == KNOWN[name] == result.cost


ON_OFF_APART = "L L n o / O f F _"  # seed 000: the second o and f in capitals


@pytest.mark.parametrize("goal, moves", [
    ("L L O n / o f F _", 44),   # (b): o and O swapped
    ("L L o n / O F f _", 48),   # (c): f and F swapped
    ("L L o n / O f F _", None),  # (a): only n and o swapped: impossible
    ("L L O n / o F f _", None),  # both pairs swapped: impossible
])
def test_on_off_with_pieces_told_apart(tmp_path, goal, moves):
    path = sliding(tmp_path, "apart", ON_OFF_APART, goal, 'blocks = ["L"]')
    for algorithm in (None, "bfs"):
        result = solve(path, algorithm)
        if moves is None:  # the blocks rule out the parity proof: search proves it
            assert result.status is Status.INFEASIBLE
        else:
            assert result.status is Status.OPTIMAL and result.steps == moves and result.verified


def test_identical_pieces_are_interchangeable(tmp_path):
    # with equal tokens the ON-OFF goal needs no particular o or f: 44 (the o-swap)
    path = sliding(tmp_path, "same", "L L n o / o f f _", "L L o n / o f f _", 'blocks = ["L"]')
    assert solve(path).steps == 44


# ---------------------------------------------------------------- state spaces


@pytest.mark.parametrize("algorithm", ["numpy", "python"])
def test_analyze_eight_puzzle(algorithm):
    puzzle = load(MODELS / "eight_puzzle.toml")
    result = run("search", "analyze", puzzle.model, Options(algorithm=algorithm))
    assert result.status is Status.COMPLETE and result.answer.direction == "goal"
    assert result.states == 181_440 == result.details["reachable"] == sum(result.layers)
    assert result.max_distance == 31 and result.layers[31] == 2
    drawn = {puzzle.render_state(s).replace("_", "0") for s in result.farthest}
    assert {d.replace(" ", "").replace("\n", "") for d in drawn} == {"867254301", "647850321"}
    assert list(result.layers) == EIGHT_LAYERS
    assert result.details["initial_distance"] == 31


EIGHT_LAYERS = [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485,
                5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910,
                760, 221, 2]
"""8-puzzle positions by distance from the goal with the blank in a corner (OEIS A089473)."""


@pytest.mark.parametrize("algorithm", ["numpy", "python"])
@pytest.mark.parametrize("name, states, farthest, count", [
    ("line_puzzle.toml", 90_720, 30, 6),
    ("onoff.toml", 540, 56, 3),
])
def test_analyze_line_and_on_off(name, states, farthest, count, algorithm):
    result = analyze(MODELS / name, algorithm)
    assert result.status is Status.COMPLETE and result.details["algorithm"] == algorithm
    assert result.states == states == result.details["reachable"]
    assert result.max_distance == farthest and len(result.farthest) == count


def test_problem_b_is_one_of_the_farthest():
    # problem B's goal is the ON-OFF start; its start lies 56 moves away, the maximum
    result = analyze(MODELS / "onoff_problem_b.toml")
    assert result.max_distance == 56 == result.details["initial_distance"]
    start = load(MODELS / "onoff_problem_b.toml").model.initial_state()
    assert start in result.farthest


@pytest.mark.parametrize("algorithm", ["numpy", "python"])
def test_analyze_limit_keeps_complete_layers(algorithm, monkeypatch):
    from cpsolve.engines.search import common

    monkeypatch.setattr(common, "REPORT_EVERY", 0.0)
    lines: list[str] = []
    result = analyze(MODELS / "eight_puzzle.toml", algorithm, limit=5_000,
                     progress=lines.append)
    assert result.status is Status.PARTIAL and "state limit" in result.message
    # complete layers, then the layer the limit fell in, up to the limit (issue 21): the
    # last distance whose layer is complete is the one before it
    assert result.details["last_layer"] == "partial"
    assert result.max_distance is None and result.bound == len(result.layers) - 2
    assert list(result.layers[:-1]) == EIGHT_LAYERS[:len(result.layers) - 1]
    assert result.layers[-1] <= EIGHT_LAYERS[len(result.layers) - 1]
    assert result.states == sum(result.layers) and 5_000 - 4 <= result.states <= 5_000
    assert lines and all("depth" in line for line in lines)


@st.composite
def boards(draw):
    """Small random sliding boards: identical pieces, one or two blanks, maybe a 2-wide block."""
    rows, cols = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4)]))
    block = cols >= 3 and draw(st.booleans())
    free = rows * cols - (2 if block else 0)
    blanks = draw(st.integers(1, 2))
    kinds = "ab" if rows * cols == 8 else "abcde"
    pieces = ["_"] * blanks + [draw(st.sampled_from(kinds)) for _ in range(free - blanks)]

    def picture() -> str:
        cells = draw(st.permutations(pieces))
        grid = [list(cells[r * cols:(r + 1) * cols]) for r in range(rows)] if not block else None
        if block:
            r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 2))
            rest = iter(cells)
            grid = [["L" if (i == r and j in (c, c + 1)) else next(rest) for j in range(cols)]
                    for i in range(rows)]
        return " / ".join(" ".join(row) for row in grid)

    return picture(), picture(), 'blocks = ["L"]' if block else ""


@settings(max_examples=40, deadline=None)
@given(boards())
def test_random_boards_numpy_and_python_agree(tmp_path_factory, board):
    start, goal, blocks = board
    path = sliding(tmp_path_factory.mktemp("b"), "random", start, goal, blocks)
    fast, slow = analyze(path, "numpy"), analyze(path, "python")
    for field in ("states", "layers", "max_distance", "farthest"):
        assert getattr(fast, field) == getattr(slow, field)
    assert fast.details["reachable"] == slow.details["reachable"]
    assert fast.details.get("initial_distance") == slow.details.get("initial_distance")
    moves = solve(path, "bfs").steps
    assert moves == fast.details.get("initial_distance")
    for algorithm in ("bidir", "astar", "idastar", None):
        # IDA* keeps no visited set: where no plan exists, it proves so only once its bound
        # passes the states there are, else it deepens until its time limit (an unknown:
        # no plan either; the others exhaust these few hundred states at once)
        found = solve(path, algorithm, time_limit=5)
        assert found.steps == moves, algorithm
        if moves is not None:
            assert found.status is Status.OPTIMAL, algorithm
        elif algorithm != "idastar" or found.status is not Status.UNKNOWN:
            assert found.status is Status.INFEASIBLE, algorithm


# ---------------------------------------------------------------- bidir agrees with bfs


BEYOND_PLAIN_BFS = {"english33.toml", "fifteen_easy.toml", "fifteen_medium.toml",
                    "fifteen_puzzle.toml", "fifteen_korf1.toml", "fifteen_unsolvable.toml"}
"""Bundled planning models with more than 200,000 states within their optimum (15-puzzles
grow ~2.1x per move; English 33 has millions of positions): plain BFS cannot finish them."""

SINGLE_GOAL = [p.name for p in bundled() if isinstance(m := load(p).model, Planning)
               and goal_state(m) is not None and p.name not in BEYOND_PLAIN_BFS]
"""Models bidirectional BFS applies to (one goal state), small enough for plain BFS."""


def test_single_goal_models_are_found():
    assert {"eight_puzzle.toml", "line_puzzle.toml", "onoff.toml"} <= set(SINGLE_GOAL)


@pytest.mark.parametrize("name", SINGLE_GOAL)
def test_bidir_agrees_with_bfs(name):
    model = load(MODELS / name).model
    bfs = run("search", "solve", model, Options(algorithm="bfs", limit=200_000))
    assert bfs.status is not Status.UNKNOWN, "plain BFS did not finish: list the model above"
    bidir = run("search", "solve", model, Options(algorithm="bidir"))
    assert (bidir.status, bidir.steps) == (bfs.status, bfs.steps)


# ---------------------------------------------------------------- the family's declared facts


def true_distances(model: Planning) -> dict[tuple[int, ...], int]:
    """Every state that can reach the goal, with its distance (backward BFS)."""
    task = compile_planning(model)
    goal = goal_state(model)
    dist = {goal: 0}
    frontier = [goal]
    while frontier:
        layer = []
        for t in frontier:
            for _, p in task.predecessors(t):
                if p not in dist:
                    dist[p] = dist[t] + 1
                    layer.append(p)
        frontier = layer
    return dist


@pytest.mark.parametrize("name", ["onoff.toml", "line_puzzle.toml", "eight_puzzle.toml"])
def test_estimate_is_admissible_and_parity_holds(name):
    model = load(MODELS / name).model
    dist = true_distances(model)
    task = compile_planning(model)
    h = compile_estimate(task).h
    assert all(h(s) <= d for s, d in dist.items())
    assert h(goal_state(model)) == 0
    # the compiled estimate is the declared one (reference interpreter on a sample)
    for s in random.Random(1).sample(sorted(dist), 200):
        assert h(s) == evaluate(model.estimate, model.assignment(s))
    if model.parity is not None:  # every move changes it by an odd amount
        parity = build(f"def p(s):\n    return {source(model.parity, task._ref)}\n", {}, "p")
        goal = parity(goal_state(model))
        assert all((parity(s) - goal - d) % 2 == 0 for s, d in dist.items())


def test_estimate_counts_a_block_once():
    # ON-OFF: the lamp is one piece; from the start, n and o are each one cell off
    model = load(MODELS / "onoff.toml").model
    assert evaluate(model.estimate, model.initial) == 2


# ---------------------------------------------------------------- 15-puzzles


def test_fifteen_unsolvable_by_parity_without_search(cli):
    run_ = cli("solve", MODELS / "fifteen_unsolvable.toml", "--engine", "search", "--json")
    data = json.loads(run_.out)
    assert run_.code == 0 and data["status"] == "infeasible" and data["engine"] == "invariant"
    assert "parity" in data["message"] and "1 transposition" in data["message"]


@pytest.mark.parametrize("metric", ["line", "path"])
def test_parity_proof_holds_in_every_metric(tmp_path, metric):
    # a line move or a route is a run of one-cell steps: reachability is the step metric's
    path = sliding(tmp_path, "swapped", "2 1 3 / 4 5 6 / 7 8 _", "1 2 3 / 4 5 6 / 7 8 _")
    path.write_text(path.read_text(encoding="utf-8") + f'metric = "{metric}"\n',
                    encoding="utf-8")
    puzzle = load(path)
    assert puzzle.infeasibility_proof() and puzzle.model.parity is None
    assert "parity" in puzzle.infeasibility_proof()


def test_eight_puzzle_with_two_tiles_swapped_is_unsolvable(tmp_path, cli):
    path = sliding(tmp_path, "swapped", "2 1 3 / 4 5 6 / 7 8 _", "1 2 3 / 4 5 6 / 7 8 _")
    data = json.loads(cli("solve", path, "--json").out)
    assert data["status"] == "infeasible" and "parity" in data["message"]
    assert load(MODELS / "eight_puzzle.toml").infeasibility_proof() is None


@pytest.mark.parametrize("name", FIFTEENS)
def test_fifteen_puzzles_get_verified_plans(name, cli):
    # 5 s: the limit counts from the process's start, and on a loaded machine the imports
    # alone took 0.5 s of a 1 s limit, leaving the search 5 states (no plan: unknown)
    run_ = cli("solve", MODELS / name, "--engine", "search", "--time-limit", "5", "--json")
    data = json.loads(run_.out)
    assert data["seconds"] <= 5 + max(0.1 * 5, 0.5)  # the limit, on the run's own clock
    assert data["status"] in ("optimal", "solved") and data["verified"] is True
    assert data["moves"] == len(data["plan"])
    puzzle = load(MODELS / name)  # the blank's colour flips at each move
    cells = puzzle.board.cells
    start, goal = (cells[s.index(0)] for s in (puzzle.model.initial_state(),
                                               goal_state(puzzle.model)))
    assert data["moves"] % 2 == (sum(start) + sum(goal)) % 2
    if data["status"] == "solved":
        assert "bound" in data and data["bound"] <= data["moves"]
        assert "not proven" in run_.out or "proof" in data["message"]
    if name == "fifteen_korf1.toml":  # Korf's optimum
        assert (data.get("bound") or 57) <= 57 <= data["moves"]
        assert data["status"] != "optimal" or data["moves"] == 57


@pytest.mark.slow
@pytest.mark.parametrize("name", FIFTEENS)
def test_fifteen_puzzles_without_time_limit(name, cli_subprocess):
    """The default run: a plan at once, then at most the default proof budget, which a
    plan not proven optimal names (how long it takes: benchmarks/sliding.py)."""
    run_ = cli_subprocess("solve", MODELS / name, "--engine", "search", "--json")
    data = json.loads(run_.out)
    assert data["status"] in ("optimal", "solved") and data["verified"] is True
    if data["status"] == "solved":
        anytime = importlib.import_module("cpsolve.engines.search.planning.anytime")
        budget = f"the default proof budget of {anytime.PROOF_SECONDS:g} s"
        assert budget in data["message"], data["message"]


def test_fifteen_easy_is_proven_optimal():
    path = MODELS / "fifteen_easy.toml"
    results = [solve(path, a) for a in (None, "astar", "idastar", "bidir")]
    assert {r.status for r in results} == {Status.OPTIMAL}
    assert len({r.steps for r in results}) == 1  # bidir uses no estimate: an independent check


def test_anytime_without_time_limit_says_how_long_it_proved(monkeypatch, tmp_path):
    anytime = importlib.import_module("cpsolve.engines.search.planning.anytime")
    monkeypatch.setattr(anytime, "PROOF_SECONDS", 0.2)
    text = (MODELS / "fifteen_korf1.toml").read_text()
    path = tmp_path / "korf1_manhattan.toml"  # without its pattern databases: Manhattan only
    path.write_text(text[:text.index("[estimate]")] + text[text.index("[expected]"):])
    result = solve(path)
    assert result.status is Status.SOLVED and result.verified
    assert "default proof budget of 0.2 s" in result.message
    assert 0 < result.bound <= 57 <= result.steps


# ---------------------------------------------------------------- output


def test_json_plan_names_piece_and_direction(tmp_path, cli):
    path = sliding(tmp_path, "two", "1 2 3 / 4 _ 5 / 7 8 6", "1 2 3 / 4 5 6 / 7 8 _")
    data = json.loads(cli("solve", path, "--engine", "search", "--json").out)
    assert data["moves"] == 2 and data["metric"].startswith("one move moves one piece")
    assert [s["action"] for s in data["plan"]] == ["5 left", "6 up"]
    assert data["plan"][-1]["state"] == ["1 2 3", "4 5 6", "7 8 _"]


def test_json_names_the_lamp_moves(cli):
    data = json.loads(cli("solve", MODELS / "onoff.toml", "--engine", "search", "--json").out)
    # a lamp like another says where it was: "o at r1c2 left"
    moves = [s["action"].split() for s in data["plan"]]
    moves = [m[:1] + m[3:] if m[1] == "at" else m for m in moves]
    assert any(len(s["action"].split()) == 4 for s in data["plan"])
    words = {m[0] for m in moves}
    directions = {m[1] for m in moves}
    assert words <= {"L", "n", "o", "f"} and "L" in words
    assert directions <= {"up", "down", "left", "right"}


def test_human_plan_shows_boards_and_metric(tmp_path, cli):
    path = sliding(tmp_path, "two", "1 2 3 / 4 _ 5 / 7 8 6", "1 2 3 / 4 5 6 / 7 8 _")
    out = cli("solve", path, "--engine", "search").out
    assert "Metric: one move moves one piece by one cell" in out
    assert "5 left" in out and "6 up" in out and "7 8 _" in out and "4 _ 5" in out


@pytest.mark.parametrize("name", ["eight_puzzle.toml", "line_puzzle.toml", "onoff.toml"])
def test_render_parse_round_trip(tmp_path, name):
    puzzle = load(MODELS / name)
    text = (MODELS / name).read_text(encoding="utf-8")
    state = puzzle.model.initial_state()
    picture = puzzle.render_state(state).replace("\n", " / ")
    blocks = 'blocks = ["L"]' if "blocks" in text else ""
    goal = puzzle.render_state(goal_state(puzzle.model)).replace("\n", " / ")
    again = load(sliding(tmp_path, "again", picture, goal, blocks))
    assert again.model.initial_state() == state
    assert again.render_state(state) == puzzle.render_state(state)


def test_walls_round_trip(tmp_path):
    path = sliding(tmp_path, "walls", "1 # 2 / _ 3 4", "_ # 2 / 1 3 4")
    puzzle = load(path)
    assert puzzle.render_state(puzzle.model.initial_state()) == "1 # 2\n_ 3 4"
    result = run("search", "solve", puzzle.model, Options())
    assert result.steps == 1 and replay(puzzle.model, result.plan)


# ---------------------------------------------------------------- pieces of any shape, metrics
#
# An independent brute force: a position is a sorted tuple of (token, cells) pieces (so
# pieces of one token and shape are interchangeable by construction); one edge is one move
# of the metric: ``step`` one cell, ``line`` any distance in one direction, ``path`` any
# translation reachable through empty cells (a BFS of the piece alone).  It shares no code
# with cpsolve and does not use the ``last`` variable the family's path model keeps.

Pos = tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _shift(cells, dr, dc):
    return tuple(sorted((r + dr, c + dc) for r, c in cells))


def brute_moves(board: set, pos: Pos, metric: str):
    for i, (token, cells) in enumerate(pos):
        others = pos[:i] + pos[i + 1:]
        free = board - {cell for _, cs in others for cell in cs}
        reached = set()
        if metric == "path":
            todo, seen = [(0, 0)], {(0, 0)}
            while todo:
                r0, c0 = todo.pop()
                for dr, dc in STEPS:
                    d = (r0 + dr, c0 + dc)
                    if d not in seen and set(_shift(cells, *d)) <= free:
                        seen.add(d)
                        todo.append(d)
            reached = seen - {(0, 0)}
        else:
            for dr, dc in STEPS:
                k = 1
                while set(_shift(cells, k * dr, k * dc)) <= free:
                    reached.add((k * dr, k * dc))
                    if metric == "step":
                        break
                    k += 1
        for d in reached:
            yield tuple(sorted(others + ((token, _shift(cells, *d)),)))


def brute_force(board: set, start: Pos, is_goal, metric: str) -> tuple[int | None, int]:
    """(fewest moves to a goal position or None, positions reachable from the start)."""
    dist, frontier, best = {start: 0}, [start], None
    while frontier:
        layer = []
        for pos in frontier:
            if best is None and is_goal(pos):
                best = dist[pos]
            for nxt in brute_moves(board, pos, metric):
                if nxt not in dist:
                    dist[nxt] = dist[pos] + 1
                    layer.append(nxt)
        frontier = layer
    return best, len(dist)


KLOTSKI = MODELS / "klotski.toml"
KLOTSKI_BOARD = {(r, c) for r in range(5) for c in range(4)}
KLOTSKI_START: Pos = tuple(sorted([
    ("B", ((0, 1), (0, 2), (1, 1), (1, 2))), ("h", ((2, 1), (2, 2))),
    ("v", ((0, 0), (1, 0))), ("v", ((2, 0), (3, 0))), ("v", ((0, 3), (1, 3))),
    ("v", ((2, 3), (3, 3))), ("o", ((3, 1),)), ("o", ((3, 2),)), ("o", ((4, 0),)),
    ("o", ((4, 3),))]))
KLOTSKI_GOAL = ("B", ((3, 1), (3, 2), (4, 1), (4, 2)))


def klotski(tmp_path: Path, metric: str) -> Path:
    text = KLOTSKI.read_text(encoding="utf-8").replace('metric = "path"', f'metric = "{metric}"')
    path = tmp_path / f"klotski_{metric}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def klotski_brute() -> dict[str, tuple[int | None, int]]:
    return {m: brute_force(KLOTSKI_BOARD, KLOTSKI_START, lambda p: KLOTSKI_GOAL in p, m)
            for m in ("step", "line", "path")}


@pytest.mark.slow
def test_klotski_brute_force_agrees_with_the_literature(klotski_brute):
    # 81 moves when a piece's route is one move (Gardner; Wikipedia); 25,955 positions
    # reachable (TLC on tlaplus/Examples SlidingPuzzles, which treats equal shapes as equal)
    assert klotski_brute["path"] == (81, 25_955)
    assert klotski_brute["step"][1] == klotski_brute["line"][1] == 25_955
    assert load(KLOTSKI).expected["cost"] == 81
    assert load(ROOT / "examples" / "klotski_line.toml").expected["steps"] == \
        klotski_brute["line"][0]


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["step", "line", "path"])
def test_klotski_search_matches_the_brute_force(tmp_path, klotski_brute, metric, cli):
    data = json.loads(cli("solve", klotski(tmp_path, metric), "--engine", "search",
                          "--json").out)
    assert data["status"] == "optimal" and data["verified"] is True
    assert data["moves"] == klotski_brute[metric][0] == data["cost"]
    assert data["metric"].startswith("one move moves one piece")
    if metric == "path":
        assert sum(data["runs"]) == len(data["plan"]) and len(data["runs"]) == data["moves"]


@pytest.mark.parametrize("metric", ["step", "line"])
def test_klotski_analyze_counts_25955_positions(tmp_path, metric, cli):
    # the line relation reaches what the step relation does (each is made of the other)
    data = json.loads(cli("analyze", klotski(tmp_path, metric), "--json").out)
    assert data["status"] == "complete" and data["states"] == 25_955


def small_boards(seed: int):
    """Random small boards: an L tromino, two interchangeable 2x1 pieces, one-cell pieces."""
    rng = random.Random(seed)
    rows, cols = rng.choice([(3, 3), (3, 4), (4, 3)])
    board = {(r, c) for r in range(rows) for c in range(cols)}
    shapes = [("L", ((0, 0), (1, 0), (1, 1))), ("d", ((0, 0), (1, 0))), ("d", ((0, 0), (1, 0)))]
    shapes += [("a", ((0, 0),)), ("a", ((0, 0),)), ("b", ((0, 0),))][:rows * cols - 9]
    while True:
        used, pieces = set(), []
        for token, shape in shapes:
            spots = [(r, c) for r, c in board
                     if not set(_shift(shape, r, c)) & used and set(_shift(shape, r, c)) <= board]
            if not spots:
                break
            cells = _shift(shape, *rng.choice(sorted(spots)))
            used |= set(cells)
            pieces.append((token, cells))
        else:
            return rows, cols, board, tuple(sorted(pieces)), rng


def picture(rows: int, cols: int, pieces, default: str) -> str:
    grid = [[default] * cols for _ in range(rows)]
    for token, cells in pieces:
        for r, c in cells:
            grid[r][c] = token
    return "\n".join(" ".join(row) for row in grid)


def small_file(tmp_path: Path, seed: int, metric: str):
    """A small sliding file whose goal pins one piece (by picture or by goal_pieces) and
    maybe one empty cell; with the brute force's goal test."""
    rows, cols, board, start, rng = small_boards(seed)
    target = rng.choice(start)
    token, cells = target
    far = [(r, c) for r, c in board if set(_shift(cells, r - cells[0][0], c - cells[0][1]))
           <= board and (r, c) != cells[0]]
    r, c = rng.choice(sorted(far))
    want = (token, _shift(cells, r - cells[0][0], c - cells[0][1]))
    empty = rng.choice(sorted(board - set(want[1])))
    text = (f'family = "sliding"\nname = "small {seed}"\nmetric = "{metric}"\n'
            'blocks = { L = ["#.", "##"], d = ["#", "#"] }\n'
            f'start = """\n{picture(rows, cols, start, "_")}\n"""\n')
    if seed % 2:
        text += f"goal_pieces = {{ {token} = [{r + 1}, {c + 1}] }}\n"
        goal = lambda p: want in p  # noqa: E731
    else:
        grid = picture(rows, cols, [want], "?").split("\n")
        grid = [row.split() for row in grid]
        grid[empty[0]][empty[1]] = "_"
        text += 'goal = """\n' + "\n".join(" ".join(row) for row in grid) + '\n"""\n'
        goal = lambda p: want in p and all(empty not in cs for _, cs in p)  # noqa: E731
    path = tmp_path / f"small_{seed}_{metric}.toml"
    path.write_text(text, encoding="utf-8")
    return path, brute_force(board, start, goal, metric)


@pytest.mark.parametrize("metric", ["step", "line", "path"])
@pytest.mark.parametrize("seed", range(10))
def test_metrics_agree_with_the_brute_force_on_small_boards(tmp_path, seed, metric):
    path, (best, reachable) = small_file(tmp_path, seed, metric)
    puzzle = load(path)
    result = run("search", "solve", puzzle.model, Options())
    if best is None:
        assert result.status is Status.INFEASIBLE
        return
    assert result.status is Status.OPTIMAL and result.verified
    assert result.cost == best == puzzle.count_moves(result.plan)
    astar = run("search", "solve", puzzle.model, Options(algorithm="astar"))  # the estimate
    assert astar.status is Status.OPTIMAL and astar.cost == best
    if metric != "path":  # positions only: the path model also remembers the last piece
        assert run("search", "analyze", puzzle.model, Options()).states == reachable


@pytest.mark.parametrize("metric", ["step", "line", "path"])
def test_cpsat_agrees_on_small_boards(tmp_path, metric):
    # solvable boards only: CP-SAT proving a planning model infeasible is issue 15's matter
    checked = 0
    for seed in range(20):
        path, (best, _) = small_file(tmp_path, seed, metric)
        if best is None:
            continue
        result = run("cpsat", "solve", load(path).model, Options(time_limit=30))
        assert result.verified and result.cost >= best and (result.bound or 0) <= best
        if metric != "path":  # with 0-cost steps CP-SAT finds plans but proves no optimum
            assert result.status is Status.OPTIMAL
        if result.status is Status.OPTIMAL:
            assert result.cost == best
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_pieces_of_one_token_touching_are_cut_by_their_shape(tmp_path):
    # two vertical dominoes stacked in one column: one token, two interchangeable pieces
    path = sliding(tmp_path, "stack", "v _ / v _ / v o / v o", "? ? / ? ? / ? ? / ? ?",
                   'blocks = { v = ["#", "#"] }')
    puzzle = load(path)
    assert [cells for _, cells in puzzle.pieces(puzzle.model.initial_state())] == [
        [(0, 0), (1, 0)], [(2, 0), (3, 0)], [(2, 1)], [(3, 1)]]
    # without the shape the four cells are one piece
    merged = load(sliding(tmp_path, "merged", "v _ / v _ / v o / v o", "? ? / ? ? / ? ? / ? ?",
                          'blocks = ["v"]'))
    assert len(merged.pieces(merged.model.initial_state())) == 3


def test_old_block_files_keep_their_states():
    # ON-OFF: cards n o f are values 1..3, the lamp's two cells 4 and 5, as before
    puzzle = load(MODELS / "onoff.toml")
    assert puzzle.tokens == ("_", "n", "o", "f", "L", "L")
    assert puzzle.model.initial_state() == (4, 5, 1, 2, 2, 3, 3, 0)


@pytest.mark.parametrize("goal, blocks, fragment", [
    ("L L n o / o f _ f", 'blocks = ["L"]', None),
    ("L n L o / o f f _", 'blocks = ["L"]', "piece 'L' at row 1, column 1 has another shape"),
    ("L L n o / o f f _", 'blocks = { L = ["#", "#"] }', "cannot be cut"),
    ("? ? ? ? / ? ? ? x", 'blocks = ["L"]', "piece 'x' at row 2, column 4 is not a piece"),
    ("? ? ? ? / n n ? ?", 'blocks = ["L"]', "2 pieces 'n' of this shape, the start only 1"),
])
def test_goal_pieces_must_have_the_start_shapes(tmp_path, cli, goal, blocks, fragment):
    path = sliding(tmp_path, "shape", "L L n o / o f f _", goal, blocks)
    run_ = cli("solve", path, "--engine", "search")
    if fragment is None:
        assert run_.code == 0
        return
    assert run_.code == 2 and run_.out == ""
    lines = run_.err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "shape.toml" in lines[0], run_.err


def test_goal_pieces_and_partial_pictures(tmp_path):
    # ON-OFF pinning only the n card where the o was: fewer moves than the whole goal
    base = 'family = "sliding"\nblocks = ["L"]\nstart = """\nL L n o\no f f _\n"""\n'
    (tmp_path / "a.toml").write_text(base + "goal_pieces = { n = [1, 4] }\n", encoding="utf-8")
    (tmp_path / "b.toml").write_text(base + 'goal = """\n? ? ? n\n? ? ? ?\n"""\n',
                                     encoding="utf-8")
    (tmp_path / "c.toml").write_text(base + 'goal = """\n? ? ? n\n? ? ? ?\n"""\n'
                                     "goal_pieces = { n = [1, 4], L = [1, 1] }\n",
                                     encoding="utf-8")  # both: the n is named twice
    a, b, c = (solve(tmp_path / n) for n in ("a.toml", "b.toml", "c.toml"))
    assert a.status is b.status is c.status is Status.OPTIMAL
    assert a.steps == b.steps < 44
    board = {(r, c) for r in range(2) for c in range(4)}
    start = tuple(sorted([("L", ((0, 0), (0, 1))), ("n", ((0, 2),)), ("o", ((0, 3),)),
                          ("o", ((1, 0),)), ("f", ((1, 1),)), ("f", ((1, 2),))]))
    assert brute_force(board, start, lambda p: ("n", ((0, 3),)) in p, "step")[0] == a.steps
    both = {("n", ((0, 3),)), ("L", ((0, 0), (0, 1)))}
    assert brute_force(board, start, lambda p: both <= set(p), "step")[0] == c.steps


def test_parity_is_not_claimed_with_a_partial_goal(tmp_path):
    # 2x3 with two tiles swapped is unsolvable by parity; pinning only tile 1 is solvable
    whole = load(sliding(tmp_path, "whole", "2 1 3 / 4 5 _", "1 2 3 / 4 5 _"))
    assert whole.infeasibility_proof() is not None
    path = sliding(tmp_path, "partial", "2 1 3 / 4 5 _", "1 ? ? / ? ? ?")
    puzzle = load(path)
    assert puzzle.infeasibility_proof() is None and puzzle.model.parity is not None
    assert plan_parity(puzzle.model) is None  # the goal does not say where the blank ends
    board = {(r, c) for r in range(2) for c in range(3)}
    start = tuple(sorted((t, ((i // 3, i % 3),)) for i, t in enumerate("213450") if t != "0"))
    assert solve(path).steps == brute_force(board, start, lambda p: ("1", ((0, 0),)) in p,
                                            "step")[0]


# ---------------------------------------------------------------- the reference page


def doc_blocks(name: str) -> list[str]:
    text = (ROOT / "docs" / "families" / name).read_text(encoding="utf-8")
    return re.findall(r"```toml\n(.*?)```", text, re.S)


@pytest.mark.parametrize("index", range(len(doc_blocks("sliding.md"))))
def test_doc_examples_are_complete_files_with_their_answers(tmp_path, index):
    path = tmp_path / "doc.toml"
    path.write_text(doc_blocks("sliding.md")[index], encoding="utf-8")
    puzzle = load(path)
    result = run("search", "solve", puzzle.model, Options(time_limit=20))
    want = puzzle.expected
    assert want["solve"] == result.status.value and result.verified
    assert all(getattr(result, key) == want[key] for key in ("steps", "cost") if key in want)


def test_doc_l_piece_figures_come_from_the_brute_force():
    # the comment of the page's "L to the corner" example
    board = {(r, c) for r in range(3) for c in range(4)}
    start = tuple(sorted([("L", ((0, 0), (1, 0), (1, 1))), ("d", ((0, 2), (1, 2))),
                          ("a", ((0, 3),)), ("a", ((1, 3),)), ("b", ((2, 3),))]))
    home = ("L", ((1, 2), (2, 2), (2, 3)))
    found = {m: brute_force(board, start, lambda p: home in p, m) for m in ("step", "line",
                                                                            "path")}
    assert found == {"step": (13, 1575), "line": (10, 1575), "path": (7, 1575)}
    assert "13 steps, 10 line moves" in doc_blocks("sliding.md")[1]
    assert "7 route moves; 1,575 positions" in doc_blocks("sliding.md")[1]


def test_the_module_docstring_is_a_valid_file(tmp_path):
    from cpsolve.puzzles import sliding as family

    path = tmp_path / "doc.toml"
    path.write_text(textwrap.dedent(family.__doc__.split("\n\n")[1]), encoding="utf-8")
    result = solve(path)
    board = {(r, c) for r in range(2) for c in range(4)}
    start = tuple(sorted([("L", ((0, 0), (0, 1))), ("n", ((0, 2),)), ("o", ((0, 3),)),
                          ("a", ((1, 0),)), ("f", ((1, 1),)), ("b", ((1, 2),))]))
    home = {("L", ((0, 0), (0, 1))), ("o", ((0, 2),)), ("n", ((0, 3),)),
            ("f", ((1, 0),)), ("a", ((1, 1),)), ("b", ((1, 2),))}
    assert result.status is Status.OPTIMAL and result.steps == brute_force(
        board, start, lambda p: home <= set(p), "step")[0]


@pytest.mark.parametrize("metric", ["step", "line", "path"])
@pytest.mark.parametrize("seed", range(4))
def test_numpy_and_python_analyses_agree_on_shaped_pieces(tmp_path, seed, metric):
    path, (_, reachable) = small_file(tmp_path, seed, metric)
    fast, slow = analyze(path, "numpy"), analyze(path, "python")
    for field in ("states", "layers", "max_distance"):
        assert getattr(fast, field) == getattr(slow, field)
    if metric != "path":
        assert fast.states == reachable


def test_a_move_that_cannot_be_made_names_the_cell_it_needs_empty():
    """The 8-puzzle's start has its empty cell at r3c2: the tile on r1c1 cannot move down,
    as r2c1 holds the 2; the guard names the cell and the empty token, not c[3] == 0."""
    puzzle = load(MODELS / "eight_puzzle.toml")
    verdict = replay(puzzle.model, ["r1c1 down"], puzzle.condition_text)
    assert verdict.message == "step 1 (r1c1 down) cannot be played: its guard needs r2c1 == _"


# ---------------------------------------------------------------- empty tables


@pytest.mark.parametrize("model, key, line", [
    ("eight_puzzle", "goal_pieces", "goal_pieces = {}"),
    ("klotski", "goal_pieces", "goal_pieces = {}"),
    ("fifteen_korf1", "estimate.patterns", "[estimate]\npatterns = []"),
    ("fifteen_korf1", "estimate.patterns", "[estimate]"),
])
def test_an_empty_table_counts_as_not_given(write_model, model, key, line):
    """An empty goal_pieces pins nothing: without a picture the start met the 'goal' in 0
    moves; an empty [estimate] declared no pattern, so the 15-puzzle ran uninformed."""
    text = (MODELS / f"{model}.toml").read_text(encoding="utf-8")
    if model == "klotski":  # its goal is goal_pieces: replace it
        text = re.sub(r"(?m)^goal_pieces = .*$", line, text)
    elif key == "goal_pieces":  # beside a goal picture too
        text = line + "\n" + text
    else:
        text = re.sub(r"(?ms)^\[estimate\]\n.*?(?=^\[|\Z)", "", text) + "\n" + line + "\n"
    with pytest.raises(ModelFileError, match=rf": {re.escape(key)}: "):
        load(write_model(f"{model}.toml", text))


@pytest.mark.parametrize("start, goal, steps", [
    ("1 # _", "1 # _", 0),      # walled in, already at the goal
    ("1 2", "1 2", 0),          # no empty cell
    ("1 2", "1 ?", 0),
    ("1 # _", "_ # 1", None),   # walled in, elsewhere: no plan
    ("1 2", "2 1", None),
])
def test_a_board_where_nothing_can_move_is_solved_or_infeasible(tmp_path, start, goal,
                                                                steps):
    """No move at all leaves the start the only state: 0 moves when it meets the goal, else
    infeasible (proven) — by every engine, not refused as a model without actions."""
    path = sliding(tmp_path, "still", start, goal)
    for engine in ("search", "cpsat"):
        result = run(engine, "solve", load(path).model)
        if steps is None:
            assert result.status is Status.INFEASIBLE, engine
        else:
            assert result.status is Status.OPTIMAL and result.steps == 0, engine


def test_a_board_of_more_cells_than_a_model_can_hold_is_refused_at_once(write_model):
    """A 300 x 300 board loaded for minutes (a term of the estimate per piece and cell) and
    ignored auto's budget: more than 144 cells is one line, naming the picture and size."""
    rows = "\n".join(" ".join("_" if (r, c) == (12, 12) else "a" for c in range(13))
                     for r in range(13))
    text = f'family = "sliding"\nstart = """\n{rows}\n"""\ngoal = """\n{rows}\n"""\n'
    with pytest.raises(ModelFileError, match=r": start: 13 x 13 = 169 cells \(at most 144"):
        load(write_model("big.toml", text))
