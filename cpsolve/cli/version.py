"""The release of cpsolve: ``cpsolve --version``, ``cpsolve.__version__`` and the package's
metadata (pyproject.toml reads it from here)."""

VERSION = "0.1.0"
