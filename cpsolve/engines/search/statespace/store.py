"""Breadth-first layers on disk, for :mod:`.external` and :mod:`.cluster`.

A run lives in ``<work dir>/bfs-<fingerprint>/``: the fingerprint is a hash of
the compiled model (variables, domains, actions, initial state) and of the
symmetries used, so a work directory can hold runs of several models and a
resumed run never mixes models.  Layer ``d`` is the directory ``layer-<d>``
holding ``2^bits`` bucket files ``b<k>.npy``: sorted distinct int64 codes, the
codes whose hash (:func:`owner`) is ``k``.  ``meta.json`` lists the finished
layers (written last, atomically): a layer not listed there is unfinished and
is rebuilt from the one before.

A resumed run does not take ``meta.json``'s word for what it reports
(:meth:`Store.check`): every finished layer's files must be there, each a sorted
set of codes in its own bucket, and the codes and the states they stand for are
counted again and must be the record's.  The last layer is expanded again
rather than taken as the last on the record's word.  A record that does not
match is refused with one line.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ....answers.result import Unsupported
from ....answers.words import plural
from ....language.expr import to_text
from ...runtime.output_files import write_output
from .codesets import is_set

MIX = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing: the top bits of ``code * MIX`` spread any codes evenly."""


def owner(codes: np.ndarray, bits: int) -> np.ndarray:
    """The bucket (``0 .. 2^bits - 1``) that owns each code."""
    if bits == 0:
        return np.zeros(codes.size, np.int64)
    return ((codes.view(np.uint64) * MIX) >> np.uint64(64 - bits)).astype(np.int64)


def by_owner(codes: np.ndarray, bits: int) -> list[np.ndarray]:
    """``codes`` cut into their ``2^bits`` owners' pieces (:func:`owner`), in one pass: a
    radix sort of the owners.  The pieces are views of one reordered copy."""
    if bits == 0:
        return [codes]
    where = owner(codes, bits).astype(np.uint16 if bits <= 16 else np.int64)
    ordered = codes[np.argsort(where, kind="stable")]
    return np.split(ordered, np.cumsum(np.bincount(where, minlength=1 << bits))[:-1])


def fingerprint(task, perms: list[tuple[int, ...]]) -> str:
    """A hash of what decides the layers: the compiled model and the symmetries used."""
    parts = [repr(task.names), repr(task.lo), repr(task.hi), repr(task.initial), repr(perms)]
    for a in task.model.actions:
        parts.append(to_text(a.guard))
        parts.extend(f"{v}={to_text(e)}" for v, e in a.effects)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


class Store:
    """The finished layers of one run, and the files of the layer being built."""

    def __init__(self, root: Path, key: str, resume: bool) -> None:
        self.dir = Path(root) / f"bfs-{key}"
        self.key = key
        self.meta_path = self.dir / "meta.json"
        self.layers: list[dict] = []
        self.complete = False
        if resume and self.meta_path.exists():
            try:
                meta = json.loads(self.meta_path.read_text())
                if meta.get("fingerprint") == key:
                    self.layers, self.complete = list(meta["layers"]), bool(meta["complete"])
                    for r in self.layers:
                        int(r["bits"]), int(r["orbits"]), int(r["states"])
            except (ValueError, KeyError, TypeError, RecursionError) as exc:
                why = "nested too deeply" if isinstance(exc, RecursionError) else exc
                raise Unsupported(f"search: the work directory's record {self.meta_path} "
                                  f"is not a run's record ({why}); remove the directory or "
                                  "run without --resume") from None
        if not self.layers and self.dir.exists():
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.resumed = len(self.layers)
        self._encoded = [json.dumps(r) for r in self.layers]  # meta.json's records, as JSON

    def check(self, count: Callable[[np.ndarray], int]) -> None:
        """Check the resumed layers against their files (see the module docstring);
        ``count(codes)`` is the number of states that stored codes stand for."""
        for d, record in enumerate(self.layers):
            bits = record["bits"]
            if not 0 <= bits <= 30:
                self._mismatch(d, f"{bits} bucket bits")
            names = {p.name for p in self.layer_dir(d).glob("*")} \
                if self.layer_dir(d).is_dir() else set()
            if names != {f"b{k:05d}.npy" for k in range(1 << bits)}:
                self._mismatch(d, f"its files are not the {1 << bits} bucket files recorded")
            orbits = states = 0
            for k in range(1 << bits):
                try:
                    codes = self.read(d, k)
                except (ValueError, EOFError) as exc:
                    self._mismatch(d, f"bucket {k} unreadable ({type(exc).__name__})")
                if not is_set(codes) or (owner(codes, bits) != k).any():
                    self._mismatch(d, f"bucket {k} is not a sorted set of its own codes")
                orbits += codes.size
                states += count(codes)
            if (orbits, states) != (record["orbits"], record["states"]):
                self._mismatch(d, f"{plural(states, 'state')} on disk, "
                               f"{record['states']:,} recorded" if states != record["states"] else
                               f"{orbits:,} codes on disk, {record['orbits']:,} recorded")
        self.complete = False  # the last layer is expanded again: is it the last?

    def _mismatch(self, d: int, what: str):
        raise Unsupported(f"search: the work directory's record {self.meta_path} does not "
                          f"match its layer files (layer {d}: {what}); remove the directory "
                          "or run without --resume")

    def layer_dir(self, d: int) -> Path:
        return self.dir / f"layer-{d:05d}"

    def fresh_layer(self, d: int) -> Path:
        """An empty directory for layer ``d`` (what an interrupted run left there is removed)."""
        path = self.layer_dir(d)
        if path.exists():
            shutil.rmtree(path)
        path.mkdir()
        return path

    def write(self, d: int, bucket: int, codes: np.ndarray) -> None:
        np.save(self.layer_dir(d) / f"b{bucket:05d}.npy", codes)

    def read(self, d: int, bucket: int) -> np.ndarray:
        """Bucket ``bucket`` of finished layer ``d`` (memory-mapped: the OS pages it in)."""
        path = self.layer_dir(d) / f"b{bucket:05d}.npy"
        return np.load(path, mmap_mode="r")

    def overlapping(self, d: int, bucket: int, bits: int) -> list[np.ndarray]:
        """The buckets of layer ``d`` that may hold codes of ``bucket`` under ``bits``."""
        old = self.layers[d]["bits"]
        if old <= bits:
            return [self.read(d, bucket >> (bits - old))]
        first = bucket << (old - bits)
        return [self.read(d, b) for b in range(first, first + (1 << (old - bits)))]

    def codes(self, d: int) -> np.ndarray:
        """Every code of finished layer ``d``, sorted (use on small layers only)."""
        parts = [np.asarray(self.read(d, b)) for b in range(1 << self.layers[d]["bits"])]
        return np.sort(np.concatenate(parts)) if parts else np.empty(0, np.int64)

    def finish(self, record: dict, complete: bool = False) -> None:
        """Record a finished layer (``bits``, ``orbits``, ``states``) in ``meta.json``.

        Each record is encoded once (:attr:`_encoded`): encoding the whole list again for
        each layer took a quarter of a run of thousands of small layers (the Tower of Hanoi
        with 14 discs, 2,300 layers in 10 s)."""
        if record:
            self.layers.append(record)
            self._encoded.append(json.dumps(record))
        self.complete = complete
        tmp = self.meta_path.with_suffix(".tmp")
        write_output(tmp, f'{{"fingerprint": {json.dumps(self.key)}, "layers": '
                          f'[{", ".join(self._encoded)}], "complete": {json.dumps(complete)}}}')
        os.replace(tmp, self.meta_path)

    def raw_dir(self) -> Path:
        """A fresh directory for the unsorted successors of the layer being built."""
        path = self.dir / "raw"
        if path.exists():
            shutil.rmtree(path)
        path.mkdir()
        return path
