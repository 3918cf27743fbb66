"""The docs site's generated reference pages (issue 24): the command line, from the parser
(:mod:`.arguments`, the one source of its options and :mod:`.examples`), and the JSON
output, from ``cpsolve schema`` (:mod:`cpsolve.output.schema`).

``mkdocs build`` writes them through ``docs/_hooks/reference.py``; ``python -m
cpsolve.cli.reference DIR`` writes them into ``DIR`` without MkDocs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .arguments import parser
from .examples import EXAMPLES

PAGES = {"reference/cli.md": "cli_page", "reference/schema.md": "schema_page"}
"""The generated pages, by their path under docs/, and the function that writes each."""


def _cell(text: str | None) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join((text or "").replace("%%", "%").split()).replace("|", "\\|")


def _subcommands(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return dict(found.choices)


def _summaries(p: argparse.ArgumentParser) -> dict[str, str]:
    found = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return {a.dest: a.help or "" for a in found._choices_actions}


def _option_row(action: argparse.Action) -> str:
    names = ", ".join(f"`{o}`" for o in action.option_strings) \
        or f"`{action.metavar or action.dest}`"
    if action.option_strings and action.nargs != 0:
        value = action.metavar or (("{" + ",".join(map(str, action.choices)) + "}")
                                   if action.choices else action.dest.upper())
        names += f" `{value}`"
    return f"| {names} | {_cell(action.help)} |"


def _command_section(name: str, command: argparse.ArgumentParser, summary: str) -> list[str]:
    lines = [f"## `cpsolve {name}`", "", _cell(summary).capitalize() + ".", "",
             "```text", command.format_usage().strip().removeprefix("usage: "), "```", "",
             "| argument | meaning |", "| --- | --- |"]
    lines += [_option_row(a) for a in command._actions
              if not isinstance(a, argparse._HelpAction)]
    lines += ["", "Examples:", "", "```console"]
    lines += [f"$ {line}" + (f"  # {what}" if what else "") for line, what in EXAMPLES[name]]
    return lines + ["```", ""]


def cli_page() -> str:
    """The command-line reference: every command, its arguments (their help says each
    default) and its examples, as ``cpsolve COMMAND --help`` prints them."""
    p = parser()
    summaries = _summaries(p)
    lines = ["# Command-line reference", "",
             "Generated from the parser (`cpsolve/cli/arguments.py`, its commands' options in "
             "`cpsolve/cli/command_options.py`) when the site is built: "
             "what `cpsolve COMMAND --help` prints, one section per command. Every example "
             "here is run by `tests/test_docs.py`.", "",
             "Every command takes a model file (`.toml`, or a Python model's `.py`) or a "
             "bundled model's name (`cpsolve models` lists them). Exit codes: 0 an answer (a "
             "proof that there is none included), 1 "
             "no answer within the limits or engines that disagree, 2 a bad command line or "
             "model file, or stdout that cannot be written (one line on stderr), 3 an engine "
             "bug caught by the checker or an "
             "internal error, 130 interrupted.", "",
             "Options for one kind of model — `--unique` (csp models); `--time-indexed` "
             "and `--plan-file` (planning models) — are refused (exit 2) on a "
             "model of the other kind. In a batch or a `compare` of several models, such an "
             "option is refused only when none of the models is of its kind; otherwise it is "
             "used where it applies and the other models run without it.", ""]
    for name, command in _subcommands(p).items():
        lines += _command_section(name, command, summaries.get(name, ""))
    return "\n".join(lines)


def _kind(spec: dict[str, Any]) -> str:
    if "$ref" in spec:
        ref = spec["$ref"].rsplit("/", 1)[-1]
        return f"[{ref}](#{ref})"
    if "enum" in spec:
        return " or ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    kind = spec.get("type", "any")
    if kind == "array" and isinstance(spec.get("items"), dict):
        return f"array of {_kind(spec['items'])}"
    if "oneOf" in spec or "anyOf" in spec:
        return " or ".join(_kind(s) for s in spec.get("oneOf") or spec["anyOf"])
    return " or ".join(kind) if isinstance(kind, list) else kind


def _object_section(name: str, spec: dict[str, Any]) -> list[str]:
    lines = [f"## {name}", ""]
    if spec.get("description"):
        lines += [_cell(spec["description"]), ""]
    fields = spec.get("properties") or {}
    if not fields:
        return lines + [f"Type: {_kind(spec)}.", ""]
    required = set(spec.get("required", ()))
    lines += ["| field | type | | meaning |", "| --- | --- | --- | --- |"]
    for field, inner in fields.items():
        lines.append(f"| `{field}` | {_cell(_kind(inner))} | "
                     f"{'always' if field in required else 'optional'} | "
                     f"{_cell(inner.get('description'))} |")
    return lines + [""]


def schema_page() -> str:
    """The JSON reference: each object ``--json`` prints, field by field, from the schema
    ``cpsolve schema`` prints."""
    from ..output.schema import schema

    whole = schema()
    lines = ["# JSON Schema reference", "",
             "Generated from `cpsolve schema` when the site is built. Every `--json` output "
             "is one of the objects below (a batch prints one per line); what the fields "
             "mean in practice, with examples: [the JSON output](../json.md).", "",
             _cell(whole.get("description")), ""]
    for name, spec in whole.get("$defs", {}).items():
        lines += _object_section(name, spec)
    return "\n".join(lines)


def write(folder: Path) -> list[Path]:
    """Write every generated page under ``folder``; the paths written."""
    written = []
    for page, maker in PAGES.items():
        path = folder / page
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(globals()[maker](), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for out in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")):
        print(out)
