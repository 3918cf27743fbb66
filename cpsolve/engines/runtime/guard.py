"""A guard over code that may hold the interpreter: a Python model file's own code.

Ctrl-C, SIGTERM and the time limit reach cpsolve through Python-level handlers
(:mod:`.interrupt`, :mod:`.clock`), and those run only between two bytecodes of the main
thread.  A model's code stuck in one long C call (``sum(range(10**11))`` at its top level)
holds the GIL: no handler, no timer thread runs until the call returns, maybe never.
What still runs without the GIL is Python's C-level signal handler, which writes the
signal's number to the file registered with ``signal.set_wakeup_fd``, and other processes.

Two ways were weighed:

- ``faulthandler.dump_traceback_later(limit + grace, exit=True)``: a C watchdog thread.
  It holds the time limit, but not a signal (nothing re-arms it without the GIL), and it
  ends the process with exit 1 after a traceback: no JSON document, and a traceback where
  the user must see one line.
- this module's: a small guard process (``python -I -S``, about 15 ms to start) runs only
  while a Python model loads (:func:`guarded`).  It reads the wakeup pipe and a control
  pipe (its end of file: loading is over, or the process is gone).  A SIGINT or SIGTERM
  that the process has not answered :data:`HELD` seconds later, or a
  time limit passed by the grace, makes it stop the process (SIGSTOP, and on Linux wait
  until /proc says it is stopped), check once more
  that loading has not ended meanwhile (then it lets the process go on: its own ending is
  under way), write the one stderr line and, with ``--json``, the one error object that
  the caller prepared, and kill the process (SIGKILL: exit 137 in a shell).

The second keeps "one JSON document" and one line; its exit code, 137 (the error object
says ``"exit": 137``), is documented (docs/json.md).  The process cannot be made to exit
with 130 or 1 from outside: its handlers catch SIGINT and SIGTERM, and they are the ones
that cannot run.  The caller closes the control pipe (:func:`release`) before it writes
any output of its own, so that only one of the two ever writes.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from .interrupt import ESCALATE, SIGNALS
from .processes.tools import spawn_helper

HELD = 2 * ESCALATE
"""Seconds after a SIGINT or SIGTERM at which the guard ends a process that has not
answered: twice :data:`ESCALATE`.  At :data:`ESCALATE` the process's own timer ends a
model's code that catches ``KeyboardInterrupt`` (exit 130); on a loaded machine that
timer's thread may run late, and the guard cannot tell a late thread from a held
interpreter, so it comes a second after the timer, not at the same moment (it did, and
killed such runs: exit 137)."""

KILLED = 137
"""The exit status of a process the guard ended: killed by SIGKILL (128 + 9), as a shell
reports it; the error object the guard writes says it."""


@dataclass(frozen=True)
class Ending:
    """What the guard writes when it ends the process: the stderr line and the JSON
    document (empty without ``--json``), as bytes ready to write."""

    line: bytes
    document: bytes = b""


GUARD = r"""
import json, os, select, signal, sys, time
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
    signal.signal(s, signal.SIG_IGN)
c = json.loads(sys.argv[1])
pid, sig_r, ctl_r, wait = c["pid"], c["sig"], c["ctl"], c["wait"]
deadline = None if c["after"] is None else time.monotonic() + min(c["after"], 1e15)
signals, came, ending = set(c["signals"]), None, None
while ending is None:
    now = time.monotonic()
    due = [t for t in (deadline, came) if t is not None]
    left = min(max(0.0, min(due) - now), 3600.0) if due else None
    ready = select.select([ctl_r] + ([sig_r] if came is None else []), [], [], left)[0]
    if ctl_r in ready and not os.read(ctl_r, 64):
        sys.exit(0)
    if sig_r in ready and came is None and signals & set(os.read(sig_r, 512)):
        came = time.monotonic() + wait
    now = time.monotonic()
    if came is not None and now >= came:
        ending = "interrupt"
    elif deadline is not None and now >= deadline:
        ending = "time"
try:
    os.kill(pid, signal.SIGSTOP)
except ProcessLookupError:
    sys.exit(0)
end = time.monotonic() + 0.2
while time.monotonic() < end:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] in "Tt":
                break
    except (OSError, IndexError):
        break
    time.sleep(0.002)
if select.select([ctl_r], [], [], 0)[0] and not os.read(ctl_r, 64):
    os.kill(pid, signal.SIGCONT)
    sys.exit(0)
for fd, key in ((2, "line"), (1, "document")):
    data = bytes.fromhex(c[ending][key])
    while data:
        try:
            data = data[os.write(fd, data):]
        except OSError:
            break
os.kill(pid, signal.SIGKILL)
"""
"""The guard's program (run with ``-I -S``: nothing of cpsolve, nothing of the site)."""

_ctl: list[int] = []
"""The write end of the control pipe of the guard under way (none: no guard)."""
_lock = threading.Lock()


def release() -> None:
    """Tell the guard under way (if any) that the process answers for itself from now on:
    it ends without writing anything.  Safe from any thread, any number of times."""
    with _lock:
        while _ctl:
            try:
                os.close(_ctl.pop())
            except OSError:
                pass


@contextmanager
def guarded(after: float | None, interrupted: Ending, timed_out: Ending) -> Iterator[None]:
    """Run the block (a Python model's code) under a guard process: a SIGINT or SIGTERM
    not answered :data:`HELD` seconds later ends the process with ``interrupted``
    written, and ``after`` seconds (``None``: never) with ``timed_out`` written — unless
    the block has ended (or :func:`release` was called) by then.  Only on the main thread
    (the wakeup pipe is set there); elsewhere, or when no guard can be started, the block
    just runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    sig_r, sig_w = os.pipe()
    ctl_r, ctl_w = os.pipe()
    os.set_blocking(sig_w, False)
    config = {"pid": os.getpid(), "sig": sig_r, "ctl": ctl_r, "wait": HELD,
              "after": after, "signals": [int(s) for s in SIGNALS],
              "interrupt": _hex(interrupted), "time": _hex(timed_out)}
    try:
        guard = spawn_helper(GUARD, json.dumps(config), pass_fds=(sig_r, ctl_r))
    except OSError:  # no process to be had: the block runs as it did without a guard
        guard = None
    os.close(sig_r)
    os.close(ctl_r)
    if guard is None:
        os.close(sig_w)
        os.close(ctl_w)
        yield
        return
    with _lock:
        _ctl.append(ctl_w)
    previous = signal.set_wakeup_fd(sig_w, warn_on_full_buffer=False)
    try:
        yield
    finally:
        release()
        signal.set_wakeup_fd(previous)
        os.close(sig_w)
        guard.wait()


def _hex(ending: Ending) -> dict[str, str]:
    return {"line": ending.line.hex(), "document": ending.document.hex()}
