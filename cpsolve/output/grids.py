"""Text and JSON for ``count --up-to`` and ``generate`` (the CLI prints them)."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text

from ..answers.result import Result
from ..answers.words import plural
from ..model.symmetry.canonical import Symmetry
from ..puzzles.base import Puzzle
from ..workflows.grids.counting import has_givens
from ..workflows.grids.generated import Generation
from .json import details_json
from .text import Board, as_json, check_text, status_text

GAP = "   "


def human_classes(puzzle: Puzzle, result: Result) -> Group:
    """A class count: the headline, what was counted, representatives on request."""
    line = Text()
    line.append(puzzle.name, style="bold")
    line.append(f"  [{result.engine}]  ")
    line.append_text(status_text(result))
    total = result.details.get("total")
    line.append(f"  {plural(result.count, 'class')}"
                + (f" ({plural(total, 'solution')})" if total else ""))
    line.append(f"  {result.seconds:.3f} s  ")
    line.append_text(check_text(result))
    parts: list[Any] = [line]
    if result.message:
        parts.append(Text(result.message, style="dim"))
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
    w = max(len(line) for c in cells for line in c)
    per_row = max(1, (width + len(GAP)) // (w + len(GAP)))
    out = []
    for i in range(0, len(cells), per_row):
        row = cells[i:i + per_row]
        height = max(len(c) for c in row)
        for j in range(height):
            out.append(GAP.join((c[j] if j < len(c) else "").ljust(w) for c in row).rstrip())
        out.append("")
    return "\n".join(out).rstrip("\n")


def figures(gen: Generation) -> str:
    """One line of numbers for one number of givens."""
    k = gen.givens
    if gen.tally is None:
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
                     boards: bool, width: int) -> Group:
    """Figures per number of givens, and the puzzles drawn as boards."""
    parts: list[Any] = [Text(f"{puzzle.name}  [{engine}]  puzzles with a unique solution",
                             style="bold"),
                        Text(f"Up to symmetry: {sym.describe()}.", style="dim")]
    if has_givens(puzzle.model):
        parts.append(Text("The file's own givens are ignored: puzzles are made on its empty "
                          "board.", style="dim"))
    for gen in gens:
        line = Text(figures(gen))
        line.append(f"  {gen.seconds:.3f} s")
        checker = gen.details.get("checked_by")
        if checker:
            line.append(f"  each re-solved by {checker}: unique", style="green")
        parts.append(line)
        if boards and gen.puzzles:
            labels = [(f"#{i}" + (" minimal" if p.minimal else ""),
                       _drawn(puzzle, p.givens))
                      for i, p in enumerate(gen.puzzles, start=1)]
            parts.append(Text(tile(labels, width)))
    return Group(*parts)


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
                    engine: str, boards: bool) -> dict[str, Any]:
    """Everything about a generation, for programs."""
    out: dict[str, Any] = {
        "model": puzzle.name, "family": puzzle.family, "task": "generate", "engine": engine,
        "symmetry": {"board": list(sym.names), "relabel": sym.relabel},
        "givens": [],
    }
    for gen in gens:
        item: dict[str, Any] = {"givens": gen.givens, "method": gen.method,
                                "seconds": round(gen.seconds, 6), "message": gen.message,
                                "drawn": len(gen.puzzles)}
        if gen.tally is not None:
            t = gen.tally
            item.update(classes=t.classes, minimal=t.minimal, renamed=t.renamed,
                        labelled=t.labelled)
        checker = gen.details.get("checked_by")
        item["cross_checked_by"] = [checker] if checker else []
        item["details"] = details_json({k: v for k, v in gen.details.items()
                                        if k != "checked_by"})
        if boards:
            item["puzzles"] = [{"givens": _json_givens(puzzle, p.givens),
                                "solution": puzzle.json_solution(p.solution),
                                "minimal": p.minimal, "checked": p.checked}
                               for p in gen.puzzles]
        out["givens"].append(item)
    return out
