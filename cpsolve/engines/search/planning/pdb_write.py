"""Writing a pattern database's file in the cache folder: atomically (a temporary file in
the same folder, renamed over the old one), sweeping what killed writers left behind, and
saying in one line why the folder cannot be written when it cannot."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

STALE = 3600.0
"""Seconds after which a temporary file is taken as left by a killed writer and removed."""


def unwritable_folder(folder: Path) -> str:
    """``""`` when files can be saved in ``folder`` (made if need be; a probe file is
    written and removed), else why not, naming the folder."""
    return atomic_write(folder / ".probe", lambda f: None, keep=False)


def _cannot(folder: Path, exc: OSError) -> str:
    """One line: the cache folder cannot be written, and why."""
    blocking = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()),
                    None)
    why = f"{blocking} is a file, not a folder" if blocking else exc.strerror or str(exc)
    return f"pattern databases cannot be saved in the cache folder {folder}: {why}"


def atomic_write(path: Path, write, keep: bool = True) -> str:
    """Write ``path`` atomically with ``write(file)`` (``keep=False``: only try, the file
    is removed); ``""``, or why the cache folder cannot be written (:func:`_cannot`)."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _sweep(path)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            write(f)
        if keep:
            os.replace(tmp, path)
        else:
            os.unlink(tmp)
        return ""
    except OSError as exc:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return _cannot(path.parent, exc)


def _sweep(path: Path) -> None:
    """Remove temporary files of ``path`` that a process killed while writing left behind
    (a racer killed after its grace period: :mod:`cpsolve.engines.auto`)."""
    now = time.time()
    for old in path.parent.glob(f"{path.name}*.tmp"):
        try:
            if now - old.stat().st_mtime > STALE:
                old.unlink()
        except OSError:
            pass
