"""``solve``, ``count`` or ``analyze`` of one model: its engine's answer (or ``auto``'s
race), printed, and the files asked for beside it."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from ..answers.result import Result, cut_off_words, lost_words
from ..answers.words import plural
from ..engines import Options, run
from ..engines.runtime import interrupt
from ..engines.runtime.alarms import printing
from ..engines.runtime.clock import TimeUp
from ..model import ModelError
from ..puzzles.data import ModelFileError
from .option_rules import wrong_kind
from .printer import OutputLost
from .session import INTERRUPTED, Cli, exit_code
from .sources import file_name
from .warn import against_expected, warn_unsaved, with_mismatch
from .writing import save, say_wrote, to_stdout

if TYPE_CHECKING:
    from ..engines.auto import Race
    from .stream import Stream


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
    try:
        result, race, hard = _answer(cli, puzzle, task, engine, stream)  # hard: 2nd Ctrl-C
    except ModelError as err:  # what the engines found wrong in the model (an estimate
        raise ModelFileError(file_name(cli.args.file), str(err)) from None  # over the cost)
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
    if race is not None and race.bugs:  # the other engine's answer is printed; this is a
        return _tell_bugs(cli, race)  # bug in cpsolve all the same, whatever else happened
    if hard or interrupt.by_user():
        return INTERRUPTED
    if race is not None and race.problems:
        return 1
    return exit_code(result)  # a count stopped by its --limit too: at least N is short


def _tell_bugs(cli: Cli, race: Race) -> int:
    """A line on stderr for each engine of ``auto`` whose answer failed the independent
    check (naming the file, as a batch and ``compare`` do); exit 3."""
    import sys

    from .arguments import printable

    for check in race.bugs:
        print(f"error: {printable(file_name(cli.args.file))}: {check.engine}: "
              f"{printable(check.bug)}", file=sys.stderr)
    return 3


def _write_files(cli: Cli, puzzle, result: Result, say: bool = True) -> None:
    """The files asked for beside the output: ``--plan-file`` (what became of it said in a
    line, :mod:`.plan_file`), ``--svg`` / ``--html`` (a picture or page said in a ``wrote``
    line as ``show`` says it), each line when ``say``: stdout is still there."""
    if getattr(cli.args, "plan_file", None):
        from .plan_file import write_plan

        write_plan(cli, puzzle, result, cli.args.plan_file, say)
    if getattr(cli.args, "svg", None) or getattr(cli.args, "html", None):
        from ..output.draw.show import Shown, wrote_words

        path = cli.args.svg or cli.args.html
        drawing = save(cli, Shown(puzzle, result), path, bool(cli.args.svg))
        if say and not cli.args.json:  # a player cut short by a limit says so, as show's
            say_wrote(cli, path, wrote_words(puzzle, result, drawing))


def _answer(cli: Cli, puzzle, task: str, engine: str,
            stream: Stream | None = None) -> tuple[Result, Race | None, bool]:
    """The engine's result (with ``auto``, the race's), and whether a second Ctrl-C stopped
    it at once.  That, or the clock's alarm past the grace, loses what the engine had: the
    result then says only what stopped it (and, with a ``stream``, the count of the
    solutions it printed).  A model that carries its own argument that no plan exists is
    answered with it by the engines' door (:func:`~cpsolve.engines.run`, ``auto``'s race),
    no engine started: no race to print (:func:`_raced`)."""
    if interrupt.requested():  # while the model was loading: no engine starts
        return Result.stopped(task, engine, f"{interrupt.reason()} before {engine} started", 0.0), \
            None, False
    if (late := cli.too_late_for(engine)) is not None:  # spent loading: a proof that needs
        options = Options(keep=getattr(cli.args, "list", False))  # no engine may still answer
        if engine == "auto":  # not an engine: a race, none of whose racers starts
            from ..engines.auto import not_raced

            return _raced(not_raced(task, puzzle.model, options, late))
        return run(engine, task, puzzle.model, options, late), None, False
    start = time.perf_counter()
    try:
        with cli.progress(f"{engine} {task}") as options, \
                cli.clock.guard(f"running {engine}", cli.clock.grace()):
            if stream is not None:
                options = replace(options, on_solution=stream)
            if engine == "auto":
                from ..engines.auto import race as run_race

                return _raced(run_race(task, puzzle.model, options, cli.auto_budget(),
                                       confirm=getattr(cli.args, "confirm", False)))
            return run(engine, task, puzzle.model, options), None, False
    except TimeUp as err:
        why = cut_off_words(engine, err.reached_words(), err.grace)
        return _lost(stream, task, engine, why, start), None, False
    except KeyboardInterrupt:
        return _lost(stream, task, engine, lost_words(engine), start), None, True


def _raced(race: Race) -> tuple[Result, Race | None, bool]:
    """``auto``'s answer, and its race when a racer had a part in it (a race no racer
    joined, the model's own argument answering, has none to print)."""
    return race.result, race if race.checks else None, False


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
            out["race"] = race_json(race, puzzle)
        if getattr(cli.args, "plan_file", None):  # written or not, and why
            from .plan_file import plan_file_json

            out["plan_file"] = plan_file_json(result, cli.args.plan_file)
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
        parts.append(f"{plural(result.explored, 'state or node', 'states or nodes')} explored")
    parts += [f"{k} {v:,}" if isinstance(v, int) and not isinstance(v, bool) else f"{k} {v}"
              for k, v in result.details.items()]
    return "statistics: " + "; ".join(parts)
