"""A local Dask cluster's start: why it stops before the cluster is up."""

from __future__ import annotations

import time

from cpsolve.engines.runtime.clock import state_limit
from cpsolve.engines.runtime.dask.local import start_ends


def test_a_start_past_the_time_left_names_the_commands_limit():
    """The start had the 3 s left of the command's --time-limit 4: past them it said "time
    limit reached", the figure left out (docs/reference/engines.md: a stop names it)."""
    state_limit(4.0)
    try:
        assert start_ends(time.monotonic() - 3.5, 3.0, None)() == "time limit 4 s reached"
        assert start_ends(time.monotonic(), 3.0, None)() is None  # still within them
    finally:
        state_limit(None)
