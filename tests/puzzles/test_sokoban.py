"""Sokoban: the map read, dead squares derived, optima against an independent brute force.

The reference below (:func:`brute`) is written here from the rules alone and shares no
code with cpsolve: a BFS over ``(player, boxes)`` states (boxes a frozenset, so identical
boxes are one state), 0-1 BFS when walking is free.  Tiny levels have optima argued by
hand in their comments; Microban level 1's 33 moves and 8 pushes are the brute force's.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from cpsolve.answers.check.plans import replay
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import load

ROOT = Path(__file__).resolve().parents[2]
MICROBAN1 = ROOT / "models" / "microban1.toml"
MICROBAN1_PUSHES = ROOT / "examples" / "microban1_pushes.toml"
ENGINES = ("search", "cpsat")
LIMIT = 120.0

# ---------------------------------------------------------------- the reference

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def parse(text: str) -> tuple[set, frozenset, frozenset, tuple[int, int]]:
    """Walls, boxes, targets and the player of a map (an enclosed one: no area flood)."""
    walls, boxes, targets, player = set(), set(), set(), None
    for r, line in enumerate(text.strip("\n").split("\n")):
        for c, ch in enumerate(line):
            if ch == "#":
                walls.add((r, c))
            if ch in "$*":
                boxes.add((r, c))
            if ch in ".*+":
                targets.add((r, c))
            if ch in "@+":
                player = (r, c)
    assert player is not None
    return walls, frozenset(boxes), frozenset(targets), player


def reachable(text: str) -> int:
    """How many ``(player, boxes)`` states the player can reach from the start."""
    walls, boxes, _, player = parse(text)
    seen, todo = {(player, boxes)}, [(player, boxes)]
    while todo:
        (r, c), on = todo.pop()
        for dr, dc in STEPS:
            ahead, beyond = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if ahead in walls or (ahead in on and (beyond in walls or beyond in on)):
                continue
            nxt = (ahead, (on - {ahead}) | {beyond} if ahead in on else on)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen)


def brute(text: str, metric: str) -> int | None:
    """The least number of moves (every step) or pushes (walks free) that solves ``text``."""
    walls, boxes, targets, player = parse(text)
    start = (player, boxes)
    dist, queue = {start: 0}, deque([start])
    while queue:
        state = queue.popleft()
        (r, c), on = state
        if on == targets:
            return dist[state]
        for dr, dc in STEPS:
            ahead = (r + dr, c + dc)
            if ahead in walls:
                continue
            if ahead in on:
                beyond = (ahead[0] + dr, ahead[1] + dc)
                if beyond in walls or beyond in on:
                    continue
                nxt, cost = (ahead, (on - {ahead}) | {beyond}), 1
            else:
                nxt, cost = (ahead, on), int(metric == "moves")
            if dist.get(nxt, dist[state] + cost + 1) > dist[state] + cost:
                dist[nxt] = dist[state] + cost
                (queue.appendleft if cost == 0 else queue.append)(nxt)
    return None


# ---------------------------------------------------------------- levels

MICROBAN1_MAP = """
####
# .#
#  ###
#*@  #
#  $ #
#  ###
####
"""

CORRIDOR = """
######
#@$ .#
######
"""
"""Two pushes to the right: 2 moves, 2 pushes."""

CORNER = """
#####
#.  #
# $ #
#  @#
#####
"""
"""The box needs two pushes (up and left, either order).  The player starts diagonal to
any pushing position (a step), and between two pushes at right angles walks round the
box's corner (two steps): 1 + 1 + 2 + 1 = 5 moves, 2 pushes.  Dead squares: every cell of
the bottom row and of the right column (a box there can never leave that wall)."""

TWO_TARGETS = """
#######
#.$@$.#
#######
"""
"""The player pushes one box left (1), walks back (1), pushes the other right (1):
3 moves, 2 pushes — only because the boxes are interchangeable does the goal not care
which box lands where."""


def write(tmp_path: Path, board: str, metric: str = "moves", extra: str = "") -> Path:
    path = tmp_path / "level.toml"
    path.write_text(f'family = "sokoban"\nmetric = "{metric}"\n{extra}'
                    f'board = """{board}"""\n', encoding="utf-8")
    return path


def solved(path: Path, engine: str):
    puzzle = load(path)
    result = run(engine, "solve", puzzle.model, Options(time_limit=LIMIT))
    assert result.status is Status.OPTIMAL, result.message
    assert result.verified
    assert replay(puzzle.model, result.plan)  # the independent checker replays the plan
    return puzzle, result


LEVELS = {"corridor": CORRIDOR, "corner": CORNER, "two-targets": TWO_TARGETS}


@pytest.mark.parametrize("board, moves, pushes", [
    (CORRIDOR, 2, 2), (CORNER, 5, 2), (TWO_TARGETS, 3, 2)], ids=list(LEVELS))
def test_hand_checked_optima_and_the_brute_force_agree(board, moves, pushes):
    assert brute(board, "moves") == moves
    assert brute(board, "pushes") == pushes


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("board, metric, cost", [
    (CORRIDOR, "moves", 2), (CORNER, "moves", 5), (CORNER, "pushes", 2),
    (TWO_TARGETS, "moves", 3), (TWO_TARGETS, "pushes", 2)],
    ids=["corridor", "corner", "corner-pushes", "two-targets", "two-targets-pushes"])
def test_tiny_levels_by_every_engine(tmp_path, engine, board, metric, cost):
    puzzle, result = solved(write(tmp_path, board, metric), engine)
    assert result.cost == cost
    assert puzzle.count_moves(result.plan) == cost


@pytest.mark.parametrize("engine", ENGINES)
def test_microban1_moves(engine):
    assert brute(MICROBAN1_MAP, "moves") == 33
    puzzle, result = solved(MICROBAN1, engine)
    assert result.cost == len(result.plan) == 33
    assert puzzle.expected["cost"] == 33


def test_microban1_pushes_by_search():
    assert brute(MICROBAN1_MAP, "pushes") == 8
    puzzle, result = solved(MICROBAN1_PUSHES, "search")
    assert result.cost == puzzle.pushes(result.plan) == 8
    assert puzzle.expected["cost"] == 8


def test_microban1_pushes_proven_by_cpsat_over_the_closed_graph():
    # walks cost 0: the time-indexed model would have to rule out every plan of up to
    # 111 steps (7 pushes and 8 walks of at most 13 steps between them); over the
    # transition graph with its free walks closed, 7 paid arcs are refuted at once
    puzzle = load(MICROBAN1_PUSHES)
    result = run("cpsat", "solve", puzzle.model, Options(time_limit=60.0))
    assert result.status is Status.OPTIMAL, result.message
    assert result.verified and result.cost == puzzle.pushes(result.plan) == 8
    assert result.details["encoding"] == "transition graph"
    assert result.details["refuted_up_to"] == 7


@pytest.mark.parametrize("engine", ENGINES)
def test_the_corner_level_has_two_optimal_plans(tmp_path, engine):
    # up then left: walk left, push up, walk right and up round the box, push left;
    # left then up: walk up, push left, walk down and left round the box, push up.
    # Every walk is forced (the box blocks the other way round), so there are no others.
    puzzle = load(write(tmp_path, CORNER))
    counted = run(engine, "count", puzzle.model, Options(time_limit=LIMIT))
    assert counted.status is Status.EXACT and counted.count == 2 and counted.cost == 5


def test_the_bundled_map_is_microban_level_1():
    puzzle = load(MICROBAN1)
    assert puzzle.render_state(puzzle.model.initial_state()) == MICROBAN1_MAP.strip("\n")
    assert load(MICROBAN1_PUSHES).board == puzzle.board


# ---------------------------------------------------------------- the model


def test_dead_squares_of_the_corner_level(tmp_path):
    puzzle = load(write(tmp_path, CORNER))
    assert puzzle.dead == {(3, 1), (3, 2), (3, 3), (1, 3), (2, 3)}
    pushes = {name for name, move in puzzle.actions.items() if move.push}
    # no push ends on a dead square: the live cells are r2c2, r2c3, r3c2 and r3c3, and
    # only these four pushes end on one (the player stands two cells before the landing)
    assert pushes == {"push up from r4c2", "push left from r2c4", "push up from r4c3",
                      "push left from r3c4"}


def test_dead_squares_prune_without_changing_the_optimum(tmp_path):
    kept = load(write(tmp_path, MICROBAN1_MAP, extra="dead_squares = false\n"))
    pruned = load(MICROBAN1)
    assert len(kept.model.actions) > len(pruned.model.actions)
    for puzzle in (kept, pruned):
        result = run("search", "solve", puzzle.model, Options(time_limit=LIMIT))
        assert result.status is Status.OPTIMAL and result.cost == 33
    states = [run("search", "analyze", p.model, Options(time_limit=LIMIT)).states
              for p in (kept, pruned)]
    assert states[0] == reachable(MICROBAN1_MAP)  # the same rules, counted independently
    assert states[0] > states[1]


def test_boxes_are_interchangeable(tmp_path):
    # one variable per cell, none per box: swapping two boxes is the same state
    puzzle = load(write(tmp_path, TWO_TARGETS))
    assert puzzle.model.names == ["player"] + [f"box[{i}]" for i in range(5)]


def test_a_box_on_a_dead_square_is_unsolvable(tmp_path):
    board = "\n#####\n#$ .#\n#@  #\n#####\n"  # the box sits in a corner, off target
    assert brute(board, "moves") is None
    puzzle = load(write(tmp_path, board))
    assert (1, 1) in puzzle.dead
    for engine in ENGINES:
        result = run(engine, "solve", puzzle.model, Options(time_limit=LIMIT))
        assert result.status is Status.INFEASIBLE, (engine, result.message)


# ---------------------------------------------------------------- output


def test_drawing_and_notation(tmp_path):
    puzzle, result = solved(write(tmp_path, CORNER), "search")
    assert puzzle.render_state(puzzle.model.initial_state()) == CORNER.strip("\n")
    last = puzzle.render_state(result.plan[-1].state).splitlines()
    assert last[1][1] == "*" and "$" not in "".join(last)
    line = puzzle.plan_line(result.plan)
    assert len(line) == 5 and sum(ch.isupper() for ch in line) == 2
    assert puzzle.plan_words(result.plan) == "5 moves (2 pushes)"
    assert puzzle.json_plan(result.plan) == {"lurd": line, "pushes": 2}


def test_the_svg_board(tmp_path):
    from cpsolve.output.draw import picture

    puzzle, result = solved(write(tmp_path, CORNER), "search")
    start = picture(puzzle).svg
    assert start.count('class="box"') == 1 and start.count('class="player"') == 1
    assert start.count('class="target"') == 1 and start.count('class="wall"') == 16
    assert start.count('class="cell dead"') == len(puzzle.dead) == 5
    assert start.count('class="cell floor"') == 9 - 5
    last = picture(puzzle, result.plan[-1].state, result.plan[-1]).svg
    assert 'stroke-width="2.5"' in last  # the last step is a push: the box is outlined


def test_player_on_target_and_floor_symbols(tmp_path):
    board = "\n#####\n#+$_#\n#-$.#\n#####\n"
    puzzle = load(write(tmp_path, board))
    assert puzzle.render_state(puzzle.model.initial_state()).splitlines()[1:3] == \
        ["#+$ #", "# $.#"]


def test_the_cli_solves_and_prints_the_lurd_line(cli):
    done = cli("solve", str(MICROBAN1_PUSHES), "--engine", "search", "--json")
    assert done.code == 0, done.err
    answer = json.loads(done.out)
    assert answer["cost"] == answer["pushes"] == answer["moves"] == 8
    assert answer["steps"] == len(answer["lurd"]) == len(answer["plan"])
    assert sum(ch.isupper() for ch in answer["lurd"]) == 8
    assert len(answer["plan"][0]["state"]) == 7  # each state drawn as the map's 7 rows
    text = cli("solve", str(MICROBAN1), "--engine", "search")
    assert text.code == 0 and "33 moves (8 pushes)" in text.out


def test_with_pushes_text_and_json_count_the_same_things(cli, tmp_path):
    """``moves`` is the metric's count (here the pushes), ``steps`` every step: the text
    says "N pushes (M steps; ...)", never "moves" for the steps."""
    level = write(tmp_path, CORNER, "pushes")
    answer = json.loads(cli("solve", level, "--engine", "search", "--json").out)
    assert answer["moves"] == answer["pushes"] == answer["cost"] == 2  # argued in CORNER
    text = cli("solve", level, "--engine", "search").out
    assert f"2 pushes ({answer['steps']} steps; walking not minimised)" in \
        " ".join(text.split())
    assert "moves)" not in text


def test_a_lurd_line_is_read_as_the_plan_it_writes(tmp_path):
    # CORNER, up then left: walk left, push up, walk right and up round the box, push
    # left (the player starts at r4c4, the box at r3c3, the target at r2c2)
    for metric, cost in (("moves", 5), ("pushes", 2)):
        puzzle = load(write(tmp_path, CORNER, metric))
        plan = puzzle.read_plan("lU ru\nL\n")
        assert plan.form == "LURD" and plan.names == (
            "walk left from r4c4", "push up from r4c3", "walk right from r3c3",
            "walk up from r3c4", "push left from r2c4")
        verdict = replay(puzzle.model, list(plan.names))
        assert verdict.ok and verdict.cost == cost
    assert puzzle.read_plan("walk left from r4c4") is None  # not lurd: read as names
    assert puzzle.read_plan("") is None


@pytest.mark.parametrize("board, words", [
    ("\n####\n#@.#\n####\n", "no box"),
    ("\n#####\n#@$ #\n#####\n", "as many targets as boxes"),
    ("\n#####\n#@$.#\n#@  #\n#####\n", "one player"),
    ("\n#####\n#@$.#\n#x  #\n#####\n", "'x' is not one of"),
    ("\n#####\n#@$.#\n#####\n#$.##\n#####\n", "outside the player's area"),
])
def test_bad_maps_are_refused_in_one_line(tmp_path, board, words):
    with pytest.raises(ModelFileError, match=words):
        load(write(tmp_path, board))


def test_a_bad_metric_is_refused(tmp_path):
    with pytest.raises(ModelFileError, match="metric"):
        load(write(tmp_path, CORRIDOR, "steps"))


def test_the_invariant_proof_names_the_box_by_its_square(cli, tmp_path):
    """``no plan: box[8] is preserved exactly ...`` named the model's variable: the box
    in the corner (row 1, column 1 from 0: ``r2c2``) can never be pushed, so it stays
    there (1) while every goal state has it off target (0), said in the map's words in
    text and JSON alike (the JSON's ``invariant`` keeps the model's variable)."""
    path = write(tmp_path, "\n#####\n#$ .#\n#@  #\n#####\n")
    said = ("no plan: the box on r2c2 is preserved exactly by every action, but it is 1 "
            "at the start and 0 in every goal state")
    done = cli("solve", path, "--engine", "search", "--json")
    answer = json.loads(done.out)
    assert answer["message"] == said and answer["invariant"]["weights"] == {"box[0]": 1}
    assert said in " ".join(cli("solve", path, "--engine", "search").out.split())
    race = json.loads(cli("solve", path, "--json").out)["race"]  # auto: each engine's note
    assert said in [engine["note"] for engine in race["engines"]]
