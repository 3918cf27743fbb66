"""Structure: no function in ``cpsolve/`` is longer than :data:`MOST_LINES` lines.

A function's length is read with ``ast``, from its ``def`` line to its last line
(``end_lineno - lineno + 1``: docstring, comments and nested functions included, the
decorators not), for every function: module level, methods, nested ones, async ones.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cpsolve"

MOST_LINES = 60
"""The longest a function may be (docs/design.md, "Standards")."""

WAITING: dict[str, str] = {}
"""Functions known to be too long, each with who shortens it.  An entry that is no longer
too long (or gone) fails the test too: remove it then."""


def lengths(path: Path, root: Path = ROOT) -> dict[str, int]:
    """Every function of the file at ``path`` by qualified name (``module.Class.method``,
    ``module.outer.inner``), with its length in lines."""
    module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}.{child.name}"
                found[name] = child.end_lineno - child.lineno + 1
            elif isinstance(child, ast.ClassDef):
                name = f"{prefix}.{child.name}"
            visit(child, name)

    visit(tree, module)
    return found


def too_long(root: Path = ROOT) -> dict[str, int]:
    """The functions of the package under ``root`` longer than :data:`MOST_LINES`."""
    return {name: lines for path in sorted((root / "cpsolve").rglob("*.py"))
            for name, lines in lengths(path, root).items() if lines > MOST_LINES}


def test_no_function_is_longer_than_60_lines():
    long = too_long()
    assert {name: n for name, n in long.items() if name not in WAITING} == {}, (
        f"split these into functions of at most {MOST_LINES} lines")
    assert set(WAITING) <= set(long), (
        f"no longer too long: remove from WAITING {sorted(set(WAITING) - set(long))}")


def test_lengths_are_measured_for_every_kind_of_function(tmp_path):
    """The check itself: methods, nested and async functions are measured, from the ``def``
    line to the last line, decorators aside."""
    package = tmp_path / "cpsolve" / "engines"
    package.mkdir(parents=True)
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    (package / "__init__.py").write_text(textwrap.dedent("""\
        class Engine:
            @staticmethod
            def method():
                def inner():
                    pass
        """) + f"async def long():\n{body}\n    return x0\n", encoding="utf-8")
    assert lengths(package / "__init__.py", tmp_path) == {
        "cpsolve.engines.Engine.method": 3, "cpsolve.engines.Engine.method.inner": 2,
        "cpsolve.engines.long": 61}
    assert too_long(tmp_path) == {"cpsolve.engines.long": 61}
