"""Pictures: every bundled model draws as valid, deterministic SVG with the right parts.

Expected counts come from the model files' own pictures, read here with
``tomllib`` and counted by hand-written rules, not from the drawing code.
"""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cpsolve.cli import main
from cpsolve.engines import run
from cpsolve.output.draw import jupyter, picture
from cpsolve.output.draw.chart import ticks
from cpsolve.output.draw.page import plan_page
from cpsolve.output.draw.show import Shown, analysis_svg
from cpsolve.output.draw.svg import num
from cpsolve.puzzles.files import bundled, load, resolve

SVG = "{http://www.w3.org/2000/svg}"
MODELS = Path(__file__).resolve().parents[3] / "models"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def table(name: str) -> dict:
    return tomllib.loads((MODELS / f"{name}.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", bundled(), ids=lambda p: p.stem)
def test_every_bundled_model_draws_valid_deterministic_svg(path):
    puzzle = load(path)
    first, second = picture(puzzle).svg, picture(load(path)).svg
    assert first == second
    root = parse(first)
    assert any(with_class(root, part) for part in ("cell", "square", "hole", "piece", "variable",
                                                    "stack", "vessel"))
    assert "<script" not in first and "href" not in first


def test_number_format_is_fixed():
    assert [num(v) for v in (1.0, 0.5, 2 / 3, -0.001, 12.345)] == ["1", "0.5", "0.67", "0", "12.35"]
    assert ticks(30_000)[-1] >= 30_000 and ticks(7) == [0, 2, 4, 6, 8]


def test_grid_givens_and_filled_cells_are_told_apart():
    givens = table("sudoku_inkala")["givens"]
    digits = sum(ch.isdigit() and ch != "0" for ch in givens)
    puzzle = load(resolve("sudoku_inkala"))
    root = parse(picture(puzzle).svg)
    assert len(with_class(root, "cell")) == 81
    assert len(with_class(root, "given")) == digits
    assert not with_class(root, "filled")
    solved = parse(picture(puzzle, run("cpsat", "solve", puzzle.model).solution).svg)
    assert len(with_class(solved, "given")) == digits
    assert len(with_class(solved, "filled")) == 81 - digits


def test_x_sudoku_tints_both_diagonals():
    root = parse(picture(load(resolve("xsudoku5"))).svg)
    groups = with_class(root, "group")
    assert [len(g.findall(f"{SVG}rect")) for g in groups] == [5, 5]


def test_tour_board_blocked_squares_and_numbered_path():
    board = table("knight_problem_a")["board"]
    opened, blocked = board.count("."), board.count("x")
    puzzle = load(resolve("knight_problem_a"))
    root = parse(picture(puzzle).svg)
    assert len(with_class(root, "square")) == opened
    assert len(with_class(root, "blocked")) == blocked
    solved = parse(picture(puzzle, run("cpsat", "solve", puzzle.model).solution).svg)
    numbers = [v.find(f"{SVG}text").text for v in with_class(solved, "visit")]
    assert numbers == [str(k) for k in range(1, opened + 1)]
    assert len(with_class(solved, "path")) == 1


@pytest.mark.parametrize("name", ["hoppers", "english33"])
def test_pegs_holes_and_pegs(name):
    board = table(name)["board"]
    holes, pegs = sum(ch in "o." for ch in board), board.count("o")
    root = parse(picture(load(resolve(name))).svg)
    assert len(with_class(root, "hole")) == holes
    assert len(with_class(root, "peg")) == pegs


def test_pegs_lattice_follows_the_jumps():
    """Hoppers' holes sit on a square lattice turned 45°: the row step equals the column step."""
    root = parse(picture(load(resolve("hoppers"))).svg)
    xs = sorted({float(c.get("cx")) for c in with_class(root, "hole")})
    ys = sorted({float(c.get("cy")) for c in with_class(root, "hole")})
    assert len(xs) == len(ys) == 5
    assert xs[1] - xs[0] == pytest.approx(ys[1] - ys[0])


@pytest.mark.parametrize("name,pieces,blocks", [("eight_puzzle", 8, 0), ("onoff", 6, 1),
                                                ("line_puzzle", 8, 0)])
def test_sliding_pieces_are_one_shape_each(name, pieces, blocks):
    root = parse(picture(load(resolve(name))).svg)
    shapes = with_class(root, "piece")
    assert len(shapes) == pieces
    multi = [g for g in shapes if float(g.find(f"{SVG}rect").get("width")) > 50]
    assert len(multi) == blocks


def test_triangle_board_is_drawn_on_its_lattice():
    """Triangle 15 (alternate columns, jumps [0, 2], [1, 1], [1, -1]): neighbours equally far."""
    root = parse(picture(load(resolve("triangle15"))).svg)
    holes = [(float(c.get("cx")), float(c.get("cy"))) for c in with_class(root, "hole")]
    assert len(holes) == 15 and len(with_class(root, "peg")) == 14
    (x0, y0), (x1, y1), (x2, y2) = sorted(holes, key=lambda p: (p[1], p[0]))[:3]
    assert x2 - x1 == pytest.approx(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, rel=1e-3)


def test_klotski_pieces_of_every_shape_are_one_shape_each():
    # 10 pieces: the 2x2, the 1x2, four 2x1 (one token, touching in pairs), four cells
    root = parse(picture(load(resolve("klotski"))).svg)
    shapes = with_class(root, "piece")
    assert len(shapes) == 10
    rects = [g.find(f"{SVG}rect") for g in shapes]
    sizes = sorted((float(r.get("width")) > 50, float(r.get("height")) > 50) for r in rects)
    assert sizes == [(False, False)] * 4 + [(False, True)] * 4 + [(True, False), (True, True)]


def test_transition_table_shows_each_variable_and_the_show_line(tmp_path):
    """Without [draw], a table of the variables; water_jugs.toml declares levels."""
    text = (resolve("water_jugs")).read_text(encoding="utf-8")
    start, end = text.index("# pictures: each jug"), text.index("[[actions]]")
    path = tmp_path / "jugs.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    root = parse(picture(load(path)).svg)
    assert len(with_class(root, "variable")) == 2
    assert "8 L jug: 0 L" in with_class(root, "shown")[0].text
    drawn = parse(picture(load(resolve("water_jugs"))).svg)
    assert len(with_class(drawn, "vessel")) == 2 and not with_class(drawn, "variable")
    assert "8 L jug: 0 L" in with_class(drawn, "shown")[0].text


def test_plan_page_is_offline_and_has_a_frame_per_step():
    puzzle = load(resolve("water_jugs"))
    result = run("search", "solve", puzzle.model)
    html = plan_page(puzzle, result)
    assert html.count('class="frame"') == len(result.plan) + 1 == 11
    # the 11 frames and the goal drawn beside them; nothing else is referenced
    assert re.findall(r"https?://[^\"' ]+", html) == ["http://www.w3.org/2000/svg"] * 12
    assert "src=" not in html and "<link" not in html
    assert "optimal (proven)" in html
    assert plan_page(puzzle, result) == html


def test_plan_page_writes_the_summary_a_line_each():
    """Hoppers' summary on the page: its heading, then one line per move (7, docs/design.md),
    in a <pre>, line breaks as they are."""
    puzzle = load(resolve("hoppers"))
    html = plan_page(puzzle, run("search", "solve", puzzle.model))
    summary = re.search(r'<pre class="summary">(.*?)</pre>', html, re.S).group(1)
    lines = summary.split("\n")
    assert lines[0] == "7 moves, each a chain of jumps by one peg:"
    assert [line.split(":")[0] for line in lines[1:]] == [f"  move {i}" for i in range(1, 8)]


def test_analysis_chart_bars_and_farthest_states():
    """8-puzzle: distances 0..31 from the goal, 2 states at 31 (docs/design.md)."""
    puzzle = load(resolve("eight_puzzle"))
    result = run("search", "analyze", puzzle.model)
    root = parse(analysis_svg(puzzle, result))
    bars = with_class(root, "bar")
    assert len(bars) == 32
    assert bars[-1].find(f"{SVG}title").text == "distance 31: 2 states"
    assert len(with_class(root, "farthest")) == 2


@pytest.mark.parametrize(("name", "unit", "far"), [("hoppers", "jumps", 11),
                                                   ("eight_puzzle", "moves", 31)])
def test_analysis_chart_names_the_unit_of_its_distances(name, unit, far):
    """The axis and the caption count the model's actions: Hoppers' 12 pegs take 11 jumps
    to leave one (its plans count 7 moves of chained jumps); the 8-puzzle's step metric
    takes one action per move, 31 at most (docs/design.md)."""
    puzzle = load(resolve(name))
    root = parse(analysis_svg(puzzle, run("search", "analyze", puzzle.model)))
    texts = [e.text for e in root.iter(f"{SVG}text")]
    assert [t for t in texts if t and t.startswith("distance (")] == [f"distance ({unit})"]
    assert any(f"the largest distance is {far} {unit}," in (t or "") for t in texts)


def test_jupyter_reprs():
    """Puzzles and results display through IPython's formatters, registered by output.draw."""
    puzzle = load(resolve("water_jugs"))
    shell = FakeShell()
    jupyter.register(shell)
    parse(shell.format("image/svg+xml", puzzle))
    result = run("search", "solve", puzzle.model)
    assert "10 steps" in shell.format("text/html", result)
    html = Shown(puzzle, result)._repr_html_()
    assert html.count('class="frame"') == 11 and "<body" not in html


def test_an_invariant_proof_in_html_names_the_puzzle_s_squares(tmp_path):
    """The HTML summary had the result alone and said ``box[0] is preserved exactly``,
    while text and JSON say ``the box on r2c2``: the box in the corner (row 1, column 1
    from 0) can never be pushed, so no plan exists. Given its puzzle, the summary says it
    in the map's words; without one (a notebook's formatter) as before; a drawn result
    (``Shown``, a page) says it too, where before it said nothing of why."""
    path = tmp_path / "corner.toml"
    path.write_text('family = "sokoban"\nboard = """\n#####\n#$ .#\n#@  #\n#####\n"""\n',
                    encoding="utf-8")
    puzzle = load(path)
    result = run("search", "solve", puzzle.model)
    said = "no plan: the box on r2c2 is preserved exactly by every action"
    assert said in jupyter.result_html(result, puzzle)
    assert "box[0] is preserved" in jupyter.result_html(result)  # the model's words
    assert said in Shown(puzzle, result)._repr_html_()
    page = tmp_path / "corner.html"
    Shown(puzzle, result).save(page)
    assert said in page.read_text(encoding="utf-8")


class FakeShell:
    """What :func:`jupyter.register` reads of an IPython shell: its display formatters."""

    class Formatter:
        def __init__(self):
            self.by_name = {}

        def for_type_by_name(self, module, name, func):
            self.by_name[module, name] = func

    def __init__(self):
        self.formatters = {"image/svg+xml": self.Formatter(), "text/html": self.Formatter()}
        self.display_formatter = self

    def format(self, mime: str, obj) -> str:
        for cls in type(obj).__mro__:
            func = self.formatters[mime].by_name.get((cls.__module__, cls.__name__))
            if func:
                return func(obj)
        raise AssertionError(f"no {mime} formatter for {type(obj).__name__}")


def test_gallery_draws_the_first_solutions(tmp_path):
    out = tmp_path / "g.html"
    assert main(["show", "xsudoku5", "--gallery", "3", "--html", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert html.count("<figure>") == 3


def test_show_says_in_words_what_it_drew(tmp_path, capsys):
    """The line after a picture names the answer in words, never a status's raw value:
    --gallery N stops at the (N + 1)-th solution, so the 960 grids of xsudoku5 are "at
    least 4"; problem A's board has one closed tour (DESIGN.md), fewer than 5: "exactly 1",
    and with --gallery 1 too, since the count looked for a second; Hoppers takes 7 moves,
    proven (DESIGN.md)."""
    out = tmp_path / "g.html"
    runs = {"at least 4 solutions, by search": ["xsudoku5", "--gallery", "3"],
            "exactly 1 solution, by search": ["knight_problem_a", "--gallery", "5"],
            "exactly 1 solution, by search)": ["knight_problem_a", "--gallery", "1"],
            "7 moves": ["hoppers", "--plan"]}
    for words, args in runs.items():
        capsys.readouterr()
        assert main(["show", *args, "--html", str(out)]) == 0
        line = capsys.readouterr().out.strip()
        assert line.startswith(f"wrote {out} (")
        said = line.removeprefix(f"wrote {out} ")
        assert words in said and "_" not in said, line
    assert said.endswith(", optimal (proven), by search)")


def test_show_commands(tmp_path, capsys):
    tour, page, start = tmp_path / "t.svg", tmp_path / "p.html", tmp_path / "s.svg"
    assert main(["show", "knight_6x6", "--svg", str(tour)]) == 0
    assert len(with_class(parse(tour.read_text().split("\n", 1)[1]), "visit")) == 36
    assert main(["show", "hoppers", "--plan", "--html", str(page)]) == 0
    assert page.read_text().count('class="frame"') == 12  # start and 11 jumps
    assert main(["show", "knight_6x6", "--unsolved", "--svg", str(start)]) == 0
    assert not with_class(parse(start.read_text().split("\n", 1)[1]), "visit")
    assert main(["show", "xsudoku5", "--plan", "--html", str(page)]) == 2
    assert main(["show", "hoppers", "--plan", "--svg", str(page)]) == 2
    assert "needs a planning model" in capsys.readouterr().err


def test_analyze_writes_the_chart(tmp_path):
    out = tmp_path / "layers.svg"
    assert main(["analyze", "water_jugs", "--svg", str(out)]) == 0
    assert with_class(parse(out.read_text().split("\n", 1)[1]), "bar")


def test_engines_never_import_the_drawings():
    import subprocess
    import sys

    code = ("import sys, cpsolve.engines, cpsolve.puzzles.files, cpsolve.output.text;"
            "from cpsolve.engines import run;"
            "p = cpsolve.puzzles.files.load(cpsolve.puzzles.files.resolve('water_jugs'));"
            "run('search', 'solve', p.model);"
            "print(any(m.startswith('cpsolve.output.draw') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("argv", [
    ["show", "models/knight_8x8.toml", "--svg", "{tmp}"],                 # a directory
    ["show", "models/knight_8x8.toml", "--svg", "{tmp}/no/such/x.svg"],   # no folder
    ["show", "models/hoppers.toml", "--plan", "--html", "{tmp}"],
    ["analyze", "models/eight_puzzle.toml", "--svg", "{tmp}/missing/l.svg"],
    ["show", "models/knight_8x8.toml", "--svg", "/proc/cpsolve-test.svg"],  # fails on write
])
def test_unwritable_output_is_one_line_exit_2(argv, tmp_path, capsys):
    try:  # a bad option value ends in the parser (SystemExit), a failed write in main
        code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err


def test_a_drawn_answer_is_worded_as_the_headline_with_how_sure_it_is():
    """``show``'s line about the file it wrote words the answer as the text headline does
    (one function: :func:`cpsolve.output.text.answer_words`), a plan in the family's metric,
    then its status; a count says it is exact.  Hoppers: 11 jumps (12 pegs to 1), at best
    7 moves; 5x5 X-sudoku: 960 grids (docs/design.md's known answers)."""
    from cpsolve.output import text
    from cpsolve.output.draw.show import answer_words

    hoppers = load(resolve("hoppers"))
    plan = run("search", "solve", hoppers.model)
    headline = "7 moves (11 jumps; a chain of jumps by one peg is one move)"
    assert text.answer_words(hoppers, plan) == headline
    assert answer_words(hoppers, plan) == f"{headline}, optimal (proven)"
    grids = load(resolve("xsudoku5"))
    counted = run("search", "count", grids.model)
    assert (text.answer_words(grids, counted), answer_words(grids, counted)) == \
        ("960 solutions", "exactly 960 solutions")


def test_an_unsolved_csp_file_draws_its_rules_under_its_unknowns(tmp_path):
    """A csp file has no board: ``show --unsolved`` drew only ``?`` boxes, which no one can
    solve from; its constants, groups, constraints and objective are written under them
    (and not under a solution)."""
    path = tmp_path / "sky.toml"
    path.write_text('family = "csp"\nname = "sums"\nall_different = ["x"]\n'
                    'constraints = ["x[0] + x[1] == target"]\nminimize = "x[2]"\n'
                    '[constants]\ntarget = 5\n[variables]\nx = { size = 3, domain = [0, 4] }\n')
    puzzle = load(path)
    rules = [t.text for t in ET.fromstring(picture(puzzle).svg).iter()
             if t.get("class") == "rule"]
    assert rules == ["rules:", "target = 5", "all different: x", "x[0] + x[1] == target",
                     "minimize: x[2]"]
    solved = picture(puzzle, {"x[0]": 1, "x[1]": 4, "x[2]": 0}).svg
    assert 'class="rule"' not in solved
