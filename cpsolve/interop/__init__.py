"""Models out, in other systems' formats: PDDL (planning) and MiniZinc (csp).

* :mod:`cpsolve.language.fold` — partial evaluation of an expression under some known values
  (the exporters' own, so that they share no logic with the checker);
* :mod:`.pddl` — a :class:`~cpsolve.model.planning.Planning` as a PDDL domain and
  problem, every action grounded into variants with STRIPS preconditions (the grounding
  and its limits in :mod:`.pddl_writer`, the PDDL names in :mod:`.pddl_names`);
* :mod:`.minizinc` — a :class:`~cpsolve.model.csp.Csp` as a MiniZinc model and
  data file.

Each exporter returns the files' text *and* what maps a foreign answer back
(:class:`.pddl.PddlTask.variants`, :class:`.minizinc.MznModel.names`), so the
engines that run the external tools (``cpsolve.engines.fd``,
``cpsolve.engines.minizinc``) never re-derive the translation.  Exporters know
models only: no puzzle, no engine, no external tool.
"""

from __future__ import annotations


class ExportError(ValueError):
    """A model that the target format (or this exporter) cannot express, said in one line."""


class TooLarge(ExportError):
    """A model whose export would pass the exporter's size limits, found from the model's
    structure before anything is built (its size and the limit, in one line)."""


class ExportStopped(Exception):
    """The export was asked to stop (Ctrl-C, SIGTERM, an engine's time limit) before it was
    written: nothing to keep."""


FORMATS = ("pddl", "minizinc")
"""Targets of ``cpsolve export --to``."""
