"""Tables for people that stay legible at any width (:class:`Legible`).

A column holds words or text.  Words (an engine's name, a status, a number) are never
wrapped nor cut; text wraps as :class:`~.prose.Prose` wraps it (between words, a number
never parted from the word after it when they fit a line: ``8 L``), and a word longer than
its column goes on over the next lines (folded), never cut short.  When the screen cannot
give each text column :data:`NARROWEST` cells, or its longest word, beside the words, each
row comes as a block instead: its first cell, then one line per other cell (``header
value``) — what a table of slivers would have held, readable at any width.  A table whose
rows have no title of their own (``titled=False``: compare's engines of one model, printed
under its name) gives every cell such a line, the first too (``engine  cpsat``).

A table printed a row at a time (a batch: each instance as it is solved) keeps one layout
for all its rows (``fixed``): each column as wide as its declared ``width`` (a text column
without one as wide as the screen allows), whatever the rows hold.

A table without lines may let its first column ``spills``: when the screen cannot give it
its widest cell (a batch's file names) beside the others, it takes what they leave it (its
header's width at least) and a cell wider than that goes whole on a line of its own, the
rest of its row on the next line, under the headers — the table kept, and the name on one
line when the screen holds it (it copies whole), rather than every row as a block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rich import box
from rich.cells import cell_len
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from .prose import Prose
from .shown import escaped, shown

NARROWEST = 10
"""The fewest cells a text column may have in a table (fewer: the rows come as blocks)."""

Cell = str | Text


@dataclass(frozen=True)
class Column:
    """One column: its header, whether it holds ``words`` (never wrapped), and how it is
    justified.  ``width``: the widest cell it will hold when its rows are not all known
    at once (a table printed a row at a time); ``None``: measured from the rows."""

    header: str
    words: bool = False
    justify: Literal["left", "right"] = "left"
    width: int | None = None
    spills: bool = False
    """The first column of a table without lines, whose cell wider than the column goes on
    a line of its own above its row (see the module)."""


def plain(cell: Cell) -> str:
    """A cell's text, without its style."""
    return cell.plain if isinstance(cell, Text) else cell


def width_of(cell: Cell) -> int:
    """The cells a cell takes on the screen, as the console shows it (escaped: one line)."""
    return cell_len(escaped(plain(cell)))


class Legible:
    """Rows under their columns' headers: a table when the screen is wide enough for every
    word and :data:`NARROWEST` cells of every text column, else one block per row.
    ``header``: the headers are printed (a row printed on its own has none); ``boxed``:
    lines around the cells; ``fixed``: the layout from the columns alone (see the module);
    ``titled``: a row's block opens with its first cell on a line of its own (else with
    ``header  value`` for it, as for the others)."""

    def __init__(self, columns: Sequence[Column], rows: Sequence[Sequence[Cell]], *,
                 header: bool = True, boxed: bool = False, fixed: bool = False,
                 titled: bool = True) -> None:
        self.columns, self.rows = list(columns), [list(row) for row in rows]
        self.header, self.boxed, self.fixed = header, boxed, fixed
        self.titled = titled

    def __rich_console__(self, console, options):
        legible = self.as_written(getattr(console, "written", None))
        widths = legible.widths(options.max_width)
        if widths is None:
            yield from legible.blocks()
        else:
            yield from legible.tables(widths)

    def as_written(self, written) -> Legible:
        """This table with its cells as its console writes them, when the console says
        how (``written``: a console that cannot write every character, see
        :func:`cpsolve.cli.consoles.console`): measured so, ``\\xfc`` takes its four
        columns, and the rows stay under their headers."""
        if written is None:
            return self
        rows = [[written(shown(cell) if isinstance(cell, Text) else escaped(cell))
                 for cell in row] for row in self.rows]
        return Legible(self.columns, rows, header=self.header, boxed=self.boxed,
                       fixed=self.fixed, titled=self.titled)

    def natural(self, index: int) -> int | None:
        """How wide column ``index`` would be with room enough (``None``: as wide as the
        screen allows, a text column of a fixed layout without a declared width)."""
        column = self.columns[index]
        if self.fixed:  # the headers count: the rows line up under them
            if column.width is None:
                return cell_len(column.header) if column.words else None
            return max(column.width, cell_len(column.header))
        cells = [row[index] for row in self.rows] + ([column.header] if self.header else [])
        return max(map(width_of, cells), default=0)

    def widths(self, screen: int) -> list[int] | None:
        """Each column's width on a screen this wide, or ``None`` when the text columns
        would not have :data:`NARROWEST` cells each (the rows then come as blocks).  A text
        column of rows known at once gets at least its longest word (:meth:`whole_words`:
        ``cross-checked`` whole, not ``cross-check`` over ``ed``); when those do not all
        fit, the rows come as blocks, which keep every word whole (a word wider than
        those too is folded in a table of :data:`NARROWEST` cells a column)."""
        n = len(self.columns)
        natural = [self.natural(i) for i in range(n)]
        room = screen - 2 * n - (n + 1 if self.boxed else 0)  # padding, and lines
        room -= sum(w or 0 for c, w in zip(self.columns, natural) if c.words)
        texts = [i for i, c in enumerate(self.columns) if not c.words]
        least = {i: NARROWEST if natural[i] is None else min(natural[i], NARROWEST)
                 for i in texts}
        room += self.spilled(natural, sum(least.values()) - room)
        if room < sum(least.values()):
            return None
        if not self.fixed:
            words = self.whole_words(natural, texts, room)
            if words is None and self.blocks_keep_words(screen):
                return None  # a table would cut a word that the blocks keep whole
            least = words or least
        return [max(w or 0, 1) for w in self.shared(natural, least, texts, room)]

    def spilled(self, natural: list[int | None], short: int) -> int:
        """The cells the first column gives up (``natural`` changed in place) when the
        others are ``short`` of that many: a column that ``spills`` narrows, never below its
        header's width (its wider cells then go on lines of their own)."""
        column = self.columns[0]
        if short <= 0 or not column.spills or self.boxed or natural[0] is None:
            return 0
        given = max(0, min(short, natural[0] - cell_len(column.header)))
        natural[0] -= given
        return given

    def whole_words(self, natural: list[int | None], texts: list[int],
                    room: int) -> dict[int, int] | None:
        """Each text column's longest word, when they all fit ``room`` beside each other:
        each number with the word after it, else (``10,876`` over ``(optimal)``, rather
        than ``10,876 (opt`` over ``imal)``) each word on its own; ``None``: they do not."""
        for bonded in (True, False):
            words = {i: min(natural[i] or 0, self.longest_word(i, bonded)) for i in texts}
            if sum(words.values()) <= room:
                return words
        return None

    def blocks_keep_words(self, screen: int) -> bool:
        """Whether the rows as blocks (:meth:`blocks`) hold every word whole on a screen
        this wide: the first cell on a line of its own (when ``titled``), each other after
        its header."""
        widest = max(cell_len(column.header) for column in self.columns)
        room = screen - 2 - widest - 1  # the indent, the header and the space after it
        title = int(self.titled)
        return (not self.titled or self.longest_word(0, False) <= screen) and \
            all(self.longest_word(i, False) <= room for i in range(title, len(self.columns)))

    def shared(self, natural: list[int | None], least: dict[int, int], texts: list[int],
               room: int) -> list[int | None]:
        """``natural`` with the text columns given ``room`` between them: each its
        ``least``, then the rest in even shares, the column that wants least first (what
        it leaves, the others share)."""
        widths = list(natural)
        room -= sum(least.values())
        order = sorted(texts, key=lambda i: (natural[i] is None, (natural[i] or 0) - least[i]))
        for done, i in enumerate(order):
            share = room // (len(order) - done)
            if natural[i] is not None and self.fixed:  # declared: all of it (the rest
                share = room  # keep their least)
            want = None if natural[i] is None else natural[i] - least[i]
            give = share if want is None else min(want, share)
            widths[i] = least[i] + give
            room -= give
        return widths

    def longest_word(self, index: int, bonded: bool = True) -> int:
        """The widest word in column ``index``'s cells and header, as :class:`Prose` wraps
        them (``bonded``: a number and the word after it are one, ``8 L``; else each
        word on its own)."""
        cells = [row[index] for row in self.rows] + [self.columns[index].header]
        return max((Prose(cell).widest(width_of(cell) if bonded else 1) for cell in cells),
                   default=0)

    def cell(self, index: int, cell: Cell) -> Cell | Prose:
        """Cell ``cell`` of column ``index`` as printed: text wraps as :class:`Prose`
        does (between words, a number never parted from the word after it)."""
        return cell if self.columns[index].words else Prose(cell)

    def tables(self, widths: list[int]) -> list:
        """The rows as a table, each column ``widths`` cells wide; a first cell wider than
        its column that ``spills`` is a line of its own, the rest of its row under it (the
        table goes on after it, its columns as wide as before)."""
        if not self.columns[0].spills:
            return [self.table(widths, self.rows, self.header)]
        parts: list = []
        rows: list[list[Cell]] = []
        header = self.header
        for first, *rest in self.rows:
            if width_of(first) > widths[0]:
                if rows or header:
                    parts.append(self.table(widths, rows, header))
                parts.append(Padding(Text(first) if isinstance(first, str) else first,
                                     (0, 0, 0, 1)))
                rows, header, first = [], False, ""
            rows.append([first, *rest])
        if rows or header:
            parts.append(self.table(widths, rows, header))
        return parts

    def table(self, widths: list[int], rows: list[list[Cell]], header: bool) -> Table:
        """``rows`` as a table (under the headers when ``header``), each column ``widths``
        cells wide."""
        table = Table(box=box.HEAVY_HEAD if self.boxed else None, show_header=header,
                      header_style="bold")
        for column, width in zip(self.columns, widths):
            table.add_column(column.header, justify=column.justify, width=width,
                             overflow="fold")
        for row in rows:
            table.add_row(*(self.cell(i, cell) for i, cell in enumerate(row)))
        return table

    def blocks(self) -> list:
        """The rows for a narrow screen: each its first cell (when ``titled``), then one
        line per other cell that holds something (``header  value``), indented."""
        parts: list = []
        widest = max(cell_len(column.header) for column in self.columns)
        title = int(self.titled)
        for row in self.rows:
            first = row[0]
            if self.titled and plain(first):
                parts.append(Text(first, style="bold") if isinstance(first, str) else first)
            lines = Table.grid(padding=(0, 1))
            lines.add_column(style="dim", no_wrap=True, min_width=widest)
            lines.add_column(overflow="fold")
            for i in range(title, len(self.columns)):
                if plain(row[i]):
                    lines.add_row(self.columns[i].header, self.cell(i, row[i]))
            parts.append(Padding(lines, (0, 0, 0, 2)))
        return parts
