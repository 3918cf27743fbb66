"""PDDL in: a domain and a problem file, grounded into a :class:`~cpsolve.model.planning.Planning`.

Parsing is the ``pddl`` package's (``pip install 'cpsolve[pddl]'``); the text
is lower-cased first, as PDDL names are case-insensitive.  Supported: STRIPS
with ``:typing``, ``:negative-preconditions``, ``:disjunctive-preconditions``,
``:equality``, quantified preconditions and effects over the objects,
``:conditional-effects`` (``when``) and ``:action-costs`` (constant
increases of ``total-cost``, or static numeric fluents from the initial
state).  Anything else is refused with one line naming the file.

Grounding is :mod:`.pddl_grounding`'s (or Fast Downward's translator's, :mod:`.pddl_sas`);
the task is a :class:`~cpsolve.puzzles.pddl_puzzle.PddlPuzzle`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..language.interpret import evaluate
from ..language.quoting import shown
from ..model import ModelError
from .data import ModelFileError
from .pddl_grounding import Grounder, Unsupported
from .pddl_puzzle import PddlPuzzle

SUPPORTED = {"strips", "typing", "negative-preconditions", "disjunctive-preconditions",
             "equality", "conditional-effects", "action-costs", "existential-preconditions",
             "universal-preconditions", "quantified-preconditions"}


def load(domain_path: str | Path, problem_path: str | Path, whole: bool = False
         ) -> PddlPuzzle:
    """The puzzle of a PDDL domain and problem (a :class:`ModelFileError` when unusable):
    through Fast Downward's translator when it is installed (:mod:`.pddl_sas`; ``whole``:
    every ground action, for checking a plan), else through the ``pddl`` package and
    :mod:`.pddl_grounding` (which keeps every ground action)."""
    from . import pddl_sas

    if pddl_sas.available():
        return load_translated(domain_path, problem_path, whole)
    return load_grounded(domain_path, problem_path)


def load_translated(domain_path: str | Path, problem_path: str | Path, whole: bool = False
                    ) -> PddlPuzzle:
    """The puzzle of the translator's SAS+ task (see :mod:`.pddl_sas`)."""
    from . import pddl_sas

    translated = pddl_sas.translate(domain_path, problem_path, whole)
    name = Path(problem_path).stem
    try:
        model, atoms, idle = pddl_sas.model_of(translated, name)
        model.validate()
    except pddl_sas.DomainFault as err:
        raise ModelFileError(domain_path, str(err)) from None
    except ModelError as err:
        raise ModelFileError(problem_path, str(err)) from None
    return PddlPuzzle(name, "pddl", model, f"PDDL {Path(domain_path).name} / {name}",
                      metric="one move = one PDDL action" + (
                          "; cost = the increase of total-cost" if translated.costs else ""),
                      domain_file=str(domain_path), problem_file=str(problem_path),
                      atoms=atoms, settled=bool(translated.settled), idle=idle,
                      schemas=translated.schemas,
                      unreachable=pddl_sas.unreachable(translated) if translated.settled
                      and not evaluate(model.goal, model.initial) else ())


def load_grounded(domain_path: str | Path, problem_path: str | Path) -> PddlPuzzle:
    """The puzzle of the ``pddl`` package's parse, grounded here."""
    domain, problem = _parse(domain_path, "domain"), _parse(problem_path, "problem")
    used = {str(r).lstrip(":") for r in (*domain.requirements, *problem.requirements)}
    unsupported = sorted(used - SUPPORTED)
    if unsupported:
        raise ModelFileError(domain_path, f"requirement :{unsupported[0]} is not supported "
                             f"(supported: {', '.join(':' + s for s in sorted(SUPPORTED))})",
                             "requirements")
    if problem.domain_name != domain.name:
        raise ModelFileError(problem_path, f"the problem is for domain "
                             f"{shown(problem.domain_name)}, the domain file defines "
                             f"{shown(domain.name)}", "domain")
    try:
        model = Grounder(domain, problem).model()
        model.validate()
    except (ModelError, Unsupported) as err:
        raise ModelFileError(problem_path, str(err)) from None
    return PddlPuzzle(problem.name, "pddl", model,
                      f"PDDL {domain.name} / {problem.name}",
                      metric="one move = one PDDL action" + (
                          "; cost = the increase of total-cost" if not model.unit_costs()
                          else ""),
                      domain_file=str(domain_path), problem_file=str(problem_path))


def _parse(path: str | Path, kind: str):
    from .data import read_text

    text = read_text(path).lower()
    try:
        with _traceback_limit_kept():
            return _parsed(text, kind)
    except ImportError:
        raise ModelFileError(path, "reading PDDL needs the pddl package "
                             "(pip install 'cpsolve[pddl]')") from None
    except Exception as err:  # noqa: BLE001 - the parser's many error types
        first = " ".join(str(err).split())[:300]
        raise ModelFileError(path, f"not a PDDL {kind} ({type(err).__name__}: {first})") \
            from None


@contextmanager
def _traceback_limit_kept() -> Iterator[None]:
    """The pddl parser sets ``sys.tracebacklimit = 0`` and, on a syntax error, leaves it so:
    every later traceback of the process would be empty (a user's Python model file could
    no longer be told the line of its error)."""
    import sys

    had, old = hasattr(sys, "tracebacklimit"), getattr(sys, "tracebacklimit", None)
    try:
        yield
    finally:
        if had:
            sys.tracebacklimit = old
        elif hasattr(sys, "tracebacklimit"):
            del sys.tracebacklimit


def _parsed(text: str, kind: str):
    if kind == "domain":
        from pddl.parser.domain import DomainParser
        return DomainParser()(text)
    from pddl.parser.problem import ProblemParser
    return ProblemParser()(text)
