"""What a Python model file's own code may not take from cpsolve while it loads
(:func:`held`, around :func:`cpsolve.puzzles.files.load_python`).

The code runs on cpsolve's main thread, where Python lets any code set signal handlers
and masks: ``signal.signal(SIGINT, SIG_IGN)`` or ``pthread_sigmask(SIG_BLOCK, {SIGINT})``
would take Ctrl-C and SIGTERM away from the whole command, ``setitimer``/``alarm`` the
time limit's clock, ``set_wakeup_fd`` the guard's pipe (:mod:`cpsolve.engines.runtime.guard`).
In the block these raise ``ValueError`` for SIGINT, SIGTERM and SIGALRM (as Python's own
do on any thread but the main one); other signals are the model's business.

Nor may the code fork (``os.fork``, ``os.forkpty``: ``RuntimeError``): the child would
go on running the model's code after cpsolve's command has ended.  A program started
with ``subprocess`` is the model's own to wait for.  ``multiprocessing`` meets the same
refusal wherever the model loads: in a batch's own (daemonic) child process too, which
``multiprocessing`` would otherwise refuse children first, in words about cpsolve's
process rather than the model's code.

Its stdin is ``/dev/null``: a model reading stdin would read input the user did not
name to it (and ``sys.stdin.read()`` on an endless stream holds the interpreter).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator

HELD = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGALRM})
"""The signals cpsolve keeps for itself: Ctrl-C, SIGTERM and its clock's alarm."""

FORKS = ("fork", "forkpty")


def _names(signals) -> str:
    return ", ".join(sorted(signal.Signals(s).name for s in signals))


def _ours() -> bool:
    """Whether the code calling the function patched (two frames up) is cpsolve's own (its
    clock sets SIGALRM's handler and timer while a model loads) or the standard library's
    ``signal`` module passing a call on to ``_signal``, already checked at ``signal``."""
    name = sys._getframe(2).f_globals.get("__name__", "")
    return name.startswith("cpsolve.") or name == "signal"


def _refuse_signal(real: Callable) -> Callable:
    def signal_(signalnum, handler):
        if signalnum in HELD and not _ours():
            raise ValueError(f"a model's code may not change the handler of "
                             f"{_names({signalnum})}: cpsolve keeps it")
        return real(signalnum, handler)
    return signal_


def _refuse_mask(real: Callable) -> Callable:
    def pthread_sigmask(how, mask):
        blocked = set() if how == signal.SIG_UNBLOCK else set(mask) & HELD
        if blocked and not _ours():
            raise ValueError(f"a model's code may not block {_names(blocked)}: cpsolve "
                             "keeps them")
        return real(how, mask)
    return pthread_sigmask


def _refuse_timer(real: Callable, what: str) -> Callable:
    def timer(*args, **kwargs):
        real_timer = what == "alarm" or (args[:1] or [kwargs.get("which")])[0] == \
            signal.ITIMER_REAL
        if (real_timer or what == "set_wakeup_fd") and not _ours():
            raise ValueError(f"a model's code may not call signal.{what} for that: cpsolve's "
                             "clock and guard use it")
        return real(*args, **kwargs)
    return timer


def _no_fork(name: str) -> Callable:
    def refused(*args, **kwargs):  # noqa: ARG001 - any call
        raise RuntimeError(f"a model's code may not call os.{name}(): the child would "
                           "outlive the command")
    return refused


def _patches() -> list[tuple[object, str, Callable]]:
    """Each (module, name, replacement) :func:`held` puts in place."""
    out: list[tuple[object, str, Callable]] = []
    for module in (signal, sys.modules.get("_signal")):
        if module is None:
            continue
        out += [(module, "signal", _refuse_signal(module.signal))]
        if hasattr(module, "pthread_sigmask"):
            out.append((module, "pthread_sigmask", _refuse_mask(module.pthread_sigmask)))
        out += [(module, name, _refuse_timer(getattr(module, name), name))
                for name in ("setitimer", "alarm", "set_wakeup_fd") if hasattr(module, name)]
    for module in (os, sys.modules.get(os.name)):
        if module is not None:
            out += [(module, name, _no_fork(name)) for name in FORKS if hasattr(module, name)]
    return out


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A model file's own code runs in the block: cpsolve's signals, its clock's timer,
    the process itself (no fork) and stdin (``/dev/null``) are kept from it; all come back
    when the block ends, however it ends."""
    patches = _patches()
    saved = [(module, name, getattr(module, name)) for module, name, _ in patches]
    for module, name, replacement in patches:
        setattr(module, name, replacement)
    try:
        with _no_stdin(), _not_daemonic():
            yield
    finally:
        for module, name, real in saved:
            setattr(module, name, real)


@contextlib.contextmanager
def _not_daemonic() -> Iterator[None]:
    """In the block the process is not daemonic to ``multiprocessing`` (a batch loads
    models in cpsolve's daemonic child, whose ``Process.start`` would assert "daemonic
    processes are not allowed to have children"): a model starting a process reaches
    the fork refused, as it does when cpsolve loads it in its own process."""
    process = sys.modules.get("multiprocessing.process")  # not loaded: no daemonic child
    current = process.current_process() if process is not None else None
    daemonic = current is not None and current.daemon
    if daemonic:
        current.daemon = False
    try:
        yield
    finally:
        if daemonic:
            current.daemon = True


@contextlib.contextmanager
def _no_stdin() -> Iterator[None]:
    """File descriptor 0 and ``sys.stdin`` read ``/dev/null`` in the block."""
    stream = sys.stdin
    try:
        saved = os.dup(0)
    except OSError:
        saved = None
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - closed below
    try:
        yield
    finally:
        sys.stdin.close()
        sys.stdin = stream
        if saved is None:
            os.close(0)
        else:
            os.dup2(saved, 0)
            os.close(saved)
