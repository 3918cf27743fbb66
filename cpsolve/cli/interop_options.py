"""The interop commands' options (PDDL pairs, ``validate``, MiniZinc's solver, statistics),
added to :mod:`.arguments`' parser by :mod:`.command_options` in small blocks of their own,
and the words every command's FILE help says a model in (:data:`MODEL_FILE`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .checks import path_name, solver_name

MODEL_FILE = "a model file (.toml or .py) or a bundled model's name (see cpsolve models)"
"""What every command takes as a model (a Python model file as well as a TOML one): the
start of each command's FILE help, here and in :mod:`.command_options`."""


def validate_command(sub: argparse._SubParsersAction,
                     seconds_type: Callable[[str], float]) -> None:
    """``validate MODEL ANSWER`` (``seconds_type``: the parser of --time-limit)."""
    v = sub.add_parser("validate", help="check a plan or solution of your own against a model")
    v.add_argument("files", nargs="+", metavar="FILE", type=path_name,
                   help=f"MODEL ANSWER (MODEL: {MODEL_FILE}; then the answer), or "
                   "DOMAIN.pddl PROBLEM.pddl PLAN; a plan: cpsolve's text or JSON output, an "
                   "IPC plan file, action names one per line (an empty file: no steps) or a "
                   "sokoban level's lurd line; a solution: a JSON "
                   "assignment, cpsolve's JSON output or the grid as text")
    v.add_argument("--time-limit", type=seconds_type, metavar="S",
                   help="stop loading the model and checking the answer after S seconds "
                   "(default: no limit)")
    v.add_argument("--json", action="store_true", help="print one JSON object")


def statistics(cmd: argparse.ArgumentParser) -> None:
    """``--statistics``: the engine's figures after the answer (text; JSON has them)."""
    cmd.add_argument("--statistics", action="store_true",
                     help="print the engine's figures (states or nodes explored, solver "
                     "details, time); --json always has them (explored, details, seconds)")


def mzn_solver(cmd: argparse.ArgumentParser) -> None:
    """``--solver NAME``: the MiniZinc solver of ``--engine minizinc``."""
    cmd.add_argument("--solver", metavar="NAME", type=solver_name,
                     help="--engine minizinc: the MiniZinc solver (default gecode; the "
                     "installed ones: minizinc --solvers)")


def pddl_problem(cmd: argparse.ArgumentParser) -> None:
    """An optional second file: with a PDDL domain as FILE, its problem
    (:func:`extra_model` refuses any other second name)."""
    cmd.add_argument("problem", nargs="?", metavar="PROBLEM", type=path_name,
                     help="when FILE is a PDDL domain: its problem file")


def extra_model(args: argparse.Namespace) -> str | None:
    """Why the command line is refused, or None: a command of one model (``FILE PROBLEM``,
    :func:`pddl_problem`) given a second name where neither is PDDL — two models, which it
    does not take.  (A PDDL file beside a model file is refused on loading, naming it.)"""
    problem = getattr(args, "problem", None)
    if problem is None or any(f.lower().endswith(".pddl") for f in (args.file, problem)):
        return None
    return (f"takes one model file, or a PDDL domain and its problem (DOMAIN.pddl "
            f"PROBLEM.pddl): {problem} is one name too many (solve and compare take several)")
