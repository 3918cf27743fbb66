"""Opening a file to write that never waits for good: a named pipe (FIFO) that no process
reads would hold ``open`` until a reader comes — past the time limit and every signal, as
Python retries the call (PEP 475). Every file cpsolve writes is opened here."""

from __future__ import annotations

import errno
import os
import stat


class NoReader(OSError):
    """The output is a named pipe that no process reads: writing it would wait for good."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.ENXIO, "no process reads the pipe", str(path))

    def __str__(self) -> str:
        from ...language.quoting import named

        return f"no process reads the pipe {named(self.filename)}"


def open_output(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8"):
    """``open(path, mode)`` for writing; a named pipe is opened without waiting for a
    reader (:class:`NoReader` when it has none), then written as any pipe (blocking)."""
    if "b" in mode:
        encoding = None
    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:  # a new file, or one open() will refuse in its own words
        fifo = False
    if not fifo:
        return open(path, mode, encoding=encoding)  # noqa: SIM115 - the caller closes it
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise NoReader(path) from None
        raise
    os.set_blocking(fd, True)  # a reader is there: it takes the text at its own pace
    return open(fd, mode, encoding=encoding)  # noqa: SIM115 - the caller closes it


def write_output(path: str | os.PathLike, text: str) -> None:
    """``Path(path).write_text(text, encoding="utf-8")`` through :func:`open_output`."""
    with open_output(path) as out:
        out.write(text)
