"""A file whose name starts with ``-`` is taken for an option by argparse: the error says
how to name it (``./-x.toml``, or after ``--``) instead of "the following arguments are
required: FILE"."""

from __future__ import annotations

import shutil

import pytest

from cpsolve.puzzles.files import resolve

HINT = "-x.toml is taken for an option (a file of that name is here): name the file ./-x.toml"


@pytest.fixture
def dashed(tmp_path, monkeypatch):
    """A working folder holding a copy of water_jugs named ``-x.toml``."""
    shutil.copy(resolve("water_jugs"), tmp_path / "-x.toml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("argv", [["solve", "-x.toml"], ["solve", "-x.toml", "--json"],
                                  ["count", "-x.toml", "--optimal"],
                                  ["solve", "water_jugs", "-x.toml"]])
def test_a_file_named_like_an_option_says_how_to_name_it(cli, dashed, argv):
    done = cli(*argv)
    command = argv[0]
    assert done.code == 2
    assert done.err_lines == [f"error: cpsolve {command}: {HINT} (or give it after --: "
                              f"cpsolve {command} ... -- -x.toml) (see cpsolve {command} --help)"]


@pytest.mark.parametrize("argv", [["solve", "./-x.toml"], ["solve", "--engine", "search",
                                                            "--", "-x.toml"]])
def test_either_way_the_hint_names_works(cli, dashed, argv):
    assert cli(*argv).code == 0


def test_an_options_value_is_named_with_dot_slash_only(cli, dashed):
    done = cli("show", "water_jugs", "--html", "-page.html")
    assert done.code == 2
    assert done.err_lines == ["error: cpsolve show: -page.html is taken for an option: name "
                              "the file ./-page.html (see cpsolve show --help)"]
    assert not (dashed / "-page.html").exists()


def test_an_unknown_option_that_names_no_file_keeps_argparses_message(cli, dashed):
    done = cli("solve", "water_jugs", "--frobnicate")
    assert done.err_lines == ["error: cpsolve solve: unrecognized arguments: --frobnicate "
                              "(see cpsolve solve --help)"]
