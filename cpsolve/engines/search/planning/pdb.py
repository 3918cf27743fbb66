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

Tables are built on demand and cached on disk (:func:`cache_dir`), keyed by
a hash of what they depend on: variables, actions, goal and abstraction —
not the initial state, so every instance of a puzzle shares them.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np

from ....expr import Binary, Const, Expr, Var, children, to_text
from ....model import MAX_PATTERN_ENTRIES
from ....result import Unsupported
from ..common import Budget
from ..compile import Task
from ..emit import build
from ..statespace.backward import TooLarge, relation
from ..statespace.packing import Packed, Unpackable
from .pdb_build import Abstraction, BuildError, build_table

FORMAT = 1
"""Version of the cached tables' layout (part of the cache key)."""


def cache_dir() -> Path:
    """Where tables are cached: ``$CPSOLVE_CACHE_DIR``, else ``$XDG_CACHE_HOME/cpsolve``,
    else ``~/.cache/cpsolve``."""
    if os.environ.get("CPSOLVE_CACHE_DIR"):
        return Path(os.environ["CPSOLVE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cpsolve"


class Stopped(Exception):
    """A table was being built when the budget ran out (the message says which limit)."""


class PatternSet:
    """The databases of a task: ``h(state)``, and what the fast IDA* needs.

    * ``tables[p]`` — bytes, indexed by ``sum(weight[p][v] * i)`` over the
      variables ``i`` holding pattern ``p``'s values ``v``;
    * ``additive`` — whether the entries are summed (else the largest is used);
    * ``cached`` — per table, whether it came from the cache.
    """

    def __init__(self, task: Task, abstractions: list[Abstraction], tables: list[bytes],
                 cached: list[bool]) -> None:
        self.abstractions = abstractions
        self.additive = abstractions[0].additive
        self.tables = tables
        self.cached = cached
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

    def describe(self) -> str:
        """One line: the patterns and how they combine."""
        sizes = "+".join(str(len(ab.pattern)) for ab in self.abstractions)
        how = "added" if self.additive else "largest"
        return f"pattern databases {sizes} ({how})"


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

    Raises :class:`Stopped` when ``budget`` runs out during a build (tables
    finished before are cached), :class:`Unsupported` when the patterns do
    not fit the model.
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
        tables, cached = [], []
        for number, ab in enumerate(abstractions, 1):
            if n ** len(ab.pattern) > MAX_PATTERN_ENTRIES:
                raise Unsupported(f"search: pattern {number} has {len(ab.pattern)} values; "
                                  f"its table would hold {n ** len(ab.pattern):,} entries")
            table, hit = _load_or_build(task, packed, ab, number, len(abstractions), budget)
            tables.append(table.tobytes())
            cached.append(hit)
    except (Unpackable, TooLarge, BuildError) as exc:
        raise Unsupported(f"search: pattern databases: {exc}") from exc
    return PatternSet(task, abstractions, tables, cached)


def _load_or_build(task: Task, packed: Packed, ab: Abstraction, number: int, count: int,
                   budget: Budget | None) -> tuple[np.ndarray, bool]:
    path = cache_dir() / f"pdb-{model_key(task, ab)}.npy"
    size = len(task.names) ** len(ab.pattern)
    try:
        table = np.load(path)
        if table.dtype == np.uint8 and table.shape == (size,):
            return table, True
    except (OSError, ValueError):
        pass

    def progress(d: int, states: int) -> None:
        if budget is None:
            return
        if budget.progress is not None:
            budget.progress(f"pattern database {number}/{count} ({len(ab.pattern)} values): "
                            f"distance {d}, {states:,} abstract states")
        if budget.exceeded(0):
            raise Stopped(budget.reason)

    def tick() -> None:
        if budget is not None and budget.exceeded(0):
            raise Stopped(budget.reason)

    table = build_table(task, packed, ab, progress, tick)
    _save(path, table)
    return table, False


def _save(path: Path, table: np.ndarray) -> None:
    """Write atomically; a cache that cannot be written is skipped (the table still works)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.save(f, table)
        os.replace(tmp, path)
    except OSError:
        pass
