"""``cpsolve show``: a model drawn (SVG), or its answer (a solved board, a plan page, a
gallery of solutions)."""

from __future__ import annotations

from ..engines import run
from ..engines.runtime.alarms import printing
from .option_rules import wrong_kind
from .session import Cli, exit_code
from .sources import file_name
from .writing import save, say_wrote, write_text


def show(cli: Cli) -> int:
    """``show``: the puzzle drawn, or its answer (a solved board, a plan page, a gallery)."""
    from dataclasses import replace

    args = cli.args
    puzzle = cli.load(args.file)
    kind = puzzle.model.kind
    why = wrong_kind(args, {file_name(args.file): kind}) or _wrong_flag(args, kind)
    if why:
        return cli.fail(why, 2)
    task = "count" if args.gallery else \
        "solve" if args.plan or (kind == "csp" and not args.unsolved) else None
    if task is None:
        from ..output.draw import picture
        from ..output.draw.page import board_page

        svg = picture(puzzle).svg
        words = "the start" if kind == "planning" else "the puzzle, unsolved"
        text = board_page(puzzle, svg, None, words) if args.html else svg
        write_text(args.svg or args.html, text, bool(args.svg))
        say_wrote(cli, args.svg or args.html,
                  words + ("; --plan draws the plan" if kind == "planning" else ""))
        return 0
    engine = args.engine
    with cli.progress(f"{engine} {task}") as options, \
            cli.clock.guard(f"running {engine}", cli.clock.grace()):
        # one solution more than drawn: a count that stops short of it is exact
        limit = args.gallery + 1 if args.gallery else None
        options = replace(options, limit=limit, keep=bool(args.gallery))
        result = _drawn(run(engine, task, puzzle.model, options), args.gallery)
    with printing(answer=True):  # the engine's work is done: the clock no longer cuts the
        from ..output.draw.show import Shown, wrote_words  # picture; it stops the drawing

        drawing = save(cli, Shown(puzzle, result), args.svg or args.html, bool(args.svg))
        say_wrote(cli, args.svg or args.html, wrote_words(puzzle, result, drawing))
    code = exit_code(result, args.gallery)
    # a page cut short by a limit fell short of the answer (Ctrl-C: 130, by the caller)
    return max(1, code) if drawing.cut else code



def _wrong_flag(args, kind: str) -> str | None:
    """Why a flag of ``show`` that draws one kind of model's answer is refused for a model of
    ``kind`` (None: it is not): ``--plan`` a planning model's, ``--gallery`` and
    ``--unsolved`` a csp's (a planning model's picture is its start, unsolved anyway)."""
    for flag, given, needs in (("--plan", args.plan, "planning"),
                               ("--gallery", args.gallery, "csp"),
                               ("--unsolved", args.unsolved, "csp")):
        if given and kind != needs:
            return f"{flag} needs a {needs} model; {file_name(args.file)} is a {kind} model"
    return None


def _drawn(result, gallery: int | None):
    """``result`` with no more listed solutions than ``--gallery`` draws (the count found
    one more when there is one, to tell "exactly N" from "at least N + 1")."""
    from dataclasses import replace

    from ..answers.kinds import Count

    answer = result.answer
    if not gallery or not isinstance(answer, Count) or answer.solutions is None:
        return result
    return result.but(answer=replace(answer, solutions=answer.solutions[:gallery]))
