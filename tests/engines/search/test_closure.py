"""Cost layers closed under 0-cost actions (``--algorithm closure``) and the memory facts.

The expected optima come from a plain Dijkstra over (pegs, hole the last jump landed
in) written here, sharing no code with cpsolve, and from CP-SAT (engines agree).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.registry import default_algorithm
from cpsolve.language.combine import And
from cpsolve.language.expr import Var
from cpsolve.model import Planning
from cpsolve.model.memory import board_model, memory_variable, reversed_model, value_map
from cpsolve.puzzles.files import load

sys.path.insert(0, str(Path(__file__).parents[2] / "puzzles"))
from test_pegs import fewest_chains  # noqa: E402  (the pegs tests' brute force)

ORTHOGONAL = [[0, 1], [1, 0]]
DIAGONAL = ORTHOGONAL + [[1, 1], [1, -1]]
BOARDS = [  # (picture, jump vectors, goal hole or None for one peg anywhere)
    (".ooo\noooo\noooo", ORTHOGONAL, (0, 0)),
    ("oooo\no.oo\noooo\noooo", DIAGONAL, (1, 1)),
    ("oooo\no.oo\noooo\noooo", DIAGONAL, None),
    (".oooo\nooooo\nooooo", DIAGONAL, (2, 2)),
    ("oooo\noooo\no.oo", ORTHOGONAL, (2, 1)),
    ("oooo\noooo\no.oo", DIAGONAL, (0, 3)),
    ("ooooo\noo.oo\nooooo", ORTHOGONAL, (1, 2)),  # no solution
    (".oooo\nooooo\nooooo\nooooo", ORTHOGONAL, (0, 4)),
]


def fewest_moves(picture: str, vectors, goal) -> int | None:
    """Fewest moves (a chain of jumps by one peg is one move) to one peg at ``goal``
    (anywhere when None), by Dijkstra over (pegs, landing hole of the last jump)."""
    rows = picture.split("\n")
    holes = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in "o."}
    pegs = frozenset((r, c) for r, c in holes if rows[r][c] == "o")
    steps = [v for a, b in vectors for v in ((a, b), (-a, -b))]
    lines = [(h, (h[0] + dr, h[1] + dc), (h[0] + 2 * dr, h[1] + 2 * dc))
             for h in holes for dr, dc in steps]
    lines = [t for t in lines if t[1] in holes and t[2] in holes]
    return fewest_chains(lines, pegs, lambda now: goal is None or goal in now)


def pegs_file(tmp_path: Path, picture: str, vectors, goal) -> Path:
    end = "pegs_left = 1" if goal is None else f"goal_peg = {json.dumps(list(goal))}"
    path = tmp_path / "board.toml"
    path.write_text(f'family = "pegs"\nmetric = "moves"\njumps = {json.dumps(vectors)}\n'
                    f'{end}\nboard = """\n{picture}\n"""\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("picture, vectors, goal", BOARDS)
def test_closure_finds_the_fewest_moves(tmp_path, picture, vectors, goal):
    model = load(pegs_file(tmp_path, picture, vectors, goal)).model
    assert default_algorithm(model) == "closure"
    want = fewest_moves(picture, vectors, goal)
    got = run("search", "solve", model, Options(time_limit=120, algorithm="closure"))
    if want is None:
        assert got.status is Status.INFEASIBLE
        return
    assert got.status is Status.OPTIMAL and got.verified
    assert got.cost == want
    assert got.details["directions"] == (1 if goal is None else 2)
    assert got.details["proof"].startswith(f"cost {want} is the least")


@pytest.mark.parametrize("picture, vectors, goal", BOARDS[:2] + BOARDS[4:5])
def test_closure_agrees_with_cpsat_and_dijkstra(tmp_path, picture, vectors, goal):
    model = load(pegs_file(tmp_path, picture, vectors, goal)).model
    answers = [run(engine, "solve", model, Options(time_limit=120, algorithm=algorithm))
               for engine, algorithm in (("search", "closure"), ("search", "dijkstra"),
                                         ("cpsat", None))]
    assert {(r.status, r.cost) for r in answers} == {(Status.OPTIMAL, answers[0].cost)}
    assert answers[0].cost == fewest_moves(picture, vectors, goal)


def test_an_unreachable_goal_is_proven_so(tmp_path):
    # a corner peg can never end alone in the middle of a 1x5 line: no jump lands there
    model = load(pegs_file(tmp_path, "oo.oo", ORTHOGONAL, (0, 2))).model
    assert fewest_moves("oo.oo", ORTHOGONAL, (0, 2)) is None
    assert run("search", "solve", model, Options(algorithm="closure")).status \
        is Status.INFEASIBLE


def test_the_bound_is_what_both_ends_proved(tmp_path):
    model = load(pegs_file(tmp_path, *BOARDS[-1])).model
    got = run("search", "solve", model, Options(algorithm="closure", limit=200))
    assert got.status is Status.UNKNOWN
    want = fewest_moves(*BOARDS[-1])
    assert got.bound is not None and got.bound <= want


# ---------------------------------------------------------------- the memory facts


def test_the_last_landing_is_the_memory_and_symmetries_map_it(tmp_path):
    model = load(pegs_file(tmp_path, *BOARDS[1])).model  # 4x4, jumps along diagonals too
    assert memory_variable(model) == "last"
    board = board_model(model, "last")
    assert "last" not in board.domains and board.unit_costs()
    assert board.symmetries  # the square's diagonal mirror keeps the hole (1, 1)
    for sym in board.symmetries:
        image = value_map(model, "last", sym)
        if image is not None:
            n = len(model.domains) - 1
            assert image[n] == n  # "no jump yet" stays
            assert sorted(image) == list(range(n + 1))
    identity = {v: v for v in board.domains}
    assert value_map(model, "last", identity) == list(range(len(model.domains)))


def test_a_map_that_moves_holes_without_moving_jumps_is_refused(tmp_path):
    model = load(pegs_file(tmp_path, *BOARDS[0])).model
    holes = sorted(v for v in model.domains if v != "last")
    swap = {v: v for v in holes}
    swap[holes[0]], swap[holes[1]] = holes[1], holes[0]  # two holes of a row: not a symmetry
    assert value_map(model, "last", swap) is None


def counter(name: str, guard, cost) -> Planning:
    """x counts up to 3; every step sets m to 1; ``guard`` and ``cost`` may read m."""
    model = Planning(name)
    model.add_variable("x", 0, 3)
    model.add_variable("m", 0, 1)
    model.set_initial({"x": 0, "m": 0})
    model.set_goal(Var("x") == 3)
    model.add_action("up", guard, {"x": Var("x") + 1, "m": 1}, cost)
    return model


def test_no_memory_when_a_guard_reads_it():
    x, m = Var("x"), Var("m")
    model = counter("reads", And(x < 3, m == 0), m)
    assert memory_variable(model) is None


def test_a_counter_model_has_a_memory_and_no_way_back():
    x, m = Var("x"), Var("m")
    model = counter("counter", x < 3, 1 - m)
    assert memory_variable(model) == "m"
    assert reversed_model(board_model(model, "m")) is None  # x + 1 is no constant
    got = run("search", "solve", model, Options(algorithm="closure"))
    assert got.status is Status.OPTIMAL and got.cost == 1 and len(got.plan) == 3


def test_a_bridge_plan_under_a_time_limit_leaves_the_optimum_alone(tmp_path, monkeypatch):
    from cpsolve.engines.search.planning import closure

    monkeypatch.setattr(closure, "BRIDGE_AT", 1)
    monkeypatch.setattr(closure, "BRIDGE_WIDTH", 3)
    picture, vectors, goal = BOARDS[-1]
    model = load(pegs_file(tmp_path, picture, vectors, goal)).model
    got = run("search", "solve", model, Options(time_limit=120, algorithm="closure"))
    assert got.status is Status.OPTIMAL and got.verified
    assert got.cost == fewest_moves(picture, vectors, goal)
    assert "bridge" in got.details  # the bridge ran (layers it took, None: no meeting)
