"""Self-contained HTML pages: inline SVG, inline CSS and script, nothing fetched.

* :func:`plan_page` — a player that steps through a plan (buttons, arrow
  keys, a list of steps), naming each move, with the metric and whether
  the plan is proven optimal;
* :func:`gallery_page` — the first solutions of a count;
* :func:`board_page` — one picture, with what the answer says;
* :func:`analysis_page` — the chart of a state space.

A player's states (:func:`plan_frames`) and a gallery's solutions (:func:`gallery_cards`)
are drawn while the command may go on (:mod:`.boards`), and their page says how many were.
"""

from __future__ import annotations

import re
from html import escape

from ...answers.kinds import Step
from ...answers.result import Result
from ...puzzles.base import Puzzle
from . import picture, results
from .boards import Boards, Stop, drawn
from .svg import shared_styles, xml_safe

BODY = ("body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
        "color:#1f2430;margin:24px auto;max-width:980px;padding:0 16px;line-height:1.45}")
RULES = (
    ("h1", "font-size:1.4em;margin:0 0 4px"),
    (".facts", "color:#444;margin:4px 0 16px"),
    (".player", "display:flex;gap:28px;flex-wrap:wrap;align-items:flex-start"),
    ("figure", "margin:0"),
    ("figcaption", "margin-top:8px;font-size:1.05em;min-height:1.5em"),
    # a caption wraps within its picture's width, so a long one never pushes the list aside
    ("figure.frame, figure.goal", "display:table"),
    ("figure.frame figcaption, figure.goal figcaption", "display:table-caption;"
                                                        "caption-side:bottom"),
    ("figure.goal", "opacity:.85"),
    ("figure.frame[hidden]", "display:none"),
    (".controls", "margin:12px 0;display:flex;flex-wrap:wrap;gap:6px;align-items:center"),
    ("button", "font:inherit;padding:4px 12px;border:1px solid #9aa3b2;border-radius:6px;"
               "background:#f4f5f7;color:#1f2430;cursor:pointer"),
    ("button:focus-visible", "outline:3px solid #1c5fb8"),
    ("ol.steps", "margin:0;padding-left:3.4em;max-height:480px;overflow:auto;min-width:180px;"
                 "flex:1 1 180px;position:relative"),
    ("ol.steps li.current", "background:#fde7d9;font-weight:600"),
    # a block: a number beside the first line of a wrapped step, not its last
    ("ol.steps button", "border:none;background:none;padding:1px 4px;text-align:left;"
                        "display:block;width:100%"),
    (".gallery", "display:flex;flex-wrap:wrap;gap:18px"),
    ("pre.summary", "background:#f4f5f7;padding:8px 12px;border-radius:6px;white-space:pre-wrap"),
    (".hint", "color:#6b7280;font-size:.9em"),
)


def style(scope: str = "") -> str:
    """The pages' CSS; with ``scope`` every rule is limited to it (for notebook output)."""
    rules = "\n".join(f"{scope + ' ' if scope else ''}{sel}{{{body}}}" for sel, body in RULES)
    return rules if scope else f"{BODY}\n{rules}"



SCRIPT = """
(function (root, keys) {
  var frames = Array.prototype.slice.call(root.querySelectorAll('.frame'));
  var items = Array.prototype.slice.call(root.querySelectorAll('.steps li'));
  var where = root.querySelector('.where');
  var at = 0, timer = null;
  function go(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach(function (f, k) { f.hidden = k !== at; });
    items.forEach(function (li, k) { li.classList.toggle('current', k === at); });
    show(items[at]);
    where.textContent = 'step ' + at + ' of ' + (frames.length - 1);
    root.setAttribute('data-step', String(at));
  }
  function show(li) {  // scroll the list (not the page) so that the current step is in view
    if (!li) { return; }
    var list = li.parentNode, top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }
  function play() {
    var b = root.querySelector('.play');
    if (timer) { clearInterval(timer); timer = null; b.textContent = 'play'; return; }
    if (at === frames.length - 1) { go(0); }
    b.textContent = 'pause';
    timer = setInterval(function () {
      if (at === frames.length - 1) { play(); } else { go(at + 1); }
    }, 700);
  }
  var moves = {first: function () { go(0); }, prev: function () { go(at - 1); },
               next: function () { go(at + 1); }, last: function () { go(frames.length - 1); },
               play: play};
  Object.keys(moves).forEach(function (name) {
    root.querySelector('.' + name).addEventListener('click', moves[name]);
  });
  items.forEach(function (li, k) {
    li.querySelector('button').addEventListener('click', function () { go(k); });
  });
  keys.addEventListener('keydown', function (e) {
    var key = {ArrowRight: 'next', ArrowDown: 'next', ArrowLeft: 'prev', ArrowUp: 'prev',
               Home: 'first', End: 'last'}[e.key];
    if (key) { moves[key](); e.preventDefault(); }
  });
  var start = parseInt((location.hash || '').replace('#step-', ''), 10);
  go(isNaN(start) ? 0 : start);
})(document.getElementById('ROOT'), KEYS);
"""


def document(title: str, body: str) -> str:
    """A whole page: one file, nothing to fetch."""
    return xml_safe(f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n<style>{style()}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def header(puzzle: Puzzle, result: Result | None, facts: str = "") -> str:
    """The puzzle's name and description, what the result proves, and its message in the
    puzzle's words (:meth:`~.Puzzle.message_text`: why there is no plan, a limit reached)."""
    parts = [f"<h1>{escape(puzzle.name)}</h1>"]
    if puzzle.description:
        parts.append(f"<p>{escape(puzzle.description)}</p>")
    line = [facts] if facts else []
    if result is not None:
        line.append(f"<b>{escape(results.status_words(result))}</b> "
                    f"by engine {escape(result.engine)}")
        if result.verified:
            line.append("verified by the independent checker")
    if line:
        parts.append(f"<p class=\"facts\">{' · '.join(line)}</p>")
    if result is not None and result.message:
        parts.append(f"<p>{escape(puzzle.message_text(result))}</p>")
    return "\n".join(parts)


def plan_page(puzzle: Puzzle, result: Result, frames: Boards | None = None) -> str:
    """A page with the player of the result's plan; arrow keys work anywhere on it
    (``frames``: its states drawn, :func:`plan_frames`; by default all)."""
    return document(f"{puzzle.name}: plan",
                    player(puzzle, result, "player", keys_on_page=True, frames=frames) + HINT)


HINT = "<p class=\"hint\">Keys: ← → step, Home / End jump to the start / the goal.</p>"


def player(puzzle: Puzzle, result: Result, root: str, keys_on_page: bool = False,
           frames: Boards | None = None) -> str:
    """The plan player as one ``<div id=root>`` with its script (frame 0: the start).

    Keys act on the whole page when ``keys_on_page``, else while the player
    has the focus (several players can share a notebook).  ``frames``: the states drawn
    (:func:`plan_frames`; by default all); a player cut short plays the steps drawn, and
    says so.
    """
    steps = results.plan_steps(result) or ()
    cost = results.plan_cost(result)
    frames = frames or plan_frames(puzzle, result)
    facts = (f"<b>{len(steps)}</b> step{'s' if len(steps) != 1 else ''}, cost <b>{cost}</b>"
             f" · metric: {escape(puzzle.metric)}"
             + (f" · {escape(frames.said('states'))}" if frames.cut else ""))
    shown = len(frames.pictures)
    items = ["<li><button type=\"button\">start</button></li>"]
    items += [f"<li><button type=\"button\">{escape(puzzle.step_text(s))}</button></li>"
              for s in steps[:shown - 1]]
    summary = "\n".join(puzzle.plan_summary(steps)) if steps else ""
    buttons = "".join(f"<button class=\"{name}\" type=\"button\">{escape(text)}</button>"
                      for name, text in (("first", "« first"), ("prev", "◀ back"),
                                         ("next", "next ▶"), ("last", "last »"),
                                         ("play", "play")))
    script = SCRIPT.replace("ROOT", root).replace(
        "KEYS", "document" if keys_on_page else f"document.getElementById('{root}')")
    return "\n".join([
        f"<div id=\"{root}\" class=\"plan\" tabindex=\"0\">",
        header(puzzle, result, facts),
        f"<div class=\"controls\" role=\"toolbar\" aria-label=\"plan player\">{buttons}"
        "<output class=\"where\" aria-live=\"polite\"></output></div>",
        "<div class=\"player\"><div>", *shared_styles(frames.pictures), "</div>",
        "" if frames.cut else _goal(puzzle, steps),
        f"<ol class=\"steps\" start=\"0\">{''.join(items)}</ol></div>",
        f"<pre class=\"summary\">{escape(summary)}</pre>" if summary else "",
        "</div>",
        f"<script>{script}</script>",
    ])


BOARD_WIDTH = 320
"""Pixels a board is scaled up to at least, in the player (at most three times its size)."""


def scaled(svg: str, least: float = BOARD_WIDTH) -> str:
    """``svg`` with its width and height multiplied so that it is at least ``least`` pixels
    wide (its viewBox keeps the drawing; at most 3 times)."""
    found = re.match(r'<svg([^>]*?) width="([\d.]+)" height="([\d.]+)"', svg)
    if not found:
        return svg
    width, height = float(found.group(2)), float(found.group(3))
    factor = min(3.0, least / width) if width else 1.0
    if factor <= 1.0:
        return svg
    return (f'<svg{found.group(1)} width="{width * factor:g}" height="{height * factor:g}"'
            + svg[found.end():])


def _goal(puzzle: Puzzle, steps: tuple[Step, ...]) -> str:
    """The plan's last state — a goal state — drawn beside the player (none without steps)."""
    if not steps:
        return ""
    svg = scaled(picture(puzzle, steps[-1].state, None, title=f"{puzzle.name}: the goal").svg)
    return (f"<figure class=\"goal\">{svg}<figcaption>The goal (the state the plan ends in)."
            "</figcaption></figure>")


def plan_frames(puzzle: Puzzle, result: Result, stop: Stop | None = None) -> Boards:
    """The player's frames: the start, then the state after each step of the result's plan,
    drawn while ``stop`` lets the drawing go on (:func:`.boards.drawn`)."""
    steps = results.plan_steps(result) or ()
    totals = [0]
    for step in steps:
        totals.append(totals[-1] + step.cost)
    return drawn(lambda i, step: _frame(puzzle, step, i, steps, totals[i]),
                 (None, *steps), stop)


def _frame(puzzle: Puzzle, step: Step | None, i: int, steps: tuple[Step, ...],
           total: int) -> str:
    state = puzzle.model.initial_state() if step is None else step.state  # type: ignore[union-attr]
    svg = scaled(picture(puzzle, state, step).svg)
    if step is None:
        caption = "Start."
    else:
        cost = f" (cost {step.cost}; {total} so far)" if not puzzle.model.unit_costs() else ""  # type: ignore[union-attr]
        goal = " The goal is reached." if i == len(steps) else ""
        caption = f"Step {i} of {len(steps)}: {puzzle.step_text(step)}{cost}.{goal}"
    return (f"<figure class=\"frame\" data-step=\"{i}\">{svg}"
            f"<figcaption>{escape(caption)}</figcaption></figure>")


def board_page(puzzle: Puzzle, svg: str, result: Result | None, caption: str) -> str:
    """One picture on a page, under what the result says."""
    body = (f"{header(puzzle, result)}\n<figure>{svg}<figcaption>{escape(caption)}"
            "</figcaption></figure>")
    return document(puzzle.name, body)


def gallery_page(puzzle: Puzzle, result: Result, cards: Boards | None = None) -> str:
    """The solutions a count listed, each drawn, numbered (``cards``: those drawn,
    :func:`gallery_cards`; by default all)."""
    cards = cards or gallery_cards(puzzle, result)
    counted = results.count(result)
    figure = "?" if counted is None else f"{counted:,}"
    exact = result.exact
    drawn_words = f"the first {len(cards.pictures):,}" + \
        (f" of {cards.total:,} drawn ({escape(cards.why or '')})" if cards.cut else " drawn")
    facts = (f"{'' if exact else 'at least '}<b>{figure}</b> solution{'s' if counted != 1 else ''}"
             f"{'' if exact else ' (the count stopped at the limit)'}; {drawn_words}")
    body = (f"{header(puzzle, result, facts)}\n"
            f"<div class=\"gallery\">{''.join(shared_styles(cards.pictures))}</div>")
    return document(f"{puzzle.name}: solutions", body)


def gallery_cards(puzzle: Puzzle, result: Result, stop: Stop | None = None) -> Boards:
    """The gallery's solutions, each drawn and numbered, while ``stop`` lets the drawing go
    on (:func:`.boards.drawn`)."""
    def card(i: int, solution) -> str:
        svg = picture(puzzle, solution, title=f"{puzzle.name}: solution {i + 1}").svg
        return f"<figure>{svg}<figcaption>#{i + 1}</figcaption></figure>"

    return drawn(card, results.listed_solutions(result), stop)


def analysis_page(puzzle: Puzzle, result: Result, svg: str) -> str:
    """The state-space chart on a page."""
    body = f"{header(puzzle, result)}\n<figure>{svg}</figure>"
    return document(f"{puzzle.name}: state space", body)
