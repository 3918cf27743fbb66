"""A model file's ``[expected]`` table at load time: a key that the model's runs can never
answer (one of the other kind of model, an optimum of a csp without one) is refused in one
line naming it, as an unknown key is."""

from __future__ import annotations

import pytest

from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import load

PLANNING = ('family = "transition"\ngoal = "x == 2"\n[variables]\nx = [0, 3]\n[initial]\n'
            'x = 0\n[[actions]]\nname = "inc"\nguard = "x < 3"\neffects = { x = "x + 1" }\n')
"""x goes 0 -> 1 -> 2: a planning model (steps, cost, states, ...; no objective)."""

CSP = 'family = "csp"\nconstraints = ["x != y"]\n[variables]\nx = [0, 2]\ny = [0, 2]\n'
"""A csp without an objective: every solution is as good as another."""

CSP_MIN = CSP.replace('constraints', 'minimize = "x + y"\nconstraints')
"""The same csp, asking for the least x + y (1)."""


def loaded(tmp_path, model: str, table: str):
    path = tmp_path / "m.toml"
    path.write_text(f"{model}[expected]\n{table}\n", encoding="utf-8")
    return load(path)


def refused(tmp_path, model: str, table: str) -> ModelFileError:
    with pytest.raises(ModelFileError) as err:
        loaded(tmp_path, model, table)
    return err.value


@pytest.mark.parametrize("table, key", [
    ("objective = 7", "objective"), ("unique = true", "unique"), ("classes = 1", "classes"),
])
def test_a_csp_key_in_a_planning_model_is_refused(tmp_path, table, key):
    err = refused(tmp_path, PLANNING, table)
    assert err.key == f"expected.{key}"
    assert "csp model only" in err.message and "planning model" in err.message


@pytest.mark.parametrize("table, key", [
    ("steps = 2", "steps"), ("cost = 2", "cost"), ("states = 4", "states"),
    ("max_distance = 2", "max_distance"), ("farthest = 1", "farthest"),
])
def test_a_planning_key_in_a_csp_is_refused(tmp_path, table, key):
    err = refused(tmp_path, CSP_MIN, table)
    assert err.key == f"expected.{key}"
    assert "planning model only" in err.message and "csp model" in err.message


def test_an_objective_of_a_csp_without_one_is_refused(tmp_path):
    err = refused(tmp_path, CSP, "objective = 1")
    assert err.key == "expected.objective" and "no minimize or maximize" in err.message


def test_optimal_of_a_csp_without_an_objective_is_refused(tmp_path):
    """Such a csp's solve says ``solved`` whatever it proves: ``optimal`` could never
    hold."""
    err = refused(tmp_path, CSP, 'solve = "optimal"')
    assert err.key == "expected.solve" and "minimize or maximize" in err.message
    assert "\n" not in str(err)


@pytest.mark.parametrize("model, table", [
    (PLANNING, 'solve = "optimal"\nsteps = 2\ncost = 2\ncount = 1\nstates = 4\n'
               'max_distance = 2\nfarthest = 1'),
    (PLANNING, 'solve = "solved"'),
    (CSP, 'solve = "solved"\nunique = false\ncount = 6\nclasses = 3'),
    (CSP, 'solve = "infeasible"'),
    (CSP_MIN, 'solve = "optimal"\nobjective = 1\ncount = 6\nunique = false'),
])
def test_the_keys_that_apply_are_taken(tmp_path, model, table):
    assert loaded(tmp_path, model, table).expected


def test_the_cli_refuses_it_in_one_line_exit_2(cli, tmp_path):
    path = tmp_path / "m.toml"
    path.write_text(f"{PLANNING}[expected]\nobjective = 7\n", encoding="utf-8")
    run = cli("solve", path)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == [
        f"error: {path}: expected.objective: applies to a csp model only; this is a "
        "planning model, whose runs never answer it"]
