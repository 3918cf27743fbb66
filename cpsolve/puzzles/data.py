"""What a family reads a model file through: :class:`Data` and :class:`ModelFileError`.

Every problem with a file becomes a :class:`ModelFileError` that names the
file, the key (or line) and what is wrong; the CLI prints it and exits 2.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..language.quoting import named, shorten, shown


class ModelFileError(Exception):
    """A model file that cannot be used; ``str()`` is the whole message."""

    def __init__(self, path: str | Path, message: str, key: str | None = None):
        self.path, self.key, self.message = str(path), key, message
        where = f"{named(self.path)}: {key}: " if key else f"{named(self.path)}: "
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
                self.hidden_in_a_table(key)
            if default is ...:
                raise self.error(name, "missing")
            return default
        return self.checked(name, source[key], kind)

    def checked(self, key: str, value: Any, kind: type | tuple[type, ...]) -> Any:
        """``value`` (found at ``key``) when it is a ``kind``, else the error naming ``key``;
        ``true``/``false`` are no ``int`` (only a ``bool`` kind takes them)."""
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
            wanted = " or ".join(t.__name__ for t in _as_tuple(kind))
            raise self.error(key, f"expected {wanted}, got {type(value).__name__} {shown(value)}")
        return value

    def items(self, key: str, kind: type | tuple[type, ...], default: Any = ..., *,
              table: dict[str, Any] | None = None, prefix: str = "") -> Any:
        """The list at ``key`` (as :meth:`get` reads it), each of its items a ``kind``: an
        item that is not is refused naming ``key[index]`` (a table or a list among labels,
        ``true`` among integers)."""
        value = self.get(key, list, default, table=table, prefix=prefix)
        if isinstance(value, list):
            for i, item in enumerate(value):
                self.checked(f"{prefix}{key}[{i}]", item, kind)
        return value

    def unknown_keys(self, allowed: set[str], table: dict[str, Any] | None = None,
                     prefix: str = "") -> None:
        """Reject keys a family does not know (catches typos)."""
        extra = sorted(set(self.table if table is None else table) - allowed)
        if extra and prefix and extra[0] in self.top_level:
            raise self.misplaced_error(prefix + extra[0])
        if extra:
            raise self.error(f"{prefix}{key_part(extra[0])}",
                             f"unknown key (known: {', '.join(sorted(allowed))})")

    def misplaced_error(self, key: str) -> ModelFileError:
        """The error for a top-level key that TOML put inside a table (``key`` is dotted)."""
        table, _, name = key.rpartition(".")
        plain = re.sub(r"\[\d+\]", "", table)
        header = f"[[{plain}]]" if table.endswith("]") else f"[{plain}]"
        return self.error(key, f"{shown(name)} is a top-level key, but it comes after the {header} "
                               f"header, so TOML reads it as part of that table: move it above "
                               f"the first [table] header")

    def hidden_in_a_table(self, key: str) -> None:
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

    @contextmanager
    def entry(self, key: str) -> Iterator[None]:
        """Read the entry ``key`` (dotted: ``initial.forbid``) of a table whose keys the file
        chooses (constants, variables, initial values, labels, parameters, effects): when
        the table cannot read it and its name is one of the family's top-level keys not
        given at the top level, the error says that the key is misplaced, whatever its value."""
        name = key.rpartition(".")[2]
        try:
            yield
        except ModelFileError:
            if name in self.top_level and name not in self.table:
                raise self.misplaced_error(key) from None
            raise

    def misplaced(self, table: dict[str, Any], prefix: str) -> None:
        """Refuse a top-level key found in ``table``: one with a string value (as most have),
        or ``actions`` with its list."""
        for key, value in table.items():
            if key in self.top_level and (
                    isinstance(value, str) or (key == "actions" and isinstance(value, list))):
                raise self.misplaced_error(prefix + key)


def key_part(name: str) -> str:
    """A key of a table whose keys the file chooses, as one part of a dotted key path: as
    written, or quoted as TOML quotes it when it is empty or starts or ends with a space
    (``effects." "``, not ``effects. ``); one longer than :data:`KEY_WIDTH` is cut."""
    if len(name) > KEY_WIDTH:
        return shorten(name, width=KEY_WIDTH)
    if name and name.strip() == name:
        return name
    import json  # here: every model file is read, few have such a key

    return json.dumps(name, ensure_ascii=False)


KEY_WIDTH = 60
"""Longest key :func:`key_part` shows whole (a longer one is cut, as values are)."""


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


_READING: list[list[str]] = []
"""The lists of the :func:`reading` blocks under way: each file read is added to each."""


@contextmanager
def reading(into: list[str]) -> Iterator[list[str]]:
    """Add to ``into`` every file read while the block runs (model files, PDDL files, a
    collection's ``instances_file``, a user's Python file): what a command must never
    write over."""
    _READING.append(into)
    try:
        yield into
    finally:
        _READING.remove(into)


def note_read(path: str | Path) -> None:
    """Tell the :func:`reading` blocks under way that ``path`` is read."""
    for into in _READING:
        into.append(str(path))


MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest file read: a model file (TOML, PDDL, Python) or an answer."""


def regular_file(path: str | Path, what: str = "model file",
                 limit: int = MAX_FILE_BYTES) -> None:
    """Refuse (:class:`ModelFileError`) a path that is not a readable regular file of at
    most ``limit`` bytes: missing, a directory, a pipe or a device (reading would
    wait or never end), a link that leads nowhere or round in a loop.  ``what``: the
    kind of file the messages name."""
    try:
        info = Path(path).stat()
    except FileNotFoundError:
        raise ModelFileError(path, "a symbolic link to a file that does not exist"
                             if Path(path).is_symlink() else "no such file") from None
    except OSError as err:
        raise ModelFileError(path, f"cannot be read ({err.strerror or err})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ModelFileError(path, f"is a directory, not {_a(what)}")
    if not stat.S_ISREG(info.st_mode):
        raise ModelFileError(path, "is not a regular file (a pipe or a device?)")
    if info.st_size > limit:
        raise ModelFileError(path, f"the file has {info.st_size:,} bytes; {what}s are "
                             f"limited to {limit:,}")


def _a(what: str) -> str:
    return f"an {what}" if what[:1] in "aeiou" else f"a {what}"


def read_text(path: str | Path, what: str = "model file", also: str | None = None,
              empty: bool = False) -> str:
    """The text of a model file (TOML, PDDL), or of the kind of file ``what`` names (an
    answer file), or a :class:`ModelFileError` that names that kind.

    Refused with one clear message: everything :func:`regular_file` refuses, an empty
    file (unless ``empty``: a plan of no steps is one), text in UTF-16 or UTF-32 (said
    so: save it as UTF-8), other binary data, text that is not UTF-8 (a byte-order mark
    is accepted) — nor, when ``also`` names an encoding (the console's, in which
    cpsolve's own output was written), text in that one.
    """
    note_read(path)
    regular_file(path, what)
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise ModelFileError(path, f"cannot be read ({err.strerror or err})") from None
    if not raw.strip() and not empty:
        raise ModelFileError(path, "the file is empty")
    wide = wide_encoding(raw)
    if wide:
        raise ModelFileError(path, f"the text is in {wide}: save it as UTF-8, the encoding "
                             "cpsolve reads")
    if b"\x00" in raw:
        raise ModelFileError(path, "not a text file (binary data)")
    try:
        return utf8_text(raw)
    except ValueError as err:
        try:
            if also is not None:
                return raw.decode(also)
        except (UnicodeDecodeError, LookupError):
            pass
        raise ModelFileError(path, str(err)) from None


def utf8_text(raw: bytes) -> str:
    """``raw`` read as UTF-8 (a byte-order mark is dropped); ``ValueError`` says where it is
    not: the line and column of the first byte that is not UTF-8 (a Latin-1 ``×``)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
        at = err.start + bom  # the decoder counts after the mark
        start = raw.rfind(b"\n", 0, at) + 1
        line = raw.count(b"\n", 0, at) + 1
        column = len(raw[max(start, bom):at].decode("utf-8", "replace")) + 1
        raise ValueError(f"not UTF-8 text (line {line}, column {column}: byte "
                         f"0x{raw[at]:02x}): save it as UTF-8, the encoding cpsolve "
                         "reads") from None


def wide_encoding(raw: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` when ``raw`` is text in one of them (its byte-order
    mark, or plain text whose every other byte is zero, as UTF-16 without a mark writes
    it), else None."""
    if raw.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    even, odd = raw[0::2], raw[1::2]
    for zeros, chars in ((odd, even), (even, odd)):
        if len(raw) >= 4 and zeros.count(0) >= 0.9 * len(zeros) and 0 not in chars:
            return "UTF-16"
    return None
