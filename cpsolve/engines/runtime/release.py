"""Release later: an engine's large structures are freed after its answer, not before it.

Freeing a search's tables — dicts and heaps of a million states — is one loop in C that
takes a second or two on a loaded machine, and no signal handler runs meanwhile.  An
engine that frees them on its way back (its frame's locals, as it returns) keeps a Ctrl-C
that came just before waiting, and the stop escalates
(:data:`~cpsolve.engines.runtime.interrupt.ESCALATE`): the plan found and the bound proven
are lost.  So an engine hands such structures over (:func:`later`) as it returns, and the
engines' door (:func:`cpsolve.engines.run`) frees them (:func:`now`) once the result is
built — outside the engine's escalating block — and before the next engine starts.

The CLI's own process ends through ``os._exit`` right after its answer
(:func:`cpsolve.__main__.leave`): freeing is wasted time there, which would come after the
time limit, so its command runs inside :func:`until_exit` and the door keeps what it is
handed after a result (a batch's next engine still frees what the previous one left).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_held: list[object] = []
"""What engines handed over, not yet freed."""

_exiting = [0]
"""How many :func:`until_exit` blocks are open: the process ends without freeing."""


def later(*things: object) -> None:
    """Keep ``things`` (an engine's tables, dropped by the engine) until :func:`now`."""
    _held.extend(things)


def held() -> int:
    """How many structures are waiting to be freed."""
    return len(_held)


def now(before_next: bool = False) -> None:
    """Free what :func:`later` holds: called by :func:`cpsolve.engines.run` after it built
    its result (not inside :func:`until_exit`), and with ``before_next`` before an engine
    starts (always: a batch's memory must not grow with each engine run)."""
    if _exiting[0] and not before_next:
        return
    things = _held[:]
    _held.clear()
    del things  # the last references: freed here


@contextmanager
def until_exit(ending: bool = True) -> Iterator[None]:
    """``ending``: the process ends (``os._exit``) after the block's answers, so a result is
    not followed by freeing what its engine handed over.  ``False``: the block just runs."""
    _exiting[0] += bool(ending)
    try:
        yield
    finally:
        _exiting[0] -= bool(ending)
