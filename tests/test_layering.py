"""Layering, read from the source: models never import engines; only cpsat imports ortools."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cpsolve"
SOURCES = sorted(PACKAGE.rglob("*.py"))

SOLVER_LIBRARIES = ("ortools", "constraint")  # OR-Tools, python-constraint
MODEL_LAYER = ["cpsolve.model", "cpsolve.expr", "cpsolve.parse", "cpsolve.check"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Absolute names of every module ``path`` imports (anywhere in the file, lazily too).

    ``from pkg import name`` yields both ``pkg`` and ``pkg.name`` (it may be a
    submodule); ``importlib.import_module("x")`` and ``__import__("x")`` with a
    literal name count as imports of ``x``.
    """
    name = module_name(path)
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


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_sources_are_found():
    names = {module_name(p) for p in SOURCES}
    assert {"cpsolve", "cpsolve.expr", "cpsolve.model", "cpsolve.check", "cpsolve.cli",
            "cpsolve.engines", "cpsolve.puzzles.grid"} <= names


def test_import_resolution():
    """The helper itself: relative imports are resolved against the right package."""
    grid = imports(PACKAGE / "puzzles" / "grid.py")
    assert "cpsolve.model" in grid and "cpsolve.model.Csp" in grid
    assert "cpsolve.puzzles.data" in grid
    engines = imports(PACKAGE / "engines" / "__init__.py")
    assert "cpsolve.check" in engines and "importlib" in engines
    assert "cpsolve.engines" in imports(PACKAGE / "cli.py")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_cpsat_engine_imports_ortools(path):
    if within(module_name(path), "cpsolve.engines.cpsat"):
        return
    found = sorted(n for n in imports(path) if within(n, "ortools"))
    assert not found, f"{module_name(path)} imports {found}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_outside_cpsat_imports_it_directly(path):
    """cpsat is reached through cpsolve.engines.run/load only (importing it costs ortools)."""
    if within(module_name(path), "cpsolve.engines.cpsat"):
        return
    found = sorted(n for n in imports(path) if within(n, "cpsolve.engines.cpsat"))
    assert not found, f"{module_name(path)} imports {found}"


MODEL_LAYER_SOURCES = [p for p in SOURCES if module_name(p) in MODEL_LAYER
                       or within(module_name(p), "cpsolve.puzzles")]


def test_model_layer_sources_exist():
    names = {module_name(p) for p in MODEL_LAYER_SOURCES}
    assert set(MODEL_LAYER) <= names
    assert {"cpsolve.puzzles.base", "cpsolve.puzzles.grid", "cpsolve.puzzles.transition"} <= names


@pytest.mark.parametrize("path", MODEL_LAYER_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_models_and_puzzles_never_import_engines(path):
    found = sorted(n for n in imports(path)
                   if within(n, "cpsolve.engines")
                   or any(within(n, lib) for lib in SOLVER_LIBRARIES))
    assert not found, f"{module_name(path)} imports {found}"


def test_checker_imports_no_engine():
    """The independent checker shares no code with any engine or solver library."""
    found = imports(PACKAGE / "check.py")
    engines = {module_name(p) for p in SOURCES if within(module_name(p), "cpsolve.engines")}
    assert not {n for n in found if n in engines or within(n, "cpsolve.engines")}
    assert not {n for n in found if any(within(n, lib) for lib in SOLVER_LIBRARIES)}


def _python(code: str, timeout: float = 60) -> dict:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_model_layer_loads_without_engines_at_run_time():
    """Transitively too: loading every model file pulls in no engine and no solver library."""
    report = _python("""
        import json, sys
        import cpsolve, cpsolve.model, cpsolve.expr, cpsolve.parse, cpsolve.check
        import cpsolve.files
        for path in cpsolve.files.bundled():
            cpsolve.files.load(path)
        bad = sorted(m for m in sys.modules
                     if m.startswith("cpsolve.engines") or m.split(".")[0] in ("ortools",
                                                                               "constraint"))
        print(json.dumps(bad))
    """)
    assert report == []


def _search_engine_ready() -> bool:
    from importlib.util import find_spec

    spec = find_spec("cpsolve.engines.search")
    if spec is None or spec.origin is None:  # missing, or a folder without __init__.py yet
        return False
    try:
        __import__("cpsolve.engines.search")
    except ImportError:
        return False
    return True


def test_search_engine_never_loads_ortools():
    if not _search_engine_ready():
        pytest.skip("cpsolve.engines.search is not there yet")
    report = _python(f"""
        import json, sys
        import cpsolve, cpsolve.files, cpsolve.cli
        from cpsolve.engines import run
        puzzle = cpsolve.files.load({str(ROOT / "models" / "water_jugs.toml")!r})
        result = run("search", "solve", puzzle.model)
        print(json.dumps({{"moves": result.steps, "verified": result.verified,
                          "ortools": sorted(m for m in sys.modules
                                            if m.split(".")[0] == "ortools")}}))
    """)
    assert report["ortools"] == []
    assert report["moves"] == 10 and report["verified"] is True
