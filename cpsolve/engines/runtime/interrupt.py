"""Interruption: Ctrl-C (SIGINT) or SIGTERM asks every engine to stop with what it has.

The first signal only sets a flag (:func:`request`): the search engine's budget
sees it at its next check, CP-SAT's solve is stopped from the waiting thread
(:func:`cpsolve.engines.cpsat.solving.run`), and each returns what it found and
proved, saying it was interrupted.  A second signal raises ``KeyboardInterrupt``
for an engine that cannot stop itself (python-constraint).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .stop import Stop

REASON = Stop.INTERRUPT.text
"""What an engine stopped by the user reports as its reason."""

_requested = threading.Event()
_why: list = [REASON, Stop.INTERRUPT]  # the first request's text and kind


def request(reason: str = REASON, kind: Stop = Stop.INTERRUPT) -> None:
    """Ask every running engine to stop; ``reason`` (the first one given) says why
    and ``kind`` what it is (the user: :data:`REASON`, :attr:`Stop.INTERRUPT`; the
    command's clock: "time limit reached", :attr:`Stop.TIME`; the memory watcher:
    :attr:`Stop.MEMORY`)."""
    if not _requested.is_set():
        _why[:] = [reason, kind]
    _requested.set()


def requested() -> bool:
    """True once a stop was asked for (until :func:`clear`)."""
    return _requested.is_set()


def reason() -> str:
    """Why the stop was asked for (meaningful once :func:`requested`)."""
    return _why[0]


def kind() -> Stop:
    """What kind of stop was asked for (meaningful once :func:`requested`)."""
    return _why[1]


def by_user() -> bool:
    """True when the user interrupted (Ctrl-C, SIGTERM), not the clock."""
    return requested() and kind() is Stop.INTERRUPT


def clear() -> None:
    """Forget an earlier request (before the next command or test)."""
    _requested.clear()
    _why[:] = [REASON, Stop.INTERRUPT]


@contextmanager
def handling() -> Iterator[None]:
    """SIGINT and SIGTERM request a stop inside the block; a second one interrupts hard.

    Only on the main thread (signal handlers live there); elsewhere the block
    just runs.  The previous handlers come back afterwards.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum, frame):  # noqa: ARG001 - signal handler signature
        if requested():
            raise KeyboardInterrupt
        request()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
