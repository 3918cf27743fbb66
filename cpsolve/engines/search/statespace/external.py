"""External-memory layered BFS: layers on disk, bounded memory, resumable.

Forward from the start only.  Each layer is a set of sorted buckets on disk
(:mod:`.store`); a layer is built in two passes under a memory budget:

1. **expand** — the frontier is read in chunks; each chunk's successors
   (:meth:`.packing.Packed.forward`, reduced to canonical codes by
   :class:`.symmetry.Orbits`, sorted, distinct) are appended to one raw file
   per bucket of the next layer (:func:`.store.owner`);
2. **merge** — each raw bucket is read back, sorted, made distinct and
   stripped of the codes of earlier layers (*delayed duplicate detection*),
   then written as the next layer's bucket.

Which earlier layers can hold a successor is a fact of the model
(:func:`duplicates_policy`): none when every action moves a potential by the
same constant (layers are disjoint), the last two when every move can be
undone, all of them otherwise.  The number of buckets is chosen per layer so
that one bucket fits the budget.  With declared symmetries that keep the start,
one canonical code per orbit is stored and both the orbits and the positions
they stand for are counted.  Finished layers are kept (``resume``).
"""

from __future__ import annotations

import math
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ....answers.kinds import Direction
from ....answers.result import Result, Unsupported
from ....model.moves import disjoint_layers, reversible
from ...runtime.removal import remove_at_exit
from ...runtime.stop import Stop
from ..common import Budget
from ..compile import Task
from .codesets import CHUNK
from .earlier import SHARE, Earlier
from .oneword import expand, positions, prepare
from .packing import Packed
from .report import go_on, layered, prefix
from .store import Store, by_owner, fingerprint
from .symmetry import Orbits

DEFAULT_MEMORY = 1 << 30
"""Bytes the large arrays may take when the caller sets no memory limit."""

MAX_BITS = 9
"""Most buckets per layer: 2^9 (one open file each while expanding)."""

FARTHEST_MAX = 10_000
"""Most farthest states listed (more are counted, not listed)."""


@dataclass(frozen=True)
class Disk:
    """Where and how much: ``work_dir`` (None: a temporary directory, removed at the end),
    ``resume`` (keep the finished layers found there), ``memory`` (bytes for big arrays),
    ``symmetry`` (False: one code per state even when the model declares symmetries)."""

    work_dir: str | None = None
    resume: bool = False
    memory: int | None = None
    symmetry: bool = True


def duplicates_policy(model) -> tuple[str, int | None]:
    """How many earlier layers a new layer is checked against (None: all), and why."""
    if disjoint_layers(model):
        return "none: every action changes a potential by the same constant", 0
    if reversible(model):
        return "the last two layers: every move can be undone", 2
    return "every earlier layer", None


def external_layers(task: Task, budget: Budget, direction: Direction | None = None,
                    disk: Disk | None = None) -> Result:
    """Layers of the states reachable from the start, on disk (see the module docstring)."""
    if direction == "goal":
        raise Unsupported("search: the external analysis explores from the start only "
                          "(use --from start)")
    disk = disk or Disk()
    packed, orbits = prepare(task, disk.symmetry)
    memory = disk.memory or DEFAULT_MEMORY
    temporary = disk.work_dir is None
    root = Path(tempfile.mkdtemp(prefix="cpsolve-bfs-")) if temporary else Path(disk.work_dir)
    unhurried = False  # ended with no limit's stop (nor an error): no hurry to answer
    try:
        try:
            store = Store(root, fingerprint(task, orbits.perms), disk.resume and not temporary)
            store.check(lambda codes: positions(orbits, codes))
            policy, keep = duplicates_policy(task.model)
            run = Run(packed, orbits, store, budget, memory, keep)
            stopped = run.bfs()
            result = run.result(stopped, policy, None if temporary else str(store.dir))
            unhurried = budget.stop in (None, Stop.STATES)
            return result
        except OSError as exc:  # unwritable, full, or a finished layer's file gone
            raise Unsupported(f"search: work directory {root}: {exc.strerror or exc}") from exc
    finally:
        if temporary and unhurried:
            shutil.rmtree(root, ignore_errors=True)
        elif temporary:  # stopped at a limit: its many small files would hold up the answer
            remove_at_exit(root)  # (removal.py)


class Run:
    """One external BFS over a :class:`Store` (see :func:`external_layers`)."""

    def __init__(self, packed: Packed, orbits: Orbits, store: Store, budget: Budget,
                 memory: int, keep: int | None) -> None:
        self.p, self.orbits, self.store, self.budget = packed, orbits, store, budget
        self.earlier = Earlier(store, keep, memory)
        self.memory = memory - memory // SHARE if keep is None else memory  # the rest: earlier
        self.ratio = float(max(1, min(len(packed.task.actions), 64)))  # successors per state
        self.expanded = 0
        self.started = time.perf_counter()
        self.partial: tuple[int, int] | None = None
        """``(orbits, states)`` of the layer a limit cut short (not stored: a resumed run
        builds it again), or ``None``."""
        self._seen = (-1, 0)  # (layers, their states)
        self.shown: int | None = None
        """How many of the store's layers the result reports (None: all): fewer when the
        layers resumed hold more states than ``--limit`` (:meth:`cut`)."""

    @property
    def seen(self) -> int:
        """The states of the finished layers (summed again only when one is added)."""
        layers = self.store.layers
        if self._seen[0] != len(layers):
            self._seen = (len(layers), sum(r["states"] for r in layers))
        return self._seen[1]

    def bfs(self) -> bool:
        """Build layers until one is empty; True when a limit stopped it first."""
        store = self.store
        if not store.layers:
            store.fresh_layer(0)
            start = self.orbits.canonical(np.array([self.p.encode(self.p.task.initial)],
                                                   np.int64))
            store.write(0, 0, start)
            store.finish({"bits": 0, "orbits": 1, "states": positions(self.orbits, start)})
        while not store.complete:
            if self.budget.exceeded(self.seen):
                self.cut()
                return True
            d = len(store.layers) - 1
            if not self.layer(d):
                return True
        return False

    def cut(self) -> None:
        """Layers resumed past the state limit: report those within it and, of the next,
        the states up to it, bucket by bucket as :meth:`layer` keeps them — what a run from
        the start with this limit reports (``states`` never exceeds ``--limit``)."""
        room = self.budget.limit
        if room is None or self.seen <= room:
            return
        layers, d = self.store.layers, 0
        while layers[d]["states"] <= room:  # some layer passes it: the layers hold more
            room -= layers[d]["states"]
            d += 1
        self.shown = d
        if not room:
            return
        total = states = 0
        for b in range(1 << layers[d]["bits"]):
            codes = self.store.read(d, b)
            count = positions(self.orbits, codes)
            if states + count > room:
                kept = prefix(self.orbits, codes, room - states)
                self.partial = (total + kept[0], states + kept[1])
                return
            total, states = total + codes.size, states + count

    def chunk_size(self) -> int:
        """Frontier states per expansion chunk: columns, successors and their images fit,
        and at most :data:`.codesets.CHUNK`.

        Calibrated on English 33 (tracemalloc's peak during :func:`expand`: 520 to 970 bytes
        per frontier state at 0.9 to 3.5 distinct successors per state)."""
        per_state = 8 * (2 * len(self.p.size) + 12 * self.ratio + 16)
        return int(min(CHUNK, max(1 << 10, self.memory // per_state)))

    def bucket_bits(self, frontier: int) -> int:
        """Buckets for the next layer: one raw bucket (sorted, copied) and its orbits fit."""
        raw = frontier * self.ratio * 8 * max(3, 2 * self.orbits.size if self.orbits.size > 1
                                              else 3)
        return min(MAX_BITS, max(0, math.ceil(math.log2(max(1.0, raw / self.memory)))))

    def layer(self, d: int) -> bool:
        """Expand layer ``d`` into layer ``d + 1``; False when a limit stopped it."""
        store, last = self.store, self.store.layers[d]
        bits = self.bucket_bits(last["orbits"])
        raw_dir = store.raw_dir()
        files = [open(raw_dir / f"r{b:05d}.bin", "wb") for b in range(1 << bits)]
        generated, done, chunk = 0, 0, self.chunk_size()
        try:
            for b in range(1 << last["bits"]):
                frontier = store.read(d, b)
                for i in range(0, frontier.size, chunk):
                    new = expand(self.p, self.orbits, frontier[i:i + chunk])
                    generated += new.size
                    for k, part in enumerate(by_owner(new, bits)):
                        if part.size:
                            files[k].write(part.tobytes())
                    done += min(chunk, frontier.size - i)
                    self.expanded += min(chunk, frontier.size - i)
                    if self.budget.exceeded(self.seen, self.line, d, done, last["orbits"]):
                        return False
        finally:
            for f in files:
                f.close()
        if last["orbits"]:
            self.ratio = max(1.0, generated / last["orbits"])
        if not self.earlier.hold(d, lambda: self.budget.exceeded(self.seen)):
            return False
        return self.merge(d, bits, raw_dir, generated)

    def merge(self, d: int, bits: int, raw_dir: Path, generated: int) -> bool:
        """Layer ``d + 1`` from its raw buckets in ``raw_dir``, without the codes of the
        earlier layers; False when a limit stopped it (:attr:`partial`: what it holds)."""
        store = self.store
        store.fresh_layer(d + 1)
        total = states = 0
        room = None if self.budget.limit is None else self.budget.limit - self.seen
        for k in range(1 << bits):
            path = raw_dir / f"r{k:05d}.bin"
            new = self.earlier.fresh(np.fromfile(path, np.int64), d, k, bits, lambda k=k:
                                     self.budget.exceeded(self.seen, self.checking, d, k, bits))
            if new is None:  # stopped between two earlier layers' files
                self.partial = (total, states) if states else None
                return False
            path.unlink()
            count = positions(self.orbits, new)
            if room is not None and states + count > room:  # the limit falls in this layer
                kept = prefix(self.orbits, new, room - states)
                self.partial = (total + kept[0], states + kept[1])
                self.budget.halt(Stop.STATES, f"state limit {self.budget.limit:,} reached")
                return False
            store.write(d + 1, k, new)
            total += new.size
            states += count
            if k + 1 < 1 << bits and self.budget.exceeded(self.seen, self.merging, d, k, bits):
                self.partial = (total, states) if states else None  # what the layer holds
                return False
        shutil.rmtree(raw_dir)
        if not total:  # no new state: the search is over, and this empty layer is none
            shutil.rmtree(store.layer_dir(d + 1))
        store.finish({"bits": bits, "orbits": total, "states": states,
                      "generated": generated} if total else {}, complete=not total)
        return True

    def line(self, d: int, done: int, size: int) -> str:
        """The progress line while expanding layer ``d``: a bar, states/s, the next layer."""
        width = 20
        fill = width * done // max(1, size)
        rate = self.expanded / max(1e-9, time.perf_counter() - self.started)
        sizes = [r["orbits"] for r in self.store.layers]
        guess = sizes[-1] * sizes[-1] / sizes[-2] if len(sizes) > 1 and sizes[-2] else None
        nxt = f"; next layer ~{guess:,.0f}" if guess is not None else ""
        return (f"depth {d} [{'#' * fill}{'-' * (width - fill)}] {done:,}/{size:,} expanded, "
                f"{rate:,.0f} states/s, {self.seen:,} seen{nxt}")

    def merging(self, d: int, k: int, bits: int) -> str:
        return f"depth {d + 1}: merging bucket {k + 1}/{1 << bits}, {self.seen:,} seen"

    def checking(self, d: int, k: int, bits: int) -> str:
        return (f"depth {d + 1}: checking bucket {k + 1}/{1 << bits} against the earlier "
                f"layers, {self.seen:,} seen")

    def result(self, stopped: bool, policy: str, work_dir: str | None) -> Result:
        """The analysis: positions per layer; orbits in the details when symmetries were used."""
        layers = self.store.layers
        details: dict = {"duplicates": policy, "layer_files": len(layers),
                         "successors_written": sum(r.get("generated", 0) for r in layers)}
        layers = layers[:self.shown]
        last = None
        if not stopped and layers[-1]["states"] <= FARTHEST_MAX:
            last = self.store.codes(len(layers) - 1)
        sizes = [(r["orbits"], r["states"]) for r in layers]
        return layered(self.p, self.orbits, sizes + ([self.partial] if self.partial else []),
                       last, self.budget.reason if stopped else None, details,
                       {"work_dir": work_dir, "resumed_layers": self.store.resumed}
                       if work_dir else {},
                       go_on(self.budget.stop) if work_dir else "",
                       partial=self.partial is not None)


def on_disk(task: Task, budget: Budget, direction: Direction | None = None,
            options=None) -> Result:
    """The registry's ``external`` analysis: :func:`external_layers` in the work directory,
    with the resume flag and memory budget of ``options``."""
    disk = Disk(options.work_dir, options.resume, options.memory_limit) if options else None
    return external_layers(task, budget, direction, disk)
