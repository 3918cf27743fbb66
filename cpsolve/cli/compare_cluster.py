"""``compare`` on a cluster: one Dask task per instance, each within its budget, a line
(or table rows) per instance as it finishes, then a summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..answers.words import plural
from ..engines import Options
from ..engines.runtime import interrupt
from ..engines.runtime.alarms import printing
from ..workflows.batch.budget import TaskBudget
from ..workflows.batch.comparing import Compared
from ..workflows.batch.items import Item
from .compare_checks import answered, cross_checked
from .compare_report import compared_json, table_rows, tell_bugs, warn_expected_once
from .session import INTERRUPTED
from .warn import warn_unsaved

if TYPE_CHECKING:
    from .session import Cli


def compare_on_cluster(cli: Cli) -> int:
    """``compare`` with one Dask task per instance, each within its budget: a JSON line
    (or table rows) per instance as it finishes, then always a summary (also at the time
    limit and after Ctrl-C)."""
    import time
    from functools import partial

    from ..workflows.batch.cluster import on_cluster
    from ..workflows.batch.comparing import compare_one
    from ..workflows.batch.items import instances

    start = time.monotonic()
    items = list(instances(cli.args.files, cli.loading))
    cli.import_dask()
    rows: list = []
    done_all: list[Compared] = []
    counts = {"agree": 0, "unchecked": 0, "disagree": 0, "error": 0}
    unanswered = 0
    work = partial(compare_one, task=cli.args.task,
                   options=Options(find_hint=not cli.args.no_hint,
                                   encoding="time-indexed" if cli.args.time_indexed else None,
                                   no_time_limit=cli.lifted()))
    with cli.bar("comparing", len(items)) as advance, interrupt.installed():
        for done in on_cluster(items, work, cli.cluster(),
                               TaskBudget(cli.clock, cli.auto_budget(), cli.tail()), _failed):
            advance()
            done_all.append(done)
            warn_expected_once(done)
            warn_unsaved(list(done.results), done.source)
            counts[_outcome(done)] += 1
            unanswered += not done.error and not answered(done)
            if cli.args.json:
                with printing():  # whole: the clock stops the next instances, not a line
                    cli.line(compared_json(done))
            else:
                rows += table_rows(done)
    with printing(answer=True):
        _summary(cli, len(items), time.monotonic() - start, counts, rows)
    from .batch import tell_bad, tell_refused

    tell_bad(items)  # each file that did not load: its line on stderr, as in solve, and
    tell_refused(done_all)  # each model the engines refused (an estimate over the cost)
    if tell_bugs(done_all):  # a bug in cpsolve, whatever else happened
        return 3
    if interrupt.by_user():
        return INTERRUPTED
    return 1 if counts["disagree"] or counts["error"] or unanswered else 0


def _outcome(done: Compared) -> str:
    """What a cluster compare counts an instance as: ``error`` (also an engine whose answer
    failed the check), ``disagree``, ``agree`` (cross-checked), or ``unchecked`` (fewer than
    two engines proved their answer)."""
    if done.error:
        return "error"
    if done.problems:
        return "disagree"
    return "error" if done.bugs else "agree" if cross_checked(done) else "unchecked"


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

    cli.out.print(comparison_table(rows), crop=False)  # its notes are whole lines
    cli.out.print(f"{plural(instances, 'instance')} in {seconds:.2f} s on the cluster: "
                   f"{counts['agree']:,} agree, {counts['unchecked']:,} not cross-checked, "
                   f"{counts['disagree']:,} disagree, {plural(counts['error'], 'error')}")
