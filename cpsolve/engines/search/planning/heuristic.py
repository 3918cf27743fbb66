"""The model's estimate, compiled for informed search (A*, IDA*, weighted A*).

A :class:`~cpsolve.model.planning.Planning` may declare an *estimate*: a lower bound
on the cost still to pay from a state, 0 at a goal (admissible by contract;
the tests check the bundled families against exhaustive search).  Nothing
here knows where it comes from.

:func:`compile_estimate` turns it into ``h(s)`` for the tuple states of a
:class:`~.compile.Task`.  A sum of terms that each read one variable (the
usual shape: "piece at cell i costs d") is *tabulated*: every such term is
evaluated once per value of its variable, and ``h`` becomes one generated
expression ``T0[s[0]] + T1[s[1]] + ...`` over tuples.  Other terms are
compiled to Python source as they are (see :mod:`..emit`).  Without an
estimate, ``h`` is 0 and the informed searches become uniform-cost search.

Declared *patterns* (:attr:`~cpsolve.model.planning.Planning.patterns`) add pattern
databases (:mod:`.pdb`, loaded or built by ``compile_estimate``): ``h`` is
then the larger of the declared estimate and the databases' value (IDA*
then runs :mod:`.pdb_ida`'s loop where it applies).  Under a time limit the
build may take :data:`BUILD_SHARE` of the time left (:data:`BUILD_MOST` when
forecast to finish within it); a build stopped there is saved for the next
run, and its tables so far are used (still a lower bound:
:class:`.pdb_build.Partial`).

The parity of every plan's length (:func:`cpsolve.model.facts.plan_parity`, from a
declared parity invariant) is also used here: with unit costs, lower bounds
round up to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ....answers.result import Unsupported
from ....answers.words import plural
from ....language.expr import Binary, Const, Expr, Unary
from ....language.walk import variables
from ....model.facts import plan_parity
from ..common import Budget
from ..compile import State, Task
from ..emit import TooDeep, build, source

MAX_TABULATED = 4096
"""Largest domain whose one-variable terms are tabulated (bigger ones are compiled as is)."""

BUILD_SHARE = 0.5
"""Share of the time left that building pattern databases may take; the search keeps the
rest.  A stopped build is saved and resumed, so runs with the same limit ``T`` finish a
build of ``B`` seconds after about ``2 B / T`` of them, each searching for at least half
of its time (with the tables as far as they got) — as long as each distance layer fits
in one run's share: a build is saved whole layers at a time (:mod:`.pdb_store`)."""

BUILD_MOST = 0.75
"""Share of the time left that building may take when, at the rate so far, the builds
still to do are forecast to be finished within it (a finished table serves every later
run; the search keeps at least the rest)."""


class Estimate:
    """``h(s)``: the compiled estimate of a task, and what it can prove.

    * ``h`` — the estimate of a state (0 everywhere when none is declared);
    * ``declared`` — whether the model declares one;
    * ``parity`` — the parity (0 or 1) every plan's move count must have,
      or None when unknown (see :meth:`round_up`);
    * ``patterns`` — the pattern databases in ``h`` (None: none);
    * ``note`` — what became of declared patterns, for the result's details;
    * ``unsaved`` — why the tables built could not be saved (:attr:`.pdb.PatternSet.unsaved`);
    * ``terms`` — when the declared estimate is a constant plus one table per
      variable (``h(s) = constant + sum(terms[i][s[i]])``, values from 0): the
      tables (None otherwise, or when no estimate is declared).
    """

    def __init__(self, task: Task, h: Callable[[State], int], declared: bool,
                 parity: int | None) -> None:
        self.task = task
        self.h = h
        self.declared = declared
        self.parity = parity
        self.patterns = None
        self.note = ""  # what became of declared patterns (empty: none declared)
        self.unsaved = ""  # why the tables built could not be saved (PatternSet.unsaved)
        self.terms: tuple[int, dict[int, list[int]]] | None = None

    def details(self) -> dict[str, object]:
        """What became of declared patterns, for a result's details (empty: none declared):
        ``patterns`` (one line), ``pattern_tables`` ("finished", "partial" or "not built")
        and, when the tables built could not be saved for the next run, ``pattern_cache``
        (one line: the cache folder and why)."""
        if not self.note:
            return {}
        tables = self.patterns
        state = "not built" if tables is None else "partial" if tables.partial else "finished"
        out = {"patterns": self.note, "pattern_tables": state}
        if self.unsaved:
            out["pattern_cache"] = self.unsaved
        return out

    def round_up(self, bound: int) -> int:
        """The least value ``>= bound`` a plan's cost can take (parity; unit costs only)."""
        if self.parity is None or (bound - self.parity) % 2 == 0:
            return bound
        return bound + 1


def compile_estimate(task: Task, budget: Budget | None = None) -> Estimate:
    """The :class:`Estimate` of a task (see the module docstring); ``budget`` carries the
    progress of a pattern database being built."""
    estimate = _declared(task)
    if task.model.patterns:
        from .pdb import next_run, pattern_set  # numpy only when patterns are declared

        patterns = pattern_set(task, _build_budget(budget))
        if not patterns.useful:
            estimate.note = "; ".join([
                f"pattern databases not built: {patterns.stop} before a table had its first "
                f"layer ({next_run(patterns.unsaved)})", *patterns.notes])
            estimate.unsaved = patterns.unsaved
            return estimate
        declared, tables = estimate.h, patterns.h
        h = tables if not estimate.declared else (lambda s: max(declared(s), tables(s)))
        out = Estimate(task, h, True, estimate.parity)
        out.patterns = patterns
        out.terms = estimate.terms
        out.note = patterns.describe()
        out.unsaved = patterns.unsaved
        if patterns.partial and estimate.declared:
            out.note += "; with the declared estimate (the larger of the two)"
        return out
    return estimate


def _build_budget(budget: Budget | None) -> Budget | None:
    """The budget of building pattern databases: :data:`BUILD_SHARE` of what remains of
    ``budget``'s time, or up to :data:`BUILD_MOST` when the builds are forecast to be
    finished by then (:class:`.pdb_store.BuildBudget`)."""
    if budget is None or budget.clock.limit is None:
        return budget
    from .pdb_store import BuildBudget

    left = budget.clock.left() or 0.0
    hard = budget.clock.child(left * BUILD_MOST)
    return BuildBudget(hard, hard.child(left * BUILD_SHARE), budget.progress, budget.width)


def _declared(task: Task) -> Estimate:
    """The :class:`Estimate` of the model's declared expression."""
    model = task.model
    if model.estimate is None:
        return Estimate(task, _zero, False, _plan_parity(task))
    tables: dict[int, list[int]] = {}
    rest: list[str] = []
    constant = 0

    def ref(name: str) -> str:
        return f"s[{task.index[name]}]"

    for sign, term in _terms(model.estimate):
        names = variables(term)
        if not names:
            constant += sign * _value(source(term, ref), ())
            continue
        if len(names) == 1:
            (name,) = names
            i = task.index[name]
            if task.hi[i] - task.lo[i] < MAX_TABULATED:
                text = source(term, lambda _: "s[0]")
                fn = build(f"def term(s):\n    return {text}\n", {}, "term")
                low = min(task.lo[i], 0)  # tables are indexed by value - low
                table = tables.setdefault(i, [0] * (task.hi[i] - low + 1))
                for v in range(task.lo[i], task.hi[i] + 1):
                    table[v - low] += sign * fn((v,))
                continue
        rest.append(("" if sign > 0 else "-") + f"({source(term, ref)})")
    namespace: dict[str, object] = {}
    parts = [str(constant)]
    for i, table in sorted(tables.items()):
        if any(table):
            low = min(task.lo[i], 0)
            namespace[f"T{i}"] = tuple(table)
            parts.append(f"T{i}[s[{i}]{f' + {-low}' if low else ''}]")
    parts += rest
    # a flat call for long sums: deep ``a + b + ...`` chains strain Python's compiler
    text = " + ".join(parts) if len(parts) < 64 else f"_sum(({', '.join(parts)},))"
    try:
        h = build(f"def h(s):\n    return {text}\n", namespace, "h")
    except TooDeep as exc:
        raise Unsupported(f"search: the estimate does not compile: {exc}") from exc
    goal = task.goal_state
    if goal is not None and task.in_domain(goal) and h(goal) != 0:
        raise Unsupported(f"search: the declared estimate is {h(goal)} at the goal state; "
                          "an admissible estimate is 0 there")
    out = Estimate(task, h, True, _plan_parity(task))
    if not rest and min(task.lo) >= 0:  # then every table is indexed by the value itself
        out.terms = (constant, tables)
    return out


def _zero(s: State) -> int:
    return 0


def _value(text: str, s: tuple) -> int:
    return build(f"def f(s):\n    return {text}\n", {}, "f")(s)


def _terms(expr: Expr) -> list[tuple[int, Expr]]:
    """``expr`` as a signed sum of terms (flattening ``+``, ``-`` and unary minus)."""
    out: list[tuple[int, Expr]] = []
    todo: list[tuple[int, Expr]] = [(1, expr)]
    while todo:
        sign, e = todo.pop()
        if isinstance(e, Binary) and e.op in ("+", "-"):
            todo.append((sign, e.left))
            todo.append((sign if e.op == "+" else -sign, e.right))
        elif isinstance(e, Unary) and e.op == "-":
            todo.append((-sign, e.arg))
        elif isinstance(e, Const) and e.value == 0:
            continue
        else:
            out.append((sign, e))
    return out


def _plan_parity(task: Task) -> int | None:
    """Parity of every plan's cost: the parity of its steps (:func:`~.facts.plan_parity`),
    when every action costs 1."""
    return plan_parity(task.model) if task.unit_costs else None


@dataclass
class Outcome:
    """How an informed search ended, before it becomes a :class:`~cpsolve.answers.result.Result`.

    * ``path`` — the states of the plan found (``None``: none);
    * ``bound`` — a proven lower bound on the optimal cost (None: nothing proven);
    * ``stop`` — ``"goal"``, ``"exhausted"`` (no plan at all, or none cheaper
      than the caller's ``upper``), ``"limit"`` (the caller's budget) or
      ``"cap"`` (the search's own memory cap);
    * ``explored`` — states stored (A*) or expanded (IDA*);
    * ``message`` — how a search that ended ``"exhausted"`` without an ``upper`` proved
      there is no plan, in words ("": by storing every reachable state once, as A* does).
    """

    path: list[State] | None
    cost: int | None
    bound: int | None
    stop: str
    explored: int
    details: dict[str, object] = field(default_factory=dict)
    message: str = ""


def no_plan(expanded: int, iterations: int, threshold: int, paths: str) -> Outcome:
    """The end of an IDA* whose iteration at ``threshold`` pruned nothing and met no goal:
    no plan exists, since ``paths`` (the paths it follows, in words) all ended short of one.
    ``expanded`` counts a state again for each path to it, in every iteration."""
    return Outcome(None, None, None, "exhausted", expanded,
                   {"iterations": iterations, "threshold": threshold},
                   f"goal unreachable: IDA*'s iteration at threshold {threshold} pruned "
                   f"nothing: {paths} were followed to their ends without meeting a goal; "
                   f"{plural(expanded, 'state')} expanded over "
                   f"{plural(iterations, 'iteration')}, a state again for each path to it")
