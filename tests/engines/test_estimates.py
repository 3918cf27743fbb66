"""The declared estimate's audit (cpsolve.engines.estimates), through the one door.

The model: x counts from 0 to 10; "inc" adds 1 for cost 1, "big" jumps from 0 to 10 for
cost 5.  From x = 0 the cheapest plan is "big" (cost 5, against 10 for ten "inc"); from
x >= 1 only "inc" remains, so the cost to the goal is 10 - x there.  An admissible
estimate is therefore at most 5 at x = 0 and at most 10 - x elsewhere; 11 states are
reachable (x = 0 .. 10).
"""

from __future__ import annotations

import pytest

from cpsolve import Min, Planning
from cpsolve.answers.agreement import answer_of, status_words
from cpsolve.answers.result import Status
from cpsolve.engines import Options, estimates, run
from cpsolve.model import ModelError

ENGINES = ("cpsat", "search")


def shortcut(estimate=None, big: bool = True) -> Planning:
    p = Planning("shortcut")
    x = p.add_variable("x", 0, 10)
    p.set_initial({"x": 0})
    p.set_goal(x == 10)
    p.add_action("inc", x < 10, {x: x + 1}, cost=1)
    if big:
        p.add_action("big", x <= 0, {x: 10}, cost=5)
    if estimate is not None:
        p.set_estimate(estimate(x))
    return p


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("factor, says", [(1, 10), (100, 1000)])
def test_an_estimate_over_the_true_cost_is_refused_by_both_engines(engine, factor, says):
    model = shortcut(lambda x: factor * (10 - x))  # 10 (or 1000) at x = 0, where 5 will do
    with pytest.raises(ModelError, match=f"at x=0 it says {says} but the goal is 5 away"):
        run(engine, "solve", model)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_admissible_estimate_gives_the_optimum_without_one(engine):
    plain = run(engine, "solve", shortcut())
    guided = run(engine, "solve", shortcut(lambda x: Min(5, 10 - x)))  # exact everywhere
    assert plain.status is guided.status is Status.OPTIMAL
    assert plain.cost == guided.cost == 5
    assert "proof_rests_on" not in guided.details
    if guided.details.get("proof_uses_estimate"):
        assert guided.details["estimate_audited"] == 11
    assert status_words(guided) == "optimal (proven)"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_negative_estimate_is_refused(engine):
    with pytest.raises(ModelError, match="at x=0 it says -10; an estimate is never negative"):
        run(engine, "solve", shortcut(lambda x: x - 10))


@pytest.mark.parametrize("engine", ENGINES)
def test_an_estimate_not_0_at_the_goal_is_refused(engine):
    with pytest.raises(ModelError, match="at x=10 it says 1 but it is a goal"):
        run(engine, "solve", shortcut(lambda x: 1))  # 1 <= the cost elsewhere


@pytest.mark.parametrize("engine", ENGINES)
def test_a_proof_on_an_estimate_too_large_to_audit_says_so(engine, monkeypatch):
    monkeypatch.setattr(estimates, "STATES", 5)  # 11 states: now too many to audit
    result = run(engine, "solve", shortcut(lambda x: Min(5, 10 - x)))
    assert result.status is Status.OPTIMAL and result.cost == 5
    if result.details.get("proof_uses_estimate"):
        assert result.details["proof_rests_on"] == "the model's estimate"
        assert status_words(result) == "optimal (proven, given the model's estimate)"
        assert "rests on the model's estimate" in result.message


def test_both_engines_rest_their_proof_on_the_estimate_here(monkeypatch):
    monkeypatch.setattr(estimates, "STATES", 5)
    for engine, algorithm in (("cpsat", None), ("search", "astar")):
        model = shortcut(lambda x: Min(5, 10 - x))
        result = run(engine, "solve", model, Options(algorithm=algorithm))
        assert result.details["proof_rests_on"] == "the model's estimate", engine


def test_cpsat_infeasible_on_an_unaudited_estimate_says_what_it_rests_on(monkeypatch):
    # a plan exists (cost 5), but an estimate of 1000 at the start rules out every plan the
    # horizons allow: the proof is only as good as the estimate, and says so
    monkeypatch.setattr(estimates, "STATES", 5)
    result = run("cpsat", "solve", shortcut(lambda x: 100 * (10 - x)))
    assert result.status is Status.INFEASIBLE
    assert answer_of(result) == "infeasible (proven, given the model's estimate)"


def test_a_proof_that_did_not_use_the_estimate_is_not_qualified(monkeypatch):
    # unit costs, few states: CP-SAT's transition graph proves the optimum by itself
    monkeypatch.setattr(estimates, "STATES", 5)
    result = run("cpsat", "solve", shortcut(lambda x: 10 - x, big=False))
    assert result.status is Status.OPTIMAL and result.cost == 10
    assert result.details["encoding"] == "transition graph"
    assert "proof_rests_on" not in result.details
    assert status_words(result) == "optimal (proven)"


def test_the_race_refuses_what_its_racers_refuse():
    # each racer's door audits the estimate; the race raises the refusal again (exit 2 on
    # the command line), not an "unknown" made of two error notes
    from cpsolve.engines.auto import race

    with pytest.raises(ModelError, match="at x=0 it says 10 but the goal is 5 away"):
        race("solve", shortcut(lambda x: 10 - x), Options(), budget=60)


def test_a_familys_estimate_vouched_for_is_neither_audited_nor_qualified():
    """The 15-puzzle's Manhattan distance is admissible by construction: no audit runs
    (it would spend its 0.25 s enumerating a space far past 100,000 states on every
    solve), and the proof is said as proven, not 'given the model's estimate'."""
    from cpsolve.puzzles.files import load, resolve

    model = load(resolve("fifteen_easy")).model
    assert model.estimate is not None and model.estimate_vouched
    result = run("search", "solve", model)
    assert result.status is Status.OPTIMAL
    assert "proof_rests_on" not in result.details and "estimate_audited" not in result.details


def test_a_lower_bound_of_a_stopped_run_says_it_may_rest_on_an_unaudited_estimate():
    """A run stopped before its proof reports 'no plan has fewer than N steps'; A* and CP-SAT's
    first horizon draw N from the estimate, so where the audit could not run the bound
    says it may rest on it (an inadmissible estimate gave a false 126); where it ran, the
    bound stands as it is."""
    from cpsolve.answers.result import Result

    stopped = Result(Status.UNKNOWN, "cpsat", "solve", bound=126,
                     message="time limit 5 s reached; no plan has fewer than 126 steps")
    said = estimates.qualified(stopped, None)
    assert said.details["proof_rests_on"] == "the model's estimate"
    assert "its lower bound may rest on the model's estimate" in said.message
    assert estimates.qualified(stopped, 11) is stopped


def test_a_state_a_free_move_from_the_goal_is_not_called_a_goal():
    """x = 1 is 0 away (a move of cost 0), not a goal: the refusal says how far the goal
    is, as for any state (it said 'it is a goal')."""
    from cpsolve import If

    model = Planning("free slide")
    x = model.add_variable("x", 0, 2)
    model.set_initial({"x": 0})
    model.set_goal(x == 2)
    model.add_action("slide", x < 2, {x: x + 1}, cost=If(x == 1, 0, 1))
    model.set_estimate(If(x == 1, 1, 0))
    with pytest.raises(ModelError, match="at x=1 it says 1 but the goal is 0 away"):
        run("search", "solve", model)
