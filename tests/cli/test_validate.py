"""``cpsolve validate``: cpsolve's own answers are valid, a changed step or cell is
invalid and named, hostile answer files are one line (exit 2), and on PDDL the verdict
and cost agree with unified-planning's sequential plan validator."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cpsolve.puzzles.files import bundled, load

ROOT = Path(__file__).resolve().parents[2]
IPC = ROOT / "benchmarks" / "ipc"
sys.path.insert(0, str(ROOT / "tests" / "interop"))
import pddl_cases as cases  # noqa: E402

NO_ANSWER = {"knight_4x4", "fifteen_unsolvable", "french37"}
"""Bundled models without a solution: nothing to validate."""
SLOW = {"fifteen_korf1", "fifteen_puzzle", "fifteen_medium", "english33", "klotski",
        "knight_8x8", "line_puzzle", "eight_puzzle", "camel_6x6", "knight_6x6",
        "english33_moves"}


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in SLOW else [])
    for p in bundled() if p.stem not in NO_ANSWER])
def test_every_bundled_models_own_answer_is_valid(cli, tmp_path, path):
    kind = load(path).model.kind
    engine = "search" if kind == "planning" else "cpsat"
    solved = cli("solve", path, "--engine", engine, "--json", "--time-limit", "120")
    assert solved.code == 0, solved.err
    answer = json.loads(solved.out)
    as_json = tmp_path / "answer.json"
    as_json.write_text(solved.out)
    as_text = tmp_path / "answer.txt"
    as_text.write_text(cli("solve", path, "--engine", engine, "--time-limit", "120").out)
    for written in (as_json, as_text):  # the csp family: read back with its show template
        checked = cli("validate", path, written, "--json")
        assert checked.code == 0, checked.out + checked.err
        verdict = json.loads(checked.out)
        assert verdict["valid"] and verdict["answer"] == ("plan" if kind == "planning"
                                                          else "solution")
        if kind == "planning":
            assert verdict["cost"] == answer["cost"]


@pytest.mark.parametrize("model, width", [
    ("sudoku_inkala", "100"), ("knight_3x10", "100"), ("queens8", "100"), ("golomb6", "100"),
    ("examples/skyscrapers5.toml", "100"), ("examples/futoshiki5.toml", "100"),
    ("line_puzzle", "100"), ("water_jugs", "100"),
    ("golomb6", "20"), ("examples/futoshiki5.toml", "20"),  # too narrow for the frame
])
def test_the_text_output_of_an_ascii_console_is_read_back(cli, cli_subprocess, tmp_path,
                                                          model, width):
    """ASCII frames (``+---+``, ``|``) and stand-ins (``v`` for ``∨``, ``|`` for a ``│``
    piece) are read as the box lines are (docs/interop.md); so is a drawing printed without
    its frame on a narrow screen."""
    solved = cli_subprocess("solve", model, "--engine", "search", width=width,
                            env={"PYTHONIOENCODING": "ascii"})
    assert solved.code == 0 and solved.out.isascii(), solved.err
    answer = tmp_path / "answer.txt"
    answer.write_text(solved.out)
    checked = cli("validate", ROOT / model if "/" in model else model, answer)
    assert checked.code == 0, checked.err
    assert checked.out.startswith("valid: a ")


HANOI = ["disc 0 to B", "disc 1 to C", "disc 0 to C", "disc 2 to B", "disc 0 to A",
         "disc 1 to B", "disc 0 to B", "disc 3 to C", "disc 0 to C", "disc 1 to A",
         "disc 0 to A", "disc 2 to C", "disc 0 to B", "disc 1 to C", "disc 0 to C"]
"""The 15 moves of 4 discs from A to C (the smallest disc moves every other step)."""


def test_a_plan_as_action_names_is_valid_and_one_changed_step_is_named(cli, tmp_path):
    plan = tmp_path / "names.txt"
    plan.write_text("\n".join(HANOI) + "\n")
    out = cli("validate", "hanoi4", plan)
    assert out.code == 0 and "cost 15" in out.out, out.out + out.err
    changed = HANOI.copy()
    changed[7] = "disc 3 to B"  # discs 0-2 sit on B after step 7: disc 3 cannot go there
    plan.write_text("\n".join(changed) + "\n")
    out = cli("validate", "hanoi4", plan, "--json")
    verdict = json.loads(out.out)
    assert out.code == 1 and not verdict["valid"] and verdict["step"] == 8
    assert verdict["message"].startswith("step 8 (disc 3 to B)")


def test_a_plan_that_misses_the_goal_draws_where_it_ends_and_the_goal(cli, tmp_path):
    """Not the goal's expression (``peg[0] == 2 and ...``) but the family's drawings: after
    disc 0 to B the other discs still sit on A (values 1, 0, 0, 0); the goal has all four
    on C (2)."""
    from cpsolve.puzzles.files import load as load_model

    hanoi = load_model(next(p for p in bundled() if p.stem == "hanoi4"))
    plan = tmp_path / "plan.txt"
    plan.write_text("disc 0 to B\n")
    out = cli("validate", "hanoi4", plan, "--json")
    verdict = json.loads(out.out)
    assert out.code == 1 and verdict["step"] is None  # its one step is legal
    assert verdict["message"] == (
        "the goal does not hold after the plan: it ends in "
        f"{hanoi.render_state((1, 0, 0, 0))}; the goal is {hanoi.render_state((2, 2, 2, 2))}")
    assert "==" not in verdict["message"]


def test_a_missed_goal_drawn_on_several_lines_follows_the_verdict(cli, tmp_path):
    """The 8-puzzle's boards: 5 moves down into the blank below it."""
    plan = tmp_path / "plan.txt"
    plan.write_text("5 down\n")
    verdict = json.loads(cli("validate", "eight_puzzle", plan, "--json").out)
    assert verdict["message"].splitlines() == [
        "the goal does not hold after the plan", "it ends in:", "8 6 7", "2 _ 4", "3 5 1",
        "the goal is:", "1 2 3", "4 5 6", "7 8 _"]
    out = cli("validate", "eight_puzzle", plan)
    assert out.code == 1 and out.out.splitlines()[0] == \
        "invalid: the goal does not hold after the plan (action names)"
    assert out.out.splitlines()[1:] == verdict["message"].splitlines()[1:]


def test_a_sokoban_plan_one_push_short_draws_the_goal_as_the_map(cli, tmp_path):
    """Not ``box[0] == 0 and box[1] == 0 and box[2] == 1``: one push right (R) leaves the
    box a cell short of the target; the goal is the map with a box on the target and no
    player (the goal leaves the player anywhere)."""
    level = tmp_path / "level.toml"
    level.write_text('family = "sokoban"\nboard = """\n#####\n#@$ .#\n######\n"""\n')
    plan = tmp_path / "plan.txt"
    plan.write_text("R\n")
    verdict = json.loads(cli("validate", level, plan, "--json").out)
    assert verdict["message"].splitlines() == [
        "the goal does not hold after the plan", "it ends in:", "#####", "# @$.#", "######",
        "the goal is:", "#####", "#   *#", "######",
        "(a box on every target; the player anywhere)"]
    plan.write_text("RR\n")
    assert json.loads(cli("validate", level, plan, "--json").out)["valid"]


def test_cpsolves_own_table_with_one_action_changed_names_its_guard(cli, tmp_path):
    """The table's state column is not part of the action: a step changed to an action
    that exists but does not apply is named with its false guard, as plain names are."""
    table = cli("solve", "hanoi4", "--engine", "search").out  # the one plan: HANOI
    row = next(ln for ln in table.splitlines() if ln.split()[:1] == ["8"])
    assert "disc 3 to C" in row
    plan = tmp_path / "plan.txt"
    plan.write_text(table.replace(row, row.replace("disc 3 to C", "disc 3 to B")))
    out = cli("validate", "hanoi4", plan, "--json")
    verdict = json.loads(out.out)
    assert out.code == 1 and verdict["format"] == "cpsolve text" and verdict["step"] == 8
    assert verdict["message"].startswith("step 8 (disc 3 to B) cannot be played: its guard "
                                         "needs "), verdict["message"]


LONG_NAMES = """\
family = "transition"
name = "Jugs with long action names"
goal = "jug[0] == 4 or jug[1] == 4"
show = "{jug[0]} L and {jug[1]} L"

[constants]
cap = [8, 5]

[variables]
jug = { size = 2, domain = [0, 8] }

[initial]
jug = [0, 0]

[labels]
i = ["eight litre", "five litre"]
j = ["eight litre", "five litre"]

[[actions]]
name = "fill the {i} jug right up to its brim from the garden tap"
params = { i = [0, 1] }
guard = "jug[i] < cap[i]"
effects = { "jug[i]" = "cap[i]" }

[[actions]]
name = "empty the {i} jug completely onto the flower bed"
params = { i = [0, 1] }
guard = "jug[i] > 0"
effects = { "jug[i]" = "0" }

[[actions]]
name = "pour the {i} jug carefully into the {j} jug until one of them is full or empty"
params = { i = [0, 1], j = [0, 1] }
where = "i != j"
guard = "jug[i] > 0 and jug[j] < cap[j]"
[actions.effects]
"jug[i]" = "jug[i] - min(jug[i], cap[j] - jug[j])"
"jug[j]" = "jug[j] + min(jug[i], cap[j] - jug[j])"
"""
"""The water jugs (4 L from 8 L and 5 L: 10 moves) with action names too long for one
line of the plan table at 80 columns."""


def test_a_plan_table_whose_actions_wrap_at_80_columns_is_valid(cli, tmp_path):
    model = tmp_path / "long_names.toml"
    model.write_text(LONG_NAMES)
    table = cli("solve", model, "--engine", "search", width="80").out
    assert "\n       " in table  # a row's action went on to the next line, under its column
    plan = tmp_path / "plan.txt"
    plan.write_text(table)
    out = cli("validate", model, plan, "--json")
    verdict = json.loads(out.out)
    assert (out.code, verdict["valid"], verdict["steps"]) == (0, True, 10), verdict


def test_a_sokoban_lurd_line_is_a_plan(cli, tmp_path):
    """cpsolve's own lurd line is valid at the optimum (Microban 1: 33 moves, 8 pushes, the
    brute force's in tests/puzzles/test_sokoban.py); a letter changed is named."""
    for model, cost in (("microban1", 33), (ROOT / "examples" / "microban1_pushes.toml", 8)):
        lurd = json.loads(cli("solve", model, "--engine", "search", "--json").out)["lurd"]
        plan = tmp_path / "plan.txt"
        plan.write_text(f"{lurd[:10]}\n{lurd[10:]}\n")  # line breaks are ignored
        verdict = json.loads(cli("validate", model, plan, "--json").out)
        assert verdict["valid"] and verdict["format"] == "LURD", verdict
        assert verdict["steps"] == len(lurd) and verdict["cost"] == cost
    plan.write_text("u" * 9)  # up from the player's cell (r4c3): r3c3, r2c3, then a wall
    out = cli("validate", "microban1", plan)
    assert out.code == 1 and "step 3: no action named 'walk up from r2c3'" in out.out, out.out


def test_an_ipc_plan_file_with_comments(cli, tmp_path):
    plan = tmp_path / "plan"
    plan.write_text("; a comment\n" + "".join(f"({m})  ; move\n" for m in HANOI)
                    + "; cost = 15 (unit cost)\n")
    assert cli("validate", "hanoi4", plan).code == 0


def test_a_grid_with_one_cell_changed_names_the_constraint(cli, tmp_path):
    solved = cli("solve", "sudoku4", "--engine", "cpsat", "--json")
    rows = json.loads(solved.out)["solution"]
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(rows) + "\n")
    assert cli("validate", "sudoku4", grid).code == 0
    first = rows[0].split()
    first[0], first[1] = first[1], first[0]  # row 1 keeps its symbols; two columns break
    grid.write_text("\n".join([" ".join(first), *rows[1:]]) + "\n")
    out = cli("validate", "sudoku4", grid, "--json")
    verdict = json.loads(out.out)
    assert out.code == 1 and not verdict["valid"]
    # cells named as people count them, as the groups are (column 1), never cell[0][0]
    assert "r1c1" in verdict["message"] or "r1c2" in verdict["message"], verdict["message"]
    assert "cell[" not in verdict["message"]


def test_a_csp_drawing_with_one_value_changed_names_the_constraint(cli, tmp_path):
    drawn = tmp_path / "ruler.txt"
    drawn.write_text("marks  0  1  4  10  12  17\n")  # a Golomb ruler: every gap differs
    out = cli("validate", "golomb6", drawn)
    assert out.code == 0 and "valid: a solution (text)" in out.out, out.out + out.err
    drawn.write_text("marks  0  1  4  10  13  17\n")  # 4 - 1 == 13 - 10
    verdict = json.loads(cli("validate", "golomb6", drawn, "--json").out)
    assert not verdict["valid"] and "m[" in verdict["message"]


def test_a_csp_without_a_show_template_reads_its_pairs(cli, tmp_path):
    model = tmp_path / "pair.toml"
    model.write_text('family = "csp"\nconstraints = ["x + y == 3", "x < y"]\n'
                     '[variables]\nx = [0, 3]\ny = [0, 3]\n[labels]\ny = ["a", "b", "c", "d"]\n')
    drawn = tmp_path / "answer.txt"
    drawn.write_text(cli("solve", model, "--engine", "search").out)
    assert cli("validate", model, drawn).code == 0, drawn.read_text()
    drawn.write_text("x=1  y=c\n")  # y = 2
    assert cli("validate", model, drawn).code == 0
    drawn.write_text("x=2  y=b\n")  # 2 + 1 == 3, but x < y breaks
    assert cli("validate", model, drawn).code == 1


PAIRS = """
from cpsolve import Csp


def build():
    csp = Csp("twenty")
    x = csp.add_array("x", 20, 0, 9)
    for i in range(19):
        csp.require(x[i] + x[i + 1] >= 3)
    total = x[0] + x[1]
    for i in range(2, 20, 2):
        total = total + (x[i] + x[i + 1])  # a sum built pair by pair: nested
    csp.minimize(total)
    return csp
"""


def test_a_python_csp_is_drawn_as_arrays_and_read_back(cli, tmp_path):
    model = tmp_path / "twenty.py"
    model.write_text(PAIRS)
    solved = cli("solve", model, "--engine", "cpsat", width="80")
    assert solved.code == 0, solved.err
    # the 10 pairs x[2k] + x[2k+1] are each >= 3: the least sum is 30 (3, 0, 3, 0, ...)
    assert "minimize " + " + ".join(f"x[{i}]" for i in range(20)) in " ".join(
        solved.out.split()), solved.out
    drawn = [line for line in solved.out.splitlines() if "x = [" in line]
    assert len(drawn) == 1, solved.out  # 20 digits fit one line of the box
    values = drawn[0].split("[", 1)[1].split("]")[0].split(",")
    assert len(values) == 20 and sum(map(int, values)) == 30
    answer = tmp_path / "answer.txt"
    answer.write_text(solved.out)
    assert cli("validate", model, answer).code == 0
    answer.write_text("x = [" + ", ".join(["1"] * 20) + "]\n")  # 1 + 1 < 3
    assert cli("validate", model, answer).code == 1


def test_an_array_drawn_without_its_frame_at_40_columns_is_read_back(cli, tmp_path):
    """25 values do not fit a 40-column box: the array is printed unframed under
    ``solution:``, and the second solution (v[0] < v[1] leaves more than one) follows; the
    first is read, up to the heading of the second."""
    model = tmp_path / "short.toml"
    model.write_text('family = "csp"\nname = "short"\nall_different = [["v"]]\n'
                     'constraints = ["v[0] < v[1]"]\n'
                     '[variables]\nv = { size = 25, domain = [1, 25] }\n')
    solved = cli("solve", model, "--engine", "cpsat", width="40")
    lines = [line.strip() for line in solved.out.splitlines()]
    assert "solution:" in lines and "another:" not in lines, solved.out
    answer = tmp_path / "answer.txt"
    answer.write_text(solved.out)
    assert cli("validate", model, answer).code == 0, solved.out
    values = ", ".join(["1"] * 25)  # all different breaks
    answer.write_text(f"solution:\nv = [{values}]\nThe solution is not unique; a second one:\n")
    assert cli("validate", model, answer).code == 1


QUEENS = Path(__file__).parents[2] / "examples" / "queens.py"


def test_a_python_model_reads_its_own_drawing_or_asks_for_json(cli, tmp_path):
    """examples/queens.py draws a chess board and reads it back; a model that draws its
    own way without reading it asks for the --json output, in one line."""
    answer = tmp_path / "answer.txt"
    answer.write_text(cli("solve", QUEENS, "--engine", "search", width="80").out)
    assert cli("validate", QUEENS, answer).code == 0, answer.read_text()
    model = tmp_path / "board.py"
    model.write_text(QUEENS.read_text().replace("    def read_solution", "    def unused"))
    out = cli("validate", model, answer)
    assert out.code == 2 and out.err.count("\n") == 1, out.err
    assert "draws its solution in its own way: give the --json output" in out.err
    answer.write_text(cli("solve", model, "--engine", "search", "--json").out)
    assert cli("validate", model, answer).code == 0


@pytest.mark.parametrize("text", ["marks 0 1 4\n", "marks 0 1 4 x 12 17\n",
                                  "ruler 0 1 4 10 12 17\n", "\x00\x01"],
                         ids=["too-few", "not-a-value", "other-text", "binary"])
def test_unreadable_csp_drawings_are_one_line(cli, tmp_path, text):
    drawn = tmp_path / "ruler.txt"
    drawn.write_text(text)
    out = cli("validate", "golomb6", drawn)
    assert out.code == 2 and out.err.count("\n") == 1 and "Traceback" not in out.err, out.err


def test_a_valid_solution_of_an_objective_gives_its_value_and_no_claim_of_optimality(
        cli, tmp_path):
    """Marks 0 1 3 7 12 20: the 15 distances (1 3 7 12 20, 2 6 11 19, 4 9 17, 5 13, 8) all
    differ, so it is a Golomb ruler — valid, 20 long where the shortest is 17.  With 0 1 2
    the distance 1 comes twice: invalid, no value."""
    import jsonschema

    from cpsolve.output.schema import schema

    answer = tmp_path / "ruler.json"
    answer.write_text(json.dumps({f"m[{i}]": v for i, v in enumerate([0, 1, 3, 7, 12, 20])}))
    out = cli("validate", "golomb6", answer)
    assert out.code == 0 and "minimize m[n - 1]: 20 at this solution" in out.out
    assert "validity is not optimality" in out.out
    verdict = json.loads(cli("validate", "golomb6", answer, "--json").out)
    assert verdict["valid"] is True and verdict["objective"] == 20
    jsonschema.validate(verdict, schema())
    answer.write_text(json.dumps({f"m[{i}]": v for i, v in enumerate([0, 1, 2, 7, 12, 20])}))
    out = cli("validate", "golomb6", answer, "--json")
    verdict = json.loads(out.out)
    assert out.code == 1 and verdict["valid"] is False and verdict["objective"] is None
    jsonschema.validate(verdict, schema())


def test_a_knights_tour_as_numbers_on_the_board(cli, tmp_path):
    solved = cli("solve", "knight_open_5x5", "--engine", "cpsat")
    board = tmp_path / "tour.txt"
    board.write_text(solved.out)
    assert cli("validate", "knight_open_5x5", board).code == 0, solved.out


def test_a_tour_board_with_a_row_short_is_unreadable_not_invalid(cli, tmp_path):
    """Problem A's tour with the last number of its last row left out: the board is not 5
    rows of 4 squares, so the file is bad input (one line, exit 2; ``--json`` one error
    document), not a tour whose leaps are checked (exit 1, a leap blamed)."""
    answer = tmp_path / "tour.txt"
    answer.write_text(" x  1  8  x\n 9  4 11  2\n14  x  x  7\n 5 10  3 12\n x 13  6\n")
    run = cli("validate", "knight_problem_a", answer)
    assert run.code == 2 and len(run.err_lines) == 1 and not run.out, run.out + run.err
    assert "expected 5 rows of 4 squares" in run.err and "row 5 has 3 squares" in run.err
    as_json = cli("validate", "knight_problem_a", answer, "--json")
    error = json.loads(as_json.out)
    assert as_json.code == 2 and error["status"] == "error" and error["exit"] == 2


@pytest.mark.parametrize("text", [
    "(unclosed\n", "pick a b\n(pick a b\n", "{\"plan\": 3}", "[" * 100_000,
    "{\"status\": \"infeasible\", \"answer\": null}", "\x00\x01binary", "move\x1b[2J\n",
    "{not json",
], ids=["unclosed", "mixed", "plan-not-list", "deep-json", "no-plan", "binary",
        "escape", "bad-json"])
def test_hostile_plan_files_are_one_line(cli, tmp_path, text):
    plan = tmp_path / "plan"
    plan.write_bytes(text.encode("utf-8", "surrogatepass"))
    out = cli("validate", IPC / "gripper" / "domain.pddl", IPC / "gripper" / "prob01.pddl",
              plan)
    assert out.code == 2 and out.err.count("\n") == 1 and "Traceback" not in out.err, out.err


ZERO = {"sliding": 'family = "sliding"\nstart = "1 2 3\\n4 5 _"\ngoal = "1 2 3\\n4 5 _"\n',
        "pegs": 'family = "pegs"\ngoal_peg = [1, 2]\nboard = """\n. . .\n. o .\n. . .\n"""\n',
        "transition": 'family = "transition"\ngoal = "x[0] == 0"\n[variables]\n'
                      'x = { size = 1, domain = [0, 2] }\n[initial]\nx = 0\n[[actions]]\n'
                      'name = "up"\nguard = "x[0] < 2"\neffects = { "x[0]" = "x[0] + 1" }\n',
        "sokoban": 'family = "sokoban"\nboard = """\n#####\n#@* #\n#####\n"""\n'}
"""Models whose start is the goal: the plan is of no steps (boards of several lines for
sliding, pegs and sokoban; a table of one line a state for transition)."""


@pytest.mark.parametrize("family", sorted(ZERO))
def test_the_text_output_of_a_plan_of_no_steps_is_read_back(cli, tmp_path, family):
    model = tmp_path / "zero.toml"
    model.write_text(ZERO[family])
    solved = cli("solve", model, "--engine", "search")
    assert solved.code == 0, solved.err
    answer = tmp_path / "answer.txt"
    answer.write_text(solved.out)
    checked = cli("validate", model, answer)
    assert (checked.code, checked.out, checked.err) == (
        0, "valid: a plan of 0 steps, cost 0 (cpsolve text)\n", "")


def test_an_empty_plan_file_is_the_plan_of_no_steps_as_an_empty_list_is(cli, tmp_path):
    """Valid where the start meets the goal, else a plan that misses the goal, with no
    illegal step; an empty solution file stays unreadable."""
    model = tmp_path / "zero.toml"
    model.write_text(ZERO["transition"])
    for text in ("", "[]"):
        answer = tmp_path / "answer.txt"
        answer.write_text(text)
        out = cli("validate", model, answer, "--json")
        verdict = json.loads(out.out)
        assert out.code == 0 and verdict["valid"] and verdict["steps"] == 0, out.err
        out = cli("validate", "water_jugs", answer, "--json")
        verdict = json.loads(out.out)
        assert out.code == 1 and verdict["step"] is None and verdict["steps"] == 0
    answer.write_text("")
    out = cli("validate", "sudoku4", answer)
    assert out.code == 2 and out.err.count("\n") == 1 and "empty" in out.err


def test_a_plan_of_legal_steps_that_misses_the_goal_names_no_step(cli, tmp_path):
    """Fill the 5 L jug, pour it into the 8 L jug, fill it again: each step applies, the
    jugs hold 5 L and 5 L, not 4 L: ``step`` is null, and the text names no step either."""
    plan = tmp_path / "plan.txt"
    plan.write_text("fill the 5 L jug\npour the 5 L jug into the 8 L jug\nfill the 5 L jug\n")
    out = cli("validate", "water_jugs", plan, "--json")
    verdict = json.loads(out.out)
    assert out.code == 1 and verdict["steps"] == 3 and verdict["step"] is None
    text = cli("validate", "water_jugs", plan)
    assert text.code == 1 and "step" not in text.out.split("(")[0]


def test_a_step_that_names_no_action_lists_the_steps_that_can_be_played(cli, tmp_path):
    """The 8-puzzle's start has the blank at the bottom middle: 5 above it may move down,
    3 on its left right, 1 on its right left; tile 8 (top left) cannot move down."""
    plan = tmp_path / "plan.txt"
    plan.write_text("8 down\n")
    verdict = json.loads(cli("validate", "eight_puzzle", plan, "--json").out)
    assert not verdict["valid"] and verdict["step"] == 1
    named, listed = verdict["message"].split("; steps that can be played there: ")
    assert named == "step 1: no action named '8 down'"
    assert sorted(listed.split(", ")) == ["1 left", "3 right", "5 down"]


def test_the_steps_listed_are_only_those_the_forbid_rules_allow(cli, tmp_path):
    """Farmer, wolf, goat and cabbage: at the start every crossing's guard holds, but
    crossing alone, with the wolf or with the cabbage leaves the goat with one it eats:
    the only step that can be played is the crossing with the goat."""
    plan = tmp_path / "plan.txt"
    plan.write_text("farmer rows\n")
    verdict = json.loads(cli("validate", "farmer", plan, "--json").out)
    assert not verdict["valid"] and verdict["step"] == 1
    listed = verdict["message"].split("; steps that can be played there: ")[1]
    assert listed == "farmer crosses with the goat"


def test_an_unknown_action_is_invalid_and_named(cli, tmp_path):
    plan = tmp_path / "plan"
    plan.write_text("(fly rooma roomb)\n")
    out = cli("validate", IPC / "gripper" / "domain.pddl", IPC / "gripper" / "prob01.pddl",
              plan)
    assert out.code == 1 and "step 1" in out.out and "fly rooma roomb" in out.out


UP_CASES = [("gripper", "domain.pddl", "prob01.pddl"),
            ("pegsol-opt11-strips", "domain.pddl", "p01.pddl"),
            ("sokoban-opt08-strips", "p01-domain.pddl", "p01.pddl"),
            ("hanoi", "domain.pddl", "pfile3.pddl")]


def _up_verdict(domain: Path, problem: Path, plan: Path) -> tuple[bool, int]:
    """unified-planning's sequential plan validator: valid?, and the cost (the metric's
    value, or the number of steps without a metric)."""
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.engines.results import ValidationResultStatus
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import get_environment

    get_environment().credits_stream = None
    reader = PDDLReader()
    task = reader.parse_problem(str(domain), str(problem))
    steps = reader.parse_plan(task, str(plan))
    result = SequentialPlanValidator().validate(task, steps)
    cost = next(iter(result.metric_evaluations.values()), None) \
        if result.metric_evaluations else len(steps.actions)
    return result.status == ValidationResultStatus.VALID, int(cost)


@pytest.mark.parametrize("folder,domain,problem", UP_CASES, ids=[c[0] for c in UP_CASES])
def test_verdicts_and_costs_agree_with_unified_planning(cli, tmp_path, folder, domain,
                                                        problem):
    pytest.importorskip("unified_planning")
    d, p = IPC / folder / domain, IPC / folder / problem
    plan = tmp_path / "plan"
    assert cli("solve", d, p, "--engine", "search", "--plan-file", plan).code == 0
    ours = json.loads(cli("validate", d, p, plan, "--json").out)
    assert (ours["valid"], ours["cost"]) == _up_verdict(d, p, plan)
    steps = plan.read_text().splitlines()[:-1]
    broken = tmp_path / "broken"
    broken.write_text("\n".join(steps[1:]) + "\n")  # the first step left out
    ours = json.loads(cli("validate", d, p, broken, "--json").out)
    assert not ours["valid"] and not _up_verdict(d, p, broken)[0]


WALK_PLANS = [
    (["go a a", "go a b"], True, 4, ""),
    (["go b b", "go a b"], False, None, "step 1 (go b b) cannot be played: its guard needs "
                                        "(at b)"),
    (["go a b", "wave b"], True, 3, ""),
    (["wave b", "go a b"], False, None, "step 1 (wave b) cannot be played: its guard needs "
                                        "(at b)"),
]
"""Plans of :data:`pddl_cases.WALK_DOMAIN` (go costs 2, wave 1) and their verdicts by hand:
``go a a`` changes nothing but is legal where ``(at a)`` holds; ``wave`` changes only what
the goal does not depend on, legal where its room is the robot's."""


@pytest.mark.parametrize("steps,valid,cost,message", WALK_PLANS,
                         ids=["noop", "noop-elsewhere", "irrelevant", "irrelevant-elsewhere"])
def test_any_legal_ground_action_is_a_step(cli, tmp_path, steps, valid, cost, message):
    pytest.importorskip("fast_downward.translate")
    d, p = cases.write(tmp_path, cases.WALK_DOMAIN, cases.WALK_PROBLEM)
    plan = tmp_path / "plan"
    plan.write_text("".join(f"({s})\n" for s in steps))
    ours = json.loads(cli("validate", d, p, plan, "--json").out)
    assert (ours["valid"], ours["cost"], ours["message"]) == (valid, cost, message)
    try:
        assert _up_verdict(d, p, plan)[0] == valid  # unified-planning agrees
    except ImportError:
        pass


@pytest.mark.parametrize("steps,valid", [
    (["flip l1", "touch l1", "flip l2"], True),  # touch of a lit lamp under the master
    (["flip l1", "unmaster", "touch l1", "flip l2"], False),  # ... without it
])
def test_a_variant_that_changes_nothing_is_a_step_of_its_action(cli, tmp_path, steps, valid):
    """``touch``'s second disjunct (the lamp lit, the master on) changes nothing, its first
    (the lamp off) lights it: one action, playable where either holds."""
    pytest.importorskip("fast_downward.translate")
    d, p = cases.write(tmp_path, cases.LAMPS_DOMAIN, cases.LAMPS_PROBLEM)
    plan = tmp_path / "plan"
    plan.write_text("".join(f"({s})\n" for s in steps))
    ours = json.loads(cli("validate", d, p, plan, "--json").out)
    if valid:
        assert (ours["valid"], ours["cost"]) == (True, len(steps))
    else:
        assert (ours["valid"], ours["step"]) == (False, 3)


@pytest.mark.parametrize("count", [1, 3, 4])
def test_a_model_with_other_than_one_answer_gets_the_usage_line(cli, tmp_path, count):
    """Three files are a PDDL pair and a plan; after a TOML model they are a usage error."""
    plan = tmp_path / "plan.txt"
    plan.write_text("fill the 5 L jug\n")
    model = next(p for p in bundled() if p.stem == "water_jugs")
    for flags in ((), ("--json",)):
        out = cli("validate", model, *[plan] * (count - 1), *flags)
        assert out.code == 2 and "MODEL ANSWER" in out.err and out.err.count("\n") == 1
        if flags:
            assert json.loads(out.out)["exit"] == 2


def test_a_grid_with_one_wrong_cell_says_which(cli, tmp_path):
    """Eight rows are right; the ninth's last cell is 0, which is not a symbol: the message
    names that row and cell (not "found 0 such rows")."""
    solved = json.loads(cli("solve", "sudoku_inkala", "--json").out)
    rows = [row.split() for row in solved["solution"]]
    rows[8][8] = "0"
    answer = tmp_path / "grid.txt"
    answer.write_text("\n".join(" ".join(row) for row in rows) + "\n")
    run = cli("validate", "sudoku_inkala", answer)
    assert run.code == 2 and len(run.err_lines) == 1, run.err
    assert "row 9, column 9: '0' is not one of them" in run.err


def test_a_drawing_of_the_wrong_length_shows_the_form_expected(cli, tmp_path):
    """``m = [0, 1, 4, 10, 12, 17]`` is not golomb6's drawing (``marks {m}``): the message
    counts both in plain grammar and shows what the template draws."""
    answer = tmp_path / "gol.txt"
    answer.write_text("m = [0, 1, 4, 10, 12, 17]\n")
    run = cli("validate", "golomb6", answer)
    assert run.code == 2 and len(run.err_lines) == 1, run.err
    assert "the drawing has 8 items where the model's show template draws 7: " \
        "marks <m[0]> <m[1]> <m[2]> <m[3]> <m[4]> <m[5]>" in run.err


LATIN = 'family = "grid"\nname = "Latin square"\nsize = 4\nsymbols = "ABCD"\n'


def test_a_grid_message_names_cells_and_values_as_the_board_shows_them(cli, tmp_path):
    """Column 3 reads C, D, A, A: its cells r3c3 and r4c3 (counted from 1, as "column 3"
    is) are both A, the symbol written, not the value 1 behind it; rows 1 to 4 hold each
    symbol once, so the column is the first group broken."""
    model, grid = tmp_path / "latin.toml", tmp_path / "grid.txt"
    model.write_text(LATIN)
    grid.write_text("A B C D\nB A D C\nC D A B\nD C A B\n")
    out = cli("validate", model, grid)
    assert out.code == 1
    assert out.out.strip() == "invalid: column 3: r3c3 and r4c3 are both A (text)"


def test_a_grid_constraint_and_given_name_cells_and_symbols(cli, tmp_path):
    """A given (r1c1 is B) and a constraint over cells are said with cell names and
    symbols: the board's r1c1 holds A."""
    model, grid = tmp_path / "latin.toml", tmp_path / "grid.txt"
    model.write_text(LATIN + 'givens = """\nB . . .\n. . . .\n. . . .\n. . . .\n"""\n')
    grid.write_text("A B C D\nB A D C\nC D A B\nD C B A\n")
    verdict = json.loads(cli("validate", model, grid, "--json").out)
    assert verdict["message"] == "given: r1c1 == B is false"
    model.write_text(LATIN + 'constraints = ["cell[0][0] == 2 or cell[0][1] > cell[0][2]"]\n')
    verdict = json.loads(cli("validate", model, grid, "--json").out)
    assert verdict["message"] == "r1c1 == B or r1c2 > r1c3 is false"


def test_labelled_values_are_said_as_their_labels(cli, tmp_path):
    """A csp's constraint and a transition's guard say a labelled value by its label."""
    model, answer = tmp_path / "c.toml", tmp_path / "a.json"
    model.write_text('family = "csp"\nconstraints = ["x == 2"]\n[variables]\nx = [0, 2]\n'
                     '[labels]\nx = ["red", "green", "blue"]\n')
    answer.write_text('{"x": 0}')
    verdict = json.loads(cli("validate", model, answer, "--json").out)
    assert verdict["message"] == "x == blue is false"
    model.write_text('family = "transition"\ngoal = "side == 1"\n[variables]\nside = [0, 1]\n'
                     '[initial]\nside = 0\n[labels]\nside = ["left", "right"]\n'
                     '[[actions]]\nname = "cross"\nguard = "side == 0"\neffects = { side = "1" }\n')
    answer.write_text('["cross", "cross"]')
    verdict = json.loads(cli("validate", model, answer, "--json").out)
    assert verdict["message"] == "step 2 (cross) cannot be played: its guard needs side == left"


def test_a_sokoban_step_into_a_box_says_what_its_guard_needs_on_the_map(cli, tmp_path):
    """u takes the player from r4c5 to r3c5; the walk l runs into the box on r3c4: the
    guard is said in the map's cells, not as player == 8 and box[7] == 0."""
    model, plan = tmp_path / "s.toml", tmp_path / "plan.txt"
    model.write_text('family = "sokoban"\nboard = """\n#######\n#.    #\n# $$  #\n'
                     '#.  @ #\n#######\n"""\n')
    plan.write_text("ulLrdLL\n")
    out = cli("validate", model, plan)
    assert out.code == 1
    assert " ".join(out.out.split()) == ("invalid: step 2 (walk left from r3c5) cannot be "
                                         "played: its guard needs no box on r3c4 (LURD)")


JUG = """family = "transition"
name = "Ein Krug"
goal = "jug[0] == 2"
show = "großer Krug: {jug[0]} L"

[variables]
jug = { size = 1, domain = [0, 3] }

[initial]
jug = [0]

[[actions]]
name = "fülle einen Liter nach"
guard = "jug[0] < 3"
effects = { "jug[0]" = "jug[0] + 1" }
"""


@pytest.mark.parametrize("encoding, code", [("latin-1", 0), ("utf-8", 2)])
def test_cpsolves_own_output_in_the_consoles_encoding_is_read_back(cli_subprocess, tmp_path,
                                                                   encoding, code):
    """``solve`` writes its plan in the console's encoding (Latin-1: ``ü`` is byte 0xfc);
    ``validate`` under the same console reads it back.  A UTF-8 console refuses the same
    bytes: they are not UTF-8 text (one line, exit 2)."""
    model = tmp_path / "jug.toml"
    model.write_text(JUG, encoding="utf-8")
    latin = {"PYTHONIOENCODING": "latin-1"}
    solved = cli_subprocess("solve", model, "--engine", "search", env=latin)
    assert solved.code == 0, solved.err
    raw = solved.out.encode("utf-8", "surrogateescape")
    assert "fülle".encode("latin-1") in raw
    answer = tmp_path / "answer.txt"
    answer.write_bytes(raw)
    checked = cli_subprocess("validate", model, answer, env={"PYTHONIOENCODING": encoding})
    assert checked.code == code, checked.err
    if code == 0:
        assert checked.out.startswith("valid: a plan of 2 steps")
    else:
        assert "not UTF-8 text" in checked.err and len(checked.err.splitlines()) == 1


def _plan_file(tmp_path: Path) -> Path:
    """A water-jugs plan (legal steps that miss the goal): checking it is work to cut."""
    plan = tmp_path / "plan.txt"
    plan.write_text("fill the 5 L jug\nempty the 5 L jug\n" * 50)
    return plan


@pytest.mark.parametrize("sig,step", [
    ("SIGINT", "replay"), ("SIGTERM", "replay"), ("SIGINT", "read_text"),
    ("SIGTERM", "read_answer")])
def test_a_signal_while_the_answer_is_read_or_checked_ends_the_command(
        cli, tmp_path, monkeypatch, sig, step):
    """Checking an answer has nothing to keep (a plan of a million steps takes long): a
    Ctrl-C or SIGTERM while it is read, parsed or replayed ends the command there, exit 130
    and the error object saying what was under way — not the verdict once it is reached."""
    import os
    import signal

    import cpsolve.cli.validate as validate

    real = getattr(validate, step)

    def signalled(*args, **kwargs):
        os.kill(os.getpid(), getattr(signal, sig))
        return real(*args, **kwargs)

    monkeypatch.setattr(validate, step, signalled)
    plan = _plan_file(tmp_path)
    run = cli("validate", "water_jugs", plan, "--json")
    assert run.code == 130
    data = json.loads(run.out)
    assert (data["status"], data["exit"]) == ("error", 130)
    assert data["error"] == f"interrupted while checking {plan}"


def test_the_time_limit_holds_while_the_answer_is_checked(cli, tmp_path, late_alarm):
    """``--time-limit`` covers checking the answer too: at the limit the command ends with
    the error object saying so (exit 1)."""
    late_alarm("cpsolve.cli.validate.replay")
    plan = _plan_file(tmp_path)
    run = cli("validate", "water_jugs", plan, "--json", "--time-limit", "600")
    assert run.code == 1
    assert json.loads(run.out)["error"] == \
        f"the time limit (600 s) was reached while checking {plan}"


def test_a_plan_of_action_names_is_matched_by_name_without_playing_it(monkeypatch):
    """Each step names one action: matched in one pass that evaluates nothing (the
    checker's replay plays the plan once); matching each step in its state evaluated
    every action's guard at every step and drew every applicable one."""
    from cpsolve.answers.read import PlanAnswer
    from cpsolve.cli import validate as command

    jugs = load(next(p for p in bundled() if p.stem == "water_jugs"))
    evaluated = []
    monkeypatch.setattr(command, "evaluate", lambda *args: evaluated.append(args) or 0)
    names = ("fill the 5 L jug", "empty  the 5 L jug") * 1000  # spacing as written
    resolved, playable = command._resolved(jugs, jugs.model, PlanAnswer(names, "action names"))
    assert resolved == ["fill the 5 L jug", "empty the 5 L jug"] * 1000
    assert playable == [] and evaluated == []
