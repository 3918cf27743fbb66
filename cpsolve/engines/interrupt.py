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

_requested = threading.Event()

REASON = "interrupted"
"""What a stopped engine reports as its reason."""


def request() -> None:
    """Ask every running engine to stop."""
    _requested.set()


def requested() -> bool:
    """True once a stop was asked for (until :func:`clear`)."""
    return _requested.is_set()


def clear() -> None:
    """Forget an earlier request (before the next command or test)."""
    _requested.clear()


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
