"""A :class:`~cpsolve.model.csp.Csp` compiled directly to CP-SAT: solve, uniqueness, count.

Encoding (after :func:`encode`, every model variable has a CP-SAT variable and
every constraint is posted):

* a variable with a small domain (at most ``ONE_HOT_MAX`` values) is one
  literal per value, exactly one of which holds, and its value is the sum
  ``sum(v * [x == v])`` (no integer variable: enumeration is several times
  faster on pure literals); larger domains are integer variables;
* an all-different group over such variables is, per value, "at most one
  member takes it" ("exactly one" when the group has as many members as
  values); otherwise CP-SAT's all-different;
* each conjunct of a condition over at most three small variables is clauses
  forbidding its bad combinations of values (:mod:`.direct`); other
  conditions go through the expression compiler;
* a circuit uses the value literals ``succ == j`` as its arc literals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...answers.result import Assignment, Count, Result, Status
from ...answers.words import counted
from ...language.expr import Binary, Const, Var, conjuncts
from ...model import AllDifferent, Circuit, Condition, Csp
from .. import Options
from ..runtime.clock import Clock
from .compile import Compiler, Lit, Term, negate
from .direct import ONE_HOT_MAX, one_hot, post_condition
from .library import cp_model
from .solving import FOUND, run, size, solver_for

ENUMERATE = {"enumerate_all_solutions": True, "cp_model_presolve": False,
             "linearization_level": 0}
"""Enumeration settings.  Measured: without the LP relaxation, counting the
closed knight's tours of 6x6 takes 1.5 s instead of 38 s, and conditions with
auxiliary variables enumerate 20 times faster; presolve only costs time here."""
QUICK_SECONDS = 0.25
"""Time for the one-worker enumeration that :func:`solve` tries first."""


@dataclass
class Encoded:
    """A CSP compiled to CP-SAT: the model, a term per variable, and the compiler."""

    model: cp_model.CpModel
    terms: dict[str, Term]
    compiler: Compiler
    values: dict[str, dict[int, Lit]] = field(default_factory=dict)

    def read(self, solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback,
             ) -> dict[str, int]:
        """The assignment in the solver's last solution."""
        return {n: int(solver.value(t)) for n, t in self.terms.items()}

    def differs(self, name: str, value: int) -> Lit:
        """A literal for ``name != value``."""
        if name in self.values:
            return negate(self.values[name].get(value, False))
        comp = self.compiler
        return comp.reify(self.terms[name], "!=", value, comp.domain(name), (value, value))


def encode(csp: Csp) -> Encoded:
    """Compile ``csp`` as described in the module docstring."""
    model = cp_model.CpModel()
    terms: dict[str, Term] = {}
    lits: dict[str, dict[int, Lit]] = {}
    for name in csp.domains:
        values = csp.values(name)
        if len(values) <= ONE_HOT_MAX:
            terms[name], lits[name] = one_hot(model, values)
        elif name in csp.allowed:
            dom = cp_model.Domain.from_values(list(values))
            terms[name] = model.new_int_var_from_domain(dom, name)
        else:
            terms[name] = model.new_int_var(*csp.domain(name), name)
    enc = Encoded(model, terms, Compiler(model, terms, csp.domain, one_hot=lits), lits)
    for c in csp.constraints:
        if isinstance(c, AllDifferent):
            _all_different(enc, csp, c.names)
        elif isinstance(c, Condition):
            for part in conjuncts(c.expr):
                if not post_condition(enc.compiler, part):
                    enc.compiler.post(part)
        elif isinstance(c, Circuit):
            _circuit(enc, csp, c.names)
        else:  # pragma: no cover - a new constraint kind must be added here
            raise TypeError(f"cpsat cannot compile constraint {c!r}")
    return enc


def _all_different(enc: Encoded, csp: Csp, names: tuple[str, ...]) -> None:
    if not all(n in enc.values for n in names):
        comp = enc.compiler
        enc.model.add_all_different(
            [comp.as_var(enc.terms[n], *csp.domain(n)) for n in names])
        return
    union = sorted({v for n in names for v in enc.values[n]})
    for value in union:
        lits = [enc.values[n][value] for n in names if value in enc.values[n]]
        if len(union) == len(names):  # as many values as members: each value is used
            enc.model.add_exactly_one(lits)
        else:
            enc.model.add_at_most_one(lits)


def _circuit(enc: Encoded, csp: Csp, names: tuple[str, ...]) -> None:
    comp = enc.compiler
    n = len(names)
    if n == 1:
        comp.post(Binary("==", Var(names[0]), Const(0)))
        return
    arcs: list[tuple[int, int, Lit]] = []
    for i, name in enumerate(names):
        own = enc.values.get(name)  # one literal per value: the arc literal itself
        for j in csp.values(name):
            if 0 <= j < n and j != i:
                arcs.append((i, j, own.get(j, False) if own is not None
                             else negate(enc.differs(name, j))))
    tails, heads = {a[0] for a in arcs}, {a[1] for a in arcs}
    if len(tails) < n or len(heads) < n:  # a node no arc leaves or enters: no circuit
        comp.fail()
        return
    enc.model.add_circuit(arcs)


# ---------------------------------------------------------------- solve


def solve(csp: Csp, options: Options, hint: dict[str, int] | None = None) -> Result:
    """One solution, and a second one if it exists and is looked for (uniqueness).

    Uniqueness is looked for when it is cheap or asked: a model without a
    circuit of more than :data:`CHEAP_CIRCUIT` nodes (grids, csps, small tours), or
    ``options.unique``.  A large circuit's second solution (a knight's tour on
    50x50) costs a second full solve, so it is left undecided (``unique`` None)
    unless asked.

    When uniqueness is looked for and no ``hint`` came, a short enumeration with
    one worker that stops at two solutions comes first: on small puzzles it
    settles both questions in one search, faster than two solves.  Else (or if
    it runs out of its slice) one solve for a solution — started from ``hint``
    (a solution found by another engine, :func:`cpsolve.engines.hints.assignment`)
    when there is one — and, when looked for, one for a solution that differs
    from it somewhere.
    """
    budget = Clock(options.time_limit)
    enc = encode(csp)
    details: dict[str, object] = dict(size(enc.model), solves=0)
    wanted = options.unique or all(len(c.names) <= CHEAP_CIRCUIT for c in csp.constraints
                                   if isinstance(c, Circuit))
    sols: list[dict[str, int]] = []
    complete = False
    if wanted and hint is None:
        sols, complete = _quick(enc, budget)
        details["solves"] = 1
    if not complete and not budget.expired() and not sols:
        details["solves"] += 1
        if hint is not None:
            _suggest(enc, hint)
        solver = solver_for(budget, 1, **HINTED) if hint is not None else \
            solver_for(budget, options.workers)
        status = run(solver, enc.model)
        if status == cp_model.INFEASIBLE:
            complete = True
        elif status in FOUND:
            sols = [enc.read(solver)]
    if wanted and not complete and not budget.expired() and sols:
        enc.model.clear_hints()
        enc.model.add_bool_or([enc.differs(n, v) for n, v in sols[0].items()])
        details["solves"] += 1
        solver = solver_for(budget, options.workers)
        status = run(solver, enc.model)
        complete = status in FOUND or status == cp_model.INFEASIBLE
        if status in FOUND:
            sols.append(enc.read(solver))
    return _solved(sols, complete, wanted, budget, details)


CHEAP_CIRCUIT = 100
"""Circuits of up to this many nodes (a 10x10 tour) have their uniqueness decided by
default."""
HINTED = {"linearization_level": 0, "cp_model_presolve": False}
"""A solve started from a complete solution hint: one worker, which tries the hint first
(a knight's tour on 50x50: 0.12 s, against 3.5 s with two workers and presolve)."""


def _quick(enc: Encoded, budget: Clock) -> tuple[list[dict[str, int]], bool]:
    """An enumeration with one worker within :data:`QUICK_SECONDS` that stops at two
    solutions: the solutions found, and whether that settled the question."""
    solver = solver_for(budget.child(QUICK_SECONDS), 1, **ENUMERATE)
    found = _Counter(enc, keep=True, limit=2)
    status = run(solver, enc.model, found)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or found.stopped
    return found.kept or [], complete


def _suggest(enc: Encoded, hint: dict[str, int]) -> None:
    """CP-SAT's solution hint: every value of ``hint`` (its literals, for small domains)."""
    indices, values = [], []  # value literals in bulk: 20,000 on a 50x50 tour
    for name, value in hint.items():
        lits = enc.values.get(name)
        if lits is None:
            enc.model.add_hint(enc.terms[name], value)
            continue
        for v, lit in lits.items():
            if isinstance(lit, bool):
                continue
            index = lit.index  # type: ignore[union-attr]
            indices.append(index if index >= 0 else -index - 1)
            values.append(int((v == value) == (index >= 0)))
    enc.model.proto.solution_hint.vars.extend(indices)
    enc.model.proto.solution_hint.values.extend(values)


def _solved(sols: list[dict[str, int]], complete: bool, wanted: bool, budget: Clock,
            details: dict[str, object]) -> Result:
    """The result of :func:`solve` from the solutions found (at most two)."""
    if not sols:
        if complete:
            return Result(Status.INFEASIBLE, "cpsat", message="no solution exists", proof="cp-sat",
                          details=details)
        return Result(Status.UNKNOWN, "cpsat", details=details,
                      message=f"{budget.why()}: no solution found")
    if len(sols) > 1:
        return Result(Status.SOLVED, "cpsat", answer=Assignment(sols[0], False, sols[1]),
                      message="more than one solution", details=details)
    if complete:
        return Result(Status.SOLVED, "cpsat", answer=Assignment(sols[0], True),
                      message="the solution is unique", details=details)
    if not wanted:
        return Result(Status.SOLVED, "cpsat", answer=Assignment(sols[0]), details=details,
                      message="uniqueness not looked for: a large circuit's second solution "
                      "costs another full solve (--unique asks for it)")
    return Result(Status.SOLVED, "cpsat", answer=Assignment(sols[0]), details=details,
                  message=f"{budget.why()}: uniqueness not decided")


# ---------------------------------------------------------------- count


class _Counter(cp_model.CpSolverSolutionCallback):
    """Counts solutions, keeps them on request, stops at a limit."""

    def __init__(self, enc: Encoded, keep: bool, limit: int | None,
                 stream: Callable[[dict[str, int]], None] | None = None) -> None:
        super().__init__()
        self.count = 0
        self.limit = limit
        self.kept: list[dict[str, int]] | None = [] if keep else None
        self.stream = stream
        self.items = list(enc.terms.items())
        self.stopped = False

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.kept is not None or self.stream is not None:
            values = {n: int(self.value(v)) for n, v in self.items}
            if self.kept is not None:
                self.kept.append(values)
            if self.stream is not None:
                self.stream(values)
        if self.limit is not None and self.count >= self.limit:
            self.stopped = True
            self.stop_search()


def count(csp: Csp, options: Options) -> Result:
    """The number of solutions (exact unless a limit stops the enumeration)."""
    if options.limit is not None and options.limit < 1:
        raise ValueError(f"count limit must be at least 1, not {options.limit}")
    budget = Clock(options.time_limit)
    enc = encode(csp)
    details: dict[str, object] = dict(size(enc.model))
    # Exactly one worker: with more, CP-SAT's enumeration miscounts.
    solver = solver_for(budget, 1, **ENUMERATE)
    counter = _Counter(enc, options.keep, options.limit, options.on_solution)
    status = run(solver, enc.model, counter)
    kept = None if counter.kept is None else tuple(counter.kept)
    n = counter.count
    complete = not counter.stopped and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    message = counted(n, complete, budget.why(budget.limit_reached()),
                      n if counter.stopped else None)
    return Result.counted("cpsat", Count(n, kept), complete, details=details, message=message)
