"""The external-memory BFS (statespace/external.py) against the in-memory analysis and a
brute force written here: tiny memory budgets (many buckets, many chunks), symmetry (orbits
and positions), and resuming after an interruption."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace.external import Disk, external_layers
from cpsolve.engines.search.statespace.vector import numpy_layers
from cpsolve.model.moves import disjoint_layers, start_symmetries
from cpsolve.puzzles.files import load, resolve

# A 21-hole cross (5x5 without the corners), orthogonal jumps, centre empty.
CROSS_ROWS = [" ooo ", "ooooo", "oo.oo", "ooooo", " ooo "]
CROSS = ('family = "pegs"\nname = "cross 21"\nmetric = "jumps"\ngoal_peg = [2, 2]\n'
         'board = """\n' + "\n".join(CROSS_ROWS) + '\n"""\n')


def model_of(name: str | Path):
    return load(resolve(str(name))).model


def external(model, work_dir=None, memory=200_000, resume=False, budget=None):
    disk = Disk(None if work_dir is None else str(work_dir), resume, memory)
    return external_layers(compile_planning(model), budget or Budget(), "start", disk)


@pytest.mark.parametrize("name", ["eight_puzzle", "line_puzzle", "onoff", "water_jugs"])
def test_tiny_budget_equals_the_in_memory_analysis(name, tmp_path):
    model = model_of(name)
    ours = external(model, tmp_path)  # far below one layer: several buckets and chunks
    theirs = numpy_layers(compile_planning(model), Budget(), "start")
    assert ours.status is Status.COMPLETE
    assert ours.answer.layers == theirs.answer.layers
    assert ours.answer.states == theirs.answer.states
    assert ours.answer.farthest == theirs.answer.farthest
    assert ours.answer.max_distance == theirs.answer.max_distance


def test_tiny_budget_spreads_layers_over_many_buckets(tmp_path):
    result = external(model_of("eight_puzzle"), tmp_path, memory=20_000)
    assert result.answer.states == 181_440 and result.answer.max_distance == 31  # docs/design.md
    meta = json.loads(next(tmp_path.glob("bfs-*/meta.json")).read_text())
    assert max(layer["bits"] for layer in meta["layers"]) >= 4
    assert meta["complete"]


@functools.cache
def cross_brute_force() -> tuple[list[int], list[int]]:
    """Positions and orbits (under the square's 8 symmetries) per number of jumps, by a
    plain BFS over sets of pegged cells."""
    cells = [(r, c) for r, row in enumerate(CROSS_ROWS) for c, ch in enumerate(row)
             if ch != " "]
    holes = set(cells)
    jumps = [(a, (a[0] + dr, a[1] + dc), (a[0] + 2 * dr, a[1] + 2 * dc)) for a in cells
             for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
             if (a[0] + 2 * dr, a[1] + 2 * dc) in holes]
    maps = [lambda r, c: (r, c), lambda r, c: (c, 4 - r), lambda r, c: (4 - r, 4 - c),
            lambda r, c: (4 - c, r), lambda r, c: (r, 4 - c), lambda r, c: (4 - r, c),
            lambda r, c: (c, r), lambda r, c: (4 - c, 4 - r)]
    layer = {frozenset(holes - {(2, 2)})}
    positions, orbits = [], []
    while layer:
        positions.append(len(layer))
        orbits.append(len({min(tuple(sorted(f(*p) for p in s)) for f in maps) for s in layer}))
        layer = {s - {a, b} | {t} for s in layer for a, b, t in jumps
                 if a in s and b in s and t not in s}
    return positions, orbits


def test_symmetry_counts_orbits_and_positions(tmp_path):
    path = tmp_path / "cross.toml"
    path.write_text(CROSS)
    result = external(model_of(path), tmp_path / "work", memory=50_000)
    positions, orbits = cross_brute_force()
    assert list(result.answer.layers) == positions
    assert result.answer.states == sum(positions)
    assert result.details["symmetries"] == 8
    assert result.details["orbit_layers"] == orbits
    assert result.details["orbits"] == sum(orbits)
    assert result.details["duplicates"].startswith("none")  # one peg fewer per jump


class StopAfter(Budget):
    """A budget that asks to stop at its ``n``-th look (an interruption mid-layer)."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def exceeded(self, seen, status=None, *args) -> bool:
        self.n -= 1
        if self.n <= 0:
            return self.halt(Stop.INTERRUPT, "stopped by the test")
        return False


def test_resume_goes_on_from_the_finished_layers(tmp_path):
    model = model_of("eight_puzzle")
    stopped = external(model, tmp_path, budget=StopAfter(60))
    assert stopped.status is Status.PARTIAL
    done = len(stopped.answer.layers)
    assert 1 < done < 32 and "--resume" in stopped.message
    resumed = external(model, tmp_path, resume=True)
    fresh = external(model)
    assert resumed.details["resumed_layers"] == done
    assert resumed.answer.layers == fresh.answer.layers
    assert resumed.answer.farthest == fresh.answer.farthest
    again = external(model, tmp_path, resume=True)  # a finished run: read back
    assert again.details["resumed_layers"] == 32 and again.answer.layers == fresh.answer.layers


class StopWhileMerging(Budget):
    """A budget that asks to stop while layer ``depth + 1`` is being merged, after the
    first half of its buckets: the layer is partial (the time limit, Ctrl-C)."""

    def __init__(self, depth: int) -> None:
        super().__init__()
        self.depth = depth

    def exceeded(self, seen, status=None, *args) -> bool:
        if getattr(status, "__name__", "") == "merging":
            d, k, bits = args
            if d == self.depth and k + 1 >= (1 << bits) // 2:
                return self.halt(Stop.INTERRUPT, "stopped by the test")
        return False


def test_a_resumed_run_stopped_inside_a_layer_counts_only_the_complete_layers(tmp_path):
    """A resumed run stopped while a layer was being merged kept its states so far as a
    partial last layer, and said ``bound`` 22 and "all within distance 22 known" of the
    15-puzzle's partial layer 22: ``bound`` is the last distance whose layer is complete,
    and the message says the same."""
    model = model_of("eight_puzzle")
    full = numpy_layers(compile_planning(model), Budget(), "start")  # in memory: independent
    external(model, tmp_path, memory=20_000, budget=StopAfter(20))  # a few layers
    result = external(model, tmp_path, memory=20_000, resume=True,
                      budget=StopWhileMerging(14))  # layer 15 half merged
    sizes = result.answer.layers
    assert result.status is Status.PARTIAL and result.details["last_layer"] == "partial"
    assert 0 < result.details["resumed_layers"] < 15
    assert len(sizes) == 16 and sizes[:15] == full.answer.layers[:15]
    assert 0 < sizes[15] < full.answer.layers[15]
    assert result.bound == 14
    assert "all within distance 14 known (layers are complete up to distance 14" \
        in result.message
    assert "the last layer (distance 15) is partial" in result.message
    again = external(model, tmp_path, memory=20_000, resume=True)  # layer 15 built again
    assert again.details["resumed_layers"] == 15 and again.answer.layers == full.answer.layers


def test_without_resume_a_work_dir_starts_afresh(tmp_path):
    model = model_of("onoff")
    external(model, tmp_path, budget=StopAfter(20))
    result = external(model, tmp_path)
    assert result.details["resumed_layers"] == 0 and result.answer.states == 540


def test_facts_behind_the_policies():
    english = model_of("english33")
    assert disjoint_layers(english)
    assert not disjoint_layers(model_of("eight_puzzle"))
    assert len(start_symmetries(english)) == 7  # the square's 8, less the identity
    assert start_symmetries(model_of("hoppers")) == []  # moves metric: none declared


def test_analyze_from_the_goal_is_refused(cli, tmp_path):
    run = cli("analyze", "eight_puzzle", "--work-dir", tmp_path, "--from", "goal")
    assert run.code == 2 and "from the start only" in run.err


def test_cli_on_disk_reports_orbits(cli, tmp_path):
    path = tmp_path / "cross.toml"
    path.write_text(CROSS)
    run = cli("analyze", path, "--work-dir", tmp_path / "w", "--json")
    out = json.loads(run.out)
    assert run.code == 0 and out["details"]["algorithm"] == "external"
    assert out["states"] == sum(cross_brute_force()[0])
    human = cli("analyze", path, "--work-dir", tmp_path / "w2", "--memory-limit", "1G")
    assert f"{sum(cross_brute_force()[1]):,} up to the model's 8 symmetries" in human.out


@pytest.mark.parametrize("argv, words", [
    (["--resume"], "--work-dir"),
    (["--memory-limit", "3X"], "--memory-limit"),
    (["--memory-limit", "0"], "--memory-limit"),
    (["--workers", "2", "--scheduler", "tcp://x:1"], "not allowed with"),
])
def test_bad_options_are_one_line(cli, argv, words):
    run = cli("analyze", "eight_puzzle", *argv)
    assert run.code == 2 and len(run.err_lines) == 1 and words in run.err


def test_cli_stop_then_resume(cli, tmp_path):
    import jsonschema

    from cpsolve.output.schema import schema

    first = cli("analyze", "eight_puzzle", "--work-dir", tmp_path, "--limit", "1000", "--json")
    stopped = json.loads(first.out)
    assert first.code == 1 and stopped["status"] == "partial"
    assert "--resume" in stopped["message"]
    second = cli("analyze", "eight_puzzle", "--work-dir", tmp_path, "--resume", "--json")
    done = json.loads(second.out)
    assert second.code == 0 and done["status"] == "complete" and done["states"] == 181_440
    complete = stopped["layers"][:-1] if stopped["details"].get("last_layer") == "partial" \
        else stopped["layers"]  # a layer the limit cut is not kept: resumed, it is built again
    assert done["details"]["resumed_layers"] == len(complete)
    assert done["layers"][:len(complete)] == complete
    assert stopped["layers"][-1] <= done["layers"][len(stopped["layers"]) - 1]
    for out in (stopped, done):
        jsonschema.validate(out, schema())


@pytest.mark.parametrize("limit", [1000, 771, 1, 2])
def test_a_state_limit_inside_a_layer_stops_there_on_disk(cli, tmp_path, limit):
    """--limit N stops at exactly N states, the last layer partial, as the in-memory analysis
    does (issue 21); the complete layers are those of the in-memory analysis from the start
    (an independent count).  771 ends layer 10 from the start exactly: nothing is partial."""
    full = json.loads(cli("analyze", "eight_puzzle", "--from", "start", "--json").out)
    out = json.loads(cli("analyze", "eight_puzzle", "--work-dir", tmp_path, "--limit",
                         str(limit), "--json").out)
    assert out["status"] == "partial" and out["states"] == limit == sum(out["layers"])
    n = len(out["layers"])
    if out["details"].get("last_layer") == "partial":
        assert out["layers"][:-1] == full["layers"][:n - 1]
        assert 0 < out["layers"][-1] < full["layers"][n - 1]
        assert f"the last layer (distance {n - 1}) is partial" in out["message"]
    else:
        assert out["layers"] == full["layers"][:n]


def test_one_instance_is_not_sent_to_a_cluster(cli, tmp_path):
    run = cli("solve", "water_jugs", "--workers", "2")
    assert run.code == 2 and len(run.err_lines) == 1 and "batches" in run.err
    domain, problem = tmp_path / "d.pddl", tmp_path / "p.pddl"
    run = cli("compare", domain, problem, "--workers", "2")
    assert run.code == 2 and len(run.err_lines) == 1 and "PDDL" in run.err


def test_bad_work_dir_is_one_line(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    run = cli("analyze", "eight_puzzle", "--work-dir", blocker / "sub")
    assert run.code == 2 and len(run.err_lines) == 1 and "work directory" in run.err


def test_large_irreversible_spaces_go_on_disk_by_default():
    from cpsolve.engines import Options
    from cpsolve.engines.search.engine import default_analysis

    def chosen(name, **options):
        return default_analysis(Options(**options), compile_planning(model_of(name)))

    assert chosen("english33") == "external"  # 2^33 codes; a jump cannot be undone
    # the defaults `analyze --help` states, spelled out: on disk, no limit, from the start
    assert chosen("english33", limit=math.inf, direction="start") == "external"
    assert chosen("english33", limit=1000) == "numpy"  # a limited look stays in memory
    assert chosen("english33", limit=5_000_000) == "numpy"  # up to the in-memory default
    assert chosen("english33", limit=60_000_000) == "external"  # beyond the memory default
    assert chosen("english33", direction="goal") == "numpy"
    assert chosen("eight_puzzle") == "numpy"  # undoable slides: two layers in memory
    assert chosen("onoff", memory_limit=1 << 20) == "numpy"  # a limit alone stops it
    assert chosen("onoff", work_dir="/tmp") == "external"
    assert chosen("onoff", cluster=2) == "cluster"


def test_a_damaged_work_dir_is_one_line(cli, tmp_path):
    assert cli("analyze", "onoff", "--work-dir", tmp_path).code == 0
    (meta,) = tmp_path.glob("bfs-*/meta.json")
    meta.write_text("{not json")
    run = cli("analyze", "onoff", "--work-dir", tmp_path, "--resume")
    assert run.code == 2 and len(run.err_lines) == 1 and "meta.json" in run.err
    assert cli("analyze", "onoff", "--work-dir", tmp_path).code == 0  # afresh
    last = sorted(tmp_path.glob("bfs-*/layer-*"))[-1]  # read back for the farthest states
    for bucket in last.glob("*.npy"):
        bucket.unlink()
    run = cli("analyze", "onoff", "--work-dir", tmp_path, "--resume")
    assert run.code == 2 and len(run.err_lines) == 1 and "work directory" in run.err


@pytest.mark.slow
def test_cli_english33_from_the_start(cli):
    """The issue's acceptance command, on disk by default: 187,636,299 positions."""
    run = cli("analyze", "english33", "--from", "start", "--json")
    out = json.loads(run.out)
    assert run.code == 0 and out["states"] == 187_636_299
    assert out["details"]["orbits"] == 23_475_688


@pytest.mark.slow
def test_english33_full_reachability(tmp_path):
    """The issue's figures: 187,636,299 positions, 23,475,688 up to the 8 symmetries."""
    result = external(model_of("english33"), tmp_path, memory=1 << 30)
    assert result.answer.states == 187_636_299
    assert result.details["orbits"] == 23_475_688


def test_progress_shows_a_bar_states_per_second_and_the_next_layer(monkeypatch):
    import cpsolve.engines.search.common as common

    monkeypatch.setattr(common, "REPORT_EVERY", 0.0)
    lines: list[str] = []
    external(model_of("line_puzzle"), budget=Budget(progress=lines.append))
    expanding = [ln for ln in lines if "expanded" in ln]
    assert expanding and all("states/s" in ln and "[" in ln for ln in expanding)
    assert any("next layer ~" in ln for ln in expanding)
    assert any("merging bucket" in ln for ln in lines)


@pytest.mark.parametrize("name", ["english33", "triangle15", "eight_puzzle"])
def test_orbit_sizes_are_the_distinct_images_of_each_state(name):
    """The orbit-stabilizer count (the group's size over the symmetries that fix a state)
    against the distinct images of each state, counted here one state at a time."""
    import numpy as np

    from cpsolve.engines.search.statespace.oneword import prepare

    task = compile_planning(load(resolve(name)).model)
    packed, orbits = prepare(task)
    rng = np.random.default_rng(7)
    states = [task.initial]
    for _ in range(300):  # a random walk from the start: states with and without symmetry
        step = task.next_states(states[-1])
        if not step:
            break
        states.append(step[rng.integers(len(step))])
    codes = np.array([packed.encode(s) for s in states], np.int64)
    images = orbits.images(codes)
    want = [len({int(image[i]) for image in images}) for i in range(codes.size)]
    assert orbits.closed and orbits.orbit_sizes(codes).tolist() == want


def _edit_layers(meta: dict, how: str) -> None:
    if how == "states":
        meta["layers"][2]["states"] += 1_000_000
    elif how == "orbits":
        meta["layers"][2]["orbits"] += 1
    elif how == "bits":
        meta["layers"][2]["bits"] = 1
    else:  # "complete" claimed after 5 of the 13 layers
        del meta["layers"][5:]


@pytest.mark.parametrize("how, why", [
    ("states", "layer 2: 3 states on disk, 1,000,003 recorded"),
    ("orbits", "layer 2: 3 codes on disk, 4 recorded"),
    ("bits", "layer 2: its files are not the 2 bucket files recorded"),
])
def test_a_resumed_record_is_checked_against_the_layer_files(cli, tmp_path, how, why):
    """water_jugs has 26 states, 3 at distance 2 (its layers: 1, 2, 3, then 2 each up to
    distance 12, as the in-memory analysis counts them)."""
    assert cli("analyze", "water_jugs", "--work-dir", tmp_path).code == 0
    path = next(tmp_path.glob("bfs-*/meta.json"))
    meta = json.loads(path.read_text())
    _edit_layers(meta, how)
    path.write_text(json.dumps(meta))
    run = cli("analyze", "water_jugs", "--work-dir", tmp_path, "--resume")
    assert run.code == 2 and len(run.err_lines) == 1 and not run.out
    assert "the work directory's record" in run.err and why in run.err
    assert "remove the directory or run without --resume" in run.err


def test_a_resumed_run_does_not_take_completeness_on_the_record_s_word(tmp_path):
    model = model_of("water_jugs")
    external(model, tmp_path)
    path = next(tmp_path.glob("bfs-*/meta.json"))
    meta = json.loads(path.read_text())
    _edit_layers(meta, "complete")
    path.write_text(json.dumps(meta))
    resumed = external(model, tmp_path, resume=True)
    assert resumed.details["resumed_layers"] == 5
    assert resumed.answer.states == 26 and resumed.answer.max_distance == 12


def test_a_resumed_run_with_symmetries_counts_positions_from_the_files(tmp_path):
    path = tmp_path / "cross.toml"
    path.write_text(CROSS)
    model = model_of(path)
    external(model, tmp_path / "work", memory=50_000)
    again = external(model, tmp_path / "work", memory=50_000, resume=True)
    assert again.details["resumed_layers"] == len(cross_brute_force()[0])
    assert list(again.answer.layers) == cross_brute_force()[0]


def test_a_deeply_nested_record_is_named_as_the_work_dir_s(cli, tmp_path):
    assert cli("analyze", "water_jugs", "--work-dir", tmp_path).code == 0
    next(tmp_path.glob("bfs-*/meta.json")).write_text("[" * 100_000 + "]" * 100_000)
    run = cli("analyze", "water_jugs", "--work-dir", tmp_path, "--resume")
    assert run.code == 2 and len(run.err_lines) == 1
    assert "the work directory's record" in run.err and "nested too deeply" in run.err
    assert "model" not in run.err


@pytest.mark.parametrize("limit", [100, 1])
def test_a_finished_analysis_resumed_below_its_size_is_cut_at_the_limit(cli, tmp_path, limit):
    """Resumed with --limit below the 540 states on disk, the run used to report all 540,
    partial, and advise "run again with --resume", which stopped at the same place.  It now
    reports what a run from the start with that limit does: the complete layers of the
    in-memory analysis from the start (an independent count) within the limit, the next one
    cut at it, and the advice names a higher --limit."""
    full = json.loads(cli("analyze", "onoff", "--from", "start", "--json").out)
    first = json.loads(cli("analyze", "onoff", "--work-dir", tmp_path / "w", "--json").out)
    assert first["status"] == "complete" and first["states"] == 540
    run = cli("analyze", "onoff", "--work-dir", tmp_path / "w", "--resume", "--limit",
              str(limit), "--json")
    out = json.loads(run.out)
    assert run.code == 1 and out["status"] == "partial"
    assert out["states"] == limit == sum(out["layers"])
    n = len(out["layers"])
    assert out["layers"][:-1] == full["layers"][:n - 1]
    assert out["layers"][-1] <= full["layers"][n - 1]
    assert "run again with --resume and a higher --limit to go on" in out["message"]
    fresh = json.loads(cli("analyze", "onoff", "--work-dir", tmp_path / "f", "--limit",
                           str(limit), "--json").out)
    assert fresh["layers"] == out["layers"] and fresh["message"] == out["message"]
