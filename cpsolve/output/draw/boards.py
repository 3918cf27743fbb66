"""The boards of a long page — a gallery's solutions, a plan's states — drawn one by one
while the command may go on: a time limit or Ctrl-C stops the drawing between two boards,
and the page is written with the boards drawn so far, saying how many of how many.

Drawing is the command's work, not the writing of what it found: 2,000 tours of 8x8 took
seconds to draw, past a one-second limit and its overtime, and a Ctrl-C waited for them
all.  The first board is always drawn (a page with none shows nothing of the answer)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

Stop = Callable[[], "str | None"]
"""Asked before each board but the first: why the drawing ends now, in words (``time limit
1 s reached``, ``interrupted``), or ``None`` to go on."""


@dataclass(frozen=True)
class Boards:
    """The boards drawn of a page's ``total``, in order; ``why``: what stopped the drawing
    before the last (``None``: every one was drawn)."""

    pictures: tuple[str, ...]
    total: int
    why: str | None = None

    @property
    def cut(self) -> bool:
        """True when the drawing stopped before the last board."""
        return len(self.pictures) < self.total

    def said(self, what: str = "") -> str:
        """How many of how many were drawn and why not all (``57 of 2,000 drawn: time limit
        1 s reached``; ``what`` names the boards: ``states``), or nothing when all were."""
        if not self.cut:
            return ""
        kind = f" {what}" if what else ""
        return f"{len(self.pictures):,} of {self.total:,}{kind} drawn: {self.why}"


def drawn(draw: Callable[[int, T], str], items: Sequence[T], stop: Stop | None = None) -> Boards:
    """``draw(i, item)`` of each of ``items`` in turn, the first always, each other one
    while ``stop()`` (asked before it) says nothing."""
    pictures: list[str] = []
    for i, item in enumerate(items):
        why = stop() if stop is not None and pictures else None
        if why:
            return Boards(tuple(pictures), len(items), why)
        pictures.append(draw(i, item))
    return Boards(tuple(pictures), len(items))
