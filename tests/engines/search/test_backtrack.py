"""The csp backtracker looks at its budget often enough in time, not only in nodes: a
model whose nodes are slow (many wide constraints) stops near its limit, not 1,024 nodes
later."""

from __future__ import annotations

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.model import Csp


def golomb(marks: int, length: int) -> Csp:
    """A Golomb ruler of ``marks`` marks on 0..``length``, the shortest: 630 conditions
    over 4 marks for 9 marks, which make each node of the search take milliseconds."""
    csp = Csp(f"Golomb ruler, {marks} marks")
    m = csp.add_array("m", marks, 0, length)
    csp.require(m[0] == 0)
    for i in range(marks - 1):
        csp.require(m[i] < m[i + 1])
    pairs = [(i, j) for i in range(marks) for j in range(i + 1, marks)]
    for a, (i, j) in enumerate(pairs):
        for k, last in pairs[a + 1:]:
            csp.require(m[j] - m[i] != m[last] - m[k])
    csp.minimize(m[marks - 1])
    return csp


def test_branch_and_bound_with_slow_nodes_stops_near_its_time_limit(monkeypatch):
    """It ran about 9 s past a 1-second limit: its nodes take about 9 ms each, and the
    budget was looked at every 1,024 nodes.  Here every reading of the clock is 10 ms
    later than the last (a slow node, on any machine, however loaded): the search must see
    its limit within 1,024 nodes, so it looks at the time, not only at the node count."""
    from cpsolve.engines.runtime.clock import Clock

    ticks = iter(range(10**9))
    limit, now, start = Clock.__init__.__defaults__
    monkeypatch.setattr(Clock.__init__, "__defaults__", (limit, lambda: next(ticks) / 100, start))
    result = run("search", "solve", golomb(9, 60), Options(time_limit=1))
    assert result.details["nodes"] < 1024
    assert result.status in (Status.UNKNOWN, Status.SOLVED)  # the optimum is 44: not proven
    assert "time limit 1 s reached" in result.message


def test_a_domain_s_bit_mask_is_made_from_its_bounds():
    """Bit ``v - base`` per value ``v``: a range's mask in one step (a million additions of
    ever larger numbers took minutes for ``0..999999``), a list's bit by bit."""
    from cpsolve.engines.search.csp.prepare import mask

    assert mask(range(5, 10), 3) == 0b11111 << 2 == sum(1 << (v - 3) for v in range(5, 10))
    assert mask((1, 3), 0) == 0b1010
    assert mask(range(4, 4), 0) == 0
    assert mask(range(10**6), 0) == (1 << 10**6) - 1


@pytest.mark.parametrize("width", [10, 300, 5000])
def test_the_values_that_satisfy_a_condition_are_the_same_in_a_wide_mask(width):
    """A mask over a million values was read bit by bit, each lowest bit taken from the
    whole (minutes for one domain): wide masks are read as text, with the same result."""
    import random

    from cpsolve.engines.search.csp.prepare import satisfying

    rng = random.Random(width)
    mask_ = rng.getrandbits(width) | 1
    kept = satisfying(lambda vals: vals[0] % 3 == 1, [None], 0, mask_, -4)
    assert kept == sum(1 << k for k in range(width) if mask_ >> k & 1 and (k - 4) % 3 == 1)


def test_a_search_over_domains_of_a_million_values_stops_at_its_limit_with_what_it_has():
    """Each node filtered a neighbour's million values bit by bit (minutes): a 1-second
    limit was only met by the stop that loses the engine's answer.  Now the search stops
    at one of its own looks and says what it knows."""
    from cpsolve import Csp
    from cpsolve.answers.result import Status
    from cpsolve.engines import Options, run

    csp = Csp("chain")
    xs = [csp.add_variable(f"x{i}", 0, 999_999) for i in range(40)]
    for a, b in zip(xs, xs[1:]):
        csp.require(b >= a + 1 + (a % 3))
    csp.minimize(xs[-1])
    result = run("search", "solve", csp, Options(time_limit=1.0))
    assert result.status in (Status.UNKNOWN, Status.SOLVED, Status.OPTIMAL)
    assert "lost" not in result.message and "at once" not in result.message, result.message
