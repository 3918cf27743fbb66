"""The release of cpsolve (also ``cpsolve.__version__`` and ``cpsolve --version``)."""

VERSION = "0.1.0"
