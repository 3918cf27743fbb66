"""Model files: the bundled ones load into the expected models; broken ones are refused well."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsolve.language.interpret import evaluate
from cpsolve.model import AllDifferent, Condition, Csp, Planning
from cpsolve.model.pins import goal_state
from cpsolve.puzzles import FAMILIES
from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import bundled, load, resolve

MODELS = Path(__file__).resolve().parents[2] / "models"
BUNDLED = sorted(MODELS.glob("*.toml"))

# The 9x9 sudoku of docs/design.md, written as there (rows of 9, "." for empty).
INKALA_ROWS = ["..53.....", "8......2.", ".7..1.5..", "4....53..", ".1..7...6",
               "..32...8.", ".6.5....9", "..4....3.", ".....97.."]


def inkala_givens() -> dict[tuple[int, int], int]:
    return {(r, c): int(ch) for r, row in enumerate(INKALA_ROWS)
            for c, ch in enumerate(row) if ch != "."}


# ------------------------------------------------------------ bundled files


def test_bundled_lists_every_file_in_models():
    assert BUNDLED, "no model files found"
    assert [p.resolve() for p in bundled()] == [p.resolve() for p in BUNDLED]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_every_bundled_file_loads(path):
    puzzle = load(path)
    assert puzzle.name
    assert puzzle.family in FAMILIES
    assert isinstance(puzzle, FAMILIES[puzzle.family].puzzle)
    assert puzzle.model.kind == FAMILIES[puzzle.family].kind
    assert isinstance(puzzle.model, (Csp, Planning))
    if isinstance(puzzle.model, Planning):
        puzzle.model.validate()


EXAMPLES = sorted((MODELS.parent / "examples").glob("*.toml")) + sorted(
    (MODELS.parent / "examples").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_model_loads(path):
    puzzle = load(path)
    assert isinstance(puzzle.model, (Csp, Planning))


def test_water_jugs_model():
    model = load(MODELS / "water_jugs.toml").model
    assert isinstance(model, Planning)
    assert model.names == ["jug[0]", "jug[1]"]
    assert model.domain("jug[0]") == (0, 8) and model.domain("jug[1]") == (0, 8)
    assert model.initial_state() == (0, 0)
    # fill x2, empty x2, pour 0->1 and 1->0 ("where i != j" drops pouring into itself)
    assert {a.name for a in model.actions} == {
        "fill the 8 L jug", "fill the 5 L jug", "empty the 8 L jug", "empty the 5 L jug",
        "pour the 8 L jug into the 5 L jug", "pour the 5 L jug into the 8 L jug",
    }
    assert model.unit_costs()

    def goal(a: int, b: int) -> int:
        return evaluate(model.goal, {"jug[0]": a, "jug[1]": b})

    assert goal(4, 0) and goal(0, 4) and goal(4, 4)
    assert not goal(3, 5) and not goal(0, 0)
    assert goal_state(model) is None  # a disjunction pins nothing


def test_water_jugs_pour_effects():
    """Pouring 7 L into the empty 5 L jug moves 5 L; pouring 3 L into it moves 3 L."""
    model = load(MODELS / "water_jugs.toml").model
    pour = next(a for a in model.actions if a.name == "pour the 8 L jug into the 5 L jug")
    effects = dict(pour.effects)
    for before, after in [((7, 0), (2, 5)), ((3, 0), (0, 3)), ((8, 4), (7, 5))]:
        env = {"jug[0]": before[0], "jug[1]": before[1]}
        assert evaluate(pour.guard, env)
        assert (evaluate(effects["jug[0]"], env), evaluate(effects["jug[1]"], env)) == after
    assert not evaluate(pour.guard, {"jug[0]": 3, "jug[1]": 5})  # target full
    assert not evaluate(pour.guard, {"jug[0]": 0, "jug[1]": 2})  # source empty


def test_blocks_model():
    puzzle = load(MODELS / "blocks.toml")
    model = puzzle.model
    assert isinstance(model, Planning)
    assert model.initial_state() == (1, 2, 3)  # red on blue, blue on green, green on x
    assert goal_state(model) == (1, 2, 5)  # the same stack on z
    names = {a.name for a in model.actions}
    assert len(names) == 3 * 6 - 3  # every block onto every other object
    assert {"put red on y", "put green on z", "put blue on red"} <= names
    assert "put red on red" not in names
    assert puzzle.render_state((1, 2, 5)) == "red on blue, blue on green, green on z"


def test_water_jugs_show_template():
    puzzle = load(MODELS / "water_jugs.toml")
    assert puzzle.render_state((3, 5)) == "8 L jug: 3 L   5 L jug: 5 L"


def test_xsudoku5_model():
    model = load(MODELS / "xsudoku5.toml").model
    assert isinstance(model, Csp)
    assert len(model.names) == 25
    assert all(tuple(model.values(n)) == (1, 2, 3, 4, 5) for n in model.names)
    groups = [c for c in model.constraints if isinstance(c, AllDifferent)]
    labels = {g.label for g in groups}
    assert labels == ({f"row {i}" for i in range(1, 6)} | {f"column {i}" for i in range(1, 6)}
                      | {"main diagonal", "anti-diagonal"})
    diag = next(g for g in groups if g.label == "main diagonal")
    anti = next(g for g in groups if g.label == "anti-diagonal")
    assert diag.names == tuple(f"cell[{i}][{i}]" for i in range(5))
    assert set(anti.names) == {f"cell[{i}][{4 - i}]" for i in range(5)}
    assert not [c for c in model.constraints if isinstance(c, Condition)]  # no givens


def test_sudoku_inkala_model_matches_design():
    puzzle = load(MODELS / "sudoku_inkala.toml")
    model = puzzle.model
    assert isinstance(model, Csp)
    assert len(model.names) == 81
    groups = [c for c in model.constraints if isinstance(c, AllDifferent)]
    assert len(groups) == 27  # 9 rows, 9 columns, 9 boxes
    box5 = next(g for g in groups if g.label == "box 5")
    assert set(box5.names) == {f"cell[{r}][{c}]" for r in (3, 4, 5) for c in (3, 4, 5)}
    expected = inkala_givens()
    assert len(expected) == 23
    assert puzzle.givens == expected
    givens = [c for c in model.constraints if isinstance(c, Condition) and c.label == "given"]
    assert len(givens) == 23


def test_compact_grid_picture_reads_like_the_spaced_one(write_model):
    text = ('family = "grid"\nsize = 9\ngroups = ["rows", "columns", "boxes"]\nbox = [3, 3]\n'
            'givens = """\n' + "\n".join(INKALA_ROWS) + '\n"""\n')
    puzzle = load(write_model("compact.toml", text))
    assert puzzle.givens == inkala_givens()


def test_grid_symbols(write_model):
    text = ('family = "grid"\nsize = 3\nsymbols = "ABC"\n'
            'givens = """\nA . .\n. . C\n. . .\n"""\n')
    puzzle = load(write_model("abc.toml", text))
    assert puzzle.givens == {(0, 0): 1, (1, 2): 3}
    solution = {f"cell[{r}][{c}]": (r + c) % 3 + 1 for r in range(3) for c in range(3)}
    assert puzzle.json_solution(solution) == ["A B C", "B C A", "C A B"]


def test_contradictory_givens_are_a_puzzle_not_a_file_error(write_model):
    """Two 1s in a row make the puzzle infeasible; that is for the engines to prove."""
    text = 'family = "grid"\nsize = 3\ngivens = """\n1 1 .\n. . .\n. . .\n"""\n'
    assert isinstance(load(write_model("two_ones.toml", text)).model, Csp)


def test_resolve():
    assert resolve("water_jugs").resolve() == (MODELS / "water_jugs.toml").resolve()
    assert resolve("no_such_model") == Path("no_such_model")
    assert resolve("somewhere/x.toml") == Path("somewhere/x.toml")


# ------------------------------------------------------------ broken files


def test_bad_model_file_is_refused(bad_model):
    with pytest.raises(ModelFileError) as info:
        load(bad_model.path)
    message = str(info.value)
    assert info.value.path == str(bad_model.path)
    assert message.startswith(str(bad_model.path) + ": ")
    for fragment in bad_model.fragments:
        assert fragment in message, (fragment, message)


def test_model_file_error_names_the_key(write_model):
    path = write_model("m.toml", 'family = "grid"\nsize = 50\n')
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert info.value.key == "size"
    assert str(info.value) == f"{path}: size: {info.value.message}"


@pytest.mark.parametrize("where, text", [
    ("actions[0].params.k", 'params = { k = "range(nn)" }'),
    ("actions[0].where", 'params = { k = "range(3)" }\nwhere = "k < nn"'),
])
def test_an_unknown_name_in_a_parameter_lists_no_state_variable(write_model, where, text):
    path = write_model("m.toml", 'family = "transition"\ngoal = "x == 3"\n'
                       '[constants]\nn = 3\n[variables]\nx = [0, 5]\n[initial]\nx = 0\n'
                       f'[[actions]]\nname = "add {{k}}"\n{text}\neffects = {{ x = "x + k" }}\n')
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert info.value.key == where and "unknown name 'nn'" in info.value.message
    known = info.value.message.split("(known: ")[1]
    assert "x" not in known.split(";")[0] and "n" in known.split(";")[0], info.value.message


# Found while writing these tests: three ways a file still escapes as a traceback.


def test_bad_show_template_is_a_model_file_error(write_model, water_jugs_text):
    path = write_model("m.toml", water_jugs_text.replace(
        'show = "8 L jug: {jug[0]} L   5 L jug: {jug[1]} L"', 'show = "{jug[0]} L and {jog} L"'))
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert info.value.key == "show" and "jog" in str(info.value)


def test_labels_of_wrong_type_is_a_model_file_error(write_model, water_jugs_text):
    path = write_model("m.toml", water_jugs_text.replace(
        '[labels]\ni = ["8 L", "5 L"]\nj = ["8 L", "5 L"]\n', "").replace(
        "[constants]", "labels = 5\n[constants]"))
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert info.value.key == "labels"


def test_bad_action_name_placeholder_is_a_model_file_error(write_model, water_jugs_text):
    path = write_model("m.toml", water_jugs_text.replace("fill the {i} jug",
                                                           "fill the {i[0]} jug"))
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert info.value.key == "actions[0].name"  # 0-based, as constraints[0]


def test_rows_of_dashes_are_empty_rows(write_model):
    text = ('family = "grid"\nsize = 5\n'
            'givens = """\n1 2 3 4 5\n- - - - -\n- - 1 - -\n- - - - -\n- - - - -\n"""\n')
    puzzle = load(write_model("dashes.toml", text))
    assert puzzle.givens == {**{(0, c): c + 1 for c in range(5)}, (2, 2): 1}


def test_the_families_never_import_the_file_loader():
    """files imports the registry in cpsolve.puzzles; the other way would be a cycle."""
    import ast

    puzzles = Path(__file__).resolve().parents[2] / "cpsolve" / "puzzles"
    for path in sorted(puzzles.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert module != "files" and "cpsolve.puzzles.files" not in module, \
                    path.name


def test_array_entries_are_named_by_their_toml_index_from_0(write_model, water_jugs_text):
    """Every family names the n-th entry of an array ``name[n - 1]``, as TOML indexes it:
    the third [[actions]] table is actions[2], as the first constraint is constraints[0]."""
    pour = water_jugs_text.replace('guard = "jug[i] > 0 and', 'guard = "jog[i] > 0 and')
    with pytest.raises(ModelFileError) as info:
        load(write_model("pour.toml", pour))
    assert info.value.key == "actions[2].guard"
    csp = 'family = "csp"\nconstraints = ["x + y == 1"]\n[variables]\nx = [0, 1]\n'
    with pytest.raises(ModelFileError) as info:
        load(write_model("csp.toml", csp))
    assert info.value.key == "constraints[0]"


DEBT = """family = "csp"
name = "debt"
minimize = "x[0] + 2 * x[1]"
constraints = ["x[0] != x[1]"]
[variables]
x = { size = 2, domain = [-3, 2] }
[expected]
KEY = VALUE
"""


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_an_expected_objective_may_be_negative(cli, write_model, engine):
    """x[0] + 2 x[1] over -3..2 with x[0] != x[1]: x[1] = -3 gives -6, and x[0] is then
    at lowest -2 (not -3): -8; x[1] = -2 gives -4 + -3 = -7, and more is larger.  So -8."""
    path = write_model("d.toml", DEBT.replace("KEY", "objective").replace("VALUE", "-8"))
    assert load(path).expected == {"objective": -8}
    run = cli("solve", path, "--engine", engine)
    assert run.code == 0 and "objective -8" in run.out and "warning" not in run.err, run.err
    wrong = write_model("w.toml", DEBT.replace("KEY", "objective").replace("VALUE", "-9"))
    assert "warning: the model's [expected] says objective = -9; this run found -8" in \
        cli("solve", wrong, "--engine", engine).err


@pytest.mark.parametrize("key", ["steps", "cost", "count", "classes", "states"])
def test_the_other_expected_numbers_must_not_be_negative(write_model, key):
    path = write_model("n.toml", DEBT.replace("KEY", key).replace("VALUE", "-1"))
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert str(info.value) == f"{path}: expected.{key}: must be >= 0, got -1"


# ------------------------------------------------------------ a model's code ending the process


@pytest.mark.parametrize("source, said", [
    ("import os\ndef build(): os._exit(0)\n",
     "osexit.py:2: build: build() calls os._exit(0) instead of returning a model"),
    ("import os\nos._exit(3)\n", "osexit.py:2: the file calls os._exit(3) instead of defining "
     "build()"),
    ("import os\ndef build():\n    os.abort()\n",
     "osexit.py:3: build: build() calls os.abort() instead of returning a model"),
    ("import posix\ndef build(): posix._exit(0)\n",  # the same function, by its own module
     "osexit.py:2: build: build() calls os._exit(0) instead of returning a model"),
])
def test_a_model_that_ends_the_process_is_a_bad_file(cli_subprocess, tmp_path, source, said):
    """Not cpsolve's process ending with it (exit 0 or a core dump, nothing said): one
    line and the JSON error, exit 2, as for ``sys.exit`` (in a process of its own: before
    the fix this one would have ended)."""
    model = tmp_path / "osexit.py"
    model.write_text(source)
    run = cli_subprocess("solve", model, "--json")
    assert run.code == 2, (run.out, run.err)
    assert run.err_lines == [f"error: {tmp_path / said}"]
    assert json.loads(run.out)["error"] == str(tmp_path / said)


def test_the_process_ending_calls_come_back_after_the_model():
    import os

    from cpsolve.puzzles.files import ProcessEnd, process_kept

    real = os._exit, os.abort
    with pytest.raises(ProcessEnd, match=r"^os\._exit\(0\)$"), process_kept():
        os._exit(0)
    assert (os._exit, os.abort) == real


QUEENS4 = '''
from cpsolve import Csp


def build():
    csp = Csp("4 queens")
    q = [csp.add_variable(f"q[{i}]", 0, 3) for i in range(4)]
    csp.all_different(q)
    for i in range(4):
        for j in range(i + 1, 4):
            csp.require(q[i] - q[j] != i - j)
            csp.require(q[i] - q[j] != j - i)
    return csp
'''


@pytest.mark.parametrize("prelude", [  # (fork is refused: tests/puzzles/test_user_code.py)
    "import threading, time\n\ndef spam():\n    for i in range(40):\n"
    "        print('SPAM', i, flush=True)\n        time.sleep(0.02)\n\n"
    "threading.Thread(target=spam, daemon=True).start()\n",  # prints on, after the load
])
def test_what_a_models_code_starts_never_adds_to_the_json(cli_subprocess, tmp_path, prelude):
    """``--json`` is one document whatever a model's code leaves behind: a thread's later
    prints go to stderr.  4 queens: 2 solutions (the two mirror images)."""
    model = tmp_path / "queens4.py"
    model.write_text(prelude + QUEENS4)
    run = cli_subprocess("count", model, "--engine", "search", "--json")
    assert run.code == 0, (run.out, run.err)
    assert len(run.out.strip().splitlines()) == 1, run.out
    assert json.loads(run.out)["count"] == 2


@pytest.mark.parametrize("source, said", [
    ("def build(n):\n    return None\n",
     "needsarg.py:1: build: build() must take no arguments (it asks for n)"),
    ("x = 1\n\n\ndef build(size, *, seed):\n    return None\n",
     "needsarg.py:4: build: build() must take no arguments (it asks for size, seed)"),
])
def test_a_build_that_needs_arguments_is_said_at_its_def(tmp_path, source, said):
    # the call's TypeError was raised in cpsolve's code: the line given was 0, no line
    model = tmp_path / "needsarg.py"
    model.write_text(source)
    with pytest.raises(ModelFileError) as info:
        load(model)
    assert str(info.value) == str(tmp_path / said)


def test_a_build_whose_arguments_all_have_defaults_is_called(tmp_path):
    model = tmp_path / "defaults.py"
    model.write_text("from cpsolve import Csp\n\ndef build(n=3, *rest, **named):\n"
                     "    return Csp(f'{n} defaults')\n")
    assert load(model).model.name == "3 defaults"


def test_a_thread_that_takes_an_ended_model_threads_ident_is_not_the_models():
    """``count --list --engine cpsat`` lost its streamed lines to stderr after a Python
    model's thread had ended: the next thread (CP-SAT's callback) was given the same ident,
    and threads were known by their idents."""
    import threading

    from cpsolve.puzzles.files import model_thread, stdout_to_stderr

    go = threading.Event()
    with stdout_to_stderr():  # the model's thread still runs when its load ends
        spawned = threading.Thread(target=go.wait)
        spawned.start()
    ident = spawned.ident
    go.set()
    spawned.join()
    seen: list[tuple[int | None, bool]] = []
    later = threading.Thread(target=lambda: seen.append((threading.get_ident(), model_thread())))
    later.start()
    later.join()
    assert seen[0][1] is False, f"reused ident: {seen[0][0] == ident}"
    assert model_thread() is False


# ------------------------------------------------------------ files of another kind


MINIZINC = "include \"globals.mzn\";\nvar 0..10: x;\nsolve satisfy;\n"
"""The start of a MiniZinc model (what ``export --to minizinc`` writes): no TOML."""


def test_a_file_of_another_kind_is_told_what_cpsolve_reads(tmp_path):
    path = tmp_path / "golomb6.mzn"
    path.write_text(MINIZINC)
    with pytest.raises(ModelFileError) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: not a model file: cpsolve reads .toml and .py models, "
                              "and PDDL as DOMAIN.pddl PROBLEM.pddl (as TOML: ")
    toml = tmp_path / "broken.toml"
    toml.write_text(MINIZINC)
    with pytest.raises(ModelFileError, match="TOML syntax error") as info:
        load(toml)  # a .toml file is a model file: what is wrong is its TOML
    assert "not a model file" not in str(info.value)


def test_a_model_named_otherwise_is_read_as_toml_all_the_same(tmp_path):
    path = tmp_path / "jugs.txt"
    path.write_text((MODELS / "water_jugs.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert isinstance(load(path).model, Planning)


def test_a_python_planning_model_without_a_goal_is_a_bad_file(write_model):
    """Its goal would be "true": solved by 0 moves, optimal, verified — a slip taken for
    an answer; a model file without ``goal`` is refused too."""
    path = write_model("nogoal.py", "from cpsolve import Planning\n"
                       "def build():\n"
                       "    m = Planning('no goal')\n"
                       "    x = m.add_variable('x', 0, 3)\n"
                       "    m.set_initial({'x': 0})\n"
                       "    m.add_action('inc', x < 3, {x: x + 1})\n"
                       "    return m\n")
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert str(info.value) == f"{path}: build: the model has no goal: call " \
        "set_goal(condition), e.g. set_goal(x == 3)"


def test_load_takes_a_bundled_model_s_name_from_any_directory(tmp_path, monkeypatch):
    """``load("water_jugs")`` is the bundled model, as ``cpsolve solve water_jugs`` is, from
    any directory; a file of that name in the current directory comes first."""
    monkeypatch.chdir(tmp_path)
    assert load("water_jugs").model.name == load("water_jugs.toml").model.name
    (tmp_path / "water_jugs").write_text(
        'family = "transition"\nname = "mine"\ngoal = "x == 1"\n[variables]\nx = [0, 1]\n'
        '[initial]\nx = 0\n[[actions]]\nname = "up"\neffects = { x = "1" }\n')
    assert load("water_jugs").model.name == "mine"
