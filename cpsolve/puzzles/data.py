"""What a family reads a model file through: :class:`Data` and :class:`ModelFileError`.

Every problem with a file becomes a :class:`ModelFileError` that names the
file, the key (or line) and what is wrong; the CLI prints it and exits 2.
"""

from __future__ import annotations

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

    def error(self, key: str | None, message: str) -> ModelFileError:
        """A :class:`ModelFileError` about ``key`` in this file."""
        return ModelFileError(self.path, message, key)

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ..., *,
            table: dict[str, Any] | None = None, prefix: str = "") -> Any:
        """The value at ``key`` (required unless a default is given), checked against ``kind``."""
        source = self.table if table is None else table
        name = f"{prefix}{key}"
        if key not in source:
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
        if extra:
            raise self.error(f"{prefix}{extra[0]}",
                             f"unknown key (known: {', '.join(sorted(allowed))})")


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)
