"""``show`` under a time limit: the drawing is never charged to it."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys

import pytest
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


def _limit_after(monkeypatch, boards: int, interrupt_it: bool = False) -> list:
    """The command's clock passes its limit (or a Ctrl-C comes) once ``boards`` boards were
    drawn: a hand-set clock, no wall time.  The list counts the boards drawn."""
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.clock import Clock
    from cpsolve.output.draw import page

    drawn, real = [], page.picture

    def counting(*args, **kwargs):
        drawn.append(1)
        if len(drawn) == boards:
            if interrupt_it:
                interrupt.request()
            else:
                monkeypatch.setattr(Clock, "time_up", lambda self: self.limit is not None)
        return real(*args, **kwargs)

    monkeypatch.setattr(page, "picture", counting)
    return drawn


@pytest.mark.parametrize("interrupt_it, code, why", [
    (False, 1, "time limit 60 s reached"), (True, 130, "interrupted")])
def test_a_gallery_stops_drawing_at_the_limit_or_ctrl_c(interrupt_it, code, why, tmp_path,
                                                        monkeypatch, capsys):
    """Drawing 2,000 tours of 8x8 took seconds past a one-second limit, and a first Ctrl-C
    waited for them all: the drawing is the command's work.  It stops between two boards;
    the page holds those drawn, and it and the line say how many of how many."""
    from cpsolve.cli import main

    drawn = _limit_after(monkeypatch, 3, interrupt_it)
    page = tmp_path / "g.html"
    assert main(["show", "xsudoku5", "--gallery", "20", "--html", str(page),
                 "--time-limit", "60"]) == code
    assert len(drawn) == 3
    html = page.read_text(encoding="utf-8")
    assert html.count("<figure>") == 3 and html.rstrip().endswith("</html>")
    assert f"the first 3 of 20 drawn ({why})" in html
    assert capsys.readouterr().out == (f"wrote {page} (at least 21 solutions, by search; "
                                       f"3 of 20 drawn: {why})\n")


def test_a_plan_player_stops_drawing_at_the_limit(tmp_path, monkeypatch, capsys):
    """Water jugs: 10 moves (DESIGN.md), 11 states; the limit passed at the 5th state (the
    goal, drawn beside the player, is not drawn then)."""
    from cpsolve.cli import main

    drawn = _limit_after(monkeypatch, 5)
    page = tmp_path / "jugs.html"
    assert main(["show", "water_jugs", "--plan", "--html", str(page),
                 "--time-limit", "60"]) == 1
    assert len(drawn) == 5
    html = page.read_text(encoding="utf-8")
    assert html.count('class="frame"') == 5 and 'class="goal"' not in html
    assert "5 of 11 states drawn: time limit 60 s reached" in html
    assert capsys.readouterr().out == (f"wrote {page} (10 moves, optimal (proven), by search; "
                                       "5 of 11 states drawn: time limit 60 s reached)\n")
