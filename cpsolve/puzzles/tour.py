"""Family ``tour``: leaper tours (knight's tours) as a circuit constraint.

    family = "tour"
    name = "Open knight's tour on 5x5 from a corner"
    board = '''
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    '''
    leaper = [1, 2]      # optional: any (a, b) leaper; the knight by default
    closed = false       # optional: a circuit (true, the default) or an open path
    start = [0, 0]       # optional, open tours only: the first square (row, col)
    clues = [[0, 0], [2, 2]]   # optional: the squares whose move ``generate`` may give

``.`` is a square to visit, ``x`` a blocked square (spaces between squares
are optional).  Squares are numbered row-major from 0.

The model is a :class:`~cpsolve.model.csp.Csp` with one successor variable per
square, whose allowed values are the squares one leap away, and one
:class:`~cpsolve.model.csp.Circuit`.  An open tour is a circuit through an extra
node (the last square leads to it, it leads to the first square).  A closed
tour has two directions; a symmetry-breaking condition keeps one of them
(the successor of square 0 is smaller than its predecessor), so counts are
"up to direction".  Open tours keep their direction: without ``start`` a
path and its reverse are two tours (1,728 on 5x5, twice 864 paths).  The
reference is ``docs/families/tour.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..answers.words import plural
from ..language.combine import And, Or
from ..language.expr import Var
from ..language.quoting import shown
from ..model import Csp
from .base import Puzzle, cell_name, indices
from .board_text import board_rows
from .data import Data

KEYS = {"family", "name", "description", "board", "leaper", "closed", "start", "clues"}


def succ(i: int) -> str:
    """Successor variable of node ``i``."""
    return f"next[{i}]"


@dataclass(frozen=True, kw_only=True)
class TourPuzzle(Puzzle):
    """Draws a tour as the board with the visiting order of each square.

    ``squares`` are the open squares ``(row, col)``, node ``i`` being
    ``squares[i]``; ``shape`` is ``(rows, columns)`` of the board picture.
    """

    squares: tuple[tuple[int, int], ...]
    shape: tuple[int, int]
    closed: bool
    leaper: tuple[int, int]

    def square_text(self, node: int) -> str:
        """Node ``node`` as people name its square, counted from 1: ``r4c4``; the end of
        an open tour (its extra node) ``the end``."""
        if 0 <= node < len(self.squares):
            return cell_name(self.squares[node])
        return "the end" if node == len(self.squares) and not self.closed else str(node)

    def variable_text(self, name: str) -> str:
        """``the leap from r4c4``; an open tour's extra node, ``the start``."""
        at = indices(name, "next")
        if at is None or not 0 <= at[0] <= len(self.squares):
            return name
        if at[0] == len(self.squares):
            return "the start" if not self.closed else name
        return f"the leap from {self.square_text(at[0])}"

    def value_text(self, name: str, value: int) -> str:
        """The square a leap lands on, ``r3c1`` (``the end`` for an open tour's last)."""
        return self.square_text(value) if indices(name, "next") is not None else str(value)

    def outside_text(self, name: str, value: int) -> str | None:
        """``r4c4 to r3c1 is not a knight's leap``; ``the tour cannot start on r2c3`` (an
        open tour with a ``start``); ``r4c4 is not the end of a closed tour``."""
        at, n = indices(name, "next"), len(self.squares)
        if at is None or not 0 <= at[0] <= n or not 0 <= value <= n:
            return None
        if at[0] == n:
            return f"the tour cannot start on {self.square_text(value)}"
        if value == n:
            return None if not self.closed else \
                f"{self.square_text(at[0])} is not the end of a closed tour"
        leap = "a knight's leap" if sorted(self.leaper) == [1, 2] else \
            f"a ({self.leaper[0]}, {self.leaper[1]}) leap"
        return f"{self.square_text(at[0])} to {self.square_text(value)} is not {leap}"

    def cycle_text(self, cycle: tuple[int, ...], total: int) -> str | None:
        """Leaps that come back to the first square (``r1c2``) before every square is
        visited: ``the leaps from r1c2 come back to it after 5 squares, not all 14``; an
        open tour's path through its end: ``the path ends after 4 squares, not all 25``."""
        n = len(self.squares)
        if n in cycle:
            return f"the path ends after {plural(len(cycle) - 1, 'square')}, not all {n:,}"
        return (f"the leaps from {self.square_text(0)} come back to it after "
                f"{plural(len(cycle), 'square')}, not all {n:,}")

    def message_text(self, result) -> str:
        """An engine's words on its circuit in the tour's: ``no open tour: no leap leads out
        of r2c2`` for ``no circuit: no arc leads out of node 4`` (node ``i`` is
        :meth:`square_text`'s ``i``; an open tour's circuit runs through its end; arcs are
        leaps); ``no closed tour exists`` for ``no solution exists`` and for a count's
        ``exactly 0 solutions`` (then with the engine's reason, when it has one)."""
        tour = "closed tour" if self.closed else "open tour"
        text = super().message_text(result)
        if result.task == "count" and result.none_exists:
            text = re.sub(r"^exactly 0 solutions\b", f"no {tour} exists", text)
        text = text.replace("no circuit", f"no {tour}").replace(
            "no solution exists", f"no {tour} exists")
        if self.closed:
            text = text.replace("a circuit alternates", "a closed tour alternates")
        text = re.sub(r"\bnode (\d+)\b", lambda m: self.square_text(int(m[1])), text)
        text = re.sub(r"\bnode(s?)\b", r"square\1", text)
        return re.sub(r"\barc(s?)\b", r"leap\1", text)

    def order(self, solution: Mapping[str, int]) -> list[int]:
        """The squares in visiting order (from square 0, or the path's start)."""
        squares = self.squares
        n = len(squares)
        node = n if not self.closed else 0
        out = []
        for _ in range(len(solution)):
            if node < n:
                out.append(node)
            node = solution[succ(node)]
            if node == (n if not self.closed else 0):
                break
        return out

    def _partial(self, solution: Mapping[str, int]) -> list[tuple[int, int]] | None:
        """The given moves (square index, next square index) of a partial assignment (a
        generated puzzle's givens); ``None`` for a whole tour."""
        n = len(self.squares)
        nodes = n if self.closed else n + 1
        if all(succ(k) in solution for k in range(nodes)):
            return None
        return [(k, solution[succ(k)]) for k in range(nodes) if succ(k) in solution]

    def render_solution(self, solution: Mapping[str, int]) -> str:
        given = self._partial(solution)
        squares = self.squares
        if given is not None:  # the moves a puzzle gives: "(row, col) -> (row, col)"
            def where(k: int) -> str:
                return str(squares[k]) if k < len(squares) else "end"
            return "given moves: " + (", ".join(f"{where(a)} -> {where(b)}" for a, b in given)
                                      or "none")
        rows, cols = self.shape
        step = {squares[node]: k + 1 for k, node in enumerate(self.order(solution))}
        width = len(str(len(squares)))
        lines = []
        for r in range(rows):
            cells = [str(step[(r, c)]).rjust(width) if (r, c) in step else "x".rjust(width)
                     for c in range(cols)]
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def json_solution(self, solution: Mapping[str, int]) -> Any:
        squares = self.squares
        given = self._partial(solution)
        if given is not None:
            return {"moves": [[list(squares[a]) if a < len(squares) else None,
                               list(squares[b]) if b < len(squares) else None]
                              for a, b in given], "closed": self.closed}
        return {"tour": [list(squares[node]) for node in self.order(solution)],
                "closed": self.closed}

    def read_solution(self, written: Any) -> dict[str, int]:
        """A JSON assignment, ``--json``'s ``{"tour": [[row, col], ...]}``, or the board
        with each square's visiting number (text, its frame in box lines or ASCII; ``x`` a
        blocked square)."""
        if isinstance(written, dict) and "tour" in written:
            path = written["tour"]
            if not isinstance(path, list) or not all(
                    isinstance(sq, list) and len(sq) == 2 for sq in path):
                raise ValueError("\"tour\" is not a list of [row, col] squares")
            return self._successors([tuple(sq) for sq in path])
        if isinstance(written, dict):
            return super().read_solution(written)
        if not isinstance(written, str):
            raise ValueError("expected the board with visiting numbers, or JSON")
        return self._successors(self._read_board(written))

    def _read_board(self, text: str) -> list[tuple[int, int]]:
        """The squares in visiting order, from the first board of numbers in ``text`` (its
        frame skipped): the board's shape, ``x`` on its blocked squares and on no other,
        and each of the visiting numbers ``1..N`` once, else a ``ValueError`` says where."""
        n = len(self.squares)
        blocked = ", x on a blocked square" if self.shape[0] * self.shape[1] > n else ""
        rows = board_rows(text.splitlines(), self.shape,
                          lambda t: t == "x" or (t.isascii() and t.isdigit()),
                          f"the visiting numbers 1 to {n}{blocked}", "square")
        open_squares = set(self.squares)
        at: dict[int, tuple[int, int]] = {}  # the square of each visiting number
        for r, row in enumerate(rows):
            for c, t in enumerate(row):
                where = cell_name((r, c))
                if (t == "x") == ((r, c) in open_squares):
                    raise ValueError(f"{where} holds {t}, but it is "
                                     + ("a square to visit" if t == "x" else "blocked (x)"))
                if t == "x":
                    continue
                k = int(t)
                if not 1 <= k <= n:
                    raise ValueError(f"{where} holds {t}: the visiting numbers are 1 to {n}")
                if at.setdefault(k, (r, c)) != (r, c):
                    raise ValueError(f"{k} is written twice, on {cell_name(at[k])} and {where}")
        return [at[k] for k in range(1, n + 1)]

    def _successors(self, path: list[tuple[int, int]]) -> dict[str, int]:
        """The successor variables of a path of squares (visited in this order)."""
        index = {sq: i for i, sq in enumerate(self.squares)}
        unknown = [sq for sq in path if sq not in index]
        if unknown:
            raise ValueError(f"square {list(unknown[0])} is not an open square of the board")
        nodes = [index[sq] for sq in path]
        if not nodes:
            raise ValueError("the tour visits no square")
        if len(set(nodes)) < len(nodes):
            twice = next(sq for k, sq in enumerate(path) if sq in path[:k])
            raise ValueError(f"square {list(twice)} comes twice in the tour")
        n = len(self.squares)
        if self.closed and 0 in nodes and _backwards(nodes):
            nodes.reverse()  # the same closed tour, in the one direction the model keeps
        out = {succ(a): b for a, b in zip(nodes, nodes[1:])}
        if self.closed:
            out[succ(nodes[-1])] = nodes[0]
        else:
            out[succ(nodes[-1])], out[succ(n)] = n, nodes[0]
        return out


def _backwards(nodes: list[int]) -> bool:
    """Whether the closed tour through ``nodes`` runs against the direction :func:`build`
    keeps of the two (square 0's successor smaller than its predecessor)."""
    at = nodes.index(0)
    return nodes[(at + 1) % len(nodes)] > nodes[at - 1]


def read_board(data: Data) -> list[list[bool]]:
    """The board picture as rows of open (True) / blocked (False) squares."""
    text = data.get("board", str)
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        cells = line.replace(" ", "")
        if not cells:
            continue
        bad = set(cells) - {".", "x"}
        if bad:
            raise data.error("board", f"line {number}: unknown square {shown(sorted(bad)[0])} "
                             "(use . for a square and x for a blocked one)")
        rows.append([ch == "." for ch in cells])
    if not rows:
        raise data.error("board", "the board is empty")
    if len({len(r) for r in rows}) != 1:
        raise data.error("board", "every row must have the same number of squares")
    return rows


def build(data: Data) -> TourPuzzle:
    """Build the circuit CSP of a ``tour`` file."""
    data.unknown_keys(KEYS)
    rows = read_board(data)
    leaper = data.items("leaper", int, [1, 2])
    if len(leaper) != 2 or not all(isinstance(v, int) and v >= 0 for v in leaper) \
            or leaper == [0, 0]:
        raise data.error("leaper", "expected [a, b] with a, b >= 0, not both 0; got "
                         f"{shown(leaper)}")
    closed = data.get("closed", bool, True)
    squares = [(r, c) for r, row in enumerate(rows) for c, ok in enumerate(row) if ok]
    if len(squares) < 2:
        raise data.error("board", "a tour needs at least two squares")
    index = {sq: i for i, sq in enumerate(squares)}
    moves = {i: sorted(index[t] for t in leaps(sq, leaper) if t in index)
             for i, sq in enumerate(squares)}
    start = data.get("start", list, None)
    if start is not None:
        if closed:
            raise data.error("start", "only an open tour (closed = false) has a start square")
        if len(start) != 2 or not all(type(v) is int for v in start) or tuple(start) not in index:
            raise data.error("start", f"{shown(start)} is not an open square of the board")
    csp = Csp(data.get("name", str, "tour"))
    n = len(squares)
    for i in range(n):
        csp.add_variable(succ(i), 0, n)
        allowed = moves[i] + ([] if closed else [n])
        csp.restrict(succ(i), allowed or [i])  # no move at all: only a self-loop, never valid
    names = [succ(i) for i in range(n)]
    if not closed:
        csp.add_variable(succ(n), 0, n - 1)
        csp.restrict(succ(n), [index[tuple(start)]] if start else range(n))
        names.append(succ(n))
    csp.circuit(names, "tour")
    _clues(data, csp, index)
    if closed and len(moves[0]) >= 2:
        # one direction only: square 0's successor is smaller than its predecessor
        csp.require(And(*(Or(Var(succ(b)) != 0, Var(succ(0)) < b) for b in moves[0])),
                    "one direction of each closed tour")
    return TourPuzzle(csp.name, "tour", csp, data.get("description", str, ""),
                      "a tour visits every square once by leaps"
                      + (" and returns to its first square" if closed else ""),
                      squares=tuple(squares), shape=(len(rows), len(rows[0])),
                      closed=closed, leaper=(leaper[0], leaper[1]))


def _clues(data: Data, csp: Csp, index: Mapping[tuple[int, int], int]) -> None:
    """``clues``: the squares (row, col) whose move a generated puzzle may give."""
    clues = data.get("clues", list, None)
    if clues is None:
        return
    for sq in clues:
        if not (isinstance(sq, list) and len(sq) == 2 and all(type(v) is int for v in sq)
                and tuple(sq) in index):
            raise data.error("clues", f"{shown(sq)} is not an open square [row, col] of the board")
    if not clues:
        raise data.error("clues", "no clue squares: name at least one, or leave clues out "
                                  "(every square's move may be given)")
    csp.declare_clues(succ(index[(sq[0], sq[1])]) for sq in clues)


def leaps(square: tuple[int, int], leaper: list[int]) -> set[tuple[int, int]]:
    """Squares one (a, b)-leap away from ``square`` (ignoring the board)."""
    a, b = leaper
    r, c = square
    out = set()
    for da, db in ((a, b), (b, a)):
        for sr in (1, -1):
            for sc in (1, -1):
                out.add((r + sr * da, c + sc * db))
    out.discard(square)
    return out
