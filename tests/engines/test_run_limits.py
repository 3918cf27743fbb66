"""The API's :func:`cpsolve.engines.run` holds its options' limits as the command line holds
its own: the memory limit stops the engines (``Options(memory_limit=...)`` was once only an
on-disk analysis's array budget), and a stop names the time limit the caller gave, not the
share of it an engine had."""

from __future__ import annotations

import pytest

from cpsolve.engines import Options, run
from cpsolve.engines.runtime import clock, interrupt, memory
from cpsolve.puzzles.files import load

MB = 2**20


def test_a_memory_limit_in_options_stops_the_engines_and_ends_with_the_run():
    used = memory.resident()
    if used is None:
        pytest.skip("no /proc/self/statm")
    model = load("models/fifteen_easy.toml").model  # 10^13 states: never analysed whole
    limit = used + 64 * MB
    result = run("search", "analyze", model, Options(time_limit=60, memory_limit=limit))
    assert result.status.value == "partial"
    assert f"memory limit {memory.size_text(limit)} reached" in result.message
    assert memory.limit() is None  # the caller's process is left as it was...
    assert not interrupt.requested()  # ...and its next run is not stopped at once


def test_a_limit_in_force_stays_and_the_options_give_the_arrays_their_half():
    with memory.adopted(None) as own:
        assert own is None and memory.limit() is None
    with memory.adopted(300 * MB) as own:
        assert own == memory.limit() == 300 * MB
        with memory.adopted(100 * MB) as inner:  # a command's limit (or an outer run's) rules
            assert inner is None and memory.limit() == 300 * MB
    assert memory.limit() is None


def test_a_time_limit_is_named_as_given_whatever_share_an_engine_had():
    """CP-SAT first spends a share of the limit on a hint by weighted A*, then solves in what
    is left; its stop said ``time limit 1.6 s reached`` for a limit of 2 s."""
    import cpsolve.engines.cpsat.library  # noqa: F401 - imported: its start fits the limit

    model = load("models/fifteen_korf1.toml").model  # 57 moves: CP-SAT proves none in 2 s
    result = run("cpsat", "solve", model, Options(time_limit=2))
    assert result.message.startswith("time limit 2 s reached"), result.message
    with clock.naming(7):
        with clock.naming(2):  # a command's limit (or an outer run's) rules
            assert clock.stated(0.5) == 7
    assert clock.stated(0.5) == 0.5
