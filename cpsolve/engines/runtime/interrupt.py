"""Interruption: Ctrl-C (SIGINT) or SIGTERM asks every engine to stop with what it has.

One handler (:func:`on_signal`) serves a whole command: :func:`installed` puts it in
place for :func:`cpsolve.cli.main`.  The first signal only sets a flag
(:func:`request`): the search engine's budget sees it at its next check, CP-SAT's
solve is stopped by the thread that waits for it
(:func:`cpsolve.engines.cpsat.solving.run`), an engine not yet started does not start,
and each returns what it found and proved, saying it was interrupted; the command
prints it.  A second signal raises ``KeyboardInterrupt`` at once (for work that cannot
stop itself: python-constraint, a model file's own Python code); so does the first one
when an engine started under :func:`escalating` has not returned :data:`ESCALATE` seconds
after it (a SIGTERM comes once, and an engine may be deep in work that does not look
at the flag) — seconds of Python's own steps: one long call into C, which no
``KeyboardInterrupt`` cuts short, does not count (:data:`LATE`) — and at once while a
model file loads (:func:`loading`: nothing to keep; a model's code that catches it and
goes on loading for :data:`ESCALATE` more seconds ends the CLI's process there,
:func:`abandoning`).

Work that runs in threads of its own (a CP-SAT solve) registers its stop with
:func:`running`: :func:`settle` stops it and waits for it, so that the process
never ends while such a thread still runs.
"""

from __future__ import annotations

import _thread
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from .stop import Stop
from .waits import waitable

_requested = threading.Event()
_installed = [False]
_first = [-float("inf")]
"""When the signal that asked for the stop came (:func:`on_signal`)."""
_running: dict[int, Callable[[], object]] = {}
_idle = threading.Condition()

REASON = Stop.INTERRUPT.text
"""What an engine stopped by the user reports as its reason."""

_why: list = [REASON, Stop.INTERRUPT]  # the first request's text and kind

SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals that interrupt a command."""


def request(reason: str = REASON, kind: Stop = Stop.INTERRUPT) -> None:
    """Ask every running engine to stop; ``reason`` (the first one given) says why
    and ``kind`` what it is (the user: :data:`REASON`, :attr:`Stop.INTERRUPT`; the
    command's clock: "time limit reached", :attr:`Stop.TIME`; the memory watcher:
    :attr:`Stop.MEMORY`).

    Only a flag, safe in a signal handler: each engine looks at it between steps (a
    CP-SAT solve, from the thread that waits for it, every 50 ms)."""
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


def spent(stop: Stop) -> None:
    """Forget a request of kind ``stop`` once the work it stopped has ended (a batch's
    instance stopped at the memory limit: the next one is asked on its own account)."""
    if requested() and kind() is stop:
        clear()


T = TypeVar("T")


def each_on_its_own(runs: Iterable[T], stop: Stop = Stop.MEMORY) -> Iterator[T]:
    """``runs`` one at a time, a request of kind ``stop`` asked during one forgotten
    (:func:`spent`) before the next is taken: an instance of a batch, or an engine that
    ``compare`` runs, stopped at the memory limit leaves the next one (its file loaded, its
    engine started) its own run, stopped too only if that run passes the limit."""
    for run in runs:
        yield run
        spent(stop)


def clear() -> None:
    """Forget an earlier request (before the next command or test)."""
    _requested.clear()
    _why[:] = [REASON, Stop.INTERRUPT]
    _first[0] = _busy[0] = -float("inf")
    _raised[0] = _cut[0] = False
    _due[0] = None


REPEAT = 0.25
"""Seconds after a first signal within which another counts as the same interruption:
``timeout -s INT`` sends its signal to the process and again to its process group."""


ESCALATE = 1.0
"""Seconds an engine has, after a first Ctrl-C or SIGTERM, to stop with what it has
(:func:`escalating`): past them it is stopped as by a second signal, and what it had is
lost.  An engine that looks at the flag between steps returns within a fraction of it.
Seconds of Python's own steps: one long call into C does not count (:data:`LATE`)."""

LATE = 0.02
"""Seconds past its due time after which a look of the escalation (:func:`on_look`) finds
the main thread coming out of one long call into C — a NumPy step over millions of states
takes seconds, and Python runs no handler inside it.  ``KeyboardInterrupt`` cannot cut such
a call short: raised after it, it would only lose what the engine had (an analysis, every
complete layer) a moment before the engine looks at its flag.  So :data:`ESCALATE` counts
again from there: an engine is stopped at once only after that long without such a call,
its looks every :data:`EVERY` seconds answered in time (work that runs Python's own steps,
python-constraint or a model's facts, is stopped :data:`ESCALATE` seconds after the
signal, as before: the main thread answers within Python's switch interval, 5 ms).  Small,
so that a run of NumPy calls of a few tenths of a second each rarely looks like Python's
own steps for a whole :data:`ESCALATE`: a look put off costs a moment, one taken wrongly
the engine's work."""

EVERY = 0.1
"""Seconds between two looks of the escalation, once :data:`ESCALATE` has passed."""

LOOK = getattr(signal, "SIGUSR2", None)
"""The signal by which the escalation looks at the main thread (:func:`on_look`), sent only
from within (``_thread.interrupt_main``), not SIGINT: a real second Ctrl-C must stay one,
not be taken for a look.  Where there is none, the escalation raises at once as it comes."""

_looks: dict[int, object] = {}
"""The handler :data:`LOOK` had before :func:`on_signal` set :func:`on_look` (restored by
:func:`installed`)."""

_due: list[float | None] = [None]
"""When the escalation's look now on its way to :func:`on_look` was due, or None."""

_busy = [-float("inf")]
"""When the main thread was last found coming out of a long call into C (or the first
signal came): :data:`ESCALATE` counts from there."""

_engines = [0]
"""How many :func:`escalating` blocks the main thread is in."""

_loading: list[str] = []
"""What the main thread is loading (:func:`loading` blocks), innermost last."""

writing = [0]
"""How many :func:`cpsolve.engines.runtime.alarms.printing` blocks the main thread is in: a
first signal's second (:func:`_second_later`) waits until they have ended, so that the
output under way is written whole (a real second signal still cuts it)."""

_raised = [False]
"""True once ``KeyboardInterrupt`` was raised into loading (a model's code may catch it)."""

_cut = [False]
"""True once the output was cut (:class:`OutputCut`): the command is ending with that line."""

_abandon: list[Callable[[str], object]] = []
"""What ends the process when loading goes on :data:`ESCALATE` seconds after
``KeyboardInterrupt`` was raised into it (:func:`abandoning`): the CLI's process only."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM ended work that had nothing to keep (:func:`loading`); its text
    says what was under way (``interrupted while loading queens.toml``)."""


class OutputCut(BaseException):
    """A second Ctrl-C or SIGTERM came while stdout was being written (a reader too slow
    to take it): the output stops where it was, and says so on stderr.  (A first one lets
    the write finish: the document under way was already decided.)  Not a
    ``KeyboardInterrupt``: work that answers one by stopping and going on with what it has
    (auto's race, an engine's stop grace, a batch) must let this one through — nothing can
    be written any more, and the command's last line is the one that says so
    (:func:`cpsolve.cli.main`)."""

    def __init__(self) -> None:
        _cut[0] = True  # from now on no signal raises anything else (:func:`on_signal`)
        super().__init__("interrupted while the output was being written: it is cut short")


def on_signal(signum: int, frame: object) -> None:  # noqa: ARG001 - handler signature
    """SIGINT / SIGTERM: the first asks the engines to stop (:func:`request`); once a stop
    was asked for (a signal, the clock, the memory limit), another raises
    ``KeyboardInterrupt`` — unless it is the first one delivered twice (:data:`REPEAT`).
    Inside :func:`escalating`, the first one also sends the second :data:`ESCALATE`
    seconds later, if an engine still runs then; inside :func:`loading`, the first one
    raises at once (a model's own code may catch it: :func:`_second_later` sees to it)."""
    now = time.monotonic()
    if not requested():
        _first[0] = _busy[0] = now
        request()
        if _engines[0] and LOOK is not None and not _looks:
            _looks[LOOK] = signal.signal(LOOK, on_look)  # here: on the main thread
        if _engines[0] or _loading:
            _second_later()
        if _loading:
            _raised[0] = True
            raise KeyboardInterrupt
    elif now - _first[0] >= REPEAT:
        _raised[0] = _raised[0] or bool(_loading)
        _interrupt()


def _interrupt() -> None:
    """``KeyboardInterrupt`` for a second signal — or, once the output was cut, the cut
    again: a ``KeyboardInterrupt`` raised while the cut travels up (in a ``finally`` on
    its way) would replace it, and an engine's stop would then end the command with exit
    130 and no line."""
    if _cut[0]:
        raise OutputCut
    raise KeyboardInterrupt


def on_look(signum: int, frame: object) -> None:  # noqa: ARG001 - handler signature
    """The escalation's look at the main thread (:data:`LOOK`, from :func:`_second_later`):
    ``KeyboardInterrupt`` once an engine still running has run :data:`ESCALATE` seconds
    without a long call into C (:data:`LATE`), else another look in :data:`EVERY` seconds.
    A look that was not sent (``kill -USR2``) or comes after the engine returned does
    nothing."""
    due, _due[0] = _due[0], None
    if due is None or not (_engines[0] and by_user()):
        return
    now = time.monotonic()
    if now - due > LATE:  # the main thread was in one call all that time
        _busy[0] = now
    if now - _busy[0] >= ESCALATE:
        _interrupt()
    _second_later(EVERY)


def _second_later(wait: float | None = None) -> None:
    """In :data:`ESCALATE` seconds (or ``wait``), the second signal, if an engine still
    runs then: to an engine, a look first (:func:`on_look`).  A model file still loading
    then, though ``KeyboardInterrupt`` was raised into it (its code caught it), ends the
    process (:func:`abandoning`), or, without that (the API), gets another every
    :data:`ESCALATE` seconds while it loads."""
    wait = max(ESCALATE, 1.1 * REPEAT) if wait is None else wait  # not the same signal twice
    due = time.monotonic() + wait

    def second() -> None:
        if not ((_engines[0] or _loading) and by_user()):
            return
        if writing[0]:  # output under way (a solution of count --list to a slow reader):
            _second_later()  # written whole first, the engine stopped after it
            return
        if _loading and _raised[0] and _abandon:
            _abandon[-1](_loading[-1])
            return
        if not _loading and _looks:
            _due[0] = due  # how late it comes: on_look sees
            _thread.interrupt_main(LOOK)
            return
        _raised[0] = _raised[0] or bool(_loading)
        _thread.interrupt_main(signal.SIGINT)
        if _loading:
            _second_later()

    timer = threading.Timer(wait, second)
    timer.daemon = True
    timer.start()


@contextmanager
def escalating() -> Iterator[None]:
    """An engine runs in the block: a first signal that it does not answer within
    :data:`ESCALATE` seconds raises ``KeyboardInterrupt`` in it (the caller's "stopped at
    once" path).  Only on the main thread, where signal handlers run; elsewhere the block
    just runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _engines[0] += 1
    try:
        yield
    finally:
        _engines[0] -= 1


@contextmanager
def loading(what: str) -> Iterator[None]:
    """A model file loads in the block (``what``: ``loading queens.toml``): work with
    nothing to keep — its own Python code, a comprehension of millions of terms — that no
    engine's flag reaches.  A Ctrl-C or SIGTERM that comes in it, or came before it, ends
    it at once with :class:`Interrupted` (``interrupted while loading queens.toml``); so
    does an error the interruption caused (an import cut short).  Only on the main thread,
    where signal handlers run; elsewhere the block just runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if by_user():
        raise Interrupted(f"interrupted while {what}")
    _loading.append(what)
    try:
        yield
    except Interrupted:
        raise
    except (KeyboardInterrupt, Exception) as err:
        if isinstance(err, KeyboardInterrupt) or by_user():
            raise Interrupted(f"interrupted while {what}") from None
        raise
    finally:
        _loading.pop()


@contextmanager
def abandoning(end: Callable[[str], object] | None) -> Iterator[None]:
    """Inside the block, loading that goes on :data:`ESCALATE` seconds after
    ``KeyboardInterrupt`` was raised into it (a model's code that catches it) is given up:
    ``end(what)`` (``what``: ``loading queens.toml``) is called from a timer's thread, and
    ends the process (only the CLI's own process may: the main thread is held by the user's
    code).  ``None``: the block just runs (the API keeps raising)."""
    if end is None:
        yield
        return
    _abandon.append(end)
    try:
        yield
    finally:
        _abandon.remove(end)


def abandons() -> bool:
    """True inside :func:`abandoning` with an ``end``: the process may be ended for work
    that will not stop (the CLI's own process, not the API's)."""
    return bool(_abandon)


def replay(times: list[float]) -> None:
    """Signals that came, at ``times`` (``time.monotonic``), before :func:`on_signal` was in
    place (while the process loaded its modules): handled now as it would have handled them
    — a stop asked for, or ``KeyboardInterrupt`` for a second signal."""
    for at in list(times):
        if not requested():
            _first[0] = at
            request()
        elif at - _first[0] >= REPEAT:
            raise KeyboardInterrupt


def linger() -> None:
    """At the end of a command stopped by a signal, wait until :data:`REPEAT` has passed
    since it came: the same signal delivered twice then meets :func:`on_signal`, not the
    interpreter's default handler as the process ends (which would kill it by SIGINT
    after its answer was printed)."""
    left = _first[0] + REPEAT - time.monotonic()
    if left > 0:
        time.sleep(waitable(left))


@contextmanager
def installed(last: bool = False) -> Iterator[None]:
    """:func:`on_signal` handles SIGINT and SIGTERM inside the block (one command); the
    previous handlers come back afterwards — or, ``last`` (the process ends after the
    block, its answer out), the signals are ignored from then on: a late Ctrl-C would
    otherwise meet the interpreter's default handler while it shuts down, and kill the
    process by SIGINT instead of letting it exit with its code.  Only on the main thread
    (signal handlers live there); elsewhere, and inside another such block, the block
    just runs."""
    if threading.current_thread() is not threading.main_thread() or _installed[0]:
        yield
        return
    previous = {sig: signal.signal(sig, on_signal) for sig in SIGNALS}
    _installed[0] = True
    try:
        yield
    finally:
        _installed[0] = False
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_IGN if last else handler)
        for sig, handler in list(_looks.items()):  # the escalation's looks are over
            signal.signal(sig, handler)
            del _looks[sig]


@contextmanager
def running(stop: Callable[[], object]) -> Iterator[None]:
    """Work that runs in threads of its own (a CP-SAT solve) is under way in the block;
    :func:`settle` calls ``stop`` and waits for the block to end."""
    key = id(stop)
    with _idle:
        _running[key] = stop
    try:
        yield
    finally:
        with _idle:
            _running.pop(key, None)
            _idle.notify_all()


def settle(timeout: float) -> bool:
    """Stop the work still :func:`running` and wait up to ``timeout`` seconds for it to
    end; True when none is left (a process may then exit safely)."""
    with _idle:
        stops = list(_running.values())
    for stop in stops:
        stop()
    end = time.monotonic() + timeout
    with _idle:
        while _running:
            left = end - time.monotonic()
            if left <= 0:
                return False
            _idle.wait(waitable(left))
    return True
