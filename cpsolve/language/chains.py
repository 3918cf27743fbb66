"""Chained comparisons in Python code (``1 < a < 4``), read from the calling byte code.

Python evaluates ``x < a < y`` as ``(x < a) and (a < y)``: it asks the truth
of the first comparison, and the value of the whole chain is the last one.
An expression has no truth value, so ``Expr.__bool__`` answers True only when the
byte code calling it is a comparison chain (``SWAP, COPY, COMPARE_OP`` just
before, :func:`in_chain`), and remembers the comparison with the frame; the next
comparison built in that frame takes it back (:func:`take`) and joins it with ``and``.
Anywhere else ``bool()`` raises.  This module knows frames, not expression nodes.
"""

from __future__ import annotations

import dis
import threading

_PENDING = threading.local()
_CHAIN_FILLER = {"CACHE", "COPY", "TO_BOOL", "EXTENDED_ARG", "NOP"}


def in_chain(frame, expr: object) -> bool:
    """Is ``frame`` asking the truth of ``expr`` inside a comparison chain? Then remember it."""
    code, at = frame.f_code, frame.f_lasti
    instructions = [i for i in dis.get_instructions(code) if i.offset <= at]
    k = len(instructions) - 2  # instructions[-1] is the jump asking for the truth
    while k >= 0 and instructions[k].opname in _CHAIN_FILLER:
        k -= 1
    if k < 2 or [i.opname for i in instructions[k - 2:k + 1]] != ["SWAP", "COPY", "COMPARE_OP"]:
        return False
    later = [i.offset for i in dis.get_instructions(code)
             if i.offset > at and i.opname == "COMPARE_OP"]
    _PENDING.item = (frame, later[0] if later else -1, expr)
    return True


def take(frame) -> object | None:
    """The first part of a chain pending in ``frame`` (remembered by :func:`in_chain`) when
    the comparison being built in ``frame`` continues that chain, else None; either way
    nothing stays pending."""
    pending = getattr(_PENDING, "item", None)
    if pending is None:
        return None
    _PENDING.item = None
    if pending[0] is not frame or pending[1] != frame.f_lasti:
        return None  # not the comparison that continues the chain
    return pending[2]
