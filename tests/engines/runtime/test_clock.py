"""The one clock: what is left, shares, slices (children) and why work stops.

Time is read from a hand-turned source (:class:`Ticks`), so every figure here follows
from the arithmetic of the limits, never from how busy the machine is; the one test on
the real clock checks an order only.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.runtime import interrupt, memory
from cpsolve.engines.runtime.clock import FLOOR, Clock, on_a_share, reached, state_limit
from cpsolve.engines.runtime.stop import Stop
from cpsolve.puzzles.files import load


class Ticks:
    """A time source that moves only when told (``ticks.t += 2``)."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture(autouse=True)
def no_stop_asked():
    interrupt.clear()
    yield
    interrupt.clear()
    memory.set_limit(None)
    state_limit(None)  # a command's answer printed: the next one's clock acts again


def test_without_a_limit_nothing_runs_out():
    ticks = Ticks()
    clock = Clock(None, ticks)
    ticks.t += 1e9
    assert clock.left() is None and clock.share(3) is None
    assert not clock.time_up() and not clock.expired() and clock.stop() is None
    assert clock.allows(1e9)
    assert Clock(float("inf")).limit is None  # an infinite limit is none
    assert clock.child(None).limit is None
    assert clock.child(5.0).limit == 5.0  # a slice of no limit is the slice


def test_left_counts_down_and_time_up_comes_at_the_limit():
    ticks = Ticks()
    clock = Clock(10.0, ticks)
    assert clock.left() == 10.0 and clock.elapsed() == 0.0
    ticks.t += 4
    assert clock.left() == 6.0 and clock.elapsed() == 4.0
    assert not clock.time_up() and clock.stop() is None
    ticks.t += 6
    assert clock.time_up() and clock.expired() and clock.stop() is Stop.TIME
    ticks.t += 100
    assert clock.left() == FLOOR > 0  # a limit handed on stays positive


def test_allows_work_that_ends_before_the_limit():
    ticks = Ticks()
    clock = Clock(10.0, ticks)
    ticks.t += 7
    assert clock.allows(2.9)
    assert not clock.allows(3.0) and not clock.allows(20.0)


def test_share_splits_what_is_left_among_the_runs_to_come():
    ticks = Ticks()
    clock = Clock(12.0, ticks)
    ticks.t += 4  # 8 s left
    assert clock.share(1) == 8.0
    assert clock.share(4) == 2.0
    assert clock.share(0) == 8.0  # no runs counted: all of it
    shares = [clock.share(n) for n in (1, 2, 3, 5, 8)]
    assert shares == sorted(shares, reverse=True)
    ticks.t += 100
    assert clock.share(3) == FLOOR


def test_a_child_is_capped_at_what_is_left_of_its_parent():
    ticks = Ticks()
    parent = Clock(10.0, ticks)
    ticks.t += 6  # 4 s left
    short, long, rest = parent.child(1.0), parent.child(60.0), parent.child(None)
    assert short.limit == 1.0
    assert long.limit == 4.0 and rest.limit == 4.0
    ticks.t += 1
    assert short.time_up() and not long.time_up() and not parent.time_up()
    ticks.t += 3  # the parent's end is every child's end
    assert parent.time_up() and long.time_up() and rest.time_up()
    grandchild = short.child(30.0)  # a child of a child: capped by the nearer end
    assert grandchild.limit == 0.0 and grandchild.time_up()


def test_a_child_of_a_spent_clock_has_no_time():
    ticks = Ticks()
    parent = Clock(2.0, ticks)
    ticks.t += 5
    child = parent.child(3.0)
    assert child.limit == 0.0 and child.time_up()


def test_a_child_reads_its_parents_time_source():
    ticks = Ticks()
    child = Clock(10.0, ticks).child(5.0)
    ticks.t += 5
    assert child.time_up()


def test_a_stop_asked_for_ends_every_clock_and_says_why():
    ticks = Ticks()
    clock, free = Clock(10.0, ticks), Clock(None, ticks)
    interrupt.request()
    assert clock.stop() is Stop.INTERRUPT and free.stop() is Stop.INTERRUPT
    assert clock.expired() and free.expired()
    assert not clock.time_up()  # time only: the limit is not reached
    assert clock.why() == "interrupted" and interrupt.by_user()


def test_the_memory_limit_is_a_stop_of_its_own_kind():
    clock = Clock(10.0, Ticks())
    memory.set_limit(1)  # any process uses more than one byte
    assert clock.stop() is Stop.MEMORY
    assert interrupt.kind() is Stop.MEMORY and not interrupt.by_user()
    assert clock.why() == "memory limit 1 byte reached"


def test_the_commands_clock_asks_engines_to_stop_as_a_time_limit():
    """What :meth:`Clock.guard` requests at the limit: every engine's clock reads it as
    :attr:`Stop.TIME`, and it is not the user's interruption (exit 1, not 130)."""
    interrupt.request(Stop.TIME.text, Stop.TIME)
    clock = Clock(None, Ticks())
    assert clock.stop() is Stop.TIME and clock.why() == "time limit reached"
    assert not interrupt.by_user()


def test_the_first_request_says_why():
    interrupt.request(Stop.TIME.text, Stop.TIME)
    interrupt.request()  # a Ctrl-C after the clock's stop does not rename it
    assert interrupt.kind() is Stop.TIME and interrupt.reason() == "time limit reached"
    interrupt.clear()
    assert interrupt.kind() is Stop.INTERRUPT and not interrupt.requested()


def test_why_words_the_clocks_own_limit_when_no_stop_was_asked():
    ticks = Ticks()
    clock = Clock(1.0, ticks)
    ticks.t += 2
    assert clock.why() == clock.limit_reached() == "time limit 1 s reached"
    assert clock.why("time limit") == "time limit"
    assert Clock(None, ticks).why() == Stop.TIME.text == "time limit reached"


def test_messages_name_the_commands_limit_not_an_engines_share_of_it():
    """An engine's clock holds what it was handed of the command's --time-limit 4 (3.19 s
    left once loading and the tail are taken): its words name the user's 4 s."""
    ticks = Ticks()
    share = Clock(3.19, ticks)
    ticks.t += 3.19
    assert share.limit_reached() == "time limit 3.19 s reached"  # outside a command
    state_limit(4.0)
    try:
        assert share.limit_reached() == share.why() == "time limit 4 s reached"
        assert Clock(None, ticks).limit_reached() == "time limit 4 s reached"
        assert reached() == "time limit 4 s reached"
    finally:
        state_limit(None)
    assert reached() == "time limit reached"


def test_an_engine_on_a_share_of_compares_limit_says_its_share_too():
    """compare --time-limit 20 over four engines: one stopped at its 4.6 s says the 20 s and
    its share, not only the 20 s it never had; outside the share the words are as before."""
    ticks = Ticks()
    share = Clock(4.6, ticks)
    ticks.t += 4.6
    state_limit(20.0)
    try:
        with on_a_share():
            assert share.limit_reached() == "time limit 20 s reached (its share: 4.6 s)"
            assert Clock(None, ticks).limit_reached() == "time limit 20 s reached"
        assert share.limit_reached() == "time limit 20 s reached"
    finally:
        state_limit(None)


def test_a_search_stopped_at_its_share_names_the_commands_limit():
    """count --optimal of the 15-puzzle cannot be settled in 0.3 s: the search stops at its
    own 0.3 s and says the command's 4 s."""
    model = load(Path(__file__).resolve().parents[3] / "models" / "fifteen_puzzle.toml").model
    state_limit(4.0)
    try:
        result = run("search", "count", model, Options(time_limit=0.3))
    finally:
        state_limit(None)
    assert result.status is Status.UNKNOWN
    assert "time limit 4 s reached" in result.message and "0.3" not in result.message


def test_each_stop_has_its_words():
    assert [s.text for s in Stop] == ["time limit reached", "state limit reached",
                                      "memory limit reached", "interrupted",
                                      "the reader of stdout has gone"]
    assert interrupt.REASON == Stop.INTERRUPT.text


def test_a_clock_travels_to_a_worker_process():
    """Batches and the race hand clocks to forked workers: it must pickle (the monotonic
    clock is shared by the processes of one machine)."""
    clock = Clock(30.0)
    copy = pickle.loads(pickle.dumps(clock))
    assert copy.limit == 30.0 and copy.start == clock.start


def test_the_real_clock_moves_forward():
    clock = Clock(3600.0)
    first = clock.left()
    later = clock.left()
    assert first is not None and later is not None
    assert clock.elapsed() >= 0.0 and later <= first <= 3600.0


@pytest.mark.parametrize("engine", ["pyconstraint", "search", "cpsat"])
def test_every_engine_asks_the_same_stop(engine):
    """A stop asked for before a count (960 grids: none finishes before its first look)
    ends it unfinished, saying why; python-constraint's count, which used to look at the
    memory limit only, now sees Ctrl-C too."""
    model = load(Path(__file__).resolve().parents[3] / "models" / "xsudoku5.toml").model
    interrupt.request()
    result = run(engine, "count", model, Options())
    assert result.status in (Status.AT_LEAST, Status.UNKNOWN)
    assert "interrupted" in result.message
    assert result.answer is None or result.answer.count < 960


def test_a_stop_asked_for_after_the_limit_is_the_time_limit():
    """A racer stopped by its parent at the race's budget (SIGINT) has reached its own time
    limit already: it says "time limit reached", never "interrupted" (issue 24)."""
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.stop import Stop

    ticks = iter([0.0, 5.0, 5.0, 5.0, 5.0])
    clock = Clock(2.0, now=lambda: next(ticks))
    interrupt.clear()
    try:
        interrupt.request()  # as the SIGINT handler does
        assert clock.stop() is Stop.TIME
        assert clock.why("time limit 2 s reached") == "time limit 2 s reached"
    finally:
        interrupt.clear()


def test_a_stop_asked_for_before_the_limit_is_an_interruption():
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.stop import Stop

    clock = Clock(100.0)
    interrupt.clear()
    try:
        interrupt.request()
        assert clock.stop() is Stop.INTERRUPT and clock.why() == interrupt.reason()
    finally:
        interrupt.clear()


def test_python_constraint_stops_inside_a_search_of_all_different_groups_only():
    """Twelve values-all-different over eleven values: no solution, and a search that would
    run for hours (11! dead ends) without a constraint of any other kind, which is where
    the clock used to be looked at; it now stops at its limit from inside the search."""
    from cpsolve.model import Csp

    csp = Csp("twelve pigeons, eleven holes")
    pigeons = csp.add_array("p", 12, 1, 11)
    csp.all_different(pigeons)
    result = run("pyconstraint", "count", csp, Options(time_limit=0.5))
    assert result.status in (Status.AT_LEAST, Status.UNKNOWN)
    assert "time limit" in result.message


def test_limits_in_messages_have_three_figures_and_no_exponent():
    from cpsolve.engines.runtime.clock import seconds

    assert [seconds(x) for x in (0.25, 2.69436, 5, 59.96, 999.4, 3600, 86400.2)] == [
        "0.25", "2.69", "5", "60", "999", "3600", "86400"]


def test_a_limit_too_long_to_matter_is_no_limit():
    """From LONGEST seconds (31 years) on a limit is none: the system's timers refuse such
    values (setitimer past about 9.2e9 s), so none is ever handed on to them."""
    from cpsolve.engines.runtime.clock import LONGEST

    for limit in (LONGEST, 1e10, 1e300):
        clock = Clock(limit)
        assert clock.limit is None and clock.left() is None
        with clock.guard("running"):  # no timer armed, no OverflowError
            pass
    assert Clock(LONGEST / 2).limit == LONGEST / 2


@pytest.mark.parametrize("limit", ["1e10", "1e300"])
def test_a_huge_time_limit_on_the_command_line_runs_as_no_limit(cli, limit):
    from cpsolve.cli.checks import seconds

    assert seconds(limit) == float("inf")
    run = cli("solve", "water_jugs", "--time-limit", limit)
    assert run.code == 0, run.err
    assert "internal error" not in run.err


def test_guards_nest_and_the_outer_one_still_stops_its_block():
    """An engine's guard inside the command's: when it ends, the command's timer is armed
    again for what is left of it (it used to be switched off, so nothing stopped the rest
    of the command)."""
    import time

    from cpsolve.engines.runtime.clock import TimeUp

    outer = Clock(0.3)
    with pytest.raises(TimeUp, match="while running the command"):
        with outer.guard("running the command"):
            with Clock(60.0).guard("running an engine"):
                pass
            end = time.monotonic() + 30  # far more than the 0.3 s, even on a loaded machine
            while time.monotonic() < end:
                time.sleep(0.01)


def test_a_guard_with_a_grace_asks_for_a_stop_first_then_cuts_off():
    import time

    from cpsolve.engines.runtime.clock import TimeUp

    clock = Clock(0.2)
    asked_at = []
    with pytest.raises(TimeUp):
        with clock.guard("running", grace=0.2):
            end = time.monotonic() + 30
            while time.monotonic() < end:
                if interrupt.requested() and not asked_at:
                    asked_at.append(clock.elapsed())
                time.sleep(0.01)
    assert asked_at and asked_at[0] >= 0.2  # the stop came at the limit, not before
    assert interrupt.kind() is Stop.TIME and interrupt.reason() == "time limit 0.2 s reached"
    assert clock.elapsed() >= 0.4  # and the cut-off only past the grace


def test_once_the_engines_have_ended_the_answer_has_the_whole_overtime():
    """The command's guard cuts off work 85 % of the overtime past the limit; once an
    engine's guard has ended (its answer being checked and printed), only when the whole
    overtime (0.5 s) has passed."""
    import time

    from cpsolve.engines.runtime.clock import TimeUp

    def cut_off_at(after_an_engine: bool) -> float:
        clock = Clock(0.2)
        state_limit(None)  # a new command: no engine has ended yet
        with pytest.raises(TimeUp):
            with clock.guard("running the command", clock.last_word()):
                if after_an_engine:
                    with clock.guard("running search", clock.grace()):
                        pass
                end = time.monotonic() + 30
                while time.monotonic() < end:
                    time.sleep(0.01)
        interrupt.clear()
        return clock.elapsed() - 0.2

    assert cut_off_at(False) >= 0.425
    assert cut_off_at(True) >= 0.5


@pytest.fixture
def quiet_alarm():
    """SIGALRM handled by a no-op for the test (an alarm armed again by a handler called by
    hand must not kill the process), and no timer left afterwards."""
    import signal

    before = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, before)


def test_a_guard_whose_ending_comes_late_brings_back_no_alarm(quiet_alarm):
    """A traceback after the command had ended: the loading guard's block was left by a
    second TimeUp raised inside ``contextlib``'s exit, so its ending ran only when its
    generator was collected — after the command's guard had ended — and armed the command's
    alarm again, which raised TimeUp in the code that ends the process.  Now the late ending
    does nothing, and the alarm of an ended block neither raises nor arms a timer."""
    import signal

    ticks = Ticks()
    clock = Clock(60.0, ticks)
    before = signal.getsignal(signal.SIGALRM)
    command, loading = clock.guard("running solve", 1.0), clock.guard("loading many.toml")
    command.__enter__()
    loading.__enter__()
    stale = signal.getsignal(signal.SIGALRM)
    command.__exit__(None, None, None)  # the command's guard ends first
    loading.__exit__(None, None, None)  # the loading guard's ending, late
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    ticks.t += 3600  # far past the limit and every grace
    stale(signal.SIGALRM, None)  # its alarm, late: nothing raised
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # and nothing armed


def test_no_second_time_up_while_one_leaves_the_blocks(quiet_alarm):
    """The alarm fires again 0.05 s after its TimeUp (one raised in a finaliser is lost);
    while that TimeUp is still on its way out it raises no other: one raised in a guard's
    exit would skip that guard's ending."""
    import signal

    from cpsolve.engines.runtime.alarms import Armed
    from cpsolve.engines.runtime.clock import TimeUp

    ticks = Ticks()
    clock = Clock(1.0, ticks)
    alarm = clock._alarm("loading many.toml", 0.0, Armed(None, 0.0))
    ticks.t += 10  # past the limit
    with pytest.raises(TimeUp):
        alarm(signal.SIGALRM, None)
    try:
        raise TimeUp("loading many.toml", 1.0)
    except TimeUp:
        alarm(signal.SIGALRM, None)  # inside a guard's exit: nothing raised
    assert signal.getitimer(signal.ITIMER_REAL)[0] > 0  # armed again, for a TimeUp lost


def test_disarm_ends_every_guard_with_the_command(quiet_alarm):
    """A guard whose ending never ran: once the command has ended (:func:`disarm`), no
    timer is left, SIGALRM's handler is back, and the guard's alarm does nothing."""
    import signal

    from cpsolve.engines.runtime.alarms import disarm

    ticks = Ticks()
    clock = Clock(60.0, ticks)
    before = signal.getsignal(signal.SIGALRM)
    clock.guard("running solve", 1.0).__enter__()  # never ended
    alarm = signal.getsignal(signal.SIGALRM)
    disarm()
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    ticks.t += 3600
    alarm(signal.SIGALRM, None)  # nothing raised
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_alarm_waits_for_a_line_under_way_then_acts(quiet_alarm):
    """Output the clock must not cut (a batch's line, a solution streamed): an alarm that
    comes while it is written does nothing then — no stop asked for, no TimeUp —, and acts
    once it is out, since the work goes on after it."""
    import signal
    import time

    from cpsolve.engines.runtime.alarms import printing
    from cpsolve.engines.runtime.clock import TimeUp

    ticks = Ticks()
    clock = Clock(60.0, ticks)  # its timer would ring in 60 real seconds
    with pytest.raises(TimeUp, match="while running solve"):
        with clock.guard("running solve"):
            alarm = signal.getsignal(signal.SIGALRM)
            ticks.t += 3600  # far past the limit
            with printing():
                alarm(signal.SIGALRM, None)  # nothing, while the line is written
                assert not interrupt.requested()
            end = time.monotonic() + 30  # the alarm that waited comes now, not in 60 s
            while time.monotonic() < end:
                time.sleep(0.01)


def test_no_alarm_acts_once_the_answer_is_being_printed(quiet_alarm):
    """The command's answer is its last work: from the moment it is being printed, the
    clock cuts nothing — neither while it is written nor after (it used to lose tens of
    thousands of generated puzzles for an error line)."""
    import signal

    from cpsolve.engines.runtime.alarms import printing

    ticks = Ticks()
    clock = Clock(60.0, ticks)
    with clock.guard("running generate", clock.last_word()):
        alarm = signal.getsignal(signal.SIGALRM)
        ticks.t += 3600  # far past the limit and the overtime
        with printing(answer=True):
            alarm(signal.SIGALRM, None)  # nothing raised, no stop asked for
        alarm(signal.SIGALRM, None)  # and nothing after the answer
        assert not interrupt.requested()


def test_an_engine_back_past_the_overtime_leaves_its_answer_the_overtime(quiet_alarm):
    """An engine whose stop came late (a NumPy step holds the alarm until it ends) is back
    after the command's whole overtime: the command's guard used to cut it off at once,
    before its answer could be printed; it now waits the overtime from the engine's end."""
    import signal

    ticks = Ticks()
    clock = Clock(60.0, ticks)  # overtime: 6 s
    with clock.guard("running generate", clock.last_word()):
        with clock.guard("generating", clock.grace()):
            ticks.t += 70  # the engine is back 10 s past the limit
        alarm = signal.getsignal(signal.SIGALRM)
        alarm(signal.SIGALRM, None)  # no TimeUp: the answer has its overtime
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= clock.overtime()


def test_a_limit_reached_during_an_import_names_the_import(quiet_alarm, tmp_path,
                                                           monkeypatch):
    """The command's guard cut an import (on a loaded machine a command's imports alone
    can outlast a short limit): the error names it — the outermost, the one the command's
    code asked for — not only "running solve"."""
    import signal
    import sys

    from cpsolve.engines.runtime.clock import TimeUp

    (tmp_path / "slow_outer.py").write_text("import slow_inner\n")
    (tmp_path / "slow_inner.py").write_text(  # the alarm comes in the inner import
        "import signal, tests_ticks\ntests_ticks.t += 3600\n"
        "signal.raise_signal(signal.SIGALRM)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ticks = Ticks()
    monkeypatch.setitem(sys.modules, "tests_ticks", ticks)
    for name in ("slow_outer", "slow_inner"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    clock = Clock(5.0, ticks)
    with pytest.raises(TimeUp) as cut:
        with clock.guard("running solve"):
            import slow_outer  # noqa: F401
    assert str(cut.value) == ("the time limit (5 s) was reached while running solve "
                              "(importing slow_outer)")
    with pytest.raises(TimeUp) as plain:  # nothing imported: the guard's words alone
        with clock.guard("running solve"):
            signal.raise_signal(signal.SIGALRM)
    assert str(plain.value) == "the time limit (5 s) was reached while running solve"


def test_a_limit_reached_in_a_finaliser_prints_no_traceback(quiet_alarm, monkeypatch):
    """The alarm came while a finaliser ran (importlib's module lock's weakref callback, on
    a loaded machine): Python swallows what it raises there and printed "Exception ignored
    in ..." with a traceback on stderr; the alarm raises again in the block, quietly."""
    import signal
    import sys
    import time
    import types
    import weakref

    from cpsolve.engines.runtime.clock import TimeUp

    class Held:
        pass

    told = []  # what reaches the hook that prints "Exception ignored in ..."
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: told.append(unraisable))
    ticks = Ticks()
    clock = Clock(5.0, ticks)
    with pytest.raises(TimeUp):
        with clock.guard("running solve"):
            held = Held()
            ref = weakref.ref(held, lambda r: signal.raise_signal(signal.SIGALRM))
            ticks.t += 3600
            del held  # the callback runs: the alarm's TimeUp is swallowed there
            end = time.monotonic() + 30  # raised again here, 50 ms later
            while time.monotonic() < end:
                time.sleep(0.01)
    assert ref() is None
    assert told == []
    sys.unraisablehook(types.SimpleNamespace(exc_value=ValueError("other")))
    assert [type(u.exc_value) for u in told] == [ValueError]  # any other is still told
