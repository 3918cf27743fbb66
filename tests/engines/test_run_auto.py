"""``run("auto", ...)``: the Python API's door races CP-SAT and search as the command
line's default engine does, and returns the race's checked answer."""

from __future__ import annotations

import pytest

import cpsolve.engines.auto.racing as racing
from cpsolve import Csp, Planning
from cpsolve.answers.result import EngineBug, Status
from cpsolve.engines import Options, run
from cpsolve.engines.auto.outcome import Check, Race
from cpsolve.engines.option_choices import AUTO_BUDGET


def _counter() -> Planning:
    """From 0 to 5 by steps of +1 or +2: at least three steps (two of +2 make 4, one more)."""
    model = Planning("counter")
    x = model.add_variable("x", 0, 6)
    model.set_initial({"x": 0})
    model.set_goal(x == 5)
    model.add_action("plus one", x <= 5, {x: x + 1})
    model.add_action("plus two", x <= 4, {x: x + 2})
    return model


def _pairs() -> Csp:
    """Two different values of 1..3: 3 x 2 = 6 solutions."""
    csp = Csp("pairs")
    a = csp.add_variable("a", 1, 3)
    b = csp.add_variable("b", 1, 3)
    csp.require(a != b)
    return csp


def test_auto_solves_a_plan_optimally():
    result = run("auto", "solve", _counter(), Options(time_limit=30))
    assert result.status is Status.OPTIMAL and result.cost == 3 and result.verified


def test_auto_counts_a_csp_exactly():
    result = run("auto", "count", _pairs(), Options(time_limit=30))
    assert result.status is Status.EXACT and result.count == 6


def _spy(monkeypatch, race: Race) -> list:
    asked: list = []

    def fake(task, model, options, budget=None, *rest, **named):
        asked.append(budget)
        return race

    monkeypatch.setattr(racing, "race", fake)
    return asked


def _race(**fields) -> Race:
    from cpsolve.answers.result import Result

    return Race(Result(Status.UNKNOWN, "search", "solve"), **fields)


@pytest.mark.parametrize("options, budget", [
    (Options(), AUTO_BUDGET),  # none given: the command line's default budget
    (Options(time_limit=7), 7),
    (Options(time_limit=float("inf")), None),  # lifted: no limit at all
])
def test_auto_budget_follows_the_time_limit(monkeypatch, options, budget):
    asked = _spy(monkeypatch, _race())
    run("auto", "solve", _counter(), options)
    assert asked == [budget]


def test_a_racer_that_failed_its_check_is_an_engine_bug(monkeypatch):
    bug = Check("cpsat", bug="its plan does not reach the goal")
    _spy(monkeypatch, _race(checks=(bug,)))
    with pytest.raises(EngineBug, match="cpsat: its plan does not reach the goal"):
        run("auto", "solve", _counter())


def test_engines_that_disagree_are_an_engine_bug(monkeypatch):
    _spy(monkeypatch, _race(problems=("cpsat says 3 moves, search 4",)))
    with pytest.raises(EngineBug, match="engines disagree: cpsat says 3 moves"):
        run("auto", "solve", _counter())


@pytest.mark.parametrize("model, options, said", [
    (_pairs, Options(algorithm="bfs"), "a search algorithm for planning models"),
    (_counter, Options(algorithm="circuit"), "a search algorithm for csp models"),
    (_counter, Options(satisficing=True), "only engine 'fd' has"),
    (_pairs, Options(encoding="time-indexed"), "applies to planning models"),
])
def test_auto_refuses_what_the_command_line_refuses_it(model, options, said):
    """Options no racer can take, or of the other kind of model, are refused before the race
    (as `--engine auto` refuses them, exit 2), not dropped for another engine's answer."""
    from cpsolve.answers.result import Unsupported

    with pytest.raises(Unsupported, match=said):
        run("auto", "solve", model(), options)
