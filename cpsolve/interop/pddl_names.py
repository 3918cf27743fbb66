"""PDDL names of a model's variables, values and actions."""

from __future__ import annotations

import re


class Names:
    """PDDL names: letters, digits, ``-`` and ``_``, starting with a letter, all distinct."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.last: dict[str, int] = {}
        """Base name -> the last number given to it: the next one is tried first (one
        model action grounded into 46,656 variants names them in one pass, not in a
        quadratic search from ``-2`` each time)."""

    def make(self, text: str, prefix: str = "x") -> str:
        base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or prefix
        if not base[0].isalpha():
            base = f"{prefix}{base}"
        name, n = base, self.last.get(base, 1)
        if n > 1:
            name = f"{base}-{n}"
        while name in self.used:
            n += 1
            name = f"{base}-{n}"
        self.used.add(name)
        self.last[base] = n
        return name


def value_name(v: int) -> str:
    """The object of a value: ``n3``, or ``m3`` for -3."""
    return f"n{v}" if v >= 0 else f"m{-v}"
