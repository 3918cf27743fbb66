"""The PDDL export's size, checked before anything is built, and its stop.

Pancakes (a tester's model): ``flip top k`` sets ``p[i] = p[k - 1 - i]`` for ``i < k``, so its
effects read the state and the export grounds one variant per combination of the values they
read — all ``k`` positions, or ``k - 1`` when ``k`` is odd (the middle one stays).  With six
pancakes of six values: 6^2 + 6^2 + 6^4 + 6^4 + 6^6 = 49,320 variants, a 17 MB domain; the
export took ten minutes and more (naming each variant by a search from ``-2``), ignored the
first SIGTERM and Fast Downward's translator then spent minutes on the file.
"""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

import pytest

from cpsolve.answers.result import Unsupported
from cpsolve.engines import fd as fd_engine
from cpsolve.engines import run
from cpsolve.engines.runtime import interrupt
from cpsolve.interop import ExportStopped, TooLarge, pddl, pddl_names, pddl_writer
from cpsolve.puzzles.files import load


def pancakes(folder: Path, values: int, size: int = 4) -> Path:
    """A pancake model of ``size`` positions whose values run over ``0..values - 1`` (only
    ``0..size - 1`` occur: the state space stays ``size!`` states, the export grows as
    ``values ** size``)."""
    path = folder / f"pancakes{size}x{values}.toml"
    start = list(range(size))[::-1]
    path.write_text(f"""family = "transition"
name = "Pancakes {size} of {values}"
goal = "all(p[i] == i for i in range(n))"

[constants]
n = {size}

[variables]
p = {{ size = "n", domain = [0, {values - 1}] }}

[initial]
p = {start}

[[actions]]
name = "flip top {{k}}"
params = {{ k = "range(2, n + 1)" }}
effects = {{ "p[i]" = "p[k - 1 - i] if i < k else p[i]" }}
""")
    return path


def variants(values: int) -> int:
    """Ground actions of four pancakes over ``values`` values: flips of 2 and 3 read two
    positions each, of 4 read four."""
    return 2 * values ** 2 + values ** 4


@pytest.fixture
def never_built(monkeypatch):
    """Writing any ground action fails the test: the size must be refused before."""
    def add(self, label, action, variants):
        for _ in variants:
            raise AssertionError("a ground action was built before the size was checked")

    monkeypatch.setattr(pddl_writer.Writer, "add", add)


@pytest.mark.parametrize("values, words", [
    (23, f"{variants(23):,} ground PDDL actions, more than the 200,000"),  # 280,899
    (20, f"MB for {variants(20):,} ground actions, more than the 16 MB"),  # 160,800: 40 MB
])
def test_an_export_too_large_is_refused_before_it_is_built(tmp_path, never_built, values,
                                                           words):
    model = load(pancakes(tmp_path, values)).model
    with pytest.raises(TooLarge, match=words):
        pddl.export(model)


def test_a_small_pancake_model_still_exports_every_variant(tmp_path):
    """Five values: 2 * 25 + 625 = 675 ground actions, each flip's variants named apart."""
    task = pddl.export(load(pancakes(tmp_path, 5)).model)
    assert len(task.variants) == variants(5)
    assert "flip_top_4-625" in task.variants and "flip_top_4-626" not in task.variants


def test_names_of_one_action_are_numbered_in_order():
    names = pddl_names.Names()
    made = [names.make("flip top 6", "a") for _ in range(2_000)]
    assert made[:3] == ["flip_top_6", "flip_top_6-2", "flip_top_6-3"]
    assert made[-1] == "flip_top_6-2000" and len(set(made)) == len(made)
    names.used.add("x-3")  # a name taken otherwise is passed over
    assert [names.make("x") for _ in range(3)] == ["x", "x-2", "x-4"]


def test_the_export_stops_when_asked(tmp_path):
    """``stop`` is asked before each ground action: true after 10 calls, the export ends."""
    asked = []

    def stop():
        asked.append(1)
        return len(asked) > 10

    with pytest.raises(ExportStopped):
        pddl.export(load(pancakes(tmp_path, 5)).model, stop=stop)
    assert len(asked) == 11


def test_the_first_sigterm_ends_an_export(cli, tmp_path, monkeypatch):
    """SIGTERM's handler only asks for a stop the first time: the export used to go on
    (a second signal ended it) and wrote its files."""
    real = pddl_writer.Writer.add

    def add(self, label, action, variants):
        interrupt.on_signal(signal.SIGTERM, None)  # the signal, as it comes mid-export
        return real(self, label, action, variants)

    monkeypatch.setattr(pddl_writer.Writer, "add", add)
    out = tmp_path / "out"
    run_ = cli("export", pancakes(tmp_path, 5), "--to", "pddl", "-o", out)
    assert run_.code == 130, run_.err
    assert "interrupted while exporting" in run_.err and run_.err.count("\n") == 1
    assert not out.exists()


def test_export_too_large_is_one_line_with_the_way_out(cli, tmp_path, never_built):
    run_ = cli("export", pancakes(tmp_path, 23), "--to", "pddl", "-o", tmp_path)
    assert run_.code == 2 and run_.err.count("\n") == 1, run_.err
    assert f"{variants(23):,} ground PDDL actions" in run_.err
    assert "--engine cpsat or --engine search" in run_.err


@pytest.mark.skipif(fd_engine.tool_missing() is not None, reason="Fast Downward not installed")
def test_fd_refuses_a_model_too_large_for_pddl_at_once(tmp_path, never_built):
    with pytest.raises(Unsupported, match=r"not applicable \(too large: .* 16 MB"):
        run("fd", "solve", load(pancakes(tmp_path, 20)).model)


@pytest.mark.skipif(fd_engine.tool_missing() is not None, reason="Fast Downward not installed")
def test_compare_lists_fd_as_too_large_and_runs_cpsat_and_search(cli, tmp_path):
    """fd used to take the model's whole budget on the export (reported as 0.0 s) and CP-SAT
    was then never started; now fd is a skipped row, and both of cpsolve's own engines
    prove the optimum: four pancakes reversed, ``3 2 1 0``, are sorted by one flip of all
    four, and no plan is shorter than one step."""
    run_ = cli("compare", pancakes(tmp_path, 20), "--json", "--time-limit", "30")
    assert run_.code == 0, run_.err
    model = json.loads(run_.out)["models"][0]
    results = {r["engine"]: r for r in model["results"]}
    assert {e: (r["status"], r["steps"]) for e, r in results.items()} == \
        {"cpsat": ("optimal", 1), "search": ("optimal", 1)}
    skipped = {s["engine"]: s["reason"] for s in model["skipped"]}
    assert "not applicable (too large: " in skipped["fd"]


@pytest.mark.skipif(fd_engine.tool_missing() is not None, reason="Fast Downward not installed")
def test_fd_refuses_a_domain_of_too_many_values_in_one_line(tmp_path):
    """The size is estimated in fd's capability check: a variable of more values than the
    export writes as objects is refused there too, as :class:`Unsupported`."""
    model = load(pancakes(tmp_path, pddl.MAX_VALUES + 1, size=2)).model
    with pytest.raises(Unsupported, match="cannot export to PDDL: variable"):
        run("fd", "solve", model)


def lights_out(folder: Path, n: int) -> Path:
    """Lights Out on an ``n`` x ``n`` board, every light on; its goal ``sum(x) == 0`` reads
    every light at once."""
    path = folder / f"lights{n}.toml"
    path.write_text(f"""family = "transition"
name = "Lights Out {n}x{n}"
goal = "sum(x[r][c] for r in range(n) for c in range(n)) == 0"

[constants]
n = {n}

[variables]
x = {{ shape = ["n", "n"], domain = [0, 1] }}

[initial]
x = 1

[[actions]]
name = "press {{i}} {{j}}"
params = {{ i = "range(n)", j = "range(n)" }}
[actions.effects]
"x[r][c]" = "1 - x[r][c] if abs(r - i) + abs(c - j) <= 1 else x[r][c]"
""")
    return path


def test_a_goal_decided_only_when_every_light_is_bound_is_refused_before_it_is_built(
        tmp_path, never_built):
    """The goal is not a conjunction of facts: it becomes ``reach-goal`` actions, one per
    binding of the 25 lights it reads that it holds in — a single one, so the export counted
    it as one action; but ``sum(x) == 0`` is decided only once all 25 are bound, so the
    grounding tried 2 + 4 + ... + 2^25 = 2^26 - 2 bindings (the export ran for hours)."""
    with pytest.raises(TooLarge, match="more than the 1,000,000 an export may try") as caught:
        pddl.export(load(lights_out(tmp_path, 5)).model)
    tried = int(re.search(r"try up to ([\d,]+) bindings", str(caught.value))[1]
                .replace(",", ""))
    assert tried >= 2 ** 26 - 2


def test_the_stop_is_asked_between_bindings_too(tmp_path):
    """Four by four lights: the goal tries up to 2^17 - 2 bindings for one action; the stop
    is asked before each, not only before each ground action written (a few hundred)."""
    asked = []

    def stop():
        asked.append(1)
        return len(asked) > 5_000

    with pytest.raises(ExportStopped):
        pddl.export(load(lights_out(tmp_path, 4)).model, stop=stop)
    assert len(asked) == 5_001


def test_a_stop_asked_after_the_last_piece_of_work_writes_nothing(cli, tmp_path,
                                                                  monkeypatch):
    """SIGTERM as the grounding ends: the files used to be written, then exit 130."""
    real = pddl.export

    def export(model, stop=None):
        task = real(model, stop)
        interrupt.on_signal(signal.SIGTERM, None)
        return task

    monkeypatch.setattr(pddl, "export", export)
    out = tmp_path / "out"
    run_ = cli("export", "hoppers", "--to", "pddl", "-o", out)
    assert run_.code == 130 and "interrupted while exporting" in run_.err, run_.err
    assert not out.exists()


@pytest.mark.parametrize("model, to, taken, other", [
    ("hoppers", "pddl", "hoppers-problem.pddl", "hoppers-domain.pddl"),
    ("golomb6", "minizinc", "golomb6.dzn", "golomb6.mzn"),
])
def test_an_export_that_cannot_write_one_file_writes_neither(cli, tmp_path, model, to, taken,
                                                            other):
    """A folder in the place of the second file: the first one used to be written."""
    (tmp_path / taken).mkdir()
    run_ = cli("export", model, "--to", to, "-o", tmp_path)
    assert run_.code == 2 and run_.err.count("\n") == 1, run_.err
    assert f"cannot write {taken} (Is a directory)" in run_.err
    assert sorted(os.listdir(tmp_path)) == [taken] and other not in run_.out
