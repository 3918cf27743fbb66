"""The translator's task as a model: the operators of one PDDL action (a disjunctive
precondition split) are one action, so every engine counts plans as plan files write
them; operators that change nothing stay out of the model the engines solve.  Expected
counts are worked out by hand in :mod:`pddl_cases`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cpsolve.puzzles.pddl_task import load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
import pddl_cases as cases  # noqa: E402

pytest.importorskip("fast_downward.translate")


def test_the_operators_of_one_pddl_action_are_one_action(tmp_path):
    model = load(*cases.write(tmp_path, cases.LAMPS_DOMAIN, cases.LAMPS_PROBLEM)).model
    assert sorted(a.name for a in model.actions) == ["flip l1", "flip l2", "touch l1",
                                                      "touch l2", "unmaster"]


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_plans_differing_only_by_a_variant_are_counted_once(cli, tmp_path, engine):
    files = cases.write(tmp_path, cases.LAMPS_DOMAIN, cases.LAMPS_PROBLEM)
    out = cli("count", *files, "--optimal", "--engine", engine, "--json")
    assert out.code == 0, out.err
    assert json.loads(out.out)["count"] == cases.LAMPS_OPTIMAL_PLANS


def test_an_action_that_changes_nothing_is_no_step_of_the_engines(cli, tmp_path):
    files = cases.write(tmp_path, cases.WALK_DOMAIN, cases.WALK_PROBLEM)
    puzzle = load(*files)
    assert "go a a" not in {a.name for a in puzzle.model.actions}
    out = json.loads(cli("count", *files, "--optimal", "--engine", "search", "--json").out)
    assert out["count"] == 1  # go a b (pddl_cases)
    whole = load(*files, whole=True)  # as validate reads the task: go a a is legal
    assert "go a a" in {a.name for a in whole.idle}
    assert "go a a" not in {a.name for a in whole.model.actions}
