"""A board written as rows of tokens (a grid's symbols, a tour's visiting numbers), found
in an answer's text and read back with its shape checked before anything else is."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

RULES = frozenset("-+| \u2502")
"""What a line that only draws (a box rule ``----+----``, a frame) is made of."""


def board_rows(lines: Iterable[str], shape: tuple[int, int], fits: Callable[[str], bool],
               legend: str, noun: str = "symbol",
               ignored: Collection[str] = frozenset()) -> list[list[str]]:
    """The first board of ``shape`` (rows, columns) in ``lines``: lines whose tokens all
    ``fits`` (``|`` and ``│`` read as spaces, ``ignored`` tokens that do not fit dropped;
    blank lines, box rules and lines of ``ignored`` skipped), each of ``columns`` tokens,
    and no such line right after its last row.  ``ValueError`` says what is wrong after
    ``expected R rows of C nouns (legend): ``: which row holds what does not fit, how many
    tokens a row has, or how many rows there are."""
    height, width = shape
    skipped = RULES | set(ignored)
    rows: list[list[str]] = []
    more = 0  # rows that run on past the board's last one
    wrong = ""  # the first row of a board that did not read, and why
    for line in lines:
        tokens = [t for t in line.replace("|", " ").replace("\u2502", " ").split()
                  if fits(t) or t not in ignored]  # a Futoshiki's signs between cells
        row = bool(tokens) and all(fits(t) for t in tokens)
        if len(rows) == height:  # the board is read: does another row follow?
            if not row and line.strip() and set(line.strip()) <= RULES:
                continue
            if not row:
                break
            more += 1
        elif row:
            rows.append(tokens)
        elif rows and not set(line.strip()) <= skipped:
            bad = next(t for t in tokens if not fits(t))
            wrong = wrong or f"row {len(rows) + 1}, column {tokens.index(bad) + 1}: " \
                f"{bad[:20]!r} is not one of them"
            rows = []
    short = next((f"row {r} has {len(row)} {noun}s" for r, row in enumerate(rows, start=1)
                  if len(row) != width), "")
    if len(rows) == height and not short and not more:
        return rows
    found = f"found {len(rows) + more} such rows"
    raise ValueError(f"expected {height} rows of {width} {noun}s ({legend}): "
                     + (short or (found if more else wrong or found)))
