"""The guard of a Python model's loading (:mod:`cpsolve.engines.runtime.guard`): code that
holds the interpreter in one C call is ended by another process, which writes the one
line and the one document prepared for it; a block that ends in time writes nothing."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

HELD = """
import os, signal, sys, time
from cpsolve.engines.runtime import interrupt
from cpsolve.engines.runtime.guard import Ending, guarded

after = {after}
signal.signal(signal.SIGINT, lambda *a: None)   # a Python handler, as cpsolve's own
signal.signal(signal.SIGTERM, lambda *a: None)
with guarded(after, Ending(b"line: interrupted\\n", b"{{\\"doc\\": 1}}\\n"),
             Ending(b"line: time\\n", b"{{\\"doc\\": 2}}\\n")):
    print("holding", file=sys.stderr, flush=True)
    {work}
print("ended", flush=True)
"""


def _run(after: float | None, work: str, signum: int | None = None):
    code = textwrap.dedent(HELD.format(after=after, work=work))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if signum is not None:
        assert proc.stderr.readline() == "holding\n"
        proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


HOLDING = "sum(range(10**12))  # one C call: no Python handler runs until it returns"


def test_the_time_limit_ends_code_that_holds_the_interpreter():
    code, out, err = _run(0.5, HOLDING)
    assert code == -signal.SIGKILL
    assert out == '{"doc": 2}\n'
    assert err.endswith("line: time\n")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_code_that_holds_the_interpreter(signum):
    code, out, err = _run(None, HOLDING, signum)
    assert code == -signal.SIGKILL
    assert out == '{"doc": 1}\n'
    assert err.endswith("line: interrupted\n")


def test_a_block_that_ends_in_time_writes_nothing():
    code, out, err = _run(60.0, "time.sleep(0.3)")
    assert (code, out, err) == (0, "ended\n", "holding\n")


def test_a_signal_answered_within_the_second_writes_nothing():
    """The process's own handlers answer (here: the block ends 0.2 s after the signal):
    the guard lets it end as it will."""
    code, out, err = _run(None, "time.sleep(0.4)", signal.SIGTERM)
    assert (code, out) == (0, "ended\n")
    assert "line" not in err
