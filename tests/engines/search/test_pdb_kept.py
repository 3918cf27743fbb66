"""Finished pattern tables stay in memory once read (:func:`pdb_store.load_table`, through
:mod:`pdb_loaded`): read-only, and read again when their file changes."""

from __future__ import annotations

import numpy as np
import pytest

from cpsolve.engines.search.planning import pdb_loaded, pdb_store


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "cache"))


def test_a_table_read_twice_is_the_same_read_only_array_with_its_bytes():
    pdb_store.save_table("k1", np.arange(8, dtype=np.uint8))
    first = pdb_store.load_table("k1", 8)
    assert first is not None and pdb_store.load_table("k1", 8) is first
    assert not first.flags.writeable
    assert pdb_loaded.table_bytes(first) == bytes(range(8))
    assert pdb_loaded.table_bytes(np.zeros(3, np.uint8)) == b"\0\0\0"  # not a kept table
    with pytest.raises(pdb_store.Ignored, match="wrong size"):  # still refused, and why
        pdb_store.load_table("k1", 9)


def test_a_changed_file_is_read_again_and_a_removed_one_is_gone():
    pdb_store.save_table("k2", np.zeros(4, np.uint8))
    assert pdb_store.load_table("k2", 4).tolist() == [0, 0, 0, 0]
    pdb_store.save_table("k2", np.full(4, 7, np.uint8))  # a new file renamed over the old
    assert pdb_store.load_table("k2", 4).tolist() == [7, 7, 7, 7]
    pdb_store.table_path("k2").unlink()
    assert pdb_store.load_table("k2", 4) is None


def test_at_most_the_kept_number_of_tables_stay():
    for k in range(pdb_loaded.LOADED_KEPT + 3):
        pdb_store.save_table(f"many{k}", np.full(2, k, np.uint8))
        assert pdb_store.load_table(f"many{k}", 2) is not None
    assert len(pdb_loaded._loaded) <= pdb_loaded.LOADED_KEPT


def _saved_build(key: str):
    """A table of 4 entries with a saved build (distance 1, two layers) to resume."""
    from types import SimpleNamespace

    from cpsolve.engines.search.planning.pdb_build import Partial

    table = np.array([0, 1, 255, 255], np.uint8)
    layers = [np.array([0], np.int64), np.array([1], np.int64)]
    pdb_store.save_partial(key, Partial(1, table, layers, 2))
    return lambda budget: pdb_store.OneTable(key, SimpleNamespace(names=[0, 1], goal_state=None),
                                             SimpleNamespace(pattern=(1, 2)), 1, 1, budget, [])


def test_a_saved_build_is_not_resumed_when_reading_it_would_pass_the_memory_limit():
    """Reading a saved build's layers is one step that cannot be stopped (Korf #1's: 147 MB,
    under --memory-limit 150M the process peaked at 252 MB): past the limit it is not
    read, and the table is the saved build's as it stands."""
    from cpsolve.engines.runtime import memory

    one = _saved_build("big")(None)
    size = pdb_store.partial_path("big").stat().st_size
    memory.set_limit(memory.resident() + size // 2)
    try:
        table, cached, reached, why = one.load_or_build(None)
    finally:
        memory.set_limit(None)
    assert "memory limit" in why and "too low to read the saved build of table 1" in why
    assert (cached, reached) == (False, 1)
    assert table.tolist() == [0, 1, 2, 2]  # unset entries read as distance + 1
    assert one._unaffordable() == ""  # without the limit it would be resumed


def test_a_saved_build_is_not_resumed_when_the_build_has_no_time_left():
    from cpsolve.engines.runtime.clock import Clock
    from cpsolve.engines.search.common import Budget

    ticks = [100.0]
    spent = Clock(1.0, lambda: ticks[0])
    ticks[0] += 1.0
    why = _saved_build("late")(Budget(clock=spent))._unaffordable()
    assert "too short to read the saved build of table 1" in why
