"""An assignment written for people when no template draws it, and read back.

Each array is one line, ``x = [4, 0, 3]`` (a 2-D array one line per row, ``g[0] = [1, 2]``),
wrapped under its bracket when long; scalars are ``name = value``, a few to a line::

    x = [4, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3,
         0]
    y = 0  z = 2

An array is written as a list only when every one of its cells is assigned (a partial
assignment, such as a puzzle's givens, names its cells one by one).  The reader takes this
layout, and the ``name=value`` pairs written before it, in any spacing; :func:`drawn_assignment`
finds it in cpsolve's text output.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from . import widths

WIDTH = 72
"""The longest line written (an answer is drawn in a box on an 80-column screen)."""
CELL = re.compile(r"(.+)\[(\d+)\]")
"""A cell of an array: the array's name (a row's for a 2-D array) and the cell's index."""
ENTRY = re.compile(r"(\w+(?:\[\d+\])*)\s*=\s*(\[[^\[\]]*\]|[^\s,\[\]=]+)")
"""One ``name = value`` or ``name = [value, value, ...]``."""


def assignment_text(names: Sequence[str], shown: Mapping[str, str], width: int = WIDTH) -> str:
    """The assigned variables of ``names`` (a model's, in order) with their values as
    ``shown`` writes them (numbers or labels), laid out as the module says."""
    lines: list[str] = []
    scalars: list[str] = []
    for name, cells in _groups(names):
        if len(cells) > 1 and all(c in shown for c in cells):
            lines.extend(_wrapped(f"{name} = [", [shown[c] for c in cells], width))
        else:
            scalars.extend(f"{c} = {shown[c]}" for c in cells if c in shown)
    lines.extend(_packed(scalars, width))
    return "\n".join(lines)


def _groups(names: Sequence[str]) -> Iterable[tuple[str, list[str]]]:
    """``(array, its cells)`` for the runs ``a[0], a[1], ...`` of ``names``, and
    ``(name, [name])`` for every other variable."""
    run: list[str] = []
    array = ""
    for name in [*names, ""]:
        found = CELL.fullmatch(name)
        if run and found and found.group(1) == array and int(found.group(2)) == len(run):
            run.append(name)
            continue
        if run:
            yield array, run
        run, array = [], ""
        if found and found.group(2) == "0":
            run, array = [name], found.group(1)
        elif name:
            yield name, [name]


def _wrapped(head: str, values: list[str], width: int) -> list[str]:
    """``head`` followed by ``values`` apart by commas and closed by ``]``, broken after a
    comma where a line would pass ``width``, the next line starting under the first value."""
    lines, line = [], head
    for i, value in enumerate(values):
        item = value + ("]" if i == len(values) - 1 else ",")
        if line != head and widths.cells(line) + 1 + widths.cells(item) > width:
            lines.append(line)
            line = " " * widths.cells(head) + item
        else:
            line += ("" if line == head else " ") + item
    return [*lines, line]


def _packed(items: list[str], width: int) -> list[str]:
    """``items`` a few to a line, two spaces apart, no line passing ``width`` (unless one
    item alone does)."""
    lines: list[str] = []
    for item in items:
        if lines and widths.cells(lines[-1]) + 2 + widths.cells(item) <= width:
            lines[-1] += "  " + item
        else:
            lines.append(item)
    return lines


def read_assignment_text(text: str) -> dict[str, str]:
    """The values written in ``text`` (laid out as :func:`assignment_text` writes, or as
    ``name=value`` pairs) by variable, as written; ``ValueError`` says why it cannot be
    read: text that is no entry, or one variable written twice with two values."""
    out: dict[str, str] = {}
    at = 0
    for found in ENTRY.finditer(text):
        _nothing_between(text, at, found.start())
        at = found.end()
        name, value = found.groups()
        if value.startswith("["):
            items = [v.strip() for v in value[1:-1].split(",")]
            if not all(items):
                raise ValueError(f"{name}: an empty value in {value[:40]!r}")
            pairs = [(f"{name}[{i}]", v) for i, v in enumerate(items)]
        else:
            pairs = [(name, value)]
        for cell, said in pairs:
            if out.setdefault(cell, said) != said:
                raise ValueError(f"{cell} is written as both {out[cell]!r} and {said!r}")
    _nothing_between(text, at, len(text))
    return out


def _nothing_between(text: str, start: int, end: int) -> None:
    left = text[start:end].strip()
    if left:
        raise ValueError(f"expected name = value (or name = [values]), got {left[:40]!r}")


FRAME = re.compile(r"^\s*[\u2502|](.*?)[\u2502|]\s*$")
"""A line inside a panel's frame, as cpsolve's text output draws one (``│``, or ``|`` on a
console that cannot write box lines)."""
EDGE = re.compile(r"^\s*(?:[\u256d\u2570]|\+-.*[-+]\s*$)")
"""A panel's top or bottom line: ``╭── title ──╮`` / ``╰────╯``, or in ASCII ``+-- title
--+`` / ``+-----+``."""


def inside_panel(text: str) -> str:
    """The inside of the first ``solution`` panel of cpsolve's text output (or of the
    first panel), its frame drawn in box lines or in ASCII, else the text itself."""
    lines = text.splitlines()
    tops = [i for i, ln in enumerate(lines[:-1])  # an ASCII top: with a framed line under it
            if EDGE.match(ln) and (ln.lstrip()[:1] == "\u256d" or FRAME.match(lines[i + 1]))]
    if not tops:
        return text
    top = next((i for i in tops if "solution" in lines[i]), tops[0])
    inside = []
    for line in lines[top + 1:]:
        if EDGE.match(line):
            break
        found = FRAME.match(line)
        inside.append(found.group(1) if found else line)
    return "\n".join(inside)


def drawn_assignment(text: str) -> str:
    """The assignment in cpsolve's text output: inside its ``solution`` panel, or, printed
    without its frame on a screen too narrow for the panel, the entries under its title line
    ``solution:`` up to the first text that is none (a second solution's heading); else the
    text itself."""
    inside = inside_panel(text)
    lines = [line.strip() for line in text.splitlines()]
    if inside is not text or "solution:" not in lines:
        return inside
    below = "\n".join(lines[lines.index("solution:") + 1:])
    at = 0
    for found in ENTRY.finditer(below):
        if below[at:found.start()].strip():
            break
        at = found.end()
    return below[:at] if at else below
