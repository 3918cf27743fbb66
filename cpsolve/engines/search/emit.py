"""Expression trees -> Python source text, for scalar or NumPy evaluation.

The search engine evaluates guards, effects, costs and constraints many
millions of times, so it compiles each :mod:`cpsolve.language.expr` tree to Python
source and lets :func:`compile` turn that into byte code (see
:func:`build`).  This does not use :func:`cpsolve.language.interpret.evaluate`: that is
the checker's reference interpreter, and an engine must not share it.

Why generating source is safe here: the text is produced from the
*validated tree*, never from user text.  A variable becomes ``s[3]`` (an
index the caller computes from the model's variable order; the variable's
name never appears), a constant becomes ``int(value)`` printed by Python,
and operators come from the fixed tables below.  Anything else raises
:class:`TypeError`.  The code runs with empty ``__builtins__`` and a
namespace holding only the helper functions listed in :data:`PY_HELPERS`
and :data:`np_helpers`.

Two flavours share the precedence logic:

* ``"py"`` — scalar Python over a sequence ``s`` of ints;
* ``"np"`` — NumPy over columns ``c[i]`` (one int64 array per variable), for
  whole-frontier evaluation (:mod:`.statespace.vector`).

Each node is emitted in a *context*: ``"v"`` (its integer value is needed)
or ``"c"`` (only its truth is needed, so ``a and b`` may return any truthy
object).  Booleans in value context become exactly 0 or 1, as in
:func:`cpsolve.language.interpret.evaluate`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable

from ...language.expr import COMPARE, Binary, Const, Expr, IfThenElse, Nary, Unary, Var, is_boolean

Ref = Callable[[str], str]
"""Maps a variable name to the source text that reads it (``"s[3]"``)."""

# Python operator precedence, low to high (only what is emitted).
_TERNARY, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _NEG, _ATOM = range(1, 10)

LONG_CHAIN = 64
"""Sums with at least this many terms are emitted as one ``_sum(...)`` call."""

PY_HELPERS: dict[str, object] = {"__builtins__": {}, "abs": abs, "min": min, "max": max,
                                 "bool": bool, "tuple": tuple, "list": list, "_sum": sum}
"""The namespace scalar code runs in (plus whatever the caller adds)."""


class TooDeep(ValueError):
    """The tree is too deeply nested to compile to source."""


def source(expr: Expr, ref: Ref, context: str = "v", flavour: str = "py") -> str:
    """Source text computing ``expr`` (``context`` ``"v"`` value, ``"c"`` truth)."""
    try:
        return _emit(expr, ref, context, flavour)[0]
    except RecursionError as exc:  # pragma: no cover - needs a pathological tree
        raise TooDeep("expression too deeply nested to compile") from exc


def _wrap(text_prec: tuple[str, int], need: int) -> str:
    text, prec = text_prec
    return text if prec >= need else f"({text})"


def _emit(e: Expr, ref: Ref, ctx: str, fl: str) -> tuple[str, int]:
    if isinstance(e, Const):
        value = int(e.value)
        return str(value), (_ATOM if value >= 0 else _NEG)
    if isinstance(e, Var):
        return ref(e.name), _ATOM
    if is_boolean(e) and ctx == "v":
        cond = _emit(e, ref, "c", fl)
        if fl == "np":
            return f"_int({cond[0]})", _ATOM
        return f"1 if {_wrap(cond, _OR)} else 0", _TERNARY
    if isinstance(e, Unary):
        return _unary(e, ref, ctx, fl)
    if isinstance(e, Binary):
        return _binary(e, ref, fl)
    if isinstance(e, Nary):
        return _nary(e, ref, fl)
    if isinstance(e, IfThenElse):
        cond = _emit(e.cond, ref, "c", fl)
        then = _emit(e.then, ref, ctx, fl)
        other = _emit(e.otherwise, ref, ctx, fl)
        if fl == "np":
            return f"_where({cond[0]}, {then[0]}, {other[0]})", _ATOM
        return (f"{_wrap(then, _OR)} if {_wrap(cond, _OR)} else {_wrap(other, _TERNARY)}",
                _TERNARY)
    raise TypeError(f"cannot compile expression node {e!r}")


def _unary(e: Unary, ref: Ref, ctx: str, fl: str) -> tuple[str, int]:
    if e.op == "-":
        return "-" + _wrap(_emit(e.arg, ref, "v", fl), _NEG), _NEG
    if e.op == "abs":
        name = "_abs" if fl == "np" else "abs"
        return f"{name}({_emit(e.arg, ref, 'v', fl)[0]})", _ATOM
    if e.op == "not":
        arg = _emit(e.arg, ref, "c", fl)
        if fl == "np":
            return f"_not({arg[0]})", _ATOM
        return "not " + _wrap(arg, _NOT), _NOT
    raise TypeError(f"unknown unary operator {e.op!r}")


def _binary(e: Binary, ref: Ref, fl: str) -> tuple[str, int]:
    if e.op in ("+", "-"):
        return _chain(e, ref, fl)
    left = _emit(e.left, ref, "v", fl)
    right = _emit(e.right, ref, "v", fl)
    if e.op == "*":
        return f"{_wrap(left, _MUL)} * {_wrap(right, _NEG)}", _MUL
    if e.op in ("//", "%"):  # floor division and remainder in Python and NumPy alike
        return f"{_wrap(left, _MUL)} {e.op} {_wrap(right, _NEG)}", _MUL
    if e.op in COMPARE:
        # operands above comparison level, so Python never chains comparisons
        return f"{_wrap(left, _ADD)} {e.op} {_wrap(right, _ADD)}", _CMP
    raise TypeError(f"unknown binary operator {e.op!r}")


def _chain(e: Binary, ref: Ref, fl: str) -> tuple[str, int]:
    """A left-nested chain of ``+``/``-`` (what :func:`~.expr.Sum` builds), flattened.

    Walking the left spine in a loop keeps deep sums within Python's limits:
    short chains read ``a + b - c``, long ones ``_sum((a, b, -(c)))``.
    """
    terms: list[tuple[str, Expr]] = []
    node: Expr = e
    while isinstance(node, Binary) and node.op in ("+", "-"):
        terms.append((node.op, node.right))
        node = node.left
    terms.reverse()
    first = _emit(node, ref, "v", fl)
    rest = [(op, _emit(t, ref, "v", fl)) for op, t in terms]
    if len(rest) < LONG_CHAIN:
        text = _wrap(first, _ADD) + "".join(f" {op} {_wrap(t, _MUL)}" for op, t in rest)
        return text, _ADD
    items = [first[0]] + [t[0] if op == "+" else f"-({t[0]})" for op, t in rest]
    return f"_sum(({', '.join(items)}))", _ATOM


def _nary(e: Nary, ref: Ref, fl: str) -> tuple[str, int]:
    if e.op in ("and", "or"):
        args = [_emit(a, ref, "c", fl) for a in e.args]
        if fl == "np":
            name = "_all" if e.op == "and" else "_any"
            return f"{name}({', '.join(a[0] for a in args)})", _ATOM
        prec = _AND if e.op == "and" else _OR
        return f" {e.op} ".join(_wrap(a, prec + 1) for a in args), prec
    if e.op in ("min", "max"):
        args = [_emit(a, ref, "v", fl)[0] for a in e.args]
        name = f"_{e.op}" if fl == "np" else e.op
        return f"{name}({', '.join(args)})", _ATOM
    raise TypeError(f"unknown operator {e.op!r}")


def build(text: str, namespace: dict[str, object], name: str) -> Callable:
    """Compile generated module text and return the function called ``name``.

    ``text`` must come from this module's emitters (never from user input).
    A tree too deep for Python's parser raises :class:`TooDeep`.
    """
    return build_many(text, namespace, (name,))[0]


def build_many(text: str, namespace: dict[str, object], names: tuple[str, ...]) -> list:
    """:func:`build` for module text defining several functions."""
    env = dict(PY_HELPERS)
    env.update(namespace)
    try:
        code = _compiled(text, names[0])
    except (SyntaxError, RecursionError, MemoryError) as exc:
        raise TooDeep(f"generated code for {names[0]} does not compile: {exc}") from exc
    exec(code, env)  # noqa: S102 - text built from a validated tree, see module docstring
    return [env[n] for n in names]


CACHED_TEXT = 1 << 16
"""Generated texts up to this many characters keep their code objects (:func:`_compiled`)."""


def _compiled(text: str, name: str):
    """The code object of generated text; short texts' are kept (a batch or a notebook
    compiles the same model's text again and again; code objects are immutable, and each
    ``exec`` makes new functions in its own namespace)."""
    if len(text) > CACHED_TEXT:
        return compile(text, f"<cpsolve.search:{name}>", "exec")
    return _kept(text, name)


@functools.lru_cache(maxsize=256)
def _kept(text: str, name: str):
    return compile(text, f"<cpsolve.search:{name}>", "exec")


def np_helpers(np) -> dict[str, object]:
    """The namespace NumPy-flavoured code runs in (``np`` is the numpy module)."""

    def _int(x):
        return np.asarray(x, dtype=np.int64)

    def folding(op):
        return lambda *xs: functools.reduce(op, xs)

    def _sum(xs):
        return functools.reduce(operator.add, xs)

    _all, _any = folding(np.logical_and), folding(np.logical_or)
    _min, _max = folding(np.minimum), folding(np.maximum)

    return {"__builtins__": {}, "_sum": _sum, "_int": _int, "_all": _all, "_any": _any,
            "_min": _min, "_max": _max, "_abs": np.abs, "_not": np.logical_not,
            "_where": np.where}


def grouped(name: str, arg: str, groups, lines_for: Callable[[int, tuple | None], list[str]]
            ) -> str:
    """Source of ``def name(arg)`` returning the list ``out`` that each action's lines
    ``lines_for(k, pin)`` add to, the actions of a group under one ``if arg[i] == c:``
    (``groups``: ``(pin, actions)`` pairs, pin ``(i, c)`` or None)."""
    out = [f"def {name}({arg}):", "    out = []", "    add = out.append"]
    for pin, members in groups:
        ind = "    "
        if pin is not None:
            out.append(f"    if {arg}[{pin[0]}] == {pin[1]}:")
            ind = "        "
        for k in members:
            out += [ind + line for line in lines_for(k, pin)]
    out.append("    return out")
    return "\n".join(out) + "\n"
