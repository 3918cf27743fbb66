"""Pattern databases from a model's declared patterns (:attr:`~cpsolve.model.Planning.patterns`).

Nothing here knows puzzles; everything is derived from the actions:

* the values each database keeps: the pattern's values and every constant
  the actions compare a variable with or write (a sliding puzzle's blank);
  all other values become one "don't care" value (:mod:`.pdb_build`);
* whether the databases may be **added** (:func:`additive`): every move,
  read off each action's relation on the variables it uses, changes where
  the values of at most one pattern are.  Then each database charges only
  the moves of its own values (moves of "don't care" values cost 0 in it) and
  the sum of their distances is still a lower bound; otherwise each charges
  every move and the largest is used;
* that each pattern value occurs exactly once in every state
  (:func:`check_unique`): once in the goal, and every move permutes the
  values it changes.  A table is then indexed by where the values are.

Tables are built on demand and cached on disk (:mod:`.pdb_store`), keyed by
a hash of what they depend on: variables, actions, goal and abstraction —
not the initial state, so every instance of a puzzle shares them.  A build
stopped by a limit is saved there too and resumed by the next run; until it
is finished its table is still a lower bound (:class:`.pdb_build.Partial`).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter

import numpy as np

from ....answers.result import Unsupported
from ....language.expr import Binary, Const, Expr, Var, children, to_text
from ....model import MAX_PATTERN_ENTRIES
from ..common import Budget
from ..compile import Task
from ..emit import build
from ..statespace.backward import TooLarge, relation
from ..statespace.packing import Packed, Unpackable
from .pdb_build import Abstraction, BuildError
from .pdb_loaded import table_bytes
from .pdb_store import OneTable, unwritable

FORMAT = 1
"""Version of the cached tables' layout (part of the cache key)."""


class PatternSet:
    """The databases of a task: ``h(state)``, and what the fast IDA* needs.

    * ``tables[p]`` — bytes, indexed by ``sum(weight[p][v] * i)`` over the
      variables ``i`` holding pattern ``p``'s values ``v``;
    * ``additive`` — whether the entries are summed (else the largest is used);
    * ``cached`` — per table, whether it came from the cache;
    * ``reached`` — per table, None when it is finished, else the distance
      its stopped build completed (-1: not started), its unset entries read
      as one more (:meth:`.pdb_build.Partial.estimate`);
    * ``stop`` — why a build was stopped ("" when none was);
    * ``notes`` — cached files that were not used and saved builds resumed (and, when a
      resumed build got no layer further in this run, why), one line each;
    * ``unsaved`` — why tables built in this run (or their stopped builds) could not be
      saved for the next run, naming the cache folder (``""``: saved, or nothing to save).
    """

    def __init__(self, task: Task, abstractions: list[Abstraction], tables: list[bytes],
                 cached: list[bool], reached: list[int | None] | None = None,
                 stop: str = "", notes: list[str] | None = None, unsaved: str = "") -> None:
        self.abstractions = abstractions
        self.additive = abstractions[0].additive
        self.tables = tables
        self.cached = cached
        self.reached = reached or [None] * len(tables)
        self.stop = stop
        self.notes = notes or []
        self.unsaved = unsaved
        n = len(task.names)
        self.weight = [{v: n ** j for j, v in enumerate(ab.pattern)} for ab in abstractions]
        low, high = min(task.lo), max(task.hi)
        namespace: dict[str, object] = {}
        parts = []
        for p, w in enumerate(self.weight):
            namespace[f"T{p}"] = tables[p]
            terms = []
            for i in range(n):
                contrib = tuple(w.get(v, 0) * i for v in range(low, high + 1))
                if any(contrib):
                    namespace[f"C{p}_{i}"] = contrib
                    terms.append(f"C{p}_{i}[s[{i}]{f' - {low}' if low else ''}]")
            parts.append(f"T{p}[{' + '.join(terms) or '0'}]")
        joined = " + ".join(parts) if self.additive else f"max({', '.join(parts)})"
        self.h = build(f"def h(s):\n    return {joined}\n", namespace, "h")

    def index(self, p: int, state) -> int:
        """Where pattern ``p``'s values are in ``state``, as its table's index."""
        w = self.weight[p]
        return sum(w.get(v, 0) * i for i, v in enumerate(state))

    @property
    def partial(self) -> bool:
        """Whether some table is not finished (its build was stopped or not started)."""
        return any(r is not None for r in self.reached)

    @property
    def useful(self) -> bool:
        """Whether some table holds more than zeros (a finished one, or a build that
        completed distance 0 or more)."""
        return any(r is None or r >= 0 for r in self.reached)

    def describe(self) -> str:
        """One line: the patterns, how they combine, and how far partial ones were built."""
        sizes = "+".join(str(len(ab.pattern)) for ab in self.abstractions)
        how = "added" if self.additive else "largest"
        text = f"pattern databases {sizes} ({how})"
        if self.partial:
            each = [f"table {p} " + ("finished" if r is None else "not started" if r < 0
                                     else f"to distance {r}")
                    for p, r in enumerate(self.reached, 1)]
            text += (f", partial ({self.stop} while building them: {', '.join(each)}; "
                     "unfinished entries read as one more than the distance reached; "
                     f"{next_run(self.unsaved)})")
        else:
            text += ", cached" if all(self.cached) else ", built now"
            if self.unsaved:
                text += f" ({next_run(self.unsaved)})"
        return "; ".join([text, *self.notes])


def next_run(unsaved: str) -> str:
    """What the next run does with the tables of this one (``unsaved``: why they could not
    be saved, ``""`` when they were)."""
    if unsaved:
        return "not saved: the next run starts over"
    return "the next run resumes the build"


def constants(task: Task) -> set[int]:
    """Constants the actions compare a variable with (``==``, ``!=``) or write."""
    out: set[int] = set()
    for a in task.actions:
        todo: list[Expr] = [a.guard]
        while todo:
            e = todo.pop()
            if isinstance(e, Binary) and e.op in ("==", "!="):
                for x, y in ((e.left, e.right), (e.right, e.left)):
                    if isinstance(x, Var) and isinstance(y, Const):
                        out.add(int(y.value))
            todo.extend(children(e))
        out |= {int(e.value) for _, e in a.effects if isinstance(e, Const)}
    return out


def _relations(task: Task, packed: Packed):
    for k in range(len(task.actions)):
        rel = relation(packed, k)
        if rel is not None:
            yield k, rel


def additive(task: Task, packed: Packed, patterns: list[tuple[int, ...]]) -> bool:
    """True when every move changes where the values of at most one pattern are."""
    low, high = min(task.lo), max(task.hi)
    owner = np.full(high - low + 1, -1, np.int64)
    for p, values in enumerate(patterns):
        for v in values:
            if low <= v <= high:
                owner[v - low] = p
    for k, (_, before, after) in _relations(task, packed):
        ids = []
        for i in packed.writes[k]:
            changed = before[i] != after[i]
            ids += [np.where(changed, owner[before[i] - low], -1),
                    np.where(changed, owner[after[i] - low], -1)]
        if not ids:
            continue
        stack = np.stack(ids)
        top = stack.max(axis=0)
        least = np.where(stack < 0, top, stack).min(axis=0)
        if (least != top).any():
            return False
    return True


def check_unique(task: Task, packed: Packed, patterns: list[tuple[int, ...]]) -> None:
    """Raise :class:`Unsupported` unless each pattern value occurs once in every state."""
    goal = task.goal_state
    if goal is None:
        raise Unsupported("search: pattern databases need a goal that is a single state")
    for values in patterns:
        for v in values:
            if goal.count(v) != 1:
                raise Unsupported(f"search: pattern value {v} occurs {goal.count(v)} times in "
                                  "the goal; pattern databases need values that occur once")
    for k, (_, before, after) in _relations(task, packed):
        writes = packed.writes[k]
        if writes and not (np.sort(np.stack([before[i] for i in writes]), axis=0) ==
                           np.sort(np.stack([after[i] for i in writes]), axis=0)).all():
            raise Unsupported(f"search: action {task.action_names[k]!r} does not just move "
                              "values around, so pattern values may not stay unique")


def arrangements(task: Task, ab: Abstraction) -> int:
    """How many abstract states there can be: the arrangements of the goal's abstract
    values over the variables (moves only permute values: the caller checks it), an upper
    bound on the states a build meets."""
    goal = task.goal_state
    if goal is None:
        raise BuildError("the goal is not a single state")
    counts = Counter(v if v in ab.kept else None for v in goal)
    out = math.factorial(len(goal))
    for c in counts.values():
        out //= math.factorial(c)
    return out


def model_key(task: Task, ab: Abstraction) -> str:
    """Hash of everything a table depends on (not the initial state)."""
    h = hashlib.sha256()
    h.update(repr((FORMAT, task.names, task.lo, task.hi, task.goal_state, ab)).encode())
    for a in task.actions:
        effects = [(v, to_text(e)) for v, e in a.effects]
        h.update(repr((a.name, to_text(a.guard), effects, to_text(a.cost))).encode())
    return h.hexdigest()[:32]


def pattern_set(task: Task, budget: Budget | None = None) -> PatternSet:
    """The databases of ``task.model.patterns``, from the cache or built now.

    Tables are built smallest first.  When ``budget`` runs out during a build,
    the build is saved (:mod:`.pdb_store`) and the set comes back *partial*:
    that table as far as it got, the tables not reached yet from their own
    saved builds or cache entries if any, else zeros (see
    :attr:`PatternSet.reached`).  Raises :class:`Unsupported` when the
    patterns do not fit the model.
    """
    patterns = task.model.patterns
    try:
        packed = Packed(task)
        check_unique(task, packed, patterns)
        adds = additive(task, packed, patterns)
        kept = constants(task)
        n = len(task.names)
        abstractions = [Abstraction(tuple(p), tuple(sorted(kept | set(p))), adds)
                        for p in patterns]
        for number, ab in enumerate(abstractions, 1):
            if n ** len(ab.pattern) > MAX_PATTERN_ENTRIES:
                raise Unsupported(f"search: pattern {number} has {len(ab.pattern)} values; "
                                  f"its table would hold {n ** len(ab.pattern):,} entries")
        count = len(abstractions)
        tables: list[bytes] = [b""] * count
        cached, reached = [False] * count, [None] * count
        notes: list[str] = []
        stop = ""
        order = sorted(range(count), key=lambda p: len(abstractions[p].pattern))
        each = {p: OneTable(model_key(task, abstractions[p]), task, abstractions[p], p + 1,
                            count, budget, notes) for p in order}
        for j, p in enumerate(order):
            built = each[p]
            built.whole = arrangements(task, abstractions[p])
            built.later = sum(arrangements(task, abstractions[q]) for q in order[j + 1:]
                              if not each[q].finished())
            if stop:
                table, reached[p] = built.saved()
            else:
                table, cached[p], reached[p], stop = built.load_or_build(packed)
            tables[p] = table_bytes(table)
    except (Unpackable, TooLarge, BuildError) as exc:
        raise Unsupported(f"search: pattern databases: {exc}") from exc
    unsaved = next((t.unsaved for t in each.values() if t.unsaved), "")
    if not unsaved and not all(cached):  # a build stopped before it had a layer to save too
        unsaved = unwritable()
    return PatternSet(task, abstractions, tables, cached, reached, stop, notes, unsaved)
