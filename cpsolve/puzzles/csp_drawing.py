"""A csp's solution read back from its text drawing (``cpsolve validate``): the file's
``show`` template (or the variables drawn without one, :mod:`.assignment_text`), as
cpsolve's text output prints it, panel frame and all.

The template is drawn once with a marker in place of each variable's value; the marker
drawing and the text are then matched token by token (whitespace apart, so the padding of
columns does not matter): a token of the template's own text must be there as written, a
variable's marker takes the value written there (a label of ``[labels]``, or a number),
and an expression that is not a variable (``{a + b}``) matches any token, as the checker
re-derives it.  A variable drawn twice must be written the same both times.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..language.expr import Var
from ..language.parse import parse
from ..language.quoting import shorten
from .assignment_text import drawn_assignment, inside_panel, read_assignment_text
from .show_template import PLACEHOLDER, Template

MARK = "\x00"
ANY = f"{MARK}*{MARK}"
"""The marker of an expression that is not one variable: any token."""


def read_drawing(template: Template, names: Iterable[str], text: str) -> dict[str, int]:
    """The assignment drawn in ``text`` (``ValueError``: why it cannot be read)."""
    names = list(names)
    if not template.show:
        return _unshown(template, names, drawn_assignment(text))
    marked = _marked(template, names).split()
    written = _drawn(text, len(marked))
    if len(written) != len(marked):
        form = " ".join(map(_shown, marked))
        raise ValueError(f"the drawing has {len(written)} items where the model's show "
                         f"template draws {len(marked)}: {shorten(form, width=200, quote=False)}")
    values: dict[str, int] = {}
    for number, (mark, token) in enumerate(zip(marked, written), start=1):
        pattern, variables = _pattern(mark)
        found = re.fullmatch(pattern, token)
        if found is None:
            raise ValueError(f"item {number}: expected {_shown(mark)!r}, got {token[:40]!r}")
        for name, said in zip(variables, found.groups()):
            if name is None:
                continue
            value = _value(template, name, said)
            if values.setdefault(name, value) != value:
                raise ValueError(f"{name} is drawn as both {values[name]} and {value}")
    missing = [n for n in names if n not in values]
    if missing:
        raise ValueError(f"the drawing does not show {missing[0]} (the show template "
                         "does not draw every variable: give a JSON assignment)")
    return values


def _drawn(text: str, count: int) -> list[str]:
    """The items of the drawing in ``text``: inside its panel, or, printed without its frame
    on a screen too narrow for it (under its title line ``solution:``), the first ``count``
    after that line."""
    inside = inside_panel(text)
    lines = [line.strip() for line in text.splitlines()]
    if inside is not text or "solution:" not in lines:
        return inside.split()
    return " ".join(lines[lines.index("solution:") + 1:]).split()[:count]


def _unshown(template: Template, names: list[str], text: str) -> dict[str, int]:
    """The assignment written as the variables are drawn without a template."""
    written = read_assignment_text(text)
    unknown = [n for n in written if n not in names]
    if unknown:
        raise ValueError(f"the model has no variable named {unknown[0][:60]!r}")
    missing = [n for n in names if n not in written]
    if missing:
        raise ValueError(f"the drawing does not show {missing[0]}")
    return {n: _value(template, n, written[n]) for n in names}


def _marked(template: Template, names: list[str]) -> str:
    """The template drawn with markers for values."""
    marks = {n: f"{MARK}{n}{MARK}" for n in names}

    def part(found: re.Match) -> str:
        whole = template.scope.get(found.group(1).strip())
        if isinstance(whole, list):
            return " ".join(_leaves(whole))
        expr = parse(found.group(1), template.scope)
        return marks.get(expr.name, ANY) if isinstance(expr, Var) else ANY

    return PLACEHOLDER.sub(part, template.show)


def _leaves(cells: list) -> list[str]:
    from ..language.interpret import evaluate

    out: list[str] = []
    for cell in cells:
        if isinstance(cell, list):
            out += _leaves(cell)
        elif isinstance(cell, Var):
            out.append(f"{MARK}{cell.name}{MARK}")
        else:
            out.append(str(evaluate(cell, {})))
    return out


def _pattern(mark: str) -> tuple[str, list[str | None]]:
    """A token of the marker drawing as a regular expression, and the variable of each
    group (``None``: any token)."""
    parts = mark.split(MARK)
    pattern, variables = "", []
    for i, piece in enumerate(parts):
        if i % 2 == 0:
            pattern += re.escape(piece)
        else:
            pattern += "(.+?)"
            variables.append(None if piece == "*" else piece)
    return pattern, variables


def _shown(mark: str) -> str:
    return re.sub(f"{MARK}(.*?){MARK}", lambda m: "<value>" if m.group(1) == "*" else
                  f"<{m.group(1)}>", mark)


def _value(template: Template, name: str, said: str) -> int:
    labels: Mapping | list | None = template.labels.get(name, template.labels.get(
        name.split("[", 1)[0]))
    if labels:
        texts = [str(x) for x in labels]
        if said in texts:
            return texts.index(said)
    try:
        return int(said)
    except ValueError:
        known = f" (labels: {' '.join(map(str, labels))})" if labels else ""
        raise ValueError(f"{name}: {said[:40]!r} is not a value{known}") from None
