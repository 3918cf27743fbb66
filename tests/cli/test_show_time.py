"""``show`` under a time limit: the drawing is never charged to it."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import cpsolve.cli.show as show
engine = show.run
def run(*args, **kwargs):
    print("drawing imported before the engine:", "cpsolve.output.draw" in sys.modules,
          file=sys.stderr)
    return engine(*args, **kwargs)
show.run = run
from cpsolve.__main__ import run as main
sys.argv = ["cpsolve", "show", "water_jugs", "--plan", "--html", sys.argv[1],
            "--time-limit", "60"]
sys.exit(main())
"""


def test_the_drawing_code_is_imported_after_the_engine_ran(tmp_path):
    """The picture's modules are imported once the answer is in (when the clock no longer
    cuts the work): imported first, on a loaded machine, they took a short limit's whole
    time and the run ended in an error with no picture of the start it had to draw."""
    page = tmp_path / "jugs.html"
    done = subprocess.run([sys.executable, "-c", PROBE, str(page)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "drawing imported before the engine: False" in done.stderr
    assert page.read_text(encoding="utf-8").lstrip().startswith("<!")
