"""Engine ``pyconstraint``: python-constraint2 on a :class:`~cpsolve.model.csp.Csp`.

All-different groups become ``AllDifferentConstraint``; a condition of the
form ``x == c`` narrows the domain; any other condition becomes a
``FunctionConstraint`` over the variables it mentions, compiled from the
expression tree into a closure.  Circuits are not supported (the library has
no such constraint and a whole-tuple check would be a search in disguise).

python-constraint has no time limit of its own: the engine's clock is asked between
solutions and, every :data:`EVERY` calls, from inside the constraints it evaluates
(:class:`_Watch`), which end the search by raising :class:`_Stopped` — a solve or a count
stops at the limit, the memory limit or Ctrl-C with what it found.  (A model of
all-different groups only is checked between solutions.)
"""

from __future__ import annotations

from collections.abc import Callable

from ..answers.result import Assignment, Count, Result, Status
from ..answers.words import counted
from ..language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var
from ..language.walk import variables
from ..model import AllDifferent, Circuit, Condition, Csp
from ..model.pins import pin
from .runtime.clock import Clock

CAPABILITIES = {("csp", "solve"), ("csp", "count")}

_OPS: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
}


def supports(model: Csp) -> str | None:
    """Why this engine cannot take ``model``, or ``None``."""
    if any(isinstance(c, Circuit) for c in model.constraints):
        return "python-constraint has no circuit constraint"
    return None


def _closure(expr: Expr, slot: dict[str, int]) -> Callable[[tuple], int]:
    """A function of a tuple of values (positions from ``slot``) computing ``expr``."""
    if isinstance(expr, Const):
        value = expr.value
        return lambda v: value
    if isinstance(expr, Var):
        i = slot[expr.name]
        return lambda v: v[i]
    if isinstance(expr, Unary):
        f = _closure(expr.arg, slot)
        if expr.op == "-":
            return lambda v: -f(v)
        if expr.op == "abs":
            return lambda v: abs(f(v))
        return lambda v: int(not f(v))
    if isinstance(expr, Binary):
        a, b, op = _closure(expr.left, slot), _closure(expr.right, slot), _OPS[expr.op]
        return lambda v: op(a(v), b(v))
    if isinstance(expr, Nary):
        fs = [_closure(x, slot) for x in expr.args]
        if expr.op == "and":
            return lambda v: int(all(f(v) for f in fs))
        if expr.op == "or":
            return lambda v: int(any(f(v) for f in fs))
        pick = min if expr.op == "min" else max
        return lambda v: pick(f(v) for f in fs)
    if isinstance(expr, IfThenElse):
        c, t, o = (_closure(x, slot) for x in (expr.cond, expr.then, expr.otherwise))
        return lambda v: t(v) if c(v) else o(v)
    raise TypeError(f"unknown expression node {expr!r}")


EVERY = 512
"""Constraint calls between two looks at the clock."""


class _Stopped(Exception):
    """The clock ended the search (raised from inside a constraint)."""


class _Watch:
    """Counts constraint calls; every :data:`EVERY`, stops the search if the clock says so."""

    def __init__(self, clock: Clock) -> None:
        self.clock, self.calls = clock, 0

    def tick(self) -> None:
        self.calls += 1
        if self.calls % EVERY == 0 and self.clock.expired():
            raise _Stopped


def _problem(model: Csp, watch: _Watch):
    from constraint import AllDifferentConstraint, FunctionConstraint, Problem

    domains = {n: list(model.values(n)) for n in model.domains}
    functions = []
    for c in model.constraints:
        if isinstance(c, AllDifferent):
            continue
        assert isinstance(c, Condition)
        e = c.expr
        if (given := pin(e, model.domain)) is not None:
            domains[given[0]] = [v for v in domains[given[0]] if v == given[1]]
            continue
        names = sorted(variables(e))
        slot = {n: i for i, n in enumerate(names)}
        functions.append((_closure(e, slot), names))
    problem = Problem()
    for name, values in domains.items():
        if not values:
            return None
        problem.addVariable(name, values)
    for c in model.constraints:
        if isinstance(c, AllDifferent):
            problem.addConstraint(_watched_all_different(AllDifferentConstraint, watch),
                                  list(c.names))
    for f, names in functions:
        if names:
            problem.addConstraint(FunctionConstraint(
                lambda *v, f=f: watch.tick() or bool(f(v))), names)
        elif not f(()):
            return None
    return problem


def _watched_all_different(base: type, watch: _Watch):
    """An all-different constraint that also looks at the clock (a grid of givens has no
    other constraint, and its search would otherwise run to the end unwatched)."""

    class Watched(base):
        def __call__(self, *args, **kwargs):
            watch.tick()
            return super().__call__(*args, **kwargs)

    return Watched()


def _solutions(model: Csp, clock: Clock):
    """The solutions, found one by one, until the search ends or ``clock`` stops it
    (:class:`_Stopped`, from inside the search or between two solutions)."""
    problem = _problem(model, _Watch(clock))
    if problem is None:
        return
    if not model.domains:  # python-constraint finds nothing without variables; the empty
        yield {}  # assignment satisfies every constraint left (the constant ones held)
        return
    for s in problem.getSolutionIter():
        yield {n: int(s[n]) for n in model.domains}
        if clock.expired():
            raise _Stopped


def optimize(model: Csp, options) -> Result:
    """The best solution for the model's objective, by enumerating every solution (proven
    optimal once all are seen; stopped by the clock, the best so far)."""
    objective = model.objective
    assert objective is not None
    clock = Clock(options.time_limit)
    slot = {n: i for i, n in enumerate(model.domains)}
    value_of = _closure(objective.expr, slot)
    sign = 1 if objective.minimizing else -1
    best: tuple[int, dict[str, int]] | None = None
    complete = True
    try:
        for s in _solutions(model, clock):
            value = sign * value_of(tuple(s.values()))
            if best is None or value < best[0]:
                best = (value, s)
    except _Stopped:  # the time limit, memory, Ctrl-C: the best so far
        complete = False
    what = f"{objective.sense} {objective.label}"
    if best is None:
        if complete:
            return Result(Status.INFEASIBLE, "pyconstraint", proof="exhausted search",
                          message="no assignment satisfies every constraint")
        return Result(Status.UNKNOWN, "pyconstraint",
                      message=f"{clock.why()}: no solution found")
    answer = Assignment(best[1], objective=sign * best[0], minimizing=sign > 0)
    if complete:
        return Result(Status.OPTIMAL, "pyconstraint", answer=answer,
                      message=f"{what}: {answer.objective}, every solution seen")
    return Result(Status.SOLVED, "pyconstraint", answer=answer,
                  message=f"{clock.why()}: {what}: best {answer.objective} found")


def solve(model: Csp, options) -> Result:
    """One solution and whether it is unique (with an objective: :func:`optimize`)."""
    if model.objective is not None:
        return optimize(model, options)
    clock = Clock(options.time_limit)
    found = []
    try:
        for s in _solutions(model, clock):
            found.append(s)
            if len(found) == 2:
                break
    except _Stopped:
        if not found:
            return Result(Status.UNKNOWN, "pyconstraint",
                          message=f"{clock.why()}: no solution found yet")
        return Result(Status.SOLVED, "pyconstraint", answer=Assignment(found[0], None, None),
                      message=f"{clock.why()} before uniqueness was known")
    if not found:
        return Result(Status.INFEASIBLE, "pyconstraint", proof="exhausted search",
                      message="no assignment satisfies every constraint")
    second = found[1] if len(found) > 1 else None
    return Result(Status.SOLVED, "pyconstraint",
                  answer=Assignment(found[0], second is None, second))


def count(model: Csp, options) -> Result:
    """Count (and optionally keep) every solution."""
    clock = Clock(options.time_limit)
    n, kept = 0, []
    try:
        for s in _solutions(model, clock):
            n += 1
            if options.keep:
                kept.append(s)
            if options.on_solution is not None:
                options.on_solution(s)
            if options.limit is not None and n >= options.limit:
                return Result.counted("pyconstraint", _count(n, kept, options), False,
                                      message=counted(n, False, limit=options.limit))
    except _Stopped:  # the time limit, memory (solutions kept for --list grow), Ctrl-C
        return Result.counted("pyconstraint", _count(n, kept, options), False,
                              message=counted(n, False, clock.why(clock.limit_reached())))
    return Result.counted("pyconstraint", _count(n, kept, options), True,
                          message=counted(n, True))


def _count(n: int, kept: list, options) -> Count:
    return Count(n, tuple(kept) if options.keep else None)
