"""The clock: one type for every time limit, from the command's down to a slice of an engine's.

``--time-limit`` bounds the whole command's work — loading the model file,
compiling, every engine — but never the writing of what it found (:func:`.alarms.printing`: once
a command prints its answer, the clock no longer interrupts it).  :class:`Clock` tracks
what is left;
:meth:`Clock.guard` stops plain Python work (loading a huge model file) at the
deadline with :class:`TimeUp`, using a ``SIGALRM`` timer on the main thread.
Engines are not interrupted this way: they get the time that is left as their
own limit, make their own :class:`Clock` of it (and :meth:`Clock.child` slices of
that), ask :meth:`Clock.stop` between steps and stop themselves with what they have
proven.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from . import alarms, interrupt, memory
from .stop import Stop
from .waits import waitable

FLOOR = 0.01
"""The fewest seconds :meth:`Clock.left` and :meth:`Clock.share` hand on."""

LONGEST = 1e9
"""Seconds (about 31 years) from which a time limit is no limit: no run lasts that long, and
the system's timers refuse a little more (``setitimer`` and lock waits past about 9.2e9 s,
``timedelta`` past 8.6e13 s), so a larger limit is never handed on to them.  A smaller one
is, and some waits take less still (``poll``: about 24.8 days): every wait and timer takes
its seconds through :func:`.waits.waitable`."""

def seconds(limit: float) -> str:
    """A limit in seconds for a message: three figures ("2.69"), whole seconds from 1000
    on ("3600", not "3.6e+03")."""
    return f"{limit:.3g}" if limit < 1000 else f"{limit:.0f}"


_stated: list[float | None] = [None]
"""The command's ``--time-limit`` (:func:`state_limit`)."""


def state_limit(limit: float | None) -> None:
    """The command's ``--time-limit`` (``None``: none given, or a run outside the command
    line), the limit every message about the time limit names: engines get slices and shares
    of it (the time left less what follows them, a racer's part, a batch instance's share),
    figures the user never gave."""
    _stated[0] = limit
    alarms.answering[0] = None
    alarms.printed[0] = alarms.held[0] = False


@contextmanager
def naming(limit: float | None) -> Iterator[None]:
    """Outside a command (the API's :func:`cpsolve.engines.run`), the run's own time limit
    is the one its messages name while the block runs, as a command's is; within one, the
    command's stays."""
    if _stated[0] is not None or limit is None:
        yield
        return
    _stated[0] = limit
    try:
        yield
    finally:
        _stated[0] = None


def stated(limit: float | None) -> float | None:
    """The limit a message names for a clock of ``limit`` seconds: the command's
    (:func:`state_limit`) when there is one, else ``limit``."""
    return limit if _stated[0] is None else _stated[0]


_sharing: list[bool] = [False]
"""True while an engine runs on a share of the command's limit (:func:`on_a_share`)."""


@contextmanager
def on_a_share() -> Iterator[None]:
    """The block runs an engine on a share of the command's limit (one of ``compare``'s
    engines): a clock that stops it says its share beside the command's limit
    (:meth:`Clock.limit_reached`)."""
    _sharing[0] = True
    try:
        yield
    finally:
        _sharing[0] = False


def reached(limit: float | None = None) -> str:
    """The time limit reached, in words, naming :func:`stated` ``(limit)``: ``time limit 4 s
    reached`` (with no limit to name, ``time limit reached``)."""
    said = stated(limit)
    return Stop.TIME.text if said is None else f"time limit {seconds(said)} s reached"



class TimeUp(BaseException):
    """The command's time limit was reached during ``what``.

    A ``BaseException``, as ``KeyboardInterrupt``: code that catches every ``Exception``
    (a user's model file being loaded, an engine's last line of defence) must not turn
    the clock's stop into an error of its own.  ``grace``: how long past the limit the
    work was left to stop by itself before this cut it off (0: none, cut at the limit)."""

    def __init__(self, what: str, limit: float, armed: alarms.Armed | None = None,
                 grace: float = 0.0):
        self.what, self.limit, self.armed = what, limit, armed  # armed: :func:`absorb`
        self.grace = grace
        super().__init__(f"the time limit ({seconds(limit)} s) was reached while {what}")

    def reached_words(self) -> str:
        """The limit reached, in words, as the user gave it (:func:`reached`): ``time limit
        5 s reached``."""
        return reached(self.limit)


def absorb(err: TimeUp) -> None:
    """The work that ``err`` cut has caught it and returns at once with what it knows (a
    cluster cut while it started: the start alone): the guard that raised it raises no
    more (its alarm would come again every 50 ms until its block ends, and cut off that
    answer too); the guards around it keep their own moments."""
    if err.armed is not None:
        err.armed.active = False


class Clock:
    """A time limit counted from the clock's creation (``None``, or :data:`LONGEST` seconds
    and more: no limit).

    The one clock of every path: the command's ``--time-limit`` (the command line
    makes one), an engine's ``Options.time_limit`` (each engine makes one when it
    starts), a slice of either (:meth:`child`), a share among the runs still to
    come (:meth:`share`).  ``now`` reads the time (``time.monotonic``; tests pass
    their own); a child reads it the same way.
    """

    def __init__(self, limit: float | None = None,
                 now: Callable[[], float] = time.monotonic, start: float | None = None) -> None:
        self.limit = None if limit is None or limit >= LONGEST else limit
        self.now = now
        self.start = now() if start is None else start
        """When the clock started (``start``: earlier, e.g. :func:`.cpu.process_start`)."""

    def __repr__(self) -> str:
        return f"Clock(limit={self.limit}, elapsed={self.elapsed():.3f})"

    def elapsed(self) -> float:
        """Seconds since the clock was made."""
        return self.now() - self.start

    def left(self) -> float | None:
        """Seconds left, never below :data:`FLOOR` (a limit handed on to another run must
        be positive), or ``None`` without a limit; :meth:`time_up` says if any is left."""
        if self.limit is None:
            return None
        return max(FLOOR, self.limit - self.elapsed())

    def time_up(self) -> bool:
        """True once the limit is reached (time only: :meth:`expired` also counts a stop
        asked for)."""
        return self.limit is not None and self.elapsed() >= self.limit

    def expired(self) -> bool:
        """True when work timed by this clock must end: its limit is reached, or a stop
        was asked for (:meth:`stop` says which)."""
        return self.stop() is not None

    def allows(self, seconds: float) -> bool:
        """True when work starting now and taking ``seconds`` ends before the limit."""
        return self.limit is None or self.elapsed() + seconds < self.limit

    def share(self, parts: int) -> float | None:
        """An equal share of the time left among ``parts`` runs still to come."""
        left = self.left()
        return None if left is None else max(FLOOR, left / max(1, parts))

    def child(self, seconds: float | None) -> Clock:
        """A clock starting now with ``seconds`` (``None``: no limit of its own), capped
        at what is left of this one: a slice of this clock's time."""
        if self.limit is not None:
            rest = max(0.0, self.limit - self.elapsed())
            seconds = rest if seconds is None else min(seconds, rest)
        return Clock(seconds, self.now)

    def stop(self) -> Stop | None:
        """Why work timed by this clock must stop now, or ``None`` to go on: a stop asked
        for (the memory limit, Ctrl-C, the command's clock: :func:`.memory.stop_asked`,
        whose kind :func:`.interrupt.kind` tells), else this clock's own limit
        (:attr:`Stop.TIME`).  The one question an engine asks between steps."""
        if memory.stop_asked():  # a stop asked for once this clock's limit has passed (a
            # racer stopped at the race's budget) is the time limit, and says so
            return Stop.TIME if self.time_up() else interrupt.kind()
        return Stop.TIME if self.time_up() else None

    def limit_reached(self) -> str:
        """This clock's limit reached, in words: ``time limit 5 s reached`` (without a
        limit, ``time limit reached``), naming the command's limit when there is one
        (:func:`reached`).  A clock of an engine's share of it (:func:`on_a_share`) stops at a
        smaller figure, which the words add: ``time limit 20 s reached (its share: 4.6 s)``."""
        return f"{reached(self.limit)}{self.share_words()}"

    def share_words(self) -> str:
        """`` (its share: 4.6 s)`` for a clock of an engine's share of the command's limit
        (:func:`on_a_share`), else nothing."""
        said = stated(self.limit)
        if _sharing[0] and self.limit is not None and said is not None and self.limit < said:
            return f" (its share: {seconds(self.limit)} s)"
        return ""

    def why(self, own: str | None = None) -> str:
        """Why the work stopped, in words: the reason of a stop asked for (``interrupted``,
        ``memory limit 1.5 GiB reached``, ``time limit 4 s reached``), else ``own``, the
        wording of this clock's limit (by default :meth:`limit_reached`)."""
        if interrupt.requested() and not self.time_up():
            return interrupt.reason()
        return self.limit_reached() if own is None else own

    def overtime(self) -> float:
        """How far past its limit a command may end: 10 % of it or 0.5 s, the larger."""
        return max(0.1 * (self.limit or 0.0), 0.5)

    def grace(self) -> float:
        """How long an engine asked to stop at the limit may take to return what it has
        (:meth:`guard`): 60 % of the :meth:`overtime`."""
        return 0.6 * self.overtime()

    def last_word(self) -> float:
        """How far past the limit the command's own work may go before it is cut off
        (:meth:`guard` around the whole command): 85 % of the :meth:`overtime`, past an
        engine's :meth:`grace`; the rest is for the error line and the process's exit.
        Once the engines have ended the whole overtime (:meth:`answer_time`): an answer
        found is printed rather than thrown away for an error line that takes as long —
        and once its printing has begun, nothing cuts it off (:func:`.alarms.printing`)."""
        return 0.85 * self.overtime()

    def answer_time(self, over: float) -> float:
        """How far past the limit the command's guard waits, ``over`` seconds past it, once
        an engine's guard has ended (:data:`.alarms.answering`): the whole :meth:`overtime`, and
        at least the overtime since that ending — an engine whose stop came late (a NumPy
        step holds the alarm until it ends) leaves what it found to be checked and printed,
        not thrown away the moment it is back."""
        since = time.monotonic() - (alarms.answering[0] or 0.0)
        return max(self.overtime(), over + self.overtime() - since)

    @contextmanager
    def guard(self, what: str, grace: float = 0.0) -> Iterator[None]:
        """Stop the block at the limit: with ``grace``, first ask the engines to stop
        (:func:`cpsolve.engines.runtime.interrupt.request`, so they return what they have) and
        raise :class:`TimeUp` only once ``grace`` seconds past the limit; without, raise at
        the limit.

        Guards nest (the command's around an engine's): an inner block has the timer to
        itself, and the outer one's is armed again when it ends (a block that ends past the
        outer's moment meets it at once).  A guard's alarm acts only while its block runs
        (:class:`.alarms.Armed`): one whose ending comes late (a block left by an exception raised
        in ``contextlib``'s exit, its generator closed when collected) finds its outer
        guard gone and does nothing, and :func:`.alarms.disarm` ends them all with the command.
        Only on the main thread; elsewhere (and without a limit) the block just runs.
        """
        left = self.left()
        if left is None or threading.current_thread() is not threading.main_thread():
            yield
            return
        armed = alarms.Armed(signal.getsignal(signal.SIGALRM), time.monotonic())
        alarms.guards.append(armed)
        _quiet_when_swallowed()
        signal.signal(signal.SIGALRM, self._alarm(what, grace, armed))
        armed.outer, _ = signal.setitimer(signal.ITIMER_REAL, waitable(left))
        if grace:
            alarms.answering[0] = None  # an engine's block: work that may be asked to stop
        try:
            yield
        finally:
            alarms.release(armed, grace)

    def _alarm(self, what: str, grace: float, armed: alarms.Armed) -> Callable:
        """The SIGALRM handler of :meth:`guard`: at the limit, a stop asked for (with a
        ``grace``) or :class:`TimeUp`; ``grace`` seconds past it, :class:`TimeUp`.  Nothing
        once the block has ended (``armed`` no longer active), and no second
        :class:`TimeUp` while one is on its way out."""
        soft = [grace > 0]

        def alarm(signum, frame):  # noqa: ARG001 - signal handler signature
            if not armed.active:  # a late signal: its block has ended, nothing to stop
                return
            if alarms.writing_blocks[0] or alarms.printed[0]:  # output under way: it waits
                alarms.held[0] = not alarms.printed[0]  # for the end of the block (after the
                return  # answer: for ever)
            over = self.elapsed() - (self.limit or 0.0)
            if over < 0:  # early (an outer guard's timer set by another clock)
                signal.setitimer(signal.ITIMER_REAL, waitable(-over))
                return
            if soft[0]:
                soft[0] = False
                interrupt.request(self.limit_reached(), Stop.TIME)
            # an answer is not thrown away for an error line
            wait = grace if alarms.answering[0] is None else self.answer_time(over)
            if over < wait:
                signal.setitimer(signal.ITIMER_REAL, waitable(wait - over))
                return
            # re-armed: an exception raised inside a finaliser is swallowed by Python,
            # so the alarm fires again until TimeUp leaves the block
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            if isinstance(sys.exc_info()[1], TimeUp):  # one is leaving the blocks already:
                return  # another, raised in a guard's exit, would skip that guard's ending
            raise TimeUp(under_way(what, frame), self.limit, armed, wait)

        return alarm


def _quiet_when_swallowed() -> None:
    """A :class:`TimeUp` raised where Python swallows it (a finaliser: importlib's module
    lock's weakref callback, a ``__del__``) is the alarm's to raise again (it does, every
    50 ms): Python's "Exception ignored in ..." traceback on stderr is not printed for it
    (``sys.unraisablehook``, the one before handling every other)."""
    before = sys.unraisablehook
    if getattr(before, "quiet_time_up", False):
        return

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, TimeUp):
            before(unraisable)

    hook.quiet_time_up = True
    sys.unraisablehook = hook


def under_way(what: str, frame) -> str:
    """``what`` a guard guards, and the import under way in ``frame`` (the main thread's,
    where the alarm came) when there is one: ``running solve (importing
    cpsolve.output.text)`` — the outermost import, the one the guarded code asked for (on a
    loaded machine a command's imports alone can take past a short limit)."""
    name = None
    while frame is not None:
        code = frame.f_code
        if code.co_name == "_find_and_load" and "importlib" in code.co_filename:
            name = frame.f_locals.get("name", name)
        frame = frame.f_back
    return what if not isinstance(name, str) else f"{what} (importing {name})"
