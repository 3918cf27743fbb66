"""A Python model's own puzzle methods, guarded: their failures are the model file's.

A puzzle subclass in a user's Python file may draw states and solutions its own way
(``render_solution``, ``render_state``, ...).  That code runs long after ``build()``
returned, while cpsolve prints an answer; an exception it raises is then the model file's
fault, not cpsolve's: :func:`guard` turns it into a :class:`~.data.ModelFileError`
naming the file, the line and the method (one line, exit 2), never an internal error.
``read_solution`` and ``read_plan`` keep their ``ValueError`` ("cannot be read"), which
is how they answer by design.  :func:`user_line` finds the user's line in a traceback,
for these methods and for ``build()`` and the file's own code (:mod:`.files`).
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import Puzzle
from .data import ModelFileError

READERS = ("read_solution", "read_plan")
"""Methods whose ``ValueError`` is an answer ("this text cannot be read"), not a fault."""


def guard(puzzle: Puzzle, path: str | Path) -> Puzzle:
    """``puzzle`` with each method its class overrides in the file ``path`` guarded."""
    file = Path(path).resolve()
    for name in dir(Puzzle):
        if name.startswith("_") or not callable(getattr(Puzzle, name)):
            continue
        own = getattr(type(puzzle), name)
        if own is not getattr(Puzzle, name) and _defined_in(own, file):
            setattr(puzzle, name, _guarded(getattr(puzzle, name), name, path, file))
    return puzzle


def _defined_in(method: Any, file: Path) -> bool:
    code = getattr(getattr(method, "__func__", method), "__code__", None)
    return code is not None and Path(code.co_filename).resolve() == file


def _guarded(method: Callable[..., Any], name: str, path: str | Path,
             file: Path) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except ModelFileError:
            raise
        except Exception as err:  # the user's code: report, don't crash
            if name in READERS and isinstance(err, ValueError):
                raise
            raise ModelFileError(f"{path}:{user_line(err, file)}",
                                 f"{name}() raised {type(err).__name__}: {err}") from None
    return call


def user_line(err: BaseException, path: Path) -> int:
    """The line of the user's file where ``err`` was raised (the last frame in it)."""
    if isinstance(err, SyntaxError) and err.lineno:
        return err.lineno
    line = 0
    for frame in traceback.extract_tb(err.__traceback__):
        if Path(frame.filename).resolve() == path.resolve():
            line = frame.lineno or line
    return line
