"""``cpsolve compare``: every engine that applies, side by side — here, or one Dask task
per instance on a cluster.

Each model gets a budget (:class:`~cpsolve.workflows.batch.TaskBudget`): with
``--time-limit``, an equal share of what is left of the command's limit; without, the
default budget (:data:`~.arguments.AUTO_BUDGET`), so that a peer that knows no proof
(Fast Downward on an impossible model) never searches for ever; ``--time-limit none``:
no limit.  The model's engines share its budget (:func:`~cpsolve.workflows.batch.compare_model`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engines import Options
from ..engines.runtime import interrupt
from ..workflows.batch import Compared, Item, TaskBudget, compare_model
from .session import INTERRUPTED, Named, file_name, pddl_pairs

if TYPE_CHECKING:
    from .session import Cli


def compare(cli: Cli) -> int:
    """``compare``: each model through every engine that applies, its results cross-checked
    (exit 1 when engines disagree, 130 after Ctrl-C with what was compared)."""
    if cli.cluster():
        if pddl_pairs(cli.args.files):
            return cli.fail("compare on a cluster takes model files, directories and "
                             "collections; a PDDL domain and problems run here (drop "
                             "--workers / --scheduler)", 2)
        return compare_on_cluster(cli)
    files = pddl_pairs(cli.args.files) or cli.args.files
    budget = TaskBudget(cli.clock, cli.auto_budget())
    done: list[Compared] = []
    with interrupt.installed():
        for number, name in enumerate(files):
            if interrupt.requested():
                break
            puzzle = cli.load(name)
            seconds = budget.seconds(len(files) - number)
            done.append(compare_model(
                Item(file_name(name), puzzle), cli.args.task,
                None if seconds is None else max(seconds, 0.01),
                running=lambda engine, p=puzzle: cli.progress(f"{p.name}: {engine}")))
    failed = any(d.problems for d in done)
    if cli.args.json:
        cli.emit({"status": "disagree" if failed else "agree",
                  "models": [compared_json(d) for d in done]})
    else:
        from ..output.text import comparison_table

        cli.out.print(comparison_table([row for d in done for row in table_rows(d)]))
        cli.out.print("[bold red]engines disagree[/]" if failed
                       else "[green]all engines agree[/]")
    if interrupt.by_user():
        return INTERRUPTED
    return 1 if failed else 0


def compare_on_cluster(cli: Cli) -> int:
    """``compare`` with one Dask task per instance, each within its budget: a JSON line
    (or table rows) per instance as it finishes, then always a summary (also at the time
    limit and after Ctrl-C)."""
    import time
    from functools import partial

    from rich.progress import Progress

    from ..workflows.batch import compare_one, instances, on_cluster

    start = time.monotonic()
    items = list(instances(cli.args.files))
    rows: list = []
    counts = {"agree": 0, "disagree": 0, "error": 0}
    work = partial(compare_one, task=cli.args.task,
                   options=Options(find_hint=not cli.args.no_hint,
                                   encoding="time-indexed" if cli.args.time_indexed else None))
    with Progress(console=cli.err, transient=True) as bar, interrupt.installed():
        progress = bar.add_task("comparing", total=len(items))
        for done in on_cluster(items, work, cli.cluster(),
                               TaskBudget(cli.clock, cli.auto_budget()), _failed):
            bar.advance(progress)
            counts["error" if done.error else "disagree" if done.problems else "agree"] += 1
            if cli.args.json:
                cli.line(compared_json(done))
            else:
                rows += table_rows(done)
    _summary(cli, len(items), time.monotonic() - start, counts, rows)
    if interrupt.by_user():
        return INTERRUPTED
    return 1 if counts["disagree"] or counts["error"] else 0


def _failed(item: Item, why: str) -> Compared:
    """The stand-in for an instance whose task gave no comparison."""
    return Compared(item.source, item.puzzle, error=why)


def _summary(cli: Cli, instances: int, seconds: float, counts: dict[str, int],
             rows: list) -> None:
    """The last line of a cluster compare: JSON, or the table and one line of counts."""
    if cli.args.json:
        cli.emit({"compare": {"instances": instances, "seconds": round(seconds, 6),
                              **counts}})
        return
    from ..output.text import comparison_table

    cli.out.print(comparison_table(rows))
    cli.out.print(f"{instances:,} instances in {seconds:.2f} s on the cluster: "
                   f"{counts['agree']:,} agree, {counts['disagree']:,} disagree, "
                   f"{counts['error']:,} errors")


def compared_json(done: Compared) -> dict[str, Any]:
    """One compared instance as JSON: its results, disagreements and skipped engines (an
    instance with no comparison: its source and error)."""
    if done.error:
        return {"source": done.source, "error": done.error}
    from ..output.text import as_json

    return {"model": done.puzzle.name, "file": done.source, "agree": not done.problems,
            "disagreements": list(done.problems),
            "results": [as_json(done.puzzle, r) for r in done.results],
            "skipped": [{"engine": s.engine, "reason": s.why} for s in done.skipped]}


def table_rows(done: Compared) -> list[tuple]:
    """One compared instance as rows of the comparison table."""
    if done.error:
        return [(Named(done.source), f"error: {done.error}")]
    return [(done.puzzle, r) for r in done.results] + \
        [(done.puzzle, s) for s in done.skipped] + \
        [(done.puzzle, f"DISAGREEMENT: {p}") for p in done.problems]
