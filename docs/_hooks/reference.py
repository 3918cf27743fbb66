"""MkDocs hook: the generated reference pages (the command line from the parser, the JSON
Schema from ``cpsolve schema``), added to the site at build time — never written into
docs/ (see cpsolve/cli/reference.py)."""

from __future__ import annotations

from mkdocs.structure.files import File, Files


def on_files(files: Files, config, **kwargs) -> Files:  # noqa: ARG001 - MkDocs' signature
    """Add each page of :data:`cpsolve.cli.reference.PAGES`, generated now."""
    from cpsolve.cli import reference

    for page, maker in reference.PAGES.items():
        files.append(File.generated(config, page, content=getattr(reference, maker)()))
    return files
