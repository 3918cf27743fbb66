"""A long page's boards (a gallery's solutions, a plan's states) are drawn one by one while
the command may go on: a stop between two boards ends the drawing, the first board is
always drawn, and the page says how many of how many it drew."""

from __future__ import annotations

import re

from cpsolve.engines import Options, run
from cpsolve.output.draw.boards import drawn
from cpsolve.output.draw.page import gallery_cards, gallery_page, plan_frames, plan_page
from cpsolve.puzzles.files import load, resolve


def stop_after(boards: int, why: str = "time limit 1 s reached"):
    """A stop that lets ``boards`` boards be drawn, then says ``why`` (asked before each
    board but the first)."""
    asked = []

    def stop():
        asked.append(1)
        return why if len(asked) >= boards else None

    return stop


def test_drawing_stops_where_the_stop_says_and_always_draws_the_first():
    items = list(range(10))
    boards = drawn(lambda i, item: f"<b>{item}</b>", items, stop_after(4))
    assert boards.pictures == tuple(f"<b>{k}</b>" for k in range(4)) and boards.total == 10
    assert boards.cut and boards.said() == "4 of 10 drawn: time limit 1 s reached"
    assert boards.said("states") == "4 of 10 states drawn: time limit 1 s reached"
    first = drawn(lambda i, item: str(item), items, lambda: "interrupted")
    assert first.pictures == ("0",) and first.why == "interrupted"
    whole = drawn(lambda i, item: str(item), items, lambda: None)
    assert len(whole.pictures) == 10 and not whole.cut and whole.said() == ""


def test_a_gallery_cut_short_says_how_many_it_drew():
    puzzle = load(resolve("xsudoku5"))
    result = run("search", "count", puzzle.model, Options(limit=6, keep=True))
    cards = gallery_cards(puzzle, result, stop_after(2, "interrupted"))
    html = gallery_page(puzzle, result, cards)
    assert html.count("<figure>") == 2
    assert "the first 2 of 6 drawn (interrupted)" in html
    assert gallery_page(puzzle, result).count("<figure>") == 6  # no stop: every one


def test_a_plan_player_cut_short_plays_the_states_drawn():
    """Water jugs 8 L / 5 L: 10 moves (DESIGN.md), 11 states with the start; cut after 4,
    the player has 4 frames and the 4 steps' buttons that lead to them (start, 3 moves), no
    goal beside them, and says so."""
    puzzle = load(resolve("water_jugs"))
    result = run("search", "solve", puzzle.model)
    frames = plan_frames(puzzle, result, stop_after(4))
    assert len(frames.pictures) == 4 and frames.total == 11
    html = plan_page(puzzle, result, frames)
    assert html.count('class="frame"') == 4
    assert len(re.findall(r"<li><button", html)) == 4
    assert 'class="goal"' not in html
    assert "4 of 11 states drawn: time limit 1 s reached" in html
    assert 'class="goal"' in plan_page(puzzle, result)  # whole: the goal beside it
