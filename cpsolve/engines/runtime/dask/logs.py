"""Dask's logs while a cluster is used: one line each on stderr, never a traceback
(:func:`one_line_logs`, and :class:`OneLine` in each worker), and none at all once the
cluster is killed or shut down after a stop (:func:`silence`)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager


def silence() -> None:
    """Silence Dask's loggers: each connection closed by a kill would log a traceback, and
    after a stop (a signal to the process group ends the workers too) each task or
    broadcast to a worker gone logs an error that is no error of the run's."""
    for name in list(logging.root.manager.loggerDict):
        if name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class OneLine(logging.Formatter):
    """A Dask log record as one line on stderr: ``dask scheduler error: message``, the
    exception's type and message in place of its traceback."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's one line."""
        text = record.getMessage().strip().splitlines()
        line = text[0] if text else ""
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            line += f": {type(exc).__name__}: {exc}".rstrip(": ").splitlines()[0]
        return f"dask {record.name.split('.')[-1]} {record.levelname.lower()}: {line}"


def stream_handlers() -> list[logging.StreamHandler]:
    """The handlers by which Dask's logs reach a stream (stderr)."""
    return [h for h in logging.getLogger("distributed").handlers
            if isinstance(h, logging.StreamHandler)]


@contextmanager
def one_line_logs() -> Iterator[None]:
    """While a cluster is used: what Dask logs (its errors, at the level a local cluster
    leaves, :mod:`.local`) and asyncio's errors in Dask's event loop (a task's exception
    never retrieved) are one line each on stderr (:class:`OneLine`), never a traceback;
    the handlers are as they were afterwards."""
    one = OneLine()
    handlers = stream_handlers()
    kept = [h.formatter for h in handlers]
    for handler in handlers:
        handler.setFormatter(one)
    loop_log = logging.getLogger("asyncio")
    ours = logging.StreamHandler()
    ours.setFormatter(one)
    ours.setLevel(logging.ERROR)
    loop_log.addHandler(ours)
    propagates, loop_log.propagate = loop_log.propagate, False
    try:
        yield
    finally:
        for handler, formatter in zip(handlers, kept):
            handler.setFormatter(formatter)
        loop_log.removeHandler(ours)
        loop_log.propagate = propagates
