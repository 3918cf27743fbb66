"""Derived mutexes (:mod:`cpsolve.engines.cpsat.mutexes`): counts of values that never change.

What :func:`conserved` claims is checked against every reachable state, found by a
breadth-first search written here with the reference interpreter
:func:`cpsolve.expr.evaluate` (which the engine never uses).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpsolve import Planning, Status
from cpsolve.engines import Options, run
from cpsolve.engines.cpsat.mutexes import conserved
from cpsolve.expr import Const, Var, evaluate
from cpsolve.files import load

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
from hanoi import build as hanoi  # noqa: E402


def reachable(p: Planning) -> list[dict[str, int]]:
    """Every state reachable from the initial one (reference interpreter)."""
    names = list(p.domains)
    start = tuple(p.initial[n] for n in names)
    seen, todo = {start}, [start]
    while todo:
        env = dict(zip(names, todo.pop()))
        for a in p.actions:
            if not evaluate(a.guard, env):
                continue
            new = dict(env)
            new.update({v: evaluate(e, env) for v, e in a.effects})
            if all(new[n] in p.domains[n] for n in names):
                state = tuple(new[n] for n in names)
                if state not in seen:
                    seen.add(state)
                    todo.append(state)
    return [dict(zip(names, s)) for s in seen]


def test_sliding_tiles_each_stay_on_one_cell() -> None:
    groups = conserved(load(ROOT / "models" / "eight_puzzle.toml").model)
    assert len(groups) == 1
    names, counts = groups[0]
    assert len(names) == 9 and counts == {v: 1 for v in range(9)}


def test_identical_pieces_stay_two() -> None:
    """The line puzzle has two '─' and two '│' pieces: two cells hold each of them."""
    (names, counts), = conserved(load(ROOT / "models" / "line_puzzle.toml").model)
    assert sorted(counts.values()) == [1] * 5 + [2, 2]


def test_moves_that_change_counts_give_no_group() -> None:
    assert conserved(hanoi(4)) == []  # a disc moves to another peg: that peg's count grows
    assert conserved(load(ROOT / "models" / "hoppers.toml").model) == []  # jumps remove pegs


@st.composite
def swap_models(draw: st.DrawFn) -> Planning:
    """Three or four variables on 0..2; actions copy, swap or set values under guards."""
    p = Planning("random")
    names = [f"x{i}" for i in range(draw(st.integers(3, 4)))]
    for n in names:
        p.add_variable(n, 0, 2)
    p.set_initial({n: draw(st.integers(0, 2)) for n in names})
    p.set_goal(Var(names[0]) == 2)
    for k in range(draw(st.integers(1, 4))):
        i, j = draw(st.lists(st.sampled_from(names), min_size=2, max_size=2, unique=True))
        kind = draw(st.sampled_from(["swap", "copy", "set", "guarded set"]))
        guard = Var(i) != Var(j)
        if kind == "swap":
            effects = {i: Var(j), j: Var(i)}
        elif kind == "copy":
            effects = {i: Var(j)}
        elif kind == "set":
            effects = {i: Const(draw(st.integers(0, 2)))}
        else:  # keeps counts exactly when the guard pins the old value to the new one
            value = draw(st.integers(0, 2))
            guard = Var(i) == draw(st.integers(0, 2))
            effects = {i: Const(value)}
        p.add_action(f"a{k}", guard, effects)
    return p


def test_swaps_alone_keep_every_count() -> None:
    p = Planning("swaps")
    xs = [p.add_variable(f"x{i}", 0, 2) for i in range(3)]
    p.set_initial({"x0": 0, "x1": 0, "x2": 2})
    p.set_goal(xs[2] == 0)
    p.add_action("swap 0 2", xs[0] != xs[2], {xs[0]: xs[2], xs[2]: xs[0]})
    p.add_action("swap 1 2", xs[1] != xs[2], {xs[1]: xs[2], xs[2]: xs[1]})
    assert conserved(p) == [(("x0", "x1", "x2"), {0: 2, 1: 0, 2: 1})]
    result = run("cpsat", "solve", p, Options())
    assert result.status is Status.OPTIMAL and result.steps == 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swap_models())
def test_claimed_counts_hold_in_every_reachable_state(model: Planning) -> None:
    for names, counts in conserved(model):
        for state in reachable(model):
            seen = Counter(state[n] for n in names)
            assert all(seen.get(v, 0) == c for v, c in counts.items()), (state, counts)


def test_two_by_three_optimum_with_the_mutex() -> None:
    """``1 2 3 / 4 _ 5`` is one slide (5 to the left) from ``1 2 3 / 4 5 _``."""
    from cpsolve.puzzles import sliding
    from cpsolve.puzzles.data import Data

    data = Data({"family": "sliding", "start": "1 2 3\n4 _ 5", "goal": "1 2 3\n4 5 _"}, "<2x3>")
    result = run("cpsat", "solve", sliding.build(data).model, Options())
    assert result.status is Status.OPTIMAL and result.steps == 1  # slide 5 left
