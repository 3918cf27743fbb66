"""Stdout that cannot be written (a full disk, an I/O error, stdout closed) is one line on
stderr and exit 2 in every command, with or without ``--json``: the user's system, not a
bug in cpsolve (exit 3), and never a traceback.  A closed pipe (``| head``) stays quiet,
exit 0 (tests/cli/test_hostile.py), when it is stdout's: another pipe that breaks is a bug
in cpsolve, exit 3."""

from __future__ import annotations

import errno
import json
import os
import shlex
import subprocess
import sys

import pytest

from cpsolve.cli.printer import Guarded, OutputLost

FULL = "error: cannot write the output: No space left on device"
"""What ``/dev/full`` makes of a write: ENOSPC, in the system's words."""

ENV = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONUNBUFFERED")}
"""As a user runs it: stdout buffered (its last part written by the last flush)."""

needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


def cpsolve(argv: list[str], redirect: str) -> subprocess.CompletedProcess:
    """``cpsolve ARGV REDIRECT`` (a shell redirection of stdout), as a user runs it."""
    cmd = f"{shlex.join([sys.executable, '-m', 'cpsolve', *argv])} {redirect}"
    return subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120,
                          env=ENV)


@needs_dev_full
@pytest.mark.parametrize("argv", [
    ["solve", "water_jugs", "--engine", "search", "--json"],
    ["solve", "water_jugs", "--engine", "search"],
    ["solve", "water_jugs", "blocks", "--engine", "search", "--json"],
    ["solve", "water_jugs", "blocks", "--engine", "search"],
    ["count", "xsudoku5", "--engine", "search", "--list"],
    ["generate", "sudoku4", "--givens", "4", "--random", "1", "--json"],
    ["validate", "hanoi4", "{plan}"],  # a plan of an action hanoi4 lacks: "invalid: ..."
    ["models"],
    ["models", "--json"],
    ["schema"],
    ["completion", "bash"],
    ["show", "water_jugs", "--svg", "-"],
    ["--help"],
])
def test_a_full_disk_is_one_line_and_exit_2(argv, tmp_path):
    plan = tmp_path / "plan.txt"
    plan.write_text("(fly to the moon)\n")
    done = cpsolve([str(plan) if a == "{plan}" else a for a in argv], "> /dev/full")
    assert (done.returncode, done.stderr) == (2, FULL + "\n")


def test_a_closed_stdout_is_one_line_and_exit_2():
    done = cpsolve(["solve", "water_jugs", "--engine", "search", "--json"], ">&-")
    assert done.returncode == 2
    assert done.stderr == f"error: cannot write the output: {os.strerror(errno.EBADF)}\n"


@needs_dev_full
def test_the_error_of_a_bad_file_stays_the_one_line_when_stdout_is_full_too():
    """``--json`` owes the error object to stdout; stdout cannot take it: the error's own
    line and code are what is said."""
    done = cpsolve(["solve", "no_such_model", "--json"], "> /dev/full")
    assert done.returncode == 2
    assert done.stderr == "error: no_such_model: no such file\n"


@needs_dev_full
def test_the_last_flush_of_the_process_that_fails_is_one_line_and_exit_2():
    """What is still in stdout's buffer when the process ends (``leave``) meets the full
    disk there: the same line, exit 2, not a quiet exit 0."""
    script = ("import sys\nfrom cpsolve.__main__ import leave\n"
              "sys.stdout.write('answer\\n')\nleave(0)\n")
    done = subprocess.run(f"{shlex.quote(sys.executable)} -c {shlex.quote(script)} "
                          "> /dev/full", shell=True, capture_output=True, text=True,
                          timeout=60, env=ENV)
    assert (done.returncode, done.stderr) == (2, FULL + "\n")


@needs_dev_full
@pytest.mark.parametrize("argv, code", [
    (["solve", "no_such_model"], 2),
    (["solve", "no_such_model", "--json"], 2),
    (["solve", "water_jugs", "--engine", "search", "--bogus"], 2),
    (["solve", "water_jugs", "blocks", "--engine", "search"], 0),
    (["count", "xsudoku5", "--engine", "search", "--list", "-n", "3"], 1),  # "at least 3"
])
@pytest.mark.parametrize("stdout", ["> /dev/null", "> /dev/full"])
def test_a_stderr_that_cannot_be_written_leaves_the_exit_code_as_it_was(argv, code, stdout):
    """``2>/dev/full``: the error line is lost, not raised (exit 1 from the interpreter
    before); the code is the command's own — and exit 2 for a stdout that cannot be
    written either."""
    done = cpsolve(argv, f"{stdout} 2> /dev/full")
    assert done.returncode == (2 if stdout == "> /dev/full" else code)


def test_closed_stderr_leaves_the_exit_code_as_it_was():
    assert cpsolve(["solve", "no_such_model"], "2>&-").returncode == 2


@pytest.mark.parametrize("argv, code, said", [
    (["solve", "water_jugs", "--engine", "search"], 0, "10 moves"),
    (["solve", "water_jugs", "--engine", "search", "--json"], 0, '"status": "optimal"'),
    (["solve", "water_jugs", "blocks", "--engine", "search"], 0, "2 optimal"),
    (["count", "latin4", "--engine", "search"], 0, "576"),
])
def test_closed_stderr_leaves_the_answer_and_its_exit_code(argv, code, said):
    """``2>&-``: Python starts with no ``sys.stderr``; the answer is printed as ever (it was
    an internal error, exit 3, with nothing on stdout)."""
    done = cpsolve(argv, "2>&-")
    assert done.returncode == code and said in done.stdout


class Failing:
    """A stream whose every write fails with ``error``."""

    def __init__(self, error: OSError) -> None:
        self.error = error

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def test_a_guarded_stdout_tells_a_lost_output_from_a_closed_pipe():
    lost = Guarded(Failing(OSError(errno.EIO, os.strerror(errno.EIO))))
    with pytest.raises(OutputLost, match=f"cannot write the output: {os.strerror(errno.EIO)}"):
        lost.write("x")
    with pytest.raises(BrokenPipeError):  # the reader has gone: not an error of the output
        Guarded(Failing(BrokenPipeError(errno.EPIPE, "broken pipe"))).write("x")
    assert lost.isatty() is False  # the rest is the stream's own
    with pytest.raises(OutputLost):  # stdout closed when the process started
        Guarded(None).write("x")
    Guarded(None).flush()  # nothing written: nothing to flush, no error


def test_an_error_line_with_a_line_separator_a_bidi_override_and_an_escape(cli, tmp_path):
    """A file name that would break the line (U+2028), reverse what follows (a bidi
    override) and start a terminal's escape sequence: one line, each of them escaped."""
    run = cli("solve", tmp_path / "a\u2028b\u202ec\x1b[31md.toml")
    assert run.code == 2
    assert run.err.count("\n") == 1 and not any(ch in run.err for ch in "\u2028\u202e\x1b")
    assert run.err.startswith("error: ") and "a\\u2028b\\u202ec\\x1b[31md.toml" in run.err


@pytest.mark.parametrize("argv", [
    ["solve", "water_jugs", "--engine", "search"],
    ["solve", "water_jugs", "--engine", "search", "--json"],
    ["solve", "water_jugs", "blocks", "--engine", "search"],  # a batch catches it itself
    ["solve", "water_jugs", "blocks", "--engine", "search", "--json"],
    ["compare", "water_jugs", "--json"],
])
def test_a_broken_pipe_that_is_not_stdouts_is_a_bug_not_a_quiet_exit_0(cli, monkeypatch, argv):
    """A ``BrokenPipeError`` from a pipe other than stdout (here the engine's, as a pipe to a
    worker of ``--jobs``, a racer or an external tool would raise it) was taken for stdout's
    reader gone: exit 0, nothing said, no JSON.  Stdout is fine here, so it is a failure of
    cpsolve: one line naming the pipe and where it broke, exit 3, and with ``--json`` the
    error object as the one document (docs/json.md)."""
    import cpsolve.engines.search.engine as search

    def broken(model, options):
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    monkeypatch.setattr(search, "solve", broken)
    run = cli(*argv)
    assert run.code == 3
    said = run.err.splitlines()
    assert len(said) == 1 and said[0].startswith(
        "error: internal error (a pipe other than stdout broke"), run.err
    assert "test_printer.broken" in said[0]  # where it broke
    if "--json" in argv:
        objects = [json.loads(line) for line in run.out.splitlines()]
        assert len(objects) == 1 and objects[0]["status"] == "error"
        assert objects[0]["exit"] == 3 and objects[0]["error"] == said[0][len("error: "):]


def test_stdout_is_the_broken_pipe_only_when_stdout_says_so(monkeypatch):
    """:func:`stdout_gone` looks at stdout itself: a pipe whose reader is there is not gone,
    one whose reader has closed it is; a stream that is no file (a test's capture) is gone
    only once one of its own writes said so."""
    from cpsolve.cli import printer

    monkeypatch.setattr(printer, "_gone", [False])
    read, write = os.pipe()
    with os.fdopen(write, "w") as stdout:
        monkeypatch.setattr(sys, "stdout", stdout)
        assert printer.stdout_gone() is False
        os.close(read)
        assert printer.stdout_gone() is True
        monkeypatch.setattr(sys, "stdout", Failing(BrokenPipeError(errno.EPIPE, "")))
        assert printer.stdout_gone() is False  # no file to look at, no write yet
        with pytest.raises(BrokenPipeError):
            Guarded(sys.stdout).write("x")
        assert printer.stdout_gone() is True
        monkeypatch.setattr(sys, "stdout", sys.__stdout__)  # before the pipe's file closes
