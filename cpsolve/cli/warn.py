"""Warnings on stderr beside an answer: the model's ``[expected]`` table contradicted (and
the JSON that carries it), pattern databases built but not saved."""

from __future__ import annotations

import sys

from ..answers.result import Result
from .arguments import printable


def against_expected(puzzle, result: Result, source: str | None = None) -> list[str]:
    """What the answer contradicts in the model's ``[expected]`` table, each said on stderr
    (the answer is still printed; ``--json`` adds them as ``expected_mismatch``).  In a
    batch, ``source`` names the file on each line."""
    found = expected_mismatch(puzzle, result)
    for line in found:
        warn_expected(line, source)
    return found


def expected_mismatch(puzzle, result: Result) -> list[str]:
    """What ``result`` contradicts in ``puzzle``'s ``[expected]`` table (nothing said)."""
    from ..workflows.expected import mismatches

    return mismatches(getattr(puzzle, "expected", None) or {}, result,
                      getattr(puzzle, "model", None))


def with_mismatch(out: dict, mismatch: list[str]) -> dict:
    """A JSON result object, with ``expected_mismatch`` when there is one."""
    if mismatch:
        out["expected_mismatch"] = list(mismatch)
    return out


def warn_expected(line: str, source: str | None = None) -> None:
    """One ``[expected]`` mismatch on stderr (``source``: the file it is about)."""
    where = f"{source}: " if source else ""
    print(f"warning: {printable(where + line)}", file=sys.stderr)


_TOLD: set[str] = set()
"""The warnings of :func:`warn_unsaved` already given by this command."""


def warn_unsaved(results: list[Result], source: str | None = None) -> None:
    """Pattern databases a run built but could not save (details ``pattern_cache``: the
    cache folder and why) on stderr, so that the next run starting over is no surprise:
    once per command, however many instances or engines meet it."""
    for result in results:
        line = result.details.get("pattern_cache")
        if isinstance(line, str) and line not in _TOLD:
            _TOLD.add(line)
            where = f"{source}: " if source else ""
            print(f"warning: {printable(where + line)}", file=sys.stderr)
