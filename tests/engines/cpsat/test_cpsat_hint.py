"""CP-SAT with a plan offered as a hint (``Options.hint``): a bound, never a verdict.

A hint may be optimal, longer than the optimum, cheaper than the shortest plan
(costs), or no plan at all; whatever it is, the answer is the optimum.  Known
optima come from reasoning (Hanoi: ``2^n - 1``) or from a breadth-first search
written here with the reference interpreter :func:`cpsolve.language.interpret.evaluate`,
which the engine never uses; hints are built here the same way.  Every call
goes through :func:`cpsolve.engines.run`, so every plan is also replayed by
the independent checker.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpsolve import Planning, Status
from cpsolve.engines import Options, run
from cpsolve.engines.cpsat import descent
from cpsolve.language.interpret import evaluate
from cpsolve.puzzles import sliding
from cpsolve.puzzles.data import Data

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))
from hanoi import build as hanoi  # noqa: E402


def cpsat(model: Planning, hint: tuple[str, ...] | None, **options: object):
    return run("cpsat", "solve", model, Options(hint=hint, **options))


@pytest.fixture
def descend_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Descents from the start, however few horizons are left: the path under test (with
    a slice that a loaded machine does not spend growing the first timeline)."""
    monkeypatch.setattr(descent, "SLICE", 600.0)
    monkeypatch.setattr(descent, "FIRST_AFTER", 0.0)
    monkeypatch.setattr(descent, "FIRST_HORIZONS", 0)
    monkeypatch.setattr(descent, "FEW", -1)


# ---------------------------------------------------------------- hints built here


def recursive_hanoi(discs: int, source: int = 0, target: int = 2, spare: int = 1) -> list[str]:
    """The textbook recursion: ``2^discs - 1`` moves, in examples/hanoi.py's action names."""
    if discs == 0:
        return []
    return (recursive_hanoi(discs - 1, source, spare, target)
            + [f"disc {discs - 1} to peg {target}"]
            + recursive_hanoi(discs - 1, spare, target, source))


def step(p: Planning, state: tuple[int, ...], name: str) -> tuple[int, ...] | None:
    """The state after action ``name`` (reference interpreter), or None if it does not apply."""
    names = list(p.domains)
    env = dict(zip(names, state))
    action = next(a for a in p.actions if a.name == name)
    if not evaluate(action.guard, env):
        return None
    env.update({v: evaluate(e, env) for v, e in action.effects})
    return tuple(env[n] for n in names)


def path_to_goal(p: Planning, start: tuple[int, ...]) -> list[str] | None:
    """Action names of a shortest path from ``start`` to the goal (breadth-first search)."""
    names = list(p.domains)
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], str] | None] = {start: None}
    layer = [start]
    while layer:
        for state in layer:
            if evaluate(p.goal, dict(zip(names, state))):
                out = []
                while parent[state] is not None:
                    state, name = parent[state]  # type: ignore[misc]
                    out.append(name)
                return out[::-1]
        nxt = []
        for state in layer:
            for a in p.actions:
                new = step(p, state, a.name)
                if new is not None and new not in parent:
                    parent[new] = (state, a.name)
                    nxt.append(new)
        layer = nxt
    return None


def detour_then_home(p: Planning, picks: list[int]) -> list[str]:
    """Some applicable moves first (``picks`` chooses among them), then a shortest way home."""
    state, names = p.state(p.initial), []
    for pick in picks:
        movable = [a.name for a in p.actions if step(p, state, a.name) is not None]
        name = movable[pick % len(movable)]
        names.append(name)
        state = step(p, state, name)  # type: ignore[assignment]
    home = path_to_goal(p, state)
    assert home is not None
    return names + home


# ---------------------------------------------------------------- Tower of Hanoi


@pytest.mark.parametrize("discs", [3, 4, 5])
def test_an_optimal_hint_is_proven_optimal(discs: int) -> None:
    hint = tuple(recursive_hanoi(discs))
    result = cpsat(hanoi(discs), hint)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.steps == 2 ** discs - 1 == len(hint)
    assert result.hint.verdict == "used" and result.details["hint_steps"] == len(hint)


def test_hanoi_proof_by_descent(descend_at_once: None) -> None:
    """From above: one solve shows that no plan of 1 to 30 moves moves 5 discs."""
    result = cpsat(hanoi(5), tuple(recursive_hanoi(5)))
    assert result.status is Status.OPTIMAL and result.steps == 31
    assert "none of 1 to 30 steps exists, by one solve over every length" in result.message
    assert result.details["descents"] == 1


@pytest.mark.parametrize("detour", [[0, 0], [1, 3, 2, 0], [2, 2, 2, 1, 1, 0]])
@pytest.mark.parametrize("down", [False, True], ids=["interleaved", "descent"])
def test_a_hint_longer_than_the_optimum_still_gives_the_optimum(
        detour: list[int], down: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if down:
        monkeypatch.setattr(descent, "FIRST_AFTER", 0.0)
        monkeypatch.setattr(descent, "FIRST_HORIZONS", 0)
        monkeypatch.setattr(descent, "FEW", -1)
    model = hanoi(4)
    hint = tuple(detour_then_home(model, detour))
    assert len(hint) > 15  # a detour from the start of Hanoi never lies on the optimal path
    result = cpsat(model, hint)
    assert result.status is Status.OPTIMAL and result.steps == 15 and result.verified


def test_a_hint_too_long_for_a_descent_only_bounds_the_horizons(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(descent, "FIRST_AFTER", 0.0)
    monkeypatch.setattr(descent, "SIZE", 10)  # far below 9 steps x 9 actions
    model = hanoi(3)
    hint = tuple(detour_then_home(model, [0, 1, 2]))
    result = cpsat(model, hint)
    assert result.status is Status.OPTIMAL and result.steps == 7
    assert "descents" not in result.details and result.hint.verdict == "used"


@pytest.mark.parametrize("hint, problem", [
    (("disc 0 to peg 2", "fly away"), "step 2: no action is called 'fly away'"),
    (("disc 1 to peg 2",), "step 1: 'disc 1 to peg 2' does not apply"),
    (tuple(recursive_hanoi(3)[:-1]), "the goal does not hold at its end"),
    ((), "the goal does not hold at its end"),
])
def test_a_bad_hint_is_rejected_and_changes_nothing(hint: tuple[str, ...], problem: str) -> None:
    result = cpsat(hanoi(3), hint)
    assert result.status is Status.OPTIMAL and result.steps == 7 and result.verified
    assert (result.hint.source, result.hint.verdict) == ("given", "rejected")
    assert result.hint.note == f"refused by the replay: {problem}" and not result.hint.used


def test_a_hint_through_a_forbidden_state_is_rejected() -> None:
    """Missionaries and cannibals (3 + 3, a boat for 2): without the forbidden states 9
    crossings do (tests/puzzles/test_language.py), and such a plan leaves missionaries outnumbered
    on the way; the replay refuses it, and the answer is the classic 11 crossings."""
    from cpsolve.puzzles.files import MODELS_DIR, load

    free = load(MODELS_DIR / "missionaries.toml").model
    free.forbidden.clear()
    hint = run("search", "solve", free, Options()).plan
    assert hint is not None and len(hint) == 9
    model = load(MODELS_DIR / "missionaries.toml").model
    result = cpsat(model, tuple(s.action for s in hint))
    assert result.status is Status.OPTIMAL and result.steps == 11 and result.verified
    assert result.hint.verdict == "rejected" and "forbidden state" in result.hint.note


def test_a_long_hint_and_no_time_never_claim_a_wrong_optimum() -> None:
    """Out of time, the hint comes back as a plan, not as an optimum."""
    model = hanoi(5)
    hint = tuple(detour_then_home(model, [1, 1, 0, 2]))
    assert len(hint) > 31
    for limit in (1e-6, 0.05, 0.3):  # no time to speak of (0 is refused), little, some
        result = cpsat(model, hint, time_limit=limit)
        assert result.plan is not None and result.verified
        if result.status is Status.OPTIMAL:
            assert result.steps == 31
        else:
            assert result.status is Status.SOLVED and result.bound <= 31


def test_a_count_stopped_before_the_least_cost_speaks_of_no_plan_it_does_not_show() -> None:
    """A count of optimal plans needs the least cost first: out of time before CP-SAT
    proved it, with the hint's plan known (Hanoi 5 by a detour, longer than 31), the count
    has no answer and shows no plan — its message says what it knew (that plan, by its
    length), never "this one" as a solve says beside the plan it shows."""
    model = hanoi(5)
    hint = tuple(detour_then_home(model, [1, 1, 0, 2]))
    counted = run("cpsat", "count", model, Options(hint=hint, time_limit=1e-6))
    assert counted.status is Status.UNKNOWN and counted.answer is None
    assert counted.message.startswith("the least cost was not proven: ")
    assert "this one" not in counted.message
    assert f"a plan of {len(hint)} steps is known, not proven optimal" in counted.message


# ---------------------------------------------------------------- with costs


def stairs() -> Planning:
    """x from 0 to 4: a step (+1) costs 1, a jump (+2) costs 5; cheapest: four steps, 4."""
    p = Planning("stairs")
    x = p.add_variable("x", 0, 4)
    p.set_initial({"x": 0})
    p.set_goal(x == 4)
    p.add_action("step", x <= 3, {x: x + 1}, 1)
    p.add_action("jump", x <= 2, {x: x + 2}, 5)
    return p


@pytest.mark.parametrize("hint", [
    ("step", "step", "step", "step"),          # the optimum, longer than the shortest plan
    ("jump", "step", "step"),                  # cost 7
    ("jump", "jump"),                          # the shortest, cost 10
    ("jump", "jump", "jump"),                  # no plan
])
def test_costs_the_hint_is_only_an_incumbent(hint: tuple[str, ...]) -> None:
    result = cpsat(stairs(), hint)
    assert result.status is Status.OPTIMAL and result.cost == 4 and result.steps == 4


# ---------------------------------------------------------------- sliding puzzles


def two_by_three(tiles: list[int]) -> Planning:
    """A 2x3 sliding puzzle from a permutation of 0..5 (0 is the blank) to ``1 2 3 / 4 5 _``."""
    start = " ".join("_" if t == 0 else str(t) for t in tiles)
    data = Data({"family": "sliding", "start": f"{start[:5]}\n{start[6:]}",
                 "goal": "1 2 3\n4 5 _"}, "<2x3>")
    return sliding.build(data).model


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(range(6)), st.lists(st.integers(0, 3), max_size=8), st.booleans())
def test_random_two_by_three_puzzles_with_hints_match_bfs(
        tiles: list[int], picks: list[int], down: bool) -> None:
    """Manhattan estimate, parity, any valid hint: the optimum is BFS's, from below or above."""
    model = two_by_three(list(tiles))
    shortest = path_to_goal(model, model.state(model.initial))
    assume(shortest is not None)  # half of the positions cannot be solved
    hint = tuple(detour_then_home(model, picks))
    saved = descent.FIRST_AFTER, descent.FIRST_HORIZONS, descent.FEW
    if down:
        descent.FIRST_AFTER, descent.FIRST_HORIZONS, descent.FEW = 0.0, 0, -1
    try:
        result = cpsat(model, hint)
    finally:
        descent.FIRST_AFTER, descent.FIRST_HORIZONS, descent.FEW = saved
    assert result.status is Status.OPTIMAL and result.steps == len(shortest)
    if shortest:  # (at the goal already, the empty plan is the answer before any hint)
        assert result.hint.verdict == "used"



# ---------------------------------------------------------------- who hands out hints


def test_first_plan_is_a_plan() -> None:
    from cpsolve.engines.hints import look, prepare

    model = hanoi(4)
    hint = look(model)[0]
    assert hint is not None
    state = model.state(model.initial)
    for name in hint:
        state = step(model, state, name)
        assert state is not None
    assert evaluate(model.goal, dict(zip(model.domains, state)))
    options, found = prepare(model, Options(time_limit=10))
    assert options.hint == hint and found.steps == len(hint) and found.source == "search wastar"
    assert options.time_limit <= 10 - found.seconds + 0.05  # its time is taken off the limit


def test_auto_hands_cp_sat_a_hint() -> None:
    """The CP-SAT racer looks for weighted A*'s first plan as it does alone (here alone in
    the race), and the answer, sent back from its process, says so.  (A 15-puzzle with
    more reachable states than the transition graph takes: the time-indexed model, which
    takes a hint; 20 moves, as the model file records.)"""
    from cpsolve.engines.auto import race
    from cpsolve.puzzles.files import load

    model = load(Path(__file__).parents[3] / "models" / "fifteen_easy.toml").model
    outcome = race("solve", model, Options(), budget=60, engines=("cpsat",))
    result = outcome.result
    assert result.status is Status.OPTIMAL and result.steps == 20
    assert result.hint is not None and result.hint.verdict == "used" and result.hint.used
    assert result.hint.source == "search wastar"


# ---------------------------------------------------------------- the engine looks for one itself

UP_AND_DOWN = """
family = "transition"
name = "Up and down"
description = "v[1] rises only while below v[0], which falls only while above v[1]."
goal = "v[0] == 0 and v[1] == 3000"

[variables]
v = { size = 2, domain = [0, 3000] }

[initial]
v = 0

[[actions]]
name = "raise v0"
guard = "v[0] < 3000"
effects = { "v[0]" = "v[0] + 1" }

[[actions]]
name = "lower v0"
guard = "v[0] > v[1]"
effects = { "v[0]" = "v[0] - 1" }

[[actions]]
name = "raise v1"
guard = "v[1] < v[0]"
effects = { "v[1]" = "v[1] + 1" }
"""
"""No plan: v[1] <= v[0] always holds (neither raise v1 nor lower v0 can break it), so v[1]
never reaches 3000 while v[0] is 0.  No linear invariant nor potential says so, and about
4.5 million states are reachable: weighted A* spends its whole slice without a plan."""


def test_engine_cpsat_on_the_command_line_looks_for_a_hint(cli) -> None:
    """Hanoi 4: 2^4 - 1 = 15 moves, proven by CP-SAT from the hint of weighted A*."""
    done = cli("solve", "hanoi4", "--engine", "cpsat", "--json", "--time-indexed")
    out = json.loads(done.out)
    assert done.code == 0 and out["status"] == "optimal" and out["steps"] == 15
    assert out["verified"] is True
    hint = out["hint"]
    assert hint["from"] == "search wastar" and hint["used"] is True and hint["note"] == ""
    assert hint["verdict"] == "used"
    assert hint["steps"] >= 15 and 0 <= hint["seconds"] <= out["seconds"]
    text = cli("solve", "hanoi4", "--engine", "cpsat", "--time-indexed").out
    assert f"Hint: a plan of {hint['steps']} steps, found by search wastar" in text
    assert "taken as an upper bound only" in text


def test_no_hint_turns_it_off(cli) -> None:
    done = cli("solve", "hanoi4", "--engine", "cpsat", "--json", "--no-hint")
    out = json.loads(done.out)
    assert out["status"] == "optimal" and out["steps"] == 15 and out["verified"] is True
    assert out["hint"] is None and "hint" not in out["details"]
    assert "Hint:" not in cli("solve", "hanoi4", "--engine", "cpsat", "--no-hint").out


def test_compare_gives_cp_sat_its_hint_too(cli) -> None:
    out = json.loads(cli("compare", "hanoi4", "--json", "--time-indexed").out)
    results = {r["engine"]: r for r in out["models"][0]["results"]}
    assert results["cpsat"]["hint"]["used"] is True and results["cpsat"]["steps"] == 15
    assert results["search"]["hint"] is None
    out = json.loads(cli("compare", "hanoi4", "--json", "--no-hint", "--time-indexed").out)
    assert all(r["hint"] is None for r in out["models"][0]["results"])
    said = cli("compare", "hanoi4", "--time-indexed").out
    assert f"hint: {results['cpsat']['hint']['steps']} steps, used" in said
    assert "hint:" not in cli("compare", "hanoi4", "--no-hint", "--time-indexed").out


@pytest.mark.parametrize("discs", [4, 5])
def test_the_python_api_gets_the_same_hint(discs: int) -> None:
    result = run("cpsat", "solve", hanoi(discs), Options(encoding="time-indexed"))
    assert result.status is Status.OPTIMAL and result.steps == 2 ** discs - 1
    assert result.verified and result.hint is not None and result.hint.used
    assert result.hint.source == "search wastar" and result.hint.steps >= 2 ** discs - 1
    bare = run("cpsat", "solve", hanoi(discs), Options(find_hint=False, encoding="time-indexed"))
    assert bare.steps == 2 ** discs - 1 and bare.hint is None and "hint" not in bare.details


def up_and_down(top: int, down: bool = True, step: int = 1, end: int = 0) -> Planning:
    """UP_AND_DOWN in small (``(top + 1)^2`` states), with ``lower v0`` only when ``down``;
    ``step``: how far v[0] moves; ``end``: v[0] in the goal."""
    p = Planning("up and down")
    a, b = p.add_variable("a", 0, top), p.add_variable("b", 0, top)
    p.set_initial({"a": 0, "b": 0})
    p.set_goal((a == end) & (b == top))
    p.add_action("raise a", a <= top - step, {a: a + step})
    if down:
        p.add_action("lower a", a >= b + step, {a: a - step})
    p.add_action("raise b", b < a, {b: b + 1})
    return p


@pytest.mark.parametrize("model, proof", [
    (up_and_down(9), "exhausted search"),  # 55 states reachable, none a goal
    # 5,151 states reachable, more than the exhaustion's; by the potential (a + b rises by
    # 1 at each step), every plan has 200 steps: one horizon, which CP-SAT refutes
    (up_and_down(100, down=False), "cp-sat"),
    (up_and_down(30, step=2, end=1), "invariant"),  # a stays even
], ids=["exhaustion", "potential", "invariant"])
def test_no_hint_is_looked_for_when_a_proof_settles_the_model(model: Planning,
                                                               proof: str) -> None:
    result = run("cpsat", "solve", model, Options(encoding="time-indexed"))
    assert result.status is Status.INFEASIBLE and result.proof == proof
    assert result.hint is None


def test_no_hint_for_a_tiny_model() -> None:
    from cpsolve.engines.hints import TINY

    farmer = load_model("farmer")  # 2^4 = 16 states
    assert len(farmer.domains) == 4 and 2 ** 4 <= TINY
    result = run("cpsat", "solve", farmer, Options())
    assert result.steps == 7 and result.hint is None


def test_a_found_hint_that_the_replay_refuses_is_ignored_and_said_so(
        monkeypatch: pytest.MonkeyPatch, cli) -> None:
    """A wrong plan in place of weighted A*'s: CP-SAT replays it, refuses it, proves 15."""
    from cpsolve.answers.result import Hint
    from cpsolve.engines import hints

    wrong = ("disc 1 to peg 2",)  # disc 0 lies on disc 1 at the start
    monkeypatch.setattr(hints, "look", lambda model, limit=None: (
        wrong, Hint(hints.SOURCE, len(wrong), 0.001)))
    result = run("cpsat", "solve", hanoi(4), Options(encoding="time-indexed"))
    assert result.status is Status.OPTIMAL and result.steps == 15 and result.verified
    assert result.hint is not None and not result.hint.used
    assert result.hint.note == "refused by the replay: step 1: 'disc 1 to peg 2' does not apply"
    given = run("cpsat", "solve", hanoi(4), Options(hint=wrong))
    assert given.hint.source == "given" and not given.hint.used and given.steps == 15
    assert (result.hint.verdict, given.hint.verdict) == ("rejected", "rejected")
    out = json.loads(cli("solve", "hanoi4", "--engine", "cpsat", "--json", "--time-indexed").out)
    assert (out["hint"]["verdict"], out["hint"]["used"]) == ("rejected", False)
    assert out["hint"]["note"].startswith("refused by the replay: step 1: ")
    assert "hint" not in out["details"]  # the verdict is the hint's own field
    text = cli("solve", "hanoi4", "--engine", "cpsat", "--time-indexed").out
    assert "ignored: refused by the replay: step 1:" in " ".join(text.split())


def test_the_hint_verdict_is_a_typed_field() -> None:
    from cpsolve.answers.result import Hint

    found = Hint("search wastar", 17, 0.1)
    assert found.verdict == "offered" and not found.used
    assert found.accepted().verdict == "used" and found.accepted().used
    refused = found.rejected("step 3: 'x' does not apply")
    assert (refused.verdict, refused.note) == ("rejected",
                                               "refused by the replay: step 3: 'x' does not apply")
    none = Hint.missing("search wastar", 2.0, "no plan found (none within 2 s)")
    assert none.verdict == "none" and none.steps is None and not none.used
    with pytest.raises(ValueError):
        Hint("given", None, 0.0)  # a hint that was offered has steps
    with pytest.raises(ValueError):
        Hint("given", 3, 0.0, verdict="accepted")  # not a verdict


def test_a_time_limit_of_one_second_holds_with_the_hint_phase(tmp_path: Path) -> None:
    model = tmp_path / "up_and_down.toml"
    model.write_text(UP_AND_DOWN)
    done = subprocess.run([sys.executable, "-m", "cpsolve", "solve", str(model), "--engine",
                           "cpsat", "--time-limit", "1", "--json"], capture_output=True,
                          text=True, timeout=120)
    out = json.loads(done.stdout)
    assert done.returncode == 1
    if out["status"] == "error":  # a loaded machine spent the limit loading the model
        assert "was reached while" in out["error"] and out["exit"] == 1
        return
    assert out["status"] == "unknown"
    assert out["seconds"] <= 1 + 10  # the engine did not run on (its margin: benchmarks/)
    if out["hint"] is None:  # the limit counts from the process's start: on a loaded
        return  # machine the imports may take it all, and the hint is not looked for
    assert out["hint"]["steps"] is None and out["hint"]["note"].startswith("no plan found")
    # on the run's own clock: the hint's slice came out of the engine's time
    assert out["hint"]["seconds"] <= out["seconds"]


def test_ctrl_c_during_the_hint_phase_exits_130(tmp_path: Path, start_cli) -> None:
    """Without a limit the slice is 2 s: Ctrl-C once the run says it is looking for a first
    plan (its own word, not a sleep of so many seconds, which a loaded machine can spend on
    the start-up)."""
    model = tmp_path / "up_and_down.toml"
    model.write_text(UP_AND_DOWN)
    run = start_cli("solve", model, "--engine", "cpsat", "--json",
                    env={**os.environ, "FORCE_COLOR": "1"})  # progress lines on stderr
    run.after_text("looking for a first plan")
    code, out, err = run.stop(signal.SIGINT)
    assert code == 130, err
    result = json.loads(out)
    assert result["status"] == "unknown" and "interrupted" in result["message"]
    assert result["hint"]["note"] == "no plan found (interrupted)"
    assert "Traceback" not in err


def load_model(name: str) -> Planning:
    from cpsolve.puzzles.files import load

    return load(Path(__file__).resolve().parents[3] / "models" / f"{name}.toml").model
