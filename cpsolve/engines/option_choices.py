"""What an option may choose, and which engine has each choice: one rule for the Python
API (:class:`~.options.Options`, and :func:`~cpsolve.engines.run`, which refuses an option
that chooses what the engine lacks) and for the command line (its choices and option rules,
:mod:`cpsolve.cli.option_rules`).

Plain data and functions: the command line reads this at every start-up, before any
dataclass is imported; :mod:`.options` reads it too, so it names no ``Options`` type.
"""

from __future__ import annotations

import re

OWNERS: dict[str, tuple[str, str]] = {
    "algorithm": ("search", "a search algorithm"),
    "satisficing": ("fd", "Fast Downward's satisficing planner"),
    "solver": ("minizinc", "MiniZinc's solver"),
    "encoding": ("cpsat", "CP-SAT's time-indexed model"),
    "hint": ("cpsat", "a plan for CP-SAT to start from"),
    "find_hint": ("cpsat", "whether CP-SAT first looks for a plan or tour found by search"),
}
"""Options that choose something one engine alone has: field → (that engine, what it
chooses).  Another engine given one refuses it (:func:`lacking`); an option an engine merely
does not need (``keep`` for a solve, ``direction`` outside ``analyze``) is no choice of its
own, and is not here."""

KINDS: dict[str, tuple[str, str | None]] = {
    "unique": ("csp", "--unique"),
    "encoding": ("planning", "--time-indexed"),
    "hint": ("planning", None),
}
"""Options that apply to one kind of model: field → (that kind, the command line's option
that sets it, if one does).  Given (other than its default) for a model of the other kind it is
refused (:func:`wrong_kind`) — it would be silently ignored — by :func:`~cpsolve.engines.run`
and by the command line (:data:`cpsolve.cli.option_rules.KIND_OPTIONS`), whose batches and
``compare`` hand each model only the ones of its kind (:func:`for_kind`)."""

AUTO_BUDGET = 60.0
"""Seconds ``auto`` (the race of :mod:`cpsolve.engines.auto`) may take when no time limit is
given: ``--engine auto`` without ``--time-limit``, ``run("auto", ...)`` with
``Options.time_limit`` ``None``."""

DIRECTIONS = ("start", "goal")
"""What ``Options.direction`` (``analyze --from``) may be, besides ``None``."""

ENCODINGS = ("time-indexed",)
"""What ``Options.encoding`` (``--time-indexed``) may be, besides ``None``."""


_ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*)"
                      r"(?::(\d{1,5}))?")

ADDRESS_FORM = "tcp://host:8786"
"""What a scheduler's address looks like, as the errors that refuse one show it."""


def scheduler_address(text: str) -> bool:
    """Whether ``text`` is a Dask scheduler's address (``Options.cluster`` as text,
    ``analyze --scheduler``): ``[tcp://|tls://]host[:port]``, an IPv6 host in brackets,
    a port from 1 to 65535."""
    match = _ADDRESS.fullmatch(text)
    return match is not None and (match[1] is None or 0 < int(match[1]) < 65536)


def owner(field: str) -> str:
    """The engine that alone has what option ``field`` chooses (:data:`OWNERS`)."""
    return OWNERS[field][0]


def lacking(name: str, options: object) -> str | None:
    """Why engine ``name`` cannot run with ``options`` (an :class:`~.options.Options`, which
    imports this module; None: it can): one of them chooses
    what only another engine has (:data:`OWNERS`), which ``name`` would silently ignore."""
    return lacking_all((name,), options)


def lacking_all(names: tuple[str, ...], options: object) -> str | None:
    """Why engines ``names`` run together (``auto``'s racers, each given what is its own:
    :func:`usable`) cannot take ``options``: one of them chooses what none of them has."""
    for field in _given(options, OWNERS):
        engine, what = OWNERS[field]
        if engine not in names:
            return (f"Options.{field}={getattr(options, field)!r} chooses {what}, which only "
                    f"engine {engine!r} has (run {engine!r}, or leave {field} out)")
    return None


def wrong_algorithm(kind: str, options: object) -> str | None:
    """Why ``options.algorithm`` cannot be used on a model of ``kind`` (None: it can): it is
    a search algorithm for the other kind of model (``bfs`` for a csp)."""
    name = getattr(options, "algorithm", None)
    applies = _algorithm_kind(name)
    if applies in (None, kind):
        return None
    return (f"Options.algorithm={name!r} is a search algorithm for {applies} models; this is a "
            f"{kind} model (leave algorithm out)")


def usable(name: str, options: object) -> object:
    """``options`` without what engine ``name`` lacks (:func:`lacking`): what a caller that
    runs several engines on one set of options (``auto`` in turn) gives each of them."""
    from dataclasses import replace

    return replace(options, **{field: default for field, default in _given(options, OWNERS).items()
                               if OWNERS[field][0] != name})


def _given(options: object, names) -> dict[str, object]:
    """The fields among ``names`` that ``options`` sets other than to their default, each
    with that default."""
    from dataclasses import fields

    defaults = {f.name: f.default for f in fields(options) if f.name in names}
    return {name: default for name, default in defaults.items()
            if getattr(options, name) != default}


def wrong_kind(kind: str, options: object) -> str | None:
    """Why ``options`` cannot be used on a model of ``kind`` (None: they can): one of them
    applies to the other kind of model only (:data:`KINDS`), as ``--unique`` on a planning
    model or ``--time-indexed`` on a csp is refused on the command line."""
    from ..language.quoting import shown

    for field in _given(options, KINDS):
        applies = KINDS[field][0]
        if applies != kind:
            return (f"Options.{field}={shown(getattr(options, field))} applies to {applies} "
                    f"models; this is a {kind} model (leave {field} out)")
    return None


def for_kind(kind: str, options: object) -> object:
    """``options`` without what applies to the other kind of model than ``kind``
    (:func:`wrong_kind`, and an ``algorithm`` of the other kind's: ``bfs`` for a csp,
    ``backtracking`` for a planning model): what a batch or ``compare`` of models of both
    kinds hands each model, as the command line keeps an option that some of its models
    use; the others run as without it, whatever the engine."""
    from dataclasses import replace

    others = {field: default for field, default in _given(options, KINDS).items()
              if KINDS[field][0] != kind}
    if wrong_algorithm(kind, options):
        others["algorithm"] = None
    return replace(options, **others)


def _algorithm_kind(name: str | None) -> str | None:
    """The kind of model the search algorithm ``name`` is for (its registry's word); None
    for no algorithm, or an analysis (which is neither kind's)."""
    if not name:
        return None
    from .search.choosing import algorithm_kind

    return algorithm_kind(name)
