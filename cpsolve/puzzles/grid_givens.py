"""A ``grid`` file's ``symbols`` and its ``givens`` picture, read into the values of cells
(value ``v`` is drawn as ``symbols[v - 1]``; :data:`EMPTY` marks a blank cell)."""

from __future__ import annotations

from ..answers.words import plural
from ..language.quoting import shown
from .data import Data

EMPTY = {".", "_", "0", "-"}


def read_symbols(data: Data, n: int) -> list[str]:
    raw = data.get("symbols", (str, list), None)
    if raw is None:
        return [str(i) for i in range(1, n + 1)]
    symbols = list(raw) if isinstance(raw, str) else raw
    if len(symbols) != n or not all(isinstance(s, str) and s.strip() == s and s
                                    for s in symbols):
        raise data.error("symbols", f"expected {n} non-blank symbols, got {shown(raw)}")
    if len(set(symbols)) != n or set(symbols) & EMPTY:
        raise data.error("symbols", "symbols must differ from each other and from . _ 0 -")
    return symbols


def read_givens(data: Data, n: int, symbols: list[str]) -> dict[tuple[int, int], int]:
    text = data.get("givens", str, "")
    value_of = {s: i + 1 for i, s in enumerate(symbols)}
    rows = []
    for line in text.splitlines():
        line = line.replace("|", " ").strip()
        if not line or set(line) <= {"-", "+", " "} and ("+" in line or "--" in line):
            continue
        tokens = line.split()
        if len(tokens) != n and all(len(s) == 1 for s in symbols):
            tokens = list(line.replace(" ", ""))
        rows.append(tokens)
    if not rows:
        return {}
    if len(rows) != n:
        raise data.error("givens", f"the picture has {len(rows)} rows, expected {n}")
    givens = {}
    for r, tokens in enumerate(rows):
        if len(tokens) != n:
            raise data.error("givens",
                             f"row {r + 1} has {plural(len(tokens), 'cell')}, expected {n}")
        for c, t in enumerate(tokens):
            if t in EMPTY:
                continue
            if t not in value_of:
                raise data.error("givens", f"row {r + 1}, column {c + 1}: {shown(t)} is not a "
                                 f"symbol (symbols: {' '.join(symbols)})")
            givens[(r, c)] = value_of[t]
    return givens
