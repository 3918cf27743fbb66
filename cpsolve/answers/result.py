"""The one result type every engine returns: one typed answer and a status that never overclaims.

A :class:`Result` says what an engine proved about one task (``solve``,
``count`` or ``analyze``): a :class:`Status` from that task's own set
(:data:`STATUSES`), at most one answer (:mod:`cpsolve.answers.kinds`: a plan, an
assignment, a count, an analysis) and what was proven when there is none
(``bound``, ``proof``).  The statuses a task allows and the answer types it
takes are enforced when a result is built.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..model.invariants import Invariant, Parity
from .check import EngineBug
from .kinds import Analysis, Answer, Assignment, Count, Plan, Step

__all__ = ["STATUSES", "Analysis", "Answer", "Assignment", "Count", "EngineBug",
           "EngineFailed", "Hint", "HINT_VERDICTS", "Plan", "Result", "Skipped", "Status",
           "Step", "Unanswerable", "Unsupported"]


class Status(enum.Enum):
    """What an engine proved; each task has its own set (:data:`STATUSES`).

    solve: ``OPTIMAL`` (an answer and a proof that none is better),
    ``SOLVED`` (an answer, no optimality proof), ``INFEASIBLE`` (proven: no
    answer; ``proof`` says how), ``UNKNOWN`` (a limit was hit first; ``bound``
    / ``explored`` say what was proven).
    count: ``EXACT`` (every solution counted; 0 is an exact count),
    ``AT_LEAST`` (a limit stopped the count: there are at least that many, 0
    included), ``UNKNOWN`` (no count: the optimum a count of optimal solutions
    needs was not proven, or an engine stopped at once lost what it had).
    analyze: ``COMPLETE`` (every layer explored), ``PARTIAL`` (a limit was hit:
    the layers known so far).
    """

    OPTIMAL = "optimal"
    SOLVED = "solved"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"
    EXACT = "exact"
    AT_LEAST = "at_least"
    COMPLETE = "complete"
    PARTIAL = "partial"


STATUSES: dict[str, tuple[Status, ...]] = {
    "solve": (Status.OPTIMAL, Status.SOLVED, Status.INFEASIBLE, Status.UNKNOWN),
    "count": (Status.EXACT, Status.AT_LEAST, Status.UNKNOWN),
    "analyze": (Status.COMPLETE, Status.PARTIAL),
}
"""The statuses each task may report."""

ANSWERS: dict[str, tuple[type, ...]] = {
    "solve": (Plan, Assignment),
    "count": (Count,),
    "analyze": (Analysis,),
}
"""The answer types each task may carry."""

WITH_ANSWER = {Status.OPTIMAL, Status.SOLVED, Status.EXACT, Status.AT_LEAST, Status.COMPLETE}
"""Statuses that promise an answer (``PARTIAL`` may carry the layers known so far)."""


HINT_VERDICTS = ("none", "offered", "used", "rejected")
"""What became of a hint (:attr:`Hint.verdict`)."""


@dataclass(frozen=True)
class Hint:
    """A plan offered to an engine as an upper bound before it searched
    (:mod:`cpsolve.engines.hints`).

    * ``source`` — who found it: ``"search wastar"`` (weighted A*, looked for by
      the engine itself), or ``"given"`` (``Options.hint``, from the caller);
    * ``steps`` — its length (``None``: none was found in the time allowed);
    * ``seconds`` — time spent looking for it (0 for a given one);
    * ``verdict`` — what the engine made of it (:data:`HINT_VERDICTS`): ``"none"`` (none
      was found, so none was offered), ``"offered"`` (handed to the engine, which never
      replayed it: it answered first), ``"used"`` (replayed and taken as a bound) or
      ``"rejected"`` (the replay refused it);
    * ``note`` — why it was not used: why none was found, or why the replay refused it.
    """

    source: str
    steps: int | None
    seconds: float
    verdict: str = "offered"
    note: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in HINT_VERDICTS:
            raise ValueError(f"unknown hint verdict {self.verdict!r}")
        if (self.steps is None) != (self.verdict == "none"):
            raise ValueError("a hint has steps exactly when one was found (verdict "
                             f"{self.verdict!r}, steps {self.steps})")

    @classmethod
    def missing(cls, source: str, seconds: float, why: str) -> Hint:
        """No hint: none was found by ``source`` within ``seconds`` (``why`` says more)."""
        return cls(source, None, seconds, "none", why)

    @property
    def used(self) -> bool:
        """The engine replayed it and took it as a bound."""
        return self.verdict == "used"

    def accepted(self) -> Hint:
        """This hint once the engine's replay accepted it."""
        return replace(self, verdict="used", note="")

    def rejected(self, why: str) -> Hint:
        """This hint once the engine's replay refused it, ``why`` being the replay's reason."""
        return replace(self, verdict="rejected", note=f"refused by the replay: {why}")


def cut_off_words(what: str, reached: str, grace: float | None = None) -> str:
    """Why ``what`` (an engine, the generation) has nothing: the command's clock cut it off
    ``grace`` seconds past its limit (the time it had to stop by itself and return what it
    had; 0 or None: none, or not known), ``reached`` naming that limit as the user gave it
    (:func:`cpsolve.engines.runtime.clock.reached`: ``time limit 5 s reached``)."""
    if not grace:
        return f"{reached} ({what} did not stop at the limit; cut off)"
    said = f"{grace:.2g}" if grace < 100 else f"{grace:.0f}"
    return f"{reached} ({what} did not stop within {said} s of the limit; cut off)"


def lost_words(what: str) -> str:
    """Why ``what`` has nothing: Ctrl-C stopped it at once (``KeyboardInterrupt``)."""
    return f"interrupted ({what} stopped at once: what it had is lost)"


CIRCUIT_GRAPH = "circuit graph"
"""The proof that no circuit exists from its graph alone (the arcs its successor variables
allow), before any search: a node no arc leaves or enters, nodes that cannot reach each
other, two sides of unequal size that every arc crosses, or such a cut of the nodes but one
(:func:`cpsolve.engines.search.csp.circuit.obstacle`)."""


@dataclass(frozen=True)
class Result:
    """An engine's answer to one task.

    * ``answer`` — one :data:`~cpsolve.answers.kinds.Answer` or ``None``;
    * ``bound`` — what was proven when a limit was hit: solve, a lower bound
      on the optimum (steps, or cost); count, the solutions found so far;
      analyze, the last distance whose layer is complete;
    * ``explored`` — states or search nodes examined;
    * ``proof`` — how an infeasibility was proven (``"parity"``,
      ``"invariant"``, :data:`CIRCUIT_GRAPH`, ``"exhausted search"``, ``"cp-sat"``): a
      solve that is ``INFEASIBLE``, or an exact count of 0 (optimal plans, or circuits);
    * ``invariant`` — with proof ``"invariant"`` from an engine: the invariant
      itself, re-verified by the checker;
    * ``parity`` — with proof ``"parity"`` (a family's own argument,
      :func:`cpsolve.engines.argued`): the permutation-parity invariant, re-verified
      by the checker;
    * ``verified`` — set by :func:`cpsolve.answers.check.verify`, never by an engine:
      the checker re-checked the whole answer (``None``: no answer to check);
    * ``cross_checked_by`` — other engines that agreed (set by compare, and by auto's
      confirmation);
    * ``hint`` — planning: the plan offered as an upper bound before the search
      (:class:`Hint`; ``None``: none was looked for).
    """

    status: Status
    engine: str
    task: str = "solve"
    answer: Answer | None = None
    seconds: float = 0.0
    bound: int | None = None
    explored: int | None = None
    message: str = ""
    verified: bool | None = None
    proof: str | None = None
    cross_checked_by: tuple[str, ...] = ()
    details: Mapping[str, object] = field(default_factory=dict)
    invariant: Invariant | None = None
    hint: Hint | None = None
    parity: Parity | None = None

    def __post_init__(self) -> None:
        allowed = STATUSES.get(self.task)
        if allowed is None:
            raise ValueError(f"unknown task {self.task!r}")
        if self.status not in allowed:
            raise ValueError(f"{self.task} cannot be {self.status.value!r} "
                             f"(allowed: {', '.join(s.value for s in allowed)})")
        if self.answer is not None and not isinstance(self.answer, ANSWERS[self.task]):
            raise ValueError(f"{self.task} cannot answer with a {type(self.answer).__name__}")
        if self.answer is None and self.status in WITH_ANSWER:
            raise ValueError(f"{self.status.value!r} needs an answer")
        if self.answer is not None and self.status in (Status.INFEASIBLE, Status.UNKNOWN):
            raise ValueError(f"{self.status.value!r} carries no answer")
        if self.proof is not None and not self.none_exists:
            raise ValueError("only an infeasible result (or a count of none) has a proof")
        if self.invariant is not None and self.proof != "invariant":
            raise ValueError("an invariant comes with the proof 'invariant'")
        if self.parity is not None and self.proof != "parity":
            raise ValueError("a permutation parity comes with the proof 'parity'")

    @classmethod
    def counted(cls, engine: str, answer: Count, complete: bool, **fields: object) -> Result:
        """A count: ``EXACT`` when ``complete``; else ``AT_LEAST`` the count found before
        the limit, 0 included (a limit that came before the first solution proves "at
        least 0": the count is still the number found, never a missing one)."""
        if complete:
            return cls(Status.EXACT, engine, "count", answer, **fields)  # type: ignore[arg-type]
        fields.setdefault("bound", answer.count)
        return cls(Status.AT_LEAST, engine, "count", answer, **fields)  # type: ignore[arg-type]

    @classmethod
    def stopped(cls, task: str, engine: str, why: str, seconds: float = 0.0) -> Result:
        """An engine stopped before it could say what it had: nothing proven (``UNKNOWN``;
        ``PARTIAL`` for an analysis), ``why`` its message."""
        status = Status.PARTIAL if task == "analyze" else Status.UNKNOWN
        return cls(status, engine, task, seconds=seconds, message=why)

    @classmethod
    def cut_off(cls, task: str, engine: str, reached: str, seconds: float = 0.0,
                grace: float | None = None) -> Result:
        """An engine cut off by the command's clock, ``grace`` seconds past its limit (the
        time it had to stop by itself), ``reached`` that limit in words (:func:`cut_off_words`)."""
        return cls.stopped(task, engine, cut_off_words(engine, reached, grace), seconds)

    @classmethod
    def lost(cls, task: str, engine: str, seconds: float = 0.0) -> Result:
        """An engine stopped at once by Ctrl-C (``KeyboardInterrupt``): what it had is lost."""
        return cls.stopped(task, engine, lost_words(engine), seconds)

    @property
    def none_exists(self) -> bool:
        """True when the result proves that there is no answer: an infeasible solve, or an
        exact count of 0."""
        return self.status is Status.INFEASIBLE or (
            self.status is Status.EXACT and isinstance(self.answer, Count)
            and self.answer.count == 0)

    @property
    def found(self) -> bool:
        """True when a solve found an answer (a plan or an assignment)."""
        return self.status in (Status.OPTIMAL, Status.SOLVED)

    @property
    def exact(self) -> bool:
        """True when the figure is proven: an optimum, an exact count, a full analysis."""
        return self.status in (Status.OPTIMAL, Status.EXACT, Status.COMPLETE)

    def but(self, **changes: object) -> Result:
        """A copy with some fields changed (checked again)."""
        return replace(self, **changes)

    # Reading shortcuts for scripts and tests: one field of the answer, or None
    # when the answer is of another type.  Library code dispatches on the answer.

    def _field(self, kind: type, name: str) -> object:
        return getattr(self.answer, name) if isinstance(self.answer, kind) else None

    @property
    def plan(self) -> tuple[Step, ...] | None:
        """The plan's steps (solve, planning)."""
        return self._field(Plan, "steps")  # type: ignore[return-value]

    @property
    def steps(self) -> int | None:
        """The number of steps (actions) of the plan."""
        return None if self.plan is None else len(self.plan)

    @property
    def cost(self) -> int | None:
        """The plan's cost, or the least cost of the counted optimal plans."""
        return self._field(Plan, "cost") if isinstance(self.answer, Plan) \
            else self._field(Count, "cost")  # type: ignore[return-value]

    @property
    def solution(self) -> Mapping[str, int] | None:
        """The assignment's values (solve, csp)."""
        return self._field(Assignment, "values")  # type: ignore[return-value]

    @property
    def unique(self) -> bool | None:
        """Whether the assignment is proven unique (None: not asked or not known)."""
        return self._field(Assignment, "unique")  # type: ignore[return-value]

    @property
    def second(self) -> Mapping[str, int] | None:
        """A second assignment, when the first is not unique."""
        return self._field(Assignment, "second")  # type: ignore[return-value]

    @property
    def count(self) -> int | None:
        """The count (count)."""
        return self._field(Count, "count")  # type: ignore[return-value]

    @property
    def solutions(self) -> tuple[Mapping[str, int], ...] | None:
        """The listed solutions (count, csp)."""
        return self._field(Count, "solutions")  # type: ignore[return-value]

    @property
    def plans(self) -> tuple[tuple[Step, ...], ...] | None:
        """The listed optimal plans (count, planning)."""
        return self._field(Count, "plans")  # type: ignore[return-value]

    @property
    def states(self) -> int | None:
        """States explored by an analysis."""
        return self._field(Analysis, "states")  # type: ignore[return-value]

    @property
    def layers(self) -> tuple[int, ...] | None:
        """States per distance (analyze)."""
        return self._field(Analysis, "layers")  # type: ignore[return-value]

    @property
    def max_distance(self) -> int | None:
        """The largest distance (analyze, complete)."""
        return self._field(Analysis, "max_distance")  # type: ignore[return-value]

    @property
    def farthest(self) -> tuple[tuple[int, ...], ...] | None:
        """The states at the largest distance (analyze)."""
        return self._field(Analysis, "farthest")  # type: ignore[return-value]


class Unsupported(Exception):
    """An engine was asked for something its capabilities do not include."""


class EngineFailed(RuntimeError):
    """An external engine's tool failed (MiniZinc stopped with an error of its own): one
    line saying so (exit 3), not an internal error of cpsolve's."""


class Unanswerable(Unsupported):
    """An engine proved that the question has no answer of the kind asked (there are
    infinitely many optimal plans to count): a verdict on the model, not a gap in the
    engine, so the default engine reports it as the answer (exit 2, one line), whatever
    the other engine says of its own capabilities."""


@dataclass(frozen=True)
class Skipped:
    """An engine that did not run on a model, and why: its capabilities do not cover the
    task, or it refused the model (:class:`Unsupported`)."""

    engine: str
    why: str

    def __str__(self) -> str:
        return f"{self.engine}: {self.why}"
