"""Hamiltonian-circuit search over bit masks (used by :mod:`.circuit`).

The successor variables of a :class:`~cpsolve.model.csp.Circuit` and their
allowed values are a directed graph: node ``i`` may go to node ``j`` when
``names[i]`` may take ``j``.  Nodes are bits of ints (bit masks).

The search grows one path at both ends from a start node (fewest successors
first): a *forward* step picks the successor of the head, a *backward* step
the predecessor of the tail, and the path closes (head -> tail) once every
node is on it.

* **ends** (``solve``): each step extends the end with fewer candidates.
  A path grown from one end must come back next to its start at the very
  end, and a greedy order tends to cut that way back off in long, narrow
  graphs (measured: many failures); two ends meet wherever the last free
  nodes are.  A complete ``count`` goes forward unless the tail is forced
  (measured: a smaller tree, as more partial paths end alike);
* **order** (``solve``): the candidate with the fewest onward options comes
  first (Warnsdorff's degree rule; onward = successors going forward,
  predecessors going backward), ties go to the smaller sum of its
  candidates' onward options (Pohl's rule); ``count`` keeps the plain order;
* **degrees**: every node off the path needs a possible predecessor (off
  the path, or the head) and a possible successor (off the path, or the
  tail), and not one and the same node; a node whose only possible
  predecessor is the head (successor: the tail) is the forced next step;
* **conditions**: each conjunct is checked as soon as its variables are
  assigned; with one variable left it removes that variable's failing values
  (arcs) at once — e.g. a direction-breaking condition on the start;
* **memory**: partial paths that end alike are explored once (see
  :meth:`Hamilton.run`).

Removed arcs go on a trail and come back on backtracking; the search keeps
its own stack, so circuits of thousands of nodes need no deep recursion.
"""

from __future__ import annotations

from collections.abc import Callable

from ....answers.words import plural
from ....model import Circuit, Csp
from ..common import Budget
from .arcs import ArcConditions
from .tally import Stop

Solution = dict[str, int]

MEMO_BYTES = 64 << 20
"""About the most memory the remembered partial paths may take."""
MEMO_CONDS = 64
"""Partial paths are remembered only for models with at most this many condition parts."""



class Hamilton:
    """A circuit compiled to bit masks, and its path search."""

    def __init__(self, model: Csp, circuit: Circuit) -> None:
        self.names = circuit.names
        n = self.n = len(self.names)
        self.out, self.inn = [0] * n, [0] * n
        for i, name in enumerate(self.names):
            for j in model.values(name):
                if 0 <= j < n and (j != i or n == 1):
                    self.out[i] |= 1 << j
                    self.inn[j] |= 1 << i
        self.cond = ArcConditions(model, self.names, self.out, self.inn)
        self.nodes = 0
        """Nodes so far; the budget is looked at on nodes 1, 1025, 2049…: the first look
        at once (past the memory limit from the start, nothing is proven)."""
        self.found = 0

    def start(self) -> int:
        """The start node: fewest successors (then the lowest index)."""
        return min(range(self.n), key=lambda i: (self.out[i].bit_count(), i))

    # -- search

    def run(self, on_solution: Callable[[Solution], None] | None, budget: Budget,
            ordered: bool) -> None:
        """Find every circuit; ``self.found`` counts them.

        ``on_solution`` is called with each one (it raises :class:`Stop` to end
        early).  The search remembers how many circuits complete each partial
        path it explored (keyed by the nodes off the path, its two ends and the
        values that pending conditions still read): a partial path that ends
        like one already explored is skipped when none completes it, and,
        when only counting (no ``on_solution``), whatever the number.
        """
        if self.cond.false or not all(self.out) or not all(self.inn):
            return
        out, inn = list(self.out), list(self.inn)
        if self.n == 1:
            vals = [0]
            if self.cond.assigned(0, vals, out, inn, []):
                self._found(on_solution, vals)
            return
        self._paths(on_solution, budget, ordered, out, inn)

    def _paths(self, on_solution: Callable[[Solution], None] | None, budget: Budget,
               ordered: bool, out: list[int], inn: list[int]) -> None:
        """The path search of :meth:`run` (two nodes or more), on its own stack of frames."""
        n = self.n
        memo, room = self._memo()
        counting = on_solution is None
        vals: list = [None] * n
        head = tail = self.start()
        free = ((1 << n) - 1) ^ (1 << head)  # the nodes off the path
        trail: list = []
        steps: list[tuple[bool, int, int]] = []  # (forward, end replaced, trail length)
        stack = [self._moves(head, tail, free, out, inn, ordered)]
        entries: list = [None]  # per frame: (memo key, circuits found before it)
        while stack:
            forward, moves = stack[-1]
            if not moves:  # frame done: remember its count, undo the step into it
                stack.pop()
                entry = entries.pop()
                if entry is not None and len(memo) < room:  # type: ignore[arg-type]
                    known = self.found - entry[1]
                    if counting or not known:
                        memo[entry[0]] = known  # type: ignore[index]
                if steps:
                    head, tail, free = _back(steps.pop(), head, tail, free, vals, trail)
                continue
            x = moves.pop()
            self.nodes += 1
            if not (self.nodes - 1) & 1023 and budget.exceeded(0, _line, self.nodes):
                raise Stop
            left = free ^ (1 << x)
            if forward:
                src, dst, h, t = head, x, x, tail
                touched = (out[head] | inn[x]) & left
            else:
                src, dst, h, t = x, tail, head, x
                touched = (inn[tail] | out[x]) & left
            if not _degrees_ok(out, inn, h, t, left, touched, n):
                continue
            mark = len(trail)
            vals[src] = dst
            if not self.cond.assigned(src, vals, out, inn, trail):
                vals[src] = None
                _undo(trail, mark)
                continue
            steps.append((forward, head if forward else tail, mark))
            head, tail, free = h, t, left
            if not free:  # every node is on the path: close it, then backtrack
                self._close(on_solution, head, tail, vals, out, inn, trail)
                stack.append(DONE)
                entries.append(None)
                continue
            key = None if memo is None else self._key(free, head, tail, vals)
            known = None if key is None else memo.get(key)  # type: ignore[union-attr]
            if known is None:  # (listing, only dead ends are remembered)
                stack.append(self._moves(head, tail, free, out, inn, ordered))
                entries.append(None if key is None else (key, self.found))
            else:
                self.found += known
                stack.append(DONE)
                entries.append(None)

    def _memo(self) -> tuple[dict | None, int]:
        """The partial paths' memory (``None``: too many conditions to key it) and how many
        entries it may hold."""
        memo: dict | None = {} if len(self.cond.conds) <= MEMO_CONDS else None
        return memo, MEMO_BYTES // (self.n // 8 + 120)

    def _close(self, on_solution: Callable[[Solution], None] | None, head: int, tail: int,
               vals: list, out: list[int], inn: list[int], trail: list) -> None:
        """Every node is on the path: a circuit when the head may go to the tail."""
        if out[head] >> tail & 1:
            vals[head] = tail
            mark = len(trail)
            if self.cond.assigned(head, vals, out, inn, trail):
                self._found(on_solution, vals)
            vals[head] = None
            _undo(trail, mark)

    def _found(self, on_solution: Callable[[Solution], None] | None, vals: list) -> None:
        self.found += 1
        if on_solution is not None:
            on_solution(dict(zip(self.names, vals)))

    def _key(self, free: int, head: int, tail: int, vals: list) -> tuple:
        """What the rest of the search depends on: free nodes, ends, pending values."""
        pending = self.cond.pending(~(free | 1 << head))
        if not pending:
            return free, head, tail
        return free, head, tail, tuple(vals[x] for x in bits(pending))

    @staticmethod
    def _moves(head: int, tail: int, free: int, out: list[int], inn: list[int],
               ordered: bool) -> tuple[bool, list[int]]:
        """The end to extend (True: forward) and the nodes to try (from the list's end)."""
        ahead = _candidates(out[head] & free, inn, free)
        if ahead is None:
            return DONE
        behind = _candidates(inn[tail] & free, out, free)
        if behind is None:
            return DONE
        if ordered:  # the end with fewer candidates
            forward = ahead.bit_count() <= behind.bit_count()
        else:  # forward, unless the tail is forced
            forward = (behind & (behind - 1)) != 0
        cands, onward = (ahead, out) if forward else (behind, inn)
        moves = bits(cands)
        if ordered and len(moves) > 1:
            moves.sort(key=lambda u: _rank(u, free, onward), reverse=True)
        return forward, moves


DONE: tuple[bool, list[int]] = (True, [])
"""A frame with nothing (left) to try."""


def _candidates(cands: int, back: list[int], free: int) -> int | None:
    """``cands``, or the one of them that only this end can reach; ``None``: two such."""
    forced = 0
    rest = cands
    while rest:
        low = rest & -rest
        rest ^= low
        if not back[low.bit_length() - 1] & free:
            if forced:
                return None
            forced = low
    return forced or cands


def _rank(u: int, free: int, onward: list[int]) -> tuple[int, int]:
    """Warnsdorff's degree of ``u``, then Pohl's sum of its candidates' degrees."""
    left = free & ~(1 << u)
    near = onward[u] & left
    total, rest = 0, near
    while rest:
        low = rest & -rest
        rest ^= low
        total += (onward[low.bit_length() - 1] & left).bit_count()
    return near.bit_count(), total


def _degrees_ok(out: list[int], inn: list[int], head: int, tail: int, left: int,
                touched: int, n: int) -> bool:
    """After a step: the ends can go on, and each touched node has a way in and out."""
    if left and (not out[head] & left or not inn[tail] & left):
        return False
    pool_in, pool_out = left | 1 << head, left | 1 << tail
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


def _back(step: tuple[bool, int, int], head: int, tail: int, free: int, vals: list,
          trail: list) -> tuple[int, int, int]:
    """Undo ``step`` (forward or not, the end it replaced, the trail's length before it):
    the end it added leaves the path; the new ``(head, tail, free)``."""
    forward, old, mark = step
    if forward:
        free |= 1 << head
        vals[old] = None
        head = old
    else:
        free |= 1 << tail
        vals[tail] = None
        tail = old
    _undo(trail, mark)
    return head, tail, free


def _undo(trail: list, mark: int) -> None:
    while len(trail) > mark:
        array, i, old = trail.pop()
        array[i] = old


def _line(nodes: int) -> str:
    return f"circuit search: {plural(nodes, 'node')}"
