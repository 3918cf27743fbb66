"""The engine registry: an engine that cannot be imported is an error, not a skip."""

from __future__ import annotations

import pytest

from cpsolve import engines
from cpsolve.model import Csp


def test_every_engine_applies_to_a_small_csp():
    csp = Csp("one variable")
    csp.add_variable("x", 0, 1)
    assert engines.engines_for(csp, "count") == ["cpsat", "search", "pyconstraint"]


def test_an_engine_that_fails_to_import_raises(monkeypatch):
    monkeypatch.setitem(engines.ENGINES, "broken", "cpsolve.engines.no_such_module")
    csp = Csp("one variable")
    csp.add_variable("x", 0, 1)
    with pytest.raises(ImportError, match="engine 'broken'"):
        engines.engines_for(csp, "solve")


def test_run_says_what_it_takes_when_given_a_puzzle_or_a_dict(models_dir):
    from cpsolve.puzzles.files import load

    puzzle = load(str(models_dir / "water_jugs.toml"))
    with pytest.raises(TypeError, match=r"run\(\) takes a model \(a Csp or Planning: "
                                        r"puzzle.model\), not a TransitionPuzzle"):
        engines.run("search", "solve", puzzle)
    with pytest.raises(TypeError, match=r"takes its options as cpsolve.engines.Options"
                                        r"\(...\) \(or None\), not a dict"):
        engines.run("search", "solve", puzzle.model, {"time_limit": 5})
    with pytest.raises(TypeError, match=r"run\(\) takes a model .*, not a NoneType"):
        engines.run("search", "solve", None)


@pytest.mark.parametrize("task", ["Solve", "bogus", ""])
def test_run_names_an_unknown_task_as_unknown(models_dir, task):
    """As an unknown engine is named (``unknown engine 'nope' (known: ...)``): not an engine
    that "cannot Solve a csp model", which would say the task exists."""
    from cpsolve.puzzles.files import load

    model = load(str(models_dir / "water_jugs.toml")).model
    known = r"\(known: solve, count, analyze\)"
    with pytest.raises(ValueError, match=rf"^unknown task '{task}' {known}$"):
        engines.run("search", task, model)
    csp = Csp("one variable")
    csp.add_variable("x", 0, 1)
    with pytest.raises(ValueError, match=rf"^unknown task '{task}' {known}$"):
        engines.run("cpsat", task, csp)
