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
