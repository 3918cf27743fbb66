"""Checks of option values and of what a command line names that are about hostile
input (issue 21): a scheduler's address, how many processes a machine can run, and an
output file that would write over an input or onto the JSON answer on stdout."""

from __future__ import annotations

import argparse
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
