"""A transition file's ``[draw]``: stacks (Hanoi), levels (jugs), a board (Lights Out)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cpsolve.engines import Options, run
from cpsolve.output.draw import picture
from cpsolve.puzzles.files import load, resolve

ROOT = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str, kind: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == kind]


def titles(group: ET.Element) -> list[str]:
    return [t.text or "" for t in group.iter(f"{SVG}title")]


def test_hanoi_is_drawn_as_discs_on_pegs():
    puzzle = load(resolve("hanoi4"))
    start = picture(puzzle).svg
    stacks = groups(start, "stack")
    assert [len(groups(ET.tostring(s, encoding="unicode"), "item")) for s in stacks] == [4, 0, 0]
    result = run("search", "solve", puzzle.model, Options(time_limit=30))
    end = picture(puzzle, result.answer.steps[-1].state).svg
    stacks = groups(end, "stack")
    assert [len(groups(ET.tostring(s, encoding="unicode"), "item")) for s in stacks] == [0, 0, 4]
    assert "peg[3] on C" in titles(stacks[2])  # the largest disc, moved once, to C


def four_pegs(tmp_path: Path) -> Path:
    """``models/hanoi4.toml`` with a fourth peg D: the peg domain grows to 0..3."""
    text = (ROOT / "models" / "hanoi4.toml").read_text(encoding="utf-8")
    text = text[:text.index("[expected]")]
    for old, new in (("domain = [0, 2]", "domain = [0, 3]"), ("range(3)", "range(4)"),
                     ('["A", "B", "C"]', '["A", "B", "C", "D"]')):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "hanoi4pegs.toml"
    path.write_text(text, encoding="utf-8")
    return path


def stack_names(svg: str) -> list[str]:
    return [[t.text for t in s.iter(f"{SVG}text")][-1] for s in groups(svg, "stack")]


def test_every_peg_of_the_domain_is_a_stack_in_every_state(tmp_path):
    puzzle = load(four_pegs(tmp_path))
    start = picture(puzzle).svg
    assert stack_names(start) == ["A", "B", "C", "D"]  # D is empty at the start
    result = run("search", "solve", puzzle.model, Options(time_limit=30))
    for step in result.answer.steps:
        assert stack_names(picture(puzzle, step.state).svg) == ["A", "B", "C", "D"]


def test_water_jugs_are_drawn_filled_to_their_levels():
    puzzle = load(resolve("water_jugs"))
    state = (8, 2)  # reached after four moves (fill 5, pour, fill 5, pour)
    svg = picture(puzzle, state).svg
    vessels = groups(svg, "vessel")
    assert [titles(v)[0] for v in vessels] == ["jug[0] = 8 of 8", "jug[1] = 2 of 5"]
    heights = [[float(r.get("height")) for r in v.iter(f"{SVG}rect")] for v in vessels]
    (water0, full0), (water1, full1) = heights
    assert water0 == full0 and full0 / full1 == pytest.approx(8 / 5)
    assert water1 / full1 == pytest.approx(2 / 5)


def test_lights_out_is_drawn_as_its_board():
    puzzle = load(ROOT / "examples" / "lights_out.toml")
    svg = picture(puzzle).svg
    cells = groups(svg, "cell")
    assert len(cells) == 9
    ys = sorted({float(c.find(f"{SVG}rect").get("y")) for c in cells})
    assert len(ys) == 3  # three rows of three


@pytest.mark.parametrize("draw, key", [
    ('[draw]\nboard = "jug"\nlevels = "jug"\n', "draw"),
    ('[draw]\nstacks = "cup"\n', "draw.stacks"),
    ('[draw]\nboard = "jug"\nrows = 3\n', "draw.rows"),
    ('[draw]\nlevels = "jug"\ncapacity = [8]\n', "draw.capacity"),
    ('[draw]\nlevels = "jug"\ncolour = "red"\n', "draw"),
])
def test_a_bad_draw_table_is_one_line_naming_its_key(cli, tmp_path, draw, key):
    text = (ROOT / "models" / "water_jugs.toml").read_text(encoding="utf-8")
    start = text.index("# pictures: each jug")
    end = text.index("[[actions]]")
    path = tmp_path / "jugs.toml"
    path.write_text(text[:start] + draw + "\n" + text[end:], encoding="utf-8")
    done = cli("solve", path, "--engine", "search")
    assert done.code == 2 and done.err.count("\n") == 1 and f": {key}" in done.err, done.err
