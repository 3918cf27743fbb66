"""Packing states into one int64 when the fields fill 63-64 bits (a 15-puzzle's sixteen
4-bit cells): codes keep the order of state tuples, and the NumPy analysis agrees with
the plain Python one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace import backward
from cpsolve.engines.search.statespace.backward import Backward
from cpsolve.engines.search.statespace.codesets import distinct, fresh
from cpsolve.engines.search.statespace.packing import SIGN, Packed
from cpsolve.files import load
from cpsolve.model import Planning

MODELS = Path(__file__).resolve().parents[2] / "models"


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


# ---------------------------------------------------------------- sets of codes and merged tables


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, (1 << 62) - 1), max_size=40),
       st.lists(st.lists(st.integers(0, (1 << 62) - 1), max_size=30), max_size=3),
       st.booleans())
def test_fresh_codes_are_the_new_distinct_ones_sorted(raw, earlier, room):
    small = [c % 64 for c in raw]  # repeats and overlaps, not only distinct huge numbers
    raw_codes = np.array(raw + small, np.int64)
    layers = [np.unique(np.array(layer + [c % 64 for c in layer], np.int64)) for layer in earlier]
    want = sorted(set(raw + small) - {c for layer in layers for c in layer.tolist()})
    assert fresh(raw_codes.copy(), layers, room).tolist() == want
    assert distinct(raw_codes.copy()).tolist() == sorted(set(raw + small))


@pytest.mark.parametrize("name", ["eight_puzzle", "hanoi4", "three_jugs", "blocks",
                                  "water_jugs", "hoppers", "line_puzzle"])
def test_merged_tables_find_the_predecessors_table_by_table(name, monkeypatch):
    task = compile_planning(load(MODELS / f"{name}.toml").model)
    packed = Packed(task)
    merged = Backward(packed)
    monkeypatch.setattr(backward, "MAX_MERGED", 0)
    plain = Backward(packed)
    assert any(m is not None for *_, m in merged.groups)
    assert all(m is None for *_, m in plain.groups)
    layer = np.array([packed.encode(task.initial)], np.int64)
    for _ in range(6):  # a few forward layers as the states to step back from
        assert sorted(merged.step(layer).tolist()) == sorted(plain.step(layer).tolist())
        layer = distinct(packed.forward(layer))
