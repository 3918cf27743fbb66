"""What a batch holds: the model files named (a directory expanded to its model files) and
their instances, one :class:`Item` each — a file that did not load is an item of its own,
with its error, never the end of the batch."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from ...engines.runtime import interrupt
from ...engines.runtime.clock import TimeUp
from ...engines.runtime.memory import MemoryUp
from ...puzzles.base import Puzzle
from ...puzzles.data import ModelFileError
from ...puzzles.files import load_many, resolve


@dataclass(frozen=True)
class Item:
    """One instance of a batch: where it comes from, and its puzzle or why there is none."""

    source: str
    puzzle: Puzzle | None = None
    error: str = ""
    at_limit: bool = False
    """The error is a limit of the command (its time limit, the memory limit), reached while
    the file loaded: a limit, not a bad file."""


def files_of(names: Iterable[str]) -> list[tuple[str, Path]]:
    """The model files named, each with the name the output gives it: a file (or bundled
    model) as the user named it, a directory expanded to its model files (named by the
    directory as given and the file's name).  A directory's model files are its entries
    named ``*.toml`` or ``*.py`` that are not directories: one that is no regular file (a
    pipe, a device, a link that leads nowhere or round in a loop) is listed too, and its
    loading says why it is refused — a row of its own, never silently left out."""
    out: list[tuple[str, Path]] = []
    for name in names:
        path = resolve(name)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.suffix in (".toml", ".py") and not p.is_dir())
            if not found:
                raise ModelFileError(path, "a directory with no model files (*.toml, *.py)")
            out.extend((os.path.join(name, p.name), p) for p in found)
        else:
            out.append((name, path))
    return out


def instances(names: Iterable[str] | list[tuple[str, str]],
              loading: Callable[[str], AbstractContextManager] | None = None) -> Iterator[Item]:
    """Every instance of every named file or directory, in order; or of every PDDL
    ``(domain, problem)`` pair (one problem per row).  The files are listed now (a
    directory with none is :class:`ModelFileError` at once), and each is loaded when its
    instances are asked for: a batch solves what it has loaded before it loads the next
    file, so a file that loads slowly costs only itself and those after it.

    ``loading(what)`` guards each file's loading (the command's clock: a model file that
    loads for ever — a Python ``build()`` that never returns — stops at the time limit);
    a file stopped there or by Ctrl-C, and every file after it, is an error item of its
    own (``at_limit``: a stop, not a bad file), and so is every file after a stop was
    asked for (Ctrl-C, or the clock's), not loaded.  A
    file that passes the memory limit as it loads is one too; what it held is freed, and
    the next files load."""
    names = list(names)
    if names and isinstance(names[0], tuple):
        return _pddl_instances(names)
    return (item for items in by_file(files_of(names), loading) for item in items)


def by_file(files: list[tuple[str, Path]],
            loading: Callable[[str], AbstractContextManager] | None = None,
            too_late: Callable[[], str | None] | None = None) -> Iterator[list[Item]]:
    """The instances of each of ``files`` (:func:`files_of`), one list per file, each file
    loaded when its list is asked for (:func:`instances`).  ``too_late()``, when given, says
    why the next file must not be loaded (the command's time is up), or ``None``: that file
    and every one after it is then an error item ``not loaded: <why>``, as after a stop."""
    late = ""
    for name, path in files:
        if not late and interrupt.requested():
            late = interrupt.reason()
        if not late and too_late is not None:
            late = too_late() or ""
        if late:
            yield [Item(name, error=f"not loaded: {late}", at_limit=True)]
            continue
        items, late = _of_path(name, path, loading)
        yield items


def _of_path(name: str, path: Path, loading: Callable[[str], AbstractContextManager] | None
             ) -> tuple[list[Item], str]:
    """The items of one file, loaded now (:func:`instances`), and why the files after it
    must not be loaded (its loading stopped by the time limit or Ctrl-C), or ``""``."""
    try:
        with loading(f"loading {name}") if loading else nullcontext():
            puzzles = list(load_many(path))
    except ModelFileError as err:
        return [Item(name, error=str(err))], ""
    except TimeUp as err:
        return [Item(name, error=str(err), at_limit=True)], "time limit reached"
    except interrupt.Interrupted as err:  # Ctrl-C while it loaded: a stop, not bad input
        return [Item(name, error=str(err), at_limit=True)], interrupt.reason()
    except MemoryUp as err:
        return [Item(name, error=str(err), at_limit=True)], ""
    return list(_of_file(name, puzzles)), ""


def _of_file(name: str, puzzles: list) -> Iterator[Item]:
    """The items of one loaded file: its puzzle, or each line of a collection (a bad line
    an error item of its own)."""
    if len(puzzles) == 1:
        yield Item(name, puzzles[0])
        return
    for i, puzzle in enumerate(puzzles, start=1):
        if isinstance(puzzle, ModelFileError):  # a bad line: its own error row
            yield Item(f"{name}#{i}", error=str(puzzle))
        else:
            yield Item(f"{name}#{i}", puzzle)


def _pddl_instances(pairs: list[tuple[str, str]]) -> Iterator[Item]:
    from ...puzzles.pddl_task import load as load_pddl

    for domain, problem in pairs:
        try:
            yield Item(str(problem), load_pddl(domain, problem))
        except ModelFileError as err:
            yield Item(str(problem), error=str(err))
