"""Text for people: a board is boxed when it fits the screen, and printed whole (unboxed,
unwrapped) when it does not."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from rich.console import Console
from rich.text import Text

from cpsolve.cli.consoles import console
from cpsolve.engines import run
from cpsolve.output.text import Board, analysis_line, draw_plan
from cpsolve.puzzles.base import Puzzle
from cpsolve.puzzles.files import load, resolve


def printed(board: Board, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(board, crop=False)
    return console.export_text().splitlines()


def test_a_board_that_fits_is_boxed_with_its_title():
    lines = printed(Board("1 2\n3 4", "solution"), 40)
    assert "solution" in lines[0] and lines[0].startswith("╭")
    assert lines[1].startswith("│ 1 2 ") and lines[1].endswith("│")
    assert lines[-1].startswith("╰")


def test_a_board_wider_than_the_screen_is_printed_whole():
    row = " ".join(f"{n:4d}" for n in range(30))  # 149 characters
    lines = printed(Board(f"{row}\n{row}", "solution"), 80)
    assert lines == ["solution:", row, row]


def test_a_wide_board_under_a_heading_gets_one_label():
    """The heading (``a second one:``) labels the unframed board: no ``another:`` after it."""
    row = " ".join(f"{n:4d}" for n in range(30))
    lines = printed(Board(row, "another", Text("a second one:")), 80)
    assert lines == ["a second one:", row]
    lines = printed(Board("1 2", "another", Text("a second one:")), 40)
    assert lines[0] == "a second one:" and "another" in lines[1]


def test_a_wide_tour_is_printed_one_line_per_row(tmp_path):
    """The whole command: a 12×12 tour on a 40-column screen keeps its rows whole."""
    model = tmp_path / "tour12.toml"
    rows = "\n".join("." * 12 for _ in range(12))
    model.write_text(f'family = "tour"\nname = "12x12"\nboard = """\n{rows}\n"""\n')
    out = subprocess.run([sys.executable, "-m", "cpsolve", "solve", str(model), "--engine",
                          "search"], capture_output=True, text=True, check=True,
                         env={**os.environ, "COLUMNS": "40"}).stdout
    lines = out.splitlines()
    numbers = lines[lines.index("solution:") + 1:][:12]  # the first board
    numbers = [line.split() for line in numbers]
    assert len(numbers) == 12 and all(len(row) == 12 for row in numbers)
    assert sorted(int(n) for row in numbers for n in row) == list(range(1, 145))


def test_the_analysis_line_names_what_chose_the_analysis():
    """--algorithm chooses numpy, python or bitmap; the cluster and the disk are chosen by
    their own options (or, on disk, by the size of the space), never by --algorithm."""
    assert analysis_line({"algorithm": "numpy"}) == "Analysis: numpy (--algorithm)."
    assert analysis_line({"algorithm": "python", "fallback": "states do not pack"}) == \
        "Analysis: python (--algorithm) (states do not pack)."
    assert analysis_line({"algorithm": "cluster"}) == \
        "Analysis: cluster (on a Dask cluster: --workers or --scheduler)."
    assert "--work-dir" in analysis_line({"algorithm": "external"})
    assert "--algorithm" not in analysis_line({"algorithm": "external"})
    # the bit map is also chosen without --algorithm (no --limit, 12 or 13 values)
    assert "by itself" in analysis_line({"algorithm": "bitmap"})


def test_a_sokoban_summary_prints_its_lurd_line_under_its_size(cli):
    """The summary's two lines are two lines, not one with an escaped ``\\n``: the size,
    then the plan's 33 letters (the model's [expected] steps), as many upper case as the
    size says pushes."""
    out = cli("solve", "microban1", "--engine", "search")
    assert out.code == 0, out.err
    head, lurd = out.out.splitlines()[-2:]
    assert "\\n" not in out.out
    assert re.fullmatch(r"  [lurdLURD]{33}", lurd)
    pushes = sum(ch.isupper() for ch in lurd)
    assert head == f"33 moves ({pushes} pushes), upper case a push:"


def test_a_pegs_summary_prints_a_line_per_move(cli):
    """Hoppers: 7 moves of 11 jumps in all (docs/design.md), a numbered line each."""
    out = cli("solve", "hoppers", "--engine", "search")
    assert out.code == 0, out.err
    lines = out.out.splitlines()
    at = lines.index("7 moves, each a chain of jumps by one peg:")
    moves = lines[at + 1:]
    assert [m.split(":")[0] for m in moves] == [f"  move {i}" for i in range(1, 8)]
    chains = [m.split(": ")[1].split("-") for m in moves]
    assert all(re.fullmatch(r"r\d+c\d+", hole) for chain in chains for hole in chain)
    assert sum(len(chain) - 1 for chain in chains) == 11


class Noisy(Puzzle):
    """A family whose summary has a control character inside a line."""

    def plan_summary(self, plan):
        return ["one \x1b[31mred", "two"]


def test_each_summary_line_is_escaped_on_its_own():
    """The summary's lines stay lines; what is unsafe inside one is still escaped."""
    jugs = load(resolve("water_jugs"))
    noisy = Noisy(name=jugs.name, family=jugs.family, model=jugs.model)
    out = console(stderr=False)
    out.file = open(os.devnull, "w")  # noqa: SIM115
    out.record = True
    for part in draw_plan(noisy, run("search", "solve", jugs.model).answer):
        out.print(part)
    assert out.export_text().splitlines()[-2:] == ["one \\x1b[31mred", "two"]


def test_an_analysis_names_its_distances_in_the_models_actions(cli):
    """Hoppers: 12 pegs at the start and each jump takes one, so the farthest states (one
    peg) are 11 jumps away, though its plans count chains of jumps as moves (7)."""
    out = cli("analyze", "hoppers")
    assert out.code == 0, out.err
    lines = out.out.splitlines()
    assert "max distance 11 jumps from the start" in lines[0]
    assert any(line.split() == ["distance", "(jumps)", "states"] for line in lines)
    assert any(line.endswith("at distance 11 jumps:") for line in lines)
    data = json.loads(cli("analyze", "hoppers", "--json").out)
    assert (data["distance_unit"], data["max_distance"]) == ("jumps", 11)


def test_an_analysis_in_moves_says_moves(cli):
    """The 8-puzzle's step metric: one action, one move; 31 at most (docs/design.md)."""
    out = cli("analyze", "eight_puzzle")
    assert "max distance 31 moves to the goal" in out.out.splitlines()[0]
    assert json.loads(cli("analyze", "eight_puzzle", "--json").out)["distance_unit"] == "moves"


def _printed_lines(renderable, width: int) -> list[str]:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


def test_an_engines_note_wraps_in_its_column_and_the_confirmation_keeps_its_indent():
    """At 80 columns rich wrapped the note at column 0 (``head start`` under the engine)."""
    from cpsolve.answers.result import Result, Status
    from cpsolve.engines.auto import Check, Confirmation, Race
    from cpsolve.output.text import race_text

    winner = Result(Status.INFEASIBLE, "search", seconds=0.01)
    note = "not started: search proved the answer within its 0.3 s head start"
    race = Race(winner, (Check("search", winner), Check("cpsat", note=note, started=False)),
                ("search and cpsat differ: one says there is no plan and the other has one of"
                 " 12 moves",), Confirmation("cpsat", 0.0, False, False, head_start=0.3))
    lines = _printed_lines(race_text(race), 80)
    # the text's column starts at 2 + 7 + 1 + 11 + 1 = 22 cells, and holds 58
    assert lines[1:3] == ["  cpsat   cross-check not started: search proved the answer within"
                          " its 0.3 s", " " * 22 + "head start"]
    assert lines[3:5] == ["  DISAGREEMENT: search and cpsat differ: one says there is no plan"
                          " and the other", "  has one of 12 moves"]
    assert lines[5:] == ["  not cross-checked by cpsat (--confirm races both from the start)"]
    narrow = _printed_lines(race_text(race), 40)
    assert all(line.startswith("  ") for line in narrow) and max(map(len, narrow)) <= 40


def test_a_title_wraps_between_its_items(cli):
    """At 40 columns the title came as ``... 0.085`` over ``s  verified``."""
    run = cli("solve", "water_jugs", "--engine", "search", width="40")
    lines = run.out.splitlines()
    # 32 cells, then "  optimal (proven)" would take it to 50; the second line takes 37
    assert lines[0] == "Water jugs 8 L and 5 L  [search]"
    assert re.fullmatch(r"  optimal \(proven\)  10 moves  \d\.\d{3} s", lines[1])
    assert lines[2] == "  verified"
    assert lines[3] == "Metric: one move = one action."


def test_a_familys_summary_keeps_its_own_line_breaks(cli):
    """Sokoban's summary is a head and the moves on the line under it: the break was shown
    as ``\\n`` in the middle of one wrapped line."""
    run = cli("solve", "microban1", "--engine", "search", width="80")
    lines = run.out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.endswith("upper case a push:"))
    assert lines[head + 1].startswith("  ") and set(lines[head + 1].strip()) <= set("udlrUDLR")
    assert "\\n" not in run.out


def test_an_analysis_of_many_distances_shows_the_nearest_and_the_farthest(cli, tmp_path):
    """Tower of Hanoi with 7 discs: 2^7 = 128 distances (0 to 127 moves) — too many rows to
    read; the table shows the 30 nearest and the 20 farthest (127 the last) and says where
    every one is; its title stays on one line."""
    hanoi = (resolve("hanoi4").read_text().replace("discs = 4", "discs = 7")
             .split("[expected]")[0])
    path = tmp_path / "hanoi7.toml"
    path.write_text(hanoi)
    out = cli("analyze", path, "--from", "goal").out
    rows = [line.split() for line in out.splitlines()
            if re.fullmatch(r"\s*(\d+|\.\.\.)\s+[\d,.]+\s*", line)]
    assert [r[0] for r in rows[:2]] == ["0", "1"] and rows[29][0] == "29"
    assert rows[30] == ["...", "..."] and rows[-1][0] == "127" and len(rows) == 51
    assert "128 distances: the 30 nearest and the 20 farthest shown" in out
    assert "states that can reach the goal, by distance to it" in out
