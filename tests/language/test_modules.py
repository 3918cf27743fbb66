"""The language package stays in small modules, each named for what it holds."""

from __future__ import annotations

from pathlib import Path

import cpsolve.language

PACKAGE = Path(cpsolve.language.__file__).parent

MOST_LINES = 400
"""The most lines a module of the language should hold (STYLE: modules under ~400 lines)."""


def test_every_language_module_is_small():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines())
             for p in sorted(PACKAGE.glob("*.py"))}
    assert {name: n for name, n in sizes.items() if n > MOST_LINES} == {}


def test_the_package_docstring_names_every_module():
    """``cpsolve/language/__init__.py`` is the map of the package: a new module is on it."""
    said = cpsolve.language.__doc__ or ""
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert {m for m in modules if f":mod:`.{m}`" not in said} == set()
