"""A scheduler address where nothing listens is said at once (Dask would retry for its whole
timeout); one where something answers is left to Dask's connect."""

from __future__ import annotations

import socket

import pytest

from cpsolve.engines.runtime.dask.client import refused

pytest.importorskip("distributed")


def _closed_port() -> int:
    """A local port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_port_nothing_listens_on_is_refused():
    port = _closed_port()
    assert refused(f"tcp://127.0.0.1:{port}") and refused(f"127.0.0.1:{port}")


def test_a_port_something_listens_on_is_left_to_dask():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert not refused(f"tcp://127.0.0.1:{s.getsockname()[1]}")


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_batch_on_a_refused_scheduler_is_one_line_and_no_table(cli, json_flag):
    """Not the table's head on stdout and then, ten seconds later, the error."""
    port = _closed_port()
    run = cli("solve", "water_jugs", "blocks", "--scheduler", f"tcp://127.0.0.1:{port}",
              *json_flag)
    assert run.code == 2 and len(run.err_lines) == 1 and "connection was refused" in run.err
    assert run.out == "" if not json_flag else len(run.out.splitlines()) == 1
