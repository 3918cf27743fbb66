"""A local Dask cluster: why its start stops before it is up; what it leaves behind (no
scratch files, no workers started again after a stop)."""

from __future__ import annotations

import tempfile
import time

import pytest

from cpsolve.engines.runtime.clock import state_limit
from cpsolve.engines.runtime.dask.client import client_for
from cpsolve.engines.runtime.dask.local import SCRATCH, _kill_workers, abandon, start_ends
from cpsolve.engines.runtime.processes import tracking


def test_a_start_past_the_time_left_names_the_commands_limit():
    """The start had the 3 s left of the command's --time-limit 4: past them it said "time
    limit reached", the figure left out (docs/reference/engines.md: a stop names it)."""
    state_limit(4.0)
    try:
        assert start_ends(time.monotonic() - 3.5, 3.0, None)() == "time limit 4 s reached"
        assert start_ends(time.monotonic(), 3.0, None)() is None  # still within them
    finally:
        state_limit(None)


def _local_tmp(monkeypatch, tmp_path):
    """The system's temporary directory moved to a new, empty one (for this process and the
    worker processes it spawns): what a local cluster leaves there is all it holds."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp


@pytest.mark.parametrize("stopped", [False, True], ids=["closed", "workers-killed"])
def test_a_local_cluster_leaves_no_scratch_files_behind(stopped, monkeypatch, tmp_path):
    """Dask's scratch space (``dask-scratch-space``: ``global.lock``, ``purge.lock``, and a
    ``worker-*.dirlock`` per worker killed after a stop) was left in $TMPDIR by every run
    with --workers; the cluster now keeps it in a directory of its own, removed at the end."""
    pytest.importorskip("distributed")
    tmp = _local_tmp(monkeypatch, tmp_path)
    with client_for(2) as client:
        held = [p.name for p in tmp.iterdir()]
        if stopped:
            abandon(client)
    assert len(held) == 1 and held[0].startswith(SCRATCH)  # its own, while it runs
    assert list(tmp.iterdir()) == []


def test_killed_workers_are_not_started_again(monkeypatch, tmp_path):
    """A nanny whose worker died starts a new one at once: the workers killed at a limit or
    Ctrl-C came back, and the cluster's close then waited for them to start and stopped
    them (a second or more past the limit on a loaded machine, the run cut off), or the
    process ended with them still starting.  Killed on purpose, each nanny closes instead."""
    pytest.importorskip("distributed")
    from distributed.core import Status

    _local_tmp(monkeypatch, tmp_path)
    before = tracking.spawned()
    with client_for(2) as client:
        local = client.cluster
        workers = tracking.spawned() - before
        _kill_workers(local)
        nannies = list(local.workers.values())
        for _ in range(600):  # a bound against a hang: each nanny's end, or a new worker
            new = tracking.spawned() - before - workers
            if new or all(n.status is Status.closed for n in nannies):
                break
            time.sleep(0.1)
        assert not new
        assert [n.status for n in nannies] == [Status.closed] * 2
