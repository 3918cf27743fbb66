"""Shared fixtures for the core tests: paths, running the CLI, bad model files.

Test modules use these through fixtures only (never ``from conftest import``:
tests/engines/ may get a conftest.py of its own, and both would be "conftest").
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"

# Pattern databases built by tests go to a cache of their own (inherited by CLI
# subprocesses), never to the user's ~/.cache; it is kept between runs so that
# the 15-puzzle tables are built once per machine.
os.environ.setdefault("CPSOLVE_CACHE_DIR",
                      str(Path(tempfile.gettempdir()) / "cpsolve-test-cache"))

WIDE = "1000"
"""Console width for CLI runs that are not about line wrapping (rich wraps at the width)."""


def pytest_sessionstart(session) -> None:  # noqa: ARG001 - pytest's hook signature
    """Compile cpsolve's modules to bytecode once, before any test: where
    ``PYTHONDONTWRITEBYTECODE`` is set (as in this project's sandbox) an editable install
    never gets any, and every ``cpsolve`` process of the tests would compile the modules it
    imports from source — seconds on a loaded machine, counted in its time limit (a wheel
    installed by pip has its bytecode already)."""
    import compileall
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "cpsolve"
    compileall.compile_dir(str(package), quiet=1, workers=1)


@dataclass
class CliRun:
    """Exit code and captured output of one CLI invocation."""

    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        """Non-empty lines written to stderr."""
        return [line for line in self.err.splitlines() if line.strip()]


@pytest.fixture
def cp_sat_loaded() -> None:
    """OR-Tools' CP-SAT imported in this process, as after any CP-SAT run: an engine run
    with a limit of a fraction of a second then stops at that limit with what it proved,
    whichever tests this process ran before.  Without it, the run that imports OR-Tools
    (about 0.35 CPU s: ``cpsolve.engines.START_COST``) is not started at all under such a
    limit — "time limit reached before cpsat started", with no bound."""
    import ortools.sat.python.cp_model  # noqa: F401 - loaded is all that is asked


@pytest.fixture
def models_dir() -> Path:
    """The bundled models/ folder."""
    return MODELS


@pytest.fixture
def cli(capsys, monkeypatch) -> Callable[..., CliRun]:
    """Run ``cpsolve.cli.main(argv)`` in-process; returns a :class:`CliRun`.

    ``width`` is the console width rich sees (COLUMNS); wide by default so that
    only the tests about wrapping see rich's 80-column default.
    """
    from cpsolve.cli import main

    def run(*argv: str | Path, width: str = WIDE) -> CliRun:
        monkeypatch.setenv("COLUMNS", width)
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        capsys.readouterr()
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exit_:  # argparse errors and --version
            code = exit_.code if isinstance(exit_.code, int) else 1
        captured = capsys.readouterr()
        return CliRun(code, captured.out, captured.err)

    return run


@pytest.fixture
def wrong_csp_search(monkeypatch) -> None:
    """An engine bug made on purpose: the search engine answers every csp it solves with
    each variable at its smallest value (the checker rejects that on any model where it is
    no solution), whatever its own search found; planning models it solves as it does."""
    from dataclasses import replace

    import cpsolve.engines.search.engine as search
    from cpsolve.model import Csp

    solve = search.solve

    def wrong(model, options):
        result = solve(model, options)
        if not isinstance(model, Csp) or result.answer is None:
            return result
        values = {name: min(model.values(name)) for name in model.names}
        return result.but(answer=replace(result.answer, values=values))

    monkeypatch.setattr(search, "solve", wrong)


@pytest.fixture
def late_alarm(monkeypatch) -> Callable[[str], None]:
    """The command's clock read from a hand-turned source (engines keep the real one);
    ``late_alarm("package.module.function")`` (or ``"package.module.Class.method"``) makes
    that function, when the command calls it, first turn the command's clock far past its
    limit and every grace, then raise SIGALRM: the clock's alarm comes while that step of
    the command runs, whatever the machine's speed.  The command must have a
    ``--time-limit`` (its guard then handles SIGALRM)."""
    import importlib

    from cpsolve.engines.runtime.clock import Clock

    ticks = [1000.0]
    monkeypatch.setattr("cpsolve.cli.session.Clock",
                        lambda limit=None, start=None: Clock(limit, lambda: ticks[0]))

    def arm(target: str) -> None:
        *path, name = target.split(".")
        cut = len(path)
        while True:  # the longest prefix that is a module; the rest, attributes
            try:
                owner = importlib.import_module(".".join(path[:cut]))
                break
            except ImportError:
                cut -= 1
        for part in path[cut:]:  # a class: "package.module.Class.method"
            owner = getattr(owner, part)
        original = getattr(owner, name)

        def late(*args, **kwargs):
            ticks[0] += 1e6
            signal.raise_signal(signal.SIGALRM)
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, late)

    return arm


def run_cli_subprocess(*argv: str | Path, width: str = WIDE, timeout: float = 120,
                       cwd: Path = ROOT, env: dict[str, str] | None = None) -> CliRun:
    """Run ``python -m cpsolve.cli ARGV`` in a fresh interpreter (as a user would), with the
    variables of ``env`` added to the environment (``PYTHONIOENCODING``); its output is read
    as UTF-8 (a byte that is not is kept as a surrogate escape)."""
    env = {**{k: v for k, v in os.environ.items()
              if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}, **(env or {})}
    env["COLUMNS"] = width
    proc = subprocess.run(
        [sys.executable, "-m", "cpsolve.cli", *map(str, argv)], capture_output=True,
        encoding="utf-8", errors="surrogateescape", timeout=timeout, cwd=cwd, env=env,
    )
    return CliRun(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli_subprocess() -> Callable[..., CliRun]:
    """Run the CLI in a fresh interpreter: ``cli_subprocess(*argv, width=..., cwd=...,
    env=...)``."""
    return run_cli_subprocess


class Started:
    """A CLI run in a process group of its own, to be signalled (see :func:`start_cli`)."""

    def __init__(self, argv: tuple[str | Path, ...], env: dict[str, str] | None = None):
        # SIGINT's default in the run, as from a terminal, even when the tests run in the
        # background (there it is ignored, and an ignored signal stays ignored across exec)
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cpsolve", *map(str, argv)], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
        finally:
            if previous is not None:  # None: a handler not set from Python, left as it is
                signal.signal(signal.SIGINT, previous)
        self.err = ""
        """What :meth:`after_text` read of stderr so far."""

    def cpu(self) -> float:
        """CPU seconds the run has used so far: its processes' (the group's), and those of
        the children they have waited for (Linux: /proc)."""
        tick, total = os.sysconf("SC_CLK_TCK"), 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == self.process.pid:  # utime, stime, cutime, cstime
                total += sum(int(f) for f in fields[11:15])
        return total / tick

    def until(self, holds: Callable[[], object], what: str, timeout: float = 300) -> None:
        """Wait until ``holds()`` (something the run did); fails when the run ends first."""
        deadline = time.monotonic() + timeout
        while not holds():
            assert self.process.poll() is None, "the command ended before it was interrupted"
            assert time.monotonic() < deadline, f"no {what} within {timeout} s"
            time.sleep(0.02)
        assert self.process.poll() is None, "the command ended before it was interrupted"

    def after_cpu(self, seconds: float, timeout: float = 300) -> None:
        """Wait until the run has used ``seconds`` of CPU: its own clock, which a loaded
        machine slows down with it (a sleep of so many seconds would not)."""
        self.until(lambda: self.cpu() >= seconds, f"{seconds} s of CPU", timeout)

    def after_text(self, fragment: str, timeout: float = 300) -> None:
        """Wait until the run writes ``fragment`` on stderr (a progress line: give the run
        ``FORCE_COLOR=1`` so that it shows them); fails when the run ends first."""
        deadline, fd = time.monotonic() + timeout, self.process.stderr.fileno()
        while fragment not in self.err:
            assert self.process.poll() is None, "the command ended before it was interrupted"
            assert time.monotonic() < deadline, f"{fragment!r} not written in {timeout} s"
            if select.select([fd], [], [], 0.05)[0]:
                self.err += os.read(fd, 1 << 16).decode(errors="replace")

    def stop(self, sig: int = signal.SIGINT, timeout: float = 60) -> tuple[int, str, str]:
        """Send ``sig`` to the run's process; (exit code, stdout, stderr) once it ended.

        ``timeout`` only keeps a run that ignores the signal from hanging the tests; how
        fast runs stop is a figure of benchmarks/under_load.py."""
        self.process.send_signal(sig)
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, self.err + err


@pytest.fixture
def start_cli() -> Iterator[Callable[..., Started]]:
    """``start_cli(*argv, env=None)`` starts ``python -m cpsolve ARGV`` in a process group of
    its own (a :class:`Started`); the group is killed when the test ends, whatever happens."""
    started: list[Started] = []

    def start(*argv: str | Path, env: dict[str, str] | None = None) -> Started:
        started.append(Started(argv, env))
        return started[-1]

    yield start
    for run in started:
        try:
            os.killpg(run.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        run.process.communicate()


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    """Write a (model) file under tmp_path and return its path."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def write_model(tmp_path) -> Callable[[str, str | bytes], Path]:
    """``write_model(name, text)`` writes a file under tmp_path and returns its path."""
    return lambda name, text: write(tmp_path, name, text)


OVERESTIMATE = '''from cpsolve import Planning


def build():
    model = Planning("a counter with a shortcut")
    x = model.add_variable("x", 0, 10)
    model.set_initial({"x": 0})
    model.set_goal(x == 10)
    model.add_action("one up", x < 10, {x: x + 1})
    model.add_action("shortcut", x == 5, {x: 10})
    model.set_estimate(100 * (10 - x))
    return model
'''


@pytest.fixture
def overestimating(tmp_path) -> Path:
    """A Python model file whose estimate the engines refuse: a counter from 0 to 10, one
    up a step or from 5 straight to 10, so the goal is 6 steps from x=0 (5 up, then the
    shortcut), while its estimate there says 100 * 10 = 1000."""
    return write(tmp_path, "overestimate.py", OVERESTIMATE)


@pytest.fixture
def water_jugs_text() -> str:
    """The bundled water-jugs model file, as text to edit."""
    return WATER_JUGS


# ------------------------------------------------------------ bad model files

WATER_JUGS = (MODELS / "water_jugs.toml").read_text(encoding="utf-8")
XSUDOKU5 = (MODELS / "xsudoku5.toml").read_text(encoding="utf-8")


def _jugs(old: str, new: str) -> str:
    """The water-jugs file with one piece of text replaced (which must occur)."""
    assert old in WATER_JUGS, old
    return WATER_JUGS.replace(old, new, 1)


def _jugs_k(power: int, old: str, new: str) -> str:
    """The water-jugs file with a constant ``k = 10 ** power`` and one replacement."""
    return _jugs(old, new).replace("cap = [8, 5]",
                                   f'cap = [8, 5]\nk = "prod(10 for i in range({power}))"', 1)


def _grid(*lines: str) -> str:
    return 'family = "grid"\nsize = 5\n' + "\n".join(lines) + "\n"


_ROW_OF_SIX = 'givens = """\n6 . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"""'

DIRECTORY = "<a directory>"

# id -> (file contents or None for "do not create", fragments the message must contain)
BAD_MODEL_FILES: dict[str, tuple[str | bytes | None, tuple[str, ...]]] = {
    "toml-syntax": ('family = "grid"\nsize = 5\ngroups = [rows]\n', ("TOML", "line 3")),
    "missing-family": ("size = 5\n", ("family", "missing")),
    "unknown-family": ('family = "rubik"\n', ("family", "rubik")),
    "family-not-a-string": ("family = 3\n", ("family", "expected str")),
    "empty": ("", ("empty",)),
    "only-blanks": ("\n   \n\t\n", ("empty",)),
    "binary": (b"family = \x00\x01\x02grid", ("binary",)),
    "not-utf8": ('family = "gr\xefd"\n'.encode("latin-1"), ("UTF-8",)),
    "missing-file": (None, ("no such file",)),
    "directory": (DIRECTORY, ("directory",)),
    # transition family
    "unknown-variable-in-goal": (_jugs('goal = "jug[0] == 4 or jug[1] == 4"',
                                       'goal = "jug[0] == 4 or jar == 4"'), ("goal", "jar")),
    "unknown-variable-in-guard": (_jugs('guard = "jug[i] < cap[i]"', 'guard = "jug[i] < cup[i]"'),
                                  ("actions[0].guard", "cup")),
    "unknown-effect-target": (_jugs('effects = { "jug[i]" = "0" }', 'effects = { "jag[i]" = "0" }'),
                              ("actions[1].effects", "jag")),
    "index-out-of-range": (_jugs('guard = "jug[i] > 0"', 'guard = "jug[i + 1] > 0"'),
                           ("actions[1].guard", "out of range")),
    "initial-outside-domain": (_jugs("jug = [0, 0]", "jug = [9, 0]"),
                               ("initial.jug[0]", "9", "0..8")),
    "initial-too-many-values": (_jugs("jug = [0, 0]", "jug = [0, 0, 0]"),
                                ("initial.jug", "expected 2 values", "got 3")),
    "initial-missing-value": (_jugs("jug = [0, 0]", "jug = [0]"),
                              ("initial.jug", "expected 2 values", "got 1 value")),
    "initial-not-an-integer": (_jugs("jug = [0, 0]", 'jug = [0, "a"]'), ("initial.jug[1]",)),
    "typo-top-level-key": (_jugs("[constants]", 'descripton = "typo"\n[constants]'),
                           ("descripton", "unknown key")),
    "typo-action-key": (_jugs('guard = "jug[i] < cap[i]"', 'gaurd = "jug[i] < cap[i]"'),
                        ("actions[0].gaurd", "unknown key")),
    "typo-variable-spec-key": (_jugs("size = 2, domain", "sise = 2, domain"),
                               ("variables.jug.sise", "unknown key")),
    "goal-not-a-string": (_jugs('goal = "jug[0] == 4 or jug[1] == 4"', "goal = 4"),
                          ("goal", "expected str")),
    "variables-wrong-type": (_jugs("jug = { size = 2, domain = [0, 8] }", 'jug = "x"'),
                             ("variables.jug",)),
    "domain-wrong-type": (_jugs("domain = [0, 8]", 'domain = [0, true]'),
                          ("variables.jug.domain",)),
    "actions-not-a-list": ('family = "transition"\ngoal = "x == 2"\nactions = 5\n'
                           "[variables]\nx = [0, 3]\n[initial]\nx = 0\n",
                           ("actions", "expected list")),
    # an action must change the state: without effects it would be a silent no-op
    "effects-missing": (_jugs('effects = { "jug[i]" = "0" }\n', ""),
                        ("actions[1].effects", "'empty the 8 L jug' changes nothing",
                         "an action must change the state")),
    "effects-empty": (_jugs('effects = { "jug[i]" = "0" }', "effects = {}"),
                      ("actions[1].effects", "an action must change the state")),
    # a csp's objective in a transition file: said so, not "unknown key"
    "objective-in-transition": (_jugs('show = "', 'minimize = "jug[0]"\nshow = "'),
                                ("minimize: a transition model has no objective",
                                 "minimised by cost", "each action's cost",
                                 "belong to csp models")),
    "params-wrong-type": (_jugs("params = { i = [0, 1] }", 'params = { i = "01" }'),
                          ("actions[0].params.i",)),
    "forbidden-python": (_jugs('goal = "jug[0] == 4 or jug[1] == 4"',
                               "goal = \"__import__('os').system('echo hi')\""),
                         ("goal", "unknown function")),
    # what the model refuses is named by the key that holds it (2**70: past 64-bit integers)
    "cost-past-64-bits": (_jugs('effects = { "jug[i]" = "cap[i]" }',
                                'effects = { "jug[i]" = "cap[i]" }\ncost = 1180591620717411303424'),
                          ("actions[0].cost: ", "64-bit")),
    "guard-past-64-bits": (_jugs('guard = "jug[i] < cap[i]"',
                                 'guard = "jug[i] * 1180591620717411303424 < cap[i]"'),
                           ("actions[0].guard: ", "64-bit")),
    "effect-past-64-bits": (_jugs('effects = { "jug[i]" = "0" }',
                                  'effects = { "jug[i]" = "jug[i] * 1180591620717411303424" }'),
                            ("actions[1].effects: ", "64-bit")),
    # past what a float holds (1e+308) or str writes (4,300 digits): still one line, short
    "constant-past-floats": (_jugs_k(400, 'goal = "jug[0] == 4 or jug[1] == 4"',
                                     'goal = "jug[0] == k"'), ("goal: ", "1e+400", "64-bit")),
    "literal-past-floats": (_jugs('goal = "jug[0] == 4 or jug[1] == 4"',
                                  f'goal = "jug[0] == 1{"0" * 400}"'), ("goal: ", "1e+400")),
    "domain-past-str": (_jugs_k(5000, "domain = [0, 8]", 'domain = [0, "k"]'),
                        ("variables.jug", "domain 0..1e+5000: values: 1e+5000 is more")),
    "initial-past-str": (_jugs_k(5000, "jug = [0, 0]", 'jug = ["k", 0]'),
                         ("initial.jug[0]", "value 1e+5000 is outside the domain 0..8")),
    "size-past-str": (_jugs_k(5000, "size = 2", 'size = "k"'),
                      ("variables.jug.size", "1e+5000 is more than")),
    "range-past-str": (_jugs_k(5000, 'goal = "jug[0] == 4 or jug[1] == 4"',
                                'goal = "all(jug[0] == 4 for i in range(k))"'),
                       ("goal: ", "range of 1e+5000 values")),
    "float-in-expression": (_jugs('effects = { "jug[i]" = "0" }', 'effects = { "jug[i]" = "0.5" }'),
                            ("actions[1].effects.jug[i]", "0.5")),
    # known answers ([expected])
    "expected-typo-key": (_jugs("steps = 10", "stpes = 10"), ("expected.stpes", "unknown key")),
    "expected-wrong-type": (_jugs("steps = 10", 'steps = "10"'),
                            ("expected.steps", "expected int")),
    "expected-bad-status": (_jugs('solve = "optimal"', 'solve = "done"'), ("expected.solve",)),
    # grid family
    "grid-typo-key": (_grid("sise = 5"), ("sise", "unknown key")),
    "grid-size-wrong-type": ('family = "grid"\nsize = "5"\n', ("size", "expected int")),
    "grid-size-boolean": ('family = "grid"\nsize = true\n', ("size", "expected int")),
    "grid-given-outside-domain": (_grid(_ROW_OF_SIX), ("givens", "row 1, column 1", "'6'")),
    "grid-givens-short-row": (_grid('givens = "1 2 3 4 5\\n1 2\\n. . . . .\\n. . . . .\\n'
                                    '. . . . ."'), ("givens", "row 2")),
    "grid-unknown-group": (_grid('groups = ["rows", "diagonalz"]'), ("groups", "diagonalz")),
    "grid-boxes-do-not-tile": (_grid('groups = ["boxes"]', "box = [2, 2]"), ("box",)),
    # a 6x6 grid's boxes are 2x3 (or 3x2): the message says what to add and why
    "grid-boxes-without-box": ('family = "grid"\nsize = 6\ngroups = ["rows", "boxes"]\n',
                               ("box: missing", 'groups lists "boxes"', "box = [R, C]",
                                "[2, 3]")),
    "grid-symbols-wrong-count": (_grid('symbols = "ABCD"'), ("symbols",)),
}


@dataclass
class BadModel:
    """A model file that must be refused, and what the refusal must mention."""

    path: Path
    fragments: tuple[str, ...]


@pytest.fixture(params=sorted(BAD_MODEL_FILES), ids=str)
def bad_model(request, tmp_path) -> BadModel:
    """Each kind of broken model file, written under tmp_path (parametrized)."""
    text, fragments = BAD_MODEL_FILES[request.param]
    path = tmp_path / f"{request.param}.toml"
    if text == DIRECTORY:
        path.mkdir()
    elif text is not None:
        write(tmp_path, path.name, text)
    return BadModel(path, fragments)
