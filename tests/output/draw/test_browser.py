"""The plan page as a person sees it: headless Chromium clicks through a plan.

Uses the distribution's Chromium (``apt-get install chromium``; ``.ci/run``
installs it when run as root) driven by playwright's Python driver, which
ships inside its wheel and needs no browser download.  Skipped where either
is missing, except under CI (``CI=true``), where a skip would hide a broken
install.
"""

from __future__ import annotations

import os
import shutil

import pytest

from cpsolve.engines import run
from cpsolve.output.draw.page import plan_page
from cpsolve.output.draw.sliding import INSET, MARGIN
from cpsolve.puzzles.files import load, resolve

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the browser test: chromium or playwright is missing")
        pytest.skip("needs chromium (apt-get install chromium) and playwright")
    return sync_playwright


def pieces_shown(page) -> dict[tuple[int, int], str]:
    """``(row, col) -> label`` of the single-cell pieces drawn in the visible frame."""
    rects = page.eval_on_selector_all(
        ".frame:not([hidden]) g.piece",
        "gs => gs.map(g => [g.querySelector('text').textContent,"
        " +g.querySelector('rect').getAttribute('x'), +g.querySelector('rect').getAttribute('y'),"
        " +g.querySelector('rect').getAttribute('width') ])")
    size = rects[0][3] + 2 * INSET
    return {(round((y - MARGIN - INSET) / size), round((x - MARGIN - INSET) / size)): label
            for label, x, y, _ in rects}


def expected(state: tuple[int, ...]) -> dict[tuple[int, int], str]:
    """The 8-puzzle's pieces read straight off a state (cells row-major, 0 = empty)."""
    return {(i // 3, i % 3): str(v) for i, v in enumerate(state) if v}


def test_plan_player_steps_through_the_eight_puzzle(tmp_path):
    sync_playwright = _browser()
    puzzle = load(resolve("eight_puzzle"))
    result = run("search", "solve", puzzle.model)
    steps = result.answer.steps
    assert len(steps) == 31  # the known optimum (docs/design.md)
    path = tmp_path / "plan.html"
    path.write_text(plan_page(puzzle, result), encoding="utf-8")
    start = puzzle.model.initial_state()
    # in the file, value v is token tokens[v]; the 8-puzzle's tokens are its digits
    tokens = puzzle.tokens
    as_labels = lambda s: {k: tokens[int(v)] for k, v in expected(s).items()}  # noqa: E731
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(path.as_uri())
        assert page.locator(".frame:not([hidden])").count() == 1
        assert page.locator(".where").inner_text() == "step 0 of 31"
        assert pieces_shown(page) == as_labels(start)
        page.get_by_role("button", name="next ▶").click()
        assert pieces_shown(page) == as_labels(steps[0].state) != as_labels(start)
        assert puzzle.step_text(steps[0]) in page.locator(".frame:not([hidden]) figcaption") \
            .inner_text()
        page.keyboard.press("ArrowRight")
        assert page.locator(".where").inner_text() == "step 2 of 31"
        assert pieces_shown(page) == as_labels(steps[1].state)
        page.keyboard.press("ArrowLeft")
        assert pieces_shown(page) == as_labels(steps[0].state)
        page.get_by_role("button", name="last »").click()
        assert pieces_shown(page) == as_labels(steps[-1].state)
        assert "goal is reached" in page.locator(".frame:not([hidden]) figcaption").inner_text()
        browser.close()


def _in_view(page, selector: str) -> bool:
    """The element's box lies inside its scrolling list's box (so a person sees it)."""
    return page.eval_on_selector(selector, """li => {
        const box = li.getBoundingClientRect(), list = li.parentNode.getBoundingClientRect();
        return box.height > 0 && box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
    }""")


@pytest.mark.parametrize("name", ["eight_puzzle", "klotski"])
def test_the_current_step_stays_in_view_and_the_goal_is_drawn(tmp_path, name):
    """After End the highlighted step is the last one and is inside the list's box (the
    list scrolls with the player); the goal is drawn beside the start; Home goes back."""
    sync_playwright = _browser()
    puzzle = load(resolve(name))
    result = run("search", "solve", puzzle.model)
    steps = result.answer.steps
    path = tmp_path / "plan.html"
    path.write_text(plan_page(puzzle, result), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(path.as_uri())
        assert page.locator("figure.goal svg").count() == 1
        assert page.locator("figure.goal svg").is_visible()
        page.keyboard.press("End")
        assert page.locator(".where").inner_text() == f"step {len(steps)} of {len(steps)}"
        assert page.locator(".frame").evaluate_all(
            "fs => fs.filter(f => f.getBoundingClientRect().height > 0).length") == 1
        current = page.locator("ol.steps li.current")
        assert current.count() == 1 and current.inner_text() == puzzle.step_text(steps[-1])
        assert _in_view(page, "ol.steps li.current")
        page.screenshot(path=str(tmp_path / f"{name}-end.png"))
        page.keyboard.press("Home")
        assert _in_view(page, "ol.steps li.current")
        assert page.locator("ol.steps li.current").inner_text() == "start"
        browser.close()


LONG_NAMES = """
family = "transition"
name = "long names"
variables = { x = [0, 2] }
initial = { x = 0 }
goal = "x == 2"
[[actions]]
name = "move the counter one place up from where it stands now"
guard = "x < 2"
effects = { x = "x + 1" }
"""


def test_a_wrapped_step_is_numbered_beside_its_first_line(tmp_path):
    """On a narrow screen a long step wraps; its number (the list's marker) must stand by
    its first line, not its last, where it reads as the next step's.  A marker lines up
    with the first line of a block child and the last line of an inline-block one, so the
    steps' buttons are blocks, and a wrapped step's button starts where its item does."""
    sync_playwright = _browser()
    source = tmp_path / "long.toml"
    source.write_text(LONG_NAMES, encoding="utf-8")
    puzzle = load(str(source))
    path = tmp_path / "plan.html"
    path.write_text(plan_page(puzzle, run("search", "solve", puzzle.model)), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 330, "height": 900})
        page.goto(path.as_uri())
        shape = page.eval_on_selector("ol.steps li:nth-child(2)", """li => {
            const b = li.querySelector('button'), start = li.parentNode.children[0];
            const box = li.getBoundingClientRect();
            return [getComputedStyle(b).display, b.getBoundingClientRect().top - box.top,
                    box.height / start.getBoundingClientRect().height];
        }""")
        browser.close()
    display, offset, lines = shape
    assert lines > 1.5  # the step did wrap
    assert display == "block" and abs(offset) < 1
