"""A grid's ``[picture]`` drawn in SVG: thick region borders, notes, signs pointing to the
smaller cell; every picture well-formed XML.  Counts are worked out by hand from the
small boards written here, or from the example files' own tables."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from cpsolve.cli import main
from cpsolve.output.draw import picture
from cpsolve.puzzles.files import load

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

GRID3 = """family = "grid"
size = 3
[picture]
regions = [[0, 0, 1], [2, 2, 1], [2, 2, 1]]
notes = [[0, 0, "3+"], [0, 2, "6×"], [1, 0, "<&>"]]
signs = [[1, 0, 1, 1, ">"], [0, 1, 1, 1]]
"""


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def drawn(path: Path, values: dict[str, int] | None = None) -> ET.Element:
    root = ET.fromstring(picture(load(path), values).svg)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def test_regions_notes_and_signs_are_drawn(write_model):
    root = drawn(write_model("g.toml", GRID3))
    # regions 0 | 1 on the top row, 0 over 2 twice, 2 | 1 on rows 2 and 3: 5 borders
    borders = with_class(root, "border")
    assert len(borders) == 5 and all(b.tag == f"{SVG}line" for b in borders)
    notes = with_class(root, "note")
    assert [n.text for n in notes] == ["3+", "6×", "<&>"]  # escaped, read back as written
    assert len(with_class(root, "sign")) == 2
    assert "thick lines bound regions" in root.find(f"{SVG}desc").text


def test_a_sign_points_to_the_smaller_cell(write_model):
    root = drawn(write_model("g.toml", GRID3))
    tips = []
    for sign in with_class(root, "sign"):
        corners = [tuple(map(float, p.split(","))) for p in sign.get("points").split()]
        (tx, ty), ends = corners[1], (corners[0], corners[2])
        # the tip is beyond both ends, towards the smaller cell
        tips.append("left" if all(tx < x for x, _ in ends) else
                    "right" if all(tx > x for x, _ in ends) else
                    "up" if all(ty < y for _, y in ends) else "down")
    # (1,0) > (1,1): the smaller is on the right; (0,1) < (1,1): the smaller is above
    assert tips == ["right", "up"]


def test_borders_lie_between_cells_of_different_regions(write_model):
    root = drawn(write_model("g.toml", GRID3))
    assert len(with_class(root, "cell")) == 9
    lines = {(float(b.get("x1")), float(b.get("y1")), float(b.get("x2")), float(b.get("y2")))
             for b in with_class(root, "border")}
    # every border is one cell side long and runs along a grid line
    sides = {abs(x2 - x1) + abs(y2 - y1) for x1, y1, x2, y2 in lines}
    assert len(sides) == 1 and all(x1 == x2 or y1 == y2 for x1, y1, x2, y2 in lines)


def test_the_kenken_example_shows_its_cages_and_targets_unsolved(tmp_path, capsys):
    path = EXAMPLES / "kenken6.toml"
    cage = tomllib.loads(path.read_text(encoding="utf-8"))["constants"]["cage"]
    # a border wherever two side-by-side cells lie in different cages, counted here
    want = sum(cage[r][c] != cage[r][c + 1] for r in range(6) for c in range(5)) + \
        sum(cage[r][c] != cage[r + 1][c] for r in range(5) for c in range(6))
    out = tmp_path / "k.svg"
    assert main(["show", str(path), "--unsolved", "--svg", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out} (the puzzle, unsolved)"
    root = ET.fromstring(out.read_text(encoding="utf-8").split("\n", 1)[1])
    assert len(with_class(root, "border")) == want
    assert len(with_class(root, "note")) == len(set(sum(cage, [])))  # one per cage
    assert not with_class(root, "filled")


def test_the_futoshiki_example_shows_a_sign_per_inequality(tmp_path):
    path = EXAMPLES / "futoshiki5.toml"
    less = tomllib.loads(path.read_text(encoding="utf-8"))["constants"]["less"]
    out = tmp_path / "f.svg"
    assert main(["show", str(path), "--svg", str(out)]) == 0  # solved, then drawn
    root = ET.fromstring(out.read_text(encoding="utf-8").split("\n", 1)[1])
    assert len(with_class(root, "sign")) == len(less)
    assert len(with_class(root, "filled")) == 25


def test_a_planning_model_unsolved_is_still_its_start(tmp_path, capsys):
    out = tmp_path / "s.svg"
    assert main(["show", "water_jugs", "--svg", str(out)]) == 0
    assert "(the start; --plan draws the plan)" in capsys.readouterr().out


def test_an_unsolved_page_says_what_it_shows(tmp_path):
    out = tmp_path / "k.html"
    assert main(["show", str(EXAMPLES / "kenken6.toml"), "--unsolved", "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "the puzzle, unsolved" in page and "the start" not in page
