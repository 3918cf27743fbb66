"""The screen's width (``COLUMNS``) and whether a live display may take stdout's lines."""

from __future__ import annotations

import pytest

from cpsolve.cli import screen
from cpsolve.cli.screen import LEAST_COLUMNS, fit_columns


@pytest.fixture
def no_terminal(monkeypatch) -> None:
    """As when no standard stream is a terminal (the tests may run in one)."""
    monkeypatch.setattr(screen, "_terminal_columns", lambda: None)


@pytest.mark.parametrize("given", ["0", "-5", "wide", "", " ", "00", "²", "8.5"])
def test_a_columns_that_is_no_width_is_ignored(given, no_terminal) -> None:
    environ = {"COLUMNS": given}
    fit_columns(environ)
    assert "COLUMNS" not in environ  # rich, and argparse, then take the terminal's or 80


@pytest.mark.parametrize("given", ["1", "20", str(LEAST_COLUMNS - 1)])
def test_a_narrow_columns_is_raised_to_the_least(given, no_terminal) -> None:
    environ = {"COLUMNS": given}
    fit_columns(environ)
    assert environ["COLUMNS"] == str(LEAST_COLUMNS)


@pytest.mark.parametrize("given", [str(LEAST_COLUMNS), "80", "1000"])
def test_a_sane_columns_is_kept(given, no_terminal) -> None:
    environ = {"COLUMNS": given}
    fit_columns(environ)
    assert environ == {"COLUMNS": given}


def test_a_narrow_terminal_is_raised_to_the_least(monkeypatch) -> None:
    monkeypatch.setattr(screen, "_terminal_columns", lambda: 12)
    environ: dict[str, str] = {}
    fit_columns(environ)
    assert environ == {"COLUMNS": str(LEAST_COLUMNS)}


def test_no_terminal_and_no_columns_leave_the_default(no_terminal) -> None:
    environ: dict[str, str] = {}
    fit_columns(environ)
    assert environ == {}


@pytest.mark.parametrize("width", ["0", "-3", "x"])
def test_the_answer_is_printed_whatever_columns_says(cli_subprocess, width) -> None:
    run = cli_subprocess("solve", "water_jugs", "--engine", "search", width=width)
    assert run.code == 0
    lines = run.out.splitlines()
    # not a terminal: 80 columns, and the title (79 cells at most) holds on one line
    assert lines[0].startswith("Water jugs 8 L and 5 L  [search]  optimal (proven)  10 moves")
    assert any(line.split()[:2] == ["10", "pour"] for line in lines)  # the plan's last step


def test_one_column_is_laid_out_as_the_least(cli_subprocess) -> None:
    run = cli_subprocess("solve", "water_jugs", "--engine", "search", width="1")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0].startswith("Water jugs 8 L and 5 L")  # not a letter a line
    assert max(map(len, lines)) <= LEAST_COLUMNS


@pytest.mark.parametrize("argv", [("models",), ("count", "xsudoku5", "--engine", "search")])
def test_other_commands_print_at_columns_0(cli_subprocess, argv) -> None:
    run = cli_subprocess(*argv, width="0")
    assert run.code == 0 and run.out.strip()
