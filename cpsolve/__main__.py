"""The process's entry point: ``cpsolve`` (the console script) and ``python -m cpsolve``.

:func:`run` catches SIGINT and SIGTERM — from this module's import on, before anything
heavy is imported: a Ctrl-C while the engines load must end as any other interruption
does (exit 130, what was found printed), not with a traceback — and hands the signals
that came meanwhile to the command's own handler (:func:`cpsolve.cli.main`).  Once the
command has ended, its output flushed and the exit handlers run, the process leaves
without tearing down every module (a few tenths of a second on a loaded machine with
OR-Tools loaded, past the time limit the answer kept to).
"""

import signal
import time

_early: list[float] = []
"""When SIGINT or SIGTERM came before the command's handler took over (``time.monotonic``)."""


def _catch(signum: int, frame: object) -> None:  # noqa: ARG001 - handler signature
    _early.append(time.monotonic())


def _catching() -> None:
    """Take SIGINT and SIGTERM with :func:`_catch` (in the main thread only: elsewhere
    signals cannot be handled, and the command's own handler says so)."""
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _catch)
    except ValueError:  # not the main thread
        pass


_catching()  # first of all: this module is imported by the console script and ``-m``
# alone, and a signal during the imports below would otherwise be a traceback

import atexit  # noqa: E402 - after the handler, on purpose
import os  # noqa: E402
import sys  # noqa: E402


def run() -> int:
    """Run the command line of this process; its exit code."""
    _catching()  # again: a caller may have imported this module long before
    if sys.stderr is None:  # closed when the process started (2>&-): its lines are lost,
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # and nothing else changes
    from .cli import main

    return main(early=_early)


def leave(code: int) -> None:
    """End the process with ``code``: output flushed, exit handlers run (a Dask cluster's,
    multiprocessing's), the interpreter's teardown skipped.  Stdout that cannot take what
    is left of the output (a full disk: not a closed pipe, whose reader had what it wanted)
    is one line on stderr and exit 2, as when the command's own writes fail."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # closed when the process started
                stream.flush()
        except BrokenPipeError:  # the reader has gone: nothing more to say
            pass
        except (OSError, ValueError) as err:
            if stream is sys.stdout and isinstance(err, OSError):
                code = _lost(err)
    atexit._run_exitfuncs()
    os._exit(code)


def _lost(err: OSError) -> int:
    """Stdout's last flush failed: the one line on stderr; the exit code."""
    from .cli.printer import OUTPUT_LOST, OutputLost, fail

    return fail(str(OutputLost(err)), OUTPUT_LOST)


def command() -> None:
    """The ``cpsolve`` console script: :func:`run`, then :func:`leave` with its code."""
    leave(run())


if __name__ == "__main__":
    command()
