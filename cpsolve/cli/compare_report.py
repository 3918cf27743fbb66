"""A comparison's report: the table (or JSON) of every compared model, its verdict, and
the lines on stderr (models no engine answered, ``[expected]`` contradicted)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from ..engines.runtime.alarms import printing
from ..workflows.batch.comparing import Compared
from .arguments import printable
from .compare_checks import VERDICTS, answered, cross_checked, unchecked
from .sources import Named
from .warn import expected_mismatch, warn_expected, with_mismatch

if TYPE_CHECKING:
    from .session import Cli


def report(cli: Cli, done: list[Compared], verdict: str) -> None:
    """The comparison on stdout (JSON or text); when stdout's reader has gone
    (``| head``), what is left to write goes nowhere and the command ends as it would
    have (the lines on stderr still come, the exit code is the comparison's)."""
    from .printer import reader_gone, stdout_gone

    try:
        with printing(answer=True):  # the work is done: the clock no longer cuts it
            if cli.args.json:
                cli.emit({"status": verdict, "models": [compared_json(d) for d in done]})
            else:
                _print_text(cli, done, verdict)
    except BrokenPipeError:
        if not stdout_gone():
            raise
        reader_gone()
    if not cli.args.json:
        _tell_unanswered(done, verdict)


def warn_expected_once(done: Compared) -> None:
    """A warning on stderr per key of the model's ``[expected]`` that some engine's
    proven answer contradicts: once per model and key, not once per engine (each result
    object that contradicts it carries ``expected_mismatch`` in JSON)."""
    from ..workflows.expected import mismatched

    if done.puzzle is None:
        return
    told: dict[str, str] = {}
    for result in done.results:
        for key, line in mismatched(getattr(done.puzzle, "expected", None) or {}, result,
                                    getattr(done.puzzle, "model", None)).items():
            told.setdefault(key, line)
    for line in told.values():
        warn_expected(line, done.source)


def _print_text(cli: Cli, done: list[Compared], verdict: str) -> None:
    """The comparison as a table and its verdict."""
    from rich.text import Text

    from ..output.text import comparison_table

    cli.out.print(comparison_table([row for d in done for row in table_rows(d)]),
                  crop=False)  # its notes are whole lines
    cli.out.print(Text(*VERDICTS[verdict]))


def tell_bugs(done: list[Compared]) -> bool:
    """A line on stderr per engine whose answer failed the check (its model's file named);
    whether there was one (a bug in cpsolve: exit 3)."""
    for d in done:
        for bug in d.bugs:
            print(f"error: {printable(d.source)}: {bug.engine}: {printable(bug.error)}",
                  file=sys.stderr)
    return any(d.bugs for d in done)


def _tell_unanswered(done: list[Compared], verdict: str) -> None:
    """A line on stderr per model that no engine answered."""
    for d in done:
        if not d.error and not answered(d):
            why = "before the interruption" if verdict == "interrupted" else \
                "within the limits"
            print(f"{printable(d.source)}: no engine answered {why}", file=sys.stderr)


def compared_json(done: Compared) -> dict[str, Any]:
    """One compared instance as JSON: its results, disagreements, skipped engines and those
    whose answer failed the check (``bugs``; an instance with no comparison: its source and
    error)."""
    if done.error:
        return {"source": done.source, "error": done.error}
    agree = False if done.problems else True if cross_checked(done) else None
    return {"model": done.puzzle.name, "file": done.source, "agree": agree,
            "disagreements": list(done.problems),
            "results": [_result_json(done.puzzle, r) for r in done.results],
            "skipped": [{"engine": s.engine, "reason": s.why} for s in done.skipped],
            "bugs": [{"engine": b.engine, "error": b.error} for b in done.bugs]}


def _result_json(puzzle, result) -> dict[str, Any]:
    """One engine's result of a compared model, with ``expected_mismatch`` when it
    contradicts the model's ``[expected]``."""
    from ..output.text import as_json

    return with_mismatch(as_json(puzzle, result), expected_mismatch(puzzle, result))


def table_rows(done: Compared) -> list[tuple]:
    """One compared instance as rows of the comparison table."""
    if done.error:  # a line under the table, as on stderr: the error names its file
        named = done.error.startswith(f"{done.source}:")
        return [(Named(""), f"error: {'' if named else done.source + ': '}{done.error}")]
    return [(done.puzzle, r) for r in done.results] + \
        [(done.puzzle, s) for s in done.skipped] + \
        [(done.puzzle, f"DISAGREEMENT: {p}") for p in done.problems] + \
        [(done.puzzle, f"ERROR: {b.engine}: {b.error}") for b in done.bugs] + \
        [(done.puzzle, why) for why in [unchecked(done)] if why]
