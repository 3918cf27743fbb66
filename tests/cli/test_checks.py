"""The option checks of :mod:`cpsolve.cli.checks`: a value the user gave is echoed cut (a
400-digit number as ``1e+400``, a long text as its first 60 characters), every option's
integer is refused in the same words, and an empty value is refused, never read as none."""

from __future__ import annotations

import json

import pytest

BIG = "9" * 400


@pytest.mark.parametrize("argv", [
    ["solve", "water_jugs", "blocks", "--jobs", BIG],
    ["solve", "water_jugs", "blocks", "--jobs", "-" + BIG],
    ["analyze", "water_jugs", "--workers", BIG],
    ["count", "sudoku4", "--memory-limit", BIG],
    ["solve", "water_jugs", "--memory-limit", BIG],
    ["generate", "sudoku4", "--count", "--givens", BIG],
    ["solve", "water_jugs", "--scheduler", "tcp://127.0.0.1:" + BIG],
    ["solve", "water_jugs", "--time-limit", "x" + BIG],
    ["count", "sudoku4", "--limit", "x" + BIG],
])
def test_a_huge_value_is_echoed_cut(cli, argv):
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1
    assert "9" * 61 not in run.err and len(run.err) < 400


def test_a_huge_count_asked_of_generate_is_said_short(cli):
    """"fewer than the 9,999,...,999 asked": the number as figure writes it."""
    run = cli("generate", "sudoku4", "--givens", "4", "--random", BIG, "--json")
    short = json.loads(run.out)["givens"][0]["short"]
    assert "fewer than the 1e+400 asked" in short and "999" not in short


@pytest.mark.parametrize("value", ["", " "])
@pytest.mark.parametrize("command", ["solve", "count"])
def test_an_empty_solver_is_refused(cli, command, value):
    """``--solver ''`` solved with the default solver, silently."""
    run = cli(command, "queens8", "--engine", "minizinc", "--solver", value)
    assert run.code == 2 and len(run.err_lines) == 1 and "an empty solver name" in run.err


def test_seed_says_what_other_integers_say(cli):
    run = cli("generate", "sudoku4", "--givens", "4", "--random", "1", "--seed", "2.5")
    assert run.code == 2
    assert run.err_lines == ["error: cpsolve generate: argument --seed: expected an integer, "
                             "got '2.5' (see cpsolve generate --help)"]


@pytest.mark.parametrize("argv, said", [
    (("generate", "sudoku4", "--givens", "4", "--givens", "5", "--count"),
     "--givens given twice: give it once, with all its values"),
    (("analyze", "hanoi4", "--svg", "a1.svg", "--svg", "a2.svg"), "--svg given twice"),
    (("solve", "water_jugs", "--engine", "search", "--eng", "cpsat"), "--engine given twice"),
    (("solve", "water_jugs", "--unique", "--unique"), "--unique given twice"),
])
def test_an_option_given_twice_is_refused_not_half_dropped(cli, tmp_path, monkeypatch, argv,
                                                           said):
    """argparse keeps the last of an option given twice and drops the first without a
    word (``--givens 4 --givens 5`` counted 5 givens alone; ``--svg a1 --svg a2`` wrote a2
    only): one line, exit 2, nothing written."""
    monkeypatch.chdir(tmp_path)
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1 and said in run.err_lines[0], run.err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, said", [
    (("export", "hoppers", "--to", "pddl", "-o", "-"), "- is stdout to the other output"),
    (("analyze", "hanoi4", "--svg", "   "), "a blank file name (3 blank characters: "
                                             "'\\x20\\x20\\x20')"),
])
def test_output_names_that_are_slips(cli, tmp_path, monkeypatch, argv, said):
    """``export -o -`` made a folder named ``-`` (every other output takes ``-`` for
    stdout); a blank name is shown as it was given, not as one space."""
    monkeypatch.chdir(tmp_path)
    run = cli(*argv)
    assert run.code == 2 and said in run.err, run.err
    assert list(tmp_path.iterdir()) == []
