"""Expression text read into a Python syntax tree, within limits, and the error that every
reading of an expression raises (:class:`ExprError`).

An expression may span several lines (a TOML multi-line string): lines are joined with
spaces, a ``#`` starts a comment to the end of its line, and a trailing ``\\`` is dropped
(:func:`one_line`).  A syntax error's message says where, with a hint for the common slips
(:mod:`.slips`).
"""

from __future__ import annotations

import ast

from . import slips
from .quoting import shorten

MAX_DEPTH = 200
"""Deepest expression tree accepted (engines walk trees recursively)."""

MAX_TEXT = 100_000
"""Longest expression text accepted, in characters."""


def _depth(node: ast.AST) -> int:
    """Depth of an ast tree, measured without recursion."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_DEPTH:
            stack.extend((child, depth + 1) for child in ast.iter_child_nodes(current))
    return deepest


def one_line(text: str) -> str:
    """``text`` with its lines joined by spaces, comments and trailing backslashes removed."""
    if "\n" not in text and "#" not in text:
        return text.strip()
    lines = (line.split("#", 1)[0].rstrip() for line in text.splitlines())
    return " ".join(line[:-1] if line.endswith("\\") else line for line in lines).strip()


def as_said(text: str) -> str:
    """An expression's text as a message quotes it: on one line, without comments, each run
    of spaces one space (a rule written over several lines, as a label)."""
    return " ".join(one_line(text).split())


def error_column(text: str, err: SyntaxError) -> tuple[int, str]:
    """Where in ``text`` (one line) Python's parser found ``err``: its column (from 1), and
    those words for the message.  The parser gives no column (offset 0) for an input that
    ends too soon (``x >``, ``x == 1 and``): the mistake is then at the end, the column
    past the last character, said as ``unexpected end``."""
    if err.offset:
        return err.offset, f"column {err.offset}"
    return len(text) + 1, f"unexpected end, column {len(text) + 1}"


class ExprError(ValueError):
    """An expression text that cannot be read; the message says where and why."""


def syntax_tree(text: str) -> tuple[str, ast.expr]:
    """``text`` on one line and its syntax tree, within :data:`MAX_TEXT` and
    :data:`MAX_DEPTH`; else :class:`ExprError`."""
    text = one_line(text)
    if len(text) > MAX_TEXT:
        raise ExprError(f"expression of {len(text):,} characters (at most {MAX_TEXT:,}): "
                        f"{shorten(text)}")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as err:
        column, where = error_column(text, err)
        raise ExprError(f"syntax error in {shorten(text, column - 1)}: "
                        f"{err.msg} ({where})"
                        f"{slips.syntax(text, column, err.msg)}") from None
    except (RecursionError, MemoryError):
        raise ExprError(f"expression nested too deeply: {shorten(text)}") from None
    if _depth(tree.body) > MAX_DEPTH:
        raise ExprError(f"expression nested more than {MAX_DEPTH} levels deep: {shorten(text)}")
    return text, tree.body
