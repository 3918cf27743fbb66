"""Agreement between engines: results that can both be right, and results that cannot."""

from __future__ import annotations

import pytest

from cpsolve.compare import answer_of, disagreements
from cpsolve.result import Result, Status, Step

OPT, SOL, INF, UNK = Status.OPTIMAL, Status.SOLVED, Status.INFEASIBLE, Status.UNKNOWN


def plan(n: int, cost: int = 1) -> tuple[Step, ...]:
    return tuple(Step(f"a{i}", (i,), cost) for i in range(n))


def planned(engine: str, status: Status, moves: int, **kw) -> Result:
    return Result(status, engine, plan=plan(moves), **kw)


def counted(engine: str, status: Status, count: int, **kw) -> Result:
    return Result(status, engine, task="count", count=count, **kw)


# ------------------------------------------------------------ agreement


@pytest.mark.parametrize("results", [
    [],
    [planned("cpsat", OPT, 10)],
    [planned("cpsat", OPT, 10), planned("search", OPT, 10)],
    [planned("cpsat", OPT, 10), planned("search", SOL, 12)],  # a longer plan, not optimal
    [planned("cpsat", SOL, 12), planned("search", SOL, 14)],  # no optimality claimed
    [Result(INF, "cpsat"), Result(INF, "search")],
    [counted("cpsat", OPT, 960), counted("search", OPT, 960), counted("pyconstraint", OPT, 960)],
    # at least 512: fine
    [counted("pyconstraint", OPT, 960), counted("cpsat", UNK, 512, bound=512)],
    [Result(SOL, "pyconstraint", solution={"x": 1}, unique=True),
     Result(OPT, "cpsat", solution={"x": 1}, unique=True)],
    [planned("cpsat", OPT, 10), Result(UNK, "search", bound=9)],  # proved >= 9: consistent
    [planned("cpsat", OPT, 10), Result(UNK, "search", bound=10)],
    [Result(INF, "cpsat"), Result(UNK, "search", bound=30)],
    [Result(OPT, "cpsat", task="analyze", states=540), Result(OPT, "search", task="analyze",
                                                              states=540)],
])
def test_agreeing_results(results):
    assert disagreements(results) == []


# ------------------------------------------------------------ disagreement


@pytest.mark.parametrize("a, b, fragment", [
    (planned("cpsat", OPT, 10), planned("search", OPT, 11), "both claim optimal, 10 and 11"),
    (planned("cpsat", OPT, 10), planned("search", SOL, 9),
     "a plan of 9 beats the claimed optimum 10"),
    (planned("cpsat", SOL, 9), planned("search", OPT, 10),
     "a plan of 9 beats the claimed optimum 10"),
    (Result(INF, "cpsat"), planned("search", OPT, 10), "no answer"),
    (planned("cpsat", SOL, 10), Result(INF, "search"), "no answer"),
    (Result(INF, "cpsat"), Result(SOL, "pyconstraint", solution={"x": 1}, unique=True),
     "no answer"),
    (counted("cpsat", OPT, 912), counted("pyconstraint", OPT, 960),
     "exact counts differ: 912 and 960"),
    (Result(SOL, "pyconstraint", solution={"x": 1}, unique=True),
     Result(SOL, "cpsat", solution={"x": 1}, unique=False, second={"x": 2}), "uniqueness"),
    (planned("cpsat", OPT, 10), Result(UNK, "search", bound=11), "below the proven bound 11"),
    (Result(UNK, "search", bound=11), planned("cpsat", SOL, 10), "below the proven bound 11"),
    (Result(OPT, "cpsat", task="analyze", states=540), Result(OPT, "search", task="analyze",
                                                              states=541), "540 and 541"),
])
def test_disagreeing_results(a, b, fragment):
    found = disagreements([a, b])
    assert len(found) == 1
    assert found[0].startswith(f"{a.engine} vs {b.engine}: ")
    assert fragment in found[0]


def test_costs_are_compared_not_lengths():
    """With costs (e.g. peg moves), a longer plan may be the cheaper one."""
    cheap = Result(OPT, "cpsat", plan=plan(11, cost=0), cost=7)
    same_cost = Result(OPT, "search", plan=plan(12, cost=0), cost=7)
    assert disagreements([cheap, same_cost]) == []
    dearer = Result(OPT, "search", plan=plan(9, cost=1), cost=9)
    assert "both claim optimal, 7 and 9" in disagreements([cheap, dearer])[0]


def test_every_pair_is_reported():
    results = [planned("cpsat", OPT, 10), planned("search", OPT, 11), planned("iddfs", OPT, 12)]
    found = disagreements(results)
    assert [f.split(":")[0] for f in found] == ["cpsat vs search", "cpsat vs iddfs",
                                                "search vs iddfs"]


def test_answer_of():
    assert answer_of(planned("x", OPT, 10)) == "10 moves"
    assert answer_of(Result(OPT, "x", plan=plan(11, 0), cost=7)) == "cost 7 (11 steps)"
    assert answer_of(counted("x", OPT, 960)) == "960 solutions"
    assert answer_of(Result(INF, "x")) == "infeasible (proven)"
    assert answer_of(Result(UNK, "x", bound=9)) == "unknown, bound 9"
    assert answer_of(Result(SOL, "x", solution={"x": 1}, unique=True)) == "unique solution"
    assert answer_of(Result(SOL, "x", solution={"x": 1}, unique=False)) == "several solutions"


# ------------------------------------------------------------ gaps found while writing these


@pytest.mark.parametrize("partial", [counted("pyconstraint", SOL, 1000, bound=1000),
                                     counted("pyconstraint", UNK, 1000, bound=1000)],
                         ids=["limit", "time"])
def test_lower_bound_on_a_count_above_an_exact_count(partial):
    assert disagreements([counted("cpsat", OPT, 960), partial])

