"""``count --up-to`` and ``generate`` (:mod:`cpsolve.cli.grids`): a refusal about the
model's content is one line on stderr naming the file (docs/families/README.md), exit 2
(1 for a board too large to enumerate, a limit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[2] / "models"


def refused(run, code: int, start: str) -> None:
    """One error line, starting ``error: start``, and exit ``code``."""
    lines = [line for line in run.err.splitlines() if line.strip()]
    assert run.code == code and len(lines) == 1, run.err
    assert lines[0].startswith(f"error: {start}"), lines[0]


@pytest.mark.parametrize("argv, code, message", [
    # Inkala's sudoku has givens: a rotation moves them, so it is no symmetry of the puzzle
    (("count", "sudoku_inkala.toml", "--up-to", "symmetry"), 2,
     "the givens break the symmetry"),
    # queens' columns are numbers on the board: renaming them is no symmetry; a csp says
    # what it may declare instead
    (("count", "queens8.toml", "--up-to", "relabel"), 2,
     "--up-to relabel renames the symbols of a grid (family = \"grid\"); declare a csp's "
     "renaming of values in [[symmetries]] and count with --up-to symmetry"),
    # no closed knight's tour exists on 4 x 4
    (("generate", "knight_4x4.toml", "--givens", "2"), 2,
     "nothing to generate: the model has no solution"),
    # a 9 x 9 sudoku has far more than 2,000 grids up to renaming
    (("generate", "sudoku_inkala.toml", "--givens", "3"), 1,
     "more than 2,000 solutions up to renaming"),
])
def test_a_refusal_about_the_model_names_the_file(cli, argv, code, message):
    command, name, *rest = argv
    path = MODELS / name
    refused(cli(command, path, *rest), code, f"{path}: {message}")


def test_the_json_error_names_the_file_too(cli):
    path = MODELS / "sudoku_inkala.toml"
    run = cli("count", path, "--up-to", "symmetry", "--json")
    out = json.loads(run.out)
    assert run.code == 2 and out["exit"] == 2
    assert out["error"] == f"{path}: the givens break the symmetry: count classes of a board " \
                           "without givens"


def test_a_refusal_about_an_option_names_the_option(cli):
    """``--givens`` larger than the board: the option is the key, as the docs show."""
    refused(cli("generate", MODELS / "latin4.toml", "--givens", "17"), 2,
            "--givens 17: the board has 16 cells")


GIVENS = ("generate", MODELS / "xsudoku5.toml", "--givens", "4", "--time-limit", "600")


def test_a_limit_reached_while_the_puzzles_are_written_in_json_cuts_none(cli, late_alarm):
    """The time limit cuts the work, never the writing of what it found: the alarm came
    while the JSON of the puzzles was being made and printed, and lost them all for an
    error object (``the time limit was reached while running generate``)."""
    late_alarm("cpsolve.output.grids.json_generation")
    run = cli(*GIVENS, "--json")
    out = json.loads(run.out)
    assert run.code == 0, run.err
    (four,) = out["givens"]
    assert four["short"] is None and four["drawn"] == four["classes"] == len(four["puzzles"])


def test_a_limit_reached_while_the_puzzles_are_drawn_cuts_none(cli, late_alarm):
    """In text, the output stopped in the middle of a grid, without the figures: now it is
    the whole output of a run the clock never came to."""
    whole = cli(*GIVENS)
    assert whole.code == 0, whole.err
    late_alarm("cpsolve.output.grids.human_generation")
    run = cli(*GIVENS)
    assert run.code == 0 and not run.err_lines, run.err
    assert _figures(run.out) == _figures(whole.out)


def _figures(text: str) -> str:
    """The output without its seconds (each run takes its own time)."""
    import re

    return re.sub(r"\d+\.\d+ s\b", "_ s", text)


@pytest.mark.parametrize("seed", ["1", "0"])
def test_a_seed_without_random_is_refused(cli, seed):
    """--seed chooses a draw, and only --random N draws (its help: "with --random"); 0 is a
    seed too."""
    run = cli("generate", MODELS / "latin4.toml", "--givens", "3", "--seed", seed, "--json")
    refused(run, 2, "--seed chooses the draw of --random N")
    assert json.loads(run.out)["exit"] == 2


def test_a_seed_with_random_is_taken(cli):
    run = cli("generate", MODELS / "latin4.toml", "--givens", "4", "--random", "1", "--seed",
              "0", "--count")
    assert run.code == 0, run.err


def test_a_generation_cut_off_says_how_late_and_how_long_it_ran(cli, monkeypatch):
    """A generation that does not stop at the limit is cut off: its `short` says how long
    past the limit it was left to stop (it said "within the grace", explained nowhere), and
    its seconds are the time it ran (it said 0.000 s after running 3 s); a number of givens
    after it never began (0 s)."""
    import time

    from cpsolve.workflows.grids.generator import Generator

    def deaf(*args, **kwargs):
        end = time.monotonic() + 30  # never looks at the stop asked for at the limit
        while time.monotonic() < end:
            time.sleep(0.01)
        raise AssertionError("not cut off")

    monkeypatch.setattr(Generator, "every", deaf)
    run = cli("generate", MODELS / "xsudoku5.toml", "--givens", "7", "8", "--count",
              "--time-limit", "0.5", "--json")
    assert run.code == 1, run.err
    seven, eight = json.loads(run.out)["givens"]
    # the grace: 60 % of the 0.5 s a command may run past a limit under 5 s
    why = "time limit 0.5 s reached (generation did not stop within 0.3 s of the limit; cut off)"
    assert seven["short"] == eight["short"] == why
    assert seven["message"] == eight["message"] == "not finished"
    assert seven["seconds"] > 0 and eight["seconds"] == 0
