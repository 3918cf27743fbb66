"""Start-up loads only what the command needs (issue 25, item 1): ``--help`` reads no
engine's table and no model code; a search solve of a small model imports neither
OR-Tools, NumPy, multiprocessing nor the batch workflow (nor rich with ``--json``).

Each case runs the command in a fresh interpreter (as ``python -m cpsolve`` does) and
reads ``sys.modules`` once it has ended: every module imported, however deep, in any
thread."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HEAVY = ("ortools", "numpy", "pandas", "dask", "multiprocessing", "concurrent.futures",
         "cpsolve.workflows.batch", "cpsolve.engines.cpsat", "minizinc", "asyncio")
"""Never loaded by ``--help`` nor by a one-model search solve."""


_SCRIPT = """
import contextlib, io, sys
from cpsolve.__main__ import run
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = run()
    except SystemExit as end:  # --help
        code = end.code or 0
print(code, *sorted(sys.modules), file=sys.stderr)
"""


def loaded(*argv: str) -> set[str]:
    """The modules a ``cpsolve`` process with this command line imported."""
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    code, *names = proc.stderr.split()
    assert code == "0", proc.stderr[-2000:]
    return set(names)


def among(names: set[str], packages: tuple[str, ...]) -> list[str]:
    """The ``names`` that are one of ``packages`` or inside one."""
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in packages))


def test_help_loads_no_engine_table_no_model_and_nothing_heavy():
    names = loaded("--help")
    light = ("cpsolve.engines.search.registry", "cpsolve.model", "cpsolve.answers",
             "cpsolve.language", "cpsolve.puzzles", "cpsolve.output", "rich", "json",
             "dataclasses")  # with inspect, ast and dis: a fifth of bare Python's start-up
    quoting = {"cpsolve.language", "cpsolve.language.quoting"}  # the error lines' escaper:
    assert among(names - quoting, HEAVY + light) == []  # it imports nothing of cpsolve


@pytest.mark.parametrize("json_flag", [True, False], ids=["json", "text"])
def test_a_search_solve_of_water_jugs_loads_nothing_heavy(json_flag):
    argv = ["solve", "models/water_jugs.toml", "--engine", "search"]
    names = loaded(*argv, *(["--json"] if json_flag else []))
    assert "cpsolve.engines.search.engine" in names  # the solve did run
    assert among(names, HEAVY + (("rich",) if json_flag else ())) == []


def test_a_json_batch_loads_no_rich():
    """A ``--json`` batch writes JSON lines and an object: rich (a few hundredths of a CPU
    second, tenths of a second on a loaded machine, past a short limit) is text's only."""
    names = loaded("solve", "models/water_jugs.toml", "models/blocks.toml", "--engine",
                   "search", "--json")
    assert "cpsolve.workflows.batch.solving" in names  # the batch did run
    assert among(names, ("rich",)) == []


def test_a_command_line_builds_only_its_commands_options():
    from cpsolve.cli.arguments import parser

    def options(p, command):
        sub = p._subparsers._group_actions[0].choices[command]
        return {o for a in sub._actions for o in a.option_strings}

    full, listed, named = parser(), parser(()), parser(["count"])
    sub_full = full._subparsers._group_actions[0].choices
    sub_listed = listed._subparsers._group_actions[0].choices
    assert list(sub_listed) == list(sub_full)  # every command listed, in the same order
    assert "--algorithm" in options(full, "solve")
    assert options(listed, "solve") == {"-h", "--help"}  # listed with its help line only
    assert list(named._subparsers._group_actions[0].choices) == ["count"]
    assert options(named, "count") == options(full, "count")


@pytest.mark.parametrize("argv", [["bogus"], ["bogus", "solve"], ["solve"]])
def test_a_bad_or_incomplete_command_line_is_refused_as_before(cli, argv):
    run = cli(*argv)
    assert run.code == 2
    if argv[0] == "bogus":  # every command offered, not only those named later
        assert "invalid choice: 'bogus'" in run.err and "'completion'" in run.err
