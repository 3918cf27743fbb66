"""The search engine's test of a state against the model's forbidden conditions.

A model may forbid thousands of states: a hostile file forbade 20,000
(``"x[0] == 4 and x[1] == 0"``, ...).  Compiled as one expression, Python's
``compile()`` took seconds that no clock can interrupt (one C call), and each test,
one state against 20,000 conditions, 3 ms.  :func:`allowed_test` builds the test so
that neither happens:

* a condition whose conjuncts all pin a variable (``x == c``,
  :func:`~cpsolve.model.pins.pin`), each variable once, goes into a table: the set of
  value tuples forbidden for that tuple of variables.  The test is one lookup per table;
* the other conditions are compiled :data:`CHUNK` at a time, one function each.

The ``clock`` is asked between two chunks, and every :data:`CHUNK` conditions while
they are read: when it says stop, :class:`Stopped` says why and how far the build got.
"""

from __future__ import annotations

from collections.abc import Callable

from ...language.expr import Expr
from ...model import Planning
from ...model.pins import exact_pins
from ..runtime.clock import Clock
from ..runtime.stop import Stop
from .emit import build, source

State = tuple[int, ...]

CHUNK = 256
"""Conditions (or tables) compiled in one function, and read between two looks at the
clock: a chunk compiles in milliseconds."""


class Stopped(Exception):
    """The clock stopped the build of the forbidden-state test: ``stop`` is why (tested by
    identity), ``reason`` says it in words, ``done`` of ``total`` conditions were read."""

    def __init__(self, stop: Stop, reason: str, done: int, total: int) -> None:
        self.stop, self.reason, self.done, self.total = stop, reason, done, total
        super().__init__(f"{reason} while compiling the forbidden states ({done:,} of "
                         f"{total:,} read)")


def allowed_test(model: Planning, index: dict[str, int],
                 clock: Clock | None = None) -> Callable[[State], bool] | None:
    """A function telling whether a state (a tuple in ``index`` order) satisfies none of
    ``model.forbidden`` (``None`` when nothing is forbidden).  Raises :class:`Stopped` when
    ``clock`` says stop, and :class:`~.emit.TooDeep` for a condition too deep to compile."""
    total = len(model.forbidden)
    if not total:
        return None
    tables: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    parts: list[str] = []
    for n, item in enumerate(model.forbidden):
        if n % CHUNK == 0:
            _look(clock, n, total)
        row = pinned(item.expr, model, index)
        if row is None:
            parts.append(source(item.expr, lambda name: f"s[{index[name]}]", "c"))
        else:
            tables.setdefault(row[0], set()).add(row[1])
    names = {f"_t{k}": frozenset(rows) for k, rows in enumerate(tables.values())}
    lookups = [f"({''.join(f's[{i}], ' for i in where)}) in _t{k}"
               for k, where in enumerate(tables)]
    return _combined(lookups + parts, names, clock, total)


def pinned(expr: Expr, model: Planning, index: dict[str, int]
           ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """``(variables, values)``, in index order, when ``expr`` holds exactly where each of
    the variables has its value (:func:`~cpsolve.model.pins.exact_pins`); else ``None``."""
    found = exact_pins(expr, model.domain)
    if found is None:
        return None
    where = sorted((index[name], value) for name, value in found.items())
    return tuple(i for i, _ in where), tuple(v for _, v in where)


def _look(clock: Clock | None, done: int, total: int) -> None:
    """Raise :class:`Stopped` when ``clock`` says stop."""
    stop = None if clock is None else clock.stop()
    if stop is not None:
        assert clock is not None
        raise Stopped(stop, clock.why(clock.limit_reached()), done, total)


def _combined(parts: list[str], names: dict[str, object], clock: Clock | None,
              total: int) -> Callable[[State], bool]:
    """``parts`` (each a test that a state is forbidden) compiled :data:`CHUNK` at a time,
    the clock asked before each chunk; one function when one chunk holds them all."""
    if len(parts) <= CHUNK:
        text = " or ".join(f"({p})" for p in parts)
        return build(f"def allowed(s):\n    return not ({text})\n", names, "allowed")
    tests = []
    for start in range(0, len(parts), CHUNK):
        _look(clock, total, total)
        text = " or ".join(f"({p})" for p in parts[start:start + CHUNK])
        tests.append(build(f"def forbidden(s):\n    return {text}\n", names, "forbidden"))

    def allowed(s: State) -> bool:
        for test in tests:
            if test(s):
                return False
        return True

    return allowed
