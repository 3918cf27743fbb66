"""A solve whose pattern databases cannot be saved (the cache folder cannot be written):
one warning line on stderr naming the folder and why, and the answer says the next run
starts over — in text and in ``--json`` alike."""

from __future__ import annotations

import json

import pytest

from cpsolve.cli import main, warn

EIGHT = """family = "sliding"
name = "8-puzzle"
start = '''
1 2 3
4 5 6
_ 7 8
'''
goal = '''
1 2 3
4 5 6
7 8 _
'''
[estimate]
patterns = [["1", "2", "3", "4"], ["5", "6", "7", "8"]]
"""


SEARCH = ["--engine", "search", "--algorithm", "idastar"]
"""IDA* reads the tables (on so easy a board the search would pick a bidirectional BFS)."""


@pytest.fixture
def blocked(tmp_path, monkeypatch):
    """The cache folder under a regular file: no one can make it (root neither)."""
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(warn, "_TOLD", set())
    return blocker / "cache"


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning: ")]


def test_json_carries_the_warning_said_once_on_stderr(blocked, write_model, capsys):
    path = write_model("eight.toml", EIGHT)
    code = main(["solve", str(path), *SEARCH, "--json"])
    out, err = capsys.readouterr()
    assert code == 0
    result = json.loads(out)  # one document
    assert result["steps"] == 2  # 7 and 8 slide left, one move each
    details = result["details"]
    told = warnings(err)
    assert len(told) == 1 and str(blocked) in told[0] and "is a file, not a folder" in told[0]
    assert told[0] == f"warning: {details['pattern_cache']}"
    assert "the next run starts over" in details["patterns"]


def test_text_says_the_next_run_starts_over(blocked, write_model, capsys):
    path = write_model("eight.toml", EIGHT)
    assert main(["solve", str(path), *SEARCH]) == 0
    out, err = capsys.readouterr()
    assert len(warnings(err)) == 1 and str(blocked) in err
    estimate = " ".join(out.split())  # the line may wrap
    assert "not saved: the next run starts over" in estimate and "resumes" not in estimate


def test_a_writable_cache_gives_no_warning(tmp_path, write_model, monkeypatch, capsys):
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    path = write_model("eight.toml", EIGHT)
    assert main(["solve", str(path), *SEARCH, "--json"]) == 0
    out, err = capsys.readouterr()
    assert not warnings(err) and "pattern_cache" not in json.loads(out)["details"]
