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
