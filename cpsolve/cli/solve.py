"""``cpsolve solve``, ``count`` and ``analyze``: one model through one engine (or ``auto``'s
race), or a batch of instances (several files, a directory, a collection)."""

from __future__ import annotations

import json

from ..answers.result import Result
from ..engines import Options, run
from ..engines.runtime import interrupt
from ..puzzles.files import resolve
from ..words import plural
from ..workflows.batch import by_invariant
from .session import INTERRUPTED, Cli, exit_code, pddl_pairs, save


def solve(cli: Cli) -> int:
    """``solve``: one instance, a PDDL domain and problem, or a batch."""
    args = cli.args
    args.file = args.files[0]
    pairs = pddl_pairs(args.files)
    if pairs:
        if len(pairs) > 1:
            return cli.fail("solve takes one PDDL domain and one problem (compare "
                            "takes a domain and several problems)", 2)
        args.file = pairs[0]
    elif is_batch(cli):
        return batch(cli)
    if cli.cluster():
        return cli.fail("--workers and --scheduler run batches (several files, a "
                        "directory or a collection): one instance runs here", 2)
    return one(cli, "solve")


def count(cli: Cli) -> int:
    """``count``: solutions of a csp, or (``--optimal``) the optimal plans; ``--up-to``
    counts classes (:mod:`.grids`)."""
    if cli.args.up_to:
        from .grids import count_up_to

        return count_up_to(cli)
    return one(cli, "count")


def analyze(cli: Cli) -> int:
    """``analyze``: the state space of a planning model."""
    return one(cli, "analyze")


def one(cli: Cli, task: str) -> int:
    """``solve``, ``count`` or ``analyze`` of one model: the answer printed, its exit code."""
    puzzle = cli.load(cli.args.file)
    if task == "count" and (puzzle.model.kind == "planning") != cli.args.optimal:
        return cli.fail("`count --optimal` counts the optimal plans of a planning model; "
                         f"without --optimal, count applies to csp models ({cli.args.file} "
                         f"is a {puzzle.model.kind} model)", 2)
    engine = cli.args.engine
    if engine == "auto" and getattr(cli.args, "algorithm", None):
        engine = "search"  # an algorithm is the search engine's (the rules allow no other)
    result, race = by_invariant(puzzle, task, getattr(cli.args, "list", False)), None
    if result is None:
        with cli.progress(f"{engine} {task}") as options, interrupt.handling(), \
                cli.clock.guard(f"running {engine}", cli.clock.grace()):
            if engine == "auto":
                from ..engines.auto import race as run_race

                race = run_race(task, puzzle.model, options, cli.auto_budget())
                result = race.result
            else:
                result = run(engine, task, puzzle.model, options)
    _print(cli, puzzle, result, race)
    if getattr(cli.args, "svg", None) or getattr(cli.args, "html", None):
        from ..output.draw.show import Shown

        save(Shown(puzzle, result), cli.args.svg or cli.args.html)
    if interrupt.by_user():
        return INTERRUPTED
    if race is not None and race.problems:
        return 1
    return exit_code(result, getattr(cli.args, "limit", None))



def _print(cli: Cli, puzzle, result: Result, race) -> None:
    if cli.args.json:
        from ..output.json import race_json, result_json

        out = result_json(puzzle, result)
        if race is not None:
            out["race"] = race_json(race)
        print(json.dumps(out, ensure_ascii=False))
        return
    from ..output.text import human, race_text

    cli.out.print(human(puzzle, result))
    if race is not None:
        cli.out.print(race_text(race))


def is_batch(cli: Cli) -> bool:
    """True when ``solve`` was given several files, a directory or a collection."""
    from ..puzzles.files import load_many

    names = cli.args.files
    if len(names) > 1 or resolve(names[0]).is_dir():
        return True
    with cli.clock.guard(f"loading {names[0]}"):
        puzzles = load_many(resolve(names[0]))
        first, second = next(puzzles, None), next(puzzles, None)
    if second is None and first is not None:
        cli.loaded[names[0]] = first  # one puzzle: solve() takes it from here
    return second is not None



def batch(cli: Cli) -> int:
    """``solve`` over many instances: one table (or JSON lines), then throughput."""
    import time

    from rich.progress import Progress

    from ..output.text import batch_table, result_line
    from ..workflows.batch import instances, solve_all, summary

    args = cli.args
    start = time.monotonic()
    items = list(instances(args.files))
    deadline = None if cli.clock.limit is None else start + cli.clock.left()
    rows = []
    with Progress(console=cli.err, transient=True) as bar, interrupt.handling():
        task = bar.add_task("solving", total=len(items))
        options = Options(limit=None, algorithm=args.algorithm, find_hint=not args.no_hint)
        if cli.cluster():
            from functools import partial

            from ..workflows.batch import Row, on_cluster, solve_within

            solved = on_cluster(items, partial(solve_within, engine=args.engine,
                                               options=options),
                                cli.cluster(), cli.clock.left(),
                                lambda item, why: Row(item.source, item.puzzle, None, why))
        else:
            solved = solve_all(items, args.engine, options, args.jobs or 1, deadline)
        for row in solved:
            rows.append(row)
            bar.advance(task)
            if args.json:
                print(json.dumps(result_line(row), ensure_ascii=False), flush=True)
    figures = summary(rows, time.monotonic() - start, args.engine)
    if args.json:
        print(json.dumps({"batch": figures}, ensure_ascii=False))
    else:
        cli.out.print(batch_table(rows))
        rate = f"{figures['per_second']:,.1f}" if figures["per_second"] else "-"
        counts = ", ".join(f"{n:,} {k}" for k, n in sorted(figures["statuses"].items()))
        done = plural(figures["instances"], "instance")
        cli.out.print(f"{done} in {figures['seconds']:.2f} s "
                       f"({rate} per second, {args.engine}): {counts}")
    if interrupt.by_user():  # the rows hold what was found (solve_all stops its workers)
        return INTERRUPTED
    if any(r.result is None for r in rows):
        return 2 if any(r.puzzle is None for r in rows) else 1
    return max(exit_code(r.result) for r in rows)

