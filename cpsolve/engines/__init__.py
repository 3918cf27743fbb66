"""Engines: each knows models, never puzzles.

An engine is a module exposing ``CAPABILITIES`` — a set of ``(model kind,
task)`` pairs such as ``("planning", "solve")`` — and one function per task
it supports: ``solve(model, options)``, ``count(model, options)`` or
``analyze(model, options)``, each returning a :class:`~cpsolve.result.Result`;
optionally ``supports(model) -> reason | None`` for models that use
something it lacks.

:func:`run` is the one door to them: it imports the engine lazily (so the
search engine never pays for ortools), checks the capability, times the call
and passes the answer through the independent checker.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..check import verify
from ..model import Csp, Planning
from ..result import EngineBug, Result, Unsupported

ENGINES: dict[str, str] = {
    "cpsat": "cpsolve.engines.cpsat",
    "search": "cpsolve.engines.search",
    "pyconstraint": "cpsolve.engines.pyconstraint",
}
"""Engine name -> module; the CLI, the docs and the tests all read this."""

TASKS = ("solve", "count", "analyze")

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Options:
    """What a caller may ask of any engine; engines ignore what does not apply.

    * ``time_limit`` — seconds; an engine stops and returns ``UNKNOWN`` with
      what it proved;
    * ``limit`` — count at most this many solutions / explore at most this
      many states;
    * ``algorithm`` — an engine-specific choice (search: ``bfs``, ``bidir``,
      ``iddfs``, ``dfs``, ``dijkstra``);
    * ``keep`` — keep the enumerated solutions (planning: the optimal plans)
      in the result (``count``);
    * ``workers`` — CP-SAT workers (counting always uses one);
    * ``direction`` — analyze: ``"start"`` (states reachable from the initial
      state) or ``"goal"`` (states that can reach the goal); ``None``: the
      goal when it is one state, else the start;
    * ``progress`` — called with a short line of text on long work.
    """

    time_limit: float | None = None
    limit: int | None = None
    algorithm: str | None = None
    keep: bool = False
    workers: int = 2
    direction: str | None = None
    progress: Progress | None = None


def kind_of(model: Csp | Planning) -> str:
    """``"csp"`` or ``"planning"``."""
    return model.kind


def load(name: str):
    """The engine module called ``name``."""
    if name not in ENGINES:
        raise Unsupported(f"unknown engine {name!r} (known: {', '.join(ENGINES)})")
    return importlib.import_module(ENGINES[name])


def capabilities(name: str) -> set[tuple[str, str]]:
    """The ``(kind, task)`` pairs an engine supports (imports only that engine)."""
    return set(load(name).CAPABILITIES)


def engines_for(model: Csp | Planning, task: str) -> list[str]:
    """Names of the engines that can do ``task`` on ``model``.

    Every engine is a dependency of cpsolve: one that fails to import is a
    broken installation, raised as an :class:`ImportError` naming the engine,
    never skipped.
    """
    out = []
    for name in ENGINES:
        try:
            supported = capabilities(name)
        except ImportError as err:
            raise ImportError(f"engine {name!r} ({ENGINES[name]}) cannot be imported: {err}") \
                from err
        if (kind_of(model), task) in supported:
            out.append(name)
    return out


def run(name: str, task: str, model: Csp | Planning, options: Options | None = None) -> Result:
    """Run one engine on one task and return its checked result.

    Raises :class:`Unsupported` when the engine cannot do the task and
    :class:`~cpsolve.result.EngineBug` when its answer fails the check.
    """
    options = options or Options()
    module = load(name)
    if (kind_of(model), task) not in module.CAPABILITIES:
        raise Unsupported(f"engine {name!r} cannot {task} a {kind_of(model)} model")
    reason = module.supports(model) if hasattr(module, "supports") else None
    if reason:
        raise Unsupported(f"engine {name!r}: {reason}")
    start = time.perf_counter()
    result: Result = getattr(module, task)(model, options)
    seconds = time.perf_counter() - start
    if result.task != task:
        raise EngineBug(f"engine {name!r} answered {result.task!r} when asked to {task}")
    return verify(model, result.but(seconds=seconds, engine=name))
