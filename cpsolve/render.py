"""Turning results into text for people (rich) and objects for programs (``--json``)."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .compare import answer_of
from .model import Planning
from .puzzles.base import Puzzle
from .result import Result, Status

STATUS_STYLE = {
    Status.OPTIMAL: "bold green",
    Status.SOLVED: "green",
    Status.INFEASIBLE: "bold yellow",
    Status.UNKNOWN: "bold red",
}

STATUS_WORDS = {
    Status.OPTIMAL: "optimal (proven)",
    Status.SOLVED: "solved (not proven optimal)",
    Status.INFEASIBLE: "infeasible (proven)",
    Status.UNKNOWN: "unknown (a limit was hit)",
}


def status_text(result: Result) -> Text:
    """The status in words, coloured."""
    words = STATUS_WORDS[result.status]
    if result.task in ("count", "analyze") and result.status is Status.OPTIMAL:
        words = "exact"
    elif result.task in ("count",) and result.status is Status.SOLVED:
        words = "stopped at the limit"
    elif result.plan is None and result.status is Status.SOLVED:
        words = "solved"
    return Text(words, style=STATUS_STYLE[result.status])


def headline(puzzle: Puzzle, result: Result) -> Text:
    """One line: model, engine, status, answer, time, check."""
    text = Text()
    text.append(puzzle.name, style="bold")
    text.append(f"  [{result.engine}]  ")
    text.append_text(status_text(result))
    if result.found or result.count is not None:
        text.append(f"  {answer_of(result)}")
    text.append(f"  {result.seconds:.3f} s")
    if result.verified:
        text.append("  verified", style="green")
    return text


def human(puzzle: Puzzle, result: Result) -> Group:
    """Everything a person wants to see about one result."""
    parts: list[Any] = [headline(puzzle, result)]
    if result.message:
        parts.append(Text(result.message, style="dim"))
    if result.plan is not None:
        parts.append(Text(f"Metric: {puzzle.metric}.", style="dim"))
        parts.append(plan_view(puzzle, result))
        summary = puzzle.plan_summary(result.plan)
        if summary:
            parts.append(Text(summary))
    if result.solution is not None:
        parts.append(Panel(Text(puzzle.render_solution(result.solution)), title="solution",
                           expand=False))
        if result.unique is True:
            parts.append(Text("The solution is unique.", style="bold green"))
        elif result.second is not None:
            parts.append(Text("The solution is not unique; a second one:", style="yellow"))
            parts.append(Panel(Text(puzzle.render_solution(result.second)), title="another",
                               expand=False))
    if result.solutions:
        for i, s in enumerate(result.solutions, start=1):
            parts.append(Panel(Text(puzzle.render_solution(s)), title=f"#{i}", expand=False))
    if result.plans:
        parts.append(plans_view(puzzle, result))
    if result.layers is not None:
        parts.append(analysis_table(puzzle, result))
    return Group(*parts)


def plans_view(puzzle: Puzzle, result: Result) -> Group:
    """Counted plans, one per row, in the puzzle's notation."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(justify="right", no_wrap=True)
    table.add_column()
    for i, plan in enumerate(result.plans or (), start=1):
        table.add_row(f"{i}.", Text(puzzle.plan_line(plan)))
    return Group(Text(f"Metric: {puzzle.metric}.", style="dim"), table)


def plan_view(puzzle: Puzzle, result: Result) -> Table | Columns:
    """Boards side by side when states are drawn on several lines, else a table."""
    model = puzzle.model
    assert isinstance(model, Planning)
    if "\n" not in puzzle.render_state(model.initial_state()):
        return plan_table(puzzle, result)
    show_cost = not model.unit_costs()
    boxes = [Text(f"start\n{puzzle.render_state(model.initial_state())}")]
    for i, step in enumerate(result.plan or (), start=1):
        cost = f" (cost {step.cost})" if show_cost else ""
        head = Text(f"{i}. ", style="dim")
        head.append(puzzle.step_text(step) + cost, style="bold")
        boxes.append(Text.assemble(head, "\n", puzzle.render_state(step.state)))
    return Columns(boxes, padding=(1, 3))


def plan_table(puzzle: Puzzle, result: Result) -> Table:
    """The plan step by step, from the start state."""
    model = puzzle.model
    assert isinstance(model, Planning)
    table = Table(show_header=True, header_style="bold", box=None)
    table.add_column("step", justify="right")
    table.add_column("action")
    table.add_column("state")
    show_cost = not model.unit_costs()
    if show_cost:
        table.add_column("cost", justify="right")
    start = [str(0), "start", Text(puzzle.render_state(model.initial_state()))]
    table.add_row(*start, *([""] if show_cost else []))
    for i, step in enumerate(result.plan or (), start=1):
        row = [str(i), Text(puzzle.step_text(step)), Text(puzzle.render_state(step.state))]
        table.add_row(*row, *([str(step.cost)] if show_cost else []))
    return table


def analysis_table(puzzle: Puzzle, result: Result) -> Group:
    """State-space figures: per-distance counts and the farthest states."""
    table = Table(title="states by distance", box=None)
    table.add_column("distance", justify="right")
    table.add_column("states", justify="right")
    for d, n in enumerate(result.layers or ()):
        table.add_row(str(d), f"{n:,}")
    parts: list[Any] = [table]
    if result.farthest:
        parts.append(Text(f"{len(result.farthest)} farthest state(s), at distance "
                          f"{result.max_distance}:", style="bold"))
        for state in result.farthest[:20]:
            parts.append(Panel(Text(puzzle.render_state(state)), expand=False))
        if len(result.farthest) > 20:
            parts.append(Text(f"... and {len(result.farthest) - 20} more"))
    return Group(*parts)


def comparison_table(rows: list[tuple[Puzzle, Result | str]]) -> Table:
    """Engines side by side: answer, status, time, check."""
    table = Table(show_header=True, header_style="bold")
    for col in ("model", "engine", "answer", "status", "seconds", "verified"):
        table.add_column(col, justify="right" if col == "seconds" else "left")
    for puzzle, result in rows:
        if isinstance(result, str):
            table.add_row(Text(puzzle.name), "", Text(result), "", "", "")
            continue
        table.add_row(Text(puzzle.name), result.engine, answer_of(result), status_text(result),
                      f"{result.seconds:.3f}", "yes" if result.verified else "-")
    return table


def as_json(puzzle: Puzzle, result: Result) -> dict[str, Any]:
    """One result as a JSON-ready object."""
    out: dict[str, Any] = {
        "model": puzzle.name,
        "family": puzzle.family,
        "task": result.task,
        "status": result.status.value,
        "engine": result.engine,
        "verified": bool(result.verified),
        "seconds": round(result.seconds, 6),
    }
    if result.plan is not None:
        out["metric"] = puzzle.metric
        out["moves"] = len(result.plan)
        out["cost"] = result.cost if result.cost is not None else len(result.plan)
        out["plan"] = [
            {"step": i, "action": puzzle.step_text(s), "cost": s.cost,
             "state": puzzle.json_state(s.state)}
            for i, s in enumerate(result.plan, start=1)
        ]
        out.update(puzzle.json_plan(result.plan))
    if result.solution is not None:
        out["solution"] = puzzle.json_solution(result.solution)
        out["unique"] = result.unique
        if result.second is not None:
            out["second"] = puzzle.json_solution(result.second)
    if result.count is not None:
        out["count"] = result.count
    if result.solutions is not None:
        out["solutions"] = [puzzle.json_solution(s) for s in result.solutions]
    if result.plan is None and result.cost is not None:
        out["cost"] = result.cost
    if result.plans is not None:
        out["metric"] = puzzle.metric
        out["plans"] = [{"actions": [puzzle.step_text(s) for s in plan],
                         "cost": sum(s.cost for s in plan), **puzzle.json_plan(plan)}
                        for plan in result.plans]
    if result.states is not None:
        out["states"] = result.states
        out["layers"] = list(result.layers or ())
        out["max_distance"] = result.max_distance
        out["farthest"] = [puzzle.json_state(s) for s in result.farthest or ()]
    for key in ("bound", "explored"):
        value = getattr(result, key)
        if value is not None:
            out[key] = value
    if result.message:
        out["message"] = result.message
    if result.details:
        out["details"] = {k: v for k, v in result.details.items()
                          if isinstance(v, (int, float, str, bool, list))}
    return out
