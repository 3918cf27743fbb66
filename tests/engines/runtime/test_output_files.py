"""Every file cpsolve writes is opened without waiting for good: a named pipe with no
reader is refused at once (``NoReader``), one with a reader is written as a pipe."""

from __future__ import annotations

import os

import pytest

from cpsolve.engines.runtime.output_files import (
    NoReader,
    open_output,
    write_output,
    write_together,
)


def test_a_pipe_nobody_reads_is_refused_at_once(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(NoReader) as caught:
        write_output(pipe, "text")
    assert isinstance(caught.value, OSError) and caught.value.filename == str(pipe)


def test_a_pipe_with_a_reader_is_written_blocking(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with open_output(pipe) as out:
            assert os.get_blocking(out.fileno())
            out.write("text")
        assert os.read(reader, 100) == b"text"
    finally:
        os.close(reader)


def test_a_plain_file_is_written_as_open_writes_it(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("old and longer")
    write_output(path, "new")
    assert path.read_text() == "new"
    with open_output(path, "ab") as out:
        out.write(b"+")
    assert path.read_bytes() == b"new+"


def test_files_written_together_are_all_written(tmp_path):
    old = tmp_path / "a.txt"
    old.write_text("old")
    old.chmod(0o640)
    done = write_together({str(old): "A", str(tmp_path / "b.txt"): "B"})
    assert done and old.read_text() == "A" and (tmp_path / "b.txt").read_text() == "B"
    assert old.stat().st_mode & 0o777 == 0o640  # the old file's mode is kept
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.txt"]  # no temporary file left


def test_a_folder_in_the_place_of_the_second_file_leaves_nothing_written(tmp_path):
    """The first file used to be written before the second one failed."""
    (tmp_path / "b.txt").mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        write_together({str(tmp_path / "a.txt"): "A", str(tmp_path / "b.txt"): "B"})
    assert caught.value.filename == str(tmp_path / "b.txt")
    assert sorted(os.listdir(tmp_path)) == ["b.txt"]


def test_a_failed_write_leaves_no_temporary_file_and_the_old_file_as_it_was(tmp_path,
                                                                            monkeypatch):
    old = tmp_path / "a.txt"
    old.write_text("old")
    real = os.replace
    calls = []

    def replace(src, dst):  # the second rename fails: the first file, new, is removed again
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError) as caught:
        write_together({str(tmp_path / "new.txt"): "N", str(old): "A"})
    assert caught.value.filename == str(old)
    assert sorted(os.listdir(tmp_path)) == ["a.txt"] and old.read_text() == "old"


def test_a_stop_before_the_files_are_in_place_writes_none(tmp_path):
    assert not write_together({str(tmp_path / "a.txt"): "A"}, stop=lambda: True)
    assert os.listdir(tmp_path) == []
