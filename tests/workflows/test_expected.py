"""A model's ``[expected]`` against a run's answer: a proven answer that differs is a
mismatch; an answer without the proof the key needs contradicts nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsolve.answers.kinds import Assignment
from cpsolve.answers.result import Result, Status
from cpsolve.workflows.expected import mismatches

MODELS = Path(__file__).resolve().parents[2] / "models"


def ruler(status: Status, objective: int = 17) -> Result:
    """A solve of a model that minimizes, with ``objective`` at its answer."""
    return Result(status, "search", answer=Assignment({"m": 0}, objective=objective))


def test_a_proven_optimum_other_than_the_expected_objective_is_a_mismatch():
    assert mismatches({"objective": 99}, ruler(Status.OPTIMAL)) == [
        "the model's [expected] says objective = 99; this run found 17"]


def test_the_expected_objective_agrees_with_the_proven_optimum():
    assert mismatches({"objective": 17}, ruler(Status.OPTIMAL)) == []


def test_an_objective_without_an_optimality_proof_contradicts_nothing():
    """A limit stopped the search at 20: the optimum may still be 17."""
    assert mismatches({"objective": 17}, ruler(Status.SOLVED, objective=20)) == []


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_solve_json_names_an_objective_mismatch(cli, tmp_path, engine):
    """golomb6's optimum is 17: an ``[expected]`` of 99 is said on stderr and in the JSON;
    the answer is still printed, exit 0 (as for any other key)."""
    model = tmp_path / "g.toml"
    model.write_text((MODELS / "golomb6.toml").read_text().replace("objective = 17",
                                                                   "objective = 99"))
    run = cli("solve", model, "--engine", engine, "--json")
    out = json.loads(run.out)
    assert run.code == 0 and out["status"] == "optimal" and out["objective"] == 17
    assert out["expected_mismatch"] == [
        "the model's [expected] says objective = 99; this run found 17"]
    assert "warning: the model's [expected] says objective = 99" in run.err
