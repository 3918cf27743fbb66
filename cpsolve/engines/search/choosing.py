"""Choosing a search algorithm or analysis by name (:mod:`.registry`'s tables), and
refusing a name that is not one, or one for the other kind of model, with the names that
apply."""

from __future__ import annotations

from collections.abc import Mapping

from ...answers.result import Unsupported
from .registry import ALGORITHMS, CSP_ALGORITHMS


def pick(name: str, table: Mapping, what: str):
    """``table[name]``, or :class:`Unsupported` listing the known names."""
    if name not in table:
        raise Unsupported(f"search: unknown {what} {name!r} (known: {', '.join(table)})")
    return table[name]


def algorithm_kind(name: str) -> str | None:
    """The kind of model (``"planning"``, ``"csp"``) the search algorithm ``name`` is for;
    None when it is neither's (an analysis, or no algorithm)."""
    return "planning" if name in ALGORITHMS else "csp" if name in CSP_ALGORITHMS else None


def pick_algorithm(name: str, kind: str):
    """The search algorithm ``name`` for a model of ``kind`` (planning: its
    :class:`~.registry.Algorithm`; csp: its description), or :class:`Unsupported`: for
    an algorithm of the other kind, what it is for and the ones that apply; else
    :func:`pick`'s."""
    table = ALGORITHMS if kind == "planning" else CSP_ALGORITHMS
    other = algorithm_kind(name)
    if other is not None and other != kind:
        raise Unsupported(f"search: {name!r} is an algorithm for {other} models, and this is "
                          f"a {kind} model ({kind} algorithms: {', '.join(table)})")
    return pick(name, table, "algorithm" if kind == "planning" else f"{kind} algorithm")
