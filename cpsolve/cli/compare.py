"""``cpsolve compare``: every engine that applies, side by side — here, or one Dask task
per instance on a cluster.

Each model gets a budget (:class:`~cpsolve.workflows.batch.budget.TaskBudget`): with
``--time-limit``, an equal share of what is left of the command's limit among the models
still to compare, a file not loaded yet counting as one (plus the start of an engine not
imported yet, CP-SAT's, for the first model that runs it); without, the
default budget (:data:`~.arguments.AUTO_BUDGET`), so that a peer that knows no proof
(Fast Downward on an impossible model) never searches for ever; ``--time-limit none``:
no limit.  The model's engines share its budget
(:func:`~cpsolve.workflows.batch.comparing.compare_model`).
Each file is loaded when its turn comes (:class:`~cpsolve.workflows.batch.items.Lineup`):
one that loads slowly costs only itself and those after it.  Every model named is reported:
one the time limit or Ctrl-C came before lists its engines as not run (a file not loaded
then: its source and ``not loaded: <why>``), and one that fewer than two engines answered
in whole (:func:`proving`: a plan not proven optimal does not count, the puzzle's own
argument counts as one) is not cross-checked (it says so, and the comparison's status is
then not ``agree``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from functools import partial
from typing import TYPE_CHECKING, Any

from ..answers.agreement import complete, proof_source
from ..answers.result import Status
from ..engines import Options
from ..engines.proofs import ARGUED
from ..engines.runtime import interrupt
from ..engines.runtime.clock import Clock, TimeUp, printing
from ..workflows.batch.budget import TaskBudget
from ..workflows.batch.comparing import (
    Compared,
    affordable,
    compare_model,
    start_seconds,
    unreached,
)
from ..workflows.batch.items import Item, Lineup
from .arguments import printable
from .session import (
    INTERRUPTED,
    Named,
    expected_mismatch,
    file_name,
    pddl_pairs,
    warn_expected,
    warn_unsaved,
    with_mismatch,
)

if TYPE_CHECKING:
    from .session import Cli


VERDICTS = {"disagree": ("engines disagree", "bold red"),
            "agree": ("all engines agree", "green"),
            "interrupted": ("comparison interrupted: not every engine ran, so no agreement "
                            "is claimed", "yellow"),
            "unanswered": ("no engine answered within the limits: nothing to compare",
                           "yellow"),
            "incomplete": ("not every model was cross-checked (see above): no agreement is "
                           "claimed for those", "yellow")}
"""The last line of a comparison in text (its words and style), by its JSON ``status``:
engines that disagree (whatever else happened), a comparison interrupted by Ctrl-C or
SIGTERM (what ran is in the table, but agreement needs every engine), no answer from any
engine on any model (nothing was compared), some model not cross-checked (not loaded, not
reached within the limit, no engine or only one proved its answer), or agreement on every model."""


def compare(cli: Cli) -> int:
    """``compare``: each model through every engine that applies, its results cross-checked
    (exit 1 when engines disagree or a model has no answer, 130 after Ctrl-C with what was
    compared).  Every model named is in the report, also one the time limit or Ctrl-C came
    before (its engines listed as not run, or its file as not loaded)."""
    if cli.cluster():
        if pddl_pairs(cli.args.files):
            return cli.fail("compare on a cluster takes model files, directories and "
                             "collections; a PDDL domain and problems run here (drop "
                             "--workers / --scheduler)", 2)
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
        verdict = _verdict(done, interrupted)
        _report(cli, done, verdict)
        from .batch import tell_bad

        tell_bad(lineup.items())  # each file that did not load: its line on stderr
        for d in done:
            warn_expected_once(d)
            warn_unsaved(list(d.results), d.source if len(done) > 1 else None)
    if interrupted:
        return INTERRUPTED
    if any(d.problems or d.error or not answered(d) for d in done):
        return 1
    return 0


def _begun(cli: Cli, lineup: Lineup, done: list[Compared]) -> int | None:
    """The comparison up to its report: each model of ``lineup`` compared into ``done`` as
    it goes, its file loaded when its turn comes (so that what was done is kept when the
    command's clock cuts it short, with :class:`TimeUp`); an exit code when it ends before
    its report (one bad file, an option that applies to none of the models), else
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


def _verdict(done: list[Compared], interrupted: bool) -> str:
    """The comparison's ``status`` (:data:`VERDICTS`)."""
    if any(d.problems for d in done):
        return "disagree"
    if interrupted:
        return "interrupted"
    if not any(answered(d) for d in done):
        return "unanswered"
    return "agree" if all(cross_checked(d) for d in done) else "incomplete"


def _report(cli: Cli, done: list[Compared], verdict: str) -> None:
    """The comparison on stdout (JSON or text); when stdout's reader has gone
    (``| head``), what is left to write goes nowhere and the command ends as it would
    have (the lines on stderr still come, the exit code is the comparison's)."""
    from .printer import reader_gone

    try:
        with printing(answer=True):  # the work is done: the clock no longer cuts it
            if cli.args.json:
                cli.emit({"status": verdict, "models": [compared_json(d) for d in done]})
            else:
                _print_text(cli, done, verdict)
    except BrokenPipeError:
        reader_gone()
    if not cli.args.json:
        _tell_unanswered(done, verdict)


def warn_expected_once(done: Compared) -> None:
    """A warning on stderr per key of the model's ``[expected]`` that some engine's
    proven answer contradicts: once per model and key, not once per engine (each result
    object that contradicts it carries ``expected_mismatch`` in JSON)."""
    from ..workflows.expected import mismatched

    if done.puzzle is None:
        return
    told: dict[str, str] = {}
    for result in done.results:
        for key, line in mismatched(getattr(done.puzzle, "expected", None) or {},
                                    result).items():
            told.setdefault(key, line)
    for line in told.values():
        warn_expected(line, done.source)


def _print_text(cli: Cli, done: list[Compared], verdict: str) -> None:
    """The comparison as a table and its verdict."""
    from rich.text import Text

    from ..output.text import comparison_table

    cli.out.print(comparison_table([row for d in done for row in table_rows(d)]))
    cli.out.print(Text(*VERDICTS[verdict]))


def _tell_unanswered(done: list[Compared], verdict: str) -> None:
    """A line on stderr per model that no engine answered."""
    for d in done:
        if not d.error and not answered(d):
            why = "before the interruption" if verdict == "interrupted" else \
                "within the limits"
            print(f"{printable(d.source)}: no engine answered {why}", file=sys.stderr)


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
    models after it."""
    with cli.progress(f"{name}: {engine}") as options, \
            cli.clock.guard(f"running {engine}", cli.clock.grace()), \
            end.guard(f"running {engine}") if end is not None else nullcontext():
        yield options


STOPPED = (Status.UNKNOWN, Status.PARTIAL, Status.AT_LEAST)
"""The statuses of a result cut short: nothing proven to compare."""


def answered(done: Compared) -> bool:
    """Some engine answered (not every result cut short by a limit)."""
    return bool(answering(done))


def answering(done: Compared) -> list[str]:
    """The engines that answered (their result not cut short by a limit: a count that
    stopped at ``at least`` is no answer to compare either)."""
    return [r.engine for r in done.results if r.status not in STOPPED]


def proving(done: Compared) -> list[str]:
    """The engines whose answer is whole (:func:`~cpsolve.answers.agreement.complete`: a
    proven optimum or "none exists", an exact count, a checked solution of a csp with
    nothing to optimise): a plan not proven optimal is no answer to "the least cost"."""
    return [r.engine for r in done.results if complete(r)]


def cross_checked(done: Compared) -> bool:
    """Two different engines or more gave a whole answer (:func:`proving`), so their answers
    were compared.  The family's own argument (:data:`~cpsolve.engines.proofs.ARGUED`) is
    one answer like any engine's: the checker re-derives it, but no second answer is
    compared with it when it answers alone.  Two engines that report the same proof
    (CP-SAT's "no plan" by the search engine's exhaustion, the invariant every planning
    engine finds alike: :func:`~cpsolve.answers.agreement.proof_source`) are one answer."""
    return len({proof_source(r) for r in done.results if complete(r)}) >= 2


def unchecked(done: Compared) -> str | None:
    """Why a model that some engine answered was not cross-checked, or ``None``."""
    engines, proved = answering(done), proving(done)
    if done.error or done.problems or not engines or cross_checked(done):
        return None
    if proved == [ARGUED]:  # it answered before any engine (workflows.impossible)
        proof = next(r.proof for r in done.results if r.engine == ARGUED)
        return f"not cross-checked: proven by the puzzle's own argument ({proof}), so no " \
            "engine ran"
    if len(proved) > 1:  # one proof, reported by each
        return f"not cross-checked: {' and '.join(proved)} gave the same proof " \
            f"({next(r.proof for r in done.results if complete(r))}), by the same code"
    if proved:
        return f"not cross-checked: only {proved[0]} " + \
            ("answered" if engines == proved else "proved its answer")
    return "not cross-checked: no engine proved its answer" + \
        ("; what they found is consistent" if len(engines) > 1 else "")


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
    from .batch import tell_bad

    tell_bad(items)  # each file that did not load: its line on stderr, as in solve
    if interrupt.by_user():
        return INTERRUPTED
    return 1 if counts["disagree"] or counts["error"] or unanswered else 0


def _outcome(done: Compared) -> str:
    """What a cluster compare counts an instance as: ``error``, ``disagree``, ``agree``
    (cross-checked), or ``unchecked`` (fewer than two engines proved their answer)."""
    if done.error:
        return "error"
    return "disagree" if done.problems else "agree" if cross_checked(done) else "unchecked"


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
                   f"{counts['agree']:,} agree, {counts['unchecked']:,} not cross-checked, "
                   f"{counts['disagree']:,} disagree, {counts['error']:,} errors")


def compared_json(done: Compared) -> dict[str, Any]:
    """One compared instance as JSON: its results, disagreements and skipped engines (an
    instance with no comparison: its source and error)."""
    if done.error:
        return {"source": done.source, "error": done.error}
    agree = False if done.problems else True if cross_checked(done) else None
    return {"model": done.puzzle.name, "file": done.source, "agree": agree,
            "disagreements": list(done.problems),
            "results": [_result_json(done.puzzle, r) for r in done.results],
            "skipped": [{"engine": s.engine, "reason": s.why} for s in done.skipped]}


def _result_json(puzzle, result) -> dict[str, Any]:
    """One engine's result of a compared model, with ``expected_mismatch`` when it
    contradicts the model's ``[expected]``."""
    from ..output.text import as_json

    return with_mismatch(as_json(puzzle, result), expected_mismatch(puzzle, result))


def table_rows(done: Compared) -> list[tuple]:
    """One compared instance as rows of the comparison table."""
    if done.error:  # a line under the table, as on stderr: the error names its file
        named = done.error.startswith(f"{done.source}:")
        return [(Named(""), f"error: {'' if named else done.source + ': '}{done.error}")]
    return [(done.puzzle, r) for r in done.results] + \
        [(done.puzzle, s) for s in done.skipped] + \
        [(done.puzzle, f"DISAGREEMENT: {p}") for p in done.problems] + \
        [(done.puzzle, why) for why in [unchecked(done)] if why]
