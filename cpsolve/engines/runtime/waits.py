"""The longest one wait may last: every wait of the run time (a child's message, a thread's
end, a timer) hands its seconds through :func:`waitable`.

A time limit below :data:`~cpsolve.engines.runtime.clock.LONGEST` (1e9 s) is a limit, and
the waits and timers derived from it (a grace of 60 % of its overtime, the time left) are
handed on; the system takes less: ``poll`` (under ``multiprocessing.connection.wait`` and
``selectors``) counts milliseconds in a C ``int`` (about 24.8 days), lock and thread waits
stop at :data:`threading.TIMEOUT_MAX` (``OverflowError: timeout is too large`` past
either).  A wait cut to :data:`WAIT_MAX` returns early, as if it timed out: its caller
waits again while its own end has not come."""

from __future__ import annotations

import threading

WAIT_MAX = min(threading.TIMEOUT_MAX, (2 ** 31 - 1) / 1000)
"""The most seconds any wait or timer is handed (``poll``'s milliseconds in a C ``int``)."""


def waitable(seconds: float) -> float:
    """``seconds`` within what every wait takes: from 0 to :data:`WAIT_MAX`."""
    return min(max(0.0, seconds), WAIT_MAX)
