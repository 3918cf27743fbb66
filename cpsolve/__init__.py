"""cpsolve: puzzles declared once as constraint models, solved by CP-SAT and checked by search."""

import importlib
import sys

_EXPORTS = {"Result": "answers.result", "Status": "answers.result", "Csp": "model",
            "Planning": "model", "Var": "language.expr",
            **dict.fromkeys(("And", "If", "Max", "Min", "Not", "Or", "Sum"), "language.combine")}
"""The front door's names and the modules that hold them, imported on first use: the
command line (``cpsolve --help``, a Ctrl-C at start) does not wait for them."""

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    if name == "__version__":  # the release, kept by the command line (``--version``)
        from .cli.version import VERSION

        return VERSION
    if name not in _EXPORTS:
        raise AttributeError(f"module 'cpsolve' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | {"__version__"})


def _in_ipython() -> None:
    """Inside IPython or Jupyter, puzzles and results display as pictures."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and hasattr(shell, "display_formatter"):
        from .output.draw.jupyter import register

        register(shell)


_in_ipython()
