"""The process's entry point (:mod:`cpsolve.__main__`) takes SIGINT and SIGTERM from its own
import on: the console script imports it first, and a Ctrl-C during the imports that follow
is an interruption of the command (exit 130, a JSON error object with ``--json``), not a
traceback."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_entry_point_catches_the_signals_at_once():
    probe = ("import signal, sys\n"
             "import cpsolve.__main__ as entry\n"
             "print(signal.getsignal(signal.SIGINT) is entry._catch,\n"
             "      signal.getsignal(signal.SIGTERM) is entry._catch)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True"]


def test_a_signal_during_the_imports_is_kept_for_the_command():
    """A SIGINT sent to itself while the entry point's imports run (simulated: right after
    the module is imported, before :func:`run`) is an interruption the command reports."""
    probe = ("import os, signal, sys\n"
             "sys.argv = ['cpsolve', 'count', 'xsudoku5', '--json']\n"
             "import cpsolve.__main__ as entry\n"
             "os.kill(os.getpid(), signal.SIGINT)\n"
             "entry.command()\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 130, done.stderr
    assert '"error"' in done.stdout and "Traceback" not in done.stderr
