"""cpsolve: puzzles declared once as constraint models, solved by CP-SAT and checked by search."""

from .expr import And, If, Max, Min, Not, Or, Sum, Var
from .model import Csp, Planning
from .result import Result, Status

__all__ = ["And", "Csp", "If", "Max", "Min", "Not", "Or", "Planning", "Result", "Status", "Sum",
           "Var"]
__version__ = "0.1.0"
