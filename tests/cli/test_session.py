"""The command's run-time budget: the tail kept after the engines, and engines not started
when their start would not fit (issue 20: a limit holds on a loaded machine)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cpsolve.cli import consoles, session
from cpsolve.cli.session import TAIL, TAIL_CPU, Cli
from cpsolve.engines.runtime import cpu as cpus

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.fixture(autouse=True)
def _no_limit_stated_after():
    """A :class:`Cli` made here states its limit for every message (``clock.state_limit``),
    as a command does; the command's end unsays it, and so does each test's here."""
    from cpsolve.engines.runtime.clock import state_limit

    yield
    state_limit(None)


def command(limit: float | None) -> Cli:
    return Cli(argparse.Namespace(command="solve", json=True, time_limit=limit))


@pytest.mark.parametrize("share, tail", [(1.0, TAIL), (0.5, TAIL), (0.1, TAIL_CPU / 0.1)])
def test_the_tail_grows_as_the_share_of_a_core_shrinks(monkeypatch, share, tail):
    monkeypatch.setattr(session, "cpu_share", lambda elapsed, before: share)
    assert command(10.0).tail() == pytest.approx(tail)


def test_the_share_of_a_core_is_cpu_time_over_wall_time(monkeypatch):
    monkeypatch.setattr(cpus.time, "process_time", lambda: 0.3)
    assert cpus.cpu_share(3.0) == pytest.approx(0.1)
    assert cpus.cpu_share(0.2) == 1.0  # threads: more CPU than wall is a whole core
    assert cpus.cpu_share(100.0) == 0.05  # never below a twentieth
    assert cpus.cpu_share(0.05) == 1.0  # too soon to tell
    assert cpus.cpu_share(1.0, cpu_before=0.2) == pytest.approx(0.1)  # since then


def test_a_command_run_in_a_long_process_measures_its_own_share(monkeypatch):
    """In a test's process (the clock started now, not at the process's start), the CPU
    the process used before the command does not count as the command's."""
    cpu = iter([100.0, 100.1])
    monkeypatch.setattr(session.time, "process_time", lambda: next(cpu))
    cli = command(10.0)
    assert cli.cpu_before == 100.0


def test_an_engine_whose_import_would_not_fit_is_not_started(monkeypatch):
    import cpsolve.engines as engines

    monkeypatch.setattr(session, "cpu_share", lambda elapsed, before: 0.1)
    monkeypatch.setattr(engines, "START_COST", {"slow": ("not_a_loaded_library", 0.25)})
    cli = command(2.0)  # 2 s left: the tail (0.5 s) and 2.5 s of start do not fit
    assert cli.too_late_for("slow").startswith("time limit 2 s reached before slow started "
                                               "(its start would take about 2.5 s")
    assert cli.too_late_for("search") is None  # nothing to import: it starts
    assert command(None).too_late_for("slow") is None  # no limit, no refusal


def test_a_library_already_loaded_costs_nothing_to_start(monkeypatch):
    import cpsolve.engines as engines

    monkeypatch.setattr(engines, "START_COST", {"loaded": ("pytest", 9.0)})
    assert engines.start_cost("loaded") == 0.0 and engines.start_cost("search") == 0.0


@pytest.mark.parametrize("argv", [["solve", "fifteen_puzzle"], ["count", "knight_6x6"]])
def test_auto_with_no_time_left_after_loading_starts_no_racer(cli, monkeypatch, argv):
    """The default engine, auto, is a race and not an engine of the registry: with no time
    left for any engine it was looked up as one ("unknown engine 'auto'", exit 2)."""
    monkeypatch.setattr(Cli, "tail", lambda self: 1e6)  # the tail alone outlasts the limit
    run = cli(*argv, "--time-limit", "30", "--json")
    assert run.code == 1, run.err
    data = json.loads(run.out)
    assert (data["status"], data["engine"]) == ("unknown", "auto")
    assert data["message"] == "time limit 30 s reached before auto started"
    assert [(e["engine"], e["note"]) for e in data["race"]["engines"]] == \
        [("search", "not started"), ("cpsat", "not started")]


def test_auto_with_no_time_left_still_gives_the_proof_that_needs_no_engine(cli, monkeypatch):
    monkeypatch.setattr(Cli, "tail", lambda self: 1e6)
    run = cli("solve", "french37", "--time-limit", "30", "--json")  # odd pegs: none left
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert (data["status"], data["proof"], data["verified"]) == ("infeasible", "invariant", True)


@pytest.fixture
def instant_default_proof(monkeypatch):
    """The search engine's default proof budget made all but nothing: a run given no time
    limit stops its optimality proof at once, after weighted A*'s first plan."""
    from cpsolve.engines.search.planning import anytime

    monkeypatch.setattr(anytime, "PROOF_SECONDS", 1e-9)


@pytest.mark.parametrize("none", ["none", "inf", "INF"])
def test_time_limit_none_is_no_limit_at_all(cli, instant_default_proof, none):
    """``--time-limit none`` (or ``inf``) lifts the default proof budget as well: the medium
    15-puzzle's optimum, 32 moves (its model's ``[expected]``), is proven; without
    ``--time-limit`` the proof stops at that budget, and says that no limit was given."""
    lifted = cli("solve", "fifteen_medium", "--engine", "search", "--time-limit", none, "--json")
    data = json.loads(lifted.out)
    assert (lifted.code, data["status"], data["moves"]) == (0, "optimal", 32)
    given_none = json.loads(cli("solve", "fifteen_medium", "--engine", "search", "--json").out)
    assert given_none["status"] == "solved"
    assert "no time limit was given" in given_none["message"]


def test_compare_and_batches_with_time_limit_none_have_no_limit_at_all(
        cli, instant_default_proof, monkeypatch, tmp_path):
    """The same in ``compare`` (search alone here) and in a batch: each engine run gets no
    limit at all, not the defaults of a run given none."""
    import cpsolve.workflows.batch.comparing

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "engines_for",
                        lambda model, task, peers=False: ["search"])
    compared = json.loads(cli("compare", "fifteen_medium", "--time-limit", "none", "--json").out)
    [result] = compared["models"][0]["results"]
    assert (result["status"], result["moves"]) == ("optimal", 32)
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "medium.toml").write_text((MODELS / "fifteen_medium.toml").read_text())
    batch = cli("solve", folder, "--engine", "search", "--time-limit", "none", "--json")
    row = json.loads(batch.out.splitlines()[0])
    assert (row["status"], row["moves"]) == ("optimal", 32)


def test_the_consoles_print_text_as_it_is(capsys):
    """No markup and no emoji codes in what a command prints: a model's name, an action or
    a message holding ``[bold]`` or ``:x:`` prints those characters."""
    text = "[bold]a[/bold] :x: [red] b"
    consoles.console(stderr=False).print(text)
    consoles.console(stderr=True).print(text)
    assert capsys.readouterr() == (text + "\n", text + "\n")


def test_a_json_batch_with_a_progress_bar_keeps_its_lines_on_stdout():
    """The bar on stderr (a terminal: FORCE_COLOR here) took stdout into itself while it
    ran, so a batch's JSON lines went to stderr and the pipe got the last object alone."""
    import json
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "cpsolve", "solve", "water_jugs", "blocks",
                           "--engine", "search", "--json"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "FORCE_COLOR": "1"})
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0, done.stderr
    assert [line.get("source") for line in lines] == ["water_jugs", "blocks", None]
    assert "batch" in lines[-1] and '"source"' not in done.stderr


def _run_on_a_terminal(argv: list[str], stdout, env: dict[str, str] | None = None) -> str:
    """Run the CLI with stdin and stderr on a terminal (a pseudo-terminal: its status line
    shows) and stdout as given (``None``: the same terminal); what the terminal showed."""
    import os
    import pty
    import subprocess
    import sys
    import threading

    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "cpsolve", *argv], stdin=slave,
                               stdout=slave if stdout is None else stdout, stderr=slave,
                               env={**os.environ, **(env or {})})
    os.close(slave)
    shown: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end has closed
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert process.wait(timeout=120) in (0, 1)  # 1: stopped at -n, "at least 2"
    reader.join(timeout=10)
    os.close(master)
    return b"".join(shown).decode(errors="replace")


@pytest.mark.parametrize("engine", ["search", "auto"])
def test_streamed_lines_go_to_stdout_while_a_status_line_shows(tmp_path, engine):
    """``count --list --json > FILE`` in a terminal: rich's status line took stdout into
    itself, so both solutions' lines were written on the terminal and the file held the
    count alone."""
    out = tmp_path / "out.json"
    with out.open("w") as stdout:
        shown = _run_on_a_terminal(["count", "latin4", "--list", "-n", "2", "--json",
                                    "--engine", engine], stdout)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line.get("found") for line in lines] == [1, 2, None]
    assert lines[-1]["count"] == 2 and '"found"' not in shown


def test_streamed_lines_go_to_stdout_with_force_color(tmp_path):
    """``FORCE_COLOR`` makes stderr's console a terminal's: the lines still go to stdout."""
    import os
    import subprocess
    import sys

    out = tmp_path / "out.json"
    with out.open("w") as stdout:
        done = subprocess.run([sys.executable, "-m", "cpsolve", "count", "latin4", "--list",
                               "-n", "2", "--json", "--engine", "search"], stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "FORCE_COLOR": "1"})
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line.get("found") for line in lines] == [1, 2, None]
    assert '"found"' not in done.stderr


def test_streamed_lines_show_on_the_terminal_stdout_and_stderr_share():
    shown = _run_on_a_terminal(["count", "latin4", "--list", "-n", "2", "--json",
                                "--engine", "search"], None)
    assert '"found": 1' in shown and '"found": 2' in shown
