"""A*'s tables are not freed on its way back to the result (seconds at a million states, in
which no Ctrl-C is seen, so a stop asked for just before escalated and lost the plan and
the bound): they are handed to :mod:`cpsolve.engines.runtime.release`, and
:func:`cpsolve.engines.run` frees them once the result is built."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.runtime import interrupt, release
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import anytime as anytime_module
from cpsolve.engines.search.planning import astar as astar_module
from cpsolve.engines.search.planning.heuristic import compile_estimate
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[3] / "models"


@pytest.fixture(autouse=True)
def nothing_held_nor_asked():
    interrupt.clear()
    release.now(before_next=True)
    yield
    interrupt.clear()
    release.now(before_next=True)


def _held_tables() -> list[dict]:
    return [t for t in release._held if isinstance(t, dict)]


def test_best_first_hands_its_tables_over_at_its_cap():
    """Stopped at its state cap, A* returns with its tables (every state it stored) still
    referenced by the holder, not freed as its frame went away."""
    task = compile_planning(load(MODELS / "eight_puzzle.toml").model)
    estimate = compile_estimate(task)
    out = astar_module.best_first(task, Budget(), estimate, upper=31, cap=2_000)
    assert out.stop == "cap"
    tables = _held_tables()
    assert tables and all(len(t) == out.explored for t in tables)
    assert task.initial in tables[0]
    release.now()
    assert release.held() == 0


def test_run_frees_them_once_the_result_is_built(monkeypatch):
    """The door frees what the engine handed over after the checked result is built (it
    was still held when the engine returned); in a process that ends by ``os._exit``
    (:func:`release.until_exit`) it leaves them, and the next run frees them first."""
    held_at_return = []
    search = anytime_module.anytime

    def anytime(task, budget):
        result = search(task, budget)
        held_at_return.append(release.held())
        return result

    monkeypatch.setattr(anytime_module, "anytime", anytime)
    model = load(MODELS / "eight_puzzle.toml").model
    options = Options(algorithm="anytime")
    assert run("search", "solve", model, options).status is Status.OPTIMAL
    assert held_at_return[-1] >= 3 and release.held() == 0
    with release.until_exit():
        assert run("search", "solve", model, options).status is Status.OPTIMAL
        assert release.held() == held_at_return[-1]
        run("search", "solve", model, options)
        assert release.held() == held_at_return[-1]  # the first run's were freed
    release.now()
    assert release.held() == 0


def test_a_stop_asked_as_the_cap_is_reached_keeps_the_plan_and_the_bound(monkeypatch):
    """A Ctrl-C just as A*'s proof reaches its cap: the weighted A* plan comes back with the
    bound proven, and nothing was freed between the stop and that result."""
    monkeypatch.setattr(anytime_module, "ASTAR_CAP", 2_000)
    real = astar_module.Outcome

    def outcome(*args, **kwargs):
        if args[3] == "cap":
            interrupt.request()
        return real(*args, **kwargs)

    monkeypatch.setattr(astar_module, "Outcome", outcome)
    task = compile_planning(load(MODELS / "eight_puzzle.toml").model)
    result = anytime_module.anytime(task, Budget(lifted=True))
    assert interrupt.kind() is Stop.INTERRUPT
    assert result.status is Status.SOLVED and "proof was interrupted" in result.message
    assert 0 < result.bound <= 31 <= len(result.plan)
    assert any(len(t) >= 2_000 for t in _held_tables())
