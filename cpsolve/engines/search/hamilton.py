"""Hamiltonian-circuit search over bit masks (used by :mod:`.circuit`).

The successor variables of a :class:`~cpsolve.model.Circuit` and their
allowed values are a directed graph: node ``i`` may go to node ``j``
when ``names[i]`` may take ``j``.  Nodes are bits of ints (bit masks).

The search extends one path from a start node (fewest successors first) and
closes it when every node is on it:

* **order** (``solve``): the candidate with the fewest onward options comes
  first (Warnsdorff's degree rule), ties go to the smaller sum of its
  candidates' onward options (Pohl's rule); ``count`` keeps the plain order;
* **degrees**: every unvisited node needs a possible predecessor (an
  unvisited node or the path's end) and a possible successor (an unvisited
  node or the start), and not one and the same node; a node whose only
  possible predecessor is the path's end is the forced next move;
* **reservation**: when the start has one unvisited predecessor left it
  must be the last node, and so on backwards while the choice stays single:
  that tail chain is kept for the end;
* **conditions**: each conjunct is checked as soon as its variables are
  assigned; with one variable left it removes that variable's failing values
  (arcs) at once — e.g. a direction-breaking condition on the start.

Removed arcs go on a trail and come back on backtracking; the search keeps
its own stack, so circuits of thousands of nodes need no deep recursion.
Counting without listing also remembers how many circuits complete each
partial path (see :meth:`Hamilton.run`).
"""

from __future__ import annotations

from collections.abc import Callable

from ...expr import conjuncts, variables
from ...model import Circuit, Condition, Csp
from ...result import Unsupported
from .common import Budget
from .emit import TooDeep, build, source

Solution = dict[str, int]

MEMO_MAX = 1 << 20
"""Most partial paths whose number of completions a count remembers."""
MEMO_CONDS = 64
"""Counting remembers partial paths only for models with at most this many condition parts."""


class Stop(Exception):
    """Ends the search early (enough solutions, or a limit)."""


class Hamilton:
    """A circuit compiled to bit masks, and its path search."""

    def __init__(self, model: Csp, circuit: Circuit) -> None:
        self.names = circuit.names
        n = self.n = len(self.names)
        index = {name: i for i, name in enumerate(self.names)}
        self.out, self.inn = [0] * n, [0] * n
        for i, name in enumerate(self.names):
            for j in model.values(name):
                if 0 <= j < n and (j != i or n == 1):
                    self.out[i] |= 1 << j
                    self.inn[j] |= 1 << i
        self.conds: list[tuple[Callable[[list], object], tuple[int, ...]]] = []
        self.conds_of: list[list[int]] = [[] for _ in range(n)]
        self.masks: list[int] = []  # the nodes each condition reads, as bits
        self.false = False
        for c in model.constraints:
            if isinstance(c, Condition):
                for part in conjuncts(c.expr):
                    self._condition(part, index)
        self.nodes = 0
        self.found = 0

    def _condition(self, expr, index: dict[str, int]) -> None:
        try:
            text = source(expr, lambda name: f"a[{index[name]}]", "c")
            fn = build(f"def holds(a):\n    return {text}\n", {}, "holds")
        except TooDeep as exc:
            raise Unsupported(f"search: {exc}") from exc
        xs = tuple(sorted(index[v] for v in variables(expr)))
        if not xs:
            self.false |= not fn([])
        elif len(xs) == 1:  # a given or a filter: remove the failing arcs once
            self._filter(fn, [None] * self.n, xs[0], self.out, self.inn, None)
        else:
            for x in xs:
                self.conds_of[x].append(len(self.conds))
            self.conds.append((fn, xs))
            self.masks.append(sum(1 << x for x in xs))

    @staticmethod
    def _filter(fn, vals: list, y: int, out: list[int], inn: list[int],
                trail: list | None) -> bool:
        """Remove the arcs ``y -> v`` for which ``fn`` fails; False if none is left."""
        rest = out[y]
        while rest:
            low = rest & -rest
            rest ^= low
            v = low.bit_length() - 1
            vals[y] = v
            if not fn(vals):
                if trail is not None:
                    trail.append((out, y, out[y]))
                    trail.append((inn, v, inn[v]))
                out[y] &= ~low
                inn[v] &= ~(1 << y)
        vals[y] = None
        return out[y] != 0

    def _assigned(self, x: int, vals: list, out: list[int], inn: list[int],
                  trail: list) -> bool:
        """Conditions after ``vals[x]`` was set: check, or filter the one free variable."""
        conds = self.conds
        for k in self.conds_of[x]:
            fn, xs = conds[k]
            free = [y for y in xs if vals[y] is None]
            if not free:
                if not fn(vals):
                    return False
            elif len(free) == 1 and not self._filter(fn, vals, free[0], out, inn, trail):
                return False
        return True

    def start(self) -> int:
        """The start node: fewest successors (then the lowest index)."""
        return min(range(self.n), key=lambda i: (self.out[i].bit_count(), i))

    # -- search

    def run(self, on_solution: Callable[[Solution], None] | None, budget: Budget,
            ordered: bool) -> None:
        """Find every circuit; ``self.found`` counts them.

        ``on_solution`` is called with each one (it raises :class:`Stop` to end
        early).  Without it the search only counts, and remembers how many
        circuits complete each partial path (keyed by the unvisited nodes, the
        path's end and the values that pending conditions still read), so a
        partial path that ends like one already explored costs nothing.
        """
        n = self.n
        if self.false or any(not o for o in self.out) or any(not i for i in self.inn):
            return
        out, inn = list(self.out), list(self.inn)
        if n == 1:
            vals = [0]
            if self._assigned(0, vals, out, inn, []):
                self._found(on_solution, vals)
            return
        s = self.start()
        memo: dict | None = {} if on_solution is None and len(self.conds) <= MEMO_CONDS else None
        vals: list = [None] * n
        unv = ((1 << n) - 1) ^ (1 << s)
        path, trail, marks = [s], [], []
        stack = [self._moves(s, unv, s, out, inn, ordered)]
        entries: list = [None]  # per frame: (memo key, circuits found before it)
        while stack:
            moves = stack[-1]
            if not moves:
                stack.pop()
                entry = entries.pop()
                if entry is not None and len(memo) < MEMO_MAX:  # type: ignore[arg-type]
                    memo[entry[0]] = self.found - entry[1]  # type: ignore[index]
                if len(path) > 1:
                    w = path.pop()
                    unv |= 1 << w
                    vals[path[-1]] = None
                    _undo(trail, marks.pop())
                continue
            w = moves.pop()
            self.nodes += 1
            if not self.nodes & 1023 and budget.exceeded(0, _line, self.nodes):
                raise Stop
            c = path[-1]
            left = unv ^ (1 << w)
            if not _degrees_ok(out, inn, c, w, s, left, n):
                continue
            marks.append(len(trail))
            vals[c] = w
            if not self._assigned(c, vals, out, inn, trail):
                vals[c] = None
                _undo(trail, marks.pop())
                continue
            path.append(w)
            unv = left
            if not unv:  # every node is on the path: close it, then backtrack
                if out[w] >> s & 1:
                    vals[w] = s
                    mark = len(trail)
                    if self._assigned(w, vals, out, inn, trail):
                        self._found(on_solution, vals)
                    vals[w] = None
                    _undo(trail, mark)
                stack.append([])
                entries.append(None)
            elif memo is None:
                stack.append(self._moves(w, unv, s, out, inn, ordered))
                entries.append(None)
            else:
                key = self._key(unv, w, vals)
                known = memo.get(key)
                if known is None:
                    stack.append(self._moves(w, unv, s, out, inn, ordered))
                    entries.append((key, self.found))
                else:
                    self.found += known
                    stack.append([])
                    entries.append(None)

    def _found(self, on_solution: Callable[[Solution], None] | None, vals: list) -> None:
        self.found += 1
        if on_solution is not None:
            on_solution(dict(zip(self.names, vals)))

    def _key(self, unv: int, w: int, vals: list) -> tuple:
        """What the rest of the search depends on: unvisited nodes, the end, pending values."""
        assigned = ~(unv | 1 << w)
        pending = 0
        for mask in self.masks:
            done = mask & assigned
            if done and done != mask:
                pending |= done
        if not pending:
            return unv, w
        return unv, w, tuple(vals[x] for x in bits(pending))

    @staticmethod
    def _moves(w: int, unv: int, s: int, out: list[int], inn: list[int],
               ordered: bool) -> list[int]:
        """The next nodes to try from ``w`` (tried from the end of the list)."""
        cands = out[w] & unv
        forced = -1
        rest = cands
        while rest:
            low = rest & -rest
            rest ^= low
            if not inn[low.bit_length() - 1] & unv:  # only w can precede it
                if forced >= 0:
                    return []
                forced = low.bit_length() - 1
        # the tail chain: nodes that must end the path, in reverse order
        tail, free = s, unv
        while True:
            p = inn[tail] & free
            if not p:
                if free:
                    return []  # the chain cannot reach the rest
                break
            if p & (p - 1) or p == free:
                break
            free ^= p
            tail = p.bit_length() - 1
        cands &= free
        if forced >= 0:
            return [forced] if cands >> forced & 1 else []
        moves = []
        while cands:
            low = cands & -cands
            cands ^= low
            moves.append(low.bit_length() - 1)
        if ordered and len(moves) > 1:
            moves.sort(key=lambda u: _rank(u, unv, out), reverse=True)
        return moves


def _rank(u: int, unv: int, out: list[int]) -> tuple[int, int]:
    """Warnsdorff's degree of ``u``, then Pohl's sum of its candidates' degrees."""
    onward = out[u] & unv
    left = unv & ~(1 << u)
    total, rest = 0, onward
    while rest:
        low = rest & -rest
        rest ^= low
        total += (out[low.bit_length() - 1] & left).bit_count()
    return onward.bit_count(), total


def _degrees_ok(out: list[int], inn: list[int], c: int, w: int, s: int, left: int,
                n: int) -> bool:
    """After the move ``c -> w``: each node that lost an option still has a way in and out."""
    bw, bs = 1 << w, 1 << s
    if left and not out[w] & left:
        return False
    pool_in, pool_out = left | bw, left | bs
    touched = (out[c] | inn[w]) & left
    while touched:
        low = touched & -touched
        touched ^= low
        u = low.bit_length() - 1
        ways_in, ways_out = inn[u] & pool_in, out[u] & pool_out
        if not ways_in or not ways_out:
            return False
        if ways_in == ways_out and not ways_in & (ways_in - 1) and n > 2:
            return False
    return True


def bits(mask: int) -> list[int]:
    """The nodes of a bit mask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


def _undo(trail: list, mark: int) -> None:
    while len(trail) > mark:
        array, i, old = trail.pop()
        array[i] = old


def _line(nodes: int) -> str:
    return f"circuit search: {nodes:,} nodes"
