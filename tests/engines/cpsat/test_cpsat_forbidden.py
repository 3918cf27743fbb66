"""Many forbidden states in CP-SAT's time-indexed model (issue 21): pinned states as one
table per step, the rest posted in chunks the clock can stop, resumed where it stopped.

The walker must go round its forbidden states in 7 steps (the way drawn in
tests/engines/search/test_forbidden.py, whose walker this is).
"""

from __future__ import annotations

import sys
from pathlib import Path

from cpsolve import Status
from cpsolve.engines import Options, run
from cpsolve.engines.cpsat import forbidden
from cpsolve.engines.cpsat.timeline import Timeline
from cpsolve.engines.runtime.clock import Clock

sys.path.insert(0, str(Path(__file__).parents[1] / "search"))
from test_forbidden import walker  # noqa: E402


def test_pinned_states_over_large_domains_are_table_rows():
    tables, rest = forbidden.split(walker(10))
    assert tables == [(("x", "y"), [(1, 0), (2, 0)] + [(b, 50) for b in range(2, 11, 2)])]
    assert len(rest) == 1 + 5


def test_small_domains_keep_their_clauses():
    """A variable of a small domain is one literal per value: no table over it."""
    assert forbidden.single(0, 1) and forbidden.single(0, 99)
    assert not forbidden.single(0, 9)


def test_a_step_stopped_while_posting_is_finished_before_the_next():
    model = walker(3 * forbidden.CHUNK)
    tl = Timeline(model, stutter=True)
    assert not tl.grow(Clock(0.0))  # the clock ran out: the rest is not posted yet
    assert tl.horizon == 1 and not tl.reached(1)
    assert not tl.extend(3, Clock(0.0)).reached(1)  # still out of time: nothing more
    assert tl.horizon == 1
    assert tl.extend(3).reached(3)  # no clock: every step in full


def test_cpsat_goes_round_1500_forbidden_states():
    result = run("cpsat", "solve", walker(1500), Options(time_limit=60, find_hint=False))
    assert result.status is Status.OPTIMAL and result.steps == 7 and result.verified
