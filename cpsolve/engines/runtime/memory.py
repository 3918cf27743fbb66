"""The memory limit: engines stop with what they have before the process is killed.

``--memory-limit`` (by default :data:`DEFAULT_SHARE` of the memory available
when the command starts: :func:`available`) is a *soft* limit on the
resident memory of the process.  Engines look at it where they already
look at the clock (the search budget after the first expansion, then every few
thousand; the CP-SAT wait loop before the solve, then every 50 ms): :func:`check`
reads the process's resident size and its peak since the last look (at most every
:data:`EVERY` seconds) and, past the limit, or where the next step would pass it at the
last one's pace, asks every engine to stop through
:func:`cpsolve.engines.runtime.interrupt.request` with the reason "memory limit …
reached".  Each engine then returns what it found and proved, as after a time limit.

A model file loading never looks at the limit (a user's ``build()``, a comprehension):
:func:`watching` looks for it, every few milliseconds of the process's CPU time.  Nor do
engines everywhere (the tables built before their first look, a long step, a C library's
solve): :func:`holding` looks over each engine's whole run the same way, asks the engines
to stop at the limit and cuts the run off a tenth past it (:func:`ceiling`).

No hard address-space limit (``RLIMIT_AS``) is set, nor a data-segment one
(``RLIMIT_DATA``), not even while a model loads: both count reserved, untouched
memory — CP-SAT's threads each reserve stacks and allocator arenas, NumPy maps
more than it touches (``import numpy``: about 40 MB per core, 15 MB touched) — so
a hard limit near the soft one would kill sound runs, and one far above it would
not protect the machine.  An address-space limit set from outside
(``ulimit -v``) lowers the default instead, so that engines stop before it
bites; a ``MemoryError`` that still happens is reported by the command line
in one line (exit 1).

Engines running side by side in several processes (``auto``, ``--jobs``)
share the limit equally (:func:`share`).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from . import interrupt
from .stop import Stop

DEFAULT_SHARE = 0.8
"""The default limit: this fraction of the available memory (:func:`available`)."""

EVERY = 0.02
"""Seconds between two reads of the resident size."""

_state = {"limit": None, "whole": None, "last": 0.0, "level": 0, "rise": 0, "peak": 0}
"""The limit; the limit it is a share of (``whole``: the figure the user gave); when the
resident size was last read and what it was (``level``); how far above the level before it
the process last went in between (``rise``), and its peak so far (``peak``): :func:`check`."""


def set_limit(nbytes: int | None, whole: int | None = None) -> None:
    """Stop engines once the process's resident memory passes ``nbytes`` (None: never);
    ``whole``: the limit ``nbytes`` is a share of (by default ``nbytes`` itself), the
    figure the messages name (:func:`reason`)."""
    nbytes = None if nbytes is None else max(1, int(nbytes))
    _state.update(limit=nbytes, whole=nbytes if whole is None else whole, last=0.0, level=0,
                  rise=0, peak=peak() or 0)  # a peak before the limit has no bearing on it


@contextmanager
def adopted(nbytes: int | None) -> Iterator[int | None]:
    """Outside a command, which sets the limit itself (the API's :func:`cpsolve.engines.run`
    with ``Options(memory_limit=...)``), ``nbytes`` is the process's limit while the block
    runs, as ``--memory-limit`` would make it, and a stop it asked for ends with the block;
    yields it, or None when a limit was in force already (a command's) or none is given."""
    if nbytes is None or _state["limit"] is not None:
        yield None
        return
    set_limit(nbytes)
    try:
        yield _state["limit"]
    finally:
        set_limit(None)
        interrupt.spent(Stop.MEMORY)  # its stop ends with it: the caller's next run is free


def limit() -> int | None:
    """The limit in bytes, or None."""
    return _state["limit"]


def share(parts: int) -> None:
    """This process is one of ``parts`` that run at once: keep an equal share of the limit."""
    if _state["limit"] is not None and parts > 1:
        set_limit(_state["limit"] // parts, whole=_state["whole"])


def resident() -> int | None:
    """The process's resident memory in bytes (None where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


CGROUP_FILES = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                 "/sys/fs/cgroup/memory/memory.usage_in_bytes"))
"""A container's memory limit and use (cgroup v2, then v1)."""


def available() -> int | None:
    """Bytes this process may still use: the machine's MemAvailable (/proc/meminfo), or
    less when a container's limit (cgroup) or an address-space limit (``ulimit -v``)
    leaves less; None when none of them is known."""
    known = [n for n in (_meminfo(), _cgroup(), _rlimit()) if n is not None]
    return min(known) if known else None


def _meminfo() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup() -> int | None:
    for most, used in CGROUP_FILES:
        try:
            with open(most) as f:
                text = f.read().strip()
            if text == "max" or int(text) >= 1 << 60:  # "no limit" (v2, v1)
                return None
            with open(used) as f:
                return max(0, int(text) - int(f.read().strip()))
        except (OSError, ValueError):
            continue
    return None


def _rlimit() -> int | None:
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def default_limit() -> int | None:
    """:data:`DEFAULT_SHARE` of the available memory (:func:`available`; None when it is
    unknown)."""
    free = available()
    return None if free is None else int(free * DEFAULT_SHARE)


def reason(nbytes: int) -> str:
    """What an engine stopped by the limit of ``nbytes`` reports: the limit the user gave,
    as the time limit is reported (``memory limit 1.5 GiB reached``), and the engine's share
    of it when it had one (``memory limit 1 GiB reached (this engine's share: 512 MiB)``)."""
    whole = _state["whole"] if _state["limit"] == nbytes and _state["whole"] else nbytes
    if whole == nbytes:
        return f"memory limit {size_text(nbytes)} reached"
    return f"memory limit {size_text(whole)} reached (this engine's share: {size_text(nbytes)})"


def check() -> bool:
    """True (and every engine asked to stop) once the resident memory passes the limit, or
    would at the next step.

    Reads the resident size at most every :data:`EVERY` seconds; cheap to call often.  A
    NumPy step allocates its temporaries and frees them between two looks, so the size
    read then says little: the process's peak (:func:`peak`) is read too.  A new peak past
    the limit means the limit was passed; and as the next step is taken to rise as far
    above where it starts as the last one that set a peak did, a level from which that rise
    would pass the limit stops the engines too.
    """
    nbytes = _state["limit"]
    if nbytes is None:
        return False
    now = time.monotonic()
    if now - _state["last"] < EVERY:
        return False
    _state["last"] = now
    used, top = resident(), peak() or 0
    if used is None:
        return False
    passed = top > _state["peak"] and top > nbytes  # a new peak, past the limit
    if top > _state["peak"] and _state["level"]:
        _state["rise"] = top - _state["level"]
    _state.update(level=used, peak=max(top, _state["peak"]))
    if not passed and used + _state["rise"] <= nbytes:
        return False
    interrupt.request(reason(nbytes), Stop.MEMORY)
    return True


def peak() -> int | None:
    """The most resident memory this process has held (Linux: ``VmHWM``), or None where
    the system does not tell."""
    try:
        with open("/proc/self/status", "rb") as f:
            return next(int(line.split()[1]) * 1024 for line in f
                        if line.startswith(b"VmHWM:"))
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def stop_asked() -> bool:
    """True once the memory limit is passed (looked at now, :func:`check`) or a stop was
    asked for (Ctrl-C, SIGTERM, the command's clock): what engines ask between steps."""
    return check() or interrupt.requested()


LOADING_EVERY = 0.01
"""Seconds of the process's CPU time between two looks at its resident size while a model
file loads (:func:`watching`)."""


class MemoryUp(BaseException):
    """The memory limit was passed during ``what`` (``loading big.py``): work with nothing to
    keep, which no engine's look reaches (:func:`watching`).  A ``BaseException``, as the
    clock's ``TimeUp``: a model's code that catches every ``Exception`` does not load on
    past it."""

    def __init__(self, what: str, nbytes: int):
        self.what, self.nbytes = what, nbytes
        super().__init__(f"the memory limit ({size_text(nbytes)}) was reached while {what}")


@contextmanager
def watching(what: str) -> Iterator[None]:
    """Hold the limit over a block that never looks at it (``what``: a model file loading —
    a user's ``build()``, its imports, a comprehension): every :data:`LOADING_EVERY`
    seconds of the process's CPU time (``ITIMER_PROF``) the resident size and its peak are
    read, and past the limit :class:`MemoryUp` is raised in the block.

    CPU time, not wall time: memory grows only as the process works, so on a loaded
    machine, however small its share of a core, a look still comes every few milliseconds
    of its own work.  A single step that allocates in one go (one C call,
    ``b"x" * 10**10``) passes the limit before the look after it; no hard limit stops it
    (the module's docstring says why).  The block runs unwatched without a limit,
    off the main thread (signal handlers run there), and when the process holds the limit
    already as it begins (the engines then stop at their first look)."""
    nbytes, used = _state["limit"], resident()
    if nbytes is None or used is None or used >= nbytes \
            or threading.current_thread() is not threading.main_thread():
        yield
        return
    whole, top = _state["whole"] or nbytes, peak() or 0

    def look() -> None:
        high = peak() or 0
        if (resident() or 0) > nbytes or (high > top and high > nbytes):
            raise MemoryUp(what, whole)  # again at the next look if the code catches it

    with _looking(look):
        yield


SLACK = 0.1
"""How far past the limit, as a share of it, an engine asked to stop there may still grow
before its run is cut off (:func:`holding`; :func:`ceiling`)."""

ROOM = 64 << 20
"""Bytes an engine's run may always grow by from what the process held as it began
(:func:`holding`): room to make its answer once asked to stop (and to import NumPy) under a
limit the process passed before the run, or so close to it that a tenth of it would not
hold one."""


def ceiling(nbytes: int, used: int) -> int:
    """How much an engine's run, begun with ``used`` bytes held, may hold under a limit of
    ``nbytes`` before it is cut off (:func:`holding`): :data:`SLACK` past the limit, or
    :data:`ROOM` past ``used`` if that is more."""
    return max(nbytes + int(SLACK * nbytes), used + ROOM)


@contextmanager
def holding(what: str) -> Iterator[None]:
    """Hold the limit over an engine's run (``what``: ``running search``), also where none of
    its looks (:func:`check`) reaches: building its tables before the first, a long step
    between two, a C library's solve.  Every :data:`LOADING_EVERY` seconds of the process's
    CPU time (every thread's: a CP-SAT solve's too) the resident size and its peak are
    read: past the limit every engine is asked to stop (as :func:`check` does: each returns
    what it has), and past the :func:`ceiling` (:data:`SLACK` past the limit: an engine
    that did not stop, or whose stop allocates), :class:`MemoryUp` is raised in the block:
    the run ends there, what it had is lost.  The process's peak thus stays within a tenth
    of the limit past it, plus what one step allocates between two looks (:func:`watching`
    says which steps escape); a run begun at or near the limit may grow by :data:`ROOM`
    from where it began.  Without a limit, and off the main thread, the block just runs."""
    nbytes, used = _state["limit"], resident()
    if nbytes is None or used is None \
            or threading.current_thread() is not threading.main_thread():
        yield
        return
    whole, top = _state["whole"] or nbytes, peak() or 0
    hard = ceiling(nbytes, used)

    def look() -> None:
        high = peak() or 0
        held = max(resident() or 0, high if high > top else 0)  # a peak set in the block
        if held > hard:
            raise MemoryUp(what, whole)  # again at the next look if the code catches it
        if held > nbytes and not interrupt.requested():
            interrupt.request(reason(nbytes), Stop.MEMORY)

    with _looking(look):
        yield


@contextmanager
def _looking(look) -> Iterator[None]:
    """Call ``look`` every :data:`LOADING_EVERY` seconds of the process's CPU time while the
    block runs (``SIGPROF``), until it raises :class:`MemoryUp` into the block; the handler
    and timer of an outer block come back after it."""
    active = [True]

    def handler(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
        if not active[0] or isinstance(sys.exc_info()[1], MemoryUp):  # the block has
            return  # ended (a signal come just before), or one is leaving it already
        look()

    previous = signal.signal(signal.SIGPROF, handler)
    outer = signal.setitimer(signal.ITIMER_PROF, LOADING_EVERY, LOADING_EVERY)
    try:
        yield
    finally:
        active[0] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, _left(previous))
        _state["peak"] = max(_state["peak"], peak() or 0)  # answered here: no engine's peak
        if outer[0] > 0:  # an outer block's watch goes on
            signal.setitimer(signal.ITIMER_PROF, *outer)


def _spent(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    """What answers ``SIGPROF`` after a watch (:func:`_left`): nothing."""


def _left(previous):
    """The ``SIGPROF`` handler to leave after a watch: the one before it, unless that was
    the default (which ends the process) or none, then :func:`_spent`.  The timer may have
    sent a signal just before it stopped that a thread busy in C (CP-SAT's) takes only
    later: under the default it would kill the process (an ``auto`` racer, a batch worker
    gone without a word), and under ``SIG_IGN`` Python would print "Signal 27 ignored due
    to race condition" on stderr."""
    if previous is None or previous == signal.SIG_DFL:
        return _spent
    return previous


def size_text(nbytes: int) -> str:
    """Bytes for people, in powers of 1,024 with their own units (as ``--memory-limit``
    reads ``400M``: 400 MiB): ``512 KiB``, ``1.5 GiB``; past a thousand million TiB (an
    estimate's), as :func:`~cpsolve.language.quoting.short_number` writes them:
    ``1e+400 TiB``, which no float holds."""
    if nbytes >= 1024 ** 4 * 10 ** 9:
        from ...language.quoting import short_number  # not at import, as below

        return f"{short_number(nbytes // 1024 ** 4)} TiB"
    value, unit = float(nbytes), "bytes"
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            break
        value /= 1024
    if unit == "bytes":
        from ...answers.words import plural  # not at import: --help loads this module

        return plural(int(value), "byte")
    return f"{value:,.1f} {unit}".replace(".0 ", " ")
