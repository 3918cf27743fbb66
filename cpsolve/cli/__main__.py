"""``python -m cpsolve.cli``: the same as ``cpsolve``."""

import sys

from . import main

sys.exit(main())
