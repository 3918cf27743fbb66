"""A file whose name starts with ``-`` (``-x.toml``): argparse takes it for an option it
does not know, and its error ("the following arguments are required: FILE", "unrecognized
arguments", "expected one argument") does not say why.  :func:`dashed_file` finds such a
word first and says how to name the file."""

from __future__ import annotations

import argparse
import os

FILE_SUFFIXES = frozenset({".toml", ".py", ".pddl", ".txt", ".json", ".plan", ".html",
                           ".svg"})
"""Extensions of the files cpsolve reads and writes: a word with one names a file even
where no such file exists yet (``--html -page.html``)."""


def dashed_file(command: argparse.ArgumentParser, args: list[str]) -> str | None:
    """Why ``args`` (the words after the command's name) cannot be read as meant, or None:
    a word before ``--`` that the ``command`` takes for an option it does not know, but
    that names a file (one that exists, or by its extension)."""
    for at, word in enumerate(args):
        if word == "--":
            return None
        if not word.startswith("-") or word == "-" or not _file_like(word):
            continue
        known = command._parse_optional(word)
        if known is None or known[0] is not None:  # a value, or an option it has
            continue
        here = " (a file of that name is here)" if os.path.lexists(word) else ""
        why = f"{word} is taken for an option{here}: name the file ./{word}"
        if _takes_value(command, args[at - 1] if at else ""):
            return why
        return f"{why} (or give it after --: {command.prog} ... -- {word})"
    return None


def _file_like(word: str) -> bool:
    """Whether ``word`` names a file: one that exists, or a name with a file's extension."""
    return os.path.lexists(word) or os.path.splitext(word)[1].lower() in FILE_SUFFIXES


def _takes_value(command: argparse.ArgumentParser, word: str) -> bool:
    """Whether ``word`` is an option of ``command`` waiting for its value (``--html``)."""
    if not word.startswith("-") or "=" in word:
        return False
    known = command._parse_optional(word)
    return bool(known and known[0] is not None and known[0].nargs != 0)
