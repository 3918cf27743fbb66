"""Checks of option values and of what a command line names (a bad one is one line,
exit 2): the types of the options' values (seconds, sizes, counts, a file to write), a
scheduler's address, how many processes a machine can run, and an output file that
would write over an input or onto the JSON answer on stdout."""

from __future__ import annotations

import argparse
import math
import os
import re


def max_processes() -> int:
    """Most worker processes ``--jobs`` or ``--workers`` may start: four per core (at
    least 8); more only thrash the machine and its memory."""
    return max(8, 4 * (os.cpu_count() or 1))


def processes(text: str) -> int:
    """A number of local worker processes: at least 1, at most :func:`max_processes`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    if value > max_processes():
        raise argparse.ArgumentTypeError(f"{value:,} processes is more than this machine "
                                         f"can run usefully (at most {max_processes()}: "
                                         f"4 per core)")
    return value


_ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*)"
                      r"(?::(\d{1,5}))?")


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address: ``[tcp://|tls://]host[:port]`` (an IPv6 host in
    brackets), refused at once when it is not one."""
    match = _ADDRESS.fullmatch(text)
    if match is None or (match[1] is not None and not 0 < int(match[1]) < 65536):
        raise argparse.ArgumentTypeError(f"{text!r} is not a Dask scheduler address "
                                         "(tcp://host:8786)")
    return text


def over_input(args: argparse.Namespace) -> str | None:
    """Why an output file of ``args`` is refused: it is one of the command's input files
    (never written over), or ``-`` (stdout) while stdout carries the JSON answer."""
    named = getattr(args, "files", None) or [getattr(args, "file", None)]
    inputs = [os.path.realpath(f) for f in named if isinstance(f, str) and os.path.isfile(f)]
    for flag in ("svg", "html"):
        out = getattr(args, flag, None)
        if out == "-" and getattr(args, "json", False):
            return f"--{flag} - writes to stdout, which --json holds: name a file"
        if out and out != "-" and os.path.realpath(out) in inputs:
            return f"--{flag} {out} would write over an input of the command: name another file"
    return None


def seconds(text: str) -> float:
    """A ``--time-limit`` value: a finite number of seconds > 0, or ``none`` (no limit:
    ``inf``, as is a limit of :data:`~cpsolve.engines.runtime.clock.LONGEST` seconds or more,
    which no run reaches and the system's timers refuse)."""
    from ..engines.runtime.clock import LONGEST

    if text.strip().lower() == "none":
        return math.inf
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return math.inf if value >= LONGEST else value


_UNITS = {"": None, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def memory_size(text: str) -> float:
    """A ``--memory-limit`` value in bytes: a size with its unit (``500M``, ``2G``,
    ``1.5GB``, ``2GiB``; powers of 1,024), a share of the available memory (``50%``),
    or ``none`` (no limit: ``inf``)."""
    from ..engines.runtime import memory

    word = text.strip().lower()
    if word == "none":
        return math.inf
    if word.endswith("%"):
        try:
            percent = float(word[:-1])
        except ValueError:
            percent = math.nan
        if not 0 < percent <= 100:
            raise argparse.ArgumentTypeError(f"expected a percentage in (0, 100], got {text!r}")
        free = memory.available()
        if free is None:
            raise argparse.ArgumentTypeError("a percentage needs /proc/meminfo, which this "
                                             "system lacks: give a size such as 2G")
        return free * percent / 100
    number = word.removesuffix("ib").removesuffix("b")
    unit = _UNITS.get(number[-1:] if number[-1:].isalpha() else "", None)
    try:
        value = float(number[:-1] if unit else "x")
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 500M, 2G or 50%, or none; "
                                         f"got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a size > 0, got {text!r}")
    return value * unit


def _integer(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"expected an integer >= {least}, got {value}")
    return value



def positive(text: str) -> int:
    """An integer option that must be at least 1."""
    return _integer(text, 1)


def states(text: str) -> float:
    """A limit on states: an integer >= 1, or ``none`` (no limit: ``inf``)."""
    return math.inf if text.strip().lower() == "none" else _integer(text, 1)


def natural(text: str) -> int:
    """An integer option that must be at least 0."""
    return _integer(text, 0)


def output_file(text: str) -> str:
    """A file to write: refused at once (before any solving) when it is a directory, its
    folder does not exist, or it cannot be written.  ``-`` is stdout."""
    if text == "-":
        return text
    path = os.path.abspath(text)
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{text!r} is a directory, not a file")
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"no folder {folder!r} to write {text!r} in")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text!r} cannot be written (permission denied)")
    return text
