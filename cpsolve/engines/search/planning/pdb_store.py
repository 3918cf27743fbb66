"""Pattern databases on disk: finished tables and stopped builds, side by side; and
:class:`OneTable`, which gets one table from there or builds it (resuming a stopped build,
saving it when stopped again).

In :func:`cache_dir`, for a table whose key is ``K`` (:func:`.pdb.model_key`):

* ``pdb-K.npz`` — the finished table: ``key`` (``K`` again: a file renamed or copied
  from another table is not taken for this one), ``table`` (``uint8``, one entry per
  placement) and ``sha256`` (:func:`.pdb_loaded.digest` of both);
* ``pdb-K.partial.npz`` — a build stopped after some distance layer
  (:class:`.pdb_build.Partial`; the layout: :mod:`.pdb_partial`), with its digests.
  It is removed once the finished table is saved.

Every write goes to a temporary file in the same directory, then is renamed over the old one,
so a reader sees the old file or the new one, never half of one. A table's entries are lower
bounds that proofs rest on, so no file is trusted as it is: its digests must match (a file
edited or damaged since it was written does not), its goal entry must be 0, and a partial
table's entries must not exceed the distance it claims. A file that fails, or does not describe
this table (:class:`Ignored`, with one line saying why, which the result's details repeat), is
left aside and the table is built again; so is a finished table of an earlier version
(``pdb-K.npy``, without a digest), removed once the new one is saved. A cache that cannot be
written is skipped (the table still works for this run) and said: :func:`unwritable` and the
writers return one line naming the folder and why (:mod:`.pdb_write`), which the result
carries, for the next run then starts over.

A build is saved whole layers at a time: a run that resumes it and is stopped before the
next layer is finished adds nothing (that layer's work is lost and begun again by the next
run), and says so in the result's note rather than only on the progress line.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from ....answers.words import plural
from ...runtime import memory
from ...runtime.clock import Clock
from ...runtime.cpu import process_share
from ...runtime.stop import Stop
from ..common import Budget
from ..compile import Task
from ..statespace.packing import Packed
from .pdb_build import Abstraction, Partial, build_table
from .pdb_loaded import Ignored, read, write
from .pdb_partial import read_partial, write_partial
from .pdb_write import atomic_write, unwritable_folder

READ_RATE = 300e6
"""Bytes a second this process reads a saved build at, on a whole core (Korf #1's largest
table, 147 MB of layers and table: 0.42 CPU s measured here, with its checks)."""

class Stopped(Exception):
    """A table was being built when the budget ran out (the message says which limit)."""


class BuildBudget(Budget):
    """The share of a time limit that building may take: up to the ``soft`` clock's
    limit, or up to the ``hard`` one's when the builds still to do are forecast
    (:meth:`forecast`, at the rate of this run so far) to be finished by then — a
    finished table is cached for good, a stopped one would need another run."""

    def __init__(self, hard: Clock, soft: Clock, progress=None, width: int = 1) -> None:
        super().__init__(progress=progress, width=width, clock=hard)
        self.soft = soft
        self.finish: float | None = None  # when the builds are forecast to be finished

    def forecast(self, seconds: float) -> None:
        """The builds still to do need about ``seconds`` more."""
        self.finish = self.clock.elapsed() + seconds

    def exceeded(self, seen: int, status=None, *args: object) -> bool:
        """As :meth:`Budget.exceeded`, also past ``soft`` unless the forecast says the
        builds end by ``hard``."""
        assert self.clock.limit is not None
        share = "the build's share of the time limit ({:.1f} s) used"
        if super().exceeded(seen, status, *args):
            if self.stop is Stop.TIME:
                self.reason = share.format(self.clock.limit)
            return True
        if not self.soft.expired() or \
                (self.finish is not None and self.finish <= self.clock.limit):
            return False
        return self.halt(Stop.TIME, share.format(self.soft.limit))


def cache_dir() -> Path:
    """Where tables are cached: ``$CPSOLVE_CACHE_DIR``, else ``$XDG_CACHE_HOME/cpsolve``,
    else ``~/.cache/cpsolve``."""
    if os.environ.get("CPSOLVE_CACHE_DIR"):
        return Path(os.environ["CPSOLVE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cpsolve"


def table_path(key: str) -> Path:
    """The finished table of ``key``."""
    return cache_dir() / f"pdb-{key}.npz"


def legacy_path(key: str) -> Path:
    """The finished table of ``key`` as earlier versions wrote it (no digest: not read)."""
    return cache_dir() / f"pdb-{key}.npy"


def partial_path(key: str) -> Path:
    """The stopped build of ``key``."""
    return cache_dir() / f"pdb-{key}.partial.npz"


def load_table(key: str, size: int, goal: int | None = None) -> np.ndarray | None:
    """The finished table of ``key`` with ``size`` byte entries (goal entry at ``goal``) if
    it is cached (kept in memory once read: :func:`.pdb_loaded.read`); raises
    :class:`Ignored` when its file is there but not verified."""
    return read(table_path(key), key, size, goal)


def save_table(key: str, table: np.ndarray) -> str:
    """Cache a finished table; its partial build is no longer needed.  ``""``, or why the
    table could not be saved (:func:`.pdb_write.atomic_write`)."""
    why = atomic_write(table_path(key), lambda f: write(f, key, table))
    if not why:
        for old in (partial_path(key), legacy_path(key)):
            try:
                old.unlink(missing_ok=True)
            except OSError:
                pass
    return why


def save_partial(key: str, partial: Partial) -> str:
    """Keep a stopped build (see the module docstring) for a later run to resume; ``""``, or
    why it could not be kept (:func:`.pdb_write.atomic_write`)."""
    return atomic_write(partial_path(key), lambda f: write_partial(f, key, partial))


def unwritable() -> str:
    """``""`` when a table can be saved in :func:`cache_dir`, else why not, naming the
    folder (:func:`.pdb_write.unwritable_folder`)."""
    return unwritable_folder(cache_dir())


def load_partial(key: str, size: int, layers: bool = True,
                 goal: int | None = None) -> Partial | None:
    """The stopped build of ``key``, or None when there is none (:func:`.pdb_partial.read`:
    without ``layers`` only the table and distance are read; raises :class:`Ignored` when
    the file is there but damaged, edited or not a build of this table)."""
    path = partial_path(key)
    return read_partial(path, key, size, layers, goal) if path.exists() else None


class OneTable:
    """Table ``number`` of ``count`` in a pattern set, whose key is ``key``: from the cache,
    resumed from a saved build, or built; ``notes`` gets a line per cached file ignored and
    one per saved build resumed ("resuming table 1 at distance 14", and why when this run
    stopped it before another layer: :meth:`_stalled`)."""

    def __init__(self, key: str, task: Task, ab: Abstraction, number: int, count: int,
                 budget: Budget | None, notes: list[str]) -> None:
        self.task, self.ab, self.number, self.count = task, ab, number, count
        self.budget, self.notes = budget, notes
        self.key = key
        n = len(task.names)
        self.size = n ** len(ab.pattern)
        goal = task.goal_state  # its placement's entry is 0 in every table of this model
        self.goal = None if goal is None else \
            sum(n ** ab.pattern.index(v) * i for i, v in enumerate(goal) if v in ab.pattern)
        self.whole = 0  # abstract states there can be (forecasts: :func:`.pdb.arrangements`)
        self.later = 0  # ... and in the tables to build after this one
        self._latest: Partial | None = None  # the build's latest layer (load_or_build)
        self.unsaved = ""  # why the table or its stopped build could not be saved

    def finished(self) -> bool:
        """Whether the table is cached (its file exists; not read)."""
        return table_path(self.key).exists()

    def _say(self, line: str) -> None:
        if self.budget is not None and self.budget.progress is not None:
            self.budget.progress(line)

    def _ignored(self, what: str, exc: Ignored) -> None:
        line = f"{what} of table {self.number} ignored: {exc}"
        self.notes.append(line)
        self._say(line)

    def _partial(self, layers: bool) -> Partial | None:
        """The saved build, if there is a usable one (else a note says why not)."""
        try:
            return load_partial(self.key, self.size, layers, self.goal)
        except Ignored as exc:
            self._ignored("saved partial build", exc)
            return None

    def _finished(self) -> np.ndarray | None:
        """The cached finished table, if there is a verified one (else a note says why not)."""
        try:
            table = load_table(self.key, self.size, self.goal)
            if table is None and legacy_path(self.key).exists():
                raise Ignored("an earlier version's file, without a checksum")
            return table
        except Ignored as exc:
            self._ignored("cached file", exc)
            return None

    def saved(self) -> tuple[np.ndarray, int | None]:
        """The table without building: finished, else a saved build's, else zeros."""
        table = self._finished()
        if table is not None:
            return table, None
        partial = self._partial(layers=False)
        if partial is not None:
            return partial.estimate(), partial.distance
        return np.zeros(self.size, np.uint8), -1

    def _unaffordable(self) -> str:
        """Why the saved build must not be resumed now (``""``: it may): reading its layers,
        one step that cannot be stopped, would outlast the build's time (at the share of a
        core this process has had) or pass the memory limit."""
        try:
            size = partial_path(self.key).stat().st_size
        except OSError:
            return ""
        clock = None if self.budget is None else self.budget.clock
        if clock is not None and clock.limit is not None:
            seconds = size / READ_RATE / process_share()
            if not clock.allows(seconds):
                return (f"the build's time ({clock.limit:.1f} s) too short to read the saved "
                        f"build of table {self.number} (about {seconds:.1f} s)")
        most, used = memory.limit(), memory.resident()
        if most is not None and used is not None and used + size > most:
            return (f"memory limit {memory.size_text(most)} too low to read the saved build "
                    f"of table {self.number} ({memory.size_text(size)})")
        return ""

    def load_or_build(self, packed: Packed) -> tuple[np.ndarray, bool, int | None, str]:
        """``(table, cached, reached, why stopped)``: see :class:`PatternSet`."""
        table = self._finished()
        if table is not None:
            return table, True, None, ""
        why = self._unaffordable()
        if why:  # the saved build as it is (its table only), not resumed
            table, reached = self.saved()
            return table, False, reached, why
        start = time.perf_counter()
        resume = self._partial(layers=True)
        self._latest = resume  # only the latest: earlier layers may go
        self._began = (time.perf_counter(), 0 if resume is None else resume.states)
        resuming = "" if resume is None else \
            f"resuming table {self.number} at distance {resume.distance + 1}"
        if resuming:
            self._say(f"pattern database {self.number}/{self.count}: {resuming}")
        try:
            table = build_table(self.task, packed, self.ab, self._progress, self._tick,
                                resume, self._keep)
        except Stopped as exc:
            got = self._latest
            if got is None:
                return np.zeros(self.size, np.uint8), False, -1, str(exc)
            if got is resume:  # not one more layer: this run adds nothing, say why
                resuming += self._stalled(got, start)
            else:
                self._say(f"pattern database {self.number}/{self.count}: saving the build "
                          f"(distance {got.distance}) to resume later")
                self.unsaved = save_partial(self.key, got)
            self.notes.extend(filter(None, [resuming]))
            return got.estimate(), False, got.distance, str(exc)
        self.notes.extend(filter(None, [resuming]))
        self.unsaved = save_table(self.key, table)
        return table, False, None, ""

    def _stalled(self, kept: Partial, start: float) -> str:
        """Why a resumed build stopped without a layer more: a build is saved whole layers
        at a time, so the layer this run began is lost and the next run begins it again."""
        reading = self._began[0] - start
        return (f": layer {kept.distance + 1} not finished in this run's "
                f"{time.perf_counter() - start:.1f} s ({reading:.1f} s of it reading the "
                f"saved build), kept layers 0-{kept.distance}")

    def _keep(self, partial: Partial) -> None:
        self._latest = partial

    def _progress(self, d: int, states: int) -> None:
        self._say(f"pattern database {self.number}/{self.count} ({len(self.ab.pattern)} "
                  f"values): distance {d}, {plural(states, 'abstract state')}")
        got = self._latest
        if isinstance(self.budget, BuildBudget) and got is not None:
            seconds = time.perf_counter() - self._began[0]
            done = got.states - self._began[1]
            if done > 0 and seconds > 0:
                left = max(0, self.whole - got.states) + self.later
                self.budget.forecast(left * seconds / done)
        self._tick()

    def _tick(self) -> None:
        if self.budget is not None and self.budget.exceeded(0):
            raise Stopped(self.budget.reason)
