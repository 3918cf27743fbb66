"""How much of a core this process has had, and when it started: what a limit counted from
the process's start, or a second of work on a loaded machine, costs in wall time; and how
many processes (or solver threads) this machine can run usefully."""

from __future__ import annotations

import os
import time


def max_processes() -> int:
    """Most worker processes (``--jobs``, ``--workers``; ``Options.workers`` and
    ``Options.cluster`` alike) a run may start: four per core (at least 8); more only thrash
    the machine and its memory."""
    return max(8, 4 * (os.cpu_count() or 1))


def process_start() -> float:
    """When this process started, on the ``time.monotonic`` scale: a command's
    ``--time-limit`` counts from there, the interpreter's start and the imports included
    (now, where the system does not tell)."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22: starttime
            up = float(uptime.read().split()[0])
        age = up - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - min(max(age, 0.0), 60.0)  # a process older than a minute: not ours to judge


SHARE_AFTER = 0.1
"""Seconds of wall time before :func:`cpu_share` reads anything but a whole core."""


def cpu_share(elapsed: float, cpu_before: float = 0.0) -> float:
    """The share of a core this process has had over the last ``elapsed`` seconds, when
    its CPU time was ``cpu_before`` (0: since the process started): CPU time over wall
    time, 1 on an idle machine, 0.1 beside 20 busy processes on 2 cores, kept between
    0.05 and 1 (and 1 before :data:`SHARE_AFTER`).  What a second of this process's work
    costs in wall seconds now is about 1 / share."""
    if elapsed < SHARE_AFTER:
        return 1.0
    used = time.process_time() - cpu_before
    return min(1.0, max(0.05, used / elapsed))


def process_share() -> float:
    """The share of a core this process has had since it started (:func:`cpu_share`; 1 in
    a process older than a minute, whose past says little about now)."""
    elapsed = time.monotonic() - process_start()
    return 1.0 if elapsed >= 60.0 else cpu_share(elapsed)
