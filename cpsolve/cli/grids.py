"""``cpsolve count --up-to`` and ``cpsolve generate``: the grid commands (classes of
solutions under symmetry; puzzles with a unique solution)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..engines import Options
from ..engines.runtime.alarms import printing
from .session import exit_code
from .sources import file_name
from .warn import against_expected, with_mismatch

if TYPE_CHECKING:
    from .session import Cli


def count_up_to(cli: Cli) -> int:
    """``count --up-to``: classes of solutions under renaming (and board symmetries)."""
    from ..output.grids import human_classes, json_classes
    from ..workflows.grids.counting import SymmetryError, count_up_to

    puzzle = cli.load(cli.args.file)
    if puzzle.model.kind != "csp":
        return cli.fail(f"{cli.args.file}: count --up-to counts classes of solutions of a "
                         f"csp model; this is a {puzzle.model.kind} model", 2)
    engine = "cpsat" if cli.args.engine == "auto" else cli.args.engine
    try:
        with cli.progress(f"{engine} count up to {cli.args.up_to}") as options:
            result = count_up_to(puzzle.model, puzzle.symmetry(), cli.args.up_to, engine,
                                 options)
    except SymmetryError as err:
        return cli.fail(about_the_file(cli, err), 2)
    with printing(answer=True):  # the work is done: the clock no longer cuts the answer
        mismatch = against_expected(puzzle, result)
        if cli.args.json:
            cli.emit(with_mismatch(json_classes(puzzle, result), mismatch))
        else:
            cli.out.print(human_classes(puzzle, result), crop=False)
    return exit_code(result)


def about_the_file(cli: Cli, err: Exception) -> str:
    """``err``'s line, naming the file when it is about the model's content (its symmetry,
    its givens, its solutions); one about an option (``--givens 5: ...``) names that."""
    from ..workflows.grids.counting import SymmetryError
    from ..workflows.grids.generator import NoSolution, TooLarge

    if isinstance(err, (SymmetryError, NoSolution, TooLarge)):
        return f"{file_name(cli.args.file)}: {err}"
    return str(err)


def generate(cli: Cli) -> int:
    """``generate``: every (or N random) unique puzzle(s) with K givens, up to symmetry.

    A stop (Ctrl-C, SIGTERM, the time limit) ends it with what was generated so far, each
    number of givens saying why it is short: exit 130 after Ctrl-C (:func:`cli._guarded`),
    1 when anything is short of what was asked."""
    from ..workflows.grids.counting import SymmetryError
    from ..workflows.grids.generator import Disagreement, TooLarge

    puzzle = cli.load(cli.args.file)
    if puzzle.model.kind != "csp":
        return cli.fail(f"{cli.args.file}: generate makes puzzles from a csp model (a grid); "
                         f"this is a {puzzle.model.kind} model", 2)
    try:
        gen, gens = _generations(cli, puzzle)
    except (SymmetryError, ValueError) as err:
        return cli.fail(about_the_file(cli, err), 1 if isinstance(err, TooLarge) else 2)
    except Disagreement as err:
        return cli.fail(f"engines disagree: {err}", 1)
    with printing(answer=True):  # what was generated is written whole, past the limit too
        _print_generations(cli, puzzle, gen.sym, gens)
    asked = cli.args.random
    short = any(g.short or asked is not None and len(g.puzzles) < asked for g in gens)
    return 1 if short else 0


def _generations(cli: Cli, puzzle) -> tuple:
    """The generator and its generation for each number of givens asked.  Stopped at once
    (a second Ctrl-C, a first one not answered within a second, the clock past its grace)
    once the generator is made, the numbers of givens not finished say so; before, the
    stop goes on up."""
    from ..answers.result import cut_off_words, lost_words
    from ..engines.runtime import interrupt
    from ..engines.runtime.clock import TimeUp
    from ..workflows.grids.generator import Generation, Generator

    args = cli.args
    check = None if args.check in (None, "auto") else args.check
    gen, gens, began = None, [], time.perf_counter()
    try:
        with cli.progress(f"{args.engine} generate") as options, \
                cli.clock.guard("generating", cli.clock.grace()), interrupt.escalating():
            gen = Generator(puzzle.model, puzzle.symmetry(), args.engine,
                            Options(time_limit=options.time_limit, progress=options.progress))
            for k in args.givens:
                began = time.perf_counter()  # the seconds of one cut off
                if args.random is not None:
                    gens.append(gen.random(k, args.random, args.seed, args.minimal,
                                           check=check))
                else:
                    every = gen.every(k, args.minimal, not args.count or bool(args.check))
                    gens.append(gen.check(every, check) if args.check else every)
    except (KeyboardInterrupt, TimeUp) as err:
        if gen is None:
            raise
        why = lost_words("generation") if isinstance(err, KeyboardInterrupt) else \
            cut_off_words("generation", err.reached_words(), err.grace)
        method = "exhaustive" if args.random is None else "random"
        ran = time.perf_counter() - began  # the one under way; those after it never began
        gens += [Generation(k, method, (), seconds=0.0 if i else ran, message="not finished",
                            short=why) for i, k in enumerate(args.givens[len(gens):])]
    return gen, gens


def _print_generations(cli: Cli, puzzle, sym, gens: list) -> None:
    """The generations, in JSON or as figures and boards.  A Ctrl-C while they are being
    written (they can be tens of thousands of boards) ends the output early, saying so;
    one that came before is the generation's own stop: what it made is written whole."""
    from ..engines.runtime import interrupt
    from ..output.grids import human_generation, json_generation
    from ..output.shown import Lines

    def stop() -> str:
        return interrupt.reason() if interrupt.requested() else ""

    stop_now = (lambda: "") if interrupt.requested() else stop
    boards = not cli.args.count
    if cli.args.json:
        cli.emit(json_generation(puzzle, sym, gens, cli.args.engine, boards, stop_now))
        return
    for part in human_generation(puzzle, sym, gens, cli.args.engine, boards, cli.out.width):
        if why := stop_now():
            cli.out.print(f"{why} while the puzzles were being written: the rest are not "
                          "shown", markup=False, crop=False)
            return
        plain = isinstance(part, Lines)  # boards: they fit the width, printed as they are
        cli.out.print(part, crop=False, soft_wrap=plain, highlight=False)
