"""What an ``auto`` race records and returns: each racer's :class:`Check`, the
:class:`Confirmation` of a proof, the :class:`Race`; the race as it goes (:class:`Watch`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ...answers.result import Assignment, Result, Status

PROVEN = {Status.OPTIMAL, Status.INFEASIBLE, Status.EXACT, Status.COMPLETE}


@dataclass(frozen=True)
class Check:
    """What one racing engine did: its result, or why it has none (``unsupported``: the
    engine cannot do the task, so it was not raced; ``refused``: it proved that the task
    has no answer, :class:`Unanswerable`, which ``note`` says)."""

    engine: str
    result: Result | None = None
    note: str = ""
    unsupported: bool = False
    refused: bool = False
    started: bool = True
    """False for an engine never started: the answer came within the head start."""
    bug: str = ""
    """The engine's answer failed the independent check: the error, in the words every
    command uses for it (:meth:`EngineBug.said`: a bug in cpsolve, exit 3)."""


@dataclass(frozen=True)
class Confirmation:
    """The cross-check of a proven answer: the engine asked to confirm it, the window it was
    given after the proof (seconds; 0 when it had ended before), whether its proven answer
    agrees, and whether it was stopped at the window's end (or by an interruption)."""

    by: str
    window: float
    confirmed: bool
    stopped: bool
    head_start: float | None = None
    """Seconds of search's head start when the proof came within it (``by`` not started)."""
    same_proof: bool = False
    """``by`` reached the same answer by the same code (:func:`.agreement.same_proof`)."""


@dataclass(frozen=True)
class Race:
    """The outcome of an ``auto`` run: the answer, what every engine did, and the
    cross-check of a proven answer (``None`` without a proof or a second engine)."""

    result: Result
    checks: tuple[Check, ...] = field(default_factory=tuple)
    problems: tuple[str, ...] = ()
    confirmation: Confirmation | None = None
    proved_at: float | None = None
    """Seconds into the race when the winner's proof came in (None: no proof in time)."""

    @property
    def bugs(self) -> tuple[Check, ...]:
        """The engines whose answer failed the independent check (the others' answers
        stand: the race's answer is theirs)."""
        return tuple(check for check in self.checks if check.bug)

    @property
    def confirmed_by(self) -> tuple[str, ...]:
        """Engines other than the winner whose proven answer agrees with it."""
        return self.result.cross_checked_by


class Ending(enum.Enum):
    """Why the race stopped waiting."""

    ALL_DONE = "every engine ended"
    WINDOW = "the cross-check window ended"
    LIMIT = "the time limit"
    INTERRUPT = "interrupted"


@dataclass
class Watch:
    """The race as it goes: the winner, its window, and how the waiting ended."""

    winner: str | None = None
    proved_at: float | None = None
    window: float = 0.0
    window_end: float = float("inf")
    ending: Ending | None = None
    running: tuple[str, ...] = ()
    """The engines still running when the waiting ended."""
    head_start: float | None = None
    """The head start within which the winner proved its answer (the others not started)."""
    limit: float | None = None
    """The race's budget (seconds; ``None``: none), which a stop at it names as the user
    gave it (:func:`cpsolve.engines.runtime.clock.stated`)."""


def proven(result: Result) -> bool:
    """True for a settled answer: an optimum, an exact count, a complete analysis, a proof
    of infeasibility, or a CSP solution whose uniqueness is decided."""
    if result.status in PROVEN:
        return True
    return isinstance(result.answer, Assignment) and result.answer.unique is not None


@dataclass(frozen=True)
class Found:
    """A racer's note: a solution as it found it (``count --list`` streams them)."""

    values: dict[str, int]
