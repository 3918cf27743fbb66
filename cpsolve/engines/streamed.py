"""Solutions an engine streams as it finds them (``Options.on_solution``: ``count --list``),
re-checked at the door (:func:`cpsolve.engines.run`) before they are passed on.

Each one the independent checker passes is remembered, so that the engine's final list is
not checked a second time, nor cut to what could be re-checked within the time limit:
what was streamed was checked, in the engine's own time, and the result lists it all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..answers.check.assignments import violations
from ..model import Csp


class Streamed:
    """An engine's ``on_solution`` behind the door: each solution is checked, and passed on
    to ``passed_on`` only when it holds (one that does not is the engine's bug, which the
    result's own check then names)."""

    def __init__(self, model: Csp, passed_on: Callable[[dict[str, int]], None]) -> None:
        self.model = model
        self.passed_on = passed_on
        self.names = tuple(model.domains)
        self.held: set[tuple[int | None, ...]] = set()

    def key(self, values: Mapping[str, int]) -> tuple[int | None, ...]:
        """``values`` as a tuple in the model's order (a missing name: ``None``)."""
        return tuple(values.get(n) for n in self.names)

    def __call__(self, values: dict[str, int]) -> None:
        if violations(self.model, values):
            return
        self.held.add(self.key(values))
        self.passed_on(values)

    def passed(self, values: Mapping[str, int]) -> bool:
        """True when ``values`` was streamed and passed the check (and has no other names)."""
        return len(values) == len(self.names) and self.key(values) in self.held
