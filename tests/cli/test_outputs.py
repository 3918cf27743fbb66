"""What cpsolve reads and writes, beyond the hostile corpus: an empty file name (never the
current folder) or one longer than the system takes is one line, exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.parametrize("argv", [
    ["solve", ""], ["compare", ""], ["count", ""], ["analyze", ""], ["export", "", "--to", "pddl"],
    ["validate", "", "x"], ["validate", "water_jugs", ""], ["count", "d.pddl", ""],
    ["solve", "water_jugs", "--plan-file", ""], ["show", "water_jugs", "--svg", ""],
    ["analyze", "water_jugs", "--work-dir", ""], ["export", "water_jugs", "--to", "pddl", "-o", ""],
])
def test_an_empty_file_name_is_refused(cli, tmp_path, monkeypatch, argv):
    """Never the current folder: there `solve ""` ran every Python file."""
    monkeypatch.chdir(tmp_path)
    Path("ran.py").write_text("open('ran', 'w').write('ran')\n")
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1 and "an empty file name" in run.err
    assert sorted(os.listdir()) == ["ran.py"]


@pytest.mark.parametrize("argv", [
    ["solve", "a" * 300], ["count", "a" * 300], ["export", "water_jugs", "--to", "pddl", "-o",
                                                 "p/" + "a" * 300],
    ["show", "water_jugs", "--svg", "a" * 256], ["solve", "/".join(["b" * 200] * 21)],
])
def test_a_file_name_too_long_is_refused(cli, argv):
    run = cli(*argv)
    assert run.code == 2 and len(run.err_lines) == 1 and "file name too long" in run.err


def test_names_the_system_takes_are_accepted(cli, tmp_path):
    """255 bytes a name is the limit, not beyond it."""
    path = tmp_path / ("w" * 250 + ".toml")
    path.write_bytes((MODELS / "water_jugs.toml").read_bytes())
    assert cli("solve", path, "--engine", "search").code == 0
