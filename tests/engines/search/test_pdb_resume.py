"""Pattern databases: a run that resumes a stopped build says so in its result (the
``Estimate:`` line and ``details.patterns``), not only on the passing progress line; a
run stopped before it finished one more layer says that it added nothing and why.

A build is saved whole layers at a time, so a run that is stopped inside the layer after
the saved ones keeps the saved file as it was: the next run begins that layer again.
The budgets here stop a build at the same point on every run (after a layer, or a
number of looks into the next one), never by the clock.
"""

from __future__ import annotations

import re

import pytest

from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import pdb
from cpsolve.engines.search.planning.heuristic import compile_estimate
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.sliding import build


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def eight_task():
    """The 8-puzzle with two 4-tile tables: table 1's build has about 20 layers."""
    table = {"family": "sliding", "start": "8 6 7\n2 5 4\n3 _ 1",
             "goal": "1 2 3\n4 5 6\n7 8 _",
             "estimate": {"patterns": [["1", "2", "3", "4"], ["5", "6", "7", "8"]]}}
    return compile_planning(build(Data(table, "test.toml")).model)


class StopAt(Budget):
    """Runs out once a build reports distance ``at`` (-1: from the first look), after
    ``extra`` more looks (0: at that layer's end; more: inside the next layer); keeps the
    progress lines."""

    def __init__(self, at: int, extra: int = 0) -> None:
        self.lines: list[str] = []
        super().__init__(progress=self._line)
        self.at, self.extra, self.armed = at, extra, at == -1

    def _line(self, line: str) -> None:
        self.lines.append(line)
        found = re.search(r"distance (\d+),", line)
        if found and int(found.group(1)) >= self.at:
            self.armed = True

    def exceeded(self, seen, status=None, *args) -> bool:
        if self.armed:
            if self.extra <= 0:
                return self.halt(Stop.STATES, "test limit reached")
            self.extra -= 1
        return False


def test_a_run_that_resumes_and_gets_further_says_so_in_its_result(own_cache):
    task = eight_task()
    first = pdb.pattern_set(task, StopAt(5))
    assert first.reached[0] == 5 and first.notes == []  # a fresh build: nothing resumed
    second = pdb.pattern_set(task, StopAt(9))
    assert second.reached[0] == 9
    assert second.notes == ["resuming table 1 at distance 6"]  # the first layer not saved
    assert "resuming table 1 at distance 6" in second.describe()
    assert "not finished" not in second.describe()


def test_a_resumed_build_that_finishes_says_it_was_resumed(own_cache):
    task = eight_task()
    pdb.pattern_set(task, StopAt(5))
    done = pdb.pattern_set(task)
    assert not done.partial
    assert done.describe().endswith("built now; resuming table 1 at distance 6")


def test_a_run_stopped_inside_the_next_layer_says_it_added_nothing(own_cache):
    task = eight_task()
    pdb.pattern_set(task, StopAt(5))
    (saved,) = own_cache.glob("pdb-*.partial.npz")
    before = saved.read_bytes()
    stalled = pdb.pattern_set(task, StopAt(-1, extra=2))  # three looks into layer 6
    assert stalled.reached[0] == 5  # layers 0-5, as saved: layer 6 was not finished
    (note,) = stalled.notes
    assert re.fullmatch(r"resuming table 1 at distance 6: layer 6 not finished in this "
                        r"run's \d+\.\d s \(\d+\.\d s of it reading the saved build\), "
                        r"kept layers 0-5", note)
    assert note in stalled.describe()
    assert saved.read_bytes() == before  # nothing to save: the file is the first run's
    again = StopAt(6)
    assert pdb.pattern_set(task, again).reached[0] == 6  # the next run begins layer 6 again
    assert any("resuming table 1 at distance 6" in line for line in again.lines)


def test_the_details_carry_the_resume(own_cache):
    """``details.patterns`` is the text output's ``Estimate:`` line and ``--json``'s."""
    task = eight_task()
    compile_estimate(task, StopAt(5))
    resumed = compile_estimate(task, StopAt(9)).details()
    assert resumed["pattern_tables"] == "partial"
    assert "table 1 to distance 9" in resumed["patterns"]
    assert "resuming table 1 at distance 6" in resumed["patterns"]
    stalled = compile_estimate(task, StopAt(-1, extra=2)).details()
    assert "layer 10 not finished in this run's" in stalled["patterns"]
    assert "kept layers 0-9" in stalled["patterns"]
