"""Child processes, the one way: Python functions in forked children (:func:`start`, here),
external tools (:mod:`.tools`: :func:`.tools.run_tool`) and the children multiprocessing
started for others (:mod:`.tracking`).

**External tools** (:mod:`.tools`): the tool runs in its own process group, stopped at the
time limit or on interruption.  Only the ``fd`` and ``minizinc`` engines (and this package)
start processes (``tests/test_layering.py``).

**Python functions** (``auto``'s racers, the workers of ``--jobs``): :func:`start` forks a
child that runs a function with a pipe back (:class:`Channel`: notes on the way, then its
result or what it raised); :func:`wait_any` waits for the first of several children to say
something; :func:`stop` asks them to stop (SIGINT: an engine returns what it has), reads
what they send within a grace, then kills (SIGKILL) and reaps them.  Each child is a
session of its own that dies with its parent (:func:`_own_session`).  Only this package
imports :mod:`multiprocessing` (``tests/test_layering.py``).
"""

from __future__ import annotations

import atexit
import enum
import multiprocessing
import os
import signal
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing import connection
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from .. import interrupt, memory, release
from ..clock import reached
from ..stop import Stop
from ..waits import waitable

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal a process gets when its parent dies."""

STOPS = {signal.SIGINT, signal.SIGTERM}
"""The signals that ask a child to stop (it returns what it has)."""


class Kind(enum.Enum):
    """What a message from a child is."""

    NOTE = "note"
    """Something the function sent on the way (:meth:`Channel.send`): a progress line, a row."""
    RESULT = "result"
    """The function's return value; the child ends."""
    FAILED = "failed"
    """What the function raised (a :class:`Failure`); the child ends."""
    ENDED = "ended"
    """The child's pipe closed without a result or a failure: it died (the value is its exit
    code, e.g. ``-9`` after SIGKILL)."""


@dataclass(frozen=True)
class Failure:
    """What a child's function raised: the exception's class itself (test it with
    ``issubclass``) and its message."""

    kind: type[BaseException]
    text: str


@dataclass(frozen=True)
class Message:
    """One message from a child."""

    child: Child
    kind: Kind
    value: Any = None

    @property
    def final(self) -> bool:
        """True for the child's last word (a result, a failure, or its end)."""
        return self.kind is not Kind.NOTE


class Channel:
    """The child's end of the pipe: notes to the parent, jobs from it."""

    def __init__(self, conn: Connection):
        self._conn = conn

    def send(self, value: Any) -> None:
        """Send a note (never raises: a parent gone away just does not read it)."""
        try:
            self._conn.send((Kind.NOTE, value))
        except (OSError, ValueError):
            pass

    def receive(self) -> Any:
        """The next value the parent sent (:meth:`Child.send`); ``None`` once it closed."""
        try:
            return self._conn.recv()
        except (EOFError, OSError):
            return None


class Child:
    """A function running in a forked child process (:func:`start`)."""

    def __init__(self, name: str, process: BaseProcess, conn: Connection, told: bool = False):
        self.name, self.process, self.conn = name, process, conn
        self.told = told
        """The child never reads its pipe: a stop may say why through it."""
        self.done = False
        """True once its final message (result, failure or end) was read."""
        self.stopped_at: float | None = None
        """When it was asked to stop (``time.monotonic()``), or None."""

    def send(self, value: Any) -> None:
        """Hand the child a value (it reads it with :meth:`Channel.receive`)."""
        self.conn.send(value)

    def stop(self, why: Stop | None = None, text: str = "") -> None:
        """Ask the child to stop (SIGINT, once): its function returns what it has.  ``why``
        (sent first, through the pipe): what its engines say stopped them (``text``, or
        ``why``'s own words, the command's limit for a time limit; without: an
        interruption)."""
        if self.stopped_at is None:
            self.stopped_at = time.monotonic()
            if why is not None and self.told:
                try:
                    self.conn.send((why.name, text or (reached() if why is Stop.TIME
                                                       else why.text)))
                except (OSError, ValueError):
                    pass
            self._signal(signal.SIGINT)

    def kill(self) -> None:
        """End the child now (SIGKILL)."""
        self._signal(signal.SIGKILL)

    def reap(self, wait: float = 0.05) -> int | None:
        """Let it exit (killing it after ``wait`` seconds), close the pipe; its exit code."""
        self.process.join(waitable(wait))
        if self.process.exitcode is None:
            self.kill()
            self.process.join()
        self.conn.close()
        return self.process.exitcode

    def _signal(self, sig: int) -> None:
        if self.process.exitcode is not None or self.process.pid is None:
            return
        try:
            os.kill(self.process.pid, sig)
        except ProcessLookupError:
            pass


def start(work: Callable[..., Any], *args: Any, name: str = "", share: int = 1,
          told: bool = False) -> Child:
    """Run ``work(*args, channel)`` in a forked child process.

    Its return value comes back as a :data:`Kind.RESULT` message, an exception as
    :data:`Kind.FAILED` (:class:`Failure`), ``channel.send(x)`` as :data:`Kind.NOTE`
    (:func:`wait_any`).  In the child SIGINT and SIGTERM only ask for a stop
    (:func:`cpsolve.engines.runtime.interrupt.request`: an engine returns what it has), and
    the memory limit is one of ``share`` equal parts; ``told``: the child never reads its
    pipe, so a stop may say why through it (:meth:`Child.stop`).  Nothing is pickled on the way in
    (the child is a fork): ``work`` may be any callable.
    """
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=True)
    process = context.Process(target=_main, args=(child, parent, os.getpid(), work, args,
                                                  share, told), daemon=True,
                              name=name or getattr(work, "__name__", "child"))
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)  # until the child's handlers are
    try:                                                    # set (a stop sent at once waits)
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    child.close()
    started = Child(name, process, parent, told)
    _children.add(started)
    return started


_children: weakref.WeakSet[Child] = weakref.WeakSet()
"""The children this process started: a new child closes its copies of their pipes (and of
the parent's end of its own), so that each pipe ends when its two processes let go of it (a
worker waiting for work sees the parent go away)."""


def _main(conn: Connection, parents_end: Connection, parent: int, work: Callable[..., Any],
          args: tuple, share: int, told: bool = False) -> None:
    """The child of ``parent`` (a pid): run ``work``, send its outcome, close the pipe."""
    for sig in STOPS:
        signal.signal(sig, _stop_asked)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    parents_end.close()
    _parents_word[:] = [conn] if told else []
    for sibling in list(_children):
        sibling.conn.close()
    _children.clear()
    _own_session(parent)
    memory.share(share)
    try:  # the child ends by os._exit (multiprocessing's): nothing handed over is freed
        with release.until_exit():
            outcome: tuple[Kind, Any] = (Kind.RESULT, work(*args, Channel(conn)))
    except BaseException as err:  # noqa: BLE001 - every ending is reported, never lost
        outcome = (Kind.FAILED, Failure(type(err), str(err) or type(err).__name__))
    try:
        conn.send(outcome)
    except (OSError, ValueError):
        pass
    except Exception as err:  # noqa: BLE001 - an outcome that cannot be pickled
        conn.send((Kind.FAILED, Failure(RuntimeError, f"its outcome could not be sent: {err}")))
    finally:
        conn.close()


_parents_word: list[Connection] = []
"""This child's end of the pipe, where its parent says why it asks for a stop."""


def _stop_asked(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    """A stop asked for by the parent (SIGINT, after saying why through the pipe) or by the
    user (SIGTERM, SIGINT without a word: an interruption)."""
    try:
        if _parents_word and _parents_word[0].poll():
            kind, text = _parents_word[0].recv()
            interrupt.request(text, Stop[kind])
            return
    except (OSError, EOFError, ValueError, KeyError):
        pass
    interrupt.request()


def _own_session(parent: int) -> None:
    """Make this child a session of its own, dying with its parent.

    Where the kernel shares the CPU fairly between sessions (Linux's autogroup, on by
    default), children in their parent's session split one share: measured here on a loaded
    machine, ``auto``'s search racer took twice as long as search alone.  In a session of
    its own each child gets a share like any command.  Signals from a terminal or from
    ``timeout`` then reach only the parent, which passes them on (:func:`stop`); and
    ``PR_SET_PDEATHSIG`` kills the child if its parent dies first (SIGKILL, ``kill -9``),
    so that none outlives the command.
    """
    try:
        os.setsid()
    except OSError:
        return
    try:
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: no such call
        return
    if os.getppid() != parent:  # the parent died before the call
        os._exit(1)


def wait_any(children: Iterable[Child], timeout: float | None) -> list[Message]:
    """Wait up to ``timeout`` seconds for the first of ``children`` to say something; every
    message ready by then (at most one per child; ``[]`` at the timeout).  A child whose
    final message is read is ``done``."""
    live = {c.conn: c for c in children if not c.done}
    if not live:
        return []
    out = []
    for conn in connection.wait(list(live), None if timeout is None else waitable(timeout)):
        child = live[conn]
        try:
            kind, value = conn.recv()
        except (EOFError, OSError):
            child.process.join(0.5)
            kind, value = Kind.ENDED, child.process.exitcode
        message = Message(child, kind, value)
        child.done = message.final
        out.append(message)
    return out


def stop(children: Iterable[Child], grace: float, why: Stop | None = None,
         text: str = "") -> list[Message]:
    """Stop ``children`` (saying ``why``, see :meth:`Child.stop`): SIGINT to each not
    done, their messages until each has given its final one or ``grace`` seconds have
    passed, then SIGKILL to the rest; every child is reaped.  A further Ctrl-C
    (``KeyboardInterrupt``) while waiting cuts the grace short."""
    children = list(children)
    live = [c for c in children if not c.done]
    for child in live:
        child.stop(why, text)
    end = time.monotonic() + grace
    messages: list[Message] = []
    try:
        while any(not c.done for c in live) and time.monotonic() < end:
            messages.extend(wait_any(live, end - time.monotonic()))
    except KeyboardInterrupt:
        pass
    finally:
        reap(children)
    return messages


def reap(children: Iterable[Child]) -> None:
    """Kill (SIGKILL) every child of ``children`` that has not given its final word, then
    reap them all (one that has gets a moment to exit by itself).  Every kill is sent before
    the first wait: a child that takes long to die (gigabytes to give back on a loaded
    machine) or an exception raised while waiting for it (the command's clock, a second
    Ctrl-C) never leaves another one running — the process would then wait for it at its
    exit (multiprocessing joins its children), past every limit and deaf to Ctrl-C."""
    children = list(children)
    for child in children:
        if not child.done:
            child.kill()
    for child in children:
        try:
            child.reap(0.05 if child.done else 0.0)
        except BaseException:
            for rest in children:
                rest.kill()
            raise


@atexit.register
def _kill_left() -> None:
    """At the process's exit, kill every child it started that still runs: multiprocessing's
    own exit handler (run after this one) would wait for it (its SIGTERM only asks a child
    to stop), and the process would not end."""
    for child in list(_children):
        child.kill()
