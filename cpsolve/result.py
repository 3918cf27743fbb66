"""The one result type every engine returns, with a status that never overclaims."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace


class Status(enum.Enum):
    """What an engine proved.

    * ``OPTIMAL`` — an answer and a proof that none is better (for counts and
      analyses: the figure is exact — a count of 0 is ``OPTIMAL`` with
      ``count=0``, not ``INFEASIBLE``);
    * ``SOLVED`` — an answer, with no optimality proof;
    * ``INFEASIBLE`` — proven: no answer exists;
    * ``UNKNOWN`` — a limit was hit first; ``bound`` / ``explored`` say what
      was proven.
    """

    OPTIMAL = "optimal"
    SOLVED = "solved"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Step:
    """One plan step: the action taken and the state it leads to."""

    action: str
    state: tuple[int, ...]
    cost: int = 1


@dataclass(frozen=True)
class Result:
    """An engine's answer to one task (``solve``, ``count`` or ``analyze``).

    Only the fields that apply are set.  ``verified`` is set by
    :func:`cpsolve.check.verify`, never by an engine.
    """

    status: Status
    engine: str
    task: str = "solve"
    seconds: float = 0.0
    # planning
    plan: tuple[Step, ...] | None = None
    cost: int | None = None
    # csp
    solution: Mapping[str, int] | None = None
    unique: bool | None = None
    second: Mapping[str, int] | None = None
    # counting
    count: int | None = None
    solutions: tuple[Mapping[str, int], ...] | None = None
    plans: tuple[tuple[Step, ...], ...] | None = None  # counted plans, listed (planning)
    # state-space analysis
    states: int | None = None
    layers: tuple[int, ...] | None = None
    max_distance: int | None = None
    farthest: tuple[tuple[int, ...], ...] | None = None
    # what was proven when a limit was hit:
    # solve -> a lower bound on the optimum (moves or cost);
    # count -> the number of solutions found so far (a lower bound);
    # analyze -> the last distance whose layer is complete
    bound: int | None = None
    explored: int | None = None
    message: str = ""
    verified: bool | None = None
    details: Mapping[str, object] = field(default_factory=dict)

    @property
    def moves(self) -> int | None:
        """Number of plan steps."""
        return None if self.plan is None else len(self.plan)

    @property
    def found(self) -> bool:
        """True when the result carries an answer."""
        return self.status in (Status.OPTIMAL, Status.SOLVED)

    def but(self, **changes: object) -> Result:
        """A copy with some fields changed."""
        return replace(self, **changes)


class Unsupported(Exception):
    """An engine was asked for something its capabilities do not include."""


class EngineBug(RuntimeError):
    """An engine returned an answer that the independent checker rejected."""
