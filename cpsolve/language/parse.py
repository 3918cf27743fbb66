"""Parse expression text from model files into :mod:`cpsolve.language.expr` trees.

Text is read with Python's own grammar (``ast.parse`` in ``eval`` mode) and
then rebuilt node by node from a whitelist; nothing is ever evaluated as
Python.  Allowed: integers, ``True``/``False``, names, ``name[index]``,
``+ - *``, ``//`` and ``%`` (floor division and remainder, as in Python, by
a positive constant), comparisons (chains too), ``and or not``, ``min max
abs``, ``ite(c, a, b)``, ``a if c else b`` (the latter decided while
parsing when ``c`` is constant, so only the chosen branch is kept; ``ite``
is always kept as written), and ``all/any/sum/min/max`` over a
generator with constant bounds, e.g. ``all(on[c] != t for c in range(3))``
(expanded while parsing, so engines never see a loop).

``and``/``or``, ``all``/``any`` and comparison chains are read left to right as
Python reads them: an operand without variables that is false (``and``, ``all``,
a chain) or true (``or``, ``any``) decides the whole, and what comes after it is
never read (``i >= 1 and x[i - 1] == 0`` does not index ``x[-1]``).  Operands over
variables decide nothing while parsing: all of them are kept.

Names are looked up in a *scope*: a mapping from a name to an expression
(a variable or a constant) or to a list of them (an array, indexed by an
expression that must be constant once parameters are filled in; :mod:`.scope`).

An expression may span several lines (a TOML multi-line string): lines are
joined with spaces, a ``#`` starts a comment to the end of its line, and a
trailing ``\\`` is dropped.

This module holds the three ways in (:func:`parse`, :func:`listing`,
:func:`constant_list`).  The text is read into a syntax tree by :mod:`.syntax`,
rebuilt by :mod:`.build` (generators and lists unrolled by :mod:`.unroll`, the
short circuit decided by :mod:`.shortcircuit`), with the hints of :mod:`.slips`.
"""

from __future__ import annotations

from . import syntax
from .build import Builder
from .expr import Const, Expr
from .scope import Scope, ScopeValue
from .syntax import ExprError


def parse(text: str, scope: Scope, constant: bool = False) -> Expr:
    """Parse ``text`` in ``scope``; raise :class:`ExprError` on anything not allowed.
    ``constant``: the text stands where only constants may be used (an unknown name then
    lists only the constant names of ``scope``; the caller refuses variables)."""
    if not isinstance(text, str):
        if isinstance(text, bool) or isinstance(text, int):
            return Const(int(text))
        raise ExprError(f"expected an expression string, got {text!r}")
    text, tree = syntax.syntax_tree(text)
    builder = Builder(text, scope)
    return builder.build_constant(tree) if constant else builder.build(tree)


def listing(text: str, scope: Scope) -> ScopeValue:
    """The value of ``text`` as an expression or a (nested) list of them: a list written
    ``[a, b]``, a comprehension ``[x[r][c] for c in range(n)]`` (nested:
    ``[[x[r][c] for c in range(n)] for r in range(n)]``), or an array's name; the
    elements may be variables (all-different groups)."""
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {text!r}")
    text, tree = syntax.syntax_tree(text)
    return Builder(text, scope).listing(tree)


def constant_list(text: str, scope: Scope) -> ScopeValue:
    """The constant value of ``text``: an integer (as :class:`Const`) or a (nested) list.

    Lists are written ``[a, b]``, ``range(n)``, ``range(a, b)``, ``[0] * n``,
    ``a + b`` (concatenation), ``[e for i in range(n)]`` or the name of a
    constant array; every element must be constant.
    """
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {text!r}")
    text, tree = syntax.syntax_tree(text)
    return Builder(text, scope).constant(tree)


__all__ = ["parse", "listing", "constant_list"]
