"""Model files: read a TOML file, pick its family, build the puzzle.

Every problem with a file becomes a
:class:`~cpsolve.puzzles.data.ModelFileError` that names the file, the key
(or line) and what is wrong; the CLI prints it and exits 2.  The families
themselves are listed in :data:`cpsolve.puzzles.FAMILIES`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import threading
import tomllib
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..language.quoting import shown
from ..language.syntax import ExprError
from ..model import ModelError
from . import FAMILIES
from .data import Data, ModelFileError, note_read, read_text, regular_file
from .expected_table import check_applies, read_expected

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
"""The bundled models: package data (in a checkout, ``cpsolve/models`` links to ``models/``)."""

MODEL_FILES = "cpsolve reads .toml and .py models, and PDDL as DOMAIN.pddl PROBLEM.pddl"
"""What cpsolve reads, said when a file of another kind is given (a MiniZinc ``.mzn``)."""


def read_table(path: str | Path) -> dict[str, Any]:
    """The TOML table of a file, or a :class:`ModelFileError`.

    Refused with one clear message: everything :func:`read_text` refuses, TOML
    syntax errors, integers of thousands of digits and arrays nested beyond
    what the reader can follow.  A file whose name does not end in ``.toml`` is read as
    TOML too (``jugs.txt``); when it is none, the message says first what cpsolve reads
    (:data:`MODEL_FILES`): ``golomb6.mzn`` was "TOML syntax error: Invalid statement".
    """
    text = read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        if Path(path).suffix.lower() != ".toml":  # TOML by another name is read all the same
            raise ModelFileError(path, f"not a model file: {MODEL_FILES} (as TOML: {err})") \
                from None
        raise ModelFileError(path, f"TOML syntax error: {err}") from None
    except ValueError as err:  # e.g. an integer of thousands of digits
        raise ModelFileError(path, f"TOML value out of range: {str(err).split(';')[0]}") from None
    except RecursionError:
        raise ModelFileError(path, "TOML arrays or tables nested too deeply") from None


def load(path: str | Path):
    """Build the puzzle described by a model file (``.toml``, or a user's ``.py``), or by a
    bundled model's name (``"water_jugs"``, as the command line takes it: :func:`resolve`).

    A file holding a collection (one puzzle per line) gives its first puzzle;
    :func:`load_many` gives them all.
    """
    first = next(iter(load_many(path)))
    if isinstance(first, ModelFileError):
        raise first
    return first


def load_many(path: str | Path) -> Iterator:
    """Every puzzle of a model file: one, or each instance of a collection.

    Every problem with the file is raised before the first puzzle is yielded; a bad line of
    a collection is yielded in its place as its :class:`ModelFileError` (unless all are).
    """
    path = resolve(str(path))  # a path that exists as given, else a bundled model's name
    if str(path).endswith(".py"):
        return iter([load_python(path)])
    data = Data(read_table(path), path)
    family = data.get("family", str)
    if family not in FAMILIES:
        raise data.error("family", f"unknown family {shown(family)} (known: {', '.join(FAMILIES)})")
    entry = FAMILIES[family]
    data.top_level = entry.keys  # a top-level key in [expected] is said to be misplaced
    expected = read_expected(data)
    try:
        puzzles = list(entry.many(data)) if entry.many is not None else [entry.build(data)]
        for puzzle in puzzles:
            if not isinstance(puzzle, ModelFileError):
                _validate(puzzle.model)
                check_applies(data, expected, puzzle.model)
    except (ModelError, ExprError) as err:
        raise ModelFileError(path, str(err)) from None
    if all(isinstance(p, ModelFileError) for p in puzzles):
        raise puzzles[0]
    if expected:
        puzzles = [p if isinstance(p, ModelFileError) else dataclasses.replace(p, expected=expected)
                   for p in puzzles]
    return iter(puzzles)


def _validate(model) -> None:
    """Refuse a planning model that no engine could run (no actions, no variables, ...)."""
    if model.kind == "planning":
        model.validate()


def load_python(path: str | Path):
    """Run a user's Python file and build its puzzle from its ``build()`` function.

    ``build()`` returns a :class:`~cpsolve.model.csp.Csp`, a
    :class:`~cpsolve.model.planning.Planning` or a :class:`~cpsolve.puzzles.base.Puzzle`.
    The file is the user's own code and runs as such, except for what it may not take
    from cpsolve (:func:`.user_code.held`: its signals, its clock, fork, stdin).
    """
    import importlib.util

    from ..model import Csp, Planning
    from .base import Puzzle
    from .user_code import held

    note_read(path)
    regular_file(path)  # never a pipe that Python would wait on, nor a loop of links
    p = Path(path)
    spec = importlib.util.spec_from_file_location(f"cpsolve_user_{p.stem}", p)
    if spec is None or spec.loader is None:
        raise ModelFileError(path, "cannot be loaded as Python")
    with stdout_to_stderr(), process_kept(), held():  # what it prints is not cpsolve's output
        built, module = _built(path, p, spec)  # (with --json, stdout holds one JSON document)
    if isinstance(built, (Puzzle, Csp, Planning)):
        try:
            _validate(built.model if isinstance(built, Puzzle) else built)
        except ModelError as err:
            raise ModelFileError(path, str(err), "build") from None
    if isinstance(built, Puzzle):
        from .user_methods import guard

        return guard(built, path)
    if isinstance(built, (Csp, Planning)):
        family = "python"
        return Puzzle(built.name, family, built, module.__doc__.strip().splitlines()[0]
                      if module.__doc__ else "")
    raise ModelFileError(path, f"build() returned {type(built).__name__}, not a model", "build")


_spawned: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
"""The threads a model's code started (:func:`stdout_to_stderr`): what they print later
goes to stderr too (:func:`model_thread`).  The threads themselves, not their idents: an
ended thread's ident is given to the next thread started (CP-SAT's solution callback, in
``count --list``), whose lines are cpsolve's own."""


def model_thread() -> bool:
    """Whether the running thread is one a model's code started (not cpsolve's)."""
    return threading.current_thread() in _spawned


_fds: list[int | None] = []
"""Where fd 1 pointed, for each :func:`stdout_to_stderr` block under way (outermost first)."""


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """A model file's own code runs in the block: what it prints goes to stderr, whether
    through ``sys.stdout`` or to file descriptor 1 itself (``os.write(1, ...)``, a child
    process it starts) — with ``--json`` stdout holds one JSON document.  Both come back
    when the block ends, however it ends (Ctrl-C included)."""
    _flush(sys.stdout)
    saved = _fd1_to_stderr()
    stream = sys.stdout
    sys.stdout = sys.stderr
    _fds.append(saved)
    before = set(threading.enumerate())
    try:
        yield
    finally:
        _spawned.update(t for t in threading.enumerate() if t not in before)
        _fds.pop()
        for out in (sys.stdout, sys.stderr, sys.__stdout__):  # all while fd 1 is stderr
            _flush(out)
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)
        sys.stdout = stream


class ProcessEnd(BaseException):
    """A model's code called ``os._exit`` or ``os.abort`` (:func:`process_kept`): ``name``
    and its arguments.  A ``BaseException``, as ``SystemExit``: the model's own
    ``except Exception`` does not keep it from ending the model's code."""

    def __init__(self, name: str, args: tuple):
        self.name, self.call = name, f"os.{name}({', '.join(map(repr, args))})"
        super().__init__(self.call)


PROCESS_ENDS = ("_exit", "abort")
"""What ends the process at once, without ``SystemExit``: cpsolve's too, with no answer,
no line and exit 0 (``_exit(0)``) or a core dump (``abort``)."""


@contextlib.contextmanager
def process_kept() -> Iterator[None]:
    """A model file's own code runs in the block: on the main thread (where it runs),
    ``os._exit`` and ``os.abort`` (and ``posix``'s, the same functions) raise
    :class:`ProcessEnd` instead of ending the process; other threads (cpsolve's timer that
    ends a load that will not stop) get the real ones.  Both come back when the block ends.
    A process the model's code forked all the same (``os.fork`` is refused:
    :func:`.user_code.held`; not a fork through ``ctypes``) ends there, silently: only
    cpsolve's own process goes on to answer."""
    modules = [m for m in (os, sys.modules.get(os.name)) if m is not None]
    saved = [(m, name, getattr(m, name)) for m in modules for name in PROCESS_ENDS
             if hasattr(m, name)]

    def kept(name: str, real):
        def end(*args):
            if threading.current_thread() is not threading.main_thread():
                return real(*args)
            raise ProcessEnd(name, args)
        return end

    for module, name, real in saved:
        setattr(module, name, kept(name, real))
    pid = os.getpid()
    try:
        yield
    finally:
        if os.getpid() != pid:  # a child the model forked: it must not go on as cpsolve
            saved[0][2](0)  # (and print a second answer); the real os._exit
        for module, name, real in saved:
            setattr(module, name, real)


def stdout_fd() -> int:
    """The file descriptor of the process's real stdout: 1, or, while a model's code runs
    (:func:`stdout_to_stderr`), the duplicate of it kept then."""
    return next((fd for fd in _fds if fd is not None), 1)


def _fd1_to_stderr() -> int | None:
    """Point file descriptor 1 at stderr; a duplicate of where it pointed, or ``None`` when
    either is not open (nothing to point then)."""
    try:
        saved = os.dup(1)
    except OSError:
        return None
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(saved)
        return None
    return saved


def _flush(stream) -> None:
    """Flush ``stream``, if there is one that can be flushed."""
    try:
        if stream is not None:
            stream.flush()
    except (OSError, ValueError):
        pass


def _built(path: str | Path, p: Path, spec):
    """What ``build()`` of the user's file ``p`` (its import ``spec``) returns, and the
    module: its code run, then ``build()`` called; each failure of the user's code a
    :class:`ModelFileError` naming the file and line."""
    import importlib.util

    from .user_methods import user_line

    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as err:  # the user's code: report, don't crash
        raise ModelFileError(f"{path}:{user_line(err, p)}", f"{type(err).__name__}: {err}") \
            from None
    except SystemExit as err:
        raise ModelFileError(f"{path}:{user_line(err, p)}",
                             f"the file exits (SystemExit {shown(err.code)}) instead of defining "
                             "build()") from None
    except ProcessEnd as err:
        raise ModelFileError(f"{path}:{user_line(err, p)}",
                             f"the file calls {err.call} instead of defining build()") \
            from None
    if not callable(getattr(module, "build", None)):
        raise ModelFileError(path, "defines no build() function returning a model", "build")
    _no_arguments(path, module.build)
    try:
        built = module.build()
    except (ModelError, ExprError) as err:
        raise ModelFileError(f"{path}:{user_line(err, p)}", str(err), "build") from None
    except Exception as err:  # the user's code: report, don't crash
        raise ModelFileError(f"{path}:{user_line(err, p)}", f"{type(err).__name__}: {err}",
                             "build") from None
    except SystemExit as err:
        raise ModelFileError(f"{path}:{user_line(err, p)}",
                             f"build() exits (SystemExit {shown(err.code)}) instead of returning a "
                             "model", "build") from None
    except ProcessEnd as err:
        raise ModelFileError(f"{path}:{user_line(err, p)}",
                             f"build() calls {err.call} instead of returning a model",
                             "build") from None
    return built, module


def _no_arguments(path: str | Path, build) -> None:
    """A ``build`` that cannot be called without arguments is a bad model file, said at its
    ``def`` line — not the ``TypeError`` of the call, raised in cpsolve's code, whose line
    in the user's file would be none."""
    import inspect

    try:
        params = inspect.signature(build).parameters.values()
    except (TypeError, ValueError):  # no signature to read (a builtin): the call will tell
        return
    needed = [q.name for q in params if q.default is q.empty and
              q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD, q.KEYWORD_ONLY)]
    if needed:
        line = getattr(getattr(build, "__code__", None), "co_firstlineno", None)
        raise ModelFileError(f"{path}:{line}" if line else path,
                             f"build() must take no arguments (it asks for "
                             f"{', '.join(needed)})", "build")


def bundled() -> list[Path]:
    """The bundled model files."""
    return sorted(MODELS_DIR.glob("*.toml"))


def resolve(name: str) -> Path:
    """A path as given when it exists, else the bundled model of that name.

    ``water_jugs``, ``water_jugs.toml`` and ``models/water_jugs.toml`` all
    find the bundled model from any directory, also after a non-editable
    install; a name that matches nothing, or that the system cannot look up (a
    name too long), is returned unchanged (loading it then says why).
    """
    p = Path(name)
    try:
        if p.exists():
            return p
        for candidate in (MODELS_DIR / p.name, MODELS_DIR / f"{p.name}.toml"):
            if not p.parent.parts or p.parent.name == "models":
                if candidate.is_file():
                    return candidate
    except OSError:
        pass
    return p
