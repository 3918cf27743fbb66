"""Text and JSON for ``count --up-to`` and ``generate`` (the CLI prints them)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rich.console import Group
from rich.text import Text

from ..answers.result import Result
from ..answers.words import plural
from ..model.symmetry.canonical import Symmetry
from ..puzzles import widths
from ..puzzles.base import Puzzle
from ..workflows.grids.counting import has_givens
from ..workflows.grids.generated import Generation
from ..workflows.grids.generator import both
from .json import details_json
from .prose import Prose, items
from .shown import Lines
from .text import Board, as_json, check_text, status_text

GAP = "   "

ROWS = 8
"""Rows of boards drawn (and printed) at a time: a Ctrl-C while tens of thousands are
written stops the output between two such pieces."""

EVERY = 256
"""Puzzles written out to JSON between two looks at whether to stop."""


def human_classes(puzzle: Puzzle, result: Result) -> Group:
    """A class count: the headline, what was counted, representatives on request."""
    total = result.details.get("total")
    counted = plural(result.count, "class") + (f" ({plural(total, 'solution')})" if total
                                               else "")
    parts: list[Any] = [items([Text(puzzle.name, style="bold"), f"[{result.engine}]",
                               status_text(result), counted, f"{result.seconds:.3f} s",
                               check_text(result)])]
    if result.message:
        parts.append(Prose(Text(result.message, style="dim")))
    for i, s in enumerate(result.solutions or (), start=1):
        parts.append(Board(puzzle.render_solution(s), f"class {i}"))
    return Group(*parts)


def json_classes(puzzle: Puzzle, result: Result) -> dict[str, Any]:
    """A class count as JSON: ``count`` is the number of classes, ``total`` of solutions."""
    out = as_json(puzzle, result)
    out["up_to"] = result.details.get("up_to")
    out["total"] = result.details.get("total")
    return out


def tile(boards: list[tuple[str, str]], width: int) -> str:
    """Boards (label, text) side by side, as many per row as ``width`` allows."""
    if not boards:
        return ""
    cells = [[label, *text.splitlines()] for label, text in boards]
    w = max(widths.cells(line) for c in cells for line in c)
    per_row = max(1, (width + len(GAP)) // (w + len(GAP)))
    out = []
    for i in range(0, len(cells), per_row):
        row = cells[i:i + per_row]
        height = max(len(c) for c in row)
        for j in range(height):
            out.append(GAP.join(widths.ljust(c[j] if j < len(c) else "", w) for c in row).rstrip())
        out.append("")
    return "\n".join(out).rstrip("\n")


def figures(gen: Generation) -> str:
    """One line of numbers for one number of givens (and, when it is short of what was
    asked, why)."""
    text = _figures(gen)
    return f"{text}; short: {gen.short}" if gen.short else text


def _figures(gen: Generation) -> str:
    k = gen.givens
    if gen.tally is None:
        if gen.method == "exhaustive":
            return f"{plural(k, 'given')}: no figures ({gen.message})"
        asked = gen.details.get("asked", len(gen.puzzles))
        return (f"{plural(k, 'given')}: {len(gen.puzzles):,} of {plural(asked, 'puzzle')} found "
                f"({gen.message})")
    t = gen.tally
    renamed = f"{t.renamed:,} up to renaming only; " if t.renamed is not None else ""
    text = (f"{plural(k, 'given')}: {plural(t.classes, 'puzzle')} up to symmetry ({renamed}"
            f"{t.labelled:,} with concrete symbols); {t.minimal:,} of them minimal")
    if gen.method == "random":
        text += f"; {len(gen.puzzles):,} drawn at random"
    return text


def human_generation(puzzle: Puzzle, sym: Symmetry, gens: list[Generation], engine: str,
                     boards: bool, width: int) -> Iterator[Any]:
    """Figures per number of givens, and the puzzles drawn as boards: the pieces to print
    one after the other (boards a few rows at a time, drawn as they are printed, as
    :class:`Lines` that fit the width: to be printed as they are, not wrapped again)."""
    yield Text(f"{puzzle.name}  [{engine}]  puzzles with a unique solution", style="bold")
    yield Text(f"Up to symmetry: {sym.describe()}.", style="dim")
    if has_givens(puzzle.model):
        yield Text("The file's own givens are ignored: puzzles are made on its empty board.",
                   style="dim")
    for gen in gens:
        line = Text(figures(gen))
        line.append(f"  {gen.seconds:.3f} s")
        line.append_text(_recheck_text(gen))
        yield line
        if boards and gen.puzzles:
            yield from _boards(puzzle, gen, width)


def _recheck_text(gen: Generation) -> Text:
    """What the second engine re-solved, in words: every puzzle, some, or none (no puzzle
    made, or the check stopped before the first: a check of nothing is no cross-check);
    nothing without a check."""
    checker = gen.details.get("checked_by")
    checked = sum(1 for p in gen.puzzles if p.checked)
    if not checker:
        return Text()
    if not checked:
        return Text(f"  nothing re-solved by {checker}", style="dim")
    if checked == len(gen.puzzles):
        return Text(f"  each re-solved by {checker}: unique", style="green")
    return Text(f"  {checked:,} re-solved by {checker}: unique", style="green")


def cross_checked_by(gen: Generation) -> list[str]:
    """The engine that re-solved every puzzle of ``gen`` and found each unique, as a list
    (``[]``: no check, no puzzle to re-solve, or not every one re-solved)."""
    checker = gen.details.get("checked_by")
    every = bool(gen.puzzles) and all(p.checked for p in gen.puzzles)
    return [str(checker)] if checker and every else []


def _boards(puzzle: Puzzle, gen: Generation, width: int) -> Iterator[Lines]:
    """A generation's puzzles drawn side by side, :data:`ROWS` rows of boards at a time."""
    first = gen.puzzles[0]
    board = _drawn(puzzle, first.givens).splitlines()
    w = max([widths.cells(line) for line in board] + [len(f"#{len(gen.puzzles)} minimal")])
    step = ROWS * max(1, (width + len(GAP)) // (w + len(GAP)))
    for start in range(0, len(gen.puzzles), step):
        labels = [(f"#{i}" + (" minimal" if p.minimal else ""), _drawn(puzzle, p.givens))
                  for i, p in enumerate(gen.puzzles[start:start + step], start=start + 1)]
        yield Lines(tile(labels, width) if start == 0 else "\n" + tile(labels, width))


def _drawn(puzzle: Puzzle, givens: dict[str, int]) -> str:
    """A generated puzzle's givens drawn as the family draws a solution, or as
    ``name = value`` lines when its drawing needs every variable (a model's ``show``)."""
    try:
        return puzzle.render_solution(givens)
    except (KeyError, IndexError, TypeError):
        return "\n".join(f"{name} = {value}" for name, value in givens.items())


def _json_givens(puzzle: Puzzle, givens: dict[str, int]) -> Any:
    """A generated puzzle's givens as the family writes a solution, or a name -> value
    object when that needs every variable."""
    try:
        return puzzle.json_solution(givens)
    except (KeyError, IndexError, TypeError):
        return dict(givens)


def json_generation(puzzle: Puzzle, sym: Symmetry, gens: list[Generation],
                    engine: str, boards: bool,
                    stop: Callable[[], str] = lambda: "") -> dict[str, Any]:
    """Everything about a generation, for programs.  ``stop`` (asked between puzzles, says
    why to stop or ``""``) can end the list of puzzles early: ``short`` then says so."""
    out: dict[str, Any] = {
        "model": puzzle.name, "family": puzzle.family, "task": "generate", "engine": engine,
        "symmetry": {"board": list(sym.names), "relabel": sym.relabel},
        "givens": [],
    }
    for gen in gens:
        item: dict[str, Any] = {"givens": gen.givens, "method": gen.method,
                                "seconds": round(gen.seconds, 6), "message": gen.message,
                                "drawn": len(gen.puzzles), "short": gen.short or None}
        if gen.tally is not None:
            t = gen.tally
            item.update(classes=t.classes, minimal=t.minimal, renamed=t.renamed,
                        labelled=t.labelled)
        item["cross_checked_by"] = cross_checked_by(gen)
        item["details"] = details_json({k: v for k, v in gen.details.items()
                                        if k != "checked_by"})
        if boards:
            item["puzzles"], why = _json_puzzles(puzzle, gen, stop)
            if why:
                cut = (f"{why} while the puzzles were being written: {len(item['puzzles']):,} "
                       f"of {len(gen.puzzles):,} listed")
                item["short"] = both(gen.short, cut)
        out["givens"].append(item)
    return out


def _json_puzzles(puzzle: Puzzle, gen: Generation,
                  stop: Callable[[], str]) -> tuple[list[dict[str, Any]], str]:
    """A generation's puzzles as JSON, and why the list stops early (``""``: it does not)."""
    out: list[dict[str, Any]] = []
    for p in gen.puzzles:
        if len(out) % EVERY == 0 and (why := stop()):
            return out, why
        out.append({"givens": _json_givens(puzzle, p.givens),
                    "solution": puzzle.json_solution(p.solution),
                    "minimal": p.minimal, "checked": p.checked})
    return out, ""
