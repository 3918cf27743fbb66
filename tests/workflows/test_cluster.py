"""Dask (the [dask] extra): the partitioned BFS equals the single-process analysis, and
batches of solve / compare run one task per instance without losing any instance."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import jsonschema
import pytest

pytest.importorskip("distributed", reason="the [dask] extra is not installed")

from cpsolve.engines.search.common import Budget  # noqa: E402
from cpsolve.engines.search.compile import compile_planning  # noqa: E402
from cpsolve.engines.search.statespace.cluster import cluster_layers  # noqa: E402
from cpsolve.engines.search.statespace.external import Disk, external_layers  # noqa: E402
from cpsolve.output.schema import schema  # noqa: E402
from cpsolve.puzzles.files import load, resolve  # noqa: E402
from cpsolve.workflows.batch import (  # noqa: E402
    Compared,
    Item,
    Row,
    compare_one,
    instances,
    on_cluster,
)

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
    """The issue's acceptance: 181,440 states, maximum distance 31 (DESIGN.md)."""
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


def test_compare_streams_a_line_per_model_and_a_summary(cli, scheduler, tmp_path):
    for name in ("water_jugs", "blocks", "fifteen_unsolvable"):
        shutil.copy(MODELS / f"{name}.toml", tmp_path)
    (tmp_path / "broken.toml").write_text('family = "pegs"\nboard = 3\n')
    run = cli("compare", tmp_path, "--scheduler", scheduler, "--json")
    rows = lines(run.out)
    assert run.code == 1  # the broken file
    assert rows[-1]["compare"] == {**rows[-1]["compare"], "instances": 4, "agree": 3,
                                   "disagree": 0, "error": 1}
    models = {r["file"]: r for r in rows[:-1] if "file" in r}
    assert len(models) == 3 and all(r["agree"] for r in models.values())
    jugs = models[str(tmp_path / "water_jugs.toml")]
    assert {r["steps"] for r in jugs["results"]} == {10}  # DESIGN.md: 10 moves
    assert [r["source"] for r in rows if "error" in r] == [str(tmp_path / "broken.toml")]


def test_solve_batch_on_the_cluster(cli, scheduler):
    run = cli("solve", "water_jugs", "blocks", "--engine", "search", "--scheduler", scheduler,
              "--json")
    rows = lines(run.out)
    assert run.code == 0, run.err
    steps = {Path(r["source"]).stem: r["steps"] for r in rows[:-1]}
    assert steps == {"water_jugs": 10, "blocks": 5}  # DESIGN.md
    assert rows[-1]["batch"]["instances"] == 2


def test_a_failed_or_overdue_task_loses_no_other(scheduler, monkeypatch):
    import cpsolve.workflows.batch

    items = list(instances([str(MODELS / "water_jugs.toml"), str(MODELS / "blocks.toml")]))

    def work(item: Item, time_limit):
        if "blocks" in item.source:
            raise RuntimeError("boom")
        return compare_one(item, "solve", time_limit)

    done = list(on_cluster(items, work, scheduler, None,
                           lambda item, why: Compared(item.source, item.puzzle, error=why)))
    assert sorted(d.source for d in done) == sorted(i.source for i in items)
    failed = [d for d in done if d.error]
    assert len(failed) == 1 and "boom" in failed[0].error
    monkeypatch.setattr(cpsolve.workflows.batch, "CLUSTER_GRACE", 0.5)

    overdue = 30.0

    def slow(item: Item, time_limit):
        time.sleep(0 if "water" in item.source else overdue)
        return Row(item.source, item.puzzle, None, "finished")

    start = time.monotonic()
    done = list(on_cluster(items, slow, scheduler, 1.0,
                           lambda item, why: Row(item.source, item.puzzle, None, why)))
    assert time.monotonic() - start < overdue  # given up before the overdue task would end
    assert sorted(r.error for r in done) == ["finished", "not finished: time limit reached"]


def test_progress_after_each_layer(scheduler, monkeypatch):
    import cpsolve.engines.search.common as common

    monkeypatch.setattr(common, "REPORT_EVERY", 0.0)
    lines: list[str] = []
    model = load(resolve("onoff")).model
    cluster_layers(compile_planning(model), Budget(progress=lines.append), "start", scheduler)
    assert len(lines) >= 44  # one per layer; the goal alone is 44 moves away (DESIGN.md)
    assert all("states/s on 2 partitions" in ln for ln in lines)
    assert any("next layer ~" in ln for ln in lines)


def test_a_task_started_after_the_limit_does_not_run(scheduler, tmp_path):
    items = list(instances([str(MODELS / "water_jugs.toml"), str(MODELS / "blocks.toml")]))
    ran = tmp_path / "ran"

    def work(item: Item, time_limit):
        ran.write_text(item.source)  # the workers share this machine's disk
        return Row(item.source, item.puzzle, None, "ran")

    late = list(on_cluster(items, work, scheduler, 1e-9,
                           lambda item, why: Row(item.source, item.puzzle, None, why)))
    assert sorted(r.error for r in late) == ["not started: time limit reached"] * 2
    assert not ran.exists()
