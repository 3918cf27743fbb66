"""The files a command writes beside its answer (a picture, a page, a plan): written, or
refused as the user's path, never a bug; and the ``wrote`` line after them."""

from __future__ import annotations

import argparse

from .checks import is_stdout, outputs
from .printer import write_utf8
from .session import Cli, OutputError


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


def save(shown, path: str, svg: bool = False) -> None:
    """Write a drawn answer to ``path`` (``-``: stdout): an SVG when ``svg`` (``--svg``),
    else a page (``--html``), whatever the name's extension; a failure is the user's path,
    not a bug (exit 2)."""
    from ..output.draw.show import answer_page, answer_svg

    page = answer_svg if svg else answer_page
    write_text(path, page(shown.puzzle, shown.result), svg)
