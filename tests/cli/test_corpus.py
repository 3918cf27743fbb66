"""The hostile-input corpus (tests/hostile/corpus, written by tests/hostile/make_corpus.py).

Every file goes through the CLI with the search engine and with CP-SAT and a
1-second limit. What a user is promised, whatever the file: exit 0 (an
answer), 1 (no answer within the limit) or 2 (a bad file: exactly one line on
stderr naming the file); never a traceback or an "internal error"; the whole
command ends with the limit: no file makes it run on (checked in process with a bound
that holds on a loaded machine — the suite must pass beside 8 busy processes, so how
close to the limit a run ends is measured by benchmarks/under_load.py, not here).

In process by default (fast); the slow variant runs each file in its own
process under a 4 GB address-space limit, so memory blow-ups show up too.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1] / "hostile" / "corpus"
FILES = sorted(CORPUS.iterdir())
LIMIT = 1.0
SLACK = 10.0
"""A run that has not ended 10 s past its 1 s limit has run on (on an idle machine the
command ends within 10 % or 0.5 s of it: benchmarks/under_load.py measures that)."""


def test_the_corpus_is_large_and_covers_every_family():
    assert len(FILES) >= 300
    families = {f.name.split("-")[1] for f in FILES}
    assert families >= {"toml", "transition", "csp", "grid", "sliding", "pegs", "tour", "python"}


def _judge(path: Path, code: int, out: str, err: str, seconds: float | None = None,
           slack: float = SLACK) -> None:
    assert "Traceback" not in out + err, err
    assert "internal error" not in err, err
    assert code in (0, 1, 2), (code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        assert path.name in lines[0] or "error: cpsolve" in lines[0], err
    if seconds is not None:
        assert seconds <= LIMIT + slack, f"{seconds:.2f} s"


@pytest.mark.parametrize("engine", ["search", "cpsat"])
@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_corpus_file_in_process(cli, path, engine):
    start = time.monotonic()
    run = cli("solve", path, "--engine", engine, "--time-limit", str(LIMIT))
    # in process, from main()'s start (nothing left to import) to its end
    _judge(path, run.code, run.out, run.err, time.monotonic() - start)


def _four_gigabytes() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["search", "cpsat"])
@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_corpus_file_in_its_own_process(path, engine):
    done = subprocess.run([sys.executable, "-m", "cpsolve", "solve", str(path), "--engine",
                           engine, "--time-limit", str(LIMIT)], capture_output=True, text=True,
                          timeout=120, preexec_fn=_four_gigabytes)
    # no time check: a fresh process's start-up is not the command's; the whole process's
    # time under a limit is a figure of benchmarks/under_load.py
    _judge(path, done.returncode, done.stdout, done.stderr)
