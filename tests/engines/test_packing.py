"""Packing states into one int64 when the fields fill 63-64 bits (a 15-puzzle's sixteen
4-bit cells): codes keep the order of state tuples, and the NumPy analysis agrees with
the plain Python one."""

from __future__ import annotations

import numpy as np

from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace.packing import SIGN, Packed
from cpsolve.model import Planning


def counters(n: int = 16, top: int = 15) -> Planning:
    """``n`` variables 0..``top``; the first and the last count up and down by one."""
    m = Planning("counters")
    xs = m.add_array("x", n, 0, top)
    m.set_initial({f"x[{i}]": 0 for i in range(n)})
    m.set_goal(xs[0] == top)
    for i in (0, n - 1):
        m.add_action(f"up {i}", xs[i] < top, {xs[i]: xs[i] + 1})
        m.add_action(f"down {i}", xs[i] > 0, {xs[i]: xs[i] - 1})
    return m


def test_sixteen_4_bit_fields_use_the_whole_word_in_order():
    task = compile_planning(counters())
    packed = Packed(task)
    assert packed.offset == SIGN and packed.shifts[0] == 60
    states = [(0,) * 16, (7,) + (15,) * 15, (8,) + (0,) * 15, (15,) * 16]
    codes = np.array([packed.encode(s) for s in states], np.int64)
    assert list(codes) == sorted(codes)  # tuple order kept across the sign bit
    assert packed.states(codes) == states


def test_numpy_analysis_across_the_sign_bit_matches_python():
    model = counters()
    fast = run("search", "analyze", model, Options(algorithm="numpy"))
    slow = run("search", "analyze", model, Options(algorithm="python"))
    assert "fallback" not in fast.details
    assert fast.states == slow.states == 16 * 16  # the two counters, independently
    assert fast.max_distance == slow.max_distance
    assert sorted(fast.farthest) == sorted(slow.farthest)
