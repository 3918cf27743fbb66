"""What the planning driver (:mod:`.planning`) adds to the plain time-indexed model, and
which of those additions are switched off."""

from __future__ import annotations

ADDITIONS = ("hint", "descend", "solution_hint", "estimate", "parity", "undo", "commuting",
             "shortcut", "distinct")
"""What the driver adds to the plain time-indexed model, each of which can be switched off
(:data:`OFF`): the hint as a bound, working down from it, the hint as CP-SAT's solution
hint (costs: the horizon of its length), the declared estimate (first horizon and a bound
at every step), the parity of plan lengths, no action followed by its inverse, independent
neighbours in one order, no two steps in a row that one step or none replaces (unit costs:
:func:`.pairs.shortcuts`), states two steps apart differing.  (Derived mutexes — a tile on
one cell only, posted at every step — were tried and measured: sliding puzzles 0.96 to 1.38
times the time without them; not kept.)"""
OFF: frozenset[str] = frozenset()
"""Additions switched off: for ``benchmarks/cpsat_long.py``'s ablation table only (each
one only prunes or bounds, so the answers stay the same)."""


def estimate() -> bool:
    """Whether each state's estimate bounds the cost still to come (:data:`OFF`)."""
    return "estimate" not in OFF
