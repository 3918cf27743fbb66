"""What a batch holds: the model files named (a directory expanded to its model files) and
their instances, one :class:`Item` each — a file that did not load is an item of its own,
with its error, never the end of the batch — in their :class:`Lineup`, each file loaded
when its turn comes (the one reading of a batch, ``solve``'s and ``compare``'s)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from ...engines.runtime import interrupt
from ...engines.runtime.clock import TimeUp, reached
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


def refusal(source: str, err: Exception) -> str:
    """The error of an instance whose model the engines refused as not well formed
    (:class:`~cpsolve.model.ModelError`: an estimate above the cost still to pay,
    :mod:`cpsolve.engines.estimates`), naming its source as a file that did not load does
    (``over.py: the estimate is not admissible: ...``): bad input, like that file."""
    return str(ModelFileError(source, str(err)))


@dataclass
class Lineup:
    """A batch's instances in their order, each file loaded when its turn comes (after the
    instances before it were solved or compared): a file that loads slowly, or never ends
    loading, costs only itself and those after it, never the instances before it.  The one
    reading of what ``solve``'s batches and ``compare`` were given (:func:`lineup`): which
    files are loaded so far (:meth:`items`), which are not (:meth:`unloaded`, by place, so a
    file named twice is two turns)."""

    names: list[str]
    """Each file's name (or PDDL problem's), in order: one list of :attr:`groups` each."""
    groups: Iterator[list[Item]]
    """Each file's instances, the file loaded as its list is taken (:func:`by_file`)."""
    loaded: list[list[Item]] = field(default_factory=list)
    """The lists taken so far: the files loaded (or not loaded, saying why)."""

    def load_all(self) -> None:
        """Load every file now (each list kept as it comes: a limit that cuts the loading
        leaves the files before it loaded)."""
        for group in self.groups:
            self.loaded.append(group)

    def items(self) -> list[Item]:
        """The instances of the files loaded so far."""
        return [item for group in self.loaded for item in group]

    def unloaded(self) -> list[str]:
        """The names of the files whose turn has not come (never loaded)."""
        return self.names[len(self.loaded):]

    def __iter__(self) -> Iterator[tuple[Item, int]]:
        """Each instance, its file loaded when its turn comes, with how many are still to
        solve or compare from it on as far as is known: the rest of its file's, and one for each
        file not loaded yet."""
        number = 0
        while number < len(self.loaded) or self._next():
            group = self.loaded[number]
            number += 1
            for i, item in enumerate(group):
                yield item, len(group) - i + len(self.names) - number

    def _next(self) -> bool:
        """Load the next file; False when there is none."""
        group = next(self.groups, None)
        if group is None:
            return False
        self.loaded.append(group)
        return True


def files_of(names: Iterable[str]) -> list[tuple[str, Path]]:
    """The model files named, each with the name the output gives it: a file (or bundled
    model) as the user named it, a directory expanded to its model files (named by the
    directory as given and the file's name).  A directory's model files are its entries
    named ``*.toml`` or ``*.py`` that are not directories: one that is no regular file (a
    pipe, a device, a link that leads nowhere or round in a loop) is listed too, and its
    loading says why it is refused — a row of its own, never silently left out; so is a
    directory with no model files among other names (alone, it is :class:`ModelFileError`:
    nothing to solve)."""
    out: list[tuple[str, Path]] = []
    names = list(names)
    for name in names:
        path = resolve(name)
        if path.is_dir():
            found = sorted(p for p in path.iterdir()
                           if p.suffix in (".toml", ".py") and not p.is_dir())
            if not found and len(names) == 1:  # nothing to solve at all
                raise ModelFileError(path, EMPTY)
            out.extend((os.path.join(name, p.name), p) for p in found)
            if not found:  # a row of its own: the other names are solved
                out.append((name, path))
        else:
            out.append((name, path))
    return out


EMPTY = "a directory with no model files (*.toml, *.py)"
"""Why a directory named in a batch gives no instance."""


def instances(names: Iterable[str] | list[tuple[str, str]],
              loading: Callable[[str], AbstractContextManager] | None = None) -> Iterator[Item]:
    """Every instance of every named file or directory, in order; or of every PDDL
    ``(domain, problem)`` pair (one problem per row): :func:`lineup`'s, one by one."""
    names = list(names)
    if names and isinstance(names[0], tuple):
        return (item for item, _ in pddl_lineup(names))
    return (item for item, _ in lineup(files_of(names), loading))


def lineup(files: list[tuple[str, Path]],
           loading: Callable[[str], AbstractContextManager] | None = None,
           too_late: Callable[[], str | None] | None = None) -> Lineup:
    """The instances of ``files`` (:func:`files_of`: the files are listed now, and a
    directory with none is :class:`ModelFileError` at once), each file loaded when its turn
    comes (:func:`by_file`: ``loading`` guards it, ``too_late`` may refuse it)."""
    return Lineup([name for name, _ in files], by_file(files, loading, too_late))


def pddl_lineup(pairs: list[tuple[str, str]]) -> Lineup:
    """The instances of PDDL ``(domain, problem)`` pairs, one each, named by the problem,
    each loaded when its turn comes (one that does not load: an error item)."""
    return Lineup([str(problem) for _, problem in pairs],
                  ([item] for item in _pddl_instances(pairs)))


def by_file(files: list[tuple[str, Path]],
            loading: Callable[[str], AbstractContextManager] | None = None,
            too_late: Callable[[], str | None] | None = None) -> Iterator[list[Item]]:
    """The instances of each of ``files`` (:func:`files_of`), one list per file, each file
    loaded when its list is asked for: a batch solves what it has loaded before it loads
    the next file, so a file that loads slowly costs only itself and those after it.

    ``loading(what)`` guards each file's loading (the command's clock: a model file that
    loads for ever — a Python ``build()`` that never returns — stops at the time limit);
    a file stopped there or by Ctrl-C, and every file after it, is an error item of its
    own (``at_limit``: a stop, not a bad file), and so is every file after a stop was
    asked for (Ctrl-C, or the clock's), not loaded.  A file that passes the memory limit
    as it loads is one too; what it held is freed, and the next files load.
    ``too_late()``, when given, says
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
    """The items of one file, loaded now (:func:`by_file`), and why the files after it
    must not be loaded (its loading stopped by the time limit or Ctrl-C), or ``""``."""
    if path.is_dir():  # one with no model files (files_of)
        return [Item(name, error=str(ModelFileError(path, EMPTY)))], ""
    try:
        with loading(f"loading {name}") if loading else nullcontext():
            puzzles = _apart(path, f"loading {name}") if path.suffix == ".py" else None
            if puzzles is None:
                puzzles = list(load_many(path))
    except ModelFileError as err:
        return [Item(name, error=str(err))], ""
    except TimeUp as err:
        return [Item(name, error=str(err), at_limit=True)], reached(err.limit)
    except interrupt.Interrupted as err:  # Ctrl-C while it loaded: a stop, not bad input
        return [Item(name, error=str(err), at_limit=True)], interrupt.reason()
    except MemoryUp as err:
        return [Item(name, error=str(err), at_limit=True)], ""
    return list(_of_file(name, puzzles)), ""


def _apart(path: Path, what: str) -> list | None:
    """A Python model file's puzzles, loaded first in a child process: its code may hold the
    interpreter (one long C call, ``sum(range(10**11))``), and then no alarm or signal
    handler of this process could cut it, and the batch would never end.  Here this process
    only waits for the child, so the caller's loading block (the time limit, Ctrl-C) cuts
    the wait, and the child is killed.  The child holds the memory limit itself
    (``what``: ``loading FILE``, as :class:`MemoryUp` says it).  ``None`` when the puzzles
    cannot be sent back (they hold a class of the file's own) or the child failed
    otherwise: the file is then loaded here, its code run a second time — it ended once
    already."""
    from ...engines.runtime.processes import Kind, start, stop, wait_any

    child = start(_loaded_here, path, what, name="loading")
    try:
        while True:
            for message in wait_any([child], POLL):
                if message.kind is Kind.RESULT:
                    value = message.value
                    if value and value[0] == "bad":  # a ModelFileError's parts
                        raise ModelFileError(*value[1:])
                    if value and value[0] == "memory":
                        raise MemoryUp(*value[1:])
                    return value[1]
                if message.final:
                    return None
    finally:
        stop([child], 0.0)


POLL = 0.2
"""Seconds between two looks at a child loading a Python model file (:func:`_apart`)."""


def _loaded_here(path: Path, what: str, channel) -> tuple:  # noqa: ARG001 - start()'s
    """In the child of :func:`_apart`: ``("loaded", puzzles)``, or ``("bad", ...)`` the
    parts of the file's error, or ``("memory", ...)`` those of the memory limit's."""
    from ...engines.runtime.memory import watching

    try:
        with watching(what):
            return ("loaded", list(load_many(path)))
    except ModelFileError as err:
        return ("bad", err.path, err.message, err.key)
    except MemoryUp as err:
        return ("memory", err.what, err.nbytes)


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
