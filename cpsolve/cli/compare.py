"""``cpsolve compare``: every engine that applies, side by side — here, or one Dask task
per instance on a cluster.

Each model gets a budget (:class:`~cpsolve.workflows.batch.TaskBudget`): with
``--time-limit``, an equal share of what is left of the command's limit; without, the
default budget (:data:`~.arguments.AUTO_BUDGET`), so that a peer that knows no proof
(Fast Downward on an impossible model) never searches for ever; ``--time-limit none``:
no limit.  The model's engines share its budget (:func:`~cpsolve.workflows.batch.compare_model`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

from ..answers.result import Status
from ..engines import Options
from ..engines.runtime import interrupt
from ..workflows.batch import Compared, Item, TaskBudget, compare_model
from .session import INTERRUPTED, Named, file_name, pddl_pairs

if TYPE_CHECKING:
    from .session import Cli


VERDICTS = {"disagree": "[bold red]engines disagree[/]",
            "agree": "[green]all engines agree[/]",
            "interrupted": "[yellow]comparison interrupted: not every engine ran, so no "
                           "agreement is claimed[/]",
            "unanswered": "[yellow]no engine answered within the limits: nothing to "
                          "compare[/]"}
"""The last line of a comparison in text, by its JSON ``status``: engines that disagree
(whatever else happened), a comparison interrupted by Ctrl-C or SIGTERM (what ran is in
the table, but agreement needs every engine), no answer from any engine on any model
(nothing was compared), or agreement."""


def compare(cli: Cli) -> int:
    """``compare``: each model through every engine that applies, its results cross-checked
    (exit 1 when engines disagree, 130 after Ctrl-C with what was compared)."""
    if cli.cluster():
        if pddl_pairs(cli.args.files):
            return cli.fail("compare on a cluster takes model files, directories and "
                             "collections; a PDDL domain and problems run here (drop "
                             "--workers / --scheduler)", 2)
        return compare_on_cluster(cli)
    items = _items(cli)
    from ..output.text import as_json  # noqa: F401 - now: after the engines, its import
    # (rich's) would take a loaded machine's tenths of a second past the limit
    if len(items) == 1 and items[0].error:  # one file, and it is bad: a bad command line
        return cli.fail(items[0].error, 1 if items[0].timed_out else 2)  # (or a limit)
    budget = TaskBudget(cli.clock, cli.auto_budget(), cli.tail())
    done: list[Compared] = []
    with interrupt.installed():
        for number, item in enumerate(items):
            if interrupt.requested():
                break
            if item.error or cli.clock.time_up():
                done.append(Compared(item.source, None,
                                     error=item.error or "not started: time limit reached"))
                continue
            seconds = budget.seconds(len(items) - number)
            done.append(compare_model(
                item, cli.args.task, None if seconds is None else max(seconds, 0.01),
                running=partial(_running, cli, item.puzzle.name)))
    failed = any(d.problems for d in done)
    verdict = "disagree" if failed else "interrupted" if interrupt.by_user() else \
        "agree" if any(answered(d) for d in done) else "unanswered"
    if cli.args.json:
        cli.emit({"status": verdict, "models": [compared_json(d) for d in done]})
    else:
        from ..output.text import comparison_table

        cli.out.print(comparison_table([row for d in done for row in table_rows(d)]))
        cli.out.print(VERDICTS[verdict])
        for d in done:
            if not d.error and not answered(d):
                why = "before the interruption" if verdict == "interrupted" else \
                    "within the limits"
                print(f"{d.source}: no engine answered {why}", file=sys.stderr)
    if interrupt.by_user():
        return INTERRUPTED
    if failed or any(d.error or not answered(d) for d in done):
        return 1
    return 0


@contextmanager
def _running(cli: Cli, name: str, engine: str) -> Iterator[Options]:
    """One engine of ``compare`` under way: its progress line, and the command's clock,
    which stops it shortly after the limit if it does not stop itself (an engine whose
    import takes the time that is left: :class:`TimeUp`)."""
    with cli.progress(f"{name}: {engine}") as options, \
            cli.clock.guard(f"running {engine}", cli.clock.grace()):
        yield options


def _items(cli: Cli) -> list[Item]:
    """What ``compare`` was given, as ``solve`` takes it: model files, bundled names,
    directories and collections (one item each instance, a bad file an item of its own),
    or a PDDL domain and problems; loaded within the time limit."""
    from ..workflows.batch import instances

    pairs = pddl_pairs(cli.args.files)
    if pairs:
        return [Item(file_name(pair), cli.load(pair)) for pair in pairs]
    return list(instances(cli.args.files, cli.loading))


def answered(done: Compared) -> bool:
    """Some engine answered (not every result cut short by a limit)."""
    return any(r.status not in (Status.UNKNOWN, Status.PARTIAL) for r in done.results)


def compare_on_cluster(cli: Cli) -> int:
    """``compare`` with one Dask task per instance, each within its budget: a JSON line
    (or table rows) per instance as it finishes, then always a summary (also at the time
    limit and after Ctrl-C)."""
    import time
    from functools import partial

    from ..workflows.batch import compare_one, instances, on_cluster

    start = time.monotonic()
    items = list(instances(cli.args.files, cli.loading))
    cli.import_dask()
    rows: list = []
    counts = {"agree": 0, "disagree": 0, "error": 0}
    unanswered = 0
    work = partial(compare_one, task=cli.args.task,
                   options=Options(find_hint=not cli.args.no_hint,
                                   encoding="time-indexed" if cli.args.time_indexed else None))
    with cli.bar("comparing", len(items)) as advance, interrupt.installed():
        for done in on_cluster(items, work, cli.cluster(),
                               TaskBudget(cli.clock, cli.auto_budget(), cli.tail()), _failed):
            advance()
            counts["error" if done.error else "disagree" if done.problems else "agree"] += 1
            unanswered += not done.error and not answered(done)
            if cli.args.json:
                cli.line(compared_json(done))
            else:
                rows += table_rows(done)
    _summary(cli, len(items), time.monotonic() - start, counts, rows)
    if interrupt.by_user():
        return INTERRUPTED
    return 1 if counts["disagree"] or counts["error"] or unanswered else 0


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
