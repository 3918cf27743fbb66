"""A grid file's collection: one puzzle per line of ``instances`` or ``instances_file``."""

from __future__ import annotations

from ..language.quoting import shown
from .data import Data

MAX_INSTANCES = 1_000_000
"""Most puzzles one collection may hold."""

MAX_COLLECTION_BYTES = 256 * 1024 * 1024
"""Largest ``instances_file``: room for :data:`MAX_INSTANCES` lines of a 9x9 grid (82 bytes
each); a collection is only split into lines, never parsed as TOML, so it is not held to
the model files' 16 MB."""


def instance_lines(data: Data) -> list[tuple[str, int, str]] | None:
    """``(key, line number, text)`` of every puzzle line, or ``None`` for a single puzzle."""
    if "instances" in data.table and "instances_file" in data.table:
        raise data.error("instances_file", "give instances or instances_file, not both")
    if "instances" in data.table:
        key, text = "instances", data.get("instances", str)
    elif "instances_file" in data.table:
        key = "instances_file"
        text = read_collection(data, data.get("instances_file", str))
    else:
        return None
    if data.get("givens", str, "").strip():
        raise data.error(key, "a collection gives its puzzles line by line: remove givens")
    lines = [(key, number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise data.error(key, "no puzzle lines")
    if len(lines) > MAX_INSTANCES:
        raise data.error(key, f"{len(lines):,} puzzles (at most {MAX_INSTANCES:,})")
    return lines


def read_collection(data: Data, name: str) -> str:
    """The text of ``instances_file``, a regular file inside the model's folder (at most
    :data:`MAX_COLLECTION_BYTES`); every problem is a
    :class:`~cpsolve.puzzles.data.ModelFileError` naming the key."""
    from pathlib import Path

    from .data import ModelFileError, note_read, regular_file, utf8_text

    if not name.strip():
        raise data.error("instances_file", "the name is empty: name the file of puzzle "
                         "lines, next to the model file")
    if "\0" in name:
        raise data.error("instances_file", f"{shown(name)} holds a NUL character, which no file "
                         "name can hold")
    folder = Path(data.path).parent.resolve()
    path = Path(data.path).parent / name
    note_read(path)
    try:
        if not path.resolve().is_relative_to(folder):
            raise data.error("instances_file", f"{shown(name)} is outside the model's folder: a "
                             "model file names files only inside its own folder")
        regular_file(path, "collection file", MAX_COLLECTION_BYTES)
        return utf8_text(path.read_bytes())
    except ModelFileError as err:
        if err.key is not None:
            raise
        raise data.error("instances_file", f"{shown(name)} ({err.path}): {err.message}") from None
    except (OSError, ValueError) as err:  # not UTF-8: where, said by utf8_text
        raise data.error("instances_file", f"cannot read {path}: {err}") from None
