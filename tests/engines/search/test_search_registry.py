"""The search registry: what each algorithm finds and needs, and everyone reading it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.answers.result import Unsupported
from cpsolve.cli import main
from cpsolve.cli.arguments import parser
from cpsolve.engines import Options, run
from cpsolve.engines.search import registry
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.registry import ALGORITHMS, ANALYSES, Finds, Need
from cpsolve.model import Planning

MODELS = Path(__file__).resolve().parents[3] / "models"


def no_predecessors() -> Planning:
    """x climbs to 5 by 1 or 2 in a domain of 2**17 values: too many to enumerate backwards."""
    m = Planning("big")
    x = m.add_variable("x", 0, (1 << 17) - 1)
    m.set_initial({"x": 0})
    m.set_goal(x == 5)
    m.add_action("add", x < 5, {x: x + 1})
    m.add_action("add 2", x < 4, {x: x + 2})
    return m


@pytest.mark.parametrize("table", [ALGORITHMS, ANALYSES], ids=["algorithms", "analyses"])
def test_entries_are_consistent(table):
    for name, entry in table.items():
        assert entry.name == name and callable(entry.function)
        assert entry.description and "\n" not in entry.description
        assert entry.fallback is None or entry.fallback in table


def test_a_fallback_needs_less_than_what_it_stands_in_for():
    for entry in ALGORITHMS.values():
        if entry.fallback:
            assert ALGORITHMS[entry.fallback].needs < entry.needs


def test_exactly_one_unconditional_default():
    # dijkstra finds the cheapest plan of any model: the default when nothing better applies
    always = [e.name for e in ALGORITHMS.values() if e.default_when == frozenset()]
    assert always == ["dijkstra"] and ALGORITHMS["dijkstra"].finds is Finds.CHEAPEST


def test_default_is_never_an_algorithm_that_needs_what_the_model_lacks():
    assert registry.default_algorithm(no_predecessors()) == "bidir"  # one goal, unit costs
    result = run("search", "solve", no_predecessors())
    assert result.details["algorithm"] == "bfs" and result.steps == 3  # 2 + 2 + 1


def test_named_algorithm_whose_needs_are_unmet_says_what_is_missing():
    task = compile_planning(no_predecessors())
    assert ALGORITHMS["bidir"].missing(task)[0].startswith(Need.PREDECESSORS.value)
    with pytest.raises(Unsupported, match=r"bidir needs predecessors .*; use bfs"):
        run("search", "solve", no_predecessors(), Options(algorithm="bidir"))


@pytest.mark.parametrize("model", ["water_jugs", "no_predecessors"])
def test_a_refusal_suggests_only_an_algorithm_the_model_meets_the_needs_of(model):
    """water_jugs' goal is not one state: packed_bidir and bidir are both refused, so
    packed_bidir must not send the user to bidir."""
    from cpsolve.puzzles.files import load

    planning = (no_predecessors() if model == "no_predecessors"
                else load(MODELS / f"{model}.toml").model)
    task = compile_planning(planning)
    refused = [e for e in ALGORITHMS.values() if e.refusal(task)]
    assert {"packed_bidir", "bidir"} <= {e.name for e in refused}
    for entry in refused:
        suggested = entry.refusal(task).rpartition("; use ")[2]
        assert suggested in ALGORITHMS and ALGORITHMS[suggested].refusal(task) is None
    assert ALGORITHMS["packed_bidir"].refusal(task).endswith("; use bfs")


def test_cli_choices_and_help_come_from_the_registry():
    solve = parser()._subparsers._group_actions[0].choices["solve"]
    action = next(a for a in solve._actions if a.dest == "algorithm")
    assert action.choices == [*ALGORITHMS, *registry.CSP_ALGORITHMS]
    for entry in ALGORITHMS.values():
        assert f"{entry.name} ({entry.finds.value})" in action.help


def test_cli_unmet_need_is_one_line_exit_2(capsys):
    code = main(["solve", str(MODELS / "water_jugs.toml"), "--engine", "search",
                 "--algorithm", "bidir"])
    assert code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "single goal state" in lines[0] and "use bfs" in lines[0]


@pytest.mark.parametrize("name, model, kind, other, applies", [
    ("circuit", "water_jugs", "csp", "planning", ALGORITHMS),
    ("bfs", "xsudoku5", "planning", "csp", registry.CSP_ALGORITHMS),
])
def test_an_algorithm_of_the_other_kind_is_named_for_its_kind(name, model, kind, other,
                                                              applies):
    """Through the engine's door too (the API, a batch row): not 'unknown', but for which
    kind of model it is, and the algorithms that apply to this one."""
    from cpsolve.puzzles.files import load

    planning = load(MODELS / f"{model}.toml").model
    with pytest.raises(Unsupported) as refused:
        run("search", "solve", planning, Options(algorithm=name))
    assert str(refused.value) == (f"search: {name!r} is an algorithm for {kind} models, and "
                                  f"this is a {other} model ({other} algorithms: "
                                  f"{', '.join(applies)})")


def test_an_unknown_algorithm_is_still_unknown():
    with pytest.raises(Unsupported, match="unknown algorithm 'nope' \\(known: "):
        run("search", "solve", no_predecessors(), Options(algorithm="nope"))
