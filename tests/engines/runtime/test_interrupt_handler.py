"""The one interrupt handler (:mod:`cpsolve.engines.runtime.interrupt`): a first signal asks
for a stop, a second one interrupts; work in threads of its own is stopped and waited for."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from cpsolve.engines.runtime import interrupt


@pytest.fixture(autouse=True)
def fresh():
    interrupt.clear()
    yield
    interrupt.clear()


def signal_self(sig: int = signal.SIGINT) -> None:
    """Deliver ``sig`` to this thread; its Python handler has run when this returns."""
    signal.raise_signal(sig)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_first_signal_asks_a_second_interrupts(sig, monkeypatch):
    monkeypatch.setattr(interrupt, "REPEAT", 0.0)
    with interrupt.installed():
        signal_self(sig)
        assert interrupt.requested() and interrupt.by_user()
        with pytest.raises(KeyboardInterrupt):
            signal_self(sig)


def test_once_the_output_is_cut_a_later_signal_or_look_raises_the_cut_again(monkeypatch):
    """A second signal cut the output (:class:`interrupt.OutputCut`, on its way up to the
    command's last line); a signal, or the escalation's look, that comes in a ``finally``
    on that way must not replace it by ``KeyboardInterrupt``, which an engine's stop takes
    for its own (then exit 130 and no line: the streamed ``count --list`` in CI)."""
    monkeypatch.setattr(interrupt, "REPEAT", 0.0)
    with interrupt.installed():
        signal_self()
        interrupt.OutputCut()  # the cut, as the printer raises it
        with pytest.raises(BaseException) as info:  # not KeyboardInterrupt, which
            signal_self()  # would end the test session
        assert type(info.value) is interrupt.OutputCut
        interrupt._due[0] = time.monotonic()  # a look come on time...
        interrupt._busy[0] = time.monotonic() - 10  # ...to an engine busy since long
        interrupt._engines[0] += 1
        try:
            with pytest.raises(BaseException) as info:
                interrupt.on_look(interrupt.LOOK, None)
            assert type(info.value) is interrupt.OutputCut
        finally:
            interrupt._engines[0] -= 1
    interrupt.clear()
    with interrupt.installed(), pytest.raises(KeyboardInterrupt):  # the next command's own
        signal_self()
        signal_self()


def test_one_signal_delivered_twice_is_one_interruption():
    """``timeout -s INT`` signals the process and its group: the same Ctrl-C, twice."""
    with interrupt.installed():
        signal_self()
        signal_self()
        assert interrupt.by_user()


def test_after_the_clock_asked_a_signal_interrupts():
    with interrupt.installed():
        interrupt.request("time limit reached")
        with pytest.raises(KeyboardInterrupt):
            signal_self()


def test_the_previous_handlers_come_back():
    before = {sig: signal.getsignal(sig) for sig in interrupt.SIGNALS}
    with interrupt.installed():
        assert all(signal.getsignal(sig) is interrupt.on_signal for sig in interrupt.SIGNALS)
        with interrupt.installed():  # nested: the outer block keeps them
            pass
        assert all(signal.getsignal(sig) is interrupt.on_signal for sig in interrupt.SIGNALS)
    assert {sig: signal.getsignal(sig) for sig in interrupt.SIGNALS} == before


def test_settle_stops_the_work_running_in_other_threads():
    stopped, ended = threading.Event(), threading.Event()

    def work() -> None:
        with interrupt.running(stopped.set):
            stopped.wait()
        ended.set()

    thread = threading.Thread(target=work)
    thread.start()
    while not interrupt._running:  # registered
        thread.join(0.01)
    assert interrupt.settle(60)
    assert stopped.is_set() and ended.is_set()
    thread.join()


def test_settle_waits_for_the_work_to_end():
    release, inside = threading.Event(), threading.Event()
    asked = []

    def work() -> None:
        with interrupt.running(lambda: asked.append(1)):  # a stop that is not obeyed
            inside.set()
            release.wait()

    thread = threading.Thread(target=work)
    thread.start()
    inside.wait()
    assert not interrupt.settle(0.05) and asked  # asked to stop, still running
    release.set()
    assert interrupt.settle(60)
    thread.join()


def test_at_the_end_of_the_process_signals_are_ignored():
    """The process's own command line: once it has ended, a late Ctrl-C must not kill the
    interpreter while it shuts down (exit by SIGINT instead of the command's code)."""
    before = {sig: signal.getsignal(sig) for sig in interrupt.SIGNALS}
    try:
        with interrupt.installed(last=True):
            pass
        assert all(signal.getsignal(sig) is signal.SIG_IGN for sig in interrupt.SIGNALS)
        signal_self()  # ignored
        assert not interrupt.requested()
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_engine_that_ignores_the_first_signal_is_stopped_as_by_a_second(sig, monkeypatch):
    """A SIGTERM comes once; an engine deep in work that never looks at the flag (the pair
    facts of a model of 14,456 actions ran for minutes) gets ``KeyboardInterrupt``
    ``ESCALATE`` seconds later — the caller's "stopped at once" path, exit 130."""
    import time

    monkeypatch.setattr(interrupt, "ESCALATE", 0.05)
    with interrupt.installed(), pytest.raises(KeyboardInterrupt), interrupt.escalating():
        signal_self(sig)
        for _ in range(3000):  # 30 s at most: work that never asks whether to stop
            time.sleep(0.01)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_engine_in_long_calls_into_c_is_left_to_look_at_its_flag(sig, monkeypatch):
    """An engine whose steps are long calls into C (a NumPy step over millions of states
    takes seconds; ``time.sleep`` stands for one here: Python runs no handler inside it)
    cannot be cut inside a step: stopped at once after it, it would lose what it had a
    moment before it looks at its flag and returns it.  Time in such calls does not count
    towards ESCALATE."""
    import time

    monkeypatch.setattr(interrupt, "ESCALATE", 0.3)
    with interrupt.installed(), interrupt.escalating():
        signal_self(sig)
        for _ in range(6):  # 3 s of steps of 0.5 s, each past the look that fell in it
            time.sleep(0.5)
        assert interrupt.requested()  # the engine's look at its flag: it returns


def test_outside_an_engine_a_first_signal_only_asks(monkeypatch):
    """Printing an answer (no engine running) is not cut by the escalation."""
    import time

    monkeypatch.setattr(interrupt, "ESCALATE", 0.05)
    with interrupt.installed():
        with interrupt.escalating():
            pass
        signal_self()
        time.sleep(0.3)  # past ESCALATE: nothing raised
    assert interrupt.requested()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_while_loading_the_first_signal_ends_it_at_once(sig):
    """Loading a model file has nothing to keep (and its own code may never return): the
    first signal raises at once, saying what was loading."""
    with interrupt.installed(), pytest.raises(interrupt.Interrupted,
                                              match="^interrupted while loading a.toml$"):
        with interrupt.loading("loading a.toml"):
            signal_self(sig)
            raise AssertionError("not reached")  # pragma: no cover
    assert interrupt.by_user()


def test_a_signal_that_came_before_loading_loads_nothing():
    with interrupt.installed():
        signal_self()
        with pytest.raises(interrupt.Interrupted, match="while loading a.py"):
            with interrupt.loading("loading a.py"):
                raise AssertionError("not reached")  # pragma: no cover


def test_an_error_the_interruption_caused_is_the_interruption():
    """An import cut short by the signal fails as an ImportError (pybind11), which the
    model file's loader would report as a bad file: it is the interruption."""
    with interrupt.installed(), pytest.raises(interrupt.Interrupted):
        with interrupt.loading("loading a.py"):
            try:
                signal_self()
            except KeyboardInterrupt:
                raise ImportError("initialization failed") from None


def test_without_a_signal_loading_errors_stay_what_they_are():
    with interrupt.installed(), pytest.raises(ValueError):
        with interrupt.loading("loading a.py"):
            raise ValueError("a bad file")


def test_a_model_that_catches_the_interruption_gets_another(monkeypatch):
    """A model's own code may catch KeyboardInterrupt (a bare ``except:``): while it still
    loads, another comes every ESCALATE seconds."""
    import time

    monkeypatch.setattr(interrupt, "ESCALATE", 0.05)
    caught = []
    with interrupt.installed(), pytest.raises(interrupt.Interrupted):
        with interrupt.loading("loading a.py"):
            try:
                signal_self()
            except KeyboardInterrupt:
                caught.append(1)  # swallowed by the model
            for _ in range(3000):  # 30 s at most: the model goes on loading
                time.sleep(0.01)
    assert caught == [1]
