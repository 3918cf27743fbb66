"""Every file cpsolve writes is opened without waiting for good: a named pipe with no
reader is refused at once (``NoReader``), one with a reader is written as a pipe."""

from __future__ import annotations

import os

import pytest

from cpsolve.engines.runtime.output_files import NoReader, open_output, write_output


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
