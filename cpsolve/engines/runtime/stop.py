"""Why a run stopped before it finished, as a value tested by identity.

An engine that stops early says why in its message ("time limit 5 s reached",
"memory limit 1.5 GiB reached", "interrupted"); code that must act on the reason
(an analysis stopped by its default state limit, a pattern-database build stopped by
its share of the time) tests the :class:`Stop` beside that text, never the text.
"""

from __future__ import annotations

from enum import Enum


class Stop(Enum):
    """What ended a run early; :attr:`text` is its plain wording for messages."""

    TIME = "time limit reached"
    STATES = "state limit reached"
    MEMORY = "memory limit reached"
    INTERRUPT = "interrupted"
    GONE = "the reader of stdout has gone"  # a batch piped into `head`: nothing can be shown

    @property
    def text(self) -> str:
        """The reason in words, without figures (``"time limit reached"``)."""
        return self.value
