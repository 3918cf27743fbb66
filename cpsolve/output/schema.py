"""The JSON Schema (draft 2020-12) of every command's ``--json`` output (``cpsolve schema``).

One object per ``solve`` / ``count`` / ``analyze`` result (:data:`RESULT`), a
report for ``compare`` and one for ``generate``, and an error object for a command that
ends without its answer.  docs/json.md explains each
key; tests/output/test_json_schema.py validates every command on every bundled model.
"""

from __future__ import annotations

from typing import Any

from ..answers.result import HINT_VERDICTS, STATUSES
from ..workflows.batch.rows import NOT_STARTED, ROW_STATUSES

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
EXPECTED_MISMATCH = {"type": "array", "items": {"type": "string"},
                     "description": "What the proven answer contradicts in the model "
                     "file's [expected] table, one line each (also on stderr); absent when "
                     "nothing does."}


def _batch() -> dict[str, Any]:
    """The last line of a batch (solve with several instances, --json)."""
    return {"type": "object", "required": ["batch"], "additionalProperties": False,
            "properties": {"batch": {
                "type": "object", "additionalProperties": False,
                "required": ["instances", "engine", "seconds", "per_second", "statuses",
                             "verified"],
                "properties": {"instances": INT, "engine": {"type": "string"},
                               "seconds": {"type": "number", "minimum": 0},
                               "per_second": {"type": ["number", "null"]},
                               "statuses": {
                                   "type": "object", "additionalProperties": INT,
                                   "propertyNames": {"enum": list(ROW_STATUSES)},
                                   "description": "Instances per status: a result's, "
                                   f"{NOT_STARTED} (the time limit or a stop came before "
                                   "it: a limit, not an error) or error (a bad file or "
                                   "line, a model no engine takes, a worker that failed)."},
                               "verified": INT}}}}


def _batch_error() -> dict[str, Any]:
    """A batch line for an instance that could not be solved (a bad file, a refused model)."""
    return {"type": "object", "required": ["source", "error"], "additionalProperties": False,
            "properties": {"source": SOURCE, "error": {"type": "string"}}}


def _batch_not_started() -> dict[str, Any]:
    """A batch line for an instance the time limit or a stop came before (not an error)."""
    return {"type": "object", "required": ["source", "status", "message"],
            "additionalProperties": False,
            "properties": {"source": SOURCE, "status": {"const": NOT_STARTED},
                           "message": {"type": "string", "description": "Why: the time "
                                       "limit, Ctrl-C, a file still loading at the limit."}}}


def _models() -> dict[str, Any]:
    """``cpsolve models``: the bundled model files (a broken one with its error)."""
    listed = {"type": "object", "required": ["file"], "additionalProperties": False,
              "properties": {"file": {"type": "string"}, "name": {"type": "string"},
                             "family": {"type": "string"}, "kind": {"enum": ["csp", "planning"]},
                             "description": {"type": "string"}, "error": {"type": "string"}}}
    return {"type": "object", "required": ["command", "models"], "additionalProperties": False,
            "properties": {"command": {"const": "models"},
                           "models": {"type": "array", "items": listed}}}


EXIT_CODES = [1, 2, 3, 130]
"""The exit codes of a command that ends without its answer (see :mod:`cpsolve.cli`)."""


def _error() -> dict[str, Any]:
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
                         "interrupted."}}}


def _result() -> dict[str, Any]:
    """One result of solve, count or analyze (``race`` only with ``--engine auto``)."""
    properties: dict[str, Any] = {**COMMON, "race": RACE, "source": SOURCE,
                                  "expected_mismatch": EXPECTED_MISMATCH, "encoding": ENCODING}
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


def _compare_model() -> dict[str, Any]:
    """One model of a compare report; on a cluster, also one JSON line of its own."""
    return {"type": "object", "required": ["model", "file", "agree", "results", "disagreements"],
            "additionalProperties": False,
            "properties": {"model": {"type": "string"}, "file": {"type": "string"},
                           "agree": {"type": ["boolean", "null"],
                                     "description": "false: engines disagree; true: two "
                                                    "engines or more answered and agree; "
                                                    "null: fewer than two answered (not "
                                                    "cross-checked; a puzzle's own "
                                                    "argument is one answer)."},
                           "results": {"type": "array", "items": {"$ref": "#/$defs/result"}},
                           "disagreements": {"type": "array", "items": {"type": "string"}},
                           "skipped": {
                               "type": "array",
                               "description": "Engines that did not run: not applicable to "
                                              "the model or the task, their tool refused "
                                              "it, or a stop came first.",
                               "items": {"type": "object", "required": ["engine", "reason"],
                                         "additionalProperties": False,
                                         "properties": {"engine": {"type": "string"},
                                                        "reason": {"type": "string"}}}}}}


def _compare() -> dict[str, Any]:
    return {"type": "object", "required": ["status", "models"], "additionalProperties": False,
            "properties": {"status": {"enum": ["agree", "disagree", "interrupted",
                                                "unanswered", "incomplete"]},
                           "models": {"type": "array",
                                      "items": {"anyOf": [
                                          {"$ref": "#/$defs/compare_model"},
                                          {"$ref": "#/$defs/batch_error"}]}}}}


def _compare_summary() -> dict[str, Any]:
    """The last line of compare on a cluster (--workers, --scheduler)."""
    return {"type": "object", "required": ["compare"], "additionalProperties": False,
            "properties": {"compare": {
                "type": "object", "additionalProperties": False,
                "required": ["instances", "seconds", "agree", "unchecked", "disagree",
                             "error"],
                "properties": {"instances": INT, "seconds": {"type": "number", "minimum": 0},
                               "agree": INT, "unchecked": INT, "disagree": INT,
                               "error": INT}}}}


def _generate() -> dict[str, Any]:
    board = {"type": "object", "required": ["givens", "solution", "minimal", "checked"],
             "additionalProperties": False,
             "properties": {"givens": ANY, "solution": ANY,
                            "minimal": {"type": ["boolean", "null"]},
                            "checked": {"type": ["string", "null"]}}}
    item = {"type": "object", "propertyNames": NAME, "additionalProperties": False,
            "required": ["givens", "method", "seconds", "message", "drawn", "cross_checked_by",
                         "details"],
            "properties": {"givens": INT, "method": {"type": "string"},
                           "seconds": {"type": "number", "minimum": 0},
                           "message": {"type": "string"}, "drawn": INT,
                           "short": {"type": ["string", "null"], "description": "Why this "
                                     "number of givens gave less than was asked: stopped "
                                     "(Ctrl-C, a limit), random attempts used up, fewer "
                                     "classes than asked; null when it gave all."},
                           "classes": INT, "minimal": INT, "renamed": MAYBE_INT,
                           "labelled": INT,
                           "cross_checked_by": {"type": "array", "items": {"type": "string"},
                                                "maxItems": 1, "description": "The engine "
                                                "that re-solved every puzzle and found it "
                                                "unique; [] without a check, with no puzzle "
                                                "to re-solve, or when not every one was."},
                           "details": DETAILS, "puzzles": {"type": "array", "items": board}}}
    return {"type": "object", "additionalProperties": False,
            "required": ["model", "family", "task", "engine", "symmetry", "givens"],
            "properties": {"model": {"type": "string"}, "family": {"type": "string"},
                           "task": {"const": "generate"}, "engine": {"type": "string"},
                           "symmetry": {"type": "object", "required": ["board", "relabel"],
                                        "properties": {"board": {"type": "array"},
                                                       "relabel": {"type": "boolean"}}},
                           "givens": {"type": "array", "items": item}}}


def _found() -> dict[str, Any]:
    """A line of ``count --list``: one solution as the engine found it (and the checker
    passed it), before the count's result."""
    return {"type": "object", "required": ["found", "solution"], "additionalProperties": False,
            "properties": {"found": {"type": "integer", "minimum": 1,
                                     "description": "Its number: the 1st, 2nd... found."},
                           "solution": {**ANY, "description": "As `solution` of a solve."}}}


def _validate() -> dict[str, Any]:
    """``validate``: the verdict on a plan or a solution."""
    return {"type": "object", "additionalProperties": False,
            "required": ["command", "model", "answer", "format", "valid", "message"],
            "properties": {"command": {"const": "validate"}, "model": {"type": "string"},
                           "answer": {"enum": ["plan", "solution"]},
                           "format": {"type": "string", "description": "How the answer was "
                                      "read (IPC plan, action names, cpsolve JSON...)."},
                           "valid": {"type": "boolean"},
                           "message": {"type": "string", "description": "Invalid: the first "
                                       "illegal step or broken constraint."},
                           "steps": INT, "cost": MAYBE_INT,
                           "objective": {"type": ["integer", "null"], "description": "A "
                                         "solution of a model with an objective: its value "
                                         "(null: invalid). Valid is not optimal."},
                           "step": {"type": ["integer", "null"], "description": "Invalid "
                                    "plan: its first illegal step (1-based; 0 the start)."}}}


def schema() -> dict[str, Any]:
    """The whole schema: a result, a compare report, a generate report, the lines of a
    batch or of a cluster's compare, the list of models, or an error object."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://cpsolve.invalid/schema/output.json",
        "title": "cpsolve --json output",
        "description": "solve, count and analyze print one result; compare prints a report "
                       "of results per model; generate prints puzzles per number of givens; "
                       "a batch (solve with several instances) prints one JSON line per "
                       "instance (a result with its source, an error, or not started) "
                       "and a last "
                       "line with the batch's figures; compare on a cluster prints one "
                       "line per model as it finishes (or an error line) and a last "
                       "line with the counts; count --list (one engine) prints one line per "
                       "solution as it is found, then its result; models lists the bundled "
                       "model files.  A "
                       "command that ends without its answer prints an error object "
                       "instead (in a batch, as its last line).",
        "oneOf": [{"$ref": "#/$defs/result"}, {"$ref": "#/$defs/compare"},
                  {"$ref": "#/$defs/generate"}, {"$ref": "#/$defs/batch"},
                  {"$ref": "#/$defs/batch_error"}, {"$ref": "#/$defs/batch_not_started"},
                  {"$ref": "#/$defs/compare_model"},
                  {"$ref": "#/$defs/compare_summary"}, {"$ref": "#/$defs/error"},
                  {"$ref": "#/$defs/models"}, {"$ref": "#/$defs/validate"},
                  {"$ref": "#/$defs/found"}],
        "$defs": {"result": _result(), "compare": _compare(), "generate": _generate(),
                  "batch": _batch(), "batch_error": _batch_error(),
                  "batch_not_started": _batch_not_started(),
                  "compare_model": _compare_model(), "compare_summary": _compare_summary(),
                  "error": _error(), "models": _models(), "validate": _validate(),
                  "found": _found()},
    }
