"""Opening a file to write that never waits for good: a named pipe (FIFO) that no process
reads would hold ``open`` until a reader comes — past the time limit and every signal, as
Python retries the call (PEP 475). Every file cpsolve writes is opened here; files that go
together (an export's pair) are written all or none (:func:`write_together`)."""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
from collections.abc import Callable, Iterator


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


def write_together(files: dict[str, str], stop: Callable[[], object] | None = None) -> bool:
    """Write every file (path -> text) or none: each is checked first (a folder in its place,
    a file that may not be written fail it), then written to a temporary file beside it, and
    all are renamed into place once every one is written; a failure removes what it made
    (a file that was new included) and leaves the old files as they were.  A named pipe is
    opened before any file is written (:class:`NoReader` when nothing reads it) and written
    last.  False, with nothing written, when ``stop()`` is true before the renames.
    Raises ``OSError`` whose ``filename`` is the path given."""
    for path in files:
        real = os.path.realpath(path)  # a link is written through, as open() does
        if os.path.isdir(real):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if os.path.exists(real) and not os.access(real, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    made: dict[str, tuple[str, str]] = {}  # temporary file -> (the path given, its real path)
    placed: list[str] = []  # new files renamed into place: removed if a later rename fails
    pipes = []
    try:
        for path, text in files.items():
            if _is_fifo(path):
                pipes.append((open_output(path), text))
                continue
            real = os.path.realpath(path)
            with _named(path):
                temp = _temporary(real)
                made[temp] = path, real
                with open(temp, "w", encoding="utf-8") as out:
                    out.write(text)
        if stop is not None and stop():
            return False
        for temp, (path, real) in list(made.items()):
            new = not os.path.exists(real)
            with _named(path):
                os.replace(temp, real)
            del made[temp]
            if new:
                placed.append(real)
        placed.clear()
        for out, text in pipes:
            out.write(text)
        return True
    finally:
        for out, _ in pipes:
            out.close()
        for temp in [*made, *placed]:
            with contextlib.suppress(OSError):
                os.remove(temp)


@contextlib.contextmanager
def _named(path: str) -> Iterator[None]:
    """An ``OSError`` in the block names ``path`` (not the temporary file)."""
    try:
        yield
    except NoReader:
        raise
    except OSError as err:
        raise type(err)(err.errno, err.strerror, path) from None


def _is_fifo(path: str) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _temporary(real: str) -> str:
    """A new hidden file beside ``real``, named for it, with the mode a new file gets (the
    umask's) or, when ``real`` exists, the old file's."""
    folder, name = os.path.split(real)
    for n in itertools.count():
        temp = os.path.join(folder, f".{name}.{os.getpid()}-{n}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        with contextlib.suppress(OSError):
            os.chmod(temp, stat.S_IMODE(os.stat(real).st_mode))
        return temp
    raise AssertionError("unreachable")  # pragma: no cover
