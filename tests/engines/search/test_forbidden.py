"""Many forbidden states (issue 21): the search engine's test is built in tables and chunks
the clock can stop, and its budget looks at the clock often when expansions are slow.

The walker's optimum comes from reasoning (drawn in :func:`walker`); the test of a state
is compared with the reference interpreter :func:`cpsolve.language.interpret.evaluate`,
which the engine never uses.
"""

from __future__ import annotations

import itertools

from cpsolve import And, Planning, Status
from cpsolve.engines import Options, run
from cpsolve.engines.runtime.clock import Clock
from cpsolve.engines.search import forbidden
from cpsolve.engines.search.common import CHECK_EVERY, TICK, Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.language.interpret import evaluate


def walker(extra: int = 0) -> Planning:
    """A walker on a 100 x 100 board from (0, 0) to (3, 0), one step at a time.

    (1, 0) and (2, 0) are forbidden as pins, (2, 1) by a condition that is not one (``x
    >= 2 and x <= 2``): the way round goes up to y = 2, (0,0) (0,1) (1,1) (1,2) (2,2)
    (3,2) (3,1) (3,0), 7 steps.  ``extra`` more forbidden states lie far off the way
    (y = 50..), as pins and as conditions that are not pins, alternately."""
    p = Planning("walker")
    x, y = p.add_variable("x", 0, 99), p.add_variable("y", 0, 99)
    p.set_initial({"x": 0, "y": 0})
    p.set_goal(And(x == 3, y == 0))
    p.add_action("right", x < 99, {x: x + 1})
    p.add_action("left", x > 0, {x: x - 1})
    p.add_action("up", y < 99, {y: y + 1})
    p.add_action("down", y > 0, {y: y - 1})
    p.forbid(And(x == 1, y == 0))
    p.forbid(And(y == 0, x == 2))
    p.forbid(And(y == 1, x >= 2, x <= 2))
    for k in range(extra):
        a, b = divmod(k, 98)
        b += 1  # 1..98: neither x >= b nor x <= b pins x
        p.forbid(And(x == b, y == 50 + a) if k % 2 else And(x >= b, x <= b, y == 50 + a))
    return p


def test_the_test_agrees_with_the_interpreter_on_every_state():
    model = walker(2 * forbidden.CHUNK + 10)  # tables, and more than one chunk of the rest
    task = compile_planning(model)
    for state in itertools.product(range(100), (0, 1, 2, 3, 49, 50, 51, 52, 53, 54, 55)):
        env = dict(zip(model.names, state))
        bad = any(evaluate(f.expr, env) for f in model.forbidden)
        assert task.allowed(state) is (not bad), state


def test_both_engines_go_round_the_forbidden_states():
    for engine in ("search", "cpsat"):
        result = run(engine, "solve", walker(600), Options(time_limit=60))
        assert result.status is Status.OPTIMAL and result.steps == 7, (engine, result.message)
        assert result.verified


def test_pinned_states_become_a_table_and_the_rest_chunks():
    model = walker(10)
    index = {n: i for i, n in enumerate(model.names)}
    rows = [forbidden.pinned(f.expr, model, index) for f in model.forbidden]
    assert rows[:3] == [((0, 1), (1, 0)), ((0, 1), (2, 0)), None]
    assert sum(r is not None for r in rows) == 2 + 5


def test_a_clock_that_ran_out_stops_the_compilation():
    clock = Clock(0.0)
    try:
        forbidden.allowed_test(walker(3 * forbidden.CHUNK), {"x": 0, "y": 1}, clock)
    except forbidden.Stopped as stop:
        assert stop.done == 0 and stop.total == 3 * forbidden.CHUNK + 3
        assert "compiling the forbidden states" in str(stop)
    else:
        raise AssertionError("not stopped")


def test_an_engine_stopped_while_compiling_says_so():
    """A limit too short to compile 2,000 forbidden states: unknown (partial for an
    analysis), nothing explored, and the message says where it stopped."""
    model = walker(2000)
    for task, status in (("solve", Status.UNKNOWN), ("count", Status.UNKNOWN),
                         ("analyze", Status.PARTIAL)):
        result = run("search", task, model, Options(time_limit=1e-9))
        assert result.status is status, (task, result.message)
        assert "while compiling the forbidden states" in result.message


def test_slow_expansions_shorten_the_interval_between_looks_at_the_clock():
    now = [0.0]
    budget = Budget(clock=Clock(None, now=lambda: now[0]))
    assert budget.interval(0) == 1  # the first look after the first expansion
    assert budget.interval(0) == CHECK_EVERY
    now[0] += 1.0  # CHECK_EVERY expansions took a second: twenty times a tick
    cut = budget.interval(0)
    assert cut == int(CHECK_EVERY * TICK / 1.0)
    now[0] += TICK / 100  # fast again: the interval grows back, doubling
    assert budget.interval(0) == 2 * cut
    now[0] += 10.0  # one interval of ten seconds: one expansion at a time
    assert budget.interval(0) == max(1, int(2 * cut * TICK / 10.0))


def test_the_state_limit_still_caps_the_interval():
    budget = Budget(limit=100, width=4, clock=Clock(None, now=lambda: 0.0))
    assert budget.interval(0) == 1  # the first look after the first expansion
    assert budget.interval(90) == 2  # (100 - 90) // 4
