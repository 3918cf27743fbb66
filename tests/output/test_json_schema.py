"""Every command's ``--json`` output, on every bundled model, against ``cpsolve schema``."""

from __future__ import annotations

import json
from functools import cache

import jsonschema
import pytest

from cpsolve.puzzles.files import MODELS_DIR, load

BUNDLED = sorted(MODELS_DIR.glob("*.toml"))
KINDS = {p.stem: load(p).model.kind for p in BUNDLED}
PLANNING = [n for n, k in KINDS.items() if k == "planning"]
CSP = [n for n, k in KINDS.items() if k == "csp"]


@cache
def validator() -> jsonschema.Draft202012Validator:
    from cpsolve.output.schema import schema

    return jsonschema.Draft202012Validator(schema())


def valid(cli, *argv: str) -> dict:
    """Run one command with ``--json``; each of its lines (one, or the solutions of
    ``count --list`` as they are found, then the result) must be valid under the schema;
    the last one is returned."""
    run = cli(*argv, "--json")
    assert run.code in (0, 1), run.err  # 1: a limit was hit, still an honest answer
    for line in run.out.splitlines():
        data = json.loads(line)
        errors = sorted(validator().iter_errors(data), key=lambda e: list(e.path))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    return data


def limit_while_loading(data: dict) -> bool:
    """True for the error object of a time limit reached before any engine ran (a loaded
    machine can take longer than a short limit to load a model file): nothing to check."""
    if data.get("status") != "error":
        return False
    assert data["exit"] == 1 and "time limit" in data["error"] and "loading" in data["error"]
    return True


def test_the_schema_is_a_draft_2020_12_schema(cli):
    run = cli("schema")
    assert run.code == 0
    printed = json.loads(run.out)
    jsonschema.Draft202012Validator.check_schema(printed)
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_model_is_covered():
    assert set(PLANNING) | set(CSP) == set(KINDS) and PLANNING and CSP


@pytest.mark.parametrize("name", sorted(KINDS))
def test_solve(cli, name):
    data = valid(cli, "solve", name, "--engine", "search", "--time-limit", "1")
    if limit_while_loading(data):
        return
    assert data["task"] == "solve"
    if data["answer"] == "plan":
        assert data["steps"] == len(data["plan"])
    if data["status"] == "infeasible":  # an invariant or a parity is re-checked by the checker
        assert data["proof"]
        assert data["verified"] is (True if data["invariant"] or data["parity"] else None)
        assert (data["invariant"] is not None) == (data["proof"] == "invariant"
                                                   and data["engine"] != "invariant")
        assert (data["parity"] is not None) == (data["proof"] == "parity")


@pytest.mark.parametrize("name", CSP)
def test_count(cli, name):
    data = valid(cli, "count", name, "--engine", "search", "--time-limit", "0.5")
    if limit_while_loading(data):
        return
    assert data["status"] in ("exact", "at_least", "unknown")


@pytest.mark.parametrize("name", PLANNING)
def test_analyze(cli, name):
    data = valid(cli, "analyze", name, "--limit", "300")
    assert data["direction"] in ("start", "goal")


def test_analyze_from_either_end(cli):
    start = valid(cli, "analyze", "water_jugs", "--from", "start")
    assert (start["direction"], start["status"], start["states"]) == ("start", "complete", 26)
    goal = valid(cli, "analyze", "eight_puzzle", "--from", "goal", "--limit", "100")
    assert goal["direction"] == "goal" and goal["status"] == "partial"


def test_hoppers_words(cli):
    """Steps are actions, moves the family's metric (chains), cost the sum of action costs."""
    data = valid(cli, "solve", "hoppers", "--engine", "search")
    assert (data["steps"], data["moves"], data["cost"]) == (11, 7, 7)
    text = cli("solve", "hoppers", "--engine", "search").out
    assert "7 moves (11 jumps; a chain of jumps by one peg is one move)" in text
    assert "jumps in" not in text


def test_english33_words(cli):
    data = valid(cli, "solve", "english33", "--engine", "search")
    assert data["steps"] == data["moves"] == 31
    text = cli("solve", "english33", "--engine", "search").out
    assert "31 moves (31 jumps" in text and "30 moves" not in text


def test_count_statuses(cli):
    exact = valid(cli, "count", "xsudoku5")
    assert (exact["status"], exact["count"], exact["verified"]) == ("exact", 960, False)
    limited = valid(cli, "count", "xsudoku5", "--limit", "10")
    assert (limited["status"], limited["count"]) == ("at_least", 10)
    listed = valid(cli, "count", "latin4", "--engine", "search", "--list")
    assert listed["verified"] is True and listed["listed"] == listed["count"] == 576


def test_count_optimal_plans_and_classes(cli):
    plans = valid(cli, "count", "hoppers", "--optimal", "--engine", "search", "--list")
    assert plans["count"] == 72 and all(p["moves"] == 7 for p in plans["plans"])
    classes = valid(cli, "count", "latin4", "--up-to", "relabel", "--engine", "search")
    assert classes["count"] == 576 // 24 and classes["total"] == 576


def test_generate(cli):
    data = valid(cli, "generate", "xsudoku5", "--givens", "4", "--engine", "search")
    assert data["givens"][0]["classes"] == 246
    valid(cli, "generate", "xsudoku5", "--givens", "3", "--random", "2", "--seed", "1",
          "--engine", "search", "--check")


def test_compare_fills_cross_checked_by(cli):
    data = valid(cli, "compare", "water_jugs", "knight_4x4", "fifteen_unsolvable",
                 "--time-limit", "20")
    # the 15-puzzle's parity answers alone, before any engine: not cross-checked
    assert data["status"] == "incomplete"
    assert [m["agree"] for m in data["models"]] == [True, True, None]
    jugs = data["models"][0]["results"]
    for result in jugs:
        others = {r["engine"] for r in jugs} - {result["engine"]}
        assert set(result["cross_checked_by"]) == others
    valid(cli, "compare", "latin4", "--task", "count", "--time-limit", "20")
    valid(cli, "compare", "onoff", "--task", "analyze")


def test_klotski_words(cli):
    """Route moves: steps are one-cell steps, moves (= cost) the routes, runs their lengths."""
    data = valid(cli, "solve", "klotski", "--engine", "search")
    assert data["status"] == "optimal" and (data["moves"], data["cost"]) == (81, 81)
    assert len(data["runs"]) == 81 and sum(data["runs"]) == data["steps"] == len(data["plan"])
    assert "any route through empty cells" in data["metric"]


def test_the_plan_file_said_in_json_is_in_the_schema(cli, tmp_path):
    data = valid(cli, "solve", "water_jugs", "--engine", "search", "--plan-file",
                 str(tmp_path / "p.plan"))
    assert data["plan_file"]["written"] is True
