"""A circuit's chains for :mod:`.backtrack`: no early cycle, and the open chain's end
never points back to its head until the chain holds every node."""

from __future__ import annotations


def close(doms: list[int], vals: list, xs: list[int], node: int, succ: int, queue: list,
          base: int) -> bool:
    """After ``succ(node) = succ``: no early cycle; the open chain's end avoids its head."""
    n, count, tail = len(xs), 1, succ
    while tail != node:
        count += 1
        nxt = vals[xs[tail]]
        if nxt is None:
            break
        tail = nxt
    else:
        return count == n  # closed a cycle: only if it holds every node
    pred = {vals[x]: i for i, x in enumerate(xs) if vals[x] is not None}
    head = node
    while head in pred:
        head = pred[head]
        count += 1
    bit = 1 << (head - base) if head >= base else 0  # below base: in no domain
    d = doms[xs[tail]]
    d = d & bit if count == n else d & ~bit
    if not d:
        return False
    if d != doms[xs[tail]]:
        doms[xs[tail]] = d
        if not d & (d - 1):
            queue.append((xs[tail], d.bit_length() - 1 + base))
    return True
