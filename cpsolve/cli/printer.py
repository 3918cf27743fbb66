"""The one printer of an invocation's output: ``--json`` is one JSON object whatever the
ending (:class:`Printer`), and an error is one plain line on stderr (:func:`fail`); stdout
that cannot be written is one such error too (:func:`guarded`), its closed pipe none
(stdout's own, :func:`stdout_gone`: another pipe that breaks is a bug in cpsolve)."""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..engines.runtime.interrupt import OutputCut
from .arguments import printable
from .charset import json_text


class Printer:
    """Where one invocation's output goes: with ``--json``, exactly one JSON object on
    stdout whatever the ending (a batch's JSON lines come before it).

    A command prints its answer with :meth:`emit` (its lines with :meth:`line`); an error
    goes through :meth:`fail`, which writes the one-line message on stderr and, with
    ``--json`` and nothing emitted yet, the error object
    (:func:`cpsolve.output.json.error_json`).
    """

    def __init__(self, command: str | None, json_wanted: bool):
        self.command = command
        self.json = json_wanted
        self.emitted = False
        """True once the command's JSON object is out: nothing more goes to stdout."""

    def emit(self, obj: dict) -> None:
        """Print the command's one JSON object (a second one is a bug in cpsolve)."""
        if self.emitted:
            raise RuntimeError("a command prints one JSON object; this is its second")
        print(json_text(obj), flush=True)
        self.emitted = True

    def line(self, obj: dict) -> None:
        """Print one JSON line of a stream (an instance of a batch) before its last object."""
        if self.emitted:
            raise RuntimeError("a JSON line after the command's last object")
        print(json_text(obj), flush=True)

    def fail(self, message: str, code: int) -> int:
        """``error: message`` as one plain line on stderr; with ``--json`` and nothing
        emitted yet, also the error object on stdout (when stdout cannot take it, the line
        on stderr is all that is said).  Returns ``code``."""
        fail(message, code)
        if self.json and not self.emitted:
            from ..output.json import error_json

            try:
                self.emit(error_json(self.command, printable(message), code))
            except (BrokenPipeError, OutputLost):
                self.emitted = True
                reader_gone()
        return code

    def prepared(self, message: str, code: int) -> tuple[bytes, bytes]:
        """What :meth:`fail` would write for ``message`` and ``code``, as bytes that another
        process writes later (the guard of a Python model's loading,
        :mod:`cpsolve.engines.runtime.guard`): the stderr line, and the error object (none
        without ``--json``, or once the command's object is out)."""
        from .charset import HANDLER

        def encoded(text: str, stream) -> bytes:
            return text.encode(getattr(stream, "encoding", None) or "utf-8", HANDLER)

        message = printable(message)
        line = encoded(f"error: {message}\n", sys.stderr)
        if not self.json or self.emitted:
            return line, b""
        from ..output.json import error_json

        return line, encoded(json_text(error_json(self.command, message, code)) + "\n",
                             sys.stdout)

    def lost(self, err: OutputLost) -> int:
        """Stdout cannot be written: ``error: cannot write the output: ...`` on stderr (no
        JSON object: stdout is what failed), and what is still to be written goes
        nowhere.  Returns :data:`OUTPUT_LOST`."""
        self.emitted = True
        reader_gone()
        return fail(str(err), OUTPUT_LOST)


def fail(message: str, code: int) -> int:
    """Print ``error: message`` as one plain line on stderr and return ``code``."""
    print(f"error: {printable(message)}", file=sys.stderr)
    return code


OUTPUT_LOST = 2
"""Exit code when stdout cannot be written (a full disk, an I/O error): as for an output
file that cannot be written, the user's system, not a bug in cpsolve."""


class OutputLost(Exception):
    """Stdout cannot be written, for a reason other than a closed pipe (that one is
    ``BrokenPipeError``: the reader had what it wanted)."""

    def __init__(self, err: OSError) -> None:
        super().__init__(f"cannot write the output: {err.strerror or err}")


def write_utf8(text: str) -> None:
    """Write ``text`` to stdout as UTF-8 bytes (a page, a picture: what its file would
    hold, whatever the console's encoding), after what stdout holds; a stdout without a
    byte layer (a test's capture) takes it as text.  Fails as :class:`Guarded` does."""
    stdout = sys.stdout
    stdout.flush()
    raw = getattr(stdout, "buffer", None)
    if raw is None:
        stdout.write(text)
        return
    with _losing():
        _all_bytes(raw, text.encode("utf-8"))
        raw.flush()


class Guarded:
    """``sys.stdout`` while a command runs (:func:`guarded`): a write or flush that fails
    for any reason but a closed pipe raises :class:`OutputLost`; the rest is the stream's
    own (``None``: stdout was closed when the process started).

    A write, once begun, is written whole, however slow the reader: an unbuffered stdout
    (``PYTHONUNBUFFERED``, ``python -u``) is written in a loop until all is out, as a
    buffered one is by its buffer — Python's text layer drops what a write cut short by a
    signal (the clock's alarm, a first Ctrl-C) did not write.  ``KeyboardInterrupt`` during
    a write (a second Ctrl-C) cuts it: :class:`OutputCut`, and nothing more is written."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if _model_thread():  # a model's thread printing after its load: not cpsolve's output
            return sys.stderr.write(text)
        try:
            with _losing():
                return _whole(self._open(), text)
        except KeyboardInterrupt:
            reader_gone()  # what is still to be written goes nowhere
            raise OutputCut from None

    def flush(self) -> None:
        if self.stream is not None:  # closed: nothing was written, nothing to flush
            try:
                with _losing():
                    self.stream.flush()
            except KeyboardInterrupt:
                reader_gone()
                raise OutputCut from None

    def _open(self):
        if self.stream is None:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        return self.stream

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


def _whole(stream, text: str) -> int:
    """Write ``text`` to ``stream`` whole: through its own ``write`` when it is buffered,
    else (its text layer straight over the file: unbuffered) its bytes in a loop, since
    a write cut short by a signal writes part of them and the text layer drops the rest."""
    raw = getattr(stream, "buffer", None)
    if not isinstance(raw, io.RawIOBase) or not text:
        return stream.write(text)
    _all_bytes(raw, text.encode(stream.encoding, stream.errors or "strict"))
    return len(text)


def _all_bytes(raw, data: bytes) -> None:
    """Write ``data`` to ``raw`` whole: an unbuffered file's write cut short by a signal
    writes part of it, so the rest is written again until none is left."""
    if not isinstance(raw, io.RawIOBase):
        raw.write(data)
        return
    left = memoryview(data)
    while left:
        left = left[raw.write(left) or 0:]


def _model_thread() -> bool:
    """Whether this thread is one a Python model's code started
    (:func:`cpsolve.puzzles.files.model_thread`; none before model files are read)."""
    files = sys.modules.get("cpsolve.puzzles.files")  # not imported: no model ran
    return files is not None and files.model_thread()


@contextmanager
def _losing() -> Iterator[None]:
    """An ``OSError`` of the block (a write to stdout), a closed pipe's but, as
    :class:`OutputLost`; a closed pipe is marked as stdout's (:func:`stdout_gone`)."""
    try:
        yield
    except BrokenPipeError:
        _gone[0] = True
        raise
    except OSError as err:
        raise OutputLost(err) from None


_gone = [False]
"""True once stdout itself was found a closed pipe in the command under way (its write or
flush failed so, :func:`_losing`), or was sent nowhere (:func:`reader_gone`)."""


def stdout_gone() -> bool:
    """Whether a ``BrokenPipeError`` that reached the command is stdout's own — its reader
    has gone (``| head``: no error, the reader had what it wanted) — as stdout itself says:
    one of its writes or flushes failed so (:func:`_losing`), it was sent nowhere already
    (:func:`reader_gone`), or it is a pipe or socket without a reader now (``POLLERR``,
    ``POLLHUP``).  Else the pipe that broke is another one (to a worker of ``--jobs``, a
    racer of ``auto``, an external tool, a socket): a failure of cpsolve, not the reader's
    leave."""
    if _gone[0]:
        return True
    try:
        fd = sys.stdout.fileno()  # none: a stream of its own (a test's), not a pipe
    except (AttributeError, OSError, ValueError):
        return False
    try:
        import select

        poll = select.poll()
        poll.register(fd, select.POLLERR)
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in poll.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll here, or fd 1 closed
        return False


class Unheard:
    """``sys.stderr`` while a command runs (:func:`guarded`): a write or flush that fails
    (``2>/dev/full``, a closed stderr) loses what it would say and raises nothing, so the
    command still ends with its own exit code (2 for a bad model, not an internal error
    raised by its error line); the rest is the stream's own."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.failed = False
        """True once a write or flush failed: what the stream still holds cannot go out."""

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except (OSError, ValueError, AttributeError):  # AttributeError: closed at the start
            self.failed = True
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (OSError, ValueError, AttributeError):
            self.failed = True

    def after(self):
        """The stderr after the command: the stream, or once it failed, one to nowhere —
        the interpreter's last flush of what the stream still holds would fail again and
        end the process with 120 instead of the command's code."""
        return open(os.devnull, "w", encoding="utf-8") if self.failed else self.stream

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


@contextmanager
def guarded() -> Iterator[None]:
    """While the block runs, ``sys.stdout`` fails in one way (:class:`Guarded`), whatever
    writes to it (a JSON line, rich, ``print``), and ``sys.stderr`` not at all
    (:class:`Unheard`); afterwards each is the stream it was, unless stdout was sent
    nowhere meanwhile (:func:`reader_gone`)."""
    guard, unheard = Guarded(sys.stdout), Unheard(sys.stderr)
    sys.stdout, sys.stderr = guard, unheard
    _gone[0] = False
    try:
        yield
    finally:
        if sys.stdout is guard:
            sys.stdout = guard.stream
        if sys.stderr is unheard:
            sys.stderr = unheard.after()


READER_LOOK = 0.2
"""Seconds between two looks at whether stdout's reader has gone (:func:`watch_reader`)."""


@contextmanager
def watch_reader() -> Iterator[None]:
    """While the block runs, ask every engine to stop (:attr:`~cpsolve.engines.runtime.stop.
    Stop.GONE`) once stdout is a pipe whose reader has gone (``cpsolve solve DIR --json |
    head``): nothing more can be shown, so a batch ends at once instead of solving on
    until its next line fails to be written."""
    try:
        is_pipe = stat.S_ISFIFO(os.fstat(1).st_mode)
    except (OSError, ValueError):
        is_pipe = False
    if not is_pipe or not hasattr(__import__("select"), "poll"):
        yield
        return
    done = threading.Event()
    watcher = threading.Thread(target=_watch, args=(done,), name="stdout-reader", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()  # not joined: its poll may wait READER_LOOK more; it acts no more


def _watch(done: threading.Event) -> None:
    """:func:`watch_reader`'s thread: poll stdout for the error a pipe without a reader
    shows (``POLLERR``) until ``done``."""
    import select

    from ..engines.runtime import interrupt
    from ..engines.runtime.stop import Stop

    poll = select.poll()
    poll.register(1, select.POLLERR)
    while not done.is_set():
        if any(event & (select.POLLERR | select.POLLHUP)
               for _, event in poll.poll(READER_LOOK * 1000)):
            if not done.is_set():  # the block has not ended: its work has no reader
                interrupt.request(Stop.GONE.text, Stop.GONE)
            return


def reader_gone() -> None:
    """Stdout's reader has gone (or stdout cannot be written at all): what is still to be
    written goes nowhere (the interpreter's last flush included, which would fail again)."""
    _gone[0] = True
    try:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - kept to the end of the process
    except OSError:
        pass
