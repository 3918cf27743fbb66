"""``solve --plan-file``: what became of the file is always said.  A run without a plan
writes none (an empty plan file would be the plan of no steps), and says so beside its
verdict: in the text under the report, in ``--json`` as ``plan_file``, and on stderr when
stdout holds the plan file alone (``-``), where the report is left out; an existing FILE
is kept as it was, and named as such."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

JUGS_6_4 = """family = "transition"
name = "Jugs 6 L and 4 L"
goal = "jug[0] == 3 or jug[1] == 3"
show = "{jug[0]} {jug[1]}"

[constants]
cap = [6, 4]

[variables]
jug = { size = 2, domain = [0, 6] }

[initial]
jug = [0, 0]

[[actions]]
name = "fill {i}"
params = { i = [0, 1] }
guard = "jug[i] < cap[i]"
effects = { "jug[i]" = "cap[i]" }

[[actions]]
name = "empty {i}"
params = { i = [0, 1] }
guard = "jug[i] > 0"
effects = { "jug[i]" = "0" }

[[actions]]
name = "pour {i} into {j}"
params = { i = [0, 1], j = [0, 1] }
where = "i != j"
guard = "jug[i] > 0 and jug[j] < cap[j]"
[actions.effects]
"jug[i]" = "jug[i] - min(jug[i], cap[j] - jug[j])"
"jug[j]" = "jug[j] + min(jug[i], cap[j] - jug[j])"
"""
"""Jugs of 6 L and 4 L hold even amounts only (every fill, empty and pour keeps each jug
a multiple of gcd(6, 4) = 2): 3 L is out of reach, so there is no plan."""


@pytest.fixture
def stuck(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    model = tmp_path / "jugs64.toml"
    model.write_text(JUGS_6_4)
    return model


def test_no_plan_on_stdout_says_the_verdict_on_stderr(cli, stuck):
    """``--plan-file -`` with no plan: stdout stays empty (no plan file), and stderr says
    in one line the model, the verdict and that nothing was written; exit 0, as for any
    proof that there is no plan."""
    run = cli("solve", stuck, "--engine", "search", "--plan-file", "-")
    assert run.code == 0 and run.out == ""
    assert len(run.err.splitlines()) == 1, run.err
    assert "Jugs 6 L and 4 L" in run.err and "infeasible (proven)" in run.err
    assert "--plan-file - wrote nothing" in run.err


def test_no_plan_leaves_an_existing_file_and_says_so(cli, stuck):
    (stuck.parent / "old.plan").write_text("(fill 0)\n")
    run = cli("solve", stuck, "--engine", "search", "--plan-file", "old.plan")
    assert run.code == 0 and (stuck.parent / "old.plan").read_text() == "(fill 0)\n"
    assert "--plan-file old.plan not written: no plan (infeasible (proven)); old.plan " \
        "still holds what it held" in run.out


def test_no_plan_and_no_file_writes_none_and_says_so(cli, stuck):
    run = cli("solve", stuck, "--engine", "search", "--plan-file", "new.plan")
    assert run.code == 0 and not (stuck.parent / "new.plan").exists()
    assert "--plan-file new.plan not written: no plan (infeasible (proven))" in run.out
    assert "still holds" not in run.out


def test_json_says_whether_the_plan_file_was_written(cli, stuck):
    (stuck.parent / "old.plan").write_text("old\n")
    run = cli("solve", stuck, "--engine", "search", "--plan-file", "old.plan", "--json")
    assert run.code == 0 and run.err == ""
    said = json.loads(run.out)["plan_file"]
    assert said["path"] == "old.plan" and said["written"] is False and said["kept"] is True
    assert "no plan (infeasible (proven))" in said["note"]
    run = cli("solve", "water_jugs", "--engine", "search", "--plan-file", "jugs.plan", "--json")
    assert json.loads(run.out)["plan_file"] == {"path": "jugs.plan", "written": True,
                                                "kept": False, "note": ""}
    assert len((stuck.parent / "jugs.plan").read_text().splitlines()) == 11  # 10 moves, cost


def test_a_written_plan_file_is_said_as_pictures_are(cli, stuck):
    """``wrote FILE (...)``, as --svg and --html say theirs: 10 moves for the jugs of 8 L
    and 5 L (DESIGN.md)."""
    run = cli("solve", "water_jugs", "--engine", "search", "--plan-file", "jugs.plan")
    assert run.code == 0
    assert run.out.splitlines()[-1] == "wrote jugs.plan (the plan: 10 moves, by search)"


def test_a_plan_on_stdout_has_its_verdict_on_stderr(cli):
    """No plan file says whether its plan is proven optimal: with ``--plan-file -`` (stdout
    holds the plan alone) the verdict goes to stderr, for a plan written too."""
    run = cli("solve", "water_jugs", "--engine", "search", "--plan-file", "-")
    assert run.code == 0 and run.out.splitlines()[-1] == "; cost = 10 (unit cost)"
    assert run.err_lines == ["Water jugs 8 L and 5 L [search] optimal (proven); wrote - "
                             "(the plan: 10 moves, by search)"]


def test_the_verdict_on_stderr_is_in_the_puzzles_words(cli):
    """The stderr verdict of ``--plan-file -`` says why there is no plan as the report and
    ``--json`` say it: French 37-hole solitaire's parity proof names the pegs of the board
    (``the peg in r1c3``), not the model's variables (``hole[0]``)."""
    said = json.loads(cli("solve", "french37", "--engine", "search", "--json").out)["message"]
    assert "the peg in r1c3" in said and "hole[" not in said
    run = cli("solve", "french37", "--engine", "search", "--plan-file", "-")
    assert run.code == 0 and run.out == ""
    assert f"infeasible (proven): {said}; no plan, so --plan-file -" in run.err, run.err
