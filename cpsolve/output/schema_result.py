"""The JSON Schema's vocabulary and its largest object: the result of ``solve`` / ``count`` /
``analyze`` (:func:`result`), with the keys each answer kind has, ``race`` under ``auto``,
and the error object of a command that ends without its answer (:func:`error`).  The
reports built from results (compare, generate, validate, batch lines) and the whole schema
are :mod:`.schema`.
"""

from __future__ import annotations

from typing import Any

from ..answers.result import HINT_VERDICTS, STATUSES

NAME = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
"""A key: lower case, digits and underscores (no spaces)."""

INT = {"type": "integer", "minimum": 0}
MAYBE_INT = {"type": ["integer", "null"], "minimum": 0}
ANY = {}  # a family's own drawing of a state or an assignment
SCALAR = {"type": ["integer", "number", "string", "boolean", "null"]}

DETAILS = {
    "type": "object",
    "description": "Engine-specific figures (plain values; internal caps are dropped).",
    "propertyNames": NAME,
    "additionalProperties": {"anyOf": [SCALAR, {"type": "array", "items": SCALAR}]},
}

PLAN_SIZE = {
    "metric": {"type": "string", "description": "What one move is, in one sentence."},
    "steps": {**INT, "description": "Actions in the plan."},
    "moves": {**INT, "description": "The plan's length in the family's metric."},
    "cost": {**MAYBE_INT, "description": "The sum of the actions' costs."},
    "chains": {"type": "array", "items": {"type": "array", "items": {"type": "string"}},
               "description": "Peg solitaire: the jumps grouped into chains by one peg."},
    "runs": {"type": "array", "items": INT,
             "description": "Sliding with metric path: the steps of each move (one piece's "
                            "route), in order."},
    "lurd": {"type": "string",
             "description": "Sokoban: the plan in the usual notation (l u r d a walk, "
                            "L U R D a push)."},
    "pushes": {**INT, "description": "Sokoban: the steps that push a box."},
}

STEP = {
    "type": "object",
    "required": ["step", "action", "cost", "state"],
    "additionalProperties": False,
    "properties": {"step": INT, "action": {"type": "string"}, "cost": {"type": "integer"},
                   "state": ANY},
}

LISTED_PLAN = {
    "type": "object",
    "required": ["actions", "steps", "moves", "cost", "metric"],
    "additionalProperties": False,
    "properties": {"actions": {"type": "array", "items": {"type": "string"}}, **PLAN_SIZE},
}

COMMON = {
    "model": {"type": "string"},
    "family": {"type": "string"},
    "task": {"enum": list(STATUSES)},
    "status": {"enum": sorted({s.value for ss in STATUSES.values() for s in ss})},
    "engine": {"type": "string"},
    "seconds": {"type": "number", "minimum": 0},
    "verified": {"type": ["boolean", "null"],
                 "description": "The checker re-checked the whole answer (null: no answer)."},
    "proof": {"type": ["string", "null"], "description": "How an infeasibility was proven."},
    "invariant": {
        "type": ["object", "null"],
        "description": "With proof 'invariant' from an engine: a weighted sum of state "
                       "variables no action changes (mod modulus; 0: exactly), re-verified by "
                       "the checker.",
        "required": ["weights", "modulus", "start", "goal"], "additionalProperties": False,
        "properties": {"weights": {"type": "object",
                                   "additionalProperties": {"type": "integer"}},
                       "modulus": INT, "start": {"type": "integer"},
                       "goal": {"type": "integer"}}},
    "parity": {
        "type": ["object", "null"],
        "description": "With proof 'parity' (a puzzle's own argument): the parity of the "
                       "permutation the cells' values form plus the colour of the blank's "
                       "cell, the same in every reachable state, re-verified by the checker.",
        "required": ["cells", "colours", "blank", "start", "goal"],
        "additionalProperties": False,
        "properties": {"cells": {"type": "array", "items": {"type": "string"}},
                       "colours": {"type": "array", "items": {"enum": [0, 1]}},
                       "blank": {"type": "integer"},
                       "start": {"enum": [0, 1]}, "goal": {"enum": [0, 1]}}},
    "cross_checked_by": {"type": "array", "items": {"type": "string"},
                         "description": "Other engines that reached the same proven answer."},
    "bound": {"type": ["integer", "null"]},
    "explored": MAYBE_INT,
    "message": {"type": "string"},
    "hint": {
        "type": ["object", "null"],
        "description": "Planning: the plan offered as an upper bound before the search "
                       "(null: none was looked for).",
        "required": ["from", "steps", "seconds", "used", "verdict", "note"],
        "additionalProperties": False,
        "properties": {"from": {"type": "string",
                                "description": "'search wastar' (weighted A*) or 'given'."},
                       "steps": {**MAYBE_INT, "description": "Its length (null: none found)."},
                       "seconds": {"type": "number", "minimum": 0},
                       "used": {"type": "boolean",
                                "description": "Replayed and taken as an upper bound."},
                       "verdict": {"enum": list(HINT_VERDICTS),
                                   "description": "'none' (none found), 'offered' (the engine "
                                                  "answered without replaying it), 'used' or "
                                                  "'rejected' (the replay refused it)."},
                       "note": {"type": "string", "description": "Why it was not used."}}},
    "details": DETAILS,
    "answer": {"enum": ["plan", "assignment", "count", "analysis", None]},
}

ENCODING = {"enum": ["time-indexed", "transition graph"],
            "description": "CP-SAT on a plan: the model that ran (time-indexed steps, or one "
                           "automaton constraint over the transition graph of a small state "
                           "space); absent for other engines and tasks."}

ANSWER_KEYS: dict[str, dict[str, Any]] = {
    "plan": {**PLAN_SIZE, "plan": {"type": "array", "items": STEP}},
    "assignment": {"solution": ANY, "unique": {"type": ["boolean", "null"]}, "second": ANY,
                   "objective": {"type": ["integer", "null"],
                                 "description": "the value of the model's minimize/maximize "
                                 "expression at the solution (null: no objective); the "
                                 "status is optimal only when that value is proven best; "
                                 "solved: bound holds the optimum's proven bound"}},
    "count": {"count": INT, "listed": INT, "solutions": {"type": "array"},
              "metric": PLAN_SIZE["metric"], "cost": PLAN_SIZE["cost"],
              "plans": {"type": "array", "items": LISTED_PLAN},
              "up_to": {"enum": ["relabel", "symmetry"]}, "total": MAYBE_INT},
    "analysis": {"direction": {"enum": ["start", "goal"]}, "states": INT,
                 "distance_unit": {"type": "string",
                                   "description": "What one distance counts, in the plural: "
                                   "one action of the model each, which is a move "
                                   "(\"moves\") unless the metric groups actions into "
                                   "moves: then the actions' name (\"steps\", \"jumps\")."},
                 "layers": {"type": "array", "items": INT,
                            "description": "States per distance (in distance_unit)."},
                 "max_distance": {**MAYBE_INT, "description": "The largest distance, in "
                                  "distance_unit (null: the analysis is partial)."},
                 "farthest": {"type": "array"}},
}

REQUIRED = {
    "plan": ["metric", "steps", "moves", "cost", "plan"],
    "assignment": ["solution", "unique", "second"],
    "count": ["count", "listed"],
    "analysis": ["direction", "states", "distance_unit", "layers", "max_distance",
                 "farthest"],
}


RACE = {
    "type": "object",
    "description": "--engine auto: what each racing engine did (answered, confirmed, "
                   "or ran its cross-check and stopped).",
    "required": ["answered_by", "engines", "disagreements"],
    "additionalProperties": False,
    "properties": {
        "answered_by": {"type": "string"},
        "disagreements": {"type": "array", "items": {"type": "string"}},
        "engines": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["engine", "role", "status", "seconds", "bound", "note"],
            "properties": {"engine": {"type": "string"},
                           "role": {"enum": ["answered", "confirmed", "cross_check"]},
                           "status": {"type": ["string", "null"]},
                           "seconds": {"type": ["number", "null"]},
                           "bound": {"type": ["integer", "null"]},
                           "note": {"type": "string"}}}},
        "confirmation": {
            "type": ["object", "null"],
            "description": "The cross-check of a proven answer (null: no proof, or no "
                           "second engine): the engine asked, the window it was given after "
                           "the proof (seconds), whether it confirmed, whether it was stopped.",
            "additionalProperties": False,
            "required": ["by", "window", "confirmed", "stopped"],
            "properties": {"by": {"type": "string"},
                           "window": {"type": "number", "minimum": 0},
                           "confirmed": {"type": "boolean"},
                           "stopped": {"type": "boolean"},
                           "head_start": {
                               "type": ["number", "null"],
                               "description": "Seconds of search's head start when the proof "
                                              "came within it: the engine `by` was not "
                                              "started (--confirm races both)."},
                           "same_proof": {
                               "type": "boolean",
                               "description": "`by` reached the same answer by the same code "
                                              "(CP-SAT reporting the search engine's "
                                              "exhaustion): no independent confirmation."}}},
    },
}


SOURCE = {"type": "string", "description": "Batches: the file (and #instance) of this line."}
DISAGREEMENTS = {"type": "array", "items": {"type": "string"}, "minItems": 1,
                 "description": "Batches under auto: where the instance's engines' answers "
                 "cannot both be right, one line each (as race.disagreements of solve; exit "
                 "1); absent when they agree."}
EXPECTED_MISMATCH = {"type": "array", "items": {"type": "string"},
                     "description": "What the proven answer contradicts in the model "
                     "file's [expected] table, one line each (also on stderr); absent when "
                     "nothing does."}


PLAN_FILE = {
    "type": "object",
    "description": "solve --plan-file FILE: whether the plan was written to FILE; when not "
                   "(no plan), why, and whether an existing FILE was kept as it was.",
    "required": ["path", "written", "kept", "note"],
    "additionalProperties": False,
    "properties": {"path": {"type": "string"}, "written": {"type": "boolean"},
                   "kept": {"type": "boolean",
                            "description": "No plan to write: FILE existed and still holds "
                                           "what it held before this run."},
                   "note": {"type": "string",
                            "description": "Why nothing was written (empty when it was)."}},
}


EXIT_CODES = [1, 2, 3, 130, 137]
"""The exit codes of a command that ends without its answer (see :mod:`cpsolve.cli`)."""


def error() -> dict[str, Any]:
    """A command that ended without its answer: bad input, a limit reached before any
    engine ran, an interruption, an engine bug, an internal error."""
    return {"type": "object", "required": ["command", "status", "error", "exit"],
            "additionalProperties": False,
            "properties": {
                "command": {"type": ["string", "null"],
                            "description": "The command (null: none could be read)."},
                "status": {"const": "error"},
                "error": {"type": "string",
                          "description": "The one-line message, as written on stderr."},
                "exit": {"enum": EXIT_CODES, "description": "The command's exit code: 1 a "
                         "limit, 2 bad input, 3 an engine bug or internal error, 130 "
                         "interrupted, 137 killed: a Python model's code held the "
                         "interpreter past a signal or the time limit."}}}


def result() -> dict[str, Any]:
    """One result of solve, count or analyze (``race`` only with ``--engine auto``)."""
    properties: dict[str, Any] = {**COMMON, "race": RACE, "source": SOURCE,
                                  "disagreements": DISAGREEMENTS,
                                  "expected_mismatch": EXPECTED_MISMATCH, "encoding": ENCODING,
                                  "plan_file": PLAN_FILE}
    for keys in ANSWER_KEYS.values():
        properties.update(keys)
    rules: list[dict[str, Any]] = [
        {"if": {"properties": {"task": {"const": task}}},
         "then": {"properties": {"status": {"enum": [s.value for s in statuses]}}}}
        for task, statuses in STATUSES.items()]
    for kind, required in REQUIRED.items():
        others = sorted(set().union(*(k for n, k in ANSWER_KEYS.items() if n != kind))
                        - set(ANSWER_KEYS[kind]))
        rules.append({"if": {"properties": {"answer": {"const": kind}}},
                      "then": {"required": required,
                               "not": {"anyOf": [{"required": [k]} for k in others]}}})
    return {"type": "object", "required": list(COMMON), "propertyNames": NAME,
            "properties": properties, "additionalProperties": False, "allOf": rules}
