"""The ``cpsolve`` command line: :func:`main`, a table of commands.

Each command is one function ``(Cli) -> exit code`` in a module of its own
(:data:`COMMANDS`), imported only when it runs, so ``--help`` loads no engine.
Clashing options are refused by the declared rules of :mod:`.arguments`
(:data:`~.option_rules.OPTION_RULES`) before any command starts; ``--version`` prints
:data:`.version.VERSION`.

Exit codes: 0 an answer (a solution, a count, an analysis, or a proof that
there is none; also when stdout's reader has gone, ``| head`` — stdout's own pipe, not
another one: :func:`~.printer.stdout_gone`); 1 no answer within the
limits, or engines that disagree; 2 a bad command line or model file, or stdout that
cannot be written (a full disk); 3 an engine bug caught by the checker, an engine that
cannot be imported (a broken installation) or an internal error; 130 interrupted (Ctrl-C
or SIGTERM), after printing what was found.
"""

from __future__ import annotations

import importlib
import os
import sys

from .arguments import parser
from .option_rules import clash

COMMANDS: dict[str, str] = {
    "solve": "solve:solve",
    "count": "solve:count",
    "analyze": "solve:analyze",
    "compare": "compare:compare",
    "generate": "grids:generate",
    "show": "show:show",
    "export": "export:export",
    "validate": "validate:validate",
    "models": "info:models",
    "schema": "info:schema",
    "completion": "info:completion",
}
"""Command name -> ``module:function`` in this package; the function takes the
:class:`~.session.Cli` of the invocation and returns the exit code."""

INTERRUPTED = 130
"""Exit code after Ctrl-C or SIGTERM (128 + SIGINT): what was found is printed first."""


def command(name: str):
    """The function that runs command ``name`` (its module imported now)."""
    module, function = COMMANDS[name].split(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


SETTLE = 5.0
"""Seconds the command waits, before the process ends, for work still running in threads
of its own (a CP-SAT solve) once asked to stop."""


def main(argv: list[str] | None = None, early: list[float] | None = None) -> int:
    """Entry point of the ``cpsolve`` console script.

    Whatever happens, a user sees one line on stderr, never a traceback
    (set ``CPSOLVE_DEBUG=1`` to see one): exit 2 for a bad command line or
    model file, or stdout that cannot be written, 3 for an engine bug or an internal
    error, 130 when interrupted.
    With ``--json`` stdout holds one JSON object whatever the ending: the answer
    (what was found, at a limit or on Ctrl-C too) or an error object.  Called without
    ``argv`` (as the process's entry point), it leaves SIGINT and SIGTERM ignored: the
    process ends with it.  ``early``: the process's entry point (:func:`cpsolve.__main__.run`)
    caught signals while the modules loaded, at these times — they count as if they came
    now, and ``--time-limit`` counts from the process's start.
    """
    from ..engines.runtime import interrupt, memory, release
    from ..engines.runtime.alarms import disarm
    from ..engines.runtime.clock import state_limit
    from ..engines.runtime.cpu import process_start
    from .charset import degrading
    from .printer import guarded
    from .screen import fit_columns

    fit_columns()  # COLUMNS=0 would print nothing, COLUMNS=1 a letter a line
    last = argv is None  # the process's own command line: it ends with the command
    argv = sys.argv[1:] if argv is None else list(argv)
    printer = _printer(argv)
    interrupt.clear()
    started = process_start() if early is not None else None
    # the one handler, until the command has ended; the process's own command ends the
    # process when a model's code will not let Ctrl-C end its loading, and ends it through
    # os._exit: what engines handed over to be freed is left to it (release.until_exit)
    with interrupt.installed(last), interrupt.abandoning(_abandoned(printer) if last else None), \
            release.until_exit(last), degrading(), guarded():
        try:
            code = _delivered(argv, printer, started, early or [])
            disarm()  # the command has ended: no guard of its clock may raise any more
            if not interrupt.settle(SETTLE):  # never end while CP-SAT's threads run: abort
                _leave(code)
            interrupt.linger()
            return code
        finally:
            interrupt.clear()  # a stop asked for by this command ends with it (the API goes on)
            memory.set_limit(None)
            state_limit(None)


def _ended(argv: list[str], printer, started: float | None, early: list[float]) -> int:
    """Run the command line; every way it can end is one line on stderr with its exit code
    (and, with ``--json``, the error object)."""
    from ..engines.runtime import interrupt
    from ..engines.runtime.clock import TimeUp
    from ..engines.runtime.memory import MemoryUp
    from .printer import OutputCut, OutputLost, fail

    try:
        interrupt.replay(early)
        return _main(argv, printer, started)
    except BrokenPipeError as err:  # `cpsolve ... | head`: the reader has gone — if stdout
        from .printer import reader_gone, stdout_gone  # is the pipe that broke

        if not stdout_gone():  # a pipe of cpsolve's own (a worker's, a racer's, a tool's)
            return _internal(printer, err, f"a pipe other than stdout broke: {err}, "
                             f"{_broken_at(err)}")
        reader_gone()
        return 0
    except OutputLost as err:  # stdout on a full disk, an I/O error: not a bug
        return printer.lost(err)
    except OutputCut as err:  # a second Ctrl-C while a slow reader took the output: the
        printer.emitted = True  # rest goes nowhere, the line says it is cut
        return fail(str(err), INTERRUPTED)
    except interrupt.Interrupted as err:  # saying what was under way (a file loading)
        return printer.fail(str(err), INTERRUPTED)
    except KeyboardInterrupt:
        return printer.fail("interrupted", INTERRUPTED)
    except (TimeUp, MemoryUp) as err:  # the command's guard ends inside the command; never
        return printer.fail(str(err), 1)  # a traceback
    except RecursionError:
        return printer.fail("the model is nested too deeply to be handled", 2)
    except MemoryError:
        return printer.fail("out of memory (the memory limit was not reached in time: lower "
                            "--memory-limit)", 1)
    except Exception as err:  # noqa: BLE001 - the last line of defence
        return _internal(printer, err, f"{type(err).__name__}: {err}")


def _internal(printer, err: Exception, what: str) -> int:
    """A bug in cpsolve (``what`` went wrong, ``err`` raised): one line, exit 3 — or, with
    ``CPSOLVE_DEBUG`` set, ``err`` raised on with its traceback."""
    if os.environ.get("CPSOLVE_DEBUG"):
        raise err
    return printer.fail(f"internal error ({what}); this is a bug in cpsolve — set "
                        "CPSOLVE_DEBUG=1 to see the traceback", 3)


def _broken_at(err: BaseException) -> str:
    """Where ``err`` was raised: its innermost frame (``module.function``) and, when that is
    not cpsolve's (a library's write to a pipe), the innermost of cpsolve's that led there."""
    import traceback

    names = [f"{frame.f_globals.get('__name__', '?')}.{frame.f_code.co_name}"
             for frame, _ in traceback.walk_tb(err.__traceback__)] or ["?"]
    own = [name for name in names if name.split(".")[0] == __name__.split(".")[0]]
    where = f"in {names[-1]}"
    return where if not own or own[-1] == names[-1] else f"{where}, from {own[-1]}"


def _delivered(argv: list[str], printer, started: float | None, early: list[float]) -> int:
    """:func:`_ended`, then what it printed out of stdout's buffer (:func:`_flushed`), also
    when argparse ends the command itself (``--help``, ``--version``: ``SystemExit``)."""
    from .printer import OUTPUT_LOST

    try:
        code = _ended(argv, printer, started, early)
    except SystemExit:
        if _flushed(printer, 0) != 0:
            raise SystemExit(OUTPUT_LOST) from None
        raise
    return _flushed(printer, code)


def _flushed(printer, code: int) -> int:
    """``code``, once what the command printed is out of stdout's buffer: a failure to write
    it is told as one (:meth:`~.printer.Printer.lost`), a closed pipe is quiet."""
    from .printer import OutputCut, OutputLost, fail, reader_gone

    try:
        sys.stdout.flush()
    except BrokenPipeError:
        reader_gone()
    except OutputLost as err:
        return printer.lost(err)
    except OutputCut as err:  # a second Ctrl-C in the last flush, to a slow reader
        return fail(str(err), INTERRUPTED)
    return code


def _printer(argv: list[str]):
    """The invocation's printer, before its command line is read: the command (the first
    word naming one) and whether ``--json`` (or a prefix argparse takes for it) is asked,
    also as ``--json=...``, which argparse refuses: that error is JSON's too."""
    from .printer import Printer

    command = next((a for a in argv if a in COMMANDS), None)
    names = (a.split("=", 1)[0] for a in argv if a.startswith("--"))
    json_wanted = any(len(a) > 3 and "--json".startswith(a) for a in names)
    return Printer(command, json_wanted)


def _abandoned(printer):
    """What ends the process when a model file goes on loading after Ctrl-C or SIGTERM was
    raised into it (its code catches ``KeyboardInterrupt``): the one error line and, with
    ``--json``, the error object (written to the real stdout: the model's code has fd 1
    pointing at stderr), then exit 130 at once — the main thread is the user's code's."""
    def end(what: str) -> None:
        from ..engines.runtime.guard import release
        from ..output.json import error_json
        from ..puzzles.files import stdout_fd
        from .arguments import printable
        from .charset import json_text

        release()  # this process writes its own ending: the loading's guard must not
        message = printable(f"interrupted while {what}")
        _write(2, f"error: {message}\n", sys.stderr)
        if printer.json and not printer.emitted:
            obj = error_json(printer.command, message, INTERRUPTED)
            _write(stdout_fd(), json_text(obj) + "\n", sys.__stdout__)
        _leave(INTERRUPTED)

    return end


def _write(fd: int, text: str, stream) -> None:
    """Write ``text`` to file descriptor ``fd`` itself, after what ``stream`` holds for it,
    in the stream's encoding (what it cannot encode as :data:`.charset.HANDLER` writes it)."""
    from .charset import HANDLER

    try:
        if stream is not None:
            stream.flush()
        os.write(fd, text.encode(getattr(stream, "encoding", None) or "utf-8", HANDLER))
    except (OSError, ValueError):
        pass


def _leave(code: int) -> None:
    """End the process now, output flushed (threads that would not stop are left behind
    without running C++'s exit handlers, which would abort)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _main(argv: list[str], printer, started: float | None = None) -> int:
    from .arguments import BadCommandLine

    p = parser(argv[:1] if argv[:1] and argv[0] in COMMANDS else ())  # only what argv needs
    if not argv:
        p.print_help()
        return 0
    try:
        args = p.parse_args(argv)
    except BadCommandLine as bad:  # already on stderr; with --json, the error object too
        if printer.json:
            from ..output.json import error_json

            printer.emit(error_json(printer.command, bad.message, bad.code))
        raise
    printer.command, printer.json = args.command, bool(getattr(args, "json", False))
    why = clash(args)
    if why:
        return printer.fail(why, 2)
    from .session import Cli

    cli = Cli(args, printer, started)
    return _guarded(cli, args.command)


def _guarded(cli, name: str) -> int:
    """Run command ``name`` within the command's clock; the errors a user can cause or meet
    are one line with their code.  A command that ends with its answer (or a limit's) after
    Ctrl-C or SIGTERM exits 130, whichever command it is.

    The clock guards the whole command (:meth:`~cpsolve.engines.runtime.clock.Clock.guard`):
    at the limit every engine is asked to stop, and work still under way
    :meth:`~cpsolve.engines.runtime.clock.Clock.last_word` seconds later (an import, a
    model's facts) is cut off — the guards inside it (loading, an engine) stop earlier,
    with what they have.  The answer's printing is never cut
    (:func:`~cpsolve.engines.runtime.alarms.printing`)."""
    from ..answers.result import EngineBug, EngineFailed, Unsupported
    from ..engines.runtime import interrupt
    from ..engines.runtime.clock import TimeUp
    from ..engines.runtime.memory import MemoryUp
    from ..model import ModelError
    from ..puzzles.data import ModelFileError
    from .session import OutputError
    from .sources import pair_up

    try:
        act = command(name)  # its module imported first: a command that answers at its
        # limit (a batch's rows, compare's models) is never cut before it has begun
        with cli.clock.guard(f"running {name}", cli.clock.last_word()):
            pair_up(cli.args)
            code = act(cli)
        # stopped by Ctrl-C / SIGTERM: whatever the command printed (its answer so far,
        # a limit's result), the exit says it was interrupted
        return INTERRUPTED if code in (0, 1) and interrupt.by_user() else code
    except ModelError as err:  # what an engine found wrong in the model (an estimate over
        return cli.fail(_of_file(cli, str(err)), 2)  # the cost), in any command: its file
    except (ModelFileError, OutputError, Unsupported) as err:
        return cli.fail(str(err), 2)
    except EngineBug as err:
        return cli.fail(err.said(), 3)
    except EngineFailed as err:  # an external tool's own failure, in its words
        return cli.fail(str(err), 3)
    except ImportError as err:
        return _import_failed(cli, err)
    except (TimeUp, MemoryUp) as err:
        return cli.fail(str(err), 1)


def _of_file(cli, message: str) -> str:
    """``message`` naming the command's one model file first, as a file's errors do."""
    from .sources import file_name

    name = getattr(cli.args, "file", None)
    return f"{file_name(name)}: {message}" if isinstance(name, str) else message


def _import_failed(cli, err: ImportError) -> int:
    """An engine that did not import: a broken installation (exit 3), unless the clock's
    stop (or Ctrl-C) came while a compiled module was being set up — pybind11 turns any
    exception raised then into ``ImportError("initialization failed")``."""
    from ..engines.runtime import interrupt

    if interrupt.by_user():
        return cli.fail("interrupted", INTERRUPTED)
    if cli.clock.time_up() or interrupt.requested():
        why = "a stop was asked for" if cli.clock.limit is None else \
            f"the time limit ({cli.clock.limit:g} s) was reached"
        return cli.fail(f"{why} while an engine was being imported ({err})", 1)
    return cli.fail(str(err), 3)


__all__ = ["COMMANDS", "command", "main"]
