"""Checks of option values and of what a command line names (a bad one is one line,
exit 2): the types of the options' values (seconds, sizes, counts, a file to write), a
scheduler's address, how many processes a machine can run, a file name that is empty or
too long, and an output file that would write over an input (by any name) or onto the
JSON answer on stdout."""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
from collections.abc import Sequence

from ..engines import option_choices
from ..engines.runtime.cpu import max_processes
from ..language.quoting import figure, shorten, shown


def processes(text: str) -> int:
    """A number of local worker processes: at least 1, at most :func:`max_processes`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {shown(text)}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {figure(value)}")
    if value > max_processes():
        raise argparse.ArgumentTypeError(f"{figure(value)} processes is more than this machine "
                                         f"can run usefully (at most {max_processes()}: "
                                         f"4 per core)")
    return value


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address: ``[tcp://|tls://]host[:port]`` (an IPv6 host in
    brackets), refused at once when it is not one (the engines' rule, which
    ``Options.cluster`` holds too: :func:`~cpsolve.engines.option_choices.scheduler_address`)."""
    if not option_choices.scheduler_address(text):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a Dask scheduler address "
                                         f"({option_choices.ADDRESS_FORM})")
    return text


OUTPUTS = (("svg", "--svg"), ("html", "--html"), ("plan_file", "--plan-file"))
"""The options that name a file to write: destination, option."""


def outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files the command line names to write, each with its option: ``(option, path)``
    (``export``'s files are named by the model and ``--output``: it checks them itself)."""
    return [(flag, out) for dest, flag in OUTPUTS if (out := getattr(args, dest, None))]


def inputs(args: argparse.Namespace) -> list[str]:
    """The files the command line names to read: model files (a bundled model's name as its
    file), a PDDL domain and problem, ``validate``'s answer."""
    from ..puzzles.files import resolve

    named = [*(getattr(args, "files", None) or [getattr(args, "file", None)]),
             getattr(args, "problem", None)]
    return [str(resolve(name)) for name in named if isinstance(name, str)]


def same_file(one: str, other: str) -> bool:
    """Whether two paths are one file: the same path once links and ``..`` are resolved,
    or (both existing) the same device and inode — a hard link too."""
    try:
        return os.path.realpath(one) == os.path.realpath(other) or (
            os.path.exists(one) and os.path.exists(other) and os.path.samefile(one, other))
    except (OSError, ValueError):
        return False


def is_stdout(path: str) -> bool:
    """Whether ``path`` is the file this process's stdout writes to (``/dev/stdout``, or
    the file the shell sent stdout to)."""
    try:
        here, there = os.fstat(1), os.stat(path)
    except (OSError, ValueError):
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def over_input(args: argparse.Namespace, written: list[tuple[str, str]] | None = None,
               read: Sequence[str] = ()) -> str | None:
    """Why the command's outputs are refused, or None: an output (``written``, by default
    the command line's :func:`outputs`) that is one of the command's input files — its
    :func:`inputs`, and the files it has ``read`` so far — by any name (a symbolic or hard
    link, ``..``: never written over), or stdout (``-``, or :func:`is_stdout`) while
    stdout carries the JSON answer.  Checked before the command starts, again once its
    files are loaded (a collection's ``instances_file``), and by ``export`` before it
    writes."""
    written = outputs(args) if written is None else written
    sources = [*inputs(args), *read] if written else []
    for flag, out in written:
        if getattr(args, "json", False) and (out == "-" or is_stdout(out)):
            return f"{flag} {out} writes to stdout, which --json holds: name another file"
        if out == "-":
            continue
        source = next((s for s in sources if same_file(out, s)), None)
        if source is not None:
            what = "would write over an input of the command" \
                if os.path.normpath(source) == os.path.normpath(out) else \
                f"is {source}, an input of the command, under another name"
            return f"{flag} {out} {what}: " + ("write into another folder" if flag == "--output"
                                               else "name another file")
    return in_run_folder(getattr(args, "work_dir", None), [*inputs(args), *read])


def in_run_folder(work_dir: str | None, sources: Sequence[str]) -> str | None:
    """Why ``--work-dir`` is refused, or None: an input lies in one of its run folders
    (``bfs-*``), which a run that does not resume removes and rebuilds."""
    if not work_dir:
        return None
    try:
        work = os.path.realpath(work_dir)
        for source in sources:
            rest = os.path.relpath(os.path.realpath(source), work)
            if rest.startswith("bfs-") and os.sep in rest:
                return (f"--work-dir {work_dir}: {source} lies in its run folder "
                        f"{rest.split(os.sep)[0]}, which a run may remove: move the file "
                        "or name another work directory")
    except (OSError, ValueError):
        return None
    return None


def seconds(text: str) -> float:
    """A ``--time-limit`` value: a number of seconds > 0, or ``none`` (no limit: ``inf``,
    as is ``inf`` itself and a limit of :data:`~cpsolve.engines.runtime.clock.LONGEST`
    seconds or more, which no run reaches and the system's timers refuse)."""
    from ..engines.runtime.clock import LONGEST

    if text.strip().lower() == "none":
        return math.inf
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {shown(text)}") from None
    if math.isnan(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {shown(text)}")
    return math.inf if value >= LONGEST else value  # inf too: no limit


_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"(?P<number>.+?)\s*(?P<unit>[kmgt])(?:i?b)?")
SIZES = ("a size: a number with K, M, G or T (e.g. 500M, 2G, 2GiB), a percentage of the "
         "machine's memory (50%), or none")
"""What ``--memory-limit`` takes, as its error says it."""
LARGEST = float(1 << 63)
"""A ``--memory-limit`` of this many bytes (8 EiB, past any 64-bit address space) or more
is no limit, as a ``--time-limit`` past :data:`~cpsolve.engines.runtime.clock.LONGEST`
is: no process reaches it."""


def memory_size(text: str) -> float:
    """A ``--memory-limit`` value in bytes: a size with its unit (``500M``, ``2G``,
    ``1.5GB``, ``2GiB``; K, M, G or T, powers of 1,024, a ``B`` or ``iB`` after it
    optional), a share of the available memory (``50%``), or ``none`` (no limit: ``inf``,
    as is a size of :data:`LARGEST` bytes or more, ``1e400G`` or ``infG`` too)."""
    word = text.strip().lower()
    if word == "none":
        return math.inf
    if word.endswith("%"):
        return _percent(text, word[:-1])
    size = _SIZE.fullmatch(word)
    try:
        value = float(size["number"]) if size else math.nan
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise argparse.ArgumentTypeError(f"expected {SIZES}; got {shown(text)}")
    nbytes = value * _UNITS[size["unit"]]
    if nbytes < 1:
        raise argparse.ArgumentTypeError(f"expected a size of at least 1 byte, got "
                                         f"{shown(text)}")
    return math.inf if nbytes >= LARGEST else nbytes  # 1e400G, infG too: no limit


def _percent(text: str, number: str) -> float:
    """``--memory-limit N%``: that share of the memory available now."""
    from ..engines.runtime import memory

    try:
        percent = float(number)
    except ValueError:
        percent = math.nan
    if not 0 < percent <= 100:
        raise argparse.ArgumentTypeError(f"expected a percentage in (0, 100], got "
                                         f"{shown(text)}")
    free = memory.available()
    if free is None:
        raise argparse.ArgumentTypeError("a percentage needs /proc/meminfo, which this "
                                         "system lacks: give a size such as 2G")
    return free * percent / 100


def integer(text: str) -> int:
    """An integer option of any sign (``--seed``)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {shown(text)}") from None


def _integer(text: str, least: int) -> int:
    value = integer(text)
    if value < least:
        raise argparse.ArgumentTypeError(f"expected an integer >= {least}, got {figure(value)}")
    return value


def solver_name(text: str) -> str:
    """A MiniZinc solver's name (``--solver``): refused when empty or blank, as every
    other option's empty value is."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"an empty solver name ({text!r}): name one of "
                                         "minizinc --solvers")
    return text



def positive(text: str) -> int:
    """An integer option that must be at least 1."""
    return _integer(text, 1)


def states(text: str) -> float:
    """A limit on states: an integer >= 1, or ``none`` (no limit: ``inf``)."""
    return math.inf if text.strip().lower() == "none" else _integer(text, 1)


def natural(text: str) -> int:
    """An integer option that must be at least 0."""
    return _integer(text, 0)


NAME_MAX = 255
"""Most bytes in one name of a path (each part between slashes): Linux's file systems
(ext4, xfs, btrfs, tmpfs) take no more."""

PATH_MAX = 4096
"""Most bytes in a whole path the system takes (Linux)."""


def path_name(text: str) -> str:
    """A file or folder the command line names: refused at once when it is empty (the
    system would read it as the current folder) or longer than the system takes (every
    look-up would fail with "File name too long")."""
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    raw = os.fsencode(text)
    longest = max(len(part) for part in raw.split(b"/"))
    if longest > NAME_MAX:
        why = f"one of its names has {longest:,} bytes, the system takes {NAME_MAX}"
    elif len(raw) >= PATH_MAX:
        why = f"{len(raw):,} bytes, the system takes {PATH_MAX - 1:,}"
    else:
        return text
    raise argparse.ArgumentTypeError(f"file name too long ({why}): "
                                     f"{shorten(text, width=40, quote=False)}")


def output_name(text: str) -> str:
    """A file or folder the command writes: :func:`path_name`, and refused when it is
    blank (``' '``): a name of spaces only is a slip, and its file would hide from ``ls``."""
    path_name(text)
    if not text.strip():
        count = f"{len(text)} blank characters" if len(text) > 1 else "one blank character"
        raise argparse.ArgumentTypeError(f"a blank file name ({count}: {_escaped(text)})")
    return text


def _escaped(text: str) -> str:
    """``text`` in quotes with every character that does not show as itself escaped (a
    tab as ``\\t``, a space as ``\\x20``): a blank name said so that it can be read."""
    return "'" + "".join(f"\\x{ord(c):02x}" if c == " " else c.encode("unicode_escape").decode()
                         for c in text) + "'"


def output_folder(text: str) -> str:
    """A folder the command writes its files into (``export -o``): :func:`output_name`, and
    refused when it is ``-``, which means stdout to every other output option."""
    output_name(text)
    if text == "-":
        raise argparse.ArgumentTypeError("- is stdout to the other output options; export "
                                         "writes its files into a folder: name one (./- "
                                         "for a folder called -)")
    return text


def work_folder(text: str) -> str:
    """A folder to work in (``--work-dir``): refused at once when its name is empty, blank
    or too long (:func:`output_name`), it is not a folder, or it does not exist and neither
    does the folder it would be made in (it alone may be created, as ``export -o`` does)."""
    output_name(text)
    path = os.path.abspath(text)
    if os.path.exists(path) and not os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{text!r} is {_kind(path)}, not a directory (a "
                                         "work directory must be one)")
    if not os.path.exists(path) and not os.path.isdir(os.path.dirname(path)):
        raise argparse.ArgumentTypeError(f"no folder {os.path.dirname(path)!r} to make the "
                                         f"work directory {text!r} in")
    return text


def _kind(path: str) -> str:
    """What a path that is not a directory is, in words (``a file``, ``a pipe``)."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return "a file"
    return "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else \
        "a device"


def output_file(text: str) -> str:
    """A file to write: refused at once (before any solving) when its name is empty, blank
    or too long (:func:`output_name`), it is a directory, its folder does not exist, or it
    cannot be written.  ``-`` is stdout."""
    if text == "-":
        return text
    output_name(text)
    path = os.path.abspath(text)
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{text!r} is a directory, not a file")
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"no folder {folder!r} to write {text!r} in")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written (permission denied)")
    return text
