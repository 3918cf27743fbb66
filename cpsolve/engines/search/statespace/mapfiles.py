"""Where the 2-bit maps of one bitmap analysis (:mod:`.bitmap`) live: in memory, or in files
of a directory made for the analysis and removed at its end."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ....answers.result import Unsupported
from .twobits import TwoBitMap


class MapFiles:
    """Where the maps of one analysis live: memory, or files in a directory removed at the
    end (when ``states / 4`` bytes exceed ``memory``)."""

    def __init__(self, states: int, memory: int, work_dir: str | None) -> None:
        self.states, self.bytes, self.memory = states, (states + 3) // 4, memory
        self.disk = self.bytes > memory
        self.work_dir, self.dir = work_dir, None
        self.map: TwoBitMap | None = None

    def __enter__(self) -> MapFiles:
        if self.disk:
            base = Path(self.work_dir) if self.work_dir else None
            try:
                if base is not None:
                    base.mkdir(parents=True, exist_ok=True)
                self.dir = Path(tempfile.mkdtemp(prefix="cpsolve-twobits-", dir=base))
                free = shutil.disk_usage(self.dir).free
            except OSError as exc:
                raise Unsupported(f"search: work directory {base}: {exc.strerror or exc}") \
                    from exc
            if free < 2 * self.bytes:
                self.__exit__()  # (self.dir is None from here: name where it was made)
                raise Unsupported(f"search: the 2-bit map and its spool need {2 * self.bytes:,}"
                                  f" bytes; {base or tempfile.gettempdir()} has {free:,} free")
        return self

    def fresh(self) -> TwoBitMap:
        """A map with every state unseen (the previous one let go)."""
        if self.map is not None:
            self.map.close()
        path = None if self.dir is None else self.dir / "marks.bin"
        if path is not None and path.exists():
            path.unlink()
        self.map = TwoBitMap(self.states, path)
        if self.dir is not None:
            self.map.spool(self.dir / "spool", self.memory // 2, self.bytes)
        return self.map

    def details(self) -> dict:
        return {"ranks": self.states, "bits_per_state": 2, "map_bytes": self.bytes,
                "map_on_disk": self.disk}

    def __exit__(self, *exc: object) -> None:
        if self.map is not None:
            self.map.close()
            self.map = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
