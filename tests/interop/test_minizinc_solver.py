"""MiniZinc: the solver chosen on the command line, and the tour's search annotation."""

from __future__ import annotations

import json
import shutil

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.interop.minizinc import export
from cpsolve.puzzles.files import load as load_file
from cpsolve.puzzles.files import resolve

pytestmark = pytest.mark.skipif(shutil.which("minizinc") is None, reason="no minizinc")


def load(name: str):
    """A bundled model's puzzle, by name."""
    return load_file(resolve(name))


def test_count_with_the_solver_named(cli):
    out = cli("count", "xsudoku5", "--engine", "minizinc", "--solver", "gecode", "--json")
    assert out.code == 0, out.err
    assert json.loads(out.out)["count"] == 960  # as CP-SAT and search count it


def test_an_unknown_solver_is_one_line(cli):
    out = cli("count", "xsudoku5", "--engine", "minizinc", "--solver", "no-such-solver")
    assert out.code == 2 and out.err.count("\n") == 1 and "gecode" in out.err


def with_a_solver_without_its_library(monkeypatch):
    """MiniZinc's list as the package reads it, plus a solver ``nolib`` that asks for
    ``--nolib-dll`` (as MiniZinc lists a MIP solver whose library it did not find)."""
    import dataclasses

    import minizinc

    real = minizinc.Driver.available_solvers

    def listed(self, refresh=False):
        table = dict(real(self, refresh))
        nolib = dataclasses.replace(table["gecode"][0], id="org.example.nolib",
                                    requiredFlags=["--nolib-dll"])
        return {**table, "nolib": [nolib], "org.example.nolib": [nolib]}

    monkeypatch.setattr(minizinc.Driver, "available_solvers", listed)


def test_a_solver_listed_without_its_library_says_so(cli, monkeypatch):
    """Asked for, it is refused in one line giving the likely cause and the usable ones;
    an unknown name lists it apart from those."""
    with_a_solver_without_its_library(monkeypatch)
    out = cli("count", "xsudoku5", "--engine", "minizinc", "--solver", "nolib")
    assert out.code == 2 and out.err.count("\n") == 1
    assert "--nolib-dll" in out.err and "library" in out.err and "gecode" in out.err
    out = cli("count", "xsudoku5", "--engine", "minizinc", "--solver", "no-such-solver")
    assert out.code == 2 and out.err.count("\n") == 1
    usable, unusable = out.err.split("library")
    assert "gecode" in usable and "nolib" not in usable and "nolib" in unusable


def test_solver_needs_the_minizinc_engine(cli):
    out = cli("solve", "xsudoku5", "--engine", "search", "--solver", "gecode")
    assert out.code == 2 and "--engine minizinc" in out.err


def test_a_tour_is_exported_with_a_search_annotation():
    text = export(load("knight_8x8").model).model
    assert "int_search(" in text and "first_fail" in text
    assert "int_search" not in export(load("xsudoku5").model).model


def test_the_8x8_knights_tour_is_found_through_the_export():
    """Without the annotation Gecode found no tour in 120 s; the limit is generous for a
    loaded machine (it takes about a second)."""
    result = run("minizinc", "solve", load("knight_8x8").model, Options(time_limit=60))
    assert result.status is Status.SOLVED and result.verified


# ---------------------------------------------------------------- through MiniZinc's package


def test_the_solver_is_looked_up_through_the_package(cli, monkeypatch):
    """``--solver`` names come from the package's driver: a tag the package lists for
    Gecode (here added to its registry) runs Gecode; the list in the error is the
    package's list of solver ids."""
    import minizinc

    from cpsolve.engines import minizinc as engine

    real = minizinc.Driver.available_solvers

    def listed(self, refresh=False):
        table = dict(real(self, refresh))
        return {**table, "my_gecode": table["gecode"]}

    monkeypatch.setattr(minizinc.Driver, "available_solvers", listed)
    out = cli("count", "xsudoku5", "--engine", "minizinc", "--solver", "my_gecode", "--json")
    assert out.code == 0, out.err
    assert json.loads(out.out)["count"] == 960
    ids = {s.id.rsplit(".", 1)[-1] for found in real(engine._driver()).values() for s in found}
    assert engine.installed_solvers() == sorted(ids) and "gecode" in ids


def test_the_packages_statistics_are_the_details():
    """The 4x4 sudokus: 288 (4! relabellings of the 12 grids); the package's statistics
    say as much, and its node count is the result's ``explored``."""
    result = run("minizinc", "count", load("sudoku4").model)
    assert result.count == 288
    details = result.details
    assert details["n_solutions"] == 288 and details["nodes"] == result.explored > 0
    assert {"propagations", "failures", "solve_time", "flat_time"} <= set(details)
    assert all(key == key.lower() and " " not in key for key in details)


def test_statistics_in_text(cli):
    out = cli("count", "xsudoku5", "--engine", "minizinc", "--statistics")
    assert out.code == 0, out.err
    assert "960 solutions" in out.out and "propagations" in out.out and "nodes" in out.out


def test_the_engine_passes_each_solution_on_as_the_package_yields_it():
    seen: list[dict] = []
    result = run("minizinc", "count", load("sudoku4").model,
                 Options(keep=True, on_solution=seen.append))
    assert result.count == 288 and seen == list(result.solutions)


def test_the_package_is_imported_only_by_the_engine_when_it_runs():
    import subprocess
    import sys

    code = ("import sys\nfrom cpsolve.engines import minizinc as m\n"
            "assert m.tool_missing() is None\nassert 'minizinc' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def _processes_naming(folder) -> list[str]:
    """The processes whose command line names a file under ``folder`` (MiniZinc and its
    solver read their model files from TMPDIR)."""
    from pathlib import Path

    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if str(folder).encode() in (proc / "cmdline").read_bytes():
                found.append(proc.name)
        except OSError:
            continue
    return found


LATIN7 = 'family = "grid"\nsize = 7\ngroups = ["rows", "columns"]\n'


def test_ctrl_c_stops_minizinc_and_leaves_no_process(tmp_path, start_cli):
    """Ctrl-C while MiniZinc lists 7x7 Latin squares (far more than it can list): exit
    130 with the count so far, and neither MiniZinc nor Gecode is left running."""
    import os
    import signal

    model = tmp_path / "latin7.toml"
    model.write_text(LATIN7)
    work = tmp_path / "tmp"
    work.mkdir()
    run_ = start_cli("count", model, "--engine", "minizinc", "--list", "--json",
                     env={**os.environ, "TMPDIR": str(work)})
    first = run_.process.stdout.readline()
    assert json.loads(first)["found"] == 1
    run_.until(lambda: _processes_naming(work), "MiniZinc process")
    code, out, err = run_.stop(signal.SIGINT)
    assert code == 130, err
    last = json.loads((first + out).splitlines()[-1])
    assert last["status"] == "at_least" and last["count"] >= 1
    assert "interrupted" in last["message"] and "Traceback" not in err
    assert not _processes_naming(work), "MiniZinc processes left"


def test_the_time_limit_stops_minizinc_and_leaves_no_process(tmp_path, monkeypatch):
    import tempfile

    from cpsolve.puzzles.files import load as load_path

    work = tmp_path / "tmp"
    work.mkdir()
    monkeypatch.setenv("TMPDIR", str(work))
    monkeypatch.setattr(tempfile, "tempdir", str(work))
    model = tmp_path / "latin7.toml"
    model.write_text(LATIN7)
    result = run("minizinc", "count", load_path(model).model, Options(time_limit=1.0))
    assert result.status in (Status.AT_LEAST, Status.UNKNOWN)
    assert "time limit" in result.message
    assert not _processes_naming(work), "MiniZinc processes left"


def test_a_solver_that_cannot_list_solutions_is_one_line(cli):
    """Debian's MiniZinc lists SCIP without its library and without the ``-a`` flag: the
    package refuses it before it runs; either way one line, exit 2."""
    from cpsolve.engines.minizinc import installed_solvers

    if "scip" not in installed_solvers():
        pytest.skip("no SCIP configuration listed here")
    out = cli("count", "xsudoku5", "--engine", "minizinc", "--solver", "scip")
    assert out.code == 2 and out.err.count("\n") == 1 and "scip" in out.err


def _dies(monkeypatch, error: Exception) -> None:
    """MiniZinc's solver lookup (``minizinc --solvers-json``) fails with ``error``, as it
    does when Ctrl-C reaches MiniZinc too (it runs in cpsolve's process group)."""
    import minizinc

    def listed(self, refresh=False):
        raise error

    monkeypatch.setattr(minizinc.Driver, "available_solvers", listed)


@pytest.mark.parametrize("error", [AssertionError(), "MiniZincError"])
def test_minizinc_dying_after_a_stop_was_asked_is_a_stopped_result(monkeypatch, error):
    """A stop asked for (Ctrl-C, SIGTERM) before MiniZinc failed: the failure is the stop,
    an ``unknown`` result saying so, never an error."""
    import minizinc

    from cpsolve.engines.runtime import interrupt

    if error == "MiniZincError":
        error = minizinc.MiniZincError(message="MiniZinc stopped with a non-zero exit code")
    _dies(monkeypatch, error)
    interrupt.request()
    try:
        result = run("minizinc", "solve", load("queens8").model, Options())
    finally:
        interrupt.clear()
    assert result.status is Status.UNKNOWN and "interrupted" in result.message


def test_minizinc_dying_of_itself_is_one_honest_line(cli, monkeypatch):
    """No stop asked for: MiniZinc's own failure is one line saying so, exit 3 — not an
    internal error of cpsolve's."""
    import minizinc

    _dies(monkeypatch, minizinc.MiniZincError(message="MiniZinc stopped with a non-zero "
                                              "exit code"))
    out = cli("solve", "queens8", "--engine", "minizinc", "--json")
    assert out.code == 3 and out.err.count("\n") == 1
    assert "MiniZinc failed" in out.err and "internal error" not in out.err
    assert json.loads(out.out)["exit"] == 3
