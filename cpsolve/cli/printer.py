"""The one printer of an invocation's output: ``--json`` is one JSON object whatever the
ending (:class:`Printer`), and an error is one plain line on stderr (:func:`fail`)."""

from __future__ import annotations

import sys

from .arguments import printable


class Printer:
    """Where one invocation's output goes: with ``--json``, exactly one JSON object on
    stdout whatever the ending (a batch's JSON lines come before it).

    A command prints its answer with :meth:`emit` (its lines with :meth:`line`); an error
    goes through :meth:`fail`, which writes the one-line message on stderr and, with
    ``--json`` and nothing emitted yet, the error object
    (:func:`cpsolve.output.json.error_json`).
    """

    def __init__(self, command: str | None, json_wanted: bool):
        self.command = command
        self.json = json_wanted
        self.emitted = False
        """True once the command's JSON object is out: nothing more goes to stdout."""

    def emit(self, obj: dict) -> None:
        """Print the command's one JSON object (a second one is a bug in cpsolve)."""
        if self.emitted:
            raise RuntimeError("a command prints one JSON object; this is its second")
        import json  # a plain run (and --help) does without

        print(json.dumps(obj, ensure_ascii=False), flush=True)
        self.emitted = True

    def line(self, obj: dict) -> None:
        """Print one JSON line of a stream (an instance of a batch) before its last object."""
        if self.emitted:
            raise RuntimeError("a JSON line after the command's last object")
        import json  # a plain run (and --help) does without

        print(json.dumps(obj, ensure_ascii=False), flush=True)

    def fail(self, message: str, code: int) -> int:
        """``error: message`` as one plain line on stderr; with ``--json`` and nothing
        emitted yet, also the error object on stdout.  Returns ``code``."""
        fail(message, code)
        if self.json and not self.emitted:
            from ..output.json import error_json

            self.emit(error_json(self.command, printable(message), code))
        return code


def fail(message: str, code: int) -> int:
    """Print ``error: message`` as one plain line on stderr and return ``code``."""
    print(f"error: {printable(message)}", file=sys.stderr)
    return code
