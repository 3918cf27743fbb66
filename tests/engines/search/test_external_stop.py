"""The on-disk analysis (statespace/external.py, earlier.py) checked against every earlier
layer: deep searches of small layers look at the stop often (a time limit, Ctrl-C) and
keep their complete layers, and the earlier layers are one set in memory while they fit.

The model is a counter that steps by 1 or 2 up to ``TOP``: no move can be undone and the
steps change it by different amounts, so each new layer is checked against every earlier
one; layer ``d > 0`` is ``{2d - 1, 2d}``, so there are ``TOP // 2 + 1`` layers of at most
two states."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines.runtime import interrupt
from cpsolve.engines.runtime.clock import Clock
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace import external as external_module
from cpsolve.engines.search.statespace.external import Disk, duplicates_policy, external_layers
from cpsolve.engines.search.statespace.store import Store
from cpsolve.puzzles.files import load

TOP = 200

COUNTER = f"""family = "transition"
name = "counter"
goal = "x == {TOP}"

[variables]
x = [0, {TOP}]

[initial]
x = 0

[[actions]]
name = "one"
guard = "x + 1 <= {TOP}"
effects = {{ x = "x + 1" }}

[[actions]]
name = "two"
guard = "x + 2 <= {TOP}"
effects = {{ x = "x + 2" }}
"""

LAYERS = [1] + [2] * (TOP // 2)
"""Layer 0 is the start; layer ``d`` is ``{2d - 1, 2d}`` (all of them below ``TOP``)."""


@pytest.fixture(autouse=True)
def nothing_asked():
    interrupt.clear()
    yield
    interrupt.clear()


@pytest.fixture
def counter(tmp_path):
    path = tmp_path / "counter.toml"
    path.write_text(COUNTER)
    model = load(path).model
    assert duplicates_policy(model)[1] is None  # every earlier layer
    return compile_planning(model)


def run(task, work_dir, memory, budget=None):
    return external_layers(task, budget or Budget(), "start", Disk(str(work_dir), False, memory))


@pytest.mark.parametrize("memory", [200_000, 2_000])  # the set in memory; the files past 15
def test_checked_against_every_earlier_layer(counter, tmp_path, memory):
    result = run(counter, tmp_path, memory)
    assert result.status is Status.COMPLETE
    assert list(result.answer.layers) == LAYERS
    assert result.details["duplicates"] == "every earlier layer"


class Looks(Budget):
    """A budget that counts the earlier layers' files read between two of its looks."""

    def __init__(self) -> None:
        super().__init__()
        self.since = self.most = 0

    def exceeded(self, seen, status=None, *args) -> bool:
        self.since = 0
        return super().exceeded(seen, status, *args)


def counting_reads(monkeypatch, each):
    """Store.read calls ``each()`` first."""
    real = Store.read

    def read(self, d, bucket):
        each()
        return real(self, d, bucket)

    monkeypatch.setattr(Store, "read", read)


@pytest.mark.parametrize("memory", [200_000, 2_000])
def test_the_stop_is_looked_at_between_earlier_layers_files(counter, tmp_path, memory,
                                                            monkeypatch):
    """Each new layer was checked against every earlier layer's file, one after the other,
    with no look at the budget: 200 reads at depth 200, and a time limit or Ctrl-C went
    unheard for that long (the Tower of Hanoi with 14 discs was cut off 0.6 s past its
    limit with nothing to show)."""
    budget = Looks()

    def each():
        budget.since += 1
        budget.most = max(budget.most, budget.since)

    counting_reads(monkeypatch, each)
    result = run(counter, tmp_path, memory, budget)
    assert list(result.answer.layers) == LAYERS
    assert budget.most <= 3  # the frontier's file, an earlier layer's (and the new one's)


READ = 0.001
"""Seconds each file read takes on the hand-set clock."""


@pytest.mark.parametrize("memory", [200_000, 2_000])
@pytest.mark.parametrize("how", ["time", "interrupt"])
def test_a_stop_in_a_deep_search_keeps_the_complete_layers(counter, tmp_path, memory, how,
                                                           monkeypatch):
    """A time limit (a hand-set clock: each file read takes :data:`READ`) or Ctrl-C (asked
    for at the same moment) is heard by the next read, and the answer holds the layers
    complete by then, each as counted in the module docstring."""
    now = [0.0]
    limit = 0.1 if memory > 100_000 else 0.5  # in memory: about 50 layers; in files: 34

    def each():
        now[0] += READ
        if how == "interrupt" and now[0] >= limit:
            interrupt.request()

    counting_reads(monkeypatch, each)
    clock = Clock(None if how == "interrupt" else limit, lambda: now[0])
    result = run(counter, tmp_path, memory, Budget(clock=clock))
    assert now[0] - limit <= READ  # heard at the next read (it was 27 reads late)
    assert result.status is Status.PARTIAL
    assert ("time limit" if how == "time" else Stop.INTERRUPT.text) in result.message
    layers = list(result.answer.layers)
    complete = layers[:-1] if result.details.get("last_layer") == "partial" else layers
    assert 10 < len(complete) < len(LAYERS) and complete == LAYERS[:len(complete)]
    assert "--resume" in result.message


def test_the_earlier_layers_are_one_set_in_memory_while_they_fit(counter, tmp_path,
                                                                 monkeypatch):
    """With room for every earlier layer's codes, each finished layer is read back once
    (to join the set), not once per later layer: reads grow with the layers, not with
    their square."""
    reads = [0]
    counting_reads(monkeypatch, lambda: reads.__setitem__(0, reads[0] + 1))
    run(counter, tmp_path, 200_000)
    # each layer: read as the frontier, and once into the set
    assert reads[0] <= 2 * len(LAYERS) + 2


def test_a_stopped_run_s_temporary_directory_does_not_hold_up_the_answer(counter,
                                                                         monkeypatch):
    """Without --work-dir the layers go to a temporary directory, removed at the end: its
    thousands of small files took up to 0.6 s to remove (2,300 layers, a loaded machine),
    the whole of the time a stopped engine has to return its answer.  A run stopped at a
    limit (here Ctrl-C at the 50th file read) leaves it to the process's exit, after the
    answer; a finished run removes it at once."""
    reads = [0]

    def each():
        reads[0] += 1
        if reads[0] == 50:
            interrupt.request()

    counting_reads(monkeypatch, each)
    made = []
    real = external_module.tempfile.mkdtemp
    monkeypatch.setattr(external_module.tempfile, "mkdtemp",
                        lambda **kw: made.append(real(**kw)) or made[-1])
    stopped = external_layers(counter, Budget(), "start", Disk(None, False, 200_000))
    assert stopped.status is Status.PARTIAL and Path(made[0]).exists()
    from cpsolve.engines.runtime import removal

    removal.finish()  # at exit
    assert not Path(made[0]).exists()
    interrupt.clear()
    done = external_layers(counter, Budget(), "start", Disk(None, False, 200_000))
    assert list(done.answer.layers) == LAYERS and not Path(made[1]).exists()
