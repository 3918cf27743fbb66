"""External tools (Fast Downward; MiniZinc runs through its own Python package, which
starts and stops it: :mod:`cpsolve.engines.minizinc`): the tool runs in its own process group.
:func:`run_tool` waits for it while watching the time limit and
:mod:`~cpsolve.engines.runtime.interrupt`: at the limit, or when the user interrupts, the
whole group gets SIGTERM, then SIGKILL a moment later, so no planner or solver outlives the
command.  :func:`spawn_helper` starts a small Python program of cpsolve's own."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..clock import Clock

POLL = 0.05
"""Seconds between two looks at the clock and the interrupt flag."""

GRACE = 1.0
"""Seconds between SIGTERM and SIGKILL."""


@dataclass(frozen=True)
class Finished:
    """What a tool did: its exit code and output, and why it was stopped (``""``: it ended)."""

    returncode: int
    stdout: str
    stderr: str
    stopped: str = ""
    seconds: float = 0.0


def run_tool(cmd: list[str], cwd: Path, time_limit: float | None,
             on_line: Callable[[str], None] | None = None) -> Finished:
    """Run ``cmd`` in ``cwd``; stop it at ``time_limit`` seconds or on interruption.

    With ``on_line``, each line of the tool's output is passed to it as soon as the line is
    complete (and the last one, unfinished, when the tool ends), once each."""
    clock = Clock(time_limit)
    out, err = cwd / ".stdout", cwd / ".stderr"
    lines = _Lines(out, on_line)
    with open(out, "wb") as o, open(err, "wb") as e:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=o, stderr=e, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        stopped = ""
        try:
            while proc.poll() is None:
                if clock.expired():
                    stopped = clock.why()
                    _stop(proc)
                    break
                time.sleep(POLL)
                lines.read()
        finally:
            if proc.poll() is None:  # KeyboardInterrupt or any other way out
                _stop(proc)
    lines.read(final=True)
    return Finished(proc.returncode, out.read_text(errors="replace"),
                    err.read_text(errors="replace"), stopped, clock.elapsed())


def spawn_helper(code: str, *args: str, pass_fds: tuple[int, ...] = ()) -> subprocess.Popen:
    """Start a small Python program of cpsolve's own (``code``, run with ``-I -S``: no site,
    none of cpsolve) with ``args``, in a session of its own (signals to the command's
    process group do not reach it), its stdin ``/dev/null``, stdout and stderr the
    command's, and the file descriptors ``pass_fds`` kept: the guard of a Python model's
    loading (:mod:`.guard`).  ``OSError`` when no process can be had."""
    import sys

    return subprocess.Popen([sys.executable, "-I", "-S", "-c", code, *args], pass_fds=pass_fds,
                            stdin=subprocess.DEVNULL, start_new_session=True)


class _Lines:
    """The lines a tool has written to its output file so far, each passed on once."""

    def __init__(self, path: Path, on_line: Callable[[str], None] | None) -> None:
        self.path, self.on_line = path, on_line
        self.offset, self.rest = 0, b""

    def read(self, final: bool = False) -> None:
        """Pass on the complete lines written since the last call (``final``: all)."""
        if self.on_line is None or not self.path.exists():
            return
        with open(self.path, "rb") as f:
            f.seek(self.offset)
            chunk = f.read()
        self.offset += len(chunk)
        *complete, self.rest = (self.rest + chunk).split(b"\n")
        if final and self.rest:
            complete.append(self.rest)
            self.rest = b""
        for line in complete:
            self.on_line(line.decode(errors="replace"))


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the tool's process group, SIGKILL if it is still there after :data:`GRACE`."""
    for sig, wait in ((signal.SIGTERM, GRACE), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


# --- Python functions in forked child processes ---------------------------------------------
