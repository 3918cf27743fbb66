"""``cpsolve compare``: every engine that applies, side by side — here, or one Dask task
per instance on a cluster.

Each model gets a budget (:class:`~cpsolve.workflows.batch.budget.TaskBudget`): with
``--time-limit``, an equal share of what is left of the command's limit among the models
still to compare, a file not loaded yet counting as one (plus the start of an engine not
imported yet, CP-SAT's, for the first model that runs it); without, the
default budget (:data:`~.command_options.AUTO_BUDGET`), so that a peer that knows no proof
(Fast Downward on an impossible model) never searches for ever; ``--time-limit none``:
no limit.  The model's engines share its budget
(:func:`~cpsolve.workflows.batch.comparing.compare_model`).
Each file is loaded when its turn comes (:class:`~cpsolve.workflows.batch.items.Lineup`):
one that loads slowly costs only itself and those after it.  Every model named is reported:
one the time limit or Ctrl-C came before lists its engines as not run (a file not loaded
then: its source and ``not loaded: <why>``), and one that fewer than two engines answered
in whole (:func:`.compare_checks.proving`: a plan not proven optimal does not count, the
puzzle's own argument counts as one) is not cross-checked (it says so, and the comparison's
status is then not ``agree``).  Its report: :mod:`.compare_report`; on a cluster:
:mod:`.compare_cluster`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from functools import partial
from typing import TYPE_CHECKING

from ..engines import Options
from ..engines.runtime import interrupt
from ..engines.runtime.alarms import printing
from ..engines.runtime.clock import Clock, TimeUp
from ..workflows.batch.budget import TaskBudget
from ..workflows.batch.comparing import (
    Compared,
    affordable,
    compare_model,
    start_seconds,
    unreached,
)
from ..workflows.batch.items import Item, Lineup
from .compare_checks import answered, verdict_of
from .compare_report import report, tell_bugs, warn_expected_once
from .session import INTERRUPTED
from .sources import file_name, pddl_pairs
from .warn import warn_unsaved

if TYPE_CHECKING:
    from .session import Cli


def compare(cli: Cli) -> int:
    """``compare``: each model through every engine that applies, its results cross-checked
    (exit 1 when engines disagree or a model has no answer, 130 after Ctrl-C with what was
    compared, 3 when an engine's answer failed the check: that engine's error is listed with
    its model, the other results stand).  Every model named is in the report, also one the
    time limit or Ctrl-C came before (its engines listed as not run, or its file as not
    loaded)."""
    if cli.cluster():
        if pddl_pairs(cli.args.files):
            return cli.fail("compare on a cluster takes model files, directories and "
                             "collections; a PDDL domain and problems run here (drop "
                             "--workers / --scheduler)", 2)
        from .compare_cluster import compare_on_cluster

        return compare_on_cluster(cli)
    lineup = _lineup(cli)
    done: list[Compared] = []
    try:
        code = _begun(cli, lineup, done)
        if code is not None:
            return code
    except TimeUp:  # the command's own clock came first: the models not reached say so
        pass
    with printing(answer=True):  # from here on the clock cuts nothing: the report is due
        done += _not_reached(cli, lineup, done)
        # an engine stopped at once by Ctrl-C asked for a stop too (by_user)
        interrupted = any(d.stopped for d in done) or interrupt.by_user()
        verdict = verdict_of(done, interrupted)
        report(cli, done, verdict)
        from .batch import tell_bad, tell_refused

        tell_bad(lineup.items())  # each file that did not load: its line on stderr, and
        tell_refused(done)  # each model the engines refused (an estimate over the cost)
        bugs = tell_bugs(done)
        for d in done:
            warn_expected_once(d)
            warn_unsaved(list(d.results), d.source if len(done) > 1 else None)
    if bugs:  # a bug in cpsolve, whatever else happened
        return 3
    if interrupted:
        return INTERRUPTED
    if any(d.problems or d.error or not answered(d) for d in done):
        return 1
    return 0


def _begun(cli: Cli, lineup: Lineup, done: list[Compared]) -> int | None:
    """The comparison up to its report: each model of ``lineup`` compared into ``done`` as
    it goes, its file loaded when its turn comes (so that what was done is kept when the
    command's clock cuts it short, with :class:`TimeUp`); an exit code when it ends before
    its report (one bad file, or one model the engines refused; an option that applies to
    none of the models), else
    ``None``."""
    if _loads_first(cli, lineup):
        lineup.load_all()
    from ..output.text import as_json  # noqa: F401 - now: after the engines, its import
    # (rich's) would take a loaded machine's tenths of a second past the limit
    items = lineup.items()  # loaded first, or none yet
    if len(items) == 1 and items[0].error:  # one file, and it is bad: a bad command line
        return cli.fail(items[0].error, INTERRUPTED if interrupt.by_user()  # (or a stop)
                        else 1 if items[0].at_limit else 2)
    from .batch import kinds_of
    from .option_rules import wrong_kind

    why = wrong_kind(cli.args, kinds_of(items))
    if why:
        return cli.fail(why, 2)
    _compared(cli, lineup, done)
    if len(lineup.names) == 1 and len(done) == 1 and done[0].refused:  # one model, refused
        return cli.fail(done[0].error, 2)  # by the engines: bad input, as `solve` says it
    return None


def _lineup(cli: Cli) -> Lineup:
    """What ``compare`` was given, as ``solve`` takes it: model files, bundled names,
    directories and collections (one item each instance, a bad file an item of its own),
    or a PDDL domain and problems; each file loaded within the time limit when its turn
    comes, and not at all once the time limit or a stop came (:func:`_too_late`)."""
    from ..workflows.batch.items import files_of, lineup

    pairs = pddl_pairs(cli.args.files)
    if pairs:
        return Lineup([file_name(pair) for pair in pairs],
                      ([Item(file_name(pair), cli.load(pair))] for pair in pairs))
    return lineup(files_of(cli.args.files), cli.loading, partial(_too_late, cli))


def _loads_first(cli: Cli, lineup: Lineup) -> bool:
    """Whether every file is loaded before any model is compared: one file (nothing comes
    before it, and a bad one is a bad command line), a PDDL domain's problems (a bad one
    too), or an option that applies to one kind of model (:func:`wrong_kind` checks it
    against them all)."""
    from .option_rules import kind_options_given

    return len(lineup.names) == 1 or bool(pddl_pairs(cli.args.files)) or \
        kind_options_given(cli.args)


def _not_reached(cli: Cli, lineup: Lineup, done: list[Compared]) -> list[Compared]:
    """The models loaded that ``done`` has not reached (the command's clock cut the
    comparison), each with its engines not run, or its file's error; then every file
    named whose turn had not come, not loaded."""
    why = cli.clock.limit_reached()
    rest = [unreached(item, cli.args.task, why) if item.puzzle is not None
            else Compared(item.source, None, error=item.error)
            for item in lineup.items()[len(done):]]
    return rest + [Compared(name, None, error=f"not loaded: {why}")
                   for name in lineup.unloaded()]


def _compared(cli: Cli, lineup: Lineup, done: list[Compared]) -> bool:
    """Every item through its engines, in order, into ``done``, each model within its share
    of the time left (:func:`_model_seconds`), its file loaded when its turn comes; once the
    time limit or a stop came, the rest are listed as not reached (a file not loaded yet, as
    not loaded).  Whether Ctrl-C stopped work at once (``KeyboardInterrupt``: the models so
    far are kept)."""
    budget = TaskBudget(cli.clock, cli.auto_budget(), cli.tail())
    stopped = False
    with interrupt.installed():
        for item, remaining in lineup:
            if item.error:
                done.append(Compared(item.source, None, error=item.error))
                continue
            why = _too_late(cli)
            if why is not None or stopped:
                done.append(unreached(item, cli.args.task, why or interrupt.REASON))
                continue
            seconds = _model_seconds(budget, item, remaining, cli.args.task)
            seconds = None if seconds is None else max(seconds, 0.01)
            try:
                compared = compare_model(
                    item, cli.args.task, seconds,
                    running=partial(_running, cli, item.puzzle.name, _model_end(cli, seconds)))
            except KeyboardInterrupt:  # Ctrl-C between two engines: this model is lost
                interrupt.request()
                stopped = True
                done.append(unreached(item, cli.args.task, interrupt.REASON))
                continue
            stopped = stopped or compared.stopped
            done.append(compared)
    return stopped


def _too_late(cli: Cli) -> str | None:
    """Why the next model must not start (the time limit, Ctrl-C or another stop came
    first), or ``None``."""
    if interrupt.requested():
        return interrupt.reason()
    if cli.clock.time_up():
        return cli.clock.limit_reached()
    return None


def _model_seconds(budget: TaskBudget, item: Item, remaining: int, task: str
                   ) -> float | None:
    """The seconds of ``item``, the first of the ``remaining`` models still to compare (a
    file not loaded yet counts as one): an equal share of what is left, plus its engines'
    starts not paid yet (an import, made once per process:
    :func:`~cpsolve.workflows.batch.comparing.start_seconds`) less the part of them the
    other models pay in their shares — when they are
    :func:`~cpsolve.workflows.batch.comparing.affordable` out of all that is left (else the
    engine will not start, and no time is kept for it)."""
    from ..engines import engines_for

    seconds = budget.seconds(remaining)
    if seconds is None:
        return None
    start = start_seconds(engines_for(item.puzzle.model, task, peers=True))
    if not affordable(start, seconds * remaining):  # it will not start: nothing to keep
        return seconds
    return seconds + start * (remaining - 1) / remaining


def _model_end(cli: Cli, seconds: float | None) -> Clock | None:
    """The clock that ends one model's engines (:func:`_running`): ``seconds``, its budget,
    and the command's grace past it, from now — when that ends before the command's own
    limit (else the command's clock ends them, asking them to stop first)."""
    if seconds is None or not cli.clock.allows(seconds + cli.clock.grace()):
        return None
    return Clock(seconds + cli.clock.grace())


@contextmanager
def _running(cli: Cli, name: str, end: Clock | None, engine: str) -> Iterator[Options]:
    """One engine of ``compare`` under way: its progress line, and the command's clock,
    which stops it shortly after the limit if it does not stop itself (an engine whose
    import takes the time that is left: :class:`TimeUp`); and the model's own ``end``
    (:func:`_model_end`), which cuts it off when it has not stopped a grace past the
    model's budget — a model whose engine overruns its share never takes the time of the
    models after it (its :class:`TimeUp` then says how far past the budget: that grace)."""
    with cli.progress(f"{name}: {engine}") as options, \
            cli.clock.guard(f"running {engine}", cli.clock.grace()):
        try:
            with end.guard(f"running {engine}") if end is not None else nullcontext():
                yield options
        except TimeUp as err:
            if end is not None and err.limit == end.limit:  # ``end``'s: cut off the grace
                err.grace = cli.clock.grace()  # past the budget (its limit holds both)
            raise
