"""Any model: a table of its variables (arrays on one row), under the family's show text;
or, for a family that would rather be read, its lines of text alone."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ...language.quoting import shorten
from ...puzzles.widths import cells
from .svg import INK, LINE, MUTED, PAPER, Svg

MARGIN = 12
ROW = 30
BOX = 38
MAX_BOXES = 24
RULE = 110
"""Most characters of one rule drawn under an unsolved puzzle (the rest: ``…``)."""
MAX_RULES = 20
"""Most rules drawn (then ``… N more rules``)."""


def rows_of(env: Mapping[str, int | None]) -> list[tuple[str, list[str]]]:
    """Variables grouped for the table: ``a[0], a[1]`` become one row ``a``, and
    ``b[r][c]`` one row ``b[r]`` per row of a 2-D array."""
    rows: dict[str, list[str]] = {}
    for name in env:
        match = re.fullmatch(r"(\w+(?:\[\d+\])*)\[(\d+)\]", name)
        rows.setdefault(match.group(1) if match else name, []).append(name)
    return list(rows.items())


def table_svg(env: Mapping[str, int | None], shown: str, title: str,
              label: Callable[[str, int], str] = lambda n, v: str(v),
              rules: Sequence[str] = ()) -> str:
    """Rows of variables with their values (``None``: not yet known, drawn ``?``).

    ``shown`` (the family's own drawing of the assignment, may be empty) is
    written above the table, one text line per line; ``rules`` (a puzzle drawn unsolved:
    what its answer must satisfy) under it, each cut to :data:`RULE` characters.
    """
    lines = [line for line in shown.splitlines() if line.strip()]
    said = [shorten(rule, width=RULE, quote=False) for rule in rules[:MAX_RULES]]
    said += [f"… {len(rules) - MAX_RULES} more rules"] if len(rules) > MAX_RULES else []
    said = ["rules:", *said] if said else []
    rows = rows_of(env)
    head = max((len(name) for name, _ in rows), default=1) * 8 + 16
    wide = max((min(len(names), MAX_BOXES) for _, names in rows), default=1)
    longest = max((cells(line) for line in lines + said), default=0)
    more = 90 if any(len(names) > MAX_BOXES for _, names in rows) else 0
    width = max(head + wide * BOX + more, longest * 8.5) + 2 * MARGIN
    top = MARGIN + len(lines) * 22 + (8 if lines else 0)
    bottom = top + len(rows) * ROW + (8 if said else 0)
    svg = Svg(width, bottom + len(said) * 20 + MARGIN, title, "variables and their values")
    for i, line in enumerate(said):
        svg.add("text", line, x=float(MARGIN), y=float(bottom + 14 + i * 20), font_size="13",
                fill=MUTED if i == 0 else INK, class_="rule", style="white-space:pre")
    for i, line in enumerate(lines):
        svg.add("text", line, x=float(MARGIN), y=float(MARGIN + 16 + i * 22), font_size="15",
                fill=INK, class_="shown", style="white-space:pre")
    for i, (name, names) in enumerate(rows):
        y = top + i * ROW
        svg.add("text", name, x=float(MARGIN), y=float(y + ROW / 2 + 5), font_size="13",
                fill=MUTED, class_="name")
        for j, var in enumerate(names[:MAX_BOXES]):
            value = env[var]
            x = MARGIN + head + j * BOX
            svg.open(class_="variable")
            svg.add("title", f"{var} = {'?' if value is None else label(var, value)}")
            svg.rect(x, y + 2, BOX - 4, ROW - 4, rx=4.0, fill=PAPER, stroke=LINE)
            text = "?" if value is None else label(var, value)
            svg.text(x + (BOX - 4) / 2, y + ROW / 2, text, 13 if len(text) < 4 else 10,
                     room=BOX - 10)
            svg.close()
        if len(names) > MAX_BOXES:
            svg.add("text", f"… {len(names) - MAX_BOXES} more", x=float(width - MARGIN),
                    y=float(y + ROW / 2 + 5), font_size="11", fill=MUTED, text_anchor="end")
    return svg.text_of()


def lines_svg(lines: Sequence[str], title: str) -> str:
    """A state as the family writes it, one text line per line (no table of variables)."""
    width = max((cells(line) for line in lines), default=1) * 8.5 + 2 * MARGIN
    svg = Svg(width, 2 * MARGIN + len(lines) * 22, title, "the state, as text")
    for i, line in enumerate(lines):
        svg.add("text", line, x=float(MARGIN), y=float(MARGIN + 16 + i * 22), font_size="15",
                fill=INK, class_="shown", style="white-space:pre")
    return svg.text_of()
