"""One invocation of the command line: its arguments, clock, consoles and shared helpers.

:class:`Cli` is handed to every command (:mod:`cpsolve.cli`'s table): it loads
model files within the time limit, makes the engines' :class:`~cpsolve.engines.Options`
and prints; :func:`exit_code` gives every command's exit code the same way.  Shared
helpers: :mod:`.consoles` (rich's consoles, progress on a terminal), :mod:`.sources` (PDDL
pairs, a source's name), :mod:`.warn` (``[expected]`` and unsaved pattern databases on
stderr), :mod:`.writing` (the files written beside an answer).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cached_property

from ..answers.kinds import Count
from ..answers.result import Result, Status
from ..engines import Options
from ..engines.runtime import interrupt, memory
from ..engines.runtime.clock import FLOOR, Clock, reached, state_limit
from ..engines.runtime.cpu import cpu_share
from ..puzzles.data import reading
from ..puzzles.files import load, resolve
from .checks import over_input
from .command_options import AUTO_BUDGET
from .consoles import console, shows_progress, stdout_is_terminal
from .printer import Printer
from .screen import shares_terminal

INTERRUPTED = 130
"""Exit code after Ctrl-C or SIGTERM (128 + SIGINT): what was found is printed first."""


class OutputError(Exception):
    """An output file that cannot be written: one that would write over an input, or a
    write that failed after the answer was printed."""


def exit_code(result: Result, wanted: int | None = None) -> int:
    """1 when a limit stopped the work short of a whole answer, else 0.

    A count stopped short is 1 whatever stopped it (the time or memory limit, or ``count``'s
    own ``-n``/``--limit``: "at least N" is not the count), as ``analyze --limit`` is.
    ``wanted``: the work asked for that many solutions and no more (``show --gallery N``
    draws N): finding them is the whole answer.
    """
    if result.status in (Status.UNKNOWN, Status.PARTIAL):
        return 1
    if result.status is Status.AT_LEAST:
        found = result.answer.count if isinstance(result.answer, Count) else 0
        return 0 if wanted is not None and found >= wanted else 1
    return 0


TAIL = 0.2
"""Seconds of a command's time limit kept for what follows its engines: the answer
checked, printed, the process ended."""

TAIL_CPU = 0.05
"""CPU seconds of that work: on a loaded machine, where this process gets a share of a
core, the tail in wall seconds grows to ``TAIL_CPU / share`` (:meth:`Cli.tail`)."""


class Cli:
    """One invocation: consoles and the shared error handling."""

    def __init__(self, args: argparse.Namespace, printer: Printer | None = None,
                 started: float | None = None):
        self.args = args
        self.printer = printer or Printer(args.command, getattr(args, "json", False))
        """The one printer of this invocation's JSON (:meth:`emit`, :meth:`fail`)."""
        self.clock = Clock(getattr(args, "time_limit", None), start=started)
        """The command's clock: from ``started`` (the process's start) or from now."""
        state_limit(self.clock.limit)  # what messages name, whatever share an engine has
        self.cpu_before = 0.0 if started is not None else time.process_time()
        """The process's CPU time when the clock started (in a process run for longer, as
        a test's, what the command used is measured from there)."""
        self.loaded: dict[str, object] = {}
        """Puzzles already loaded, by the name given (a file's second load is never needed)."""
        self.read: list[str] = []
        """Every file the command has read so far (:meth:`reading`)."""
        nbytes = getattr(args, "memory_limit", None)
        if nbytes is None and args.command not in ("models", "schema", "completion"):
            nbytes = memory.default_limit()
        memory.set_limit(None if nbytes is None or nbytes == math.inf else int(nbytes))

    def auto_budget(self) -> float | None:
        """Seconds for ``--engine auto``: what is left of --time-limit, none for
        ``--time-limit none``, else :data:`AUTO_BUDGET`."""
        if self.clock.limit is not None:
            return self.engine_time()
        return None if self.lifted() else AUTO_BUDGET

    def lifted(self) -> bool:
        """``--time-limit none`` (or ``inf``): no limit at all, which is not the same as
        none given — no default budget applies either (``Options.no_time_limit``)."""
        return getattr(self.args, "time_limit", None) == math.inf

    def engine_time(self) -> float | None:
        """Seconds the engines may take: what is left of --time-limit but :data:`TAIL`
        (checking, printing and exiting come after them, within the limit too)."""
        left = self.clock.left()
        return None if left is None else max(FLOOR, left - self.tail())

    def tail(self) -> float:
        """Wall seconds kept after the engines (:data:`TAIL`, more when this process has
        had a small share of a core so far: the same work then takes longer)."""
        return max(TAIL, TAIL_CPU / self.share())

    def share(self) -> float:
        """The share of a core this command has had so far (:func:`cpu_share`)."""
        return cpu_share(self.clock.elapsed(), self.cpu_before)

    def too_late_for(self, engine: str) -> str | None:
        """Why ``engine`` must not start now, or ``None``: the time left would not cover
        the tail and the engine's start (:func:`~cpsolve.engines.start_cost`), at the share
        of a core this process has had so far."""
        if self.clock.limit is None:
            return None
        from ..engines import late_start

        left = self.clock.left()
        if left <= self.tail():
            return f"{reached(self.clock.limit)} before {engine} started"
        return late_start(engine, left - self.tail(), self.share(), self.clock.limit)

    def load(self, name: str | tuple[str, str], whole: bool = False):
        """The puzzle of a model file (or bundled model name), or of a PDDL ``(domain,
        problem)`` pair (``whole``: with every ground action, to check a plan), loaded
        within the time limit (once: :meth:`is_batch` keeps the puzzle it loaded to
        look)."""
        if isinstance(name, str) and name in self.loaded:
            return self.loaded.pop(name)
        what = f"loading {name if isinstance(name, str) else name[1]}"
        with self.reading(what):
            if isinstance(name, tuple):
                from ..puzzles.pddl_task import load as load_pddl

                return load_pddl(*name, whole)
            path = resolve(name)
            with self.guarded(what, path):
                return load(path)

    def guarded(self, what: str, path) -> contextlib.AbstractContextManager:
        """A Python model's code runs in the block under a guard process
        (:mod:`~cpsolve.engines.runtime.guard`): code that holds the interpreter (one long C
        call) would keep Ctrl-C, SIGTERM and the time limit from ever acting.  A signal not
        answered a second later, or the limit passed by a second, ends the process there:
        the one line and error object, exit 137 (killed).  Only in the process's own
        command (:func:`.interrupt.abandons`); a model file that is not Python runs no
        code of its own, and the block just runs."""
        if not str(path).endswith(".py") or not interrupt.abandons():
            return contextlib.nullcontext()
        from ..engines.runtime.clock import TimeUp
        from ..engines.runtime.guard import KILLED, Ending, guarded

        why = "the model's code did not give control back: cpsolve's process was killed"
        left = self.clock.left()
        return guarded(None if left is None or left == math.inf else left + interrupt.ESCALATE,
                       Ending(*self.printer.prepared(f"interrupted while {what} ({why})",
                                                     KILLED)),
                       Ending(*self.printer.prepared(
                           f"{TimeUp(what, self.clock.limit or 0)} ({why})", KILLED)))

    @contextmanager
    def loading(self, what: str) -> Iterator[None]:
        """Load a model file within the time limit (``what``: the clock's words, ``loading
        FILE``) and the memory limit (:func:`.memory.watching`), and end at once on Ctrl-C
        or SIGTERM (:func:`.interrupt.loading`: loading has nothing to keep, and may never
        end)."""
        with self.clock.guard(what), memory.watching(what), interrupt.loading(what):
            yield

    @contextmanager
    def reading(self, what: str) -> Iterator[None]:
        """Read files within the time limit (``what``: the clock's words), noting each in
        :attr:`read`; then refuse (:class:`OutputError`, exit 2) an output that would write
        over one of them (:func:`~.checks.over_input`), before any engine runs.

        A limit already run out before the first file is read (shorter than the start of
        the process itself) is :class:`TimeUp` at once: the guard's shortest timer
        (:data:`FLOOR`) would otherwise let a quick file load and a slower one not."""
        if not self.read and self.clock.time_up():
            from ..engines.runtime.clock import TimeUp

            raise TimeUp(what, self.clock.limit)
        with self.loading(what), reading(self.read):
            yield
        why = over_input(self.args, read=self.read)
        if why:
            raise OutputError(why)

    def import_dask(self) -> None:
        """Import Dask within the time limit (seconds on a loaded machine, before any
        scheduler is asked or worker started): past it, :class:`TimeUp` (exit 1, "the time
        limit (2 s) was reached while importing Dask").  Not installed: nothing here (the
        cluster's client says what to install)."""
        from ..workflows.batch.cluster import import_dask

        with self.clock.guard("importing Dask"):
            import_dask()

    @cached_property
    def out(self):
        """The console for results (rich, loaded on first use: --json never needs it)."""
        return console(stderr=False)

    @cached_property
    def err(self):
        """The console for progress lines, on stderr."""
        return console(stderr=True)

    @contextmanager
    def progress(self, what: str) -> Iterator[Options]:
        """Options with a progress callback that shows a status line on a terminal
        (none when stderr is not one: nothing would be shown, and rich is not loaded).
        What is printed meanwhile goes above the line when stdout is the same terminal,
        else to stdout itself (:func:`~.screen.shares_terminal`)."""
        options = Options(
            time_limit=self.engine_time(),
            no_time_limit=self.lifted(),
            limit=getattr(self.args, "limit", None),
            algorithm=getattr(self.args, "algorithm", None),
            keep=getattr(self.args, "list", False),
            direction=getattr(self.args, "direction", None),
            satisficing=getattr(self.args, "satisficing", False),
            work_dir=getattr(self.args, "work_dir", None),
            resume=getattr(self.args, "resume", False),
            memory_limit=self.array_budget(),
            cluster=self.cluster(),
            find_hint=not getattr(self.args, "no_hint", False),
            solver=getattr(self.args, "solver", None),
            encoding="time-indexed" if getattr(self.args, "time_indexed", False) else None,
            unique=getattr(self.args, "unique", False),
            optimal=getattr(self.args, "optimal", False),
        )
        if not shows_progress():
            yield options
            return
        from rich.live import Live
        from rich.spinner import Spinner
        from rich.text import Text  # a status line's string would be read as markup

        spinner = Spinner("dots", Text(what), style="status.spinner")
        # rich's own status takes stdout's lines whatever stdout is: `count --list --json >
        # out.json` in a terminal wrote each solution's line on the terminal, not the file
        with Live(spinner, console=self.err, transient=True, refresh_per_second=12.5,
                  redirect_stdout=shares_terminal()):
            def report(line: str) -> None:
                spinner.update(text=Text(f"{what}: {line}"))

            yield dataclasses.replace(options, progress=report)

    @contextmanager
    def bar(self, what: str, total: int | None) -> Iterator[Callable[[], None]]:
        """A progress bar of ``total`` steps (``None``: not known beforehand), advanced by
        the function it gives; when stderr is a terminal only (elsewhere rich would leave a
        blank line on stderr).  What is printed meanwhile (a batch's rows) goes to stdout:
        above the bar when stdout is the terminal too (the bar is then drawn through
        stdout's console), else to the pipe or file itself, the bar staying on stderr (and
        stderr's lines go to stderr, never through a bar drawn on stdout).  JSON
        lines never pass through the bar: with ``--json`` on the terminal there is none
        (the lines are the progress)."""
        on_stdout = stdout_is_terminal()
        if not shows_progress() or (on_stdout and self.printer.json):
            yield lambda: None
            return
        from rich.progress import Progress

        with Progress(console=self.out if on_stdout else self.err, transient=True,
                      redirect_stdout=on_stdout,
                      redirect_stderr=not on_stdout or shares_terminal()) as bar:
            task = bar.add_task(what, total=total)
            yield lambda: bar.advance(task)

    def array_budget(self) -> int | None:
        """Bytes for an on-disk analysis's big arrays: half of ``--memory-limit``, so the
        whole process stays under the limit that stops it (without one: the analysis's own
        default budget)."""
        nbytes = getattr(self.args, "memory_limit", None)
        return None if nbytes is None or nbytes == math.inf else int(nbytes) // 2

    def cluster(self) -> int | str | None:
        """``--workers N`` (a local cluster of N), ``--scheduler ADDRESS``, or None."""
        return getattr(self.args, "workers", None) or getattr(self.args, "scheduler", None)

    def emit(self, obj: dict) -> None:
        """Print the command's one JSON object (:meth:`Printer.emit`)."""
        self.printer.emit(obj)

    def line(self, obj: dict) -> None:
        """Print one JSON line of a batch or a cluster's compare (:meth:`Printer.line`)."""
        self.printer.line(obj)

    def fail(self, message: str, code: int) -> int:
        """Print one plain line on stderr (never wrapped, never read as markup); with
        ``--json``, the error object too unless the answer is already out."""
        return self.printer.fail(message, code)
