"""The minizinc engine optimises: ``minimize``/``maximize`` exported as MiniZinc's own
``solve minimize``, the intermediate solutions read back, ``OPTIMAL`` only on MiniZinc's
proof; ``count --optimal`` through it; agreement with the other engines.

Every optimum here is worked out by hand (in the comments), not taken from a run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cpsolve import Csp
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.minizinc import GRACE, _bound
from cpsolve.interop.minizinc import export
from cpsolve.puzzles.files import load

pytestmark = pytest.mark.skipif(shutil.which("minizinc") is None, reason="no minizinc")

MODELS = Path(__file__).resolve().parents[2] / "models"

GOLOMB4 = """family = "csp"
name = "Golomb ruler, 4 marks"
minimize = "m[3]"
constraints = [
    "m[0] == 0",
    "all(m[i] < m[i + 1] for i in range(3))",
    '''all(m[j] - m[i] != m[l] - m[k] for i in range(4) for j in range(i + 1, 4)
           for k in range(i, 4) for l in range(k + 1, 4) if k > i or l > j)''',
]
[variables]
m = { size = 4, domain = [0, 9] }
"""
"""Four marks make 6 distances, all different and at most the length: at least 6 long.
At 6 the distances are exactly 1..6, and 5 needs a mark at 1 or at 5.  With one at 1
(0 1 _ 6) the fourth at 2 repeats 1 (0 1, 1 2), at 3 repeats 3 (0 3, 3 6), at 5 repeats 1
(0 1, 5 6); at 4 it gives 0 1 4 6 (distances 1 4 6 3 5 2).  With one at 5: the mirror,
0 2 5 6.  So: optimum 6, two optimal rulers."""

RULERS4 = [{"m[0]": 0, "m[1]": 1, "m[2]": 4, "m[3]": 6},
           {"m[0]": 0, "m[1]": 2, "m[2]": 5, "m[3]": 6}]


def knapsack() -> Csp:
    """Four items (weight, value): a (2, 3), b (3, 4), c (1, 2), d (4, 5); capacity 5.

    The subsets that fit (weight <= 5): {} 0, a 3, b 4, c 2, d 5, ab 7, ac 5, bc 6, cd 7
    (ad 6, bd 7, and every other pair or larger set weigh more than 5): 9 of them; the
    best value is 7, reached by ab and cd: two optimal solutions."""
    csp = Csp("knapsack")
    take = csp.add_array("take", 4, 0, 1)
    weights, values = (2, 3, 1, 4), (3, 4, 2, 5)
    csp.require(sum((w * t for w, t in zip(weights, take)), 0) <= 5)
    csp.maximize(sum((v * t for v, t in zip(values, take)), 0))
    return csp


def test_the_shortest_4_mark_ruler(write_model):
    model = load(write_model("g4.toml", GOLOMB4)).model
    result = run("minizinc", "solve", model, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.verified, result
    assert result.answer.objective == 6 and dict(result.solution) in RULERS4
    assert "proven optimal" in result.message


def test_count_optimal_counts_the_two_4_mark_rulers(write_model, cli):
    path = write_model("g4.toml", GOLOMB4)
    out = cli("count", path, "--optimal", "--engine", "minizinc", "--list", "--json")
    assert out.code == 0, out.err
    last = json.loads(out.out.splitlines()[-1])
    assert last["status"] == "exact" and last["count"] == 2
    assert last["details"]["optimum"] == 6
    assert sorted(json.loads(line)["solution"]["m[1]"]
                  for line in out.out.splitlines()[:-1]) == [1, 2]


def test_a_plain_count_counts_every_solution_whatever_its_value(write_model):
    """Without ``--optimal`` the objective does not matter: the export says ``solve
    satisfy`` (MiniZinc's all-solutions on ``solve minimize`` would list only the
    improving ones), and the count is the one CP-SAT makes."""
    model = load(write_model("g4.toml", GOLOMB4)).model
    assert "solve satisfy" in export(model, objective=False).model
    counted = run("minizinc", "count", model)
    assert counted.status is Status.EXACT
    assert counted.count == run("cpsat", "count", model).count > 2


def test_a_maximum_and_its_count():
    csp = knapsack()
    result = run("minizinc", "solve", csp, Options(time_limit=60))
    assert result.status is Status.OPTIMAL and result.verified
    assert result.answer.objective == 7 and not result.answer.minimizing
    assert result.solution in ({"take[0]": 1, "take[1]": 1, "take[2]": 0, "take[3]": 0},
                               {"take[0]": 0, "take[1]": 0, "take[2]": 1, "take[3]": 1})
    assert run("minizinc", "count", csp, Options(optimal=True)).count == 2
    assert run("minizinc", "count", csp).count == 9


def test_an_infeasible_objective_model_is_infeasible():
    csp = Csp("none")
    x = csp.add_variable("x", 0, 3)
    csp.require(x > 3)
    csp.minimize(x)
    result = run("minizinc", "solve", csp)
    assert result.status is Status.INFEASIBLE and result.proof == "exhausted search"


def test_names_the_package_would_rename_come_back():
    """``lambda`` (a Python keyword: the package would return it as ``mzn_lambda``) and
    ``objective`` (the field of the objective's value) are exported under other names.
    lambda + objective == 5, both in 0..3: lambda is at most 3, then objective is 2."""
    csp = Csp("names")
    a, b = csp.add_variable("lambda", 0, 3), csp.add_variable("objective", 0, 3)
    csp.require(a + b == 5)
    csp.maximize(a)
    result = run("minizinc", "solve", csp)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.solution == {"lambda": 3, "objective": 2} and result.answer.objective == 3


def test_compare_has_minizinc_agree_on_the_6_mark_ruler(cli):
    out = cli("compare", MODELS / "golomb6.toml", "--json")
    assert out.code == 0, out.err
    report = json.loads(out.out)
    assert report["status"] == "agree"
    rows = {r["engine"]: r for r in report["models"][0]["results"]}
    assert {"cpsat", "search", "minizinc"} <= set(rows)
    assert {rows[e]["status"] for e in ("cpsat", "search", "minizinc")} == {"optimal"}
    assert {rows[e]["objective"] for e in ("cpsat", "search", "minizinc")} == {17}


def queens10(write_model):
    """Queens dominating the 10x10 board: 5 at least (OEIS A075458); Gecode finds some
    placements in a second or two but proves nothing within the limit."""
    text = (MODELS / "queens_dominate8.toml").read_text().replace("n = 8", "n = 10")
    return load(write_model("q10.toml", text.split("[expected]")[0])).model


def test_a_stopped_optimisation_reports_its_best_not_an_optimum(write_model):
    model = queens10(write_model)
    result = run("minizinc", "solve", model, Options(time_limit=2))
    assert result.status in (Status.SOLVED, Status.UNKNOWN), result
    assert "time limit" in result.message
    assert result.seconds < 2 + GRACE + 10  # did not run on (margin: benchmarks/under_load.py)
    if result.status is Status.SOLVED:
        assert result.answer.objective >= 5 and result.verified
        assert "not proven optimal" in result.message
        assert result.bound is None  # Gecode reports no bound on the optimum


def test_count_optimal_without_a_proven_optimum_counts_nothing(write_model):
    result = run("minizinc", "count", queens10(write_model),
                 Options(optimal=True, time_limit=2))
    assert result.status is Status.UNKNOWN and "not proven" in result.message


@pytest.mark.parametrize("details, minimizing, want", [
    ({"objective_bound": 4.2}, True, 5),   # a minimum of at least 4.2 is at least 5
    ({"objective_bound": 4.2}, False, 4),  # a maximum of at most 4.2 is at most 4
    ({"objective_bound": 5.0}, True, 5),
    ({"objective_bound": float("inf")}, True, None),
    ({}, True, None),
])
def test_a_reported_bound_is_rounded_inwards(details, minimizing, want):
    assert _bound(details, minimizing) == want
