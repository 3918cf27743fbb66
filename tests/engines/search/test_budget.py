"""The search budget: its time comes from a Clock, its stops are typed (:class:`Stop`) and
worded as before; the readers of the stop act on the type, not on the words."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.runtime import interrupt
from cpsolve.engines.runtime.clock import Clock
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search import engine
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import anytime as anytime_module
from cpsolve.engines.search.planning.anytime import anytime
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[3] / "models"


class Ticks:
    def __init__(self) -> None:
        self.t = 50.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture(autouse=True)
def no_stop_asked():
    interrupt.clear()
    yield
    interrupt.clear()


def test_the_state_limit_comes_first_and_is_typed():
    ticks = Ticks()
    budget = Budget(limit=1000, clock=Clock(5.0, ticks))
    assert not budget.exceeded(999) and budget.stop is None and budget.reason == ""
    ticks.t += 10  # both limits passed: the state limit is the one reported
    assert budget.exceeded(1000)
    assert budget.stop is Stop.STATES and budget.reason == "state limit 1,000 reached"


def test_the_time_limit_is_typed_and_worded_with_its_seconds():
    ticks = Ticks()
    budget = Budget(clock=Clock(5.0, ticks))
    ticks.t += 4.9
    assert not budget.exceeded(0)
    ticks.t += 0.1
    assert budget.exceeded(0)
    assert budget.stop is Stop.TIME and budget.reason == "time limit 5 s reached"


def test_a_budget_made_from_seconds_holds_a_clock_of_them():
    budget = Budget(2.5)
    assert budget.clock.limit == 2.5
    assert Budget().clock.limit is None


def test_an_interruption_is_typed_and_keeps_its_words():
    budget = Budget(limit=10, clock=Clock(None, Ticks()))
    interrupt.request()
    assert budget.exceeded(0)
    assert budget.stop is Stop.INTERRUPT and budget.reason == "interrupted"


def test_the_commands_clock_stops_a_budget_as_a_time_limit():
    budget = Budget(clock=Clock(None, Ticks()))
    interrupt.request(Stop.TIME.text, Stop.TIME)
    assert budget.exceeded(0)
    assert budget.stop is Stop.TIME and budget.reason == "time limit reached"


def test_a_step_that_would_end_past_the_limit_is_not_started():
    ticks = Ticks()
    budget = Budget(clock=Clock(10.0, ticks))
    ticks.t += 8
    assert budget.leaves_time_for(1.5) and budget.stop is None
    assert not budget.leaves_time_for(2.5)
    assert budget.stop is Stop.TIME
    assert budget.reason == ("time limit 10 s reached (the next step, about 2.5 s, would "
                             "end past it)")


def test_progress_is_reported_every_half_second_of_the_budgets_clock():
    ticks, lines = Ticks(), []
    budget = Budget(progress=lines.append, clock=Clock(None, ticks))
    budget.exceeded(0, lambda: "a")
    ticks.t += 0.5
    budget.exceeded(0, lambda: "b")
    budget.exceeded(0, lambda: "c")  # no time has passed since "b"
    ticks.t += 0.2
    budget.report(lambda: "d")
    ticks.t += 0.3
    budget.report(lambda: "e")
    assert lines == ["b", "e"]


def test_the_default_state_limit_of_analyze_is_named_as_such(monkeypatch):
    """The note is added when the analysis stopped at the state limit *by type*; a limit
    the caller set gets no note."""
    monkeypatch.setattr(engine, "ANALYZE_LIMIT", 1000)  # the 8-puzzle has 181,440 states
    model = load(MODELS / "eight_puzzle.toml").model
    default = run("search", "analyze", model, Options())
    assert default.status is Status.PARTIAL
    assert "state limit 1,000 reached" in default.message
    assert default.message.endswith("(the default limit for analyze; set another with --limit N, "
                                   "or lift it with --limit none)")
    given = run("search", "analyze", model, Options(limit=1000))
    assert given.status is Status.PARTIAL and "default limit" not in given.message


class Reads:
    """A time source that moves ``step`` seconds each time it is read: a run stops at the
    same point on every machine, however busy."""

    def __init__(self, step: float) -> None:
        self.step, self.t = step, 0.0

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def _korf1_manhattan(tmp_path: Path):
    """Korf #1 without its pattern databases: weighted A* finds a plan at once, the proof
    below it (57 moves, Manhattan distance only) takes minutes."""
    text = (MODELS / "fifteen_korf1.toml").read_text()
    path = tmp_path / "korf1_manhattan.toml"
    path.write_text(text[:text.index("[estimate]")] + text[text.index("[expected]"):])
    return load(path).model


def test_the_optimality_proof_under_a_time_limit_names_that_limit(tmp_path):
    """Korf #1 without its pattern databases: weighted A* finds a plan within a few looks
    at the clock, the proof below it (57 moves, Manhattan distance only) cannot end within
    the rest; the proof runs on the caller's clock and names that limit."""
    task = compile_planning(_korf1_manhattan(tmp_path))
    result = anytime(task, Budget(clock=Clock(0.25, Reads(0.01))))
    assert result.status is Status.SOLVED
    assert "the optimality proof stopped at the time limit (0.25 s)" in result.message
    assert 0 < result.bound <= 57 <= len(result.plan)


def test_a_bit_maps_fallback_in_memory_keeps_the_default_state_limit(monkeypatch):
    """The bit map has no default state limit; the NumPy analysis that runs when it does
    not apply (Hoppers' pegs repeat a value) is in memory, so it has the default one."""
    monkeypatch.setattr(engine, "ANALYZE_LIMIT", 1000)  # 13 holes: up to 2^13 states
    model = load(MODELS / "hoppers.toml").model
    result = run("search", "analyze", model, Options(algorithm="bitmap"))
    assert result.details["algorithm"] == "numpy" and "repeats a value" in \
        result.details["fallback"]
    assert result.status is Status.PARTIAL and result.explored == 1000
    assert "the default limit for analyze" in result.message


def test_analyze_without_a_state_limit(monkeypatch):
    """``limit = inf`` (``--limit none``) lifts the default state limit: the 8-puzzle's
    181,440 states (9!/2, one parity class) are all explored."""
    monkeypatch.setattr(engine, "ANALYZE_LIMIT", 1000)
    model = load(MODELS / "eight_puzzle.toml").model
    result = run("search", "analyze", model, Options(limit=math.inf))
    assert result.status is Status.COMPLETE and result.explored == 181_440


def test_no_time_limit_at_all_is_not_none_given(monkeypatch):
    """``time_limit = inf`` (``--time-limit none``) is no limit at all, not "none given":
    the optimality proof after weighted A*'s plan is not cut at the default proof budget
    (made all but nothing here, so that a run given no limit stops it at once) and proves
    the medium 15-puzzle's optimum, 32 moves (its model's ``[expected]``)."""
    monkeypatch.setattr(anytime_module, "PROOF_SECONDS", 1e-9)
    model = load(MODELS / "fifteen_medium.toml").model
    given_none = run("search", "solve", model, Options())
    assert given_none.status is Status.SOLVED
    assert "the default proof budget of 1e-09 s (no time limit was given" in given_none.message
    lifted = run("search", "solve", model, Options(time_limit=math.inf))
    assert lifted.status is Status.OPTIMAL and lifted.steps == 32 and lifted.verified


def test_a_proof_without_a_limit_stopped_by_a_stop_asked_names_that_stop(monkeypatch,
                                                                        tmp_path):
    """No time limit at all, and a stop of the time's kind asked for during the proof (a
    race's cross-check window, which ends a racer as its time would): the message names
    that stop, not a time limit there is none of, nor the default proof budget."""
    real = anytime_module._prove

    def prove(*args):
        interrupt.request("cross-check window of 1.0 s reached", Stop.TIME)
        return real(*args)

    monkeypatch.setattr(anytime_module, "_prove", prove)
    result = anytime(compile_planning(_korf1_manhattan(tmp_path)), Budget(lifted=True))
    assert result.status is Status.SOLVED
    assert "the optimality proof was stopped (cross-check window of 1.0 s reached): " \
        "no plan has fewer than" in result.message
