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
_reason = ["interrupted"]

REASON = "interrupted"
"""What an engine stopped by the user reports as its reason."""


def request(reason: str = REASON) -> None:
    """Ask every running engine to stop; ``reason`` (the first one given) says why
    (the user: :data:`REASON`; the command's clock: "time limit reached")."""
    if not _requested.is_set():
        _reason[0] = reason
    _requested.set()


def requested() -> bool:
    """True once a stop was asked for (until :func:`clear`)."""
    return _requested.is_set()


def reason() -> str:
    """Why the stop was asked for (meaningful once :func:`requested`)."""
    return _reason[0]


def by_user() -> bool:
    """True when the user interrupted (Ctrl-C, SIGTERM), not the clock."""
    return requested() and reason() == REASON


def clear() -> None:
    """Forget an earlier request (before the next command or test)."""
    _requested.clear()
    _reason[0] = REASON


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
