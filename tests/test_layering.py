"""Layering: who may import whom, read from the source and checked at run time.

The rules are data (:data:`RULES`): one line per rule, written by package
prefix so that renaming a module inside a package keeps its rule.  Imports are
read with ``ast`` from every module of the package, anywhere in the file
(function-level lazy imports and ``TYPE_CHECKING`` blocks too).  Run-time
tests check what a real command pulls in.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cpsolve"
SOURCES = sorted(PACKAGE.rglob("*.py"))

LAYERS = ("language", "model", "answers", "puzzles", "interop", "engines", "workflows",
          "output", "cli")
"""The packages of ``cpsolve``, bottom up: a module imports only from its own layer or
below (docs/design.md says what each holds)."""

LEAVES: tuple[str, ...] = ()
"""Small shared modules outside the layers: any layer may import one, and it
would import no other ``cpsolve`` module."""

TOP = ("cpsolve", "cpsolve.__main__")
"""The package's front door (``from cpsolve import Planning``, ``python -m cpsolve``)."""

PUZZLE_SIDE = ("cpsolve.puzzles", "cpsolve.workflows", "cpsolve.output", "cpsolve.cli")
"""What knows puzzles, files, people or workflows: families, model files, batches, grid
counting and generation, rendering, the CLI."""

SOLVERS = ("ortools", "constraint")  # OR-Tools, python-constraint
MODEL_LAYER = ("cpsolve.language", "cpsolve.model")
FACTS = ("cpsolve.model.facts", "cpsolve.model.pins", "cpsolve.model.moves",
         "cpsolve.model.values", "cpsolve.model.invariants")
"""What is derived from a model without solving, in plain Python: the checker shares none
of it."""
PARSER = ("cpsolve.language.parse", "cpsolve.language.syntax", "cpsolve.language.scope",
          "cpsolve.language.build", "cpsolve.language.unroll", "cpsolve.language.shortcircuit",
          "cpsolve.language.slips")
"""The parser of model-file strings, module by module."""
CPSAT = "cpsolve.engines.cpsat"
PYCONSTRAINT = "cpsolve.engines.pyconstraint"
PEERS = ("cpsolve.engines.fd", "cpsolve.engines.minizinc", "cpsolve.engines.runtime.processes")
"""The engines that run another system (Fast Downward, MiniZinc) and their process runner."""
EXTERNAL_TOOLS = ("subprocess", "up_fast_downward", "pddl", "fast_downward")
DASK = ("cpsolve.engines.runtime.dask",
        "cpsolve.engines.search.statespace.cluster",
        "cpsolve.engines.search.statespace.cluster_tasks",
        "cpsolve.engines.search.statespace.partitions")


@dataclass(frozen=True)
class Rule:
    """Modules under ``importers`` (but not under ``unless``) never import ``forbidden``.

    Each entry is a dotted prefix: ``a.b`` covers ``a.b`` and ``a.b.*``; a
    trailing ``*`` (``cpsolve.output*``) covers every name that starts so.
    """

    importers: tuple[str, ...]
    forbidden: tuple[str, ...]
    why: str
    unless: tuple[str, ...] = ()


RULES: tuple[Rule, ...] = (
    Rule(("cpsolve.engines",), PUZZLE_SIDE, "engines know models, never puzzles"),
    Rule(("cpsolve",), ("ortools",), "only the CP-SAT engine imports ortools", unless=(CPSAT,)),
    Rule(("cpsolve",), ("ortools.sat.python.cp_model",), "cp_model is imported through "
         "engines.cpsat.library, which defers its pandas", unless=(f"{CPSAT}.library",)),
    Rule(("cpsolve",), (CPSAT,), "cpsat is reached through engines.run (importing it costs "
         "ortools)", unless=(CPSAT,)),
    Rule(("cpsolve",), ("constraint",), "only the pyconstraint engine imports python-constraint",
         unless=(PYCONSTRAINT,)),
    Rule(MODEL_LAYER, ("cpsolve.engines", *PUZZLE_SIDE, *SOLVERS),
         "the model layer knows no engine, family, CLI or rendering"),
    Rule(("cpsolve.puzzles",), ("cpsolve.engines", "cpsolve.cli", *SOLVERS),
         "families build models; they never solve"),
    Rule(("cpsolve.answers.check",), ("cpsolve.engines", *FACTS, *SOLVERS),
         "the checker shares no code with the engines nor with the facts and invariants"),
    Rule(("cpsolve.workflows.grids",), ("cpsolve.puzzles",),
         "generic grid work knows no puzzle family"),
    Rule(FACTS,
         ("numpy", *PARSER, "cpsolve.answers"),
         "facts and invariants read expressions and models only, in plain Python"),
    Rule(("cpsolve",), ("subprocess", "up_fast_downward"), "only the fd and minizinc engines "
         "run external tools (through engines.runtime.processes)", unless=PEERS),
    Rule(("cpsolve",), ("multiprocessing", "concurrent.futures"), "Python work in child "
         "processes (auto's race, --jobs) starts through engines.runtime.processes, the one "
         "way that stops and reaps them", unless=("cpsolve.engines.runtime.processes",)),
    Rule(("cpsolve",), ("pddl",), "only the PDDL reader imports the pddl parser",
         unless=("cpsolve.puzzles.pddl_task",)),
    Rule(("cpsolve",), ("fast_downward",), "only the PDDL reader imports Fast Downward's "
         "translator", unless=("cpsolve.puzzles.pddl_sas",)),
    Rule(("cpsolve",), ("minizinc",), "only the minizinc engine imports MiniZinc's Python "
         "package", unless=("cpsolve.engines.minizinc",)),
    Rule(("cpsolve.interop",), ("cpsolve.engines", *PUZZLE_SIDE, *SOLVERS, *EXTERNAL_TOOLS),
         "exporters translate models; they know no engine, puzzle or external tool"),
    Rule(("cpsolve",), ("dask", "distributed"), "Dask is an optional extra: only the "
         "cluster client and its exchange import it",
         unless=("cpsolve.engines.runtime.dask",)),
    Rule(("cpsolve",), DASK, "only the cluster analysis and the batch runner reach Dask",
         unless=(*DASK, "cpsolve.engines.search.registry", "cpsolve.workflows.batch.cluster")),
)

OPTIONAL_IMPORTERS: set[str] = set()
"""Importer prefixes that may have no module yet (the rule waits for them)."""


def module_name(path: Path, root: Path = ROOT) -> str:
    """``cpsolve/engines/__init__.py`` -> ``cpsolve.engines``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, root: Path = ROOT) -> set[str]:
    """Absolute names of every module ``path`` imports (anywhere in the file, lazily too).

    ``from pkg import name`` yields both ``pkg`` and ``pkg.name`` (it may be a
    submodule); ``importlib.import_module("x")`` and ``__import__("x")`` with a
    literal name count as imports of ``x``.
    """
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called in ("import_module", "__import__") and isinstance(first, ast.Constant) \
                    and isinstance(first.value, str):
                out.add(first.value)
    return out


def within(name: str, prefix: str) -> bool:
    """True when ``name`` is covered by ``prefix`` (see :class:`Rule`)."""
    if prefix.endswith("*"):
        return name.startswith(prefix[:-1])
    return name == prefix or name.startswith(prefix + ".")


def applies(rule: Rule, module: str) -> bool:
    """True when ``rule`` constrains ``module``."""
    return (any(within(module, p) for p in rule.importers)
            and not any(within(module, p) for p in rule.unless))


def broken(rule: Rule, path: Path) -> list[str]:
    """The imports of ``path`` that ``rule`` forbids (none when it does not apply)."""
    if not applies(rule, module_name(path)):
        return []
    return sorted(n for n in imports(path) if any(within(n, f) for f in rule.forbidden))


def rule_id(rule: Rule) -> str:
    return rule.why.split(" (")[0].replace(" ", "-")


def edges(path: Path, known: set[str], root: Path = ROOT) -> set[str]:
    """The ``cpsolve`` modules ``path`` imports, each named as precisely as the source says.

    ``from pkg import sub`` is an import of ``pkg.sub`` when that is a module (and of
    ``pkg`` itself only for names that are not); a name inside a module counts as an
    import of that module.
    """
    out = set()
    for name in imports(path, root):
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name.startswith("cpsolve"):
            out.add(name)
    me = module_name(path, root)
    # "from pkg import sub" also yields "pkg": keep it only when a name is not a submodule
    for name in list(out):
        if any(other.startswith(name + ".") for other in out) and not _imports_names_of(
                path, name, known, root):
            out.discard(name)
    out.discard(me)
    return out


def _imports_names_of(path: Path, package: str, known: set[str], root: Path) -> bool:
    """True when ``path`` takes from ``package`` a name that is not one of its submodules."""
    for name in imports(path, root):
        if name.startswith(package + ".") and name.count(".") == package.count(".") + 1 \
                and name not in known:
            return True
        if name == package and not any(n.startswith(package + ".") for n in imports(path, root)):
            return True
    return False


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Every module of the package and the package modules it imports."""
    sources = sorted((root / "cpsolve").rglob("*.py"))
    known = {module_name(p, root) for p in sources}
    return {module_name(p, root): edges(p, known, root) for p in sources}


def layer_of(module: str) -> int | None:
    """The index of ``module``'s layer in :data:`LAYERS` (``None`` for leaves and the top)."""
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def upward(deps: dict[str, set[str]]) -> list[str]:
    """Imports that run up the layers, or out of a leaf, or into the front door."""
    found = []
    for module, targets in deps.items():
        if module in TOP:
            continue
        here = layer_of(module)
        for target in targets:
            there = layer_of(target)
            if module in LEAVES or (target in TOP) or (
                    there is not None and here is not None and there > here):
                found.append(f"{module} -> {target}")
            elif here is None and module not in LEAVES:
                found.append(f"{module}: in no layer")
    return sorted(set(found))


def cycles(deps: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in deps.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(deps):
        if v not in index:
            visit(v)
    return found


# ---------------------------------------------------------------- the helper itself


def test_sources_are_found():
    names = {module_name(p) for p in SOURCES}
    assert {"cpsolve", "cpsolve.language.expr", "cpsolve.model", "cpsolve.answers.check",
            "cpsolve.cli", "cpsolve.engines", "cpsolve.puzzles.files"} <= names


def test_import_resolution():
    """Relative imports are resolved against the right package; lazy imports are seen."""
    engines = imports(PACKAGE / "engines" / "__init__.py")
    assert "cpsolve.answers.check" in engines and "importlib" in engines
    assert "cpsolve.engines" in imports(PACKAGE / "cli" / "one_model.py")
    assert "cpsolve.model" in imports(PACKAGE / "puzzles" / "files.py")
    grid = imports(PACKAGE / "puzzles" / "grid.py")
    assert "cpsolve.model.Csp" in grid and "cpsolve.puzzles.data" in grid


def test_lazy_and_dynamic_imports_are_seen(tmp_path):
    pkg = tmp_path / "cpsolve" / "engines"
    pkg.mkdir(parents=True)
    (pkg / "lazy.py").write_text(textwrap.dedent("""
        import importlib
        def f():
            from ..puzzles import grid
            import ortools.sat
            importlib.import_module("constraint")
    """), encoding="utf-8")
    found = imports(pkg / "lazy.py", root=tmp_path)
    assert {"cpsolve.puzzles", "cpsolve.puzzles.grid", "ortools.sat", "constraint"} <= found


def test_prefixes_match_like_packages():
    assert within("cpsolve.engines.cpsat.csp", "cpsolve.engines.cpsat")
    assert not within("cpsolve.engines.cpsat_extra", "cpsolve.engines.cpsat")
    assert within("cpsolve.output.json", "cpsolve.output*")
    assert not within("constraints", "constraint") and within("constraint.solvers", "constraint")


@pytest.mark.parametrize("rule", RULES, ids=rule_id)
def test_every_rule_constrains_some_module(rule):
    """A rule whose importers were all renamed away would check nothing: update RULES then."""
    names = [module_name(p) for p in SOURCES]
    for prefix in rule.importers:
        if prefix not in OPTIONAL_IMPORTERS:
            assert any(within(n, prefix) for n in names), f"{prefix} matches no module"
    for prefix in rule.unless:
        assert any(within(n, prefix) for n in names), f"{prefix} matches no module"


# ---------------------------------------------------------------- the layers and cycles


def test_the_package_is_its_layers():
    """``cpsolve/`` holds the front door, the layers' packages and the shared leaves only."""
    top = {p.name for p in PACKAGE.iterdir() if p.name != "__pycache__"}
    allowed = {"__init__.py", "__main__.py", "models", *LAYERS,
               *(leaf.rpartition(".")[2] + ".py" for leaf in LEAVES)}
    assert top <= allowed, sorted(top - allowed)
    assert all((PACKAGE / name / "__init__.py").exists() for name in LAYERS)
    assert len(LAYERS) <= 10


def test_tests_mirror_the_package():
    """Every folder of tests (but the hostile-input corpus) is a package of ``cpsolve``."""
    tests = ROOT / "tests"
    folders = [d.relative_to(tests) for d in tests.rglob("*") if d.is_dir()
               and "__pycache__" not in d.parts and d.relative_to(tests).parts[0] != "hostile"]
    assert folders and all((PACKAGE / folder / "__init__.py").exists() for folder in folders), \
        [str(f) for f in folders if not (PACKAGE / f / "__init__.py").exists()]


def test_imports_run_down_the_layers():
    """Function-level imports included (:func:`imports` reads the whole file)."""
    assert upward(graph()) == []


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_an_upward_import_and_a_cycle_are_found(tmp_path):
    """The checks themselves: a planted upward import and a planted cycle are reported."""
    for layer in ("model", "output"):
        (tmp_path / "cpsolve" / layer).mkdir(parents=True)
        (tmp_path / "cpsolve" / layer / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "cpsolve" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "cpsolve" / "model" / "a.py").write_text(
        "def f():\n    from ..output import b\n", encoding="utf-8")
    (tmp_path / "cpsolve" / "output" / "b.py").write_text(
        "from ..model import a\n", encoding="utf-8")
    deps = graph(tmp_path)
    assert upward(deps) == ["cpsolve.model.a -> cpsolve.output.b"]
    assert cycles(deps) == [["cpsolve.model.a", "cpsolve.output.b"]]


# ---------------------------------------------------------------- the rules, statically


@pytest.mark.parametrize("rule", RULES, ids=rule_id)
def test_rule(rule):
    problems = {module_name(p): found for p in SOURCES if (found := broken(rule, p))}
    assert not problems, f"{rule.why}: {problems}"


# ---------------------------------------------------------------- at run time


def _python(code: str, timeout: float = 60) -> dict:
    """Run ``code`` in a fresh interpreter; it prints ``LAYERING <json>`` on one line."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("LAYERING ")]
    assert lines, proc.stdout
    return json.loads(lines[-1].removeprefix("LAYERING "))


def test_model_layer_loads_without_engines_at_run_time():
    """Transitively too: loading every model file pulls in no engine and no solver library."""
    report = _python("""
        import json, sys
        import cpsolve, cpsolve.model, cpsolve.language.expr, cpsolve.language.parse
        import cpsolve.answers.check
        import cpsolve.puzzles.files
        for path in cpsolve.puzzles.files.bundled():
            cpsolve.puzzles.files.load(path)
        bad = sorted(m for m in sys.modules
                     if m.startswith("cpsolve.engines") or m.split(".")[0] in ("ortools",
                                                                               "constraint"))
        print("LAYERING", json.dumps(bad))
    """)
    assert report == []


HEAVY = ("ortools", "constraint", "numpy", "pandas", "cpsolve.output.draw",
         "cpsolve.workflows.grids")
"""What a small solve by search never loads: solver libraries, NumPy (and pandas, which
ortools pulls in), pictures, grid generation — the per-command tax (issue 12)."""


@pytest.mark.parametrize("model, extra, answer, heavy", [
    ("water_jugs", (), "10", HEAVY), ("sudoku_inkala", (), "unique", HEAVY),
    ("sudoku_inkala", ("--json",), '"unique": true', (*HEAVY, "rich")),
], ids=["jugs", "sudoku", "sudoku-json"])
def test_cli_solve_with_search_loads_nothing_heavy(model, extra, answer, heavy):
    """``cpsolve solve models/MODEL.toml --engine search`` loads no solver library (and, with
    ``--json`` to a pipe, not even the terminal library: programs call it in loops)."""
    report = _python(f"""
        import contextlib, io, json, sys
        from cpsolve.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["solve", {str(ROOT / "models" / f"{model}.toml")!r},
                         "--engine", "search", *{extra!r}])
        print("LAYERING", json.dumps({{
            "code": code, "out": out.getvalue(),
            "heavy": sorted(m for m in sys.modules
                            if any(m == h or m.startswith(h + ".") for h in {heavy!r}))}}))
    """)
    assert report["code"] == 0 and answer in report["out"], report["out"]
    assert report["heavy"] == []


@pytest.mark.parametrize("model", ["water_jugs", "eight_puzzle", "sudoku_inkala"])
def test_cpsat_never_loads_pandas(model):
    """OR-Tools' cp_model imports pandas for helpers cpsolve never calls (a third of its
    import time): the CP-SAT engine, on planning and csp models alike, leaves it unloaded."""
    report = _python(f"""
        import contextlib, io, json, sys
        from cpsolve.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["solve", {str(ROOT / "models" / f"{model}.toml")!r},
                         "--engine", "cpsat", "--json"])
        print("LAYERING", json.dumps({{"code": code, "ortools": "ortools" in sys.modules,
                                       "pandas": "pandas" in sys.modules}}))
    """)
    assert report == {"code": 0, "ortools": True, "pandas": False}


def test_no_ortools_and_no_numpy_for_a_small_planning_solve():
    report = _python("""
        import json, sys
        from cpsolve import Planning
        from cpsolve.engines import run
        m = Planning()
        x = m.add_variable('x', 0, 3)
        m.set_initial({'x': 0})
        m.set_goal(x == 3)
        m.add_action('up', x < 3, {x: x + 1})
        plan = run('search', 'solve', m).plan
        print("LAYERING", json.dumps({"steps": len(plan), "heavy": sorted(
            m for m in ("ortools", "numpy", "constraint") if m in sys.modules)}))
    """)
    assert report == {"steps": 3, "heavy": []}


def test_single_process_analysis_and_batch_never_load_dask(tmp_path):
    """The base install's paths (analyze on disk, a batch) run without the [dask] extra."""
    report = _python(f"""
        import contextlib, io, json, sys
        from cpsolve.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            codes = [main(["analyze", "onoff", "--work-dir", {str(tmp_path)!r}]),
                     main(["solve", "water_jugs", "blocks", "--engine", "search"])]
        print("LAYERING", json.dumps({{"codes": codes, "dask": sorted(
            m for m in sys.modules if m.split(".")[0] in ("dask", "distributed"))}}))
    """)
    assert report == {"codes": [0, 0], "dask": []}
