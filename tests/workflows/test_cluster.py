"""Dask (the [dask] extra): the partitioned BFS equals the single-process analysis, and
batches of solve / compare run one task per instance without losing any instance."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("distributed", reason="the [dask] extra is not installed")

from cpsolve.engines import engines_for, installed, not_applicable  # noqa: E402
from cpsolve.engines.runtime.clock import Clock, state_limit  # noqa: E402
from cpsolve.engines.search.common import Budget  # noqa: E402
from cpsolve.engines.search.compile import compile_planning  # noqa: E402
from cpsolve.engines.search.statespace.cluster import cluster_layers  # noqa: E402
from cpsolve.engines.search.statespace.external import Disk, external_layers  # noqa: E402
from cpsolve.output.schema import schema  # noqa: E402
from cpsolve.puzzles.files import load, resolve  # noqa: E402
from cpsolve.workflows.batch.budget import TaskBudget  # noqa: E402
from cpsolve.workflows.batch.cluster import CLUSTER_GRACE, on_cluster  # noqa: E402
from cpsolve.workflows.batch.comparing import Compared, compare_one  # noqa: E402
from cpsolve.workflows.batch.items import Item, instances  # noqa: E402
from cpsolve.workflows.batch.rows import Row  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"

PEGS = ('family = "pegs"\nname = "cross 21"\nmetric = "jumps"\ngoal_peg = [2, 2]\n'
        'board = """\n ooo\nooooo\noo.oo\nooooo\n ooo\n"""\n')


@pytest.fixture(scope="module")
def scheduler():
    """The address of a LocalCluster of 2 single-threaded worker processes."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                      processes=True) as cluster:
        yield cluster.scheduler_address


def lines(out: str) -> list[dict]:
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    validator = jsonschema.Draft202012Validator(schema())
    for row in rows:
        errors = list(validator.iter_errors(row))
        assert not errors, errors[0].message
    return rows


def test_cli_workers_2_on_the_8_puzzle(cli):
    """The issue's acceptance: 181,440 states, maximum distance 31 (docs/design.md)."""
    run = cli("analyze", "eight_puzzle", "--workers", "2", "--json")
    out = lines(run.out)[0]
    assert run.code == 0, run.err
    assert out["details"]["algorithm"] == "cluster" and out["details"]["partitions"] == 2
    assert out["states"] == 181_440 and out["max_distance"] == 31
    single = json.loads(cli("analyze", "eight_puzzle", "--json").out)
    assert (out["states"], out["max_distance"]) == (single["states"], single["max_distance"])


@pytest.mark.parametrize("name", ["line_puzzle", "pegs"])
def test_partitioned_equals_single_process(name, scheduler, tmp_path):
    if name == "pegs":
        (tmp_path / "pegs.toml").write_text(PEGS)
        name = str(tmp_path / "pegs.toml")
    model = load(resolve(name)).model
    ours = cluster_layers(compile_planning(model), Budget(), "start", scheduler)
    single = external_layers(compile_planning(model), Budget(), "start", Disk(memory=1 << 20))
    assert ours.answer.layers == single.answer.layers
    assert ours.answer.farthest == single.answer.farthest
    assert ours.details.get("orbit_layers") == single.details.get("orbit_layers")


@pytest.mark.parametrize("name, limit", [("eight_puzzle", 1000), ("eight_puzzle", 771),
                                         ("pegs", 40)])
def test_a_state_limit_inside_a_layer_stops_there_on_the_cluster(name, limit, scheduler,
                                                                  tmp_path):
    """--limit N stops at N states (at most N with symmetries: whole orbits), the last layer
    partial, its complete layers those of the single-process analysis (issue 21).  771 ends
    the 8-puzzle's layer 10 from the start exactly: nothing is partial."""
    if name == "pegs":
        (tmp_path / "pegs.toml").write_text(PEGS)
        name = str(tmp_path / "pegs.toml")
    model = load(resolve(name)).model
    full = external_layers(compile_planning(model), Budget(), "start", Disk(memory=1 << 20))
    ours = cluster_layers(compile_planning(model), Budget(limit=limit), "start", scheduler)
    layers, n = ours.answer.layers, len(ours.answer.layers)
    assert ours.status.value == "partial" and ours.answer.states == sum(layers)
    assert ours.answer.states <= limit
    if name == "eight_puzzle":
        assert ours.answer.states == limit  # one state per code: exactly N
    if ours.details.get("last_layer") == "partial":
        assert layers[:-1] == full.answer.layers[:n - 1]
        assert 0 < layers[-1] < full.answer.layers[n - 1]
        assert f"the last layer (distance {n - 1}) is partial" in ours.message
    else:
        assert layers == full.answer.layers[:n]
        assert limit == 771 or name == "pegs"


def test_compare_streams_a_line_per_model_and_a_summary(cli, scheduler, tmp_path):
    for name in ("water_jugs", "blocks", "fifteen_unsolvable"):
        shutil.copy(MODELS / f"{name}.toml", tmp_path)
    (tmp_path / "broken.toml").write_text('family = "pegs"\nboard = 3\n')
    run = cli("compare", tmp_path, "--scheduler", scheduler, "--json")
    rows = lines(run.out)
    assert run.code == 1  # the broken file
    assert rows[-1]["compare"] == {**rows[-1]["compare"], "instances": 4, "agree": 2,
                                   "unchecked": 1, "disagree": 0, "error": 1}
    models = {r["file"]: r for r in rows[:-1] if "file" in r}
    agree = {Path(file).stem: r["agree"] for file, r in models.items()}
    # the 15-puzzle's parity answers alone, before any engine: not cross-checked
    assert agree == {"water_jugs": True, "blocks": True, "fifteen_unsolvable": None}
    jugs = models[str(tmp_path / "water_jugs.toml")]
    assert {r["steps"] for r in jugs["results"]} == {10}  # docs/design.md: 10 moves
    assert [r["source"] for r in rows if "error" in r] == [str(tmp_path / "broken.toml")]


@pytest.mark.parametrize("broken", [0, 1])
def test_compare_s_summary_line_on_the_cluster_counts_in_words(cli, scheduler, tmp_path,
                                                               broken):
    """The text summary agrees in number: ``1 instance``, ``1 error``, ``0 errors`` (it
    said "1 instances" and "1 errors")."""
    files = [MODELS / "water_jugs.toml"]
    for i in range(broken):
        files.append(tmp_path / f"broken{i}.toml")
        files[-1].write_text('family = "pegs"\nboard = 3\n')
    run = cli("compare", *files, "--scheduler", scheduler)
    assert run.code == (1 if broken else 0), run.out + run.err
    last = run.out.strip().splitlines()[-1]
    instances = "1 instance" if not broken else f"{1 + broken} instances"
    errors = "1 error" if broken == 1 else f"{broken} errors"
    assert re.fullmatch(rf"{instances} in [\d.]+ s on the cluster: 1 agree, 0 not "
                        rf"cross-checked, 0 disagree, {errors}", last), last


def test_solve_batch_on_the_cluster(cli, scheduler):
    run = cli("solve", "water_jugs", "blocks", "--engine", "search", "--scheduler", scheduler,
              "--json")
    rows = lines(run.out)
    assert run.code == 0, run.err
    steps = {Path(r["source"]).stem: r["steps"] for r in rows[:-1]}
    assert steps == {"water_jugs": 10, "blocks": 5}  # docs/design.md
    assert rows[-1]["batch"]["instances"] == 2


def test_a_failed_task_loses_no_other(scheduler):
    items = list(instances([str(MODELS / "water_jugs.toml"), str(MODELS / "blocks.toml")]))

    def work(item: Item, time_limit):
        if "blocks" in item.source:
            raise RuntimeError("boom")
        return compare_one(item, "solve", time_limit)

    done = list(on_cluster(items, work, scheduler, TaskBudget(Clock(None)),
                           lambda item, why: Compared(item.source, item.puzzle, error=why)))
    assert sorted(d.source for d in done) == sorted(i.source for i in items)
    failed = [d for d in done if d.error]
    assert len(failed) == 1 and "boom" in failed[0].error


STUCK = 300.0
"""Seconds a task that ignores its budget would run (the run must end long before)."""


def test_an_overdue_task_is_given_up_and_the_others_still_run(monkeypatch):
    """A task that ignores its budget is cancelled ``CLUSTER_GRACE`` past it (and its
    worker of the local cluster restarted); the items after it still run.  The cluster's
    start is not cut by a task's budget (without a time limit, it has none: a loaded
    machine once took more than a task's 3 s to start the workers)."""
    import cpsolve.workflows.batch.cluster

    monkeypatch.setattr(cpsolve.workflows.batch.cluster, "CLUSTER_GRACE", 3.0)
    names = ("water_jugs", "blocks", "three_jugs")
    items = list(instances([str(MODELS / f"{n}.toml") for n in names]))

    def slow(item: Item, time_limit):
        time.sleep(STUCK if "blocks" in item.source else 0)
        return Row(item.source, item.puzzle, None, f"finished within {time_limit:.3g} s")

    start = time.monotonic()
    done = list(on_cluster(items, slow, 2, TaskBudget(Clock(None), each=3.0),
                           lambda item, why: Row(item.source, item.puzzle, None, why)))
    assert time.monotonic() - start < STUCK  # an order: it did not wait for the stuck task
    errors = {Path(r.source).stem: r.error for r in done}
    assert errors["blocks"] == "not finished within its budget (3 s + 3 s grace)"
    assert errors["water_jugs"].startswith("finished") and \
        errors["three_jugs"].startswith("finished")


def test_the_grace_for_a_late_task_ends_with_the_command_s_time(monkeypatch):
    """Under a time limit a cluster batch stops waiting for a task that ignores its budget
    when its own time is up, before the command's clock would cut it (the summary's tail
    kept), not :data:`CLUSTER_GRACE` past the task's budget: the late task's row says the
    time limit cut it off (``cut``: an unknown result in ``solve``), the others are kept.
    The command's clock is the test's: it stands still until the quick task's row is in,
    then jumps past the limit."""
    import cpsolve.engines.runtime.clock as clock_module
    from cpsolve.answers.result import Result

    monkeypatch.setattr(clock_module, "_stated", [60.0])  # the command's --time-limit 60
    now = [0.0]  # (the local cluster's start has as many real seconds, on a loaded machine)
    clock = Clock(60.0, now=lambda: now[0])
    items = list(instances([str(MODELS / f"{n}.toml") for n in ("water_jugs", "blocks")]))

    def slow(item: Item, time_limit):
        time.sleep(STUCK if "blocks" in item.source else 0)
        return Row(item.source, item.puzzle, None, f"finished within {time_limit:.3g} s")

    rows = []
    for row in on_cluster(items, slow, 2, TaskBudget(clock, keep=0.2),
                          lambda item, why: Row(item.source, item.puzzle, None, why),
                          cut=lambda item, why: Row(item.source, item.puzzle,
                                                    Result.stopped("solve", "search", why))):
        rows.append(row)
        now[0] = 60.0 - 0.3  # past the batch's own end (the tail and the close before it)
    by_stem = {Path(r.source).stem: r for r in rows}
    assert set(by_stem) == {"water_jugs", "blocks"}
    assert by_stem["water_jugs"].error.startswith("finished within")
    blocks = by_stem["blocks"]
    assert blocks.status == "unknown", blocks
    assert blocks.result.message == "not finished: time limit 60 s reached"
    assert clock.elapsed() < 60.0  # the command's clock never came: the batch ended first


def test_progress_after_each_layer(scheduler, monkeypatch):
    import cpsolve.engines.search.common as common

    monkeypatch.setattr(common, "REPORT_EVERY", 0.0)
    lines: list[str] = []
    model = load(resolve("onoff")).model
    cluster_layers(compile_planning(model), Budget(progress=lines.append), "start", scheduler)
    assert len(lines) >= 44  # one per layer; the goal alone is 44 moves away (docs/design.md)
    assert all("states/s on 2 partitions" in ln for ln in lines)
    assert any("next layer ~" in ln for ln in lines)


def test_a_layer_is_two_tasks_per_partition_and_pieces_go_worker_to_worker(scheduler):
    """Issue 23: the exchange is not a task per piece.  Dask's own task stream holds, per
    layer, one expand and one merge task per partition and nothing else: no routing
    tasks, no count round (the start is not merged; the empty layer after the last one
    is merged, and found empty; the tasks of the round submitted one layer ahead of it may
    run too, all or some of them before they are cancelled, with nothing to expand)."""
    from distributed import Client, get_task_stream

    model = load(resolve("line_puzzle")).model
    with Client(scheduler) as client, get_task_stream(client) as stream:
        ours = cluster_layers(compile_planning(model), Budget(), "start", scheduler)
    kinds = sorted({t["key"].split("-")[0] for t in stream.data})
    layers, parts = len(ours.answer.layers), ours.details["partitions"]
    names = [t["key"].split("-")[0] for t in stream.data]
    assert kinds == ["expand_part", "merge_part"], kinds
    for kind in ("expand_part", "merge_part"):  # the round ahead: cancelled, some may run
        assert parts * layers <= names.count(kind) <= parts * (layers + 1), kind


def test_a_shared_array_goes_chunk_by_chunk_to_whichever_worker_asks(scheduler):
    """A partition is expanded chunk by chunk, and a worker done with its own partition
    takes the next chunks of the others: every chunk goes to exactly one asker."""
    from distributed import Client

    from cpsolve.engines.runtime.dask import exchange as x
    from cpsolve.engines.search.statespace.partitions import exchange

    def drain(key, address):
        taken = []
        while (chunk := x.steal(key, address)) is not None:
            taken.append(chunk.tolist())
        return taken

    with Client(scheduler) as client, exchange(client) as run:
        a, b = sorted(client.nthreads())
        key = (run, 0, "frontier", 0)
        assert client.submit(x.steal, key, a, workers=[b], pure=False).result() is None
        client.submit(x.share, key, np.arange(10, dtype=np.int64), 3, workers=[a],
                      pure=False).result()
        stolen = client.submit(lambda: [x.steal(key, a).tolist() for _ in range(2)],
                               workers=[b], pure=False).result()
        own = client.submit(drain, key, a, workers=[a], pure=False).result()
        late = client.submit(drain, key, a, workers=[b], pure=False).result()
    assert stolen == [[0, 1, 2], [3, 4, 5]]  # from the other worker, over the wire
    assert own == [[6, 7, 8], [9]] and late == []  # the owner takes what is left


def test_a_thief_may_wait_for_an_array_still_to_be_shared(scheduler):
    """One layer ahead, a worker done with its merge expands its partition and then asks
    for the other's, which that worker shares only once its own merge is done: the asker
    waits for it (never past the run's end) instead of ending its task early."""
    from distributed import Client

    from cpsolve.engines.runtime.dask import exchange as x
    from cpsolve.engines.search.statespace.partitions import exchange

    with Client(scheduler) as client, exchange(client) as run:
        a, b = sorted(client.nthreads())
        key = (run, 0, "frontier", 1)
        waiting = client.submit(x.steal, key, a, True, workers=[b], pure=False)
        time.sleep(0.3)
        assert not waiting.done()  # nothing shared yet: it waits
        client.submit(x.share, key, np.arange(5, dtype=np.int64), 3, workers=[a],
                      pure=False).result()
        assert waiting.result(timeout=10).tolist() == [0, 1, 2]
        drained = client.submit(lambda: [x.steal(key, a, True) for _ in range(2)],
                                workers=[b], pure=False).result(timeout=10)
        assert drained[0].tolist() == [3, 4] and drained[1] is None  # all taken: no wait
        never = (run, 0, "frontier", 0)
        stuck = client.submit(x.steal, never, a, True, workers=[b], pure=False)
        time.sleep(0.2)
        client.run(x.clear, run)
        assert stuck.result(timeout=10) is None  # the run ended: the wait does too


def test_waiting_for_futures_the_cluster_cancelled_raises_cancelled(scheduler):
    """A future cancelled under the waiter (as Dask does to tasks whose inputs died with a
    worker) ends the wait with :class:`Cancelled`: neither a hang nor a layer taken for made."""
    import threading

    from distributed import Client

    from cpsolve.engines.runtime.dask.waiting import Cancelled, finished

    with Client(scheduler) as client:  # pinned to no worker: it waits, and takes none
        waiting = client.submit(sum, [1], workers=["tcp://127.0.0.1:9"], pure=False)
        timer = threading.Timer(0.3, client.cancel, [[waiting]])
        timer.start()
        with pytest.raises(Cancelled):
            finished(client, [waiting], lambda: False)
        timer.join()


def test_a_time_limit_mid_analysis_stops_with_complete_layers(scheduler):
    """With a layer submitted ahead, a limit that runs out mid-analysis (English 33 has
    187 M positions) still stops with complete layers only, each equal to the
    single-process count on disk."""
    model = load(resolve("english33")).model
    ours = cluster_layers(compile_planning(model), Budget(clock=Clock(3.0)), "start",
                          scheduler)
    assert ours.status.value == "partial" and "time limit" in ours.message
    done = list(ours.answer.layers)
    single = external_layers(compile_planning(model), Budget(limit=3_000_000), "start",
                             Disk(memory=1 << 24))
    known = list(single.answer.layers)[:-1]  # its last layer is cut at the limit
    assert done and done[:len(known)] == known[:len(done)]


def test_a_stopped_analysis_leaves_nothing_on_the_workers(scheduler):
    """A state limit stops the analysis: what its tasks filed on the workers (pieces, sizes)
    is cleared from them (a shared cluster keeps running)."""
    from distributed import Client

    def _pieces_left() -> int:  # pickled by value: the workers need not import this file
        from cpsolve.engines.runtime.dask import exchange as dask_exchange

        return len(dask_exchange._BOX) + len(dask_exchange._NOTES)

    model = load(resolve("eight_puzzle")).model
    ours = cluster_layers(compile_planning(model), Budget(limit=1000), "start", scheduler)
    assert ours.status.value == "partial"
    with Client(scheduler) as client:
        deadline = time.monotonic() + 10  # the clearing is not waited for
        while sum(client.run(_pieces_left).values()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sum(client.run(_pieces_left).values()) == 0


def test_a_stop_before_the_first_layer_still_reports_the_start(scheduler):
    """A time limit spent before the first layer (starting Dask on a loaded machine can
    take it all) stops with the start itself, layer 0, complete."""
    model = load(resolve("eight_puzzle")).model
    clock = Clock(0.001)
    time.sleep(0.01)
    ours = cluster_layers(compile_planning(model), Budget(clock=clock), "start", scheduler)
    assert ours.status.value == "partial" and list(ours.answer.layers) == [1]
    assert "complete up to distance 0" in ours.message


def test_a_time_limit_spent_while_a_local_cluster_starts_reports_the_start():
    """Starting a local cluster takes seconds on a loaded machine; a limit that runs out
    meanwhile stops the start (its processes killed) and reports the start, layer 0."""
    import multiprocessing

    model = load(resolve("eight_puzzle")).model
    before = set(multiprocessing.active_children())
    ours = cluster_layers(compile_planning(model), Budget(clock=Clock(0.001)), "start", 2)
    assert ours.status.value == "partial" and list(ours.answer.layers) == [1]
    assert "time limit" in ours.message and "complete up to distance 0" in ours.message
    for child in set(multiprocessing.active_children()) - before:
        child.join(60)  # a bound against a hang: the killed are reaped at once
        assert not child.is_alive()


def test_a_start_stopped_kills_the_processes_it_spawned():
    """What a stopped start had spawned is killed at once, not left to finish starting."""
    import multiprocessing

    from cpsolve.engines.runtime.dask.local import NotStarted, started

    spawned = []

    def slow_start():
        child = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(60,))
        child.start()
        spawned.append(child)
        time.sleep(60)

    asked = []

    def ended():
        asked.append(1)
        return "time limit reached" if spawned and len(asked) > 1 else None

    with pytest.raises(NotStarted, match="time limit reached"):
        started(slow_start, ended)
    spawned[0].join(60)  # a bound against a hang: the kill came before NotStarted
    assert spawned[0].exitcode == -signal.SIGKILL


def test_a_start_the_callers_clock_cuts_is_stopped_and_its_processes_killed():
    """The caller's clock past its grace (its thread had too small a share of the machine
    to ask ``ended()`` in time): the start is stopped as when ``ended()`` says so, its
    processes killed, and the guard that cut it raises no more (the start alone is then
    the answer, not cut off in turn)."""
    import multiprocessing

    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.dask.local import NotStarted, started

    ticks, spawned = [0.0], []
    clock = Clock(1.0, lambda: ticks[0])

    def slow_start():
        child = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(60,))
        child.start()
        spawned.append(child)
        ticks[0] = 1e6  # far past the limit and the grace: the alarm now cuts
        signal.raise_signal(signal.SIGALRM)
        time.sleep(60)

    try:
        with clock.guard("running search", 0.3):
            with pytest.raises(NotStarted, match="time limit 1 s reached"):
                started(slow_start, lambda: None)
            time.sleep(0.2)  # a second alarm of the guard would raise TimeUp here
    finally:
        interrupt.clear()
    spawned[0].join(60)  # a bound against a hang: the kill came before NotStarted
    assert spawned[0].exitcode == -signal.SIGKILL


def test_ctrl_c_while_a_scheduler_does_not_answer_stops_the_wait(monkeypatch):
    """Dask's connect to a scheduler that does not answer waits out its timeout whatever
    comes (Ctrl-C only sets the stop flag): the wait is asked for a stop meanwhile, and a
    stop ends it with :class:`NotStarted`, not the timeout's :class:`Unsupported`."""
    import threading

    import distributed

    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.dask.client import client_for
    from cpsolve.engines.runtime.dask.local import NotStarted

    connecting, never = threading.Event(), threading.Event()

    def unanswered(address, timeout):  # Dask's connect, as long as the test could wait
        connecting.set()
        never.wait(20)
        raise OSError(f"Timed out trying to connect to {address} after {timeout}")

    monkeypatch.setattr(distributed, "Client", unanswered)
    # a host that does not answer refuses nothing (port 1 here would refuse at once)
    monkeypatch.setattr("cpsolve.engines.runtime.dask.client.refused", lambda address: False)
    threading.Thread(target=lambda: connecting.wait(20) and interrupt.request(),
                     daemon=True).start()
    try:
        with pytest.raises(NotStarted, match="tcp://127.0.0.1:1 was stopped: interrupted"):
            with client_for("tcp://127.0.0.1:1"):
                pass
    finally:
        never.set()
        interrupt.clear()


def test_analyze_on_a_cluster_the_clock_cuts_while_it_starts_answers_the_start(
        cli, monkeypatch, late_alarm):
    """``analyze --workers 2`` whose command clock (past every grace) comes while the local
    cluster starts: the answer is the start alone (layer 0, partial), as the docs say —
    not a result with no answer."""
    from cpsolve.engines.runtime.dask import local

    monkeypatch.setattr(local, "_make_into", lambda made, make: time.sleep(30))
    late_alarm("cpsolve.engines.runtime.dask.local._make_into")
    run = cli("analyze", MODELS / "eight_puzzle.toml", "--workers", "2", "--time-limit", "5",
              "--json")
    out = json.loads(run.out)
    assert out["status"] == "partial", run.err
    assert out["answer"] == "analysis" and out["layers"] == [1] and out["states"] == 1
    assert "complete up to distance 0" in out["message"]
    assert run.code == 1


def test_a_cluster_batch_whose_time_is_spent_while_it_starts_says_so_per_item():
    from cpsolve.engines.runtime.dask.tasks import each

    out = list(each(["a", "b"], lambda item, time_limit: item, 2, budget=lambda n, s: 0.001,
                    start=0.001))
    assert [o.item for o in out] == ["a", "b"]
    assert all(o.error.startswith("not started: ") and "time limit" in o.error for o in out)


def test_owners_deal_power_of_two_partitions_to_the_workers_thread_by_thread():
    from cpsolve.engines.search.statespace.partitions import owners_of

    class Threads:
        def __init__(self, threads: dict[str, int]):
            self.threads = threads

        def nthreads(self) -> dict[str, int]:
            return self.threads

    assert owners_of(Threads({"a": 1})) == ["a"]
    assert owners_of(Threads({"b": 1, "a": 1})) == ["a", "b"]
    assert owners_of(Threads({"a": 1, "b": 2})) == ["a", "b", "b", "a"]  # 3 threads: 4 parts
    assert owners_of(Threads({"a": 4})) == ["a"] * 4


@settings(deadline=None)
@given(st.lists(st.integers(-2**63, 2**63 - 1), max_size=200), st.sampled_from([1, 2, 4, 8]))
def test_pieces_by_owner_are_the_codes_each_owner_holds(codes, parts):
    from cpsolve.engines.search.statespace.store import by_owner, owner

    array = np.array(codes, np.int64)
    pieces = by_owner(array, (parts - 1).bit_length())
    assert len(pieces) == parts
    for j, piece in enumerate(pieces):
        mine = array[owner(array, (parts - 1).bit_length()) == j] if parts > 1 else array
        assert sorted(piece.tolist()) == sorted(mine.tolist())


@pytest.mark.slow
def test_a_connection_lost_to_a_worker_that_left_is_said_as_its_leaving(monkeypatch):
    """A merge task whose peer died mid-exchange fails with a lost connection, which may
    reach the client before the scheduler has seen the worker leave: the layer's wait
    looks for the worker, and says it left, rather than passing the connection error on."""
    from cpsolve.answers.result import Unsupported
    from cpsolve.engines.search.statespace import cluster

    class Client:
        looks = 0

        def nthreads(self):
            self.looks += 1  # the scheduler sees the worker gone at its second look
            return {"tcp://a": 1, "tcp://b": 1} if self.looks < 2 else {"tcp://a": 1}

    def lost(*args, **kwargs):
        raise OSError("Stream is closed")

    monkeypatch.setattr(cluster, "finished", lost)
    rounds = cluster._Rounds(Client(), None, ["tcp://a", "tcp://b"], "run", False)
    with pytest.raises(Unsupported, match="tcp://b left the cluster during the analysis"):
        rounds.wait([], 3, lambda: False)
    monkeypatch.setattr(cluster, "GONE_WAIT", 0.0)  # every worker there: the error as it is
    rounds = cluster._Rounds(Client(), None, ["tcp://a"], "run", False)
    with pytest.raises(OSError, match="Stream is closed"):
        rounds.wait([], 3, lambda: False)


def test_a_connection_lost_while_asking_a_layers_sizes_is_said_as_a_leaving(monkeypatch):
    """A worker killed just after a layer's tasks end is gone when the client asks every
    worker for the sizes they noted (a broadcast): that lost connection is said as the
    worker having left, as one lost while the tasks ran is."""
    from cpsolve.answers.result import Unsupported
    from cpsolve.engines.search.statespace import cluster

    class Client:
        def nthreads(self):
            return {"tcp://a": 1}  # b is gone

        def run(self, *args, **kwargs):
            raise OSError("in <TCP (closed) Scheduler Broadcast>: Connection reset by peer")

    monkeypatch.setattr(cluster, "finished", lambda *args, **kwargs: True)
    rounds = cluster._Rounds(Client(), None, ["tcp://a", "tcp://b"], "run", False)
    with pytest.raises(Unsupported, match="tcp://b left the cluster during the analysis"):
        rounds.wait([], 3, lambda: False)


def test_a_worker_that_leaves_stops_the_analysis_with_a_message():
    """A partition's tasks are pinned to its worker: when that worker dies mid-analysis
    (its nanny starts a new one, at another address), the analysis must not wait forever
    for a worker that is gone."""
    import threading

    from distributed import Client, LocalCluster

    from cpsolve.answers.result import Unsupported

    model = load(resolve("english33")).model
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                      processes=True) as cluster, Client(cluster) as client:
        ended: list[BaseException | None] = []
        lines: list[str] = []  # its progress lines: one comes once some layers are in

        def analyse() -> None:
            try:
                cluster_layers(compile_planning(model), Budget(progress=lines.append),
                               "start", cluster.scheduler_address)
                ended.append(None)
            except BaseException as exc:  # noqa: BLE001 - what the thread ended with
                ended.append(exc)

        thread = threading.Thread(target=analyse, daemon=True)
        thread.start()
        # some layers in (English 33 from the start takes a minute or more): a fixed wait
        # could end, on a loaded machine, before the analysis had begun
        deadline = time.monotonic() + 120
        while not lines and not ended:
            assert time.monotonic() < deadline, "no layer of the analysis in 120 s"
            time.sleep(0.05)
        assert not ended, ended  # it ends only when the worker leaves
        victim = sorted(client.nthreads())[0]
        os.kill(client.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)
        thread.join(60)
        assert ended and isinstance(ended[0], Unsupported), ended
        assert "left the cluster during the analysis" in str(ended[0])


def test_a_task_started_after_the_limit_does_not_run(scheduler, tmp_path):
    items = list(instances([str(MODELS / "water_jugs.toml"), str(MODELS / "blocks.toml")]))
    ran = tmp_path / "ran"

    def work(item: Item, time_limit):
        ran.write_text(item.source)  # the workers share this machine's disk
        return Row(item.source, item.puzzle, None, "ran")

    late = list(on_cluster(items, work, scheduler, TaskBudget(Clock(1e-9)),
                           lambda item, why: Row(item.source, item.puzzle, None, why)))
    assert sorted(r.error for r in late) == ["not started: time limit reached"] * 2
    assert not ran.exists()
    state_limit(4.0)  # the command's --time-limit: the rows say it (docs/reference/engines.md)
    try:
        late = list(on_cluster(items, work, scheduler, TaskBudget(Clock(1e-9)),
                               lambda item, why: Row(item.source, item.puzzle, None, why)))
    finally:
        state_limit(None)
    assert sorted(r.error for r in late) == ["not started: time limit 4 s reached"] * 2


# ------------------------------------------------------------ budgets and peers on a cluster


def test_compare_on_the_cluster_runs_every_engine_that_applies(cli, scheduler):
    """The peers take part on a cluster as here: each model has a result per engine that
    applies (fd, minizinc when installed), the others are listed as skipped."""
    run = cli("compare", "water_jugs", "latin4", "--scheduler", scheduler, "--json")
    rows = lines(run.out)
    assert run.code == 0, run.err
    assert rows[-1]["compare"]["agree"] == 2
    for row in rows[:-1]:
        model = load(resolve(row["file"])).model
        assert {r["engine"] for r in row["results"]} == set(engines_for(model, "solve", True))
        assert {s["engine"] for s in row["skipped"]} == set(not_applicable(model, "solve"))
    by_file = {Path(r["file"]).stem: r for r in rows[:-1]}
    jugs = {r["engine"]: r for r in by_file["water_jugs"]["results"]}
    assert ("fd" in jugs) == installed("fd")
    assert ("minizinc" in {r["engine"] for r in by_file["latin4"]["results"]}) == \
        installed("minizinc")
    assert {r["steps"] for r in jugs.values() if r["status"] == "optimal"} == {10}  # DESIGN.md


def test_a_tiny_budget_ends_unproven_and_the_others_still_come_back(scheduler):
    """Korf #1 with 0.3 s comes back before its budget and the grace are spent, by the
    clock of the engines' own runs: unproven, given up, or (a worker that already holds the
    pattern tables in memory, whose IDA* then needs a few tenths of a second) proven at
    Korf's 57 moves; the small models beside it, with a budget of their own, come back
    answered."""
    from cpsolve.engines.runtime.dask.tasks import each

    names = ("fifteen_korf1", "water_jugs", "blocks")
    items = list(instances([str(MODELS / f"{n}.toml") for n in names]))
    tiny = 0.3

    def budget(remaining: int, slots: int) -> float:
        return tiny if remaining == len(names) else 60.0  # the first item is Korf #1

    done = {Path(d.item.source).stem: d for d in each(
        items, partial(compare_one, task="solve"), scheduler, budget, CLUSTER_GRACE)}
    assert set(done) == set(names)
    korf = done["fifteen_korf1"]
    if korf.error:
        assert korf.error.startswith("not finished within its budget (0.3 s")
    else:
        results = korf.value.results  # a plan may be found (weighted A*), none proven
        assert results and all(r.status.value in ("unknown", "solved") or
                               (r.status.value == "optimal" and len(r.answer.steps) == 57)
                               for r in results), [(r.engine, r.status.value) for r in results]
        assert sum(r.seconds for r in results) < tiny + CLUSTER_GRACE
    moves = {"water_jugs": 10, "blocks": 5}  # DESIGN.md
    for name, steps in moves.items():
        compared = done[name].value
        assert not done[name].error and not compared.problems
        assert {len(r.answer.steps) for r in compared.results
                if r.status.value == "optimal"} == {steps}


def test_a_cluster_batch_shares_the_time_limit_and_ends_with_its_summary(cli, scheduler):
    """BFS on Korf #1 cannot end within the limit: its row is unknown (or an error) and the
    summary line still comes last, with every instance counted."""
    run = cli("solve", "fifteen_korf1", "water_jugs", "--engine", "search", "--algorithm",
              "bfs", "--scheduler", scheduler, "--time-limit", "6", "--json")
    rows = lines(run.out)
    assert run.code == 1, run.err
    assert rows[-1]["batch"]["instances"] == 2
    by_source = {Path(r["source"]).stem: r for r in rows[:-1]}
    korf = by_source["fifteen_korf1"]
    assert korf.get("status", "error") in ("unknown", "error")
    if "seconds" in korf:  # the engine's own clock: its share of the limit, and a grace
        assert korf["seconds"] < 6 + CLUSTER_GRACE
    jugs = by_source["water_jugs"]
    assert jugs.get("steps", 10) == 10  # DESIGN.md (or not started under a heavy load)


def test_ctrl_c_ends_a_cluster_compare_with_what_it_has_and_its_summary(tmp_path):
    """Ctrl-C at a terminal (SIGINT to the whole process group) once the first model is
    in: the running model returns what its engines have (or is an error line), the summary
    comes last, exit 130, and no worker prints a traceback."""
    for name in ("water_jugs", "fifteen_korf1"):
        shutil.copy(MODELS / f"{name}.toml", tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "cpsolve", "compare", str(tmp_path),
                             "--workers", "2", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    first = proc.stdout.readline()  # water jugs: done long before Korf #1
    os.killpg(proc.pid, signal.SIGINT)
    rest = proc.stdout.read()  # (communicate() would skip what readline() buffered)
    err = proc.stderr.read()
    proc.wait(120)  # a guard against a hang, not a time check
    rows = lines(first + rest)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    summary = rows[-1]["compare"]
    assert summary["instances"] == 2
    assert sum(summary[k] for k in ("agree", "unchecked", "error")) == 2
    korf = rows[1]
    if "error" in korf:
        assert korf["error"] == "not finished: interrupted"
    else:  # the engine running stopped with what it had, the later ones did not run
        model = load(resolve("fifteen_korf1")).model
        said = [r["message"] for r in korf["results"]] + [s["reason"] for s in korf["skipped"]]
        assert any("interrupted" in words for words in said), said
        assert len(said) == len(engines_for(model, "solve", True)) + \
            len(not_applicable(model, "solve"))


@pytest.mark.slow
def test_sigterm_to_the_process_group_keeps_a_cluster_analysis_layers(tmp_path):
    """``timeout -s TERM`` signals the command's whole process group, the local workers
    too, once a few layers are in (the progress line, on a terminal, says which): the
    workers do not die with their partitions, the analysis stops with its complete layers,
    exit 130, and no Dask error reaches stderr."""
    import pty
    import re

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cpsolve", "analyze", "english33",
                             "--from", "start", "--workers", "2", "--json"],
                            stdout=subprocess.PIPE, stderr=slave, text=True,
                            start_new_session=True, env={**os.environ, "COLUMNS": "200"})
    os.close(slave)
    seen = ""
    try:
        while not re.search(r"depth ([5-9]|\d\d):", seen):  # layer 5 is in
            chunk = os.read(master, 65536)  # (the terminal's end: EOF or OSError)
            assert chunk, seen
            seen += chunk.decode(errors="replace")
        os.killpg(proc.pid, signal.SIGTERM)
        out = proc.stdout.read()
        err = seen
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the command has ended: its terminal closed
                break
            if not chunk:
                break
            err += chunk.decode(errors="replace")
        proc.wait(120)  # a guard against a hang, not a time check
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 130, err
    data = lines(out)
    assert len(data) == 1 and data[0]["status"] == "partial", out
    assert data[0]["message"].startswith("stopped: interrupted"), data[0]["message"]
    assert data[0]["bound"] >= 5
    assert not [line for line in err.splitlines()
                if any(word in line for word in ("Traceback", "dask", "error"))], err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_local_workers_start_with_group_signals_blocked_and_the_client_answers_them(sig):
    """Ctrl-C at a terminal, or SIGTERM to the process group (``timeout -s TERM``), reaches
    the workers too; they are spawned with it blocked, so that one arriving while a worker
    still imports prints no traceback, and ignore it once started (the preload hook, found
    by its module's dotted path): a worker that died of SIGTERM took its partitions of an
    analysis with it.  The client's own thread, which answers them, keeps them unblocked."""
    from cpsolve.engines.runtime.dask.client import client_for

    def blocked() -> bool:
        return sig in signal.pthread_sigmask(signal.SIG_BLOCK, [])

    def ignored() -> bool:
        return signal.getsignal(sig) == signal.SIG_IGN

    with client_for(2) as client:
        assert set(client.run(blocked).values()) == {True}
        assert set(client.run(ignored).values()) == {True}
        assert not blocked()


def test_an_abandoned_local_cluster_kills_its_busy_workers_on_the_way_out():
    """After a time limit, the cluster analysis abandons its cancelled tasks: the local
    workers still running them are killed, not waited for."""
    from cpsolve.engines.runtime.dask.client import client_for
    from cpsolve.engines.runtime.dask.local import abandon
    from cpsolve.engines.runtime.dask.waiting import finished

    start, work = time.monotonic(), 60.0
    with client_for(2) as client:
        pids = list(client.run(os.getpid).values())
        busy = [client.submit(time.sleep, work, pure=False, workers=[w])
                for w in client.nthreads()]
        assert not finished(client, busy, lambda: time.monotonic() - start > 1.0)
        abandon(client)
    assert time.monotonic() - start < work  # an order: it did not wait for the sleeps
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            for _ in range(1200):  # reaped by the nanny or gone (60 s: a loaded machine)
                os.kill(pid, 0)
                time.sleep(0.05)


def test_waiting_for_a_layer_stops_when_asked(scheduler):  # keep last: it leaves work behind
    """The cluster analysis waits for a layer through ``gather``, which asks its ``stop``
    while it waits: a stop gives ``None`` long before the work would end; without one, the
    values come back."""
    from cpsolve.engines.runtime.dask.client import client_for
    from cpsolve.engines.runtime.dask.waiting import gather

    with client_for(scheduler) as client:
        assert gather(client, [client.submit(sum, [1, 2], pure=False)], lambda: False) == [3]
        asked = []

        def stop() -> bool:
            asked.append(time.monotonic())
            return len(asked) > 2

        start, work = time.monotonic(), 60.0  # (it keeps a worker of the fixture busy)
        assert gather(client, [client.submit(time.sleep, work, pure=False)], stop) is None
        assert time.monotonic() - start < work  # an order: it did not wait for the work
        assert len(asked) == 3


class _Records(logging.Handler):
    """The records logged to the handler, kept."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _inc(x: int) -> int:
    return x + 1


def test_a_stop_cancels_a_layer_submitted_ahead_before_the_layer_it_needs(scheduler):
    """``a`` ← ``b`` (no future held, as an expand task) ← ``c``: a stop while waiting for
    ``a`` cancels ``c`` first.  The other way round the scheduler's cancel of ``a`` goes on
    to ``b`` and fails ``assert ts.who_wants``, logged as errors with tracebacks (the
    cluster analysis stopped by a limit or Ctrl-C printed 29 such lines)."""
    from distributed import Client

    from cpsolve.engines.runtime.dask.waiting import finished

    seen = _Records()
    dask_log = logging.getLogger("distributed")
    dask_log.addHandler(seen)
    try:
        with Client(scheduler) as client:
            a = client.submit(time.sleep, 2, pure=False)
            c = client.submit(_inc, client.submit(_inc, a, pure=False), pure=False)
            assert not finished(client, [a], lambda: True, dependents=[c])
            client.run(lambda: None)  # a round trip: the cancels have been handled
            time.sleep(0.2)
            assert a.cancelled() and c.cancelled()
    finally:
        dask_log.removeHandler(seen)
    assert [r.getMessage() for r in seen.records if r.levelno >= logging.ERROR] == []


def test_dask_log_records_are_one_line_each():
    from cpsolve.engines.runtime.dask.logs import OneLine

    try:
        raise AssertionError("who_wants\nsecond line")
    except AssertionError:
        record = logging.LogRecord("distributed.core", logging.ERROR, __file__, 1,
                                   "Exception while handling op %s\nmore", ("cancel",),
                                   sys.exc_info())
    assert OneLine().format(record) == ("dask core error: Exception while handling op "
                                        "cancel: AssertionError: who_wants")


def test_a_cluster_analysis_stopped_by_its_time_limit_prints_no_dask_noise(cli_subprocess):
    """The JSON result on stdout, nothing on stderr: no traceback nor Dask log line (the
    cancel order, :func:`test_a_stop_cancels_a_layer_submitted_ahead_before_the_layer_it
    _needs`, and Dask silenced while the cluster shuts down)."""
    run = cli_subprocess("analyze", MODELS / "fifteen_easy.toml", "--limit", "none",
                         "--json", "--workers", "2", "--time-limit", "4")
    assert run.code == 1, run.err
    out = json.loads(run.out)
    assert out["status"] == "partial" and "time limit" in out["message"]
    assert not [line for line in run.err.splitlines()
                if any(word in line for word in ("Traceback", "ERROR", "Error", "dask"))]


@pytest.fixture
def mixed(tmp_path) -> Path:
    """A batch folder: two good models and one that does not load (a TOML syntax error)."""
    for name in ("water_jugs", "blocks"):
        shutil.copy(MODELS / f"{name}.toml", tmp_path / f"{name}.toml")
    (tmp_path / "bad.toml").write_text('name = "unterminated\n')
    return tmp_path


def test_an_interrupted_cluster_batch_keeps_the_bad_files_own_errors(mixed, scheduler):
    """Ctrl-C before any task starts: the loaded items were not started, and say so; the
    file that did not load keeps its own error (it never was a task)."""
    from cpsolve.engines.runtime import interrupt

    items = list(instances([str(mixed)]))
    interrupt.request()
    try:
        rows = list(on_cluster(items, partial(compare_one, task="solve"), scheduler,
                               TaskBudget(Clock(None)),
                               lambda item, why: Compared(item.source, item.puzzle, error=why)))
    finally:
        interrupt.clear()
    errors = {Path(r.source).stem: r.error for r in rows}
    assert errors["water_jugs"] == errors["blocks"] == "not started: interrupted"
    assert "bad.toml" in errors["bad"] and "not started" not in errors["bad"]


def test_a_batch_of_files_that_did_not_load_starts_no_cluster(tmp_path, monkeypatch):
    """Nothing to run: each row is its file's error, and no cluster is started for it."""
    from cpsolve.engines.runtime.dask import tasks

    (tmp_path / "bad.toml").write_text("[[[\n")
    monkeypatch.setattr(tasks, "each", lambda *a, **k: pytest.fail("a cluster"))
    rows = list(on_cluster(list(instances([str(tmp_path)])), partial(compare_one, task="solve"),
                           2, TaskBudget(Clock(None)),
                           lambda item, why: Compared(item.source, item.puzzle, error=why)))
    assert len(rows) == 1 and "bad.toml" in rows[0].error


def test_an_interrupted_cluster_batch_names_the_bad_file_on_stderr(cli, mixed, scheduler,
                                                                    monkeypatch):
    """The CLI, interrupted as the cluster's work begins: the bad file's row and its
    stderr line are its own error, naming it; the others were not started; exit 130."""
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.dask import tasks

    real = tasks.each

    def interrupted(*args, **kwargs):
        interrupt.request()
        yield from real(*args, **kwargs)

    monkeypatch.setattr(tasks, "each", interrupted)
    try:
        run = cli("solve", mixed, "--engine", "search", "--scheduler", scheduler, "--json")
    finally:
        interrupt.clear()
    rows = lines(run.out)
    assert run.code == 130
    errors = {Path(r["source"]).stem: r.get("error") or r.get("message") for r in rows[:-1]}
    assert errors["water_jugs"] == errors["blocks"] == "not started: interrupted"
    assert [r.get("status") for r in rows[:-1] if "message" in r] == ["not_started"] * 2
    assert "bad.toml" in errors["bad"] and "not started" not in errors["bad"]
    assert [line for line in run.err.splitlines() if line.startswith("error:")] == \
        [f"error: {errors['bad']}"]
