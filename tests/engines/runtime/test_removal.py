"""A stopped engine's scratch directory removed once its answer is out (runtime/removal.py)."""

from __future__ import annotations

from cpsolve.engines.runtime import removal


def test_a_directory_left_for_the_exit_is_removed_then(tmp_path):
    scratch = tmp_path / "scratch"
    (scratch / "layer").mkdir(parents=True)
    (scratch / "layer" / "b0.npy").write_bytes(b"x")
    removal.remove_at_exit(scratch)
    assert scratch.exists()  # the caller goes on: its answer first
    removal.finish()  # what the process does at exit
    assert not scratch.exists()
    removal.finish()  # nothing left: nothing to do
