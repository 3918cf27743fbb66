"""The consoles of a command: rich's, made safe for what they print and quiet on a closed
pipe, and whether a terminal shows progress."""

from __future__ import annotations

import os
import sys


def shows_progress() -> bool:
    """True when progress is shown: stderr is a terminal (or ``FORCE_COLOR`` is set);
    nothing would be seen elsewhere, and rich is not loaded for it."""
    return sys.stderr.isatty() or bool(os.environ.get("FORCE_COLOR"))


def stdout_is_terminal() -> bool:
    """True when stdout is a terminal (``FORCE_COLOR`` aside: what stdout really is)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed
        return False


def console(stderr: bool):
    """A rich console whose closed pipe (``cpsolve ... | head``) ends the command as any
    closed pipe does (exit 0: the reader had what it wanted), not with rich's exit 1.

    Text is printed as it is: no markup (``[bold]`` in a model's name stays those
    characters) and no emoji codes (``:x:`` in an action's name stays three characters);
    what is styled is styled by :class:`rich.text.Text`, never by markup in a string.
    Every text it prints is made safe first (:func:`~cpsolve.output.shown.shown`: control
    and bidi characters escaped, a line break too outside a drawing); its tables, on a console
    that cannot write every character, are laid out as they will be written (``\\xfc``:
    four columns, :mod:`.charset`)."""
    from rich.console import Console

    from ..output.shown import recoded, shown
    from .charset import HANDLER, encodes_all

    class Piped(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

        def render(self, renderable, options=None):
            return super().render(shown(renderable), options)

        def render_str(self, text: str, **kwargs):
            return shown(super().render_str(text, **kwargs))

        def written(self, renderable):
            """A text (or string) as the stream will write it (:mod:`.charset`): what a
            table (:class:`~cpsolve.output.tables.Legible`) measures and lays out."""
            if encodes_all(self.file):
                return renderable
            return recoded(renderable, self.encoding, HANDLER)

    return Piped(stderr=stderr, highlight=False, markup=False, emoji=False)
