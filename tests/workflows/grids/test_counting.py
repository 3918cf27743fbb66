"""Counting a grid up to symmetry: a grid with givens is refused, and the docs say so."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.model.symmetry.declared import SymmetryError
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import count_up_to

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("up_to", ["symmetry", "relabel"])
def test_a_grid_with_givens_is_refused_and_both_pages_say_so(up_to):
    puzzle = load(ROOT / "models" / "sudoku_inkala.toml")  # 9x9 sudoku with givens
    with pytest.raises(SymmetryError) as info:
        count_up_to(puzzle.model, None, up_to, "search")
    said = str(info.value)
    assert said.startswith("the givens break the symmetry")
    for page in ("docs/families/grid.md", "docs/how-to/count-up-to-symmetry.md"):
        text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
        assert said in text, page


def test_an_enumeration_stopped_says_stopped_once():
    """A count up to symmetry cut short by Ctrl-C: the engine's own words begin with
    ``stopped``, and the reason said ``enumeration stopped: stopped: interrupted``."""
    from cpsolve.answers.result import Result, Status
    from cpsolve.workflows.grids.counting import _unfinished

    stopped = Result(Status.UNKNOWN, "search", "count",
                     message="stopped: interrupted; at least 0 solutions")
    assert _unfinished(stopped, 0, 0, 0) == "enumeration stopped: interrupted; at least 0 solutions"
    other = Result(Status.UNKNOWN, "search", "count", message="interrupted")
    assert _unfinished(other, 0, 0, 0) == "enumeration stopped: interrupted"


class Late:
    """The door's clock (:func:`cpsolve.engines.run`): the engine starts at 0 s and every
    later look is a million seconds on — past any deadline of its check, so that the check
    cuts the list of solutions to none, whatever the machine's speed."""

    def __init__(self) -> None:
        self.looks = 0

    def perf_counter(self) -> float:
        self.looks += 1
        return 0.0 if self.looks == 1 else 1e6 + self.looks


@pytest.mark.parametrize("engine", ["cpsat", "search"])
@pytest.mark.parametrize(("limit", "status", "least"), [
    ("40", "at_least", 5),  # 40 of the 92 placements found: 40 / 8 symmetries, 5 classes
    (None, "at_least", 12),  # all 92 counted, none re-checked: ceil(92 / 8) = 12 classes
])
def test_classes_of_a_count_whose_list_the_checker_cut_are_bounded_by_its_solutions(
        cli, monkeypatch, engine, limit, status, least):
    """8 queens (92 placements, 8 symmetries of the board): the time limit left the checker
    no time to re-check any solution found (the door's clock is turned past it), so none was
    sorted into its class.  The count up to symmetry is not "0 classes": a class holds at
    most 8 placements, so n found hold at least ceil(n / 8) classes, and the message says
    that the bound comes from there.  Nothing asked for a list: no word of listing."""
    import json

    import cpsolve.engines as door

    monkeypatch.setattr(door, "time", Late())
    argv = ["count", ROOT / "models" / "queens8.toml", "--up-to", "symmetry", "--engine",
            engine, "--time-limit", "600", "--json", *(["-n", limit] if limit else [])]
    ran = cli(*argv)
    data = json.loads(ran.out)
    assert ran.code == 1, ran.err
    assert (data["status"], data["count"], data["listed"]) == (status, least, 0)
    assert f"at least {least} classes" in data["message"]
    assert "a class holds at most 8" in data["message"]
    assert "listed" not in data["message"]


@pytest.mark.parametrize("engine", ["cpsat", "search"])
def test_the_limit_of_a_count_up_to_symmetry_counts_what_the_engine_enumerates(cli, engine):
    """5x5 X-sudoku: 960 grids, 8 with the first row fixed to 1 2 3 4 5 (DESIGN.md), each
    standing for 5! = 120 renamings; 3 classes under the board's symmetries too
    (docs/grids.md).  ``-n N`` counts those 8, not classes nor the 960: 9 lets the
    enumeration end below the limit (exact, exit 0); 8 stops it at the limit, which cannot
    know there are no more (at least the 3 classes among them, exit 1); the message said
    "the limit of 8 solutions" beside "960 solutions", and now says which solutions."""
    import json

    def count(limit: int) -> tuple[int, dict]:
        ran = cli("count", "xsudoku5", "--up-to", "symmetry", "--engine", engine, "-n",
                  str(limit), "--json")
        return ran.code, json.loads(ran.out)

    code, data = count(9)
    assert (code, data["status"], data["count"], data["total"]) == (0, "exact", 3, 960)
    code, data = count(8)
    assert (code, data["status"], data["count"]) == (1, "at_least", 3)
    assert data["details"]["total_at_least"] == 960
    assert data["message"].endswith(
        "the solutions counted have cell[0][0] .. cell[0][4] fixed to 1 2 3 4 5, each "
        "standing for 5! = 120 renamed ones: 960 solutions found")
    code, data = count(1)
    assert (code, data["status"], data["count"]) == (1, "at_least", 1)
    assert "120 solutions found" in data["message"]

