"""The README, examples/README.md and the docs site do what they say (issue 24).

Conventions (docs/contributing-docs.md):

* a ```` ```console ```` block is run: each ``$ command`` in a shell (``cpsolve`` is this
  checkout's), in a scratch folder of the page's own where ``models/``, ``examples/`` and
  ``benchmarks/`` are the repository's; the lines after it are its output, each found in
  order in what it printed (``...`` in a line stands for anything; a line ``...`` for any
  lines). ``# exit N`` after a command: it must exit N (else 0); ``# slow``: run by
  ``pytest -m slow`` only;
* a ```` ```toml title="NAME" ```` block is written to NAME in that folder before the
  commands after it run (every ```` ```toml ```` block is also a complete model file,
  tests/test_docs.py);
* a ```` ```python ```` block is run as a script there (it checks its own results);
* the blocks of a page run in order, in one folder: the tutorial's steps are one test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GENERATED = "docs/reference/cli.md"
LINKED = ("models", "examples", "benchmarks")
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.S | re.M)
TIMEOUT = 300
SLOW_TIMEOUT = 3600


@dataclass
class Command:
    line: str
    shown: list[str] = field(default_factory=list)
    code: int = 0
    slow: bool = False


@dataclass
class Step:
    kind: str  # "file", "command" or "python"
    text: str
    name: str = ""
    command: Command | None = None


def page_text(page: str) -> str:
    if page == GENERATED:
        from cpsolve.cli.reference import cli_page

        return cli_page()
    return (ROOT / page).read_text(encoding="utf-8")


def commands(body: str) -> list[Command]:
    """The ``$`` lines of a console block, each with the output lines shown after it."""
    out: list[Command] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            text = line[2:]
            exit_code = re.search(r"#\s*exit (\d+)", text)
            out.append(Command(text, code=int(exit_code.group(1)) if exit_code else 0,
                               slow=bool(re.search(r"#\s*slow\b", text))))
        elif out:
            out[-1].shown.append(line)
    return out


def steps(text: str) -> list[Step]:
    """What a page asks to run, in order."""
    out: list[Step] = []
    for match in BLOCK.finditer(text):
        lang, attrs, body = match.groups()
        title = re.search(r'title="([^"]+)"', attrs)
        if lang == "toml" and title:
            out.append(Step("file", body, name=title.group(1)))
        elif lang == "console":
            out += [Step("command", c.line, command=c) for c in commands(body)]
        elif lang == "python":
            out.append(Step("python", body))
    return out


def pages() -> list[str]:
    found = [README, ROOT / "examples" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [str(p.relative_to(ROOT)) for p in found] + [GENERATED]


def runnable_pages() -> list:
    return [pytest.param(p, id=p) for p in pages()
            if any(s.kind != "file" for s in steps(page_text(p)))]


def shell(line: str, cwd: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
    env.pop("FORCE_COLOR", None)
    script = f'cpsolve() {{ "{sys.executable}" -m cpsolve "$@"; }}\n{line}'
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def pattern(shown: str) -> re.Pattern:
    parts = [r"\s+".join(map(re.escape, piece.split())) for piece in shown.strip().split("...")]
    return re.compile(".*".join(parts))


def check_output(command: Command, printed: str) -> None:
    """Each shown line is found, in order, among the printed lines."""
    lines = printed.splitlines()
    at = 0
    for shown in command.shown:
        if not shown.strip() or shown.strip() == "...":
            continue
        want = pattern(shown)
        while at < len(lines) and not want.search(lines[at]):
            at += 1
        assert at < len(lines), f"$ {command.line}\nnot printed: {shown!r}\n--- printed:\n{printed}"
        at += 1


def scratch(tmp_path: Path) -> Path:
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def run_step(step: Step, cwd: Path) -> None:
    if step.kind == "file":
        (cwd / step.name).write_text(step.text, encoding="utf-8")
    elif step.kind == "python":
        (cwd / "block.py").write_text(step.text, encoding="utf-8")
        done = shell(f'"{sys.executable}" block.py', cwd)
        assert done.returncode == 0, f"{step.text}\n--- stderr:\n{done.stderr}"
    else:
        assert step.command is not None
        done = shell(step.command.line, cwd, SLOW_TIMEOUT if step.command.slow else TIMEOUT)
        printed = done.stdout + done.stderr
        assert done.returncode == step.command.code, \
            f"$ {step.command.line}\nexit {done.returncode}\n{printed}"
        check_output(step.command, printed)


@pytest.mark.parametrize("page", runnable_pages())
def test_every_command_and_python_block_runs(page, tmp_path):
    cwd = scratch(tmp_path)
    for step in steps(page_text(page)):
        if step.command is None or not step.command.slow:
            run_step(step, cwd)


def slow_commands() -> list:
    return [pytest.param(s, id=f"{p}: {s.text[:60]}", marks=pytest.mark.slow)
            for p in pages() for s in steps(page_text(p)) if s.command and s.command.slow]


@pytest.mark.parametrize("step", slow_commands())
def test_slow_commands_run(step, tmp_path):
    run_step(step, scratch(tmp_path))


def test_the_readme_is_short_and_keeps_the_ci_contract():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert re.search(r"!\[[^\]]+\]\(docs/pictures/\w+\.png\)", text)
    setups = [body.strip() for lang, _, body in BLOCK.findall(text) if lang == "sh"]
    assert len(setups) >= 2
    install, tests = setups[:2]
    assert "pip install -e ." in install and "cpsolve " in install
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests in ci, "the README's test command is what .ci/run runs"


def test_the_front_pages_claim_no_more_checking_than_the_output_shows():
    """README and docs/index.md open with the same words on what the checker re-checks;
    they name what it does not (an unlisted count, a state-space analysis: the output's
    "not re-checked"), and the README shows a count saying so."""
    def intro(text: str) -> str:
        return " ".join(text.split("\n\n")[1].split())

    readme, index = intro(README.read_text(encoding="utf-8")), \
        intro((ROOT / "docs" / "index.md").read_text(encoding="utf-8"))
    assert readme.startswith(index)
    assert "not re-checked" in index and "every answer is" not in index.lower()
    shown = [c for s in steps(README.read_text(encoding="utf-8")) if (c := s.command)]
    assert any("not re-checked" in line for c in shown if c.line.startswith("cpsolve count")
               for line in c.shown)


def test_links_to_generated_pages_say_they_are_generated():
    """A link to a page written only when the site is built (cpsolve.cli.reference.PAGES)
    is broken where the Markdown is read as it stands (GitHub, an editor): each such link
    says so right after it, and names the command that prints the same."""
    from cpsolve.cli.reference import PAGES

    generated = {(ROOT / "docs" / page).resolve() for page in PAGES}
    link = re.compile(r"\]\(([^)#\s]+\.md)\)")
    for path in [README, ROOT / "examples" / "README.md", *(ROOT / "docs").rglob("*.md")]:
        text = " ".join(path.read_text(encoding="utf-8").split())
        for found in link.finditer(text):
            target = (path.parent / found.group(1)).resolve()
            if target in generated:
                after = text[found.end():found.end() + 120]
                assert after.startswith(" (generated when the site is built; in the "
                                        "repository: `cpsolve "), (path, found.group(1))
            else:
                assert target.is_file() or target.is_dir(), (path, found.group(1))


def test_the_test_files_named_by_docs_models_and_examples_exist():
    """A page, model or example that sends its reader to a test file (``tests/...py``: "checked
    for every engine by tests/engines/test_bundled_expected.py") names one that is there: a
    renamed test leaves no reference behind."""
    named = re.compile(r"\btests/[a-z0-9_/]+\.py\b")  # not a pattern (test_NAME.py)
    texts = [README, *(ROOT / "docs").rglob("*.md"),
             *(p for folder in LINKED for p in (ROOT / folder).rglob("*")
               if p.suffix in (".toml", ".py", ".md"))]
    cited = {(path.name, found) for path in texts
             for found in named.findall(path.read_text(encoding="utf-8"))}
    assert any(found == "tests/engines/test_bundled_expected.py" for _, found in cited)
    assert [(name, found) for name, found in sorted(cited) if not (ROOT / found).is_file()] == []


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("material")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "reference" / "cli" / "index.html").exists()
    assert (tmp_path / "site" / "tutorial" / "index.html").exists()


def test_the_cli_reference_has_every_option():
    from cpsolve.cli.examples import EXAMPLES
    from cpsolve.cli.reference import cli_page

    text = cli_page()
    for name in EXAMPLES:
        assert not name or f"## `cpsolve {name}`" in text
    assert "`--limit` `N`" in text and "5,000,000" in text


def test_the_readme_install_command_ends_with_a_command_that_works(tmp_path):
    """The first set-up command's last part (after the install) is run here too."""
    text = README.read_text(encoding="utf-8")
    install = next(body.strip() for lang, _, body in BLOCK.findall(text) if lang == "sh")
    command = install.rsplit("&& ", 1)[-1]
    assert command.startswith("cpsolve ")
    done = shell(command, scratch(tmp_path))
    assert done.returncode == 0 and "all engines agree" in done.stdout, done.stdout + done.stderr
