"""The command's clock: one time limit for everything a command does.

``--time-limit`` bounds the whole command — loading the model file,
compiling, every engine, rendering.  :class:`Clock` tracks what is left;
:meth:`Clock.guard` stops plain Python work (loading a huge model file) at the
deadline with :class:`TimeUp`, using a ``SIGALRM`` timer on the main thread.
Engines are not interrupted this way: they get the time that is left as their
own limit and stop themselves with what they have proven.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class TimeUp(BaseException):
    """The command's time limit was reached during ``what``.

    A ``BaseException``, as ``KeyboardInterrupt``: code that catches every ``Exception``
    (a user's model file being loaded, an engine's last line of defence) must not turn
    the clock's stop into an error of its own."""

    def __init__(self, what: str, limit: float):
        self.what, self.limit = what, limit
        super().__init__(f"the time limit ({limit:g} s) was reached while {what}")


class Clock:
    """Seconds left of a command's time limit (``None``: no limit)."""

    def __init__(self, limit: float | None):
        self.limit = None if limit is None or limit == float("inf") else limit
        self.start = time.monotonic()

    def left(self) -> float | None:
        """Seconds left (never below a small positive floor), or ``None`` without a limit."""
        if self.limit is None:
            return None
        return max(0.01, self.limit - (time.monotonic() - self.start))

    def share(self, parts: int) -> float | None:
        """An equal share of the time left among ``parts`` runs still to come."""
        left = self.left()
        return None if left is None else max(0.01, left / max(1, parts))

    def grace(self) -> float:
        """How far past the limit a command may finish: part of 10 % or 0.5 s (the larger)."""
        return 0.6 * max(0.1 * (self.limit or 0.0), 0.5)

    @contextmanager
    def guard(self, what: str, grace: float = 0.0) -> Iterator[None]:
        """Stop the block at the limit: with ``grace``, first ask the engines to stop
        (:func:`cpsolve.engines.runtime.interrupt.request`, so they return what they have) and
        raise :class:`TimeUp` only ``grace`` seconds later; without, raise at once.

        Only on the main thread; elsewhere (and without a limit) the block just runs.
        """
        from . import interrupt

        left = self.left()
        if left is None or threading.current_thread() is not threading.main_thread():
            yield
            return
        soft = [grace > 0]

        def alarm(signum, frame):  # noqa: ARG001 - signal handler signature
            if soft[0]:
                soft[0] = False
                interrupt.request("time limit reached")
                signal.setitimer(signal.ITIMER_REAL, grace)
                return
            # re-armed: an exception raised inside a finaliser is swallowed by Python,
            # so the alarm fires again until TimeUp leaves the block
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            raise TimeUp(what, self.limit)

        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, left)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
