"""Options that choose what one engine alone has: refused by any other engine, through the
Python API as on the command line (``--engine cpsat --algorithm astar``, exit 2)."""

from __future__ import annotations

import pytest

from cpsolve import Csp, Planning
from cpsolve.answers.result import Unsupported
from cpsolve.engines import Options, run
from cpsolve.engines.option_choices import KINDS, OWNERS, for_kind, lacking, usable, wrong_kind


def small_csp() -> Csp:
    """x, y in 0..1 with x < y: one solution, x = 0, y = 1."""
    csp = Csp("two")
    x, y = csp.add_variable("x", 0, 1), csp.add_variable("y", 0, 1)
    csp.require(x < y)
    return csp


@pytest.mark.parametrize(("engine", "fields", "field"), [
    ("cpsat", {"algorithm": "astar"}, "algorithm"),  # the tester's run("cpsat", ...)
    ("cpsat", {"algorithm": "backtracking"}, "algorithm"),
    ("search", {"solver": "gecode"}, "solver"),
    ("pyconstraint", {"satisficing": True}, "satisficing"),
    ("cpsat", {"satisficing": True}, "satisficing"),
    # CP-SAT's own: search ran as if they had not been given (--no-hint, --time-indexed)
    ("search", {"find_hint": False}, "find_hint"),
    ("pyconstraint", {"find_hint": False}, "find_hint"),
])
def test_an_option_for_another_engine_is_refused_naming_it(engine, fields, field):
    """The engine would ignore it and answer as if it had not been given: refused before it
    runs, naming the field and the engine it is for."""
    with pytest.raises(Unsupported, match=rf"^engine '{engine}': Options\.{field}=.* chooses "
                       rf".*, which only engine '{OWNERS[field][0]}' has"):
        run(engine, "solve", small_csp(), Options(time_limit=30, **fields))


def test_an_option_an_engine_does_not_need_is_still_taken():
    """``keep`` (count's) and ``direction`` (analyze's) choose nothing the solve lacks."""
    result = run("cpsat", "solve", small_csp(),
                 Options(time_limit=30, keep=True, direction="goal"))
    assert result.verified and result.answer.values == {"x": 0, "y": 1}


def test_an_option_goes_to_the_engine_that_has_it():
    result = run("search", "solve", small_csp(), Options(time_limit=30, algorithm="backtracking"))
    assert result.verified and result.answer.values == {"x": 0, "y": 1}


def test_usable_leaves_out_only_what_the_engine_lacks():
    """What ``auto`` in turn gives each engine: search keeps its algorithm, CP-SAT runs
    without it (a batch's ``--algorithm`` is search's), the other options untouched."""
    asked = Options(time_limit=7, algorithm="bfs", keep=True, solver="gecode")
    assert lacking("search", usable("search", asked)) is None
    assert usable("search", asked).algorithm == "bfs"
    for_cpsat = usable("cpsat", asked)
    assert (for_cpsat.algorithm, for_cpsat.solver, for_cpsat.satisficing) == (None, None, False)
    assert (for_cpsat.time_limit, for_cpsat.keep) == (7, True)
    assert lacking("cpsat", for_cpsat) is None
    assert usable("minizinc", asked).solver == "gecode"


def small_planning() -> Planning:
    """One counter from 0 to 1 by one action ``up``: the plan is ``up``."""
    plan = Planning("one step")
    n = plan.add_variable("n", 0, 1)
    plan.set_initial({"n": 0})
    plan.set_goal(n == 1)
    plan.add_action("up", n == 0, {n: n + 1})
    return plan


@pytest.mark.parametrize(("engine", "model", "fields", "field"), [
    ("cpsat", small_csp, {"encoding": "time-indexed"}, "encoding"),  # --time-indexed
    ("cpsat", small_csp, {"hint": ["up"]}, "hint"),
    ("search", small_planning, {"unique": True}, "unique"),         # --unique
    ("cpsat", small_planning, {"unique": True}, "unique"),
])
def test_an_option_for_the_other_kind_of_model_is_refused_naming_it(engine, model, fields,
                                                                     field):
    """The engine would ignore it, as the command line refuses ``--unique`` on a planning
    model: refused before it runs, naming the field and the kind it applies to."""
    built = model()
    kind = KINDS[field][0]
    with pytest.raises(Unsupported, match=rf"^engine '{engine}': Options\.{field}=.* applies "
                       rf"to {kind} models; this is a {built.kind} model"):
        run(engine, "solve", built, Options(time_limit=30, **fields))


def test_an_option_for_the_kind_of_model_is_taken():
    solved = run("cpsat", "solve", small_csp(), Options(time_limit=30, unique=True))
    assert solved.verified and solved.answer.values == {"x": 0, "y": 1}
    planned = run("cpsat", "solve", small_planning(),
                  Options(time_limit=30, encoding="time-indexed", find_hint=False))
    assert planned.verified and [s.action for s in planned.answer.steps] == ["up"]


def test_for_kind_leaves_out_only_what_applies_to_the_other_kind():
    """What a batch of models of both kinds hands each model: ``--unique`` to its csp
    models, ``--time-indexed`` to its planning ones; ``--no-hint`` (``find_hint``, which
    CP-SAT also reads for a csp's circuit) and the rest to both."""
    asked = Options(time_limit=7, unique=True, encoding="time-indexed", find_hint=False)
    for_csp, for_planning = for_kind("csp", asked), for_kind("planning", asked)
    assert (for_csp.unique, for_csp.encoding) == (True, None)
    assert (for_planning.unique, for_planning.encoding) == (False, "time-indexed")
    assert for_csp.time_limit == for_planning.time_limit == 7
    assert for_csp.find_hint is for_planning.find_hint is False
    assert wrong_kind("csp", for_csp) is None and wrong_kind("planning", for_planning) is None
    assert wrong_kind("csp", asked) is not None and wrong_kind("planning", asked) is not None


@pytest.mark.parametrize(("algorithm", "kind", "other"), [
    ("bfs", "planning", "csp"), ("backtracking", "csp", "planning")])
def test_for_kind_leaves_out_an_algorithm_of_the_other_kind(algorithm, kind, other):
    """A batch's ``--algorithm`` goes to the models of its kind only, whatever the engine:
    the others run as without it (search would refuse it: ``bfs`` is no csp algorithm)."""
    asked = Options(time_limit=7, algorithm=algorithm)
    assert for_kind(kind, asked).algorithm == algorithm
    assert for_kind(other, asked).algorithm is None
    assert for_kind(other, Options(algorithm="numpy")).algorithm == "numpy"  # an analysis's
    solved = run("search", "solve", small_csp() if other == "csp" else small_planning(),
                 for_kind(other, asked))
    assert solved.verified


def test_the_command_line_refuses_by_the_same_table():
    """Every engine option of one kind of model is a command-line option of that kind."""
    from cpsolve.cli.option_rules import KIND_OPTIONS

    shared = {(option, kind) for kind, option in KINDS.values() if option}
    assert shared <= set(KIND_OPTIONS.values())


@pytest.mark.parametrize("fields", [{"encoding": "time-indexed"}, {"hint": ("up",)}])
def test_cp_sat_s_planning_options_are_refused_by_search(fields):
    """A time-indexed model and a hint to start from are CP-SAT's: search would answer as
    if they had not been given; CP-SAT takes them."""
    field = next(iter(fields))
    with pytest.raises(Unsupported, match=rf"Options\.{field}=.*only engine 'cpsat' has"):
        run("search", "solve", small_planning(), Options(time_limit=30, **fields))
    assert run("cpsat", "solve", small_planning(), Options(time_limit=30, **fields)).steps == 1
