"""A grid file's collection: one puzzle per line of ``instances`` or ``instances_file``."""

from __future__ import annotations

from .data import Data

MAX_INSTANCES = 1_000_000
"""Most puzzles one collection may hold."""


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
    """The text of ``instances_file``, a file inside the model's folder (at most 256 MB)."""
    from pathlib import Path

    from .data import note_read

    folder = Path(data.path).parent.resolve()
    path = Path(data.path).parent / name
    note_read(path)
    try:
        if not path.resolve().is_relative_to(folder):
            raise data.error("instances_file", f"{name!r} is outside the model's folder: a "
                             "model file names files only inside its own folder")
        if not path.is_file():
            raise data.error("instances_file", f"no such file: {path}")
        if path.stat().st_size > 256 * 1024 * 1024:
            raise data.error("instances_file", f"{path} is larger than 256 MB")
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise data.error("instances_file", f"cannot read {path}: {err}") from None
