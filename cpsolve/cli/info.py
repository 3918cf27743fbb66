"""The commands that solve nothing: ``models`` (the bundled model files), ``schema`` (the
JSON Schema of ``--json``) and ``completion`` (a shell completion script)."""

from __future__ import annotations

from ..puzzles.data import ModelFileError
from ..puzzles.files import bundled, load
from .charset import json_text
from .session import Cli


def models(cli: Cli) -> int:
    """``models``: the bundled model files, each with its family and description."""
    from rich.text import Text

    from ..output.tables import Column, Legible

    rows = []
    for path in bundled():
        try:
            puzzle = load(path)
            rows.append({"file": path.name, "name": puzzle.name, "family": puzzle.family,
                         "kind": puzzle.model.kind, "description": puzzle.description})
        except ModelFileError as err:
            rows.append({"file": path.name, "error": err.message})
    if cli.args.json:
        cli.emit({"command": "models", "models": rows})
        return 0
    cells = [[Text(row["file"]), "?", Text(f"(broken: {row['error']})")] if "error" in row
             else [Text(row["file"]), row["family"], Text(row["description"] or row["name"])]
             for row in rows]
    columns = (Column("file", words=True), Column("family", words=True), Column("description"))
    cli.out.print(Legible(columns, cells))
    return 0




def schema(cli: Cli) -> int:  # noqa: ARG001 - every command takes the session
    """``schema``: the JSON Schema of every command's ``--json`` output."""
    from ..output.schema import schema as json_schema

    print(json_text(json_schema(), indent=2))
    return 0


def completion(cli: Cli) -> int:
    """``completion bash|zsh``: a script that completes commands, options and model names."""
    from .arguments import parser
    from .completion import script

    print(script(parser(), cli.args.shell), end="")
    return 0
