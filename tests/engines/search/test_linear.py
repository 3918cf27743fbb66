"""Linear conditions in the search engine's backtracking (search/csp/linear.py): read
from the expression, propagated on bounds, and never a solution lost — counted against a
brute force over every assignment, written here."""

from __future__ import annotations

import itertools
import operator

from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.csp.linear import NONE, linear_of, narrow
from cpsolve.language.combine import Sum
from cpsolve.language.expr import Binary, Const, Var
from cpsolve.model import Csp

OPS = {"==": operator.eq, "<=": operator.le, "<": operator.lt, ">=": operator.ge,
       ">": operator.gt}


def test_a_comparison_of_linear_sides_is_read_as_bounds_on_one_sum():
    index = {"a": 0, "b": 1, "c": 2}
    a, b, c = (Var(n) for n in "abc")
    # 2a - 3b + 4 <= c + 1  is  2a - 3b - c <= -3
    assert linear_of(2 * a - 3 * b + 4 <= c + 1, index) == ((0, 1, 2), (2, -3, -1), -NONE, -3)
    assert linear_of(Binary("==", Const(7), a + b), index) == ((0, 1), (-1, -1), -7, -7)
    assert linear_of(a + b > 3, index) == ((0, 1), (1, 1), 4, NONE)
    assert linear_of(-(a - b) < 0, index) == ((0, 1), (-1, 1), -NONE, -1)
    assert linear_of(a - a + b <= 1, index) is None  # one variable left: filtered as usual
    assert linear_of(a * b <= 1, index) is None      # not linear
    assert linear_of(a // 2 + b <= 1, index) is None
    assert linear_of(a + b != 1, index) is None


def test_bounds_leave_a_variable_the_values_the_others_allow():
    # a + b == 10 over 0..9, a set to 2: b can only be 8, queued to be assigned
    lin = ((0, 1), (1, 1), 10, 10)
    doms, vals, queue = [1 << 2, (1 << 10) - 1], [2, None], []
    assert narrow(lin, doms, vals, queue, 0)
    assert doms[1] == 1 << 8 and queue == [(1, 8)]
    # 3a - 2b >= 10 over a in 0..3, b in 0..5: a = 3 and b <= 0 (9 - 2b >= 10 fails: none)
    lin = ((0, 1), (3, -2), 10, NONE)
    doms, vals, queue = [0b1111, 0b111111], [None, None], []
    assert not narrow(lin, doms, vals, queue, 0)


def test_send_more_money_has_one_solution():
    """The classic cryptarithm: 9567 + 1085 = 10652, its only solution."""
    m = Csp("send more money")
    s, e, n, d, mo, o, r, y = (m.add_variable(x, 0, 9) for x in "sendmory")
    m.all_different([s, e, n, d, mo, o, r, y])
    m.require(1000 * s + 100 * e + 10 * n + d + 1000 * mo + 100 * o + 10 * r + e
              == 10000 * mo + 1000 * o + 100 * n + 10 * e + y)
    m.require(s > 0)
    m.require(mo > 0)
    result = run("search", "count", m, Options(time_limit=60, keep=True))
    assert result.status is Status.EXACT and result.count == 1
    assert [result.solutions[0][x] for x in "sendmory"] == [9, 5, 6, 7, 1, 0, 8, 2]
    assert result.details["nodes"] < 1_000  # every assignment of 8 letters: 1,814,400


terms = st.lists(st.tuples(st.integers(0, 3), st.integers(-3, 3)), min_size=2, max_size=4)
conditions = st.tuples(terms, st.sampled_from(sorted(OPS)), st.integers(-8, 8))


@settings(max_examples=60, deadline=None)
@given(lows=st.lists(st.integers(-3, 1), min_size=4, max_size=4),
       widths=st.lists(st.integers(0, 4), min_size=4, max_size=4),
       conds=st.lists(conditions, min_size=1, max_size=3), distinct=st.booleans())
def test_counts_equal_a_brute_force(lows, widths, conds, distinct):
    m = Csp("random linear")
    xs = [m.add_variable(f"x{i}", lo, lo + w) for i, (lo, w) in enumerate(zip(lows, widths))]
    if distinct:
        m.all_different(xs[:3])
    for ts, op, k in conds:
        m.require(Binary(op, Sum(a * xs[i] for i, a in ts), Const(k)))

    def holds(values: tuple[int, ...]) -> bool:
        if distinct and len(set(values[:3])) < 3:
            return False
        return all(OPS[op](sum(a * values[i] for i, a in ts), k) for ts, op, k in conds)

    domains = [range(lo, lo + w + 1) for lo, w in zip(lows, widths)]
    expected = sum(holds(v) for v in itertools.product(*domains))
    result = run("search", "count", m, Options(time_limit=60))
    assert result.status is Status.EXACT and result.count == expected
