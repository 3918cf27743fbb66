"""Turning results into text for people (rich); :mod:`.json` does ``--json``.

Each answer type has its own drawing (:data:`DRAW`); nothing here tests
which fields a result happens to carry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Group
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..answers.agreement import answer_of, status_words
from ..answers.kinds import Analysis, Assignment, Count, Plan
from ..answers.result import Hint, Result, Skipped, Status
from ..answers.words import plural
from ..model import Planning
from ..puzzles.base import Puzzle
from .prose import Prose, each_lines, items
from .shown import Lines, escaped
from .tables import Column, Legible

if TYPE_CHECKING:
    from ..engines.auto import Confirmation, Race

STATUS_STYLE = {
    Status.OPTIMAL: "bold green",
    Status.SOLVED: "green",
    Status.INFEASIBLE: "bold yellow",
    Status.UNKNOWN: "bold red",
    Status.EXACT: "bold green",
    Status.AT_LEAST: "yellow",
    Status.COMPLETE: "bold green",
    Status.PARTIAL: "bold red",
}

ROW_STYLE = {"error": "bold red", "not started": "yellow"}
"""The style of a batch row without a result, by its status: an error, or not started (the
time limit or a stop came first)."""

DIRECTION_WORDS = {
    "start": "states reachable from the start, by distance from it",
    "goal": "states that can reach the goal, by distance to it",
}

ANALYSIS_CHOSEN_BY = {
    "external": "on disk: --work-dir, or by itself for a space too large for memory",
    "cluster": "on a Dask cluster: --workers or --scheduler",
    "bitmap": "--algorithm, or by itself for permutations of 12 or 13 values",
}
"""What chose an analysis other than ``--algorithm`` alone (numpy, python)."""


class Board:
    """A drawn board or solution in a box with an optional title, under an optional
    ``heading``; a board wider than the screen is printed without the box and unwrapped
    (print it with ``crop=False``), since a wrapped board cannot be read, under its heading,
    or without one its title (``solution:``): one label, not two in a row."""

    def __init__(self, drawing: str, title: str | None = None,
                 heading: Text | None = None) -> None:
        self.drawing, self.title, self.heading = drawing, title, heading

    def __rich_console__(self, console, options):
        width = max((cell_len(line) for line in self.drawing.splitlines()), default=0)
        if self.heading is not None:
            yield self.heading
        if width + 4 <= options.max_width:
            title = None if self.title is None else Text(self.title)  # not markup
            yield Panel(Lines(self.drawing), title=title, expand=False)
            return
        if self.title and self.heading is None:
            yield Text(f"{self.title}:", style="dim")
        yield Lines(self.drawing, no_wrap=True, overflow="ignore")


def status_text(result: Result) -> Text:
    """The status in words, coloured."""
    return Text(status_words(result), style=STATUS_STYLE[result.status])


def answer_words(puzzle: Puzzle, result: Result) -> str:
    """The answer in a few words, a plan in the family's metric, an analysis's distance
    in the family's unit."""
    if isinstance(result.answer, Plan):
        return puzzle.plan_words(result.answer.steps)
    return answer_of(result, puzzle.distance_unit)


def check_text(result: Result) -> Text:
    """What backs the answer: the checker, a proof, other engines."""
    text = Text()
    if result.verified:
        text.append("verified", style="green")
    elif result.verified is False:
        what = "a count" if isinstance(result.answer, Count) else "state counts"
        text.append(f"not re-checked ({what}: the checker cannot re-derive it)", style="dim")
    if result.proof:
        text.append(("; " if text else "") + f"proof: {result.proof}", style="yellow")
    if result.cross_checked_by:
        text.append(("; " if text else "") + "cross-checked by "
                    + ", ".join(result.cross_checked_by), style="green")
    return text


def headline(puzzle: Puzzle, result: Result) -> Prose:
    """One line: model, engine, status, answer, time, check; on a narrow screen it wraps
    between these items, never inside one that fits a line (``0.085 s`` whole)."""
    answer = answer_words(puzzle, result) if result.answer is not None else ""
    return items([Text(puzzle.name, style="bold"), f"[{result.engine}]", status_text(result),
                  answer, f"{result.seconds:.3f} s", check_text(result)])


def human(puzzle: Puzzle, result: Result) -> Group:
    """Everything a person wants to see about one result (each line wrapped as
    :class:`Prose`: a number stays with its unit)."""
    parts: list[Any] = [headline(puzzle, result)]
    if result.message and not _said_below(result):
        parts.append(Prose(Text(puzzle.message_text(result), style="dim")))
    if result.hint is not None:
        parts.append(Prose(Text(hint_text(result.hint), style="dim")))
    if "orbits" in result.details:
        parts.append(Prose(f"{result.details['orbits']:,} up to the model's "
                           f"{result.details['symmetries']} symmetries (counted one per "
                           "orbit; the table counts every state)"))
    if "encoding" in result.details:  # CP-SAT on a plan: time-indexed or transition graph
        parts.append(Prose(Text(f"CP-SAT model: {result.details['encoding']}.", style="dim")))
    if "patterns" in result.details:  # pattern databases: cached, built now, or partial
        parts.append(Prose(Text(f"Estimate: {result.details['patterns']}.", style="dim")))
    if isinstance(result.answer, Analysis) and "algorithm" in result.details:
        parts.append(Prose(Text(analysis_line(result.details), style="dim")))
    if result.answer is not None:
        parts.extend(DRAW[type(result.answer)](puzzle, result.answer))
    return Group(*parts)


def analysis_line(details: Mapping[str, Any]) -> str:
    """``Analysis: numpy (--algorithm).``: the analysis that ran, and what chose it."""
    algorithm = details["algorithm"]
    fallback = f" ({details['fallback']})" if details.get("fallback") else ""
    return f"Analysis: {algorithm} ({ANALYSIS_CHOSEN_BY.get(algorithm, '--algorithm')}){fallback}."


def _said_below(result: Result) -> bool:
    """The message only repeats a line the answer's drawing prints ("the solution is
    unique"), which is then not printed twice."""
    answer = result.answer
    return isinstance(answer, Assignment) and answer.unique is True and \
        result.message.strip(" .").lower() == "the solution is unique"


def hint_text(hint: Hint) -> str:
    """One line on the plan offered as an upper bound before the search, and its verdict."""
    if hint.steps is None:
        return f"Hint: {hint.source}, {hint.seconds:.3f} s: {hint.note}; solved without one."
    where = "given" if hint.source == "given" else \
        f"found by {hint.source} in {hint.seconds:.3f} s"
    if hint.verdict == "used":
        return f"Hint: a plan of {hint.steps} steps, {where}, taken as an upper bound only."
    if hint.verdict == "rejected":
        return f"Hint: a plan of {hint.steps} steps, {where}, ignored: {hint.note}."
    return f"Hint: a plan of {hint.steps} steps, {where}, offered but not replayed " \
           "(the engine answered without it)."


def hint_brief(hint: Hint) -> str:
    """:func:`hint_text` in a few words (a table cell)."""
    if hint.steps is None:
        return "hint: none found"
    word = {"used": "used", "rejected": "rejected"}.get(hint.verdict, "not replayed")
    return f"hint: {plural(hint.steps, 'step')}, {word}"


def draw_plan(puzzle: Puzzle, plan: Plan) -> list[Any]:
    """The metric, the plan step by step and the family's summary (a text a line, each
    escaped on its own, going on under its own indent when it wraps)."""
    parts: list[Any] = [Prose(Text(f"Metric: {puzzle.metric}.", style="dim")),
                        plan_view(puzzle, plan)]
    return parts + each_lines(puzzle.plan_summary(plan.steps))


def draw_assignment(puzzle: Puzzle, answer: Assignment) -> list[Any]:
    """The solution, and whether it is unique (a second one when not)."""
    parts: list[Any] = [Board(puzzle.render_solution(answer.values), "solution")]
    if answer.unique is True:
        parts.append(Text("The solution is unique.", style="bold green"))
    elif answer.second is not None:
        parts.append(Board(puzzle.render_solution(answer.second), "another",
                           Text("The solution is not unique; a second one:", style="yellow")))
    return parts


def draw_count(puzzle: Puzzle, answer: Count) -> list[Any]:
    """The listed solutions or plans."""
    parts: list[Any] = []
    for i, s in enumerate(answer.solutions or (), start=1):
        parts.append(solution_panel(puzzle, s, i))
    if answer.plans:
        rows = [(f"{i}.", Text(puzzle.plan_line(plan)))
                for i, plan in enumerate(answer.plans, start=1)]
        parts += [Text(f"Metric: {puzzle.metric}.", style="dim"),
                  Legible(PLANS_COLUMNS, rows, header=False)]
    return parts


PLANS_COLUMNS = (Column("plan", words=True, justify="right"), Column("actions"))
"""The listed plans of a count: each numbered, its actions on one line."""


def solution_panel(puzzle: Puzzle, values: Mapping[str, int], index: int) -> Board:
    """One listed solution, drawn, titled with its number."""
    return Board(puzzle.render_solution(values), f"#{index}")


def draw_analysis(puzzle: Puzzle, answer: Analysis) -> list[Any]:
    """State-space figures: the direction, per-distance counts, the farthest states."""
    unit = puzzle.distance_unit
    table = Table(box=None)  # its title on a line of its own: a narrow table would wrap it
    table.add_column(f"distance ({unit})", justify="right")
    table.add_column("states", justify="right")
    shown = _shown_layers(len(answer.layers))
    for d in shown:
        if d is None:
            table.add_row("...", "...")
        else:
            table.add_row(str(d), f"{answer.layers[d]:,}")
    parts: list[Any] = [Text(DIRECTION_WORDS[answer.direction], style="italic"), table]
    if len(shown) < len(answer.layers):
        parts.append(Text(f"{len(answer.layers):,} distances: the {NEAREST_LAYERS} nearest and "
                          f"the {FARTHEST_LAYERS} farthest shown (--json lists every one)",
                          style="dim"))
    if answer.farthest:
        parts.append(Text(f"{plural(len(answer.farthest), 'farthest state')}, at distance "
                          f"{answer.max_distance} {unit}:", style="bold"))
        for state in answer.farthest[:20]:
            parts.append(Board(puzzle.render_state(state)))
        if len(answer.farthest) > 20:
            parts.append(Text(f"... and {len(answer.farthest) - 20:,} more"))
    return parts


NEAREST_LAYERS = 30
FARTHEST_LAYERS = 20
"""An analysis' table of states by distance shows every distance up to the sum of these,
else the nearest and the farthest with ``...`` between (Tower of Hanoi with 12 discs: 4,096
distances)."""


def _shown_layers(count: int) -> list[int | None]:
    """The distances an analysis' table shows, ``None`` for the ones left out."""
    if count <= NEAREST_LAYERS + FARTHEST_LAYERS:
        return list(range(count))
    return [*range(NEAREST_LAYERS), None, *range(count - FARTHEST_LAYERS, count)]


DRAW: dict[type, Callable[[Puzzle, Any], list[Any]]] = {
    Plan: draw_plan,
    Assignment: draw_assignment,
    Count: draw_count,
    Analysis: draw_analysis,
}
"""How each answer type is drawn for people."""


def plan_view(puzzle: Puzzle, plan: Plan) -> Legible | Columns:
    """Boards side by side when states are drawn on several lines, else a table."""
    model = puzzle.model
    assert isinstance(model, Planning)
    if "\n" not in puzzle.render_state(model.initial_state()):
        return plan_table(puzzle, plan)
    show_cost = not model.unit_costs()
    boxes = [Lines(f"start\n{puzzle.render_state(model.initial_state())}")]
    for i, step in enumerate(plan.steps, start=1):
        cost = f" (cost {step.cost})" if show_cost else ""
        head = Text(f"{i}. ", style="dim")
        head.append(puzzle.step_text(step) + cost, style="bold")
        boxes.append(Lines(Text.assemble(head, "\n", puzzle.render_state(step.state))))
    return Columns(boxes, padding=(1, 3))


PLAN_COLUMNS = (Column("step", words=True, justify="right"), Column("action"),
                Column("state"), Column("cost", words=True, justify="right"))
"""The plan table's columns (``cost`` only when actions cost other than 1)."""


def plan_table(puzzle: Puzzle, plan: Plan) -> Legible:
    """The plan step by step, from the start state."""
    model = puzzle.model
    assert isinstance(model, Planning)
    show_cost = not model.unit_costs()
    rows = [[str(0), "start", Text(puzzle.render_state(model.initial_state())), ""]]
    for i, step in enumerate(plan.steps, start=1):
        rows.append([str(i), Text(puzzle.step_text(step)),
                     Text(puzzle.render_state(step.state)), str(step.cost)])
    width = len(PLAN_COLUMNS) if show_cost else len(PLAN_COLUMNS) - 1
    return Legible(PLAN_COLUMNS[:width], [row[:width] for row in rows])


COMPARE_COLUMNS = (Column("model"), Column("engine", words=True), Column("answer"),
                   Column("status"), Column("seconds", words=True, justify="right"),
                   Column("checked"))
"""The comparison's columns: an engine's name and a time are never wrapped nor cut."""


CUT_SHORT = (Status.UNKNOWN, Status.PARTIAL, Status.AT_LEAST)
"""The statuses of a result a stop cut short: its row in the comparison says why (its
``message``: the time limit reached, the engine not started in the time left, Ctrl-C), as
it does for an answer a stop left unproven (:func:`stopped_with_answer`)."""


def stopped_with_answer(result: Result) -> bool:
    """A limit or a stop ended the run once it had an answer, not proven best: a solved
    result with the bound proven so far (its ``message`` says which limit)."""
    return result.status is Status.SOLVED and result.bound is not None


def comparison_table(rows: list[tuple[Puzzle, Result | Skipped | str]]) -> Group:
    """Engines side by side: answer, status, time, check (and the hint a result had, and why
    one was cut short); an engine that did not run, and why.  A note on a model (a
    disagreement, an error) is a line of its own under the table, whole at any width:
    ``model: note``, never wrapped (print the group with ``crop=False``): one line, as
    cpsolve's every error, whose paths copy and paste whole.  The rows of one model go
    under its name, without a model column."""
    cells: list[list[Any]] = []
    notes: list[Text] = []
    models: list[Puzzle] = []  # each model once, in order (two files may share a name)
    for puzzle, result in rows:
        first = not models or models[-1] is not puzzle
        if isinstance(result, str):  # a disagreement, or an error
            note = Text.assemble((puzzle.name, "bold"), ": ", result) if puzzle.name \
                else Text(result)
            note.no_wrap, note.overflow = True, "ignore"
            notes.append(note)
            continue
        models += [puzzle] if first else []
        name = Text(puzzle.name) if first else ""  # a model's name on its first row only
        if isinstance(result, Skipped):
            cells.append([name, result.engine, Text(result.why), "", "", ""])
        else:
            cells.extend(_compared_cells(name, puzzle, result))
    if len({id(puzzle) for puzzle in models}) == 1:  # one model: its name above the table,
        table = [Text(models[0].name, style="bold"),  # its width for the other columns; as
                 Legible(COMPARE_COLUMNS[1:], [row[1:] for row in cells], boxed=True,
                         titled=False)]  # blocks, ``engine  cpsat`` as with several models
        return Group(*table, *notes)
    table = [Legible(COMPARE_COLUMNS, cells, boxed=True)] if cells else []
    return Group(*table, *notes)


def _compared_cells(name: Text | str, puzzle: Puzzle, result: Result) -> list[list[Any]]:
    """One engine's row of the comparison (``name``: its model column), and the hint it
    had under it."""
    answer = answer_words(puzzle, result) if result.answer is not None \
        else answer_of(result)
    cells = [[name, result.engine, Text(answer), status_text(result),
              f"{result.seconds:.3f}", check_text(result)]]
    if result.message and (result.status in CUT_SHORT or stopped_with_answer(result)):
        cells.append(["", "", Text(result.message, style="dim"), "", "", ""])
    if result.hint is not None:  # the plan that bounded this engine's proof
        cells.append(["", "", Text(hint_brief(result.hint), style="dim"), "", "", ""])
    return cells


def as_json(puzzle: Puzzle, result: Result) -> dict[str, Any]:
    """One result as a JSON-ready object (see :mod:`.json`)."""
    from .json import result_json

    return result_json(puzzle, result)


BATCH_SECONDS = 8
"""The widest time a batch row shows (``1234.567``)."""


def batch_columns(sources: list[str], engines: list[str]) -> tuple[Column, ...]:
    """The batch table's columns, laid out before any instance is solved (its rows are
    printed as they come): the instance as wide as the longest of ``sources`` (a file name
    is a word: never cut), the engine as the longest of ``engines`` (those that can
    answer), the status as the longest status; on a narrow screen the answer and check
    wrap, the others never do, and the instance takes what the others leave it, a name
    wider than that on a line of its own above its row (a screen too narrow for the
    others gets blocks)."""
    statuses = [status.value.replace("_", " ") for status in Status] + [*ROW_STYLE]
    return (Column("instance", words=True, spills=True,
                   width=max((cell_len(escaped(s)) for s in sources), default=0)),
            Column("engine", words=True, width=max(map(cell_len, engines), default=0)),
            Column("status", words=True, width=max(map(cell_len, statuses))),
            Column("answer"),
            Column("seconds", words=True, justify="right", width=BATCH_SECONDS),
            Column("check"))


def batch_head(columns: tuple[Column, ...]) -> Legible:
    """The batch table's headers (none on a screen too narrow for a table)."""
    return Legible(columns, [], fixed=True)


def batch_row(row, columns: tuple[Column, ...]) -> Legible | Group:
    """One instance's row of the batch table (its status in one word: the check column
    says what backs it), laid out as every other row.  A row without a result (an error,
    not started) says why on the line under it, indented, one line whatever its length (as
    cpsolve's every error: print it with ``crop=False``; a path in it copies whole): a
    message is never squeezed into a column; so does a row with a result and an error (an
    engine of ``auto`` whose answer failed the check, the other engine's answer kept), and
    one whose engines disagree (``auto``): each disagreement, as ``solve`` says it."""
    if row.result is None:
        status = row.status.replace("_", " ")
        cells = [Text(row.source), "", Text(status, style=ROW_STYLE[status]), "", "", ""]
        under = [Text(row.error, style=ROW_STYLE[status])]
    else:
        result = row.result
        cells = [Text(row.source), result.engine,
                 Text(result.status.value.replace("_", " "),
                      style=STATUS_STYLE[result.status]),
                 Text(answer_words(row.puzzle, result)), f"{result.seconds:.3f}",
                 check_text(result)]
        under = [Text(row.error, style=ROW_STYLE["error"])] if row.error else []
        under += [Text(f"DISAGREEMENT: {problem}", style="bold red")
                  for problem in row.disagreements]
    table = Legible(columns, [cells], header=False, fixed=True)
    return Group(table, *map(_whole_line, under)) if under else table


def _whole_line(line: Text) -> Text:
    """``line`` under a batch row: indented, never wrapped (the terminal wraps it)."""
    return Text.assemble("   ", line, no_wrap=True, overflow="ignore")


def race_text(race: Race) -> Group:
    """One line per engine of an ``auto`` run: who answered, who confirmed, who ran out —
    a grid of engine, role and what it did, the last wrapping in its column; then the
    disagreements and the confirmation, each a line that keeps its indent when it wraps."""
    from .json import role

    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True, min_width=7)
    grid.add_column(style="dim", no_wrap=True, min_width=11)
    grid.add_column(style="dim")
    for c in race.checks:
        part = role(race, c.engine).replace("_", "-")
        what = (f"{answer_of(c.result)}, {c.result.seconds:.3f} s" if c.result else c.note)
        grid.add_row(c.engine, part, Prose(what))
    lines: list[Any] = [Padding(grid, (0, 0, 0, 2), expand=False)]
    lines += [Prose(Text(f"  DISAGREEMENT: {problem}", style="bold red"), hang=2)
              for problem in race.problems]
    if race.confirmation is not None:
        lines.append(Prose(Text(f"  {confirmation_words(race.confirmation)}", style="dim"),
                           hang=2))
    return Group(*lines)


def confirmation_words(c: Confirmation) -> str:
    """The cross-check of a proven answer in words: ``confirmed by cpsat``, ``not confirmed
    within 1.2 s (cpsat was stopped)``, ``not cross-checked`` (its proof was the winner's own
    code), or ``not confirmed by cpsat`` (it ended on its own without the same proof)."""
    if c.head_start is not None:
        return f"not cross-checked by {c.by} (--confirm races both from the start)"
    if c.confirmed:
        return f"confirmed by {c.by}"
    if c.same_proof:
        return f"not cross-checked: {c.by} proved it with the same code, not independently"
    if c.stopped:
        return f"not confirmed within {c.window:.1f} s ({c.by} was stopped)"
    return f"not confirmed by {c.by}"
