"""The state behind :meth:`.clock.Clock.guard`'s alarms, on the main thread: the guards under
way (:data:`guards`) and their ending, the :func:`printing` blocks during which no alarm
acts, and when an engine's guard ended (:data:`answering`).  The alarm itself, and
:class:`.clock.TimeUp`, are in :mod:`.clock`; each list here is one object, changed in
place, never rebound."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from . import interrupt
from .waits import waitable

answering: list[float | None] = [None]
"""When (``time.monotonic``) an engine's :meth:`.clock.Clock.guard` (one with a grace) ended, none
other having begun since: the command is checking what it found, before printing it.  The
command's own guard then cuts it off only when the whole :meth:`.clock.Clock.overtime` has passed,
since the limit and since that ending (:meth:`.clock.Clock.answer_time`), and not at all once the
printing has begun (:func:`printing`); :func:`.clock.state_limit` clears it for the next
command."""


writing_blocks = [0]
"""The :func:`printing` blocks under way on the main thread: no guard's alarm acts."""

held = [False]
"""An alarm came during a :func:`printing` block: it acts once the last has ended."""

printed = [False]
"""The command has begun to print its answer (:func:`printing` with ``answer``): no
guard's alarm acts any more; :func:`.clock.state_limit` clears it for the next command."""


@contextmanager
def printing(answer: bool = False) -> Iterator[None]:
    """Write output that the clock must not cut: while the block runs, no guard's alarm
    acts (no stop asked for, no :class:`.clock.TimeUp`) — the time limit cuts the work, never the
    writing of what it found, which a cut would leave half written or lose (tens of
    thousands of generated puzzles can take longer to print than any overtime).

    An alarm that came meanwhile acts as soon as the block ends (a batch's line, a solution
    of ``count --list``: the work goes on after it).  The command's ``answer`` is its last
    work: from its block on, no alarm acts any more (none can come between the answer's
    end and the command's).  On other threads, where no alarm comes, the block just runs.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    writing_blocks[0] += 1
    interrupt.writing[0] += 1
    printed[0] = printed[0] or answer
    try:
        yield
    finally:
        writing_blocks[0] -= 1
        interrupt.writing[0] -= 1
        if not writing_blocks[0] and held[0]:
            held[0] = False
            if guards and not printed[0]:  # the alarm that waited: now
                signal.setitimer(signal.ITIMER_REAL, 0.001)


class Armed:
    """One :meth:`.clock.Clock.guard` block under way on the main thread: the SIGALRM handler
    before it, when it began, the outer timer's seconds left then; its alarm acts only
    while it is ``active``.  (A plain class: ``dataclasses`` would cost ``--help`` a fifth
    of bare Python's start-up.)"""

    __slots__ = ("previous", "entered", "outer", "active")

    def __init__(self, previous: object, entered: float, outer: float = 0.0) -> None:
        self.previous, self.entered, self.outer, self.active = previous, entered, outer, True


guards: list[Armed] = []
"""The guards under way on the main thread, innermost last."""


def release(armed: Armed, grace: float) -> None:
    """The end of ``armed``'s block: its timer off, the handler before it back, the outer
    guard's timer armed again.  A guard an outer one has already ended (its ending came
    late) does nothing: the outer's ending undid it, and the outer's timer must not come
    back."""
    armed.active = False
    if not any(a is armed for a in guards):
        return
    signal.setitimer(signal.ITIMER_REAL, 0)
    while guards[-1] is not armed:  # inner guards whose ending has not come: ended now
        guards.pop().active = False
    guards.pop()
    if grace > 0:
        answering[0] = time.monotonic()
    restore(armed.previous)
    if armed.outer > 0:  # the outer guard's moment, less the time this block took
        signal.setitimer(signal.ITIMER_REAL,
                         waitable(max(0.001, armed.outer - (time.monotonic() - armed.entered))))


def restore(handler: object) -> None:
    """SIGALRM's handler back to ``handler`` — also when ``signal.signal``, which first runs
    the handlers of signals already come, raises from one of them (a Ctrl-C)."""
    try:
        signal.signal(signal.SIGALRM, handler)
    except BaseException:
        signal.signal(signal.SIGALRM, handler)
        raise


def disarm() -> None:
    """End every guard still under way (the command has ended): no timer, SIGALRM's handler
    as before the first guard, and no guard's alarm acts any more — a guard's block whose
    ending never ran (or runs later) cannot raise :class:`.clock.TimeUp` after its command."""
    if not guards or threading.current_thread() is not threading.main_thread():
        return
    held[0] = False
    signal.setitimer(signal.ITIMER_REAL, 0)
    first = guards[0]
    for armed in guards:
        armed.active = False
    guards.clear()
    restore(first.previous)
