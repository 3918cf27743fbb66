"""The JSON Schema (draft 2020-12) of every command's ``--json`` output (``cpsolve schema``).

One object per ``solve`` / ``count`` / ``analyze`` result and the error object of a
command that ends without its answer (both in :mod:`.schema_result`, with the vocabulary
they share), and here the reports built from them: ``compare`` (whole, or a line per model
and a summary on a cluster), ``generate``, ``validate``, a batch's lines, ``count
--list``'s solutions, the list of models; and the whole schema (:func:`schema`).
docs/json.md explains each key; tests/output/test_json_schema.py validates every command
on every bundled model.
"""

from __future__ import annotations

from typing import Any

from ..workflows.batch.rows import NOT_STARTED, ROW_STATUSES
from .schema_result import ANY, DETAILS, INT, MAYBE_INT, NAME, SOURCE, error, result


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


def _batcherror() -> dict[str, Any]:
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
                           "skipped": _engine_notes(
                               "reason", "Engines that did not run: not applicable to the "
                               "model or the task, their tool refused it, or a stop came "
                               "first."),
                           "bugs": _engine_notes(
                               "error", "Engines whose answer failed the independent check: "
                               "a bug in cpsolve (exit 3); the other engines' results "
                               "stand.")}}


def _engine_notes(key: str, description: str) -> dict[str, Any]:
    """A list of ``{"engine", key}`` objects: one line about each engine so named."""
    return {"type": "array", "description": description,
            "items": {"type": "object", "required": ["engine", key],
                      "additionalProperties": False,
                      "properties": {"engine": {"type": "string"}, key: {"type": "string"}}}}


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
                           "step": {"type": ["integer", "null"], "description": "The "
                                    "first illegal step, counted from 1 (0: the initial state "
                                    "is forbidden); null when no step is illegal (valid, or "
                                    "every step legal but the goal missed) or none is "
                                    "named (a goal no plan reaches)."}}}


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
        "$defs": {"result": result(), "compare": _compare(), "generate": _generate(),
                  "batch": _batch(), "batch_error": _batcherror(),
                  "batch_not_started": _batch_not_started(),
                  "compare_model": _compare_model(), "compare_summary": _compare_summary(),
                  "error": error(), "models": _models(), "validate": _validate(),
                  "found": _found()},
    }
