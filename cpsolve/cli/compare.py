"""``cpsolve compare``: every engine that applies, side by side — here, or one Dask task
per instance on a cluster."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..answers.result import Result, Unsupported
from ..engines import engines_for, not_applicable, run
from ..engines.runtime import interrupt
from ..engines.runtime.clock import Clock
from ..workflows.batch import by_invariant
from .session import INTERRUPTED, Named, file_name, pddl_pairs

if TYPE_CHECKING:
    from .session import Cli


def compare_on_cluster(cli: Cli) -> int:
    """``compare`` with one Dask task per instance: a JSON line (or table rows) per
    instance as it finishes, then a summary."""
    import time
    from functools import partial

    from rich.progress import Progress

    from ..output.text import as_json, comparison_table
    from ..workflows.batch import Compared, compare_one, instances, on_cluster

    start = time.monotonic()
    items = list(instances(cli.args.files))
    rows: list = []
    counts = {"agree": 0, "disagree": 0, "error": 0}
    with Progress(console=cli.err, transient=True) as bar:
        progress = bar.add_task("comparing", total=len(items))
        for done in on_cluster(items, partial(compare_one, task=cli.args.task),
                               cli.cluster(), cli.clock.left(),
                               lambda item, why: Compared(item.source, item.puzzle,
                                                          error=why)):
            bar.advance(progress)
            key = "error" if done.error else "disagree" if done.problems else "agree"
            counts[key] += 1
            if cli.args.json:
                line = {"source": done.source, "error": done.error} if done.error else {
                    "model": done.puzzle.name, "file": done.source,
                    "agree": not done.problems, "disagreements": list(done.problems),
                    "results": [as_json(done.puzzle, r) for r in done.results]}
                cli.line(line)
            elif done.error:
                rows.append((Named(done.source), f"error: {done.error}"))
            else:
                rows += [(done.puzzle, r) for r in done.results]
                rows += [(done.puzzle, f"DISAGREEMENT: {p}") for p in done.problems]
                rows += [(done.puzzle, s) for s in done.skipped]
    seconds = time.monotonic() - start
    if cli.args.json:
        cli.emit({"compare": {"instances": len(items), "seconds": round(seconds, 6),
                              **counts}})
    else:
        cli.out.print(comparison_table(rows))
        cli.out.print(f"{len(items):,} instances in {seconds:.2f} s on the cluster: "
                       f"{counts['agree']:,} agree, {counts['disagree']:,} disagree, "
                       f"{counts['error']:,} errors")
    return 1 if counts["disagree"] or counts["error"] else 0

def compare(cli: Cli) -> int:
    """``compare``: each model through every engine that applies, its results cross-checked
    (exit 1 when engines disagree)."""
    from ..answers.agreement import cross_check, disagreements
    from ..output.text import as_json, comparison_table

    if cli.cluster():
        if pddl_pairs(cli.args.files):
            return cli.fail("compare on a cluster takes model files, directories and "
                             "collections; a PDDL domain and problems run here (drop "
                             "--workers / --scheduler)", 2)
        return compare_on_cluster(cli)

    rows: list = []
    report, failed = [], False
    files = pddl_pairs(cli.args.files) or cli.args.files
    for number, name in enumerate(files):
        if interrupt.requested():
            break
        puzzle = cli.load(name)
        results: list[Result] = []
        proof = by_invariant(puzzle, cli.args.task)
        if proof is not None:
            rows.append((puzzle, proof))
            report.append({"model": puzzle.name, "file": file_name(name), "agree": True,
                           "results": [as_json(puzzle, proof)], "disagreements": []})
            continue
        skipped: list[str] = []
        engines = engines_for(puzzle.model, cli.args.task, peers=True)
        skipped += [f"{engine}: not applicable (cannot {cli.args.task} a "
                    f"{puzzle.model.kind} model)"
                    for engine in not_applicable(puzzle.model, cli.args.task)]
        # without --time-limit, each model gets the default budget (a peer such as Fast
        # Downward would otherwise search an impossible model for ever)
        per_model = None if cli.args.time_limit is not None else Clock(cli.auto_budget())
        for i, engine in enumerate(engines):
            # the limit is for the whole command: each run gets an equal share of what
            # is left, counting the runs still to come on this model and the later models
            runs_left = (len(engines) - i) + (len(files) - number - 1) * len(engines)
            share = per_model.share(len(engines) - i) if per_model else \
                cli.clock.share(runs_left)
            try:
                with cli.progress(f"{puzzle.name}: {engine}") as options:
                    options = dataclasses.replace(options, time_limit=share)
                    results.append(run(engine, cli.args.task, puzzle.model, options))
            except Unsupported as err:
                skipped.append(f"{engine}: {err}")
            if interrupt.requested():
                break
        problems = disagreements(results)
        if not problems:
            results = cross_check(results)
        rows += [(puzzle, r) for r in results] + [(puzzle, s) for s in skipped]
        failed |= bool(problems)
        report.append({"model": puzzle.name, "file": file_name(name),
                       "results": [as_json(puzzle, r) for r in results],
                       "agree": not problems, "disagreements": problems})
        for problem in problems:
            rows.append((puzzle, f"DISAGREEMENT: {problem}"))
    if cli.args.json:
        cli.emit({"status": "disagree" if failed else "agree", "models": report})
    else:
        cli.out.print(comparison_table(rows))
        cli.out.print("[bold red]engines disagree[/]" if failed
                       else "[green]all engines agree[/]")
    if interrupt.by_user():
        return INTERRUPTED
    return 1 if failed else 0
