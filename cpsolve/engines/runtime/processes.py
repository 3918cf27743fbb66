"""Running an external tool (Fast Downward, MiniZinc) as a child process that can be stopped.

The tool runs in its own process group.  :func:`run_tool` waits for it while
watching the time limit and :mod:`~cpsolve.engines.runtime.interrupt`: at the limit,
or when the user interrupts, the whole group gets SIGTERM, then SIGKILL a
moment later, so no planner or solver outlives the command.  Only the ``fd``
and ``minizinc`` engines (and this module) start processes
(``tests/test_layering.py``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .clock import Clock

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


def run_tool(cmd: list[str], cwd: Path, time_limit: float | None) -> Finished:
    """Run ``cmd`` in ``cwd``; stop it at ``time_limit`` seconds or on interruption."""
    clock = Clock(time_limit)
    out, err = cwd / ".stdout", cwd / ".stderr"
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
        finally:
            if proc.poll() is None:  # KeyboardInterrupt or any other way out
                _stop(proc)
    return Finished(proc.returncode, out.read_text(errors="replace"),
                    err.read_text(errors="replace"), stopped, clock.elapsed())


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
