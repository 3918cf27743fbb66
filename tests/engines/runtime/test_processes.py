"""Python work in forked children (runtime.processes): a child that returns, one that
raises, one that is stopped, one that ignores the stop, one that dies; waiting for the first
of several.  No wall time is asserted: what is checked is who said what, and in which order."""

from __future__ import annotations

import os
import signal
import time

import pytest

from cpsolve.engines.runtime import interrupt, memory
from cpsolve.engines.runtime.processes import (
    Failure,
    Kind,
    Message,
    start,
    stop,
    wait_any,
)
from cpsolve.engines.runtime.processes.tools import run_tool
from cpsolve.engines.runtime.waits import WAIT_MAX, waitable


@pytest.fixture(autouse=True)
def no_stop_asked():
    interrupt.clear()
    yield
    interrupt.clear()


def messages_of(child) -> list[Message]:
    """Every message of ``child`` up to its final one (a test guard of 60 s, never reached
    by a sound run)."""
    out: list[Message] = []
    while not child.done:
        got = wait_any([child], 60)
        assert got, "no message within 60 s"
        out.extend(got)
    child.reap()
    return out


def until_stopped(channel) -> str:
    """Work until a stop is asked for (as an engine does), then say what was found."""
    while not interrupt.requested():
        time.sleep(0.01)
    channel.send("found something")
    return f"stopped: {interrupt.reason()}"


def test_a_child_that_returns_sends_its_notes_then_its_result():
    def work(a, b, channel):
        channel.send("halfway")
        return a + b

    got = messages_of(start(work, 40, 2, name="adder"))
    assert [(m.kind, m.value) for m in got] == [(Kind.NOTE, "halfway"), (Kind.RESULT, 42)]
    assert got[0].child.name == "adder" and got[-1].child.process.exitcode == 0


def test_a_child_that_raises_says_what_as_a_typed_failure():
    def work(channel):
        raise ValueError("no such thing")

    (message,) = messages_of(start(work))
    assert message.kind is Kind.FAILED
    assert message.value == Failure(ValueError, "no such thing")


def test_a_child_that_dies_is_reported_with_its_exit_code():
    def work(channel):
        os.kill(os.getpid(), signal.SIGKILL)

    (message,) = messages_of(start(work))
    assert message.kind is Kind.ENDED and message.value == -signal.SIGKILL


def test_a_stopped_child_returns_what_it_has():
    """SIGINT in a child only asks for a stop: the work sees it and returns."""
    child = start(until_stopped)
    got = stop([child], grace=30)
    assert [(m.kind, m.value) for m in got] == [(Kind.NOTE, "found something"),
                                                 (Kind.RESULT, "stopped: interrupted")]
    assert child.done and child.process.exitcode == 0
    assert not interrupt.requested()  # the parent's own flag is untouched


def test_a_grace_longer_than_the_system_waits_is_waited_in_parts():
    """A time limit of 1e8 s (docs/engines.md: below 1e9 s a limit is one) gives a grace of
    months; ``poll`` takes at most about 24.8 days, and the stop waits for the child all
    the same (``OverflowError: timeout is too large`` before)."""
    child = start(until_stopped)
    got = stop([child], grace=6e7)
    assert [m.kind for m in got] == [Kind.NOTE, Kind.RESULT] and child.done
    assert wait_any([start(lambda channel: 7)], 1e8)[0].value == 7


def test_every_wait_is_cut_to_what_the_system_takes():
    assert waitable(1e8) == WAIT_MAX <= (2 ** 31 - 1) / 1000 and waitable(-1) == 0.0
    assert waitable(0.25) == 0.25


def test_a_child_that_ignores_the_stop_is_killed_after_the_grace():
    def stubborn(channel):
        channel.send("started")
        while True:
            time.sleep(0.01)

    child = start(stubborn)
    assert [m.kind for m in wait_any([child], 60)] == [Kind.NOTE]
    asked = time.monotonic()
    got = stop([child], grace=0.3)
    assert got == [] and child.process.exitcode == -signal.SIGKILL
    assert child.stopped_at is not None and child.stopped_at >= asked  # SIGINT came first


def test_waiting_for_the_first_of_several():
    """The child that answers at once is heard while the other still waits for a job."""
    def echo(channel):
        return channel.receive()

    def quick(channel):
        return "quick"

    waiting, answering = start(echo, name="echo"), start(quick, name="quick")
    first = []
    while not first:
        first = wait_any([waiting, answering], 60)
    assert [(m.child.name, m.value) for m in first] == [("quick", "quick")]
    assert not waiting.done
    waiting.send("a job")
    assert [m.value for m in messages_of(waiting)] == ["a job"]
    answering.reap()


def test_children_share_the_memory_limit():
    memory.set_limit(4_000_000)
    try:
        (message,) = messages_of(start(lambda channel: memory.limit(), share=4))
        assert message.value == 1_000_000
        assert memory.limit() == 4_000_000  # the parent keeps its own
    finally:
        memory.set_limit(None)


def test_stop_reaps_children_that_already_answered():
    children = [start(lambda channel, n=n: n) for n in range(3)]
    got: list[Message] = []
    while len(got) < 3:
        got.extend(wait_any(children, 60))
    assert sorted(m.value for m in got) == [0, 1, 2]
    assert stop(children, grace=30) == []
    assert all(c.process.exitcode == 0 for c in children)


def test_a_child_waiting_for_work_sees_its_parent_let_go_despite_later_siblings():
    """A sibling forked later must not keep the first child's pipe open: when the parent
    closes its end, the waiting child reads the end (None) and exits."""
    def wait_for_work(channel):
        return channel.receive()

    waiting = start(wait_for_work)
    sibling = start(wait_for_work)
    try:
        waiting.conn.close()
        waiting.process.join(60)  # a guard against a hang, not a time check
        assert waiting.process.exitcode == 0
        sibling.send(None)
        assert [m.value for m in messages_of(sibling)] == [None]
    finally:
        for child in (waiting, sibling):
            child.kill()
            child.reap()


def test_a_child_is_a_session_of_its_own_and_dies_with_its_parent(tmp_path):
    """Its own session (its own CPU share where the kernel shares by session); and when its
    parent is killed outright (SIGKILL: no chance to stop it), it goes too."""
    import subprocess
    import sys

    child = start(lambda channel: os.getsid(0))
    (message,) = messages_of(child)
    assert message.value == child.process.pid != os.getsid(0)

    code = ("import os, sys, time\n"
            "from cpsolve.engines.runtime.processes import start\n"
            "child = start(lambda channel: time.sleep(600))\n"
            "print(child.process.pid, flush=True)\n"
            "time.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    grandchild = int(parent.stdout.readline())
    assert os.path.exists(f"/proc/{grandchild}")
    parent.kill()
    parent.wait(60)
    for _ in range(600):  # a guard of 60 s against a hang, not a time check
        if not os.path.exists(f"/proc/{grandchild}"):
            break
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{grandchild}"), "the child outlived its parent"


def test_run_tool_passes_each_line_on_as_it_is_written(tmp_path):
    """The tool writes ``a``, then waits for the file that the ``a`` line's handler makes:
    only a line passed on while the tool runs lets it go on to write ``b``."""
    seen: list[str] = []

    def on_line(line: str) -> None:
        seen.append(line)
        if line == "a":
            (tmp_path / "go").touch()

    script = "echo a; while [ ! -e go ]; do sleep 0.05; done; printf 'b\\nc'"
    done = run_tool(["sh", "-c", script], tmp_path, 600, on_line)
    assert done.stopped == "" and done.returncode == 0
    assert seen == ["a", "b", "c"]  # each once; the last, unfinished, when the tool ended


def _stubborn(channel):
    """Work that never stops by itself (it ignores the stop asked for)."""
    channel.send("started")
    while True:
        time.sleep(0.01)


def test_a_stop_cut_short_while_reaping_still_kills_every_child():
    """The command's clock may cut the wait for a killed child (a big one takes long to give
    its memory back): the children after it are killed all the same, not left running."""
    first, second = start(_stubborn), start(_stubborn)
    for child in (first, second):
        assert [m.kind for m in wait_any([child], 60)] == [Kind.NOTE]

    def cut(wait=0.05):
        raise KeyboardInterrupt  # as the clock's TimeUp, raised while waiting for it

    first.reap = cut
    with pytest.raises(KeyboardInterrupt):
        stop([first, second], grace=0)
    for child in (first, second):
        child.process.join(60)  # a guard against a hang, not a time check
        assert child.process.exitcode == -signal.SIGKILL


def test_a_process_that_ends_with_a_child_still_running_kills_it():
    """A child still running when its parent ends (an exception skipped its stop) is killed:
    the parent's exit does not wait for it (multiprocessing joins its children at exit, and
    a child asked to stop by its SIGTERM may never end)."""
    import subprocess
    import sys

    code = ("import time\n"
            "from cpsolve.engines.runtime.processes import start\n"
            "def stubborn(channel):\n"
            "    while True:\n"
            "        time.sleep(0.01)\n"
            "child = start(stubborn)\n"
            "print(child.process.pid, flush=True)\n")
    ended = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=120)  # a guard against a hang, not a time check
    assert ended.returncode == 0, ended.stderr
    grandchild = int(ended.stdout)
    for _ in range(600):  # a guard of 60 s against a hang, not a time check
        if not os.path.exists(f"/proc/{grandchild}"):
            break
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{grandchild}"), "the child outlived its parent"
