"""``python -m cpsolve``: the same as the ``cpsolve`` command."""

import sys

from .cli import main

sys.exit(main())
