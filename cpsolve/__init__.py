"""cpsolve: puzzles declared once as constraint models, solved by CP-SAT and checked by search."""

import sys

from .answers.result import Result, Status
from .language.expr import And, If, Max, Min, Not, Or, Sum, Var
from .model import Csp, Planning
from .version import VERSION as __version__  # noqa: F401 - the package's release

__all__ = ["And", "Csp", "If", "Max", "Min", "Not", "Or", "Planning", "Result", "Status", "Sum",
           "Var"]


def _in_ipython() -> None:
    """Inside IPython or Jupyter, puzzles and results display as pictures."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and hasattr(shell, "display_formatter"):
        from .output.draw.jupyter import register

        register(shell)


_in_ipython()
