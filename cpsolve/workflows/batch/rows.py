"""A batch's rows: one :class:`Row` per instance (its result, or why there is none), the
statuses a row can have, and the summary of a finished batch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...answers.result import STATUSES, Result
from ...puzzles.base import Puzzle
from .items import Item


@dataclass(frozen=True)
class Row:
    """One solved instance: its source, puzzle and result, or why there is none (``error``:
    an error, or what came before it started)."""

    source: str
    puzzle: Puzzle | None
    result: Result | None
    error: str = ""
    at_limit: bool = False
    """The instance's file was still loading at the command's time limit (or not loaded
    after that), or passed the memory limit as it loaded: a limit, not a bad file."""
    started: bool = True
    """False: the command's time limit or a stop (Ctrl-C) came before the instance was
    solved — its file still loading or not loaded, or no engine started on it."""
    bug: bool = False
    """The ``error`` is an engine's answer that failed the independent check: a bug in
    cpsolve (exit 3), not the user's input (with ``auto``, the other engine's answer may
    still be the row's ``result``)."""
    refused: bool = False
    """The ``error`` is the engines' refusal of the instance's model as not well formed
    (an estimate above the cost still to pay: :func:`.items.refusal`): bad input (exit 2),
    as a file that did not load."""
    disagreements: tuple[str, ...] = ()
    """With ``auto``, where its two engines' answers cannot both be right, one line each
    (the race's :attr:`~cpsolve.engines.auto.Race.problems`, as ``solve`` says them): the
    row's result is the race's verdict all the same, and the batch exits 1."""

    @property
    def status(self) -> str:
        """The row's status: its result's (``optimal``, ``unknown``, ...), or without one
        :data:`NOT_STARTED` (a limit or a stop came first: not an error) or ``error`` (a bad
        file, a model the engines refused, a model no engine takes, a worker that failed, an
        engine bug)."""
        if self.result is not None:
            return self.result.status.value
        return NOT_STARTED if not self.started else "error"


NOT_STARTED = "not_started"
"""The status of a batch row that the time limit or a stop came before."""

ROW_STATUSES = (*(s.value for s in STATUSES["solve"]), NOT_STARTED, "error")
"""Every status a batch row can have (:attr:`Row.status`)."""


def unloaded(item: Item) -> Row | None:
    """The row of an item whose file did not load (its error, and whether that is the time
    limit), or ``None`` for an item that did."""
    if item.puzzle is not None:
        return None
    return Row(item.source, None, None, item.error, item.at_limit, started=not item.at_limit)


def summary(rows: list[Row], seconds: float, engine: str) -> dict[str, Any]:
    """Counts per status, errors, and throughput of a finished batch."""
    statuses: dict[str, int] = {}
    for row in rows:
        statuses[row.status] = statuses.get(row.status, 0) + 1
    return {"instances": len(rows), "engine": engine, "seconds": round(seconds, 6),
            "per_second": round(len(rows) / seconds, 3) if seconds > 0 else None,
            "statuses": statuses,
            "verified": sum(1 for r in rows if r.result is not None and r.result.verified)}
