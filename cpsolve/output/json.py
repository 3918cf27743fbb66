"""``--json`` output: one object per result, the same keys for the same things everywhere.

Every result object has the keys of :data:`COMMON` (``null`` when they do not
apply) and then those of its answer type (:data:`ANSWER_JSON`); a command that ends
without an answer prints an error object (:func:`error_json`) instead.  The schema
that describes all of it is :mod:`cpsolve.output.schema`; docs/json.md explains each key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..answers.kinds import Analysis, Assignment, Count, Plan
from ..answers.result import Hint, Result
from ..model.invariants import Invariant, Parity
from ..puzzles.base import Puzzle

if TYPE_CHECKING:
    from ..engines.auto import Race

COMMON = ("model", "family", "task", "status", "engine", "seconds", "verified", "proof",
          "invariant", "parity", "cross_checked_by", "bound", "explored", "message", "hint",
          "details")
"""Keys every result object has."""

JSON_SAFE = 2 ** 53
"""Integers at least this large are internal caps, not figures; ``details`` drops them."""


def result_json(puzzle: Puzzle, result: Result) -> dict[str, Any]:
    """One result as a JSON-ready object."""
    out: dict[str, Any] = {
        "model": puzzle.name,
        "family": puzzle.family,
        "task": result.task,
        "status": result.status.value,
        "engine": result.engine,
        "seconds": round(result.seconds, 6),
        "verified": result.verified,
        "proof": result.proof,
        "invariant": None if result.invariant is None else invariant_json(result.invariant),
        "parity": None if result.parity is None else parity_json(result.parity),
        "cross_checked_by": list(result.cross_checked_by),
        "bound": result.bound,
        "explored": result.explored,
        "message": puzzle.message_text(result),
        "hint": None if result.hint is None else hint_json(result.hint),
        "details": details_json(result.details),
    }
    if "encoding" in result.details:  # CP-SAT on a plan (schema: optional)
        out["encoding"] = result.details["encoding"]
    if result.answer is not None:
        out["answer"] = result.answer.kind
        out.update(ANSWER_JSON[type(result.answer)](puzzle, result.answer))
    else:
        out["answer"] = None
    return out


def invariant_json(invariant: Invariant) -> dict[str, Any]:
    """An invariant: its weights by variable, its modulus (0: exactly) and its two values."""
    return {"weights": dict(invariant.weights), "modulus": invariant.modulus,
            "start": invariant.start, "goal": invariant.goal}


def parity_json(parity: Parity) -> dict[str, Any]:
    """A permutation parity: the cells in order, each one's colour, the blank's value, and
    the parity's value at the start and in every goal state."""
    return {"cells": list(parity.cells), "colours": list(parity.colours), "blank": parity.blank,
            "start": parity.start, "goal": parity.goal}


def hint_json(hint: Hint) -> dict[str, Any]:
    """The plan offered as an upper bound before the search: where from, its length, the
    seconds spent finding it, what the engine made of it (``used``, ``verdict``), and why
    it was not used."""
    return {"from": hint.source, "steps": hint.steps, "seconds": round(hint.seconds, 6),
            "used": hint.used, "verdict": hint.verdict, "note": hint.note}


def details_json(details: Mapping[str, object]) -> dict[str, Any]:
    """Engine details with plain values only: keys without spaces, no internal caps."""
    out: dict[str, Any] = {}
    for key, value in details.items():
        if isinstance(value, tuple):
            value = list(value)
        if isinstance(value, bool) or isinstance(value, (float, str)) or value is None:
            pass
        elif isinstance(value, int):
            value = value if abs(value) < JSON_SAFE else None
        elif not (isinstance(value, list)
                  and all(isinstance(v, (int, float, str)) for v in value)):
            continue
        out[str(key).replace(" ", "_")] = value
    return out


def plan_json(puzzle: Puzzle, steps: tuple) -> dict[str, Any]:
    """A plan's size in every unit, and the family's own figures about it."""
    return {"metric": puzzle.metric, "steps": len(steps), "moves": puzzle.count_moves(steps),
            "cost": sum(s.cost for s in steps), **puzzle.json_plan(steps)}


def _plan(puzzle: Puzzle, plan: Plan) -> dict[str, Any]:
    out = plan_json(puzzle, plan.steps)
    out["plan"] = [{"step": i, "action": puzzle.step_text(s), "cost": s.cost,
                    "state": puzzle.json_state(s.state)}
                   for i, s in enumerate(plan.steps, start=1)]
    return out


def _assignment(puzzle: Puzzle, answer: Assignment) -> dict[str, Any]:
    return {"solution": puzzle.json_solution(answer.values), "unique": answer.unique,
            "second": None if answer.second is None else puzzle.json_solution(answer.second),
            "objective": answer.objective}


def _count(puzzle: Puzzle, answer: Count) -> dict[str, Any]:
    out: dict[str, Any] = {"count": answer.count, "listed": answer.listed()}
    if answer.solutions is not None:
        out["solutions"] = [puzzle.json_solution(s) for s in answer.solutions]
    if answer.cost is not None or answer.plans is not None:
        out["metric"] = puzzle.metric
        out["cost"] = answer.cost
        out["plans"] = [{"actions": [puzzle.step_text(s) for s in plan],
                         **plan_json(puzzle, plan)} for plan in answer.plans or ()]
    return out


def _analysis(puzzle: Puzzle, answer: Analysis) -> dict[str, Any]:
    return {"direction": answer.direction, "states": answer.states,
            "distance_unit": puzzle.distance_unit,
            "layers": list(answer.layers), "max_distance": answer.max_distance,
            "farthest": [puzzle.json_state(s) for s in answer.farthest]}


ANSWER_JSON: dict[type, Callable[[Puzzle, Any], dict[str, Any]]] = {
    Plan: _plan,
    Assignment: _assignment,
    Count: _count,
    Analysis: _analysis,
}
"""The keys each answer type adds."""


def race_json(race: Race, puzzle: Puzzle | None = None) -> dict:
    """What every engine of an ``auto`` run did, for ``--json`` (key ``race``); each note
    in ``puzzle``'s words when it is given (:meth:`~cpsolve.puzzles.base.Puzzle.message_text`)."""
    said = (lambda r: r.message) if puzzle is None else puzzle.message_text
    return {"answered_by": race.result.engine, "disagreements": list(race.problems),
            "engines": [{"engine": c.engine, "role": role(race, c.engine),
                         "status": c.result.status.value if c.result else None,
                         "seconds": round(c.result.seconds, 6) if c.result else None,
                         "bound": c.result.bound if c.result else None,
                         "note": c.note or (said(c.result) if c.result else "")}
                        for c in race.checks],
            "confirmation": confirmation_json(race)}


def confirmation_json(race: Race) -> dict | None:
    """The cross-check of a proven answer: by which engine, within what window, confirmed
    or not (``None``: no proof, or no second engine raced)."""
    c = race.confirmation
    if c is None:
        return None
    return {"by": c.by, "window": c.window, "confirmed": c.confirmed, "stopped": c.stopped,
            "head_start": c.head_start, "same_proof": c.same_proof}


def role(race: Race, engine: str) -> str:
    if engine == race.result.engine:
        return "answered"
    return "confirmed" if engine in race.confirmed_by else "cross_check"


def error_json(command: str | None, message: str, code: int) -> dict[str, Any]:
    """A command that ended without its answer (a bad command line or model file, a time
    limit reached while loading, an interruption before any engine ran, an engine bug, an
    internal error): the command, ``status: "error"``, the message also written on
    stderr and the exit code."""
    return {"command": command, "status": "error", "error": message, "exit": code}


def result_line(row) -> dict[str, Any]:
    """One batch row as a JSON object: the result's own object plus ``source``; without a
    result, the row's ``error``, or (not started: a limit, no error) its status and why;
    with ``disagreements`` when its engines (``auto``) disagree, as ``solve``'s ``race``
    has them.  (Here, not beside the text table: a ``--json`` batch never loads rich.)"""
    if row.result is None and row.started:
        return {"source": row.source, "error": row.error}
    if row.result is None:
        return {"source": row.source, "status": row.status, "message": row.error}
    line = {"source": row.source, **result_json(row.puzzle, row.result)}
    if row.disagreements:
        line["disagreements"] = list(row.disagreements)
    return line
