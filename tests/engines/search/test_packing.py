"""Packing states into one int64 when the fields fill 63-64 bits (a 15-puzzle's sixteen
4-bit cells), and into several words beyond (Klotski: 85 bits): codes keep the order of
state tuples, sets of multi-word codes are sets, and the NumPy analysis agrees with the
plain Python one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_search import changes, conditions  # the search tests' random trees

from cpsolve import And
from cpsolve.engines import Options, run
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.statespace import backward
from cpsolve.engines.search.statespace.backward import Backward
from cpsolve.engines.search.statespace.codesets import distinct, fresh
from cpsolve.engines.search.statespace.packing import SIGN, Packed, Unpackable
from cpsolve.engines.search.statespace.wordsets import Recent as WordRecent
from cpsolve.engines.search.statespace.wordsets import Seen as WordSeen
from cpsolve.engines.search.statespace.wordsets import distinct as words_distinct
from cpsolve.engines.search.statespace.wordsets import fresh as words_fresh
from cpsolve.engines.search.statespace.wordsets import keys
from cpsolve.engines.search.statespace.wordsets import minus as words_minus
from cpsolve.language.expr import Var
from cpsolve.model import Planning
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[3] / "models"


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
    runs = np.concatenate([np.unique(raw_codes[i::3]) for i in range(3)])  # sorted runs, as
    assert fresh(runs, layers, room, True).tolist() == want  # the merges of pieces get


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


# ---------------------------------------------------------------- several words


def wide_planning(draw) -> Planning:
    """Two or three small variables (0..3) with random guards, effects and goal, among
    four 20-bit variables no action touches: 2 + 20 + 20 + 2 bits, then 20 + 20 + 2 —
    two words, with small variables in both, so moves write either word."""
    n = draw(st.integers(2, 3))
    small = tuple(f"x[{i}]" for i in range(n))
    m = Planning("wide")
    ballast = {}
    for name in (small[0], "w[0]", "w[1]", small[1], "w[2]", "w[3]", *small[2:]):
        if name.startswith("w"):
            lo = draw(st.integers(-5, 5))
            m.add_variable(name, lo, lo + 999_999)  # 20 bits
            ballast[name] = draw(st.integers(lo, lo + 999_999))
        else:
            m.add_variable(name, 0, 3)
    m.set_initial({**{x: draw(st.integers(0, 3)) for x in small}, **ballast})
    m.set_goal(And(*[Var(x) == draw(st.integers(0, 3)) for x in small],
                   *[Var(w) == v for w, v in ballast.items()]))
    for k in range(draw(st.integers(1, 4))):
        written = draw(st.lists(st.sampled_from(small), min_size=1, max_size=n, unique=True))
        m.add_action(f"a{k}", draw(conditions(small)),
                     {x: draw(changes(x, small)) for x in written})
    return m


wide_plannings = st.composite(wide_planning)


@settings(max_examples=150, deadline=None)
@given(wide_plannings(), st.sampled_from([None, "start"]), st.booleans())
def test_multi_word_analysis_matches_python(model, direction, tables):
    """Back from the goal (a single state here: stacked predecessor tables, several
    predecessors per key when a move forgets a value) and forward from the start (by the
    stacked tables or the compiled actions); moves random, so reversible or not."""
    from cpsolve.engines.search.statespace.vector import Prepared

    task = compile_planning(model)
    assert Packed(task, 4).words == 2
    saved = Prepared.forward
    if not tables:  # the compiled actions forward
        Prepared.forward = lambda self, codes: self.packed.forward(codes)
    try:
        fast = run("search", "analyze", model, Options(algorithm="numpy", direction=direction))
    finally:
        Prepared.forward = saved
    slow = run("search", "analyze", model, Options(algorithm="python", direction=direction))
    assert fast.details["algorithm"] == "numpy" and fast.details["words"] == 2
    for field in ("states", "layers", "max_distance", "farthest"):
        assert getattr(fast, field) == getattr(slow, field), field
    for key in ("reachable", "initial_distance"):
        assert fast.details.get(key) == slow.details.get(key), key


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 200), min_size=2, max_size=12),
       st.lists(st.lists(st.integers(0, 200), min_size=12, max_size=12), max_size=20))
def test_multi_word_codes_sort_like_state_tuples(sizes, raw):
    """Encoding then decoding gives the state back; sorting rows of codes word by word
    sorts the states as tuples."""
    m = Planning("sizes")
    for i, z in enumerate(sizes):
        m.add_variable(f"v[{i}]", -3, (1 << (7 * z % 14 + 6)) - 4)  # 6..19 bits each
    names = [f"v[{i}]" for i in range(len(sizes))]
    m.set_initial({n: 0 for n in names})
    m.set_goal(Var(names[0]) == 1)
    m.add_action("set", Var(names[0]) == 0, {names[0]: 1})
    task = compile_planning(m)
    packed = Packed(task, 64)
    states = [tuple(min(v * (1 << (v % 20)) - 3, hi) for v, hi in zip(row, task.hi))
              for row in raw]
    if sum((hi - lo).bit_length() for lo, hi in zip(task.lo, task.hi)) > 64:
        assert packed.words > 1
    codes = packed.array(states) if states else packed.empty()
    assert packed.states(codes) == states
    if packed.words > 1:
        order = np.lexsort(codes.T[::-1]) if states else []
        assert [states[i] for i in order] == sorted(states)
        assert (codes >= 0).all()  # every word non-negative: signed order is the tuples'


def test_the_words_hold_whole_fields_first_variable_first():
    task = compile_planning(counters(20, 15))  # 20 fields of 4 bits: 15 + 5 (63-bit words)
    packed = Packed(task, 2)
    assert packed.words == 2 and packed.word_of == [0] * 15 + [1] * 5
    assert packed.shifts[0] == 56 and packed.shifts[14] == 0 and packed.shifts[15] == 16
    with pytest.raises(Unpackable):
        Packed(task)  # one word only, as before: the callers that take one word


def colliding(n: int) -> np.ndarray:
    """Rows (a, b) and (a + 1, b + key(a, 0) - key(a + 1, 0)): the key is a function of
    the first word plus the last, so their keys are equal (modulo 2**64)."""
    a = np.arange(n, dtype=np.int64)
    zero = np.zeros(n, np.int64)
    shift = keys(np.stack([a, zero], 1)) - keys(np.stack([a + 1, zero], 1))
    return np.stack([np.stack([a, a * 7], 1), np.stack([a + 1, a * 7 + shift], 1)],
                    1).reshape(-1, 2)


def test_rows_with_colliding_keys_stay_apart():
    rows = colliding(50)
    assert len(set(keys(rows).tolist())) == 50  # 100 rows, 50 keys
    shuffled = np.concatenate([rows, rows[::-1], rows[::3]])
    key, got = words_distinct(shuffled)
    assert sorted(map(tuple, got.tolist())) == sorted(set(map(tuple, rows.tolist())))
    half = words_distinct(rows[::2])
    rest = words_minus(words_distinct(shuffled), half)[1]
    assert sorted(map(tuple, rest.tolist())) == sorted(map(tuple, rows[1::2].tolist()))
    seen = WordSeen(2)
    assert len(seen.fresh(rows[::2])) == 50 and len(seen.fresh(shuffled)) == 50
    assert all(tuple(r) in seen for r in rows.tolist())
    assert (1 << 40, 3) not in seen


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 3)),
                max_size=60),
       st.lists(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 3)),
                         max_size=30), max_size=4))
def test_word_sets_are_python_sets(raw, earlier):
    def rows(items):
        return np.array(items, np.int64).reshape(-1, 3)

    layers = [words_distinct(rows(layer)) for layer in earlier]
    key, new = words_fresh(rows(raw), layers)
    assert sorted(map(tuple, new.tolist())) == sorted(
        set(raw) - {t for layer in earlier for t in layer})
    assert (key[1:] >= key[:-1]).all()  # ordered by key
    seen, recent, everything, kept = WordSeen(3), WordRecent(3), set(), [set(), set()]
    for layer in earlier + [raw]:
        got = seen.fresh(rows(layer))
        assert sorted(map(tuple, got.tolist())) == sorted(set(layer) - everything)
        everything |= set(layer)
        new = set(layer) - kept[0] - kept[1]
        assert sorted(map(tuple, recent.fresh(rows(layer)).tolist())) == sorted(new)
        kept = [kept[1], new]
    assert all(t in seen for t in everything) and seen.count == len(everything)
    assert all(t in recent for t in kept[0] | kept[1])
    assert all(t not in recent for t in everything - kept[0] - kept[1])


def test_klotski_numpy_analysis_on_two_words_matches_python():
    """Klotski's states (20 cells of 4 bits and the last moved piece: 85 bits) analysed on
    two words, against Python sets; the positions without the last moved piece are the
    25,955 the model file cites (its brute force in tests/puzzles/test_sliding.py)."""
    model = load(MODELS / "klotski.toml").model
    fast = run("search", "analyze", model, Options(algorithm="numpy"))
    slow = run("search", "analyze", model, Options(algorithm="python"))
    assert fast.details["algorithm"] == "numpy" and fast.details["words"] == 2
    assert "fallback" not in fast.details
    for field in ("states", "layers", "max_distance", "farthest"):
        assert getattr(fast, field) == getattr(slow, field), field


TWENTY_FOUR = """family = "sliding"
name = "24-puzzle"
start = '''
 1  2  3  4  5
 6  7  8  9 10
11 12 13 14 15
16 17 18 19 20
21 22 23  _ 24
'''
goal = '''
 1  2  3  4  5
 6  7  8  9 10
11 12 13 14 15
16 17 18 19 20
21 22 23 24  _
'''
"""


@pytest.mark.parametrize("direction", ["goal", "start"])
def test_24_puzzle_layers_on_three_words_match_python(direction, tmp_path):
    """25 cells of 5 bits (125 bits: three words of 12, 12 and 1 fields); every slide can
    be undone, so only the last two layers are kept (the reversible case)."""
    path = tmp_path / "twenty_four.toml"
    path.write_text(TWENTY_FOUR)
    model = load(path).model
    fast = run("search", "analyze", model,
               Options(algorithm="numpy", direction=direction, limit=20_000))
    slow = run("search", "analyze", model,
               Options(algorithm="python", direction=direction, limit=20_000))
    assert fast.details["words"] == 3 and fast.details["reversible"] is True
    complete = min(len(fast.layers), len(slow.layers)) - 1  # python may stop mid-layer
    assert fast.layers[:complete] == slow.layers[:complete]
    # the goal's blank is in a corner: 2 slides, then 2 more from each (not back); the
    # start's is beside it on the edge: 3 slides, then 3 + 2 + 1 (centre, edge, corner)
    assert fast.layers[:3] == ((1, 2, 4) if direction == "goal" else (1, 3, 6))


@pytest.mark.parametrize("name", ["eight_puzzle", "hanoi4", "three_jugs", "hoppers",
                                  "onoff", "fifteen_puzzle", "klotski", "line_puzzle"])
def test_stacked_tables_find_the_successors_and_predecessors(name):
    """The stacked tables against the compiled guards and effects forward, and against the
    per-action predecessor tables backward, on one-word codes (mixed radix: Hanoi; bit
    fields: the 8-puzzle; the sign bit: the 15-puzzle) and forward on two (Klotski), a few
    layers from the start."""
    from cpsolve.engines.search.statespace.stacked import Stacked
    from cpsolve.engines.search.statespace.vector import Prepared

    task = compile_planning(load(MODELS / f"{name}.toml").model)
    ready = Prepared(task)
    packed = ready.packed
    forward = Stacked(packed, ready.relations)
    backward = Stacked(packed, ready.relations, backward=True) if packed.words == 1 else None
    layer = packed.array([task.initial])
    for _ in range(6):
        want = packed.states(packed.forward(layer))
        assert sorted(packed.states(forward.step(layer))) == sorted(want)
        if backward is not None:
            assert sorted(packed.states(backward.step(layer))) == sorted(
                packed.states(ready.backward().step(layer)))
        layer = packed.array(sorted(set(want)))


@pytest.mark.parametrize("merge", [True, False])
def test_predecessor_tables_agree_on_three_words(merge, tmp_path, monkeypatch):
    """The per-action and merged predecessor tables (:mod:`.backward`, a delta per word)
    and the stacked ones (:mod:`.stacked`, what the analysis uses on several words) find
    the same predecessors of a few 24-puzzle layers."""
    from cpsolve.engines.search.statespace.stacked import Stacked
    from cpsolve.engines.search.statespace.vector import Prepared

    if not merge:
        monkeypatch.setattr(backward, "MAX_MERGED", 0)
    path = tmp_path / "twenty_four.toml"
    path.write_text(TWENTY_FOUR)
    task = compile_planning(load(path).model)
    ready = Prepared(task)
    packed = ready.packed
    tables = Backward(packed, ready.relations)
    assert any(m is not None for *_, m in tables.groups) is merge
    stacked = Stacked(packed, ready.relations, backward=True)
    layer = packed.array([task.goal_state])
    for _ in range(7):
        want = sorted(packed.states(stacked.step(layer)))
        assert sorted(packed.states(tables.step(layer))) == want
        layer = packed.array(sorted(set(want)))


def test_a_layer_too_long_for_the_time_left_is_not_started(tmp_path, monkeypatch):
    """A big layer's new codes are one long NumPy step that cannot look at the clock: when
    the last big layer's pace says it would end past the time limit, the analysis stops
    before it, with its complete layers, instead of being cut off by the command's clock."""
    from cpsolve.engines.search import common
    from cpsolve.engines.search.statespace import vector

    monkeypatch.setattr(vector, "GROWTH", 1e9)  # any big layer looks endless
    path = tmp_path / "twenty_four.toml"
    path.write_text(TWENTY_FOUR)
    result = run("search", "analyze", load(path).model,
                 Options(time_limit=600, direction="start"))
    assert result.status.value == "partial"
    assert "would end past it" in result.message
    # the layers kept are complete: they agree with Python sets' first layers
    python = run("search", "analyze", load(path).model,
                 Options(algorithm="python", direction="start", limit=2 * sum(result.layers)))
    assert python.layers[:len(result.layers)] == result.layers
    assert common.Budget(time_limit=10).leaves_time_for(1.0)
    assert not common.Budget(time_limit=10).leaves_time_for(20.0)
