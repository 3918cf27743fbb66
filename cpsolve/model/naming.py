"""Names of ground actions and variables made from templates (``{name}`` placeholders),
and the parameter bindings a template is expanded over."""

from __future__ import annotations

import itertools
import math
import re
import string
from collections.abc import Iterable, Mapping

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


def combinations(over: Mapping[str, Iterable[int]]) -> int:
    """How many bindings :func:`expand` would make (computed without making them)."""
    return math.prod(len(list(values)) for values in over.values())


def expand(over: Mapping[str, Iterable[int]]) -> list[dict[str, int]]:
    """Every combination of parameter values, in order."""
    keys = list(over)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(list(over[k]) for k in keys))]
