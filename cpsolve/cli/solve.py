"""``cpsolve solve``, ``count`` and ``analyze``: one model through one engine (or ``auto``'s
race), or a batch of instances (several files, a directory, a collection)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..answers.result import Result, cut_off_words, lost_words
from ..answers.words import plural
from ..engines import Options, run
from ..engines.runtime import interrupt
from ..engines.runtime.clock import TimeUp, printing
from ..engines.runtime.stop import Stop
from ..puzzles.files import resolve
from ..workflows.impossible import by_invariant
from .arguments import printable
from .option_rules import kind_options_given, wrong_kind
from .printer import OutputLost
from .session import (
    INTERRUPTED,
    Cli,
    against_expected,
    exit_code,
    file_name,
    pddl_pairs,
    save,
    say_wrote,
    to_stdout,
    warn_unsaved,
    with_mismatch,
)

if TYPE_CHECKING:
    from ..engines.auto import Race
    from ..workflows.batch.items import Lineup
    from .stream import Stream


def solve(cli: Cli) -> int:
    """``solve``: one instance, a PDDL domain and problem, or a batch.  A batch the
    command's clock cuts before it began (its files named: several, a directory, a PDDL
    domain's problems) still answers with its rows (:func:`batch`)."""
    try:
        return _solve(cli)
    except TimeUp:
        pairs = pddl_pairs(cli.args.files)
        if not (len(pairs) > 1 if pairs else named_batch(cli.args.files)):
            raise  # one instance (or a collection not read yet): the error line
        table, start = _Table(), time.monotonic()
        _cut(cli, pairs or None, table)
        return _batch_end(cli, table, start)


def named_batch(files: list[str]) -> bool:
    """True when the names alone make a batch: several files, or a directory (a collection
    is one file, known to be a batch once read: :func:`is_batch`)."""
    return len(files) > 1 or resolve(files[0]).is_dir()


def _solve(cli: Cli) -> int:
    """:func:`solve`, the clock aside."""
    args = cli.args
    args.file = args.files[0]
    pairs = pddl_pairs(args.files)
    several = len(pairs) > 1 if pairs else is_batch(cli)
    if several and args.plan_file:
        return cli.fail("--plan-file writes the plan of one instance: give one", 2)
    if pairs:
        if len(pairs) > 1:  # several problems of one domain: a batch
            return batch(cli, pairs)
        args.file = pairs[0]
    elif several:
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
    """``solve``, ``count`` or ``analyze`` of one model: the answer printed, its exit code.

    A first Ctrl-C asks the engine to stop with what it has (:mod:`.interrupt`): that is
    printed, and the exit is 130."""
    puzzle = cli.load(cli.args.file)
    why = wrong_kind(cli.args, {file_name(cli.args.file): puzzle.model.kind})
    if why:
        return cli.fail(why, 2)
    if task == "analyze" and puzzle.model.kind != "planning":
        return cli.fail("analyze explores the state space of a planning model; "
                        f"{file_name(cli.args.file)} is a {puzzle.model.kind} model", 2)
    objective = getattr(puzzle.model, "objective", None) is not None
    if task == "count" and (puzzle.model.kind == "planning") != cli.args.optimal \
            and not (objective and cli.args.optimal):
        return cli.fail("`count --optimal` counts the optimal plans of a planning model, or "
                        "the optimal solutions of a csp model with an objective; without "
                        f"--optimal, count applies to csp models ({file_name(cli.args.file)} is a "
                        f"{puzzle.model.kind} model"
                        f"{' without an objective' if puzzle.model.kind == 'csp' else ''})", 2)
    engine = cli.args.engine
    if engine == "auto" and getattr(cli.args, "algorithm", None):
        engine = "search"  # an algorithm is the search engine's (the rules allow no other)
    from .stream import wanted

    stream = wanted(cli, puzzle, task)  # count --list: solutions as they are found
    result, race, hard = _answer(cli, puzzle, task, engine, stream)  # hard: a second Ctrl-C
    warn_unsaved([result])
    with printing(answer=True):  # the work is done: the clock no longer cuts the answer
        try:
            _print(cli, puzzle,
                   result if stream is None or cli.args.json else stream.unlisted(result),
                   race, against_expected(puzzle, result))
        except (BrokenPipeError, OutputLost):  # no stdout (`| head`): still the files
            _write_files(cli, puzzle, result, say=False)
            raise
        _write_files(cli, puzzle, result)
    if hard or interrupt.by_user():
        return INTERRUPTED
    if race is not None and race.problems:
        return 1
    return exit_code(result)  # a count stopped by its --limit too: at least N is short


def _write_files(cli: Cli, puzzle, result: Result, say: bool = True) -> None:
    """The files asked for beside the output: ``--plan-file``, ``--svg`` / ``--html`` (a
    picture or page said in a ``wrote`` line as ``show`` says it, when ``say``: stdout is
    still there)."""
    if getattr(cli.args, "plan_file", None):
        _write_plan(puzzle, result, cli.args.plan_file)
    if getattr(cli.args, "svg", None) or getattr(cli.args, "html", None):
        from ..output.draw.show import Shown, answer_words

        path = cli.args.svg or cli.args.html
        save(Shown(puzzle, result), path, bool(cli.args.svg))
        if say and not cli.args.json:
            say_wrote(cli, path, f"{answer_words(puzzle, result)}, by {result.engine}")


def _write_plan(puzzle, result: Result, path: str) -> None:
    """``--plan-file``: the plan in the IPC format (PDDL inputs: the PDDL action names)."""
    from ..answers.kinds import Plan
    from ..output.ipc import ipc_plan
    from .session import write_text

    if not isinstance(result.answer, Plan):
        return  # no plan found: no file (the status says why)
    name = str  # a model action is its own name
    if puzzle.family == "pddl":
        from ..puzzles.pddl_sas import pddl_action as name
    write_text(path, ipc_plan(result.answer, puzzle.model.unit_costs(), name), False)


def _answer(cli: Cli, puzzle, task: str, engine: str,
            stream: Stream | None = None) -> tuple[Result, Race | None, bool]:
    """The engine's result (with ``auto``, the race's), and whether a second Ctrl-C stopped
    it at once.  That, or the clock's alarm past the grace, loses what the engine had: the
    result then says only what stopped it (and, with a ``stream``, the count of the
    solutions it printed)."""
    proof = by_invariant(puzzle, task, getattr(cli.args, "list", False))
    if proof is not None:
        return proof, None, False
    if interrupt.requested():  # while the model was loading: no engine starts
        return Result.stopped(task, engine, f"{interrupt.reason()} before {engine} started", 0.0), \
            None, False
    if (late := cli.too_late_for(engine)) is not None:  # spent loading: a proof that needs
        options = Options(keep=getattr(cli.args, "list", False))  # no engine may still answer
        if engine == "auto":  # not an engine: a race, none of whose racers starts
            from ..engines.auto import not_raced

            race = not_raced(task, puzzle.model, options, late)
            return race.result, race, False
        return run(engine, task, puzzle.model, options, late), None, False
    start = time.perf_counter()
    try:
        with cli.progress(f"{engine} {task}") as options, \
                cli.clock.guard(f"running {engine}", cli.clock.grace()):
            if stream is not None:
                options = replace(options, on_solution=stream)
            if engine == "auto":
                from ..engines.auto import race as run_race

                race = run_race(task, puzzle.model, options, cli.auto_budget(),
                                confirm=getattr(cli.args, "confirm", False))
                return race.result, race, False
            return run(engine, task, puzzle.model, options), None, False
    except TimeUp:
        return _lost(stream, task, engine, cut_off_words(engine), start), None, False
    except KeyboardInterrupt:
        return _lost(stream, task, engine, lost_words(engine), start), None, True


def _lost(stream: Stream | None, task: str, engine: str, why: str, start: float) -> Result:
    """The result of an engine stopped at once: the count of the solutions streamed so
    far, if any, else nothing proven."""
    seconds = time.perf_counter() - start
    salvaged = None if stream is None else stream.salvage(engine, why, seconds)
    return salvaged or Result.stopped(task, engine, why, seconds)


def _print(cli: Cli, puzzle, result: Result, race, mismatch: list[str] = ()) -> None:
    if cli.args.json:
        from ..output.json import race_json, result_json

        out = with_mismatch(result_json(puzzle, result), mismatch)
        if race is not None:
            out["race"] = race_json(race)
        cli.emit(out)
        return
    if to_stdout(cli.args):  # stdout holds the picture, page or plan file only
        return
    from ..output.prose import Prose
    from ..output.text import human, race_text

    cli.out.print(human(puzzle, result), crop=False)  # a wide board is not cut
    if race is not None:
        cli.out.print(race_text(race))
    if getattr(cli.args, "statistics", False):
        cli.out.print(Prose(statistics_line(result)))


def statistics_line(result: Result) -> str:
    """``--statistics`` in text: what the engine examined and reported, and its time
    (``--json`` always carries them: ``explored``, ``details``, ``seconds``)."""
    parts = [f"{result.engine}: {result.seconds:.3f} s"]
    if result.explored is not None:
        parts.append(f"{result.explored:,} states or nodes explored")
    parts += [f"{k} {v:,}" if isinstance(v, int) and not isinstance(v, bool) else f"{k} {v}"
              for k, v in result.details.items()]
    return "statistics: " + "; ".join(parts)


def is_batch(cli: Cli) -> bool:
    """True when ``solve`` was given several files, a directory or a collection."""
    from ..puzzles.files import load_many

    names = cli.args.files
    if named_batch(names):
        return True
    what, path = f"loading {names[0]}", resolve(names[0])
    with cli.reading(what), cli.guarded(what, path):
        puzzles = load_many(path)
        first, second = next(puzzles, None), next(puzzles, None)
    if second is None and first is not None:
        cli.loaded[names[0]] = first  # one puzzle: solve() takes it from here
    return second is not None



def batch(cli: Cli, pairs: list[tuple[str, str]] | None = None) -> int:
    """``solve`` over many instances: one row per instance as it is solved (a row of a
    table in text, its headers first; a JSON line with ``--json``), then throughput.  A
    stop asked for (Ctrl-C, SIGTERM, the memory limit) ends the batch after the instances
    under way: every instance still gets its row (those not reached say so) and the
    figures come last (exit 130 after Ctrl-C).  So does the command's own clock, wherever
    it cuts the batch — also before the first row, while the batch sets up (its imports
    take tenths of a second on a loaded machine): the instances not reached are not
    started, the files not loaded say so (:func:`_cut`).

    When stdout's reader goes away (``| head``), with ``--json`` or in text, the batch ends
    at once: the instances under way are asked to stop, nothing more is written to
    stdout, the files that did not load still get their line on stderr, and the exit code
    is that of the rows delivered (2 when a file was bad).  A row whose answer contradicts
    its file's ``[expected]`` gets a warning naming the file (and, with ``--json``,
    ``expected_mismatch``)."""
    start = time.monotonic()
    table = _Table()
    try:
        code = _batch_rows(cli, pairs, table)
        if code is not None:
            return code
        return _batch_end(cli, table, start)
    except TimeUp:  # the command's own clock cut the batch: the rest are not started (also
        # an alarm held while the last row was written, acting as it ended: none to add)
        _cut(cli, pairs, table)
    return _batch_end(cli, table, start)


def _batch_end(cli: Cli, table: _Table, start: float) -> int:
    """A batch's figures (unless stdout's reader has gone) after its rows, and its exit
    code; ``start``: when the batch began (``time.monotonic``)."""
    from .printer import reader_gone

    if not table.gone:
        try:
            with printing(answer=True):
                _batch_summary(cli, table.rows, time.monotonic() - start)
        except BrokenPipeError:  # the table or the last line: the rows were all solved
            reader_gone()
    if table.gone:
        reader_gone()
    return _batch_code(table.rows, table.lineup.items() if table.gone else table.rows,
                       table.hard)


@dataclass
class _Table:
    """What a batch has set up and written so far: its lineup (none until it is made), the
    widest instance names, the rows written, the text table's columns (``None`` with
    ``--json``, or until they are laid out) and whether its head is out; whether a second
    Ctrl-C (``hard``) or stdout's reader going away (``gone``) ended it."""

    lineup: Lineup | None = None
    widest: list[str] = field(default_factory=list)
    rows: list = field(default_factory=list)
    columns: tuple | None = None
    headed: bool = False
    hard: bool = False
    gone: bool = False


def _batch_rows(cli: Cli, pairs: list[tuple[str, str]] | None, table: _Table) -> int | None:
    """:func:`batch`'s rows, each written as it comes into ``table``; an exit code when the
    batch ends before any row (an option that applies to none of its models)."""
    from .printer import watch_reader

    table.lineup, table.widest = _batch_lineup(cli, pairs)
    if kind_options_given(cli.args):
        table.lineup.load_all()
    why = wrong_kind(cli.args, kinds_of(table.lineup.items()))
    if why:
        return cli.fail(why, 2)
    if not cli.args.json:
        table.columns = _columns(cli, table)
    with cli.bar("solving", None) as advance, watch_reader():
        try:
            if table.columns is not None:
                _head_out(cli, table)
            for row in _solved(cli, (item for item, _ in table.lineup)):
                if interrupt.requested() and interrupt.kind() is Stop.GONE:
                    table.gone = True
                    break
                with printing():  # the row written is the row kept, whenever the clock comes
                    _row_out(cli, row, table.columns)  # after a stop: "not started" rows
                    table.rows.append(row)
                advance()
        except KeyboardInterrupt:  # a second Ctrl-C: the instances under way are lost
            table.hard = True
        except BrokenPipeError:
            table.gone = True
    return None


def _cut(cli: Cli, pairs: list[tuple[str, str]] | None, table: _Table) -> None:
    """The rows of a batch its command's clock cut, wherever it came (its answer: the clock
    no longer cuts it): the lineup and the text table's head first when the batch had not
    made them yet, then a row for every instance and file not reached (:func:`_not_reached`)."""
    with printing(answer=True):
        if table.lineup is None:
            table.lineup, table.widest = _batch_lineup(cli, pairs)
        if not cli.args.json and not table.headed:
            table.columns = table.columns or _columns(cli, table)
            _head_out(cli, table)
        for row in _not_reached(table.rows, table.lineup, cli.clock.limit_reached()):
            _row_out(cli, row, table.columns)
            table.rows.append(row)


def _columns(cli: Cli, table: _Table) -> tuple:
    """The text table's columns, laid out for the names as they are written (rich, loaded
    now: a ``--json`` batch needs none of it)."""
    from ..output.text import batch_columns
    from ..workflows.batch.solving import answering

    return batch_columns([cli.out.written(name) for name in table.widest],
                         answering(cli.args.engine))


def _head_out(cli: Cli, table: _Table) -> None:
    """The text table's head, whole whenever the clock comes."""
    from ..output.text import batch_head

    with printing():
        cli.out.print(batch_head(table.columns))
        table.headed = True


def _batch_lineup(cli: Cli, pairs: list[tuple[str, str]] | None):
    """A batch's :class:`~cpsolve.workflows.batch.items.Lineup` (each file loaded when its
    turn comes, as ``compare``'s), and the widest instance name each of its files (or PDDL
    problems) gives (:func:`_widest`); nothing is loaded yet.  (An option that applies to
    one kind of model, :func:`wrong_kind`, needs every model's kind before the batch
    starts: :func:`_batch_rows` then loads every file first.)"""
    from ..workflows.batch.items import files_of, lineup, pddl_lineup

    if pairs:
        return pddl_lineup(pairs), [str(problem) for _, problem in pairs]
    files = files_of(cli.args.files)
    return lineup(files, cli.loading), [_widest(n, path) for n, path in files]


WIDEST_READ = 1 << 20
"""Bytes of a TOML file :func:`_widest` reads at most (a larger one: its name as it is)."""


def _widest(name: str, path) -> str:
    """The widest instance name a file named ``name`` gives, before it is loaded: ``name``,
    or for a collection (a TOML file with ``instances``) ``name#N``, N as wide as its count
    of lines (a line per instance at most)."""
    try:  # a regular file only: a pipe or a device (its loading refuses it) is not read
        if path is None or path.suffix != ".toml" or not path.is_file() or \
                path.stat().st_size > WIDEST_READ:
            return name
        text = path.read_text(errors="replace")
    except OSError:  # its loading will say why
        return name
    return f"{name}#{text.count(chr(10)) + 1}" if "instances" in text else name


def _not_reached(rows: list, lineup, why: str) -> list:
    """The rows of a batch that its command's clock cut (``why``: its limit, in words, as
    ``compare`` says it): each instance loaded and not solved, not started; then each file
    whose turn had not come (:class:`~cpsolve.workflows.batch.items.Lineup`), not loaded."""
    from ..workflows.batch.rows import Row, unloaded

    rest = [unloaded(item) or Row(item.source, item.puzzle, None, f"not started: {why}", True,
                                  started=False) for item in lineup.items()[len(rows):]]
    return rest + [Row(name, None, None, f"not loaded: {why}", True, started=False)
                   for name in lineup.unloaded()]


def _row_out(cli: Cli, row, columns) -> None:
    """One batch row as it comes: its ``[expected]`` mismatches on stderr, and with
    ``--json`` its line (with ``expected_mismatch``); in text, its row of the table (laid
    out in ``columns``)."""
    with printing():  # whole, whenever the clock comes: the next instance is the work
        mismatch = [] if row.result is None else \
            against_expected(row.puzzle, row.result, row.source)
        warn_unsaved([] if row.result is None else [row.result], row.source)
        if cli.args.json:
            from ..output.json import result_line

            cli.line(with_mismatch(result_line(row), mismatch))
        else:
            from ..output.text import batch_row

            cli.out.print(batch_row(row, columns))


def kinds_of(items: list) -> dict[str, str]:
    """The kind of each loaded instance, by its source (the bad files left out)."""
    return {item.source: item.puzzle.model.kind for item in items if item.puzzle is not None}


def _batch_code(rows: list, loaded: list, hard: bool) -> int:
    """A batch's exit code from its ``rows`` delivered; the files and collection lines of
    ``loaded`` (rows or items) that did not load get their line on stderr (exit 2)."""
    bad = tell_bad(loaded)
    if hard or interrupt.by_user():
        return INTERRUPTED
    if bad:  # bad input; a file still loading at the time limit is a limit (below)
        return 2
    if any(r.result is None for r in rows):
        return 1
    return max((exit_code(r.result) for r in rows), default=0)


def tell_bad(loaded: list) -> list:
    """The files and collection lines of ``loaded`` (items or rows) that did not load, each
    told on stderr (one still loading at the time limit is a limit, not bad input)."""
    bad = [r for r in loaded if r.puzzle is None and r.error and not r.at_limit]
    for row in bad:
        print(f"error: {printable(row.error)}", file=sys.stderr)
    return bad


def _solved(cli: Cli, items: list):
    """The rows of a batch as they come: here (``--jobs`` processes) or on a cluster."""
    from ..workflows.batch.solving import solve_all

    args = cli.args
    options = Options(limit=None, algorithm=args.algorithm, find_hint=not args.no_hint,
                      encoding="time-indexed" if args.time_indexed else None,
                      unique=args.unique, no_time_limit=cli.lifted())
    if cli.cluster():
        from functools import partial

        from ..workflows.batch.budget import TaskBudget
        from ..workflows.batch.cluster import on_cluster
        from ..workflows.batch.rows import Row
        from ..workflows.batch.solving import solve_within

        cli.import_dask()
        return on_cluster(list(items), partial(solve_within, engine=args.engine, options=options),
                          cli.cluster(), TaskBudget(cli.clock, cli.auto_budget(), cli.tail()),
                          lambda item, why: Row(item.source, item.puzzle, None, why,
                                                item.at_limit),
                          lambda item, why: Row(item.source, item.puzzle, None, why,
                                                started=False),
                          lambda item, why: Row(item.source, item.puzzle,
                                                Result.stopped("solve", args.engine, why)))
    return solve_all(items, args.engine, options, args.jobs or 1, cli.clock, cli.tail())


def _batch_summary(cli: Cli, rows: list, seconds: float) -> None:
    """The batch's last line: its figures (with ``--json``, an object: rich is not
    loaded for it)."""
    from ..workflows.batch.rows import summary

    figures = summary(rows, seconds, cli.args.engine)
    if cli.args.json:
        cli.emit({"batch": figures})
        return
    from ..output.prose import Prose

    rate = f"{figures['per_second']:,.1f}" if figures["per_second"] else "-"
    counts = ", ".join(f"{n:,} {k.replace('_', ' ')}"
                       for k, n in sorted(figures["statuses"].items()))
    done = plural(figures["instances"], "instance")
    cli.out.print(Prose(f"{done} in {figures['seconds']:.2f} s "
                        f"({rate} per second, {cli.args.engine}): {counts}"))
