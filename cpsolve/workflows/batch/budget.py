"""The seconds each instance of a batch or ``compare`` gets (:class:`TaskBudget`), here and
on a cluster."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...engines.runtime.clock import Clock


@dataclass(frozen=True)
class TaskBudget:
    """The seconds each instance of a batch or compare gets: with a command time limit
    (``clock``), an equal share of what is left among the instances still to start, run
    ``slots`` at a time, less the ``keep`` seconds that follow them (their answers checked
    and printed, the process ended); without one, ``each`` (``None``: no limit)."""

    clock: Clock
    each: float | None = None
    keep: float = 0.0

    def seconds(self, remaining: int, slots: int = 1) -> float | None:
        """The next instance's seconds; zero or less once the command's time is up."""
        if self.clock.limit is None:
            return self.each
        left = self.clock.limit - self.clock.elapsed() - self.keep
        return left / math.ceil(max(1, remaining) / max(1, slots))
