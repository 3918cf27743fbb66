"""A picture of a run that ended without an answer says so in the picture.

``show q3.toml --svg`` (3 queens on a 3×3 board, none attacking another: impossible, as
the middle column's queen attacks every other cell from the centre, and from an edge row
leaves one cell free in each other column, both on the opposite row, attacking each other)
wrote the puzzle titled "the puzzle" with ``?`` in every box: a reader of the
picture could not tell there was no solution.  Every family's picture, SVG and page, now
carries the verdict in visible text, and an SVG its message in the puzzle's words.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from cpsolve.answers.result import Result
from cpsolve.cli import main
from cpsolve.engines import run
from cpsolve.output.draw.show import answer_page, answer_svg
from cpsolve.puzzles.files import bundled, load, resolve

SVG = "{http://www.w3.org/2000/svg}"

QUEENS3 = """family = "csp"
name = "3 queens"
all_different = ["q"]
constraints = ["all(abs(q[i] - q[j]) != j - i for i in range(3) for j in range(i + 1, 3))"]
[variables]
q = { size = 3, domain = [0, 2] }
"""

JUGS = """family = "transition"
name = "jugs 4 and 6, get 3"
goal = "jug[1] == 3"
[constants]
cap = [4, 6]
[variables]
jug = { size = 2, domain = [0, 6] }
[initial]
jug = 0
[[actions]]
name = "fill {i}"
params = { i = "range(2)" }
guard = "jug[i] < cap[i]"
effects = { "jug[i]" = "cap[i]" }
[[actions]]
name = "empty {i}"
params = { i = "range(2)" }
guard = "jug[i] > 0"
effects = { "jug[i]" = "0" }
[[actions]]
name = "pour {i} into {j}"
params = { i = "range(2)", j = "range(2)" }
where = "i != j"
guard = "jug[i] > 0 and jug[j] < cap[j]"
[actions.effects]
"jug[i]" = "jug[i] - min(jug[i], cap[j] - jug[j])"
"jug[j]" = "jug[j] + min(jug[i], cap[j] - jug[j])"
"""
"""Both jugs always hold even amounts (4 and 6 are even; filling, emptying and pouring keep
every level a difference of even numbers): 3 litres can never be measured."""


def said(svg: str) -> tuple[str, list[str]]:
    """The outer picture's title, and its visible verdict lines."""
    root = ET.fromstring(svg)
    lines = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "verdict"]
    return root.find(f"{SVG}title").text, lines


def test_an_infeasible_csp_says_so_in_its_svg(tmp_path, capsys):
    model, out = tmp_path / "q3.toml", tmp_path / "q3.svg"
    model.write_text(QUEENS3, encoding="utf-8")
    assert main(["show", str(model), "--svg", str(out)]) == 0
    assert "(infeasible (proven), by search)" in capsys.readouterr().out
    title, lines = said(out.read_text(encoding="utf-8").split("\n", 1)[1])
    assert title == "3 queens: infeasible (proven)"
    assert " ".join(lines).startswith("infeasible (proven): no solution")


def test_an_infeasible_plan_says_so_in_its_page_and_its_svg(tmp_path):
    model = tmp_path / "jugs.toml"
    model.write_text(JUGS, encoding="utf-8")
    puzzle = load(model)
    result = run("search", "solve", puzzle.model)
    assert result.none_exists
    title, lines = said(answer_svg(puzzle, result))
    assert title == "jugs 4 and 6, get 3: infeasible (proven)"
    assert " ".join(lines) == f"infeasible (proven): {puzzle.message_text(result)}"
    page = answer_page(puzzle, result)
    assert 'class="verdict">infeasible (proven)</text>' in page
    assert "<figcaption>the start (infeasible (proven))" in page


@pytest.mark.parametrize("engine", [[], ["--engine", "cpsat"]])
def test_a_plan_the_familys_parity_rules_out_is_said_as_proved_by_it(cli, tmp_path, engine):
    """The 15-puzzle with 14 and 15 swapped is one transposition from its goal with the
    blank at home: odd against even, no plan (DESIGN.md).  ``solve`` says it was proved by
    ``invariant`` (the family's parity), and no engine ran; ``show --plan`` said
    ``by search`` (or ``by cpsat``: the engine asked for, not what answered)."""
    page = tmp_path / "f.html"
    solved = cli("solve", "fifteen_unsolvable", "--json")
    assert (json.loads(solved.out)["engine"], json.loads(solved.out)["proof"]) == \
        ("invariant", "parity")
    shown = cli("show", "fifteen_unsolvable", "--plan", "--html", page, *engine)
    assert shown.code == 0, shown.err
    assert shown.out.strip() == f"wrote {page} (infeasible (proven), by invariant)"
    assert "by engine invariant" in page.read_text(encoding="utf-8")


def test_a_count_of_none_says_so_in_its_picture(tmp_path):
    model = tmp_path / "q3.toml"
    model.write_text(QUEENS3, encoding="utf-8")
    puzzle = load(model)
    result = run("search", "count", puzzle.model)
    assert result.count == 0
    assert said(answer_svg(puzzle, result)) == ("3 queens: exactly 0 solutions",
                                                ["exactly 0 solutions"])


@pytest.mark.parametrize("path", bundled(), ids=lambda p: p.stem)
def test_every_family_says_a_run_was_stopped(path):
    """A run stopped by a limit drew the puzzle (or the start) as if it were the answer."""
    puzzle = load(path)
    task = "count" if puzzle.model.kind == "csp" else "solve"
    stopped = Result.stopped(task, "search", "time limit 2 s reached")
    title, lines = said(answer_svg(puzzle, stopped))
    assert title == f"{puzzle.name}: unknown (stopped before a proof)"
    assert " ".join(lines) == "unknown (stopped before a proof): time limit 2 s reached"
    assert 'class="verdict">unknown (stopped before a proof)</text>' in \
        answer_page(puzzle, stopped)


@pytest.mark.parametrize("name", ["xsudoku5", "water_jugs"])
def test_an_answer_carries_no_verdict(name):
    puzzle = load(resolve(name))
    drawn = answer_svg(puzzle, run("search", "solve", puzzle.model))
    assert drawn.count("<svg") == 1 and "verdict" not in drawn
