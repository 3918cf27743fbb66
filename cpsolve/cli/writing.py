"""The files a command writes beside its answer (a picture, a page, a plan): written, or
refused as the user's path, never a bug; and the ``wrote`` line after them."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from .checks import is_stdout, outputs
from .printer import write_utf8
from .session import Cli, OutputError

if TYPE_CHECKING:
    from ..output.draw.show import Drawing


def write_text(path: str, text: str, svg: bool) -> None:
    """Write a picture or page; a failure is the user's path, not a bug (exit 2)."""
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if svg else ""
    if path == "-":
        write_utf8(head + text)
        return
    from ..engines.runtime.output_files import NoReader, write_output

    try:
        write_output(path, head + text)
    except NoReader as err:
        raise OutputError(str(err)) from None
    except OSError as err:
        raise OutputError(f"{path}: cannot write: {err.strerror or err}") from None


def to_stdout(args: argparse.Namespace) -> bool:
    """Whether a file the command writes (``--svg``, ``--html``, ``--plan-file``) is stdout
    (``-``, or the file stdout goes to): then stdout holds that file only, and the text
    report is left out (``show --svg -`` has none to leave)."""
    return any(out == "-" or is_stdout(out) for _, out in outputs(args))


def say_wrote(cli: Cli, path: str, words: str) -> None:
    """The line every command that writes a picture or page prints after it:
    ``wrote PATH (WORDS)``; none when ``path`` is stdout (it holds the picture only)."""
    if path != "-" and not is_stdout(path):
        cli.out.print(f"wrote {path} ({words})", soft_wrap=True)


def save(cli: Cli, shown, path: str, svg: bool = False) -> Drawing:
    """Write a drawn answer to ``path`` (``-``: stdout): an SVG when ``svg`` (``--svg``),
    else a page (``--html``), whatever the name's extension; a failure is the user's path,
    not a bug (exit 2).  The boards a page draws one by one (a plan's states, a gallery's
    solutions) are drawn until the time limit or Ctrl-C (:func:`drawing_stop`); the
    :class:`~cpsolve.output.draw.show.Drawing` returned says how many were."""
    from ..output.draw.show import answer_drawing

    drawing = answer_drawing(shown.puzzle, shown.result, svg, drawing_stop(cli))
    write_text(path, drawing.text, svg)
    return drawing


def drawing_stop(cli: Cli) -> Callable[[], str | None]:
    """When the drawing of an answer's boards ends (:mod:`cpsolve.output.draw.boards`): at
    the command's time limit, or at Ctrl-C, SIGTERM or the memory limit — drawing is the
    command's work (seconds for thousands of boards), not the writing of what it found,
    which the clock never cuts — in the words of what stopped it."""
    def stop() -> str | None:
        return cli.clock.why() if cli.clock.stop() is not None else None

    return stop
