"""Names of ground actions and variables made from templates (``{name}`` placeholders),
and the parameter bindings a template is expanded over."""

from __future__ import annotations

import itertools
import math
import re
import string
from collections.abc import Iterable, Mapping

from ..language.quoting import shown
from .variables import ModelError

_SPEC = re.compile(r"[<>^]?\d{0,3}\Z")
MAX_NAME_WIDTH = 200


def format_name(template: str, values: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` or ``{name:WIDTH}`` replaced by ``values[name]``.

    Only plain fields are allowed (no attributes, indexes or conversions) and
    widths of at most :data:`MAX_NAME_WIDTH`, so a name can neither read
    attributes of its values nor grow huge; anything else raises
    :class:`ModelError` saying which placeholder is wrong.
    """
    out = []
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as err:
        raise ModelError(f"bad placeholder in {template!r}: {err}") from None
    for literal, field_name, spec, conversion in parts:
        out.append(literal)
        if field_name is None:
            continue
        if field_name not in values:
            known = ", ".join(sorted(values)) or "none"
            raise ModelError(f"placeholder {{{field_name}}} names no parameter (known: {known})")
        if conversion or not _SPEC.match(spec or "") or \
                int(re.sub(r"\D", "", spec or "") or 0) > MAX_NAME_WIDTH:
            raise ModelError(f"placeholder {{{field_name}{'!' + conversion if conversion else ''}"
                             f"{':' + spec if spec else ''}}}: only {{name}} or {{name:WIDTH}} "
                             f"with WIDTH <= {MAX_NAME_WIDTH} is allowed")
        out.append(format(values[field_name], spec or ""))
    return "".join(out)


def placeholders(template: str) -> set[str]:
    """The names ``template``'s ``{name}`` placeholders use (none for a malformed one:
    :func:`format_name` says what is wrong with it)."""
    try:
        return {field for _, field, _, _ in string.Formatter().parse(template) if field}
    except ValueError:
        return set()


def same_name(template: str, name: str, first: Mapping[str, object],
              second: Mapping[str, object]) -> str:
    """Why two bindings that expand ``template`` to one ``name`` are refused: each expanded
    name must differ.  The parameters the bindings differ in are said with their values;
    those the template leaves out are the ones to put in it (when it has them all, labels
    or digits run together make the names alike)."""
    differ = [p for p in first if first[p] != second.get(p)]
    missing = [p for p in differ if p not in placeholders(template)]
    values = [", ".join(f"{p} = {b[p]}" for p in differ) for b in (first, second)]
    both = f"{values[0]} and {values[1]} both give {shown(name)}"
    if missing:
        return (f"{shown(template)} gives every {' and '.join(missing)} the same name "
                f"({both}): put {', '.join('{' + p + '}' for p in missing)} in the name")
    return (f"{shown(template)} gives two actions the same name ({both}): each expanded "
            "name must differ")


def combinations(over: Mapping[str, Iterable[int]]) -> int:
    """How many bindings :func:`expand` would make (computed without making them)."""
    return math.prod(len(list(values)) for values in over.values())


def expand(over: Mapping[str, Iterable[int]]) -> list[dict[str, int]]:
    """Every combination of parameter values, in order."""
    keys = list(over)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(list(over[k]) for k in keys))]
