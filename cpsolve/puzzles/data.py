"""What a family reads a model file through: :class:`Data` and :class:`ModelFileError`.

Every problem with a file becomes a :class:`ModelFileError` that names the
file, the key (or line) and what is wrong; the CLI prints it and exits 2.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import Any


class ModelFileError(Exception):
    """A model file that cannot be used; ``str()`` is the whole message."""

    def __init__(self, path: str | Path, message: str, key: str | None = None):
        self.path, self.key, self.message = str(path), key, message
        where = f"{self.path}: {key}: " if key else f"{self.path}: "
        super().__init__(where + message)


class Data:
    """The parsed TOML table of one file, with typed getters that report errors well."""

    def __init__(self, table: dict[str, Any], path: str | Path):
        self.table, self.path = table, str(path)
        self.top_level: set[str] = set()
        """The family's top-level keys (a family sets them), for :meth:`misplaced` hints."""

    def error(self, key: str | None, message: str) -> ModelFileError:
        """A :class:`ModelFileError` about ``key`` in this file."""
        return ModelFileError(self.path, message, key)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ..., *,
            table: dict[str, Any] | None = None, prefix: str = "") -> Any:
        """The value at ``key`` (required unless a default is given), checked against ``kind``."""
        source = self.table if table is None else table
        name = f"{prefix}{key}"
        if key not in source:
            if default is ... and table is None:
                self._hidden_in_a_table(key)
            if default is ...:
                raise self.error(name, "missing")
            return default
        value = source[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
            wanted = " or ".join(t.__name__ for t in _as_tuple(kind))
            raise self.error(name, f"expected {wanted}, got {type(value).__name__} {value!r}")
        return value

    def unknown_keys(self, allowed: set[str], table: dict[str, Any] | None = None,
                     prefix: str = "") -> None:
        """Reject keys a family does not know (catches typos)."""
        extra = sorted(set(self.table if table is None else table) - allowed)
        if extra and prefix and extra[0] in self.top_level:
            raise self.misplaced_error(prefix + extra[0])
        if extra:
            raise self.error(f"{prefix}{extra[0]}",
                             f"unknown key (known: {', '.join(sorted(allowed))})")

    def misplaced_error(self, key: str) -> ModelFileError:
        """The error for a top-level key that TOML put inside a table (``key`` is dotted)."""
        table, _, name = key.rpartition(".")
        plain = re.sub(r"\[\d+\]", "", table)
        header = f"[[{plain}]]" if table.endswith("]") else f"[{plain}]"
        return self.error(key, f"{name!r} is a top-level key, but it comes after the {header} "
                               f"header, so TOML reads it as part of that table: move it above "
                               f"the first [table] header")

    def _hidden_in_a_table(self, key: str) -> None:
        """Raise the hint when a missing top-level ``key`` sits inside a table instead."""
        stack: list[tuple[str, Any]] = [(name, value) for name, value in self.table.items()]
        while stack:
            where, value = stack.pop()
            if isinstance(value, dict):
                if key in value:
                    raise self.misplaced_error(f"{where}.{key}")
                stack.extend((f"{where}.{k}", v) for k, v in value.items())
            elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
                stack.extend((f"{where}[{i}]", v) for i, v in enumerate(value))

    def misplaced(self, table: dict[str, Any], prefix: str) -> None:
        """Refuse a top-level key found in ``table``: one with a string value (as most have),
        or ``actions`` with its list."""
        for key, value in table.items():
            if key in self.top_level and (
                    isinstance(value, str) or (key == "actions" and isinstance(value, list))):
                raise self.misplaced_error(prefix + key)


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest model file read (TOML, PDDL, Python)."""


def read_text(path: str | Path) -> str:
    """The text of a model file (TOML, PDDL), or a :class:`ModelFileError`.

    Refused with one clear message: a missing path, a directory or any other
    non-regular file (a FIFO, a device), a file over :data:`MAX_FILE_BYTES`,
    an empty or binary file, text that is not UTF-8 (a byte-order mark is
    accepted).
    """
    p = Path(path)
    try:
        info = p.stat()
    except FileNotFoundError:
        raise ModelFileError(path, "no such file") from None
    except OSError as err:
        raise ModelFileError(path, f"cannot be read ({err.strerror or err})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ModelFileError(path, "is a directory, not a model file")
    if not stat.S_ISREG(info.st_mode):
        raise ModelFileError(path, "is not a regular file (a pipe or a device?)")
    if info.st_size > MAX_FILE_BYTES:
        raise ModelFileError(path, f"the file has {info.st_size:,} bytes; model files are "
                             f"limited to {MAX_FILE_BYTES:,}")
    try:
        raw = p.read_bytes()
    except OSError as err:
        raise ModelFileError(path, f"cannot be read ({err.strerror or err})") from None
    if not raw.strip():
        raise ModelFileError(path, "the file is empty")
    if b"\x00" in raw:
        raise ModelFileError(path, "not a text file (binary data)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ModelFileError(path, f"not UTF-8 text (byte {err.start})") from None
    return text
