"""Every task uses every proof that no plan exists, through the CLI (issues 10 and 15).

Proofs: the puzzle's own parity argument (sliding), an invariant of the
actions (:mod:`cpsolve.model.invariants`), and the exhaustion of a small state
space (CP-SAT runs one before growing horizons).  Tasks: ``solve`` with each
engine and the default ``auto``, ``count --optimal``, ``compare``.  The
expected reachable-state counts are computed here by a plain search over the
jugs' own rules, not by cpsolve.
"""

from __future__ import annotations

import json
from math import gcd

import pytest

JUGS = """
family = "transition"
name = "Jugs {a} L and {b} L, get {want} L"
goal = "jug[0] == {want} or jug[1] == {want}"

[constants]
cap = [{a}, {b}]

[variables]
jug = {{ size = 2, domain = [0, {a}] }}

[initial]
jug = [0, 0]

[[actions]]
name = "fill jug {{i}}"
params = {{ i = [0, 1] }}
guard = "jug[i] < cap[i]"
effects = {{ "jug[i]" = "cap[i]" }}

[[actions]]
name = "empty jug {{i}}"
params = {{ i = [0, 1] }}
guard = "jug[i] > 0"
effects = {{ "jug[i]" = "0" }}

[[actions]]
name = "pour jug {{i}} into jug {{j}}"
params = {{ i = [0, 1], j = [0, 1] }}
where = "i != j"
guard = "jug[i] > 0 and jug[j] < cap[j]"
effects = {{ "jug[i]" = "jug[i] - min(jug[i], cap[j] - jug[j])", \
"jug[j]" = "jug[j] + min(jug[i], cap[j] - jug[j])" }}
"""


def jug_states(a: int, b: int) -> set[tuple[int, int]]:
    """The states reachable from two empty jugs (fill, empty, pour), by plain search."""
    seen, todo = {(0, 0)}, [(0, 0)]
    while todo:
        x, y = todo.pop()
        into_b, into_a = min(x, b - y), min(y, a - x)
        for t in ((a, y), (x, b), (0, y), (x, 0), (x - into_b, y + into_b),
                  (x + into_a, y - into_a)):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


@pytest.fixture
def jugs(tmp_path):
    """A jugs model file whose target is no multiple of the capacities' gcd."""
    def make(a: int, b: int, want: int):
        assert want % gcd(a, b)  # every amount ever measured is a multiple of the gcd
        path = tmp_path / f"jugs_{a}_{b}_{want}.toml"
        path.write_text(JUGS.format(a=a, b=b, want=want), encoding="utf-8")
        return path
    return make


def test_the_jugs_model_has_30_reachable_states_and_no_target():
    states = jug_states(16, 14)
    assert len(states) == 30 and not any(7 in s for s in states)


@pytest.mark.parametrize("command", [["solve"], ["count", "--optimal"]])
def test_cpsat_proves_a_small_unsolvable_model_by_exhausting_it(cli, jugs, command):
    # before the fix CP-SAT stayed "unknown" at its limit on this model
    run = cli(*command, jugs(16, 14, 7), "--engine", "cpsat", "--time-limit", "20", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["proof"] == "exhausted search" and data["engine"] == "cpsat"
    assert data["explored"] == 30
    assert "all 30 states reachable" in data["message"]
    if command == ["solve"]:
        assert data["status"] == "infeasible"
    else:
        assert (data["status"], data["count"]) == ("exact", 0)


@pytest.mark.parametrize("engine", ["search", "auto"])
def test_count_optimal_says_how_it_proved_there_is_none(cli, jugs, engine):
    run = cli("count", "--optimal", jugs(9, 6, 4), "--engine", engine, "--json")
    data = json.loads(run.out)
    assert (data["status"], data["count"], data["proof"]) == ("exact", 0, "exhausted search")


@pytest.mark.parametrize("engine", ["cpsat", "search", "auto"])
@pytest.mark.parametrize("command", [["solve"], ["count", "--optimal"]])
def test_french37_is_impossible_by_an_invariant_in_every_task(cli, models_dir, engine, command):
    run = cli(*command, models_dir / "french37.toml", "--engine", engine, "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["proof"] == "invariant" and data["verified"] is True
    invariant = data["invariant"]
    assert invariant["modulus"] == 2 and invariant["start"] != invariant["goal"]
    assert "preserved modulo 2" in data["message"]
    assert data["status"] == ("infeasible" if command == ["solve"] else "exact")


@pytest.mark.parametrize("task", ["solve", "count"])
def test_compare_reports_the_invariant_of_both_engines(cli, models_dir, task):
    # peers (Fast Downward) know no invariant: they search until their share of the limit
    run = cli("compare", models_dir / "french37.toml", "--task", task, "--json",
              "--time-limit", "4")
    assert run.code == 0, run.err
    results = json.loads(run.out)["models"][0]["results"]
    ours = [r for r in results if r["engine"] in ("cpsat", "search")]
    assert len(ours) == 2  # one proof, the invariant every planning engine finds the same
    # way: the checker verifies it, and the two results do not cross-check each other
    assert all(r["proof"] == "invariant" and r["verified"] for r in ours)
    assert not any(r["cross_checked_by"] for r in ours)
    assert all(r["status"] in ("unknown", "infeasible", "exact") for r in results)


def test_count_optimal_uses_the_parity_proof_of_solve(cli, models_dir):
    # 14 and 15 swapped: an odd permutation with the blank at home (Johnson & Story 1879)
    run = cli("count", "--optimal", models_dir / "fifteen_unsolvable.toml", "--json")
    data = json.loads(run.out)
    assert (data["status"], data["count"], data["proof"]) == ("exact", 0, "parity")
    run = cli("compare", models_dir / "fifteen_unsolvable.toml", "--task", "count")
    assert run.code == 0 and "no plan exists" in run.out


def test_compare_without_a_limit_gives_each_model_the_default_budget(cli, models_dir,
                                                                     monkeypatch):
    """An impossible model would keep a planner that knows no invariant searching for
    ever: without --time-limit, compare gives each model the default budget (shrunk here)."""
    import cpsolve.cli.session

    monkeypatch.setattr(cpsolve.cli.session, "AUTO_BUDGET", 3.0)
    run = cli("compare", models_dir / "french37.toml", "--json")
    assert run.code == 0, run.err
    results = json.loads(run.out)["models"][0]["results"]
    assert {r["engine"] for r in results} >= {"cpsat", "search", "fd"}
    assert all(r["status"] in ("unknown", "infeasible") for r in results)


# ---------------------------------------------------------------- the family's own argument


def parity_of(data: dict) -> dict:
    """The parity a result carries, after the checks every reader may make of it."""
    parity = data["parity"]
    assert data["proof"] == "parity" and data["verified"] is True and data["invariant"] is None
    assert parity["start"] != parity["goal"] and parity["blank"] == 0
    assert len(parity["cells"]) == len(parity["colours"]) == 16  # the 15-puzzle's cells
    return parity


@pytest.mark.parametrize("command", [["solve"], ["count", "--optimal"],
                                     ["solve", "--engine", "cpsat"]])
def test_the_parity_proof_of_a_command_is_verified_by_the_checker(cli, models_dir, command):
    run = cli(*command, models_dir / "fifteen_unsolvable.toml", "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    parity_of(data)
    assert data["engine"] == "invariant" and "1 transposition" in data["message"]
    text = cli(*command, models_dir / "fifteen_unsolvable.toml").out
    assert "verified; proof: parity" in " ".join(text.split())


def test_batches_and_compare_report_the_verified_parity_proof(cli, models_dir):
    both = [models_dir / "fifteen_unsolvable.toml", models_dir / "water_jugs.toml"]
    lines = [json.loads(line) for line in cli("solve", *both, "--json").out.splitlines()]
    assert parity_of(lines[0])["start"] in (0, 1) and lines[1]["verified"] is True
    run = cli("compare", models_dir / "fifteen_unsolvable.toml", "--json")
    assert run.code == 0, run.err
    (only,) = json.loads(run.out)["models"][0]["results"]
    parity_of(only)


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
@pytest.mark.parametrize("task", ["solve", "count"])
def test_run_answers_with_the_parity_the_model_carries(models_dir, engine, task):
    """A caller of ``engines.run`` with the model alone gets the family's parity argument:
    14 and 15 swapped is one transposition with the blank on its goal cell, so the start's
    permutation parity plus the blank's colour differs from the goal's and no plan exists
    (0 optimal plans).  It was ``unknown`` after the whole time limit, the argument being
    given only by the command line before any engine."""
    from cpsolve.answers.result import Status
    from cpsolve.engines import Options, run
    from cpsolve.puzzles.files import load

    model = load(models_dir / "fifteen_unsolvable.toml").model
    assert model.unsolvable is not None  # the family attached it to the model it built
    result = run(engine, task, model, Options(time_limit=5, keep=True))
    assert result.proof == "parity" and result.verified is True
    assert result.engine == "invariant" and result.parity == model.unsolvable
    if task == "solve":
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.EXACT
        assert result.answer.count == 0 and result.answer.plans == ()


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
@pytest.mark.parametrize("task", ["solve", "count"])
def test_a_false_claim_the_model_carries_is_an_engine_bug(models_dir, engine, task):
    """The 8-puzzle is solvable (31 moves): a parity claim attached to its model, whose
    values at the two ends differ, is wrong at one end; the checker refuses it whichever
    engine was named, and no answer is given."""
    from cpsolve.answers.result import EngineBug
    from cpsolve.engines import Options, run
    from cpsolve.model.invariants import Parity
    from cpsolve.puzzles.files import load

    puzzle = load(models_dir / "eight_puzzle.toml")
    assert puzzle.model.unsolvable is None
    board = puzzle.board
    puzzle.model.set_unsolvable(Parity(tuple(board.var(c) for c in board.cells),
                                       tuple((r + c) % 2 for r, c in board.cells), 0, 0, 1,
                                       "forged"))
    with pytest.raises(EngineBug, match="claims a parity proof"):
        run(engine, task, puzzle.model, Options(time_limit=5))


def test_a_claim_over_variables_the_model_lacks_is_refused():
    from cpsolve.model import ModelError, Planning
    from cpsolve.model.invariants import Parity

    model = Planning()
    model.add_variable("x", 0, 1)
    with pytest.raises(ModelError, match="unknown variable"):
        model.set_unsolvable(Parity(("x", "y"), (0, 1), 0, 0, 1))


@pytest.fixture
def forged(monkeypatch):
    """Makes every sliding puzzle of distinct tiles attach ``claim(real argument, board)`` to
    its model as its argument that no plan exists."""
    from dataclasses import replace

    from cpsolve.puzzles import sliding

    def forge(claim):
        real = sliding.parity_argument
        monkeypatch.setattr(sliding, "parity_argument",
                            lambda board, *args: claim(real(board, *args), board))
    forge.replace = replace  # type: ignore[attr-defined]
    return forge


def test_a_forged_parity_for_a_solvable_puzzle_is_an_engine_bug(cli, models_dir, forged):
    """The 8-puzzle is solvable (31 moves): a parity that differs between its start and its
    goal is wrong at one end, whatever the words say."""
    from cpsolve.model.invariants import Parity

    forged(lambda real, board: Parity(
        tuple(board.var(c) for c in board.cells),
        tuple((r + c) % 2 for r, c in board.cells), 0, 0, 1, "forged"))
    for command in (["solve"], ["count", "--optimal"], ["compare"]):
        run = cli(*command, models_dir / "eight_puzzle.toml")
        assert run.code == 3, (command, run.out, run.err)
        assert "engine bug" in run.err and "claims a parity proof, but the parity is" in run.err
    rows = cli("solve", models_dir / "eight_puzzle.toml", models_dir / "water_jugs.toml",
               "--json").out.splitlines()
    assert "claims a parity proof" in json.loads(rows[0])["error"]


def test_a_parity_without_its_checkerboard_is_refused_though_its_conclusion_holds(
        cli, models_dir, forged):
    """14 and 15 swapped is unsolvable, but not because the inversions alone are preserved:
    every move of the blank changes them.  The blank is on its goal cell, so the claim's
    values at both ends stay right and only the moves refute it."""
    forged(lambda real, board: None if real is None else forged.replace(
        real, colours=(0,) * len(real.colours)))
    run = cli("solve", models_dir / "fifteen_unsolvable.toml", "--json")
    assert run.code == 3 and "changes the parity" in run.err


def test_an_engine_that_cannot_start_still_gives_the_proof_that_needs_none():
    """French 37 has no solution by a parity invariant every planning engine tries first:
    an engine told it cannot start in the time left (``late``) answers with it all the
    same, checked; a model the invariant does not settle stays unknown."""
    from cpsolve.answers.result import Status
    from cpsolve.engines import run
    from cpsolve.puzzles.files import load, resolve

    french = load(resolve("french37")).model
    result = run("cpsat", "solve", french, late="time limit reached before cpsat started")
    assert (result.status, result.proof, result.verified) == \
        (Status.INFEASIBLE, "invariant", True)
    jugs = load(resolve("water_jugs")).model
    stopped = run("cpsat", "solve", jugs, late="time limit reached before cpsat started")
    assert stopped.status is Status.UNKNOWN and "before cpsat started" in stopped.message


WALK = """
family = "transition"
name = "walk on a line"
goal = "{goal}"
[variables]
x = [0, 6]
[initial]
x = 0
[[actions]]
name = "right"
guard = "x < 6"
effects = {{ x = "x + 1" }}
[[actions]]
name = "left"
guard = "x > 0"
effects = {{ x = "x - 1" }}
"""


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
@pytest.mark.parametrize("command", [["solve"], ["count", "--optimal"]])
@pytest.mark.parametrize("goal, words", [
    ("x == 9", "the goal asks x == 9, but x takes only the values 0..6"),
    ("x == 3 and x == 4", "the goal asks both x == 3 and x == 4"),
])
def test_a_goal_no_state_in_the_domains_meets_is_proven_without_search(
        cli, tmp_path, engine, command, goal, words):
    # x walks 0..6 (7 states reachable), but the goal asks for 9, or for two values at
    # once: no state is one, and no search is needed to know it; before the fix search
    # said "exhausted search", "all 1 reachable state explored" (explored 1), and CP-SAT
    # exhausted the 7 states
    path = tmp_path / "walk.toml"
    path.write_text(WALK.format(goal=goal), encoding="utf-8")
    run = cli(*command, path, "--engine", engine, "--json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["proof"] == "invariant" and data["explored"] == 0
    assert words in data["message"] and "explored" not in data["message"]
    assert data["status"] == ("infeasible" if command == ["solve"] else "exact")


COUNTERS = """
family = "transition"
name = "four counters"
goal = "{goal}"
[variables]
v = {{ size = 4, domain = [0, 100] }}
[initial]
v = [0, 0, 0, 0]
[[actions]]
name = "inc {{i}}"
params = {{ i = "range(4)" }}
guard = "v[i] < 100"
effects = {{ "v[i]" = "v[i] + 1" }}
"""


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
@pytest.mark.parametrize("command", [["solve"], ["count", "--optimal"]])
@pytest.mark.parametrize("goal, words", [
    ("v[0] == 50 + 51", "the goal asks v[0] == 50 + 51, but v[0] takes only the values 0..100"),
    ("v[0] >= 101", "the goal asks v[0] >= 101, but v[0] takes only the values 0..100"),
    ("v[0] == 101 or v[1] == 101", "the goal asks v[0] == 101 or v[1] == 101, but it holds "
                                   "for no values within the domains (v[0] 0..100, v[1] 0..100)"),
    ("v[0] == 101 and v[1] == 101 and v[2] == 0 and v[3] == 0",
     "the goal asks v[0] == 101, but v[0] takes only the values 0..100"),
])
def test_a_goal_the_bounds_show_no_state_meets_is_proven_without_search(
        cli, tmp_path, engine, command, goal, words):
    # 101^4 states: each counter stops at 100, so 101 is out of reach however the goal
    # writes or compares it; before the fix only a literal v[0] == 101 was seen, and search
    # ran to its limit (2.5 M states), and the checker left the four-variable goal
    # unverified (101^4 combinations); now the conjunct v[0] == 101 alone is re-derived
    path = tmp_path / "counters.toml"
    path.write_text(COUNTERS.format(goal=goal), encoding="utf-8")
    run = cli(*command, path, "--engine", engine, "--json", "--time-limit", "20")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["proof"] == "invariant" and data["explored"] == 0, data["message"]
    assert words in data["message"] and data["verified"] is True
    assert data["status"] == ("infeasible" if command == ["solve"] else "exact")


@pytest.mark.parametrize("engine", ["search", "cpsat", "auto"])
def test_a_small_space_is_refused_by_the_domains_not_by_exhaustion(cli, tmp_path, engine):
    # x walks 0..6: x >= 7 never holds; before the fix each engine exhausted the 7 states
    path = tmp_path / "walk.toml"
    path.write_text(WALK.format(goal="x >= 7"), encoding="utf-8")
    data = json.loads(cli("solve", path, "--engine", engine, "--json").out)
    assert data["proof"] == "invariant" and data["explored"] == 0
    assert data["message"] == ("no plan: the goal asks x >= 7, but x takes only the values "
                               "0..6 (its domain)")
