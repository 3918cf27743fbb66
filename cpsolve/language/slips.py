"""Hints for the common slips in an expression, added to the parser's messages.

Each function returns the words that say what to write instead: ``/`` for ``//``, ``=``
for ``==``, ``x[1, 0]`` for ``x[1][0]``, a tuple compared where each part must be.  Words
about one part of the expression (a subscript, a tuple) do not quote it: the builder puts
the part before them, unless it is the whole expression, which its error quotes already
(:meth:`cpsolve.language.build.Builder.fail`).
"""

from __future__ import annotations

import ast

OPERATOR_HINTS = {ast.Div: "use // (integer division)"}
"""What to write instead of an operator the language does not have."""

TUPLES = "tuples are not values in expressions: compare each part"
"""What is wrong with a tuple in an expression (a hint of what to write follows it)."""

TUPLE_VALUE = f"{TUPLES} (i != k or j != l, not (i, j) != (k, l))"
"""The words for a tuple anywhere in an expression, or compared other than part by part."""


def operator(op: ast.operator) -> str:
    """The message for an operator the language does not have, with a hint when there is one."""
    hint = OPERATOR_HINTS.get(type(op))
    return f"operator {type(op).__name__} is not supported" + (f": {hint}" if hint else "")


def syntax(text: str, column: int, message: str) -> str:
    """What to add to a syntax error's ``message`` at ``column`` (from 1) of ``text``:
    "did you mean '=='?" when the error is at a single ``=`` after an operand (an
    assignment where a comparison was meant), else nothing."""
    at = column - 1
    before = text[:at].rstrip()
    single = text[at:at + 1] == "=" and text[at + 1:at + 2] != "=" and text[at + 1:].strip()
    if single and before and (before[-1].isalnum() or before[-1] in ")]_") \
            and "'=='" not in message:
        return ": did you mean '=='?"
    return ""


def subscript(node: ast.Subscript) -> str:
    """The words for ``x[1, 0]`` (the part, unquoted): one index per pair of brackets."""
    assert isinstance(node.slice, ast.Tuple)
    indices = "".join(f"[{ast.unparse(e)}]" for e in node.slice.elts)
    return f"index one dimension at a time: write {ast.unparse(node.value)}{indices}"


def tuple_comparison(node: ast.Compare) -> str | None:
    """The words for a comparison of tuples (``(i, j) != (k, l)``, the part, unquoted):
    compare each part; None when no tuple is compared."""
    sides = [node.left, *node.comparators]
    if not any(isinstance(s, ast.Tuple) for s in sides):
        return None
    if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)) \
            and all(isinstance(s, ast.Tuple) for s in sides) \
            and len(node.left.elts) == len(node.comparators[0].elts):  # type: ignore[attr-defined]
        op, join = ("==", " and ") if isinstance(node.ops[0], ast.Eq) else ("!=", " or ")
        parts = [f"{ast.unparse(a)} {op} {ast.unparse(b)}"
                 for a, b in zip(node.left.elts, node.comparators[0].elts)]  # type: ignore
        return f"{TUPLES} ({join.join(parts)})"
    return TUPLE_VALUE


def not_allowed(node: ast.AST) -> str:
    """The message for a part of an expression that the language does not have (a tuple:
    :data:`TUPLE_VALUE`, after the part)."""
    return f"{ast.unparse(node)!r} is not allowed in an expression"


def not_a_condition(said: str, combine: str = "and, or, not") -> str:
    """The words for a number standing where a condition must (``said``: it, quoted), in
    a file's operators or, with ``combine="&, |, ~"``, the Python API's."""
    return (f"{said} is a number, not a condition: compare it (==, !=, <, ...) or combine "
            f"conditions ({combine})")
