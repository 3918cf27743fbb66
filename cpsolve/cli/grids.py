"""``cpsolve count --up-to`` and ``cpsolve generate``: the grid commands (classes of
solutions under symmetry; puzzles with a unique solution)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engines import Options
from .session import exit_code

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
        return cli.fail(str(err), 2)
    if cli.args.json:
        cli.emit(json_classes(puzzle, result))
    else:
        cli.out.print(human_classes(puzzle, result), crop=False)
    return exit_code(result)

def generate(cli: Cli) -> int:
    """``generate``: every (or N random) unique puzzle(s) with K givens, up to symmetry."""
    from ..output.grids import human_generation, json_generation
    from ..workflows.grids.counting import SymmetryError
    from ..workflows.grids.generator import Disagreement, Generator, TooLarge

    args = cli.args
    puzzle = cli.load(args.file)
    if puzzle.model.kind != "csp":
        return cli.fail(f"{args.file}: generate makes puzzles from a csp model (a grid); "
                         f"this is a {puzzle.model.kind} model", 2)
    engine = args.engine
    check = None if args.check in (None, "auto") else args.check
    gens = []
    try:
        with cli.progress(f"{engine} generate") as options, \
                cli.clock.guard("generating", cli.clock.grace()):
            gen = Generator(puzzle.model, puzzle.symmetry(), engine,
                            Options(time_limit=options.time_limit,
                                    progress=options.progress))
            for k in args.givens:
                if args.random is not None:
                    gens.append(gen.random(k, args.random, args.seed, args.minimal,
                                           check=check))
                else:
                    every = gen.every(k, args.minimal, not args.count or bool(args.check))
                    gens.append(gen.check(every, check) if args.check else every)
    except (SymmetryError, ValueError) as err:
        if isinstance(err, TooLarge):
            return cli.fail(str(err), 1)
        return cli.fail(str(err), 2)
    except Disagreement as err:
        return cli.fail(f"engines disagree: {err}", 1)
    boards = not args.count
    if args.json:
        cli.emit(json_generation(puzzle, gen.sym, gens, engine, boards))
    else:
        cli.out.print(human_generation(puzzle, gen.sym, gens, engine, boards,
                                        cli.out.width))
    short = args.random is not None and any(len(g.puzzles) < args.random for g in gens)
    return 1 if short else 0
