"""``solve`` over many instances (several files, a directory, a collection, a PDDL
domain's problems): a row per instance as it is solved, then the batch's figures."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..answers.result import Result
from ..answers.words import plural
from ..engines import Options
from ..engines.runtime import interrupt
from ..engines.runtime.alarms import printing
from ..engines.runtime.clock import TimeUp
from ..engines.runtime.stop import Stop
from .arguments import printable
from .option_rules import kind_options_given, wrong_kind
from .session import INTERRUPTED, Cli, exit_code
from .warn import against_expected, warn_unsaved, with_mismatch

if TYPE_CHECKING:
    from ..workflows.batch.items import Lineup


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


def cut_before_rows(cli: Cli, pairs: list[tuple[str, str]] | None) -> int:
    """A batch the command's clock cut before :func:`batch` began (while ``solve`` told it
    from one instance): its rows, none reached (:func:`_cut`), and its figures."""
    table, start = _Table(), time.monotonic()
    _cut(cli, pairs, table)
    return _batch_end(cli, table, start)


def _batch_end(cli: Cli, table: _Table, start: float) -> int:
    """A batch's figures (unless stdout's reader has gone) after its rows, and its exit
    code; ``start``: when the batch began (``time.monotonic``)."""
    from .printer import reader_gone, stdout_gone

    if not table.gone:
        try:
            with printing(answer=True):
                _batch_summary(cli, table.rows, time.monotonic() - start)
        except BrokenPipeError:  # the table or the last line: the rows were all solved
            if not stdout_gone():
                raise
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
    from .printer import stdout_gone, watch_reader

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
            if table.columns is not None and not cli.cluster():
                _head_out(cli, table)  # a cluster's with its first row: one that does not
            for row in _solved(cli, (item for item, _ in table.lineup)):  # answer, none
                if interrupt.requested() and interrupt.kind() is Stop.GONE:
                    table.gone = True
                    break
                if table.columns is not None and not table.headed:
                    _head_out(cli, table)
                with printing():  # the row written is the row kept, whenever the clock comes
                    _row_out(cli, row, table.columns)  # after a stop: "not started" rows
                    table.rows.append(row)
                advance()
        except KeyboardInterrupt:  # a second Ctrl-C: the instances under way are lost
            table.hard = True
        except BrokenPipeError:
            if not stdout_gone():  # another pipe (a worker's): a failure, not the reader's
                raise
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

            cli.out.print(batch_row(row, columns), crop=False)  # its lines under it whole


def kinds_of(items: list) -> dict[str, str]:
    """The kind of each loaded instance, by its source (the bad files left out)."""
    return {item.source: item.puzzle.model.kind for item in items if item.puzzle is not None}


def _batch_code(rows: list, loaded: list, hard: bool) -> int:
    """A batch's exit code from its ``rows`` delivered; the files and collection lines of
    ``loaded`` (rows or items) that did not load get their line on stderr (exit 2), and so
    do the instances whose model the engines refused (:func:`tell_refused`) and those whose
    engine's answer failed the check (a bug in cpsolve: exit 3, whatever else happened); an
    instance whose engines disagree is exit 1, as under ``solve``."""
    bad = tell_bad(loaded) + tell_refused(rows)
    bugs = [r for r in rows if r.bug]
    for row in bugs:
        print(f"error: {printable(row.source)}: {printable(row.error)}", file=sys.stderr)
    if bugs:
        return 3
    if hard or interrupt.by_user():
        return INTERRUPTED
    if bad:  # bad input; a file still loading at the time limit is a limit (below)
        return 2
    if any(r.result is None or r.disagreements for r in rows):
        return 1
    return max((exit_code(r.result) for r in rows), default=0)


def tell_bad(loaded: list) -> list:
    """The files and collection lines of ``loaded`` (items or rows) that did not load, each
    told on stderr (one still loading at the time limit is a limit, not bad input)."""
    return _told([r for r in loaded if r.puzzle is None and r.error and not r.at_limit])


def tell_refused(done: list) -> list:
    """The instances of ``done`` (a batch's rows, or compared models) whose model the
    engines refused as not well formed (an estimate above the cost still to pay), each told
    on stderr as a file that did not load is: bad input."""
    return _told([d for d in done if d.refused])


def _told(bad: list) -> list:
    """``bad``, each one's error written on stderr (it names its file)."""
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
    counts = ", ".join(plural(n, "error") if k == "error" else f"{n:,} {k.replace('_', ' ')}"
                       for k, n in sorted(figures["statuses"].items()))  # the rest: adjectives
    done = plural(figures["instances"], "instance")
    cli.out.print(Prose(f"{done} in {figures['seconds']:.2f} s "
                        f"({rate} per second, {cli.args.engine}): {counts}"))
