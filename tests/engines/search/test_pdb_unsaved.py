"""Pattern databases when the cache folder cannot be written: the tables still serve the
run, and the run says once that nothing was kept (the folder and why) instead of
promising that the next run resumes the build.

Two ways a folder cannot be written: a path under a regular file (no one can make a
folder there, root included) and a read-only folder (skipped as root, whom ``chmod``
does not stop).
"""

from __future__ import annotations

import os
import re
import stat

import pytest

from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import pdb
from cpsolve.engines.search.planning.heuristic import compile_estimate
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.sliding import build

START = "8 6 7\n2 5 4\n3 _ 1"
GOAL = "1 2 3\n4 5 6\n7 8 _"


def eight_task():
    """The 8-puzzle with two 4-tile tables (built in well under a second)."""
    table = {"family": "sliding", "start": START, "goal": GOAL,
             "estimate": {"patterns": [["1", "2", "3", "4"], ["5", "6", "7", "8"]]}}
    return compile_planning(build(Data(table, "test.toml")).model)


class StopAt(Budget):
    """Runs out once a build reports distance ``at`` (-1: at the first look; the same point
    on every run); keeps the progress lines."""

    def __init__(self, at: int) -> None:
        self.lines: list[str] = []
        super().__init__(progress=self.lines.append)
        self.at = at

    def exceeded(self, seen, status=None, *args) -> bool:
        reached = [int(m.group(1)) for line in self.lines
                   if (m := re.search(r"distance (\d+),", line))]
        if self.at == -1 or (reached and max(reached) >= self.at):
            return self.halt(Stop.STATES, "test limit reached")
        return False


@pytest.fixture
def under_a_file(tmp_path, monkeypatch):
    """A cache folder whose parent is a regular file: it cannot be made, by anyone."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(blocker / "cache"))
    return blocker / "cache"


@pytest.fixture
def read_only(tmp_path, monkeypatch):
    """A read-only cache folder (skipped as root: chmod does not stop root)."""
    if os.geteuid() == 0:
        pytest.skip("running as root: a read-only folder is still writable")
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(folder))
    yield folder
    folder.chmod(stat.S_IRWXU)


@pytest.fixture(params=["under_a_file", "read_only"])
def unwritable(request):
    return request.getfixturevalue(request.param)


def test_a_stopped_build_that_cannot_be_saved_says_the_next_run_starts_over(unwritable):
    task = eight_task()
    first = pdb.pattern_set(task, StopAt(5))
    assert first.partial and first.reached[0] == 5
    assert str(unwritable) in first.unsaved
    text = first.describe()
    assert "the next run starts over" in text and "resumes" not in text
    again = StopAt(7)
    second = pdb.pattern_set(task, again)
    # nothing was kept: the build starts from distance 0, it does not resume at 6
    assert not any("resuming" in line for line in again.lines)
    assert any("distance 0," in line for line in again.lines)
    assert second.reached[0] == 7


def test_the_reason_names_the_file_in_the_way(under_a_file):
    tables = pdb.pattern_set(eight_task())  # finished, but not kept
    assert not tables.partial and tables.cached == [False, False]
    assert tables.unsaved == ("pattern databases cannot be saved in the cache folder "
                              f"{under_a_file}: {under_a_file.parent} is a file, not a folder")
    assert "built now (not saved: the next run starts over)" in tables.describe()
    assert pdb.pattern_set(eight_task()).cached == [False, False]  # built again


def test_a_cache_folder_that_is_a_file_is_named(tmp_path, monkeypatch):
    """CPSOLVE_CACHE_DIR naming a regular file."""
    plain = tmp_path / "plain"
    plain.write_text("not a folder")
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(plain))
    tables = pdb.pattern_set(eight_task(), StopAt(3))
    assert tables.unsaved.endswith(f"{plain}: {plain} is a file, not a folder")
    assert plain.read_text() == "not a folder"  # never written over


def test_the_result_details_carry_the_warning_only_when_nothing_was_kept(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    kept = compile_estimate(eight_task(), StopAt(5)).details()
    assert "pattern_cache" not in kept and "the next run resumes the build" in kept["patterns"]
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(blocker / "cache"))
    lost = compile_estimate(eight_task(), StopAt(5)).details()
    assert lost["pattern_tables"] == "partial"
    assert "the next run starts over" in lost["patterns"]
    assert lost["pattern_cache"].startswith("pattern databases cannot be saved in the cache "
                                            f"folder {blocker / 'cache'}")


def test_a_build_stopped_before_its_first_layer_does_not_promise_to_resume(under_a_file):
    estimate = compile_estimate(eight_task(), StopAt(-1))
    details = estimate.details()
    assert details["pattern_tables"] == "not built"
    assert "the next run starts over" in details["patterns"]
    assert str(under_a_file) in details["pattern_cache"]


def test_tables_read_from_a_read_only_cache_need_no_warning(tmp_path, monkeypatch):
    """Tables already cached are read; nothing needed saving, so nothing is said."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(folder))
    pdb.pattern_set(eight_task())
    blocker_free = pdb.pattern_set(eight_task())
    assert blocker_free.cached == [True, True] and blocker_free.unsaved == ""
