"""Answers written by someone else, read back: plans and solutions for ``cpsolve validate``.

A plan comes as cpsolve's own output (``solve --json``, or its text table or boards, the
start alone for a plan of no steps), as an IPC plan file (one ``(action arg ...)`` per
line, ``;`` comments), or as a list of action names, one per line (an empty answer: none,
the plan of no steps) (a family's own notation, sokoban's ``lurd`` line, is read by
the family: ``Puzzle.read_plan``).  A solution comes as JSON (an assignment ``{"variable":
value}``, or cpsolve's own ``--json`` output, whose ``solution`` the puzzle's family
reads) or as text (a grid, read by the family).  Nothing here checks an answer: the
checker (:mod:`.check`) does.  What cannot be read raises :class:`Unreadable`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

MAX_STEPS = 1_000_000
"""Most steps a plan file may hold."""


class Unreadable(ValueError):
    """The answer cannot be read as a plan or a solution (one line: what and where)."""


@dataclass(frozen=True)
class PlanAnswer:
    """A plan: its action names in order, and the format it came in."""

    names: tuple[str, ...]
    form: str


@dataclass(frozen=True)
class SolutionAnswer:
    """A solution as written (a JSON value or text), for the puzzle's family to read."""

    value: Any
    form: str


def read_answer(text: str, kind: str) -> PlanAnswer | SolutionAnswer:
    """The answer in ``text`` for a ``planning`` or ``csp`` model."""
    body = text.strip()
    if not body and kind == "planning":  # no step, as ``[]`` or a file of comments has
        return PlanAnswer((), "action names")
    if not body:
        raise Unreadable("the answer is empty")
    if body[0] in "{[":
        value = _json(body)
        return _json_plan(value) if kind == "planning" else _json_solution(value)
    if kind != "planning":
        return SolutionAnswer(body, "text")
    lines = body.splitlines()
    if len(lines) > MAX_STEPS:
        raise Unreadable(f"{len(lines):,} lines: more than {MAX_STEPS:,} steps")
    # each form is told by one search of the whole text: a plan may have a million lines
    header = HEADER.search(body)
    if header is not None:
        return PlanAnswer(_table(lines[body.count("\n", 0, header.start()):]), "cpsolve text")
    numbered = _numbered(lines)  # first: its header, wrapped, may have a line "(a ..."
    if numbered or _start_only(body):
        return PlanAnswer(numbered, "cpsolve text")
    if IPC_STEP.search(body):
        return PlanAnswer(_ipc(lines), "IPC plan")
    return PlanAnswer(_names(lines), "action names")


HEADER = re.compile(r"^[^\S\n]*step[^\S\n]+action\b", re.MULTILINE)
"""The header of cpsolve's plan table."""
IPC_STEP = re.compile(r"^\s*\(", re.MULTILINE)
"""A line of an IPC plan file that holds a step (its ``(`` before any ``;``)."""
BRACKET = re.compile(r"[(){}\[\]]")
SPACES = re.compile(" {2,}")
"""What no action name in a list of names holds (an IPC step, JSON)."""


def _names(lines: list[str]) -> tuple[str, ...]:
    """Action names, one per line (``#`` or ``;`` starts a comment line)."""
    kept = [line for line in lines if line.strip()[:1] not in ("", "#", ";")]
    joined = "\n".join(kept)  # checked at once; the line at fault is looked for after
    if not joined.replace("\n", "").isprintable() or BRACKET.search(joined):
        for number, line in enumerate(lines, start=1):
            if line.strip()[:1] not in ("", "#", ";") and \
                    (not line.isprintable() or BRACKET.search(line)):
                raise Unreadable(f"line {number}: not an action name, nor an IPC plan step "
                                 f"(action arg ...): {line.strip()[:60]!r}")
    if not kept:
        return ()
    if "  " in joined:  # printable, the lines hold no space but " ": a run of it is one
        joined = SPACES.sub(" ", joined)
    return tuple(line.strip() for line in joined.split("\n"))


STEP = re.compile(r"(?:^|\s{2,})(\d+)\. (\S.*?)(?=\s{2,}|$)")
"""A step of cpsolve's text boards: ``12. 6 right`` (columns apart by two spaces)."""
COST = re.compile(r" \(cost \d+\)$")
"""What the boards write after a step's action when the costs differ: `` (cost 0)``."""


def _numbered(lines: list[str]) -> tuple[str, ...]:
    """The steps ``1. text``, ``2. text``... of cpsolve's boards, in order (``()``
    unless they run 1..N without a gap), each without its `` (cost N)``."""
    steps: dict[int, str] = {}
    for line in lines:
        if ". " not in line:  # no step here: most lines of a long plan of another form
            continue
        for found in STEP.finditer(line):
            text = " ".join(found.group(2).split())
            steps.setdefault(int(found.group(1)), COST.sub("", text))
    if not steps or sorted(steps) != list(range(1, len(steps) + 1)):
        return ()
    return tuple(steps[k] for k in range(1, len(steps) + 1))


def _start_only(body: str) -> bool:
    """cpsolve's boards of a plan of no steps (the start is the goal): its ``Metric:``
    line, then the start board alone, under its title ``start`` (no step ``1.``)."""
    metric = METRIC.search(body)
    return metric is not None and START.search(body, metric.end()) is not None


METRIC = re.compile(r"^Metric: ", re.MULTILINE)
"""The line that says a plan's metric in cpsolve's text output."""
START = re.compile(r"^[^\S\n]*start[^\S\n]*$", re.MULTILINE)
"""The title of the start board, alone on its line (no step beside it)."""


def _json(body: str) -> Any:
    try:
        return json.loads(body)
    except RecursionError:
        raise Unreadable("JSON nested too deeply") from None
    except ValueError as err:
        raise Unreadable(f"not JSON: {err}") from None


def _json_plan(value: Any) -> PlanAnswer:
    if isinstance(value, dict) and "plan" in value:
        steps = value["plan"]
        if not isinstance(steps, list) or not all(
                isinstance(s, dict) and isinstance(s.get("action"), str) for s in steps):
            raise Unreadable("\"plan\" is not a list of steps with an \"action\" name")
        return PlanAnswer(tuple(s["action"] for s in steps), "cpsolve JSON")
    if isinstance(value, dict) and "status" in value:
        raise Unreadable(f"cpsolve's output holds no plan (status {value.get('status')!r})")
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return PlanAnswer(tuple(value), "JSON list of action names")
    raise Unreadable("expected a JSON list of action names or cpsolve's solve --json output")


def _json_solution(value: Any) -> SolutionAnswer:
    if isinstance(value, dict) and "solution" in value:
        return SolutionAnswer(value["solution"], "cpsolve JSON")
    if isinstance(value, dict) and "status" in value:
        raise Unreadable(f"cpsolve's output holds no solution (status "
                         f"{value.get('status')!r})")
    return SolutionAnswer(value, "JSON")


def _uncommented(line: str) -> str:
    return line.split(";", 1)[0].strip()


def _ipc(lines: list[str]) -> tuple[str, ...]:
    """An IPC plan file: ``(name arg ...)`` per line; ``;`` starts a comment."""
    names = []
    for number, line in enumerate(lines, start=1):
        step = _uncommented(line)
        if not step:
            continue
        found = re.fullmatch(r"\(\s*([^()\s][^()]*?)\s*\)", step)
        if not found:
            raise Unreadable(f"line {number}: expected (action arg ...), got "
                             f"{step[:80]!r}")
        names.append(" ".join(found.group(1).split()))
    return tuple(names)


def _table(lines: list[str]) -> tuple[str, ...]:
    """cpsolve's text table: a row is a step number under ``step``, its action the text
    under ``action``, whitespace collapsed.  The action ends where two spaces begin at
    the ``state`` column's left edge or after it (rich leaves at least two between
    columns), so a name with two spaces inside, or one edited to a longer one, is whole.
    A name wrapped within its column goes on in the lines below its row that have no
    step number (their text under ``action`` joined to it), until a blank line or any
    other row."""
    column = lines[0].index("action")
    state = lines[0].find("state", column)
    rows: list[str] = []
    joining = False  # the line before was a step's row, or a continuation of it
    for line in lines[1:]:
        head = line[:column].strip()
        end = line.find("  ", max(column, state - 2)) if state > 0 else -1
        cell = " ".join(line[column:end if end >= 0 else None].split())
        if head.isdigit() and head != "0":  # not the start, a wrapped state, a footer
            rows.append(cell)
            joining = True
        elif joining and not head and line.strip():  # the row's cells wrapped onto it
            rows[-1] = f"{rows[-1]} {cell}" if cell else rows[-1]
        else:
            joining = False
    return tuple(rows)
