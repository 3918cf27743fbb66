"""``solve --plan-file FILE``: the plan in the IPC format, and what became of FILE said
beside the answer — ``wrote FILE (...)``, or why nothing was written (no plan: the verdict)
and that an existing FILE still holds what it held (it is never deleted nor emptied: an
empty plan file is the plan of no steps).  ``--json`` carries the same as ``plan_file``;
when stdout holds a file alone (``--plan-file -``), the line goes to stderr, so that the
verdict still reaches the user: of a run without a plan, and of a plan not proven optimal."""

from __future__ import annotations

import os
import sys
from typing import Any

from ..answers.agreement import status_words
from ..answers.kinds import Plan
from ..answers.result import Result
from .arguments import printable
from .checks import is_stdout


def _on_stdout(path: str) -> bool:
    return path == "-" or is_stdout(path)


def plan_file_json(result: Result, path: str) -> dict[str, Any]:
    """``plan_file`` of the JSON result: the ``path`` asked for, whether the plan was
    ``written`` there, whether an existing file was ``kept`` as it was (no plan to write),
    and a ``note`` saying why nothing was written (empty when it was)."""
    written = isinstance(result.answer, Plan)
    kept = not written and not _on_stdout(path) and os.path.exists(path)
    return {"path": path, "written": written, "kept": kept,
            "note": "" if written else _not_written(result, path, kept)}


def _not_written(result: Result, path: str, kept: bool) -> str:
    """Why no plan file was written: ``no plan (unknown (stopped before a proof))``, and
    ``unk.plan still holds what it held before this run`` when it existed."""
    why = f"no plan ({status_words(result)})"
    return f"{why}; {path} still holds what it held before this run" if kept else why


def write_plan(cli, puzzle, result: Result, path: str, say: bool = True) -> None:
    """Write the plan to ``path`` in the IPC format (PDDL inputs: the PDDL action names),
    or nothing when there is none; then, when ``say`` and not ``--json``, one line on what
    became of it: on stdout under the text report, or on stderr when stdout holds a file
    alone (``-``; the report is left out, so the line names the model and the verdict,
    also of a plan written there: whether it is proven optimal is in no plan file), its
    message in the puzzle's words as the report says it (:meth:`~.Puzzle.message_text`)."""
    from ..output.ipc import ipc_plan
    from .writing import to_stdout, write_text

    if isinstance(result.answer, Plan):
        write_text(path, ipc_plan(result.answer, puzzle.model.unit_costs()), False)
    if not say or cli.args.json:
        return
    if to_stdout(cli.args):  # the report is left out: the verdict (a plan not proven
        # optimal too), and the file's fate
        message = f": {puzzle.message_text(result)}" if result.message else ""
        print(printable(f"{puzzle.name} [{result.engine}] {status_words(result)}{message}; "
                        f"{_line(puzzle, result, path)}"), file=sys.stderr)
    else:
        cli.out.print(_line(puzzle, result, path), soft_wrap=True)


def _line(puzzle, result: Result, path: str) -> str:
    """``wrote FILE (the plan: 9 moves, by search)``, or ``--plan-file FILE not written:
    no plan (...)`` (``-``: ``no plan, so --plan-file - wrote nothing on stdout``)."""
    if _on_stdout(path) and not isinstance(result.answer, Plan):
        return f"no plan, so --plan-file {path} wrote nothing on stdout"
    note = plan_file_json(result, path)
    if note["written"]:
        from ..output.text import answer_words

        return f"wrote {path} (the plan: {answer_words(puzzle, result)}, by {result.engine})"
    return f"--plan-file {path} not written: {note['note']}"
