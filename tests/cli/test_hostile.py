"""Hostile input: every bad file or command line gives one line on stderr, exit 2.

Each case names what the one line must mention; none may print a traceback.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cpsolve.language.syntax import MAX_DEPTH
from cpsolve.model import ModelError, format_name

MODELS = Path(__file__).resolve().parents[2] / "models"

TRANSITION = '''family = "transition"
name = "t"
goal = "{goal}"
[variables]
a = [0, 5]
c = {{ size = 2, domain = [0, 5] }}
[initial]
a = 0
c = [0, 0]
[[actions]]
name = "{name}"
params = {{ i = [0, 1] }}
effects = {effects}
'''


def transition(goal: str = "a == 1", name: str = "inc {i}",
               effects: str = '{ "c[i]" = "c[i] + 1" }') -> str:
    """A small transition model with one piece replaced."""
    return TRANSITION.format(goal=goal, name=name, effects=effects)


CASES = {
    "attribute in a name": (transition(name="inc {i.__class__}"), "placeholder"),
    "huge width in a name": (transition(name="inc {i:>1000000000}"), "WIDTH"),
    "conversion in a name": (transition(name="inc {i!r}"), "placeholder"),
    "unknown placeholder": (transition(name="inc {k}"), "names no parameter"),
    "two effects on one variable": (
        transition(effects='{ "c[i]" = "1", "c[0]" = "2" }'), "second effect"),
    "expression too deep": (transition(goal="-" * (MAX_DEPTH + 5) + "a == 1"), "nested"),
    "parentheses too deep": (transition(goal="(" * 300 + "a" + ")" * 300 + " == 1"),
                             "nested"),
    "huge integer": ("family = 'csp'\nx = " + "9" * 5000 + "\n", "out of range"),
    "arrays nested 3000 deep": ("family = 'csp'\nx = " + "[" * 3000 + "]" * 3000 + "\n",
                                "nested"),
    "control characters": ('family = "tr\\u001bansition"\n', "\\x1b"),
    "domain of a billion values": (
        transition().replace("a = [0, 5]", "a = [0, 1_000_000_000]"), "variables.a"),
    "a million variables": (
        transition().replace("size = 2,", "size = 1_000_000,"), "variables.c"),
    "a million ground actions": (
        transition().replace("i = [0, 1]", "i = [0, 1], j = " + str(list(range(1000))),
                             ).replace("i = [0, 1], j", "i = " + str(list(range(1000))) + ", j"),
        "params"),
    "a name that leaves out a parameter": (transition(name="inc"), "put {i} in the name"),
    "negative cost": (transition().replace('effects = {', 'cost = "a - 3"\neffects = {'),
                      "cost"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_file_gives_one_line(cli, tmp_path, case):
    text, fragment = CASES[case]
    path = tmp_path / "m.toml"
    path.write_text(text)
    run = cli("solve", path, "--engine", "search")
    assert run.code == 2, (run.out, run.err)
    assert "Traceback" not in run.err + run.out
    assert len(run.err_lines) == 1 and run.err.startswith("error: "), run.err
    assert fragment in run.err
    assert "\x1b" not in run.err


def test_byte_order_mark_is_accepted(cli, tmp_path):
    path = tmp_path / "jugs.toml"
    path.write_bytes(b"\xef\xbb\xbf" + (MODELS / "water_jugs.toml").read_bytes())
    run = cli("solve", path, "--engine", "search", "--json")
    assert run.code == 0, run.err


@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_special_files_are_refused(cli, tmp_path, target):
    if target == "fifo":
        target = tmp_path / "m.toml"
        os.mkfifo(target)
    run = cli("solve", target)
    assert run.code == 2 and "not a regular file" in run.err


@pytest.mark.parametrize("argv", [
    ("count", "xsudoku5.toml", "--limit", "0"),
    ("solve", "water_jugs.toml", "--time-limit", "nan"),
    ("solve", "water_jugs.toml", "--time-limit", "-1"),
    ("solve", "water_jugs.toml", "--time-limit", "0"),
    ("solve", "water_jugs.toml", "--memory-limit", "0"),
    ("solve", "water_jugs.toml", "--memory-limit", "nan"),
    ("analyze", "eight_puzzle.toml", "--memory-limit", "-1G"),
    ("count", "xsudoku5.toml", "--memory-limit", "nanT"),  # 1e999T is no limit, as inf s is
    ("generate", "xsudoku5.toml", "--givens", "4", "--random", "-1"),
    ("generate", "water_jugs.toml", "--givens", "3"),
    ("count", "water_jugs.toml", "--up-to", "symmetry"),
    ("analyze", "xsudoku5.toml", "--limit", "-5"),
])
def test_bad_command_line_gives_one_line(cli, argv):
    run = cli(argv[0], MODELS / argv[1], *argv[2:])
    assert run.code == 2, (run.out, run.err)
    assert len(run.err_lines) == 1 and run.err.startswith("error: "), run.err
    assert "Traceback" not in run.err


@pytest.mark.parametrize("source, line, kind", [
    ("def build():\n    return 1 / 0\n", 2, "ZeroDivisionError"),
    ("def build(:\n", 1, "SyntaxError"),
    ("x = 1\ny = undefined_name\n", 2, "NameError"),
])
def test_python_model_errors_name_the_line(cli, tmp_path, source, line, kind):
    path = tmp_path / "user.py"
    path.write_text(source)
    run = cli("solve", path)
    assert run.code == 2 and f"user.py:{line}:" in run.err and kind in run.err
    assert len(run.err_lines) == 1


def test_format_name_allows_plain_fields_and_small_widths():
    assert format_name("pour {i} into {j:2}", {"i": 1, "j": 2}) == "pour 1 into  2"
    for bad in ("{i.real}", "{i[0]}", "{i!s}", "{i:>999}", "{k}", "{"):
        with pytest.raises(ModelError):
            format_name(bad, {"i": 1})


@pytest.mark.parametrize("argv", [
    ["solve", str(MODELS / "eight_puzzle.toml"), "--engine", "search"],
    ["solve", str(MODELS / "water_jugs.toml")],  # auto: rich's own closed-pipe exit was 1
    ["compare", str(MODELS / "water_jugs.toml")],
    ["count", str(MODELS / "queens8.toml"), "--list"],
    ["solve", str(MODELS / "water_jugs.toml"), str(MODELS / "farmer.toml"), "--json"],
])
def test_a_closed_pipe_is_quiet_and_ends_well(argv):
    """``cpsolve ... | head``: the reader had what it wanted, so exit 0 and nothing on
    stderr, whichever command and engine printed."""
    import shlex
    import subprocess
    import sys

    cmd = (f"{shlex.join([sys.executable, '-m', 'cpsolve', *argv])} | head -n 1 >/dev/null; "
           "exit ${PIPESTATUS[0]}")
    done = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert done.stderr == "" and done.returncode == 0, (done.returncode, done.stderr)


def test_a_batch_with_a_bad_file_into_a_closed_pipe_keeps_its_error_and_exit(tmp_path):
    """``solve bad.toml good.toml --json | head -1``: the reader has gone after the bad
    file's row, but the file was still bad: its line on stderr and exit 2, not 0."""
    import shlex
    import subprocess
    import sys

    bad = tmp_path / "trunc.toml"
    bad.write_text('family = "transition\n')
    argv = ["solve", str(bad), str(MODELS / "water_jugs.toml"), "--engine", "search", "--json"]
    cmd = (f"{shlex.join([sys.executable, '-m', 'cpsolve', *argv])} | head -n 1 >/dev/null; "
           "exit ${PIPESTATUS[0]}")
    done = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.splitlines() == [line for line in done.stderr.splitlines()
                                        if line.startswith(f"error: {bad}: TOML syntax")]
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(("command", "table", "code"), [
    ("solve", "batch_row", 2),  # a bad file: exit 2, as with --json
    ("compare", "comparison_table", 1),  # compare's own rule: a bad file is exit 1
])
def test_a_text_batch_whose_reader_goes_at_its_table_keeps_its_error_and_exit(
        cli, monkeypatch, tmp_path, command, table, code):
    """In text a batch writes its rows as they come (``compare`` its table at the end):
    when the reader (``| head -1``) has gone by then, the bad file still gets its line on
    stderr and the exit is the work's, not the 0 of a closed pipe."""
    import sys

    from cpsolve.output import text

    stdout = GoneAfter(10**6)
    made = getattr(text, table)

    def gone(*rows):  # the reader goes as the table is made: its writes find it gone
        stdout.left = 0
        return made(*rows)

    monkeypatch.setattr(text, table, gone)
    monkeypatch.setattr(sys, "stdout", stdout)
    bad = tmp_path / "bad.toml"
    bad.write_text('family = "csp"\nname = broken\n')
    extra = ["--engine", "search"] if command == "solve" else []
    run = cli(command, bad, MODELS / "water_jugs.toml", *extra)
    assert run.code == code
    assert [line for line in run.err.splitlines() if line.startswith("error:")] == [
        line for line in run.err.splitlines() if line.startswith(f"error: {bad}: TOML")]
    assert len([line for line in run.err.splitlines() if line.startswith("error:")]) == 1


def test_compare_tells_each_bad_file_on_stderr(cli, tmp_path):
    """A file that did not load is a row of the table and, as in ``solve``, one line on
    stderr naming it (exit 1: compare's rule for a bad file among good ones)."""
    bad = tmp_path / "bad.toml"
    bad.write_text('family = "csp"\nname = broken\n')
    run = cli("compare", bad, MODELS / "water_jugs.toml")
    assert run.code == 1
    errors = [line for line in run.err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {bad}: TOML syntax error")


def test_a_batch_stops_when_its_reader_has_gone(monkeypatch, tmp_path):
    """The batch looks at stdout between its instances' steps: a pipe whose reader has
    gone asks every engine to stop (the instance under way ends at its next look)."""
    import os
    import time

    from cpsolve.cli import printer
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.stop import Stop

    read, write = os.pipe()
    saved = os.dup(1)
    monkeypatch.setattr(printer, "READER_LOOK", 0.01)
    interrupt.clear()
    try:
        os.dup2(write, 1)
        with printer.watch_reader():
            assert not interrupt.requested()
            os.close(read)  # the reader goes
            for _ in range(500):  # until the watcher has looked (at most 10 s)
                if interrupt.requested():
                    break
                time.sleep(0.02)
            assert interrupt.requested() and interrupt.kind() is Stop.GONE
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(write)
        interrupt.clear()


def _counting_solves(monkeypatch) -> list[str]:
    """The sources of the batch instances solved, in order (each then solved as before),
    with what stdout held when each started."""
    import sys

    from cpsolve.workflows.batch import solving

    solved: list[str] = []
    real = solving.solve_one

    def solve_one(item, engine, options):
        solved.append((item.source, getattr(sys.stdout, "getvalue", lambda: "")()))
        return real(item, engine, options)

    monkeypatch.setattr(solving, "solve_one", solve_one)
    return solved


def test_a_text_batch_prints_each_row_as_its_instance_is_solved(cli, monkeypatch):
    """The headers before the first instance starts, each row before the next starts:
    ``| head`` sees rows while the batch runs, as with ``--json``."""
    solved = _counting_solves(monkeypatch)
    run = cli("solve", "water_jugs", "blocks", "hanoi4", "--engine", "search")
    assert run.code == 0 and [source for source, _ in solved] == ["water_jugs", "blocks",
                                                                 "hanoi4"]
    before = [out.splitlines() for _, out in solved]
    assert [len(lines) for lines in before] == [1, 2, 3]  # the headers, then one row each
    assert before[0][0].split() == ["instance", "engine", "status", "answer", "seconds",
                                    "check"]
    assert [lines[-1].split()[0] for lines in before[1:]] == ["water_jugs", "blocks"]


class GoneAfter:
    """A stdout whose reader goes after ``writes`` writes (``| head``)."""

    encoding = "utf-8"

    def __init__(self, writes: int) -> None:
        self.left = writes

    def write(self, text: str) -> int:
        if self.left == 0:
            raise BrokenPipeError
        self.left -= 1
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def test_a_text_batch_whose_reader_goes_after_a_row_solves_no_more(cli, monkeypatch):
    """The reader takes the headers and one row and goes: the second row finds it gone,
    and no instance after it starts (exit 0, quiet: the reader had what it wanted)."""
    import sys

    solved = _counting_solves(monkeypatch)
    monkeypatch.setattr(sys, "stdout", GoneAfter(2))
    run = cli("solve", "water_jugs", "blocks", "hanoi4", "farmer", "--engine", "search")
    assert (run.code, run.err) == (0, "")
    assert [source for source, _ in solved] == ["water_jugs", "blocks"]


# ------------------------------------------------------------ conveniences


def test_bundled_models_by_name_from_any_directory(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("water_jugs", "water_jugs.toml", "models/water_jugs.toml"):
        run = cli("solve", name, "--engine", "search")
        assert run.code == 0 and "10" in run.out, (name, run.err)


def test_models_json_lists_every_bundled_file(cli):
    import json

    listed = json.loads(cli("models", "--json").out)["models"]
    assert sorted(m["file"] for m in listed) == sorted(p.name for p in MODELS.glob("*.toml"))
    assert all("error" not in m for m in listed)


def test_the_wheel_ships_the_bundled_models(tmp_path):
    import subprocess
    import sys
    import zipfile

    root = MODELS.parent
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path,
                    root], check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("cpsolve-*.whl")
    shipped = {n.rsplit("/", 1)[1] for n in zipfile.ZipFile(wheel).namelist()
               if n.startswith("cpsolve/models/")}
    assert shipped == {p.name for p in MODELS.glob("*.toml")}


def test_analyze_says_how_far_a_layer_overran_the_state_limit(cli):
    out = json.loads(cli("analyze", "english33", "--limit", "200000", "--json").out)
    assert out["status"] == "partial"
    over = out["states"] - 200_000
    assert over <= 0 or f"{over:,} past it" in out["message"]


def test_bidirectional_search_counts_the_states_of_one_side(cli, tmp_path):
    path = tmp_path / "stuck.toml"
    path.write_text('family = "transition"\nname = "stuck"\ngoal = "a == 1"\n[variables]\n'
                    'a = [0, 1]\n[initial]\na = 0\n[[actions]]\nname = "never"\n'
                    'guard = "a == 2 - 2 and a == 1"\neffects = { a = "a + 1" }\n')
    # (a + 1, not 1: a constant change would let an invariant answer before the search)
    out = json.loads(cli("solve", path, "--engine", "search", "--algorithm", "bidir",
                         "--json").out)
    assert out["status"] == "infeasible"
    assert "the 1 state reachable from the start explored" in out["message"]  # not "all 1"


def test_algorithm_selects_the_search_engine_or_is_refused(cli):
    run = cli("solve", "water_jugs", "--algorithm", "bfs", "--json")
    assert run.code == 0 and json.loads(run.out)["engine"] == "search"
    run = cli("solve", "water_jugs", "--engine", "cpsat", "--algorithm", "bfs")
    assert run.code == 2 and len(run.err_lines) == 1 and "--algorithm" in run.err


def test_generate_honours_the_time_limit():
    """On the run's own clock: the seconds it reports for its numbers of givens add up to
    at most the limit plus 10 % or 0.5 s."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "cpsolve", "generate", "sudoku_inkala",
                           "--givens", "24", "--random", "5", "--seed", "1", "--time-limit",
                           "3", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    if "givens" not in report:  # a loaded machine: the limit came before the first answer
        assert report["status"] == "error" and "time limit" in report["error"], report
        return
    seconds = [entry["seconds"] for entry in report["givens"]]
    assert seconds and sum(seconds) <= 3 + max(0.1 * 3, 0.5), seconds


def test_bash_completion_completes_commands_options_choices_and_models(cli, tmp_path):
    import subprocess

    run = cli("completion", "bash")
    assert run.code == 0
    script = tmp_path / "complete.sh"
    script.write_text(run.out)

    def complete(*words: str) -> list[str]:
        line = " ".join(f'"{w}"' for w in ("cpsolve", *words))
        done = subprocess.run(["bash", "-c", f"source {script}; COMP_WORDS=({line}); "
                               f"COMP_CWORD={len(words)}; _cpsolve; "
                               'printf "%s\\n" "${COMPREPLY[@]}"'],
                              capture_output=True, text=True, cwd=tmp_path, timeout=30)
        return done.stdout.split()

    assert complete("so") == ["solve"]
    assert "--time-limit" in complete("solve", "--ti")
    assert set(complete("solve", "--engine", "")) >= {"auto", "cpsat", "search"}
    assert "water_jugs" in complete("solve", "water")


@pytest.mark.parametrize("argv, said", [
    (("analyze", "eight_puzzle.toml", "--memory-limit", "-1G"),
     "expected a size of at least 1 byte, got '-1G'"),
    (("solve", "water_jugs.toml", "--time-limit", "-3s"), "expected seconds, got '-3s'"),
    (("solve", "water_jugs.toml", "--time-limit", "-.5"), "expected a number of seconds > 0"),
    (("analyze", "xsudoku5.toml", "--limit", "-5"), "--limit"),
    (("solve", "water_jugs.toml", "--time-limit", "-inf"), "got '-inf'"),
    (("solve", "water_jugs.toml", "--time-limit", "-NaN"), "got '-NaN'"),
    (("solve", "water_jugs.toml", "--time-limit", "-1e9"), "got '-1e9'"),
    (("solve", "water_jugs.toml", "--memory-limit", "-Infinity"), "got '-Infinity'"),
    (("solve", "water_jugs.toml", "--jobs", "-inf"), "--jobs"),
    (("count", "water_jugs.toml", "-n", "-nan"), "got '-nan'"),  # not -n with "an"
    (("generate", "xsudoku5.toml", "--givens", "-inf"), "--givens"),
    (("solve", "water_jugs.toml", "--time-limit", "nan"), "got 'nan'"),
    (("solve", "water_jugs.toml", "--memory-limit", "1e-300G"), "at least 1 byte"),
])
def test_a_negative_looking_value_reaches_its_option_s_check(cli, argv, said):
    """argparse took '-1G' for an option ("expected one argument"): a word of a dash and a
    digit is a value, and the option's own check says what is wrong with it."""
    run = cli(argv[0], MODELS / argv[1], *argv[2:])
    assert run.code == 2 and len(run.err_lines) == 1
    assert said in run.err and "expected one argument" not in run.err


@pytest.mark.parametrize("limit", ["inf", "1e309", "Infinity", "1e9"])
def test_an_infinite_time_limit_is_no_limit(cli, limit):
    """``inf`` (and what parses as it) lifts the limit, as 10^9 s or more does."""
    from cpsolve.cli.checks import seconds

    assert seconds(limit) == float("inf")
    assert cli("solve", str(MODELS / "water_jugs.toml"), "--engine", "search",
               "--time-limit", limit).code == 0
