"""The solutions of a csp count as the search reports them (:class:`Tally`): counted, kept
when asked, passed on, and the search ended by :class:`Stop` once the limit is reached."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ... import Options


class Stop(Exception):
    """Ends a search early (enough solutions, or a limit)."""


class Tally:
    """The callback a count's search reports each solution to (``options``: ``keep``,
    ``on_solution``, ``limit``); ``total`` solutions so far."""

    def __init__(self, options: Options) -> None:
        self.options, self.total, self.kept = options, 0, []

    def __call__(self, solution: Any) -> None:
        self.total += 1
        if self.options.keep:
            self.kept.append(solution)
        if self.options.on_solution is not None:
            self.options.on_solution(solution)
        if self.options.limit is not None and self.total >= self.options.limit:
            raise Stop

    def solutions(self) -> tuple | None:
        """The solutions kept (``None`` unless ``options.keep``)."""
        return tuple(self.kept) if self.options.keep else None
