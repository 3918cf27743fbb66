"""How a command's sources are named: PDDL domains and problems paired, a source as the
output names it, a table row's model known only by its source."""

from __future__ import annotations

import argparse
import dataclasses

from ..puzzles.data import ModelFileError


def pddl_pairs(files: list[str]) -> list[tuple[str, str]]:
    """``DOMAIN.pddl PROBLEM.pddl...`` as (domain, problem) pairs; ``[]`` when the files
    are not PDDL.  A file list that mixes PDDL and model files is a bad command line."""
    pddl = [f.lower().endswith(".pddl") for f in files]
    if not any(pddl):
        return []
    if not all(pddl) or len(files) < 2:
        raise ModelFileError(files[0], "PDDL comes as a domain file and problem file(s), all "
                             "ending in .pddl (DOMAIN.pddl PROBLEM.pddl...)")
    return [(files[0], problem) for problem in files[1:]]


def pair_up(args: argparse.Namespace) -> None:
    """``FILE PROBLEM`` of ``count``, ``analyze``, ``show`` and ``export``: a PDDL domain
    and problem become ``args.file``'s (domain, problem) pair."""
    problem = getattr(args, "problem", None)
    if problem is not None:
        args.file = pddl_pairs([args.file, problem])[0]
    elif isinstance(getattr(args, "file", None), str) and args.file.lower().endswith(".pddl"):
        raise ModelFileError(args.file, "a PDDL domain needs its problem file too "
                             "(DOMAIN.pddl PROBLEM.pddl)")


def file_name(name: str | tuple[str, str]) -> str:
    """A source as the output names it (a PDDL pair as its two files)."""
    return name if isinstance(name, str) else f"{name[0]} {name[1]}"


@dataclasses.dataclass(frozen=True)
class Named:
    """A table row's model when only its source is known (a file that did not load)."""

    name: str
