"""What a Python model file's own code may not take from cpsolve while it loads
(:mod:`cpsolve.puzzles.user_code`): the signals cpsolve handles, its clock's timer, the
process (no fork), and stdin (``/dev/null``)."""

from __future__ import annotations

import os
import signal

import pytest

from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import load

BUILD = '''
from cpsolve import Csp

def build():
    csp = Csp("one")
    csp.add_variable("x", 0, 1)
    return csp
'''


@pytest.mark.parametrize("call,words", [
    ("signal.signal(signal.SIGINT, signal.SIG_IGN)", "change the handler of SIGINT"),
    ("signal.signal(signal.SIGTERM, signal.SIG_IGN)", "change the handler of SIGTERM"),
    ("signal.signal(signal.SIGALRM, signal.SIG_IGN)", "change the handler of SIGALRM"),
    ("_signal.signal(signal.SIGINT, signal.SIG_IGN)", "change the handler of SIGINT"),
    ("signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})",
     "block SIGINT, SIGTERM"),
    ("signal.pthread_sigmask(signal.SIG_SETMASK, {signal.SIGTERM})", "block SIGTERM"),
    ("signal.setitimer(signal.ITIMER_REAL, 100)", "signal.setitimer"),
    ("signal.alarm(100)", "signal.alarm"),
    ("signal.set_wakeup_fd(-1)", "signal.set_wakeup_fd"),
    ("os.fork()", "os.fork()"),
    ("os.forkpty()", "os.forkpty()"),
])
def test_a_model_cannot_take_cpsolves_signals_clock_or_process(tmp_path, call, words):
    """Ignoring or blocking Ctrl-C and SIGTERM would leave the command deaf to them, the
    alarm is the time limit's, and a forked child would go on after the command: each is
    the model file's error, at its line; nothing of the process was changed."""
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM,
                                                 signal.SIGALRM)}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    path = tmp_path / "taking.py"
    path.write_text(f"import os, signal, _signal\n{call}\n{BUILD}")
    pid = os.getpid()
    with pytest.raises(ModelFileError) as err:
        load(path)
    assert os.getpid() == pid
    assert str(err.value).startswith(f"{path}:2: ")
    assert words in str(err.value)
    assert {s: signal.getsignal(s) for s in handlers} == handlers
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == mask
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_other_signals_stay_the_models_and_everything_comes_back(tmp_path):
    """Signals cpsolve does not use are the model's to handle; once it has loaded, the
    functions are the standard library's again."""
    real = (signal.signal, signal.pthread_sigmask, os.fork)
    previous = signal.getsignal(signal.SIGUSR1)
    path = tmp_path / "usr1.py"
    path.write_text("import signal\nsignal.signal(signal.SIGUSR1, signal.SIG_IGN)\n"
                    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})\n" + BUILD)
    try:
        assert load(path).model.name == "one"
        assert signal.getsignal(signal.SIGUSR1) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert (signal.signal, signal.pthread_sigmask, os.fork) == real


def test_a_models_stdin_is_empty(tmp_path):
    """A model reads /dev/null as stdin (not the user's input: with an endless stream, as
    ``< /dev/zero``, ``sys.stdin.read()`` would never end); stdin is back afterwards."""
    import sys

    stream = sys.stdin
    path = tmp_path / "reads.py"
    path.write_text("import os, sys\nassert sys.stdin.read() == ''\n"
                    "assert os.read(0, 10) == b''\n" + BUILD)
    assert load(path).model.name == "one"
    assert sys.stdin is stream


def _load_message(path, answer) -> None:
    """In a daemonic child (as a batch loads models): the message loading ``path`` gives."""
    try:
        load(path)
        answer.put("loaded")
    except ModelFileError as err:
        answer.put(str(err))


def test_multiprocessing_in_a_daemonic_process_meets_the_fork_refused(tmp_path):
    """A batch loads models in cpsolve's own daemonic child, where ``multiprocessing``
    refuses children before any fork ("daemonic processes are not allowed to have
    children"): the model must get the refusal it gets in the main process instead."""
    import multiprocessing

    path = tmp_path / "pool.py"
    path.write_text("import multiprocessing\nmultiprocessing.Pool(2)\n" + BUILD)
    context = multiprocessing.get_context("fork")
    answer = context.Queue()
    child = context.Process(target=_load_message, args=(path, answer), daemon=True)
    child.start()
    message = answer.get(timeout=60)
    child.join(60)
    assert message.startswith(f"{path}:2: ") and "may not call os.fork()" in message
    assert "daemonic" not in message
