"""The hostile command lines (tests/hostile/commands, written by tests/hostile/make_corpus.py).

Each case runs in process, in a folder of its own holding its files, next to a
``secret.txt`` that no command names.  What a user is promised, whatever the command
line: never a traceback, an internal error or exit 3; the whole command within its time
limit plus 10 % or 0.5 s (on its own clock, 0.5 s more for a loaded test machine); with
``--json``, JSON on stdout (one object, or one per line); no file created or changed but
those the command names, its inputs untouched, and nothing read that it does not name
(``secret.txt``, ``/etc/passwd``); and what the case itself checks (an exit code, a line
on stderr, well-formed XML, at most N states, a JSON field).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

COMMANDS = Path(__file__).resolve().parents[1] / "hostile" / "commands"
CASES = sorted(COMMANDS.glob("*.json"))
CORPUS = Path(__file__).resolve().parents[1] / "hostile" / "corpus"
SLOW = ("cluster-",)
"""Cases that start a local Dask cluster: the slow variant runs them."""

_OPENED: list[str] = []
_WATCHING = [False]


def _audit(event: str, args: tuple) -> None:
    if _WATCHING[0] and event == "open" and isinstance(args[0], (str, bytes)):
        _OPENED.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)


def test_the_corpus_has_550_cases_spanning_every_surface():
    files = sorted(CORPUS.iterdir())
    assert len(files) + len(CASES) >= 550
    commands = {json.loads(c.read_text())["argv"][0] for c in CASES}
    assert commands >= {"solve", "compare", "analyze", "show", "generate", "count"}
    whats = " ".join(json.loads(c.read_text())["what"] for c in CASES)
    for surface in ("pddl", "scheduler", "collection", "folder", "show", "--jobs", "cluster"):
        assert surface in whats, surface


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _judge(spec: dict, code: int, out: str, err: str, seconds: float) -> None:
    checks = spec["checks"]
    assert "Traceback" not in out + err, err
    assert "internal error" not in err, err
    assert code in (0, 1, 2), (code, err)
    if "code" in checks:
        assert code == checks["code"], (code, err)
    if "code_in" in checks:
        assert code in checks["code_in"], (code, err)
    limit = spec["limit"]
    if limit is not None:
        assert seconds <= limit + max(0.1 * limit, 0.5) + 0.5, f"{seconds:.2f} s"
    if "--json" in spec["argv"]:
        lines = [line for line in out.splitlines() if line.strip()]
        assert lines, err
        try:
            parsed = [json.loads(out)]
        except json.JSONDecodeError:
            parsed = [json.loads(line) for line in lines]
        if "json_lines" in checks:
            assert len(parsed) == checks["json_lines"]
        if "json_key" in checks:
            assert checks["json_key"] in parsed[0], parsed[0]
        for key, value in checks.get("json_equals", {}).items():
            assert parsed[0].get(key) == value, (key, parsed[0].get(key))
        if "max_states" in checks and "states" in parsed[0]:
            assert parsed[0]["states"] <= checks["max_states"], parsed[0]["message"]
            assert sum(parsed[0]["layers"]) == parsed[0]["states"]
    if "stderr_has" in checks:
        assert checks["stderr_has"] in err, err
    if checks.get("quiet"):
        assert "Port" not in err and "leaked" not in err, err
    if checks.get("xml") == "-":
        ET.fromstring(out[out.index("<svg"):] if "<svg" in out else out)
    elif "xml" in checks:
        ET.parse(checks["xml"])


def _run(cli, spec: dict, tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "case"
    for name, text in spec["files"].items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    (tmp_path / "secret.txt").write_text("not yours")
    monkeypatch.chdir(home)
    before = _tree(home)
    _OPENED.clear()
    _WATCHING[0] = True
    try:
        start = time.monotonic()
        run = cli(*spec["argv"])
        seconds = time.monotonic() - start
    finally:
        _WATCHING[0] = False
    _judge(spec, run.code, run.out, run.err, seconds)
    after = _tree(home)
    changed = {n for n in set(before) | set(after) if before.get(n) != after.get(n)}
    assert changed <= set(spec["writes"]), changed
    secret = str(tmp_path / "secret.txt")
    read = {os.path.realpath(p) for p in _OPENED}
    assert secret not in read and "/etc/passwd" not in read, sorted(read)


@pytest.mark.parametrize("path", [c for c in CASES if not c.stem.split("-", 1)[1]
                                  .startswith(SLOW)], ids=lambda p: p.stem)
def test_command_case(cli, path, tmp_path, monkeypatch):
    _run(cli, json.loads(path.read_text()), tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("path", [c for c in CASES if c.stem.split("-", 1)[1]
                                  .startswith(SLOW)], ids=lambda p: p.stem)
def test_cluster_command_case(cli, path, tmp_path, monkeypatch):
    _run(cli, json.loads(path.read_text()), tmp_path, monkeypatch)
