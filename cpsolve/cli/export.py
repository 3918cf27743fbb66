"""``cpsolve export``: a model in another system's format (PDDL, MiniZinc)."""

from __future__ import annotations

from contextlib import suppress

from ..engines.runtime import interrupt
from ..interop import ExportError, ExportStopped, TooLarge
from ..puzzles.files import resolve
from .checks import over_input
from .session import INTERRUPTED, Cli
from .sources import file_name

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from pathlib import Path


def export(cli: Cli) -> int:
    """``export``: the model in another system's format, written into ``--output``."""
    from functools import partial

    args = cli.args
    puzzle = cli.load(args.file)
    kind = puzzle.model.kind
    wanted = "planning" if args.to == "pddl" else "csp"
    if kind != wanted:
        return cli.fail(f"{file_name(args.file)}: --to {args.to} exports {wanted} models; "
                         f"this is a {kind} model "
                         f"(--to {'minizinc' if kind == 'csp' else 'pddl'})", 2)
    if args.to == "pddl":  # grounding can be long: the first Ctrl-C or SIGTERM ends it
        from ..interop.pddl import export

        write = partial(export, stop=interrupt.requested)
    else:
        from ..interop.minizinc import export as write
    try:
        exported = write(puzzle.model)
        if interrupt.requested():  # asked after the last piece of work: nothing written
            raise ExportStopped
        return _written(cli, exported)
    except ExportStopped:
        return cli.fail(f"interrupted while exporting {file_name(args.file)}", INTERRUPTED)
    except ExportError as err:
        advice = "; cpsolve solve --engine cpsat or --engine search takes the model as it " \
            "is" if isinstance(err, TooLarge) else ""
        return cli.fail(f"{file_name(args.file)}: cannot export to {args.to}: {err}{advice}",
                        2)


def _written(cli: Cli, exported) -> int:
    """``exported``'s files written into ``--output`` and named on stdout, each that replaced
    a file already there (never an input: refused before) said to have; the exit code
    (:class:`ExportStopped` when a stop came before they were in place)."""
    from pathlib import Path

    args = cli.args
    out = Path(args.output)
    stem = resolve(args.file).stem if isinstance(args.file, str) else \
        Path(args.file[1]).stem
    files = exported.files(stem)
    why = over_input(args, [("--output", str(out / name)) for name in files], cli.read)
    if why:
        return cli.fail(why, 2)
    replaced = {name for name in files if (out / name).exists()}  # said: never silently
    failed = _put(cli, out, files)
    if failed is not None:
        return failed
    for name in files:
        said = " (replaced the file that was there)" if name in replaced else ""
        cli.out.print(f"{out / name}{said}", soft_wrap=True)
    if args.to == "pddl":
        cli.out.print(f"requirements: domain {' '.join(exported.domain_requirements)}; "
                      f"problem {' '.join(exported.problem_requirements) or '(none of its own)'}"
                      f"; {len(exported.variants)} ground actions", soft_wrap=True)
    return 0


def _put(cli: Cli, out: Path, files: dict[str, str]) -> int | None:
    """Write ``files`` into ``out`` (made when it is a new folder in an existing one) all or
    none; the exit code of a failure (said on stderr), else None."""
    given = cli.args.output
    new = not out.is_dir()
    if new:
        if out.exists() or not out.parent.is_dir():
            return cli.fail(f"--output {given}: not a directory (and not a new folder "
                            "in an existing one)", 2)
        try:
            out.mkdir()  # a new folder in an existing one, as `-o out/` suggests
        except OSError as err:
            return cli.fail(f"--output {given}: not a directory, and it cannot be "
                            f"created ({err.strerror or err})", 2)
    # every file before any line: a reader that goes (`| head`) leaves none unwritten
    why: str | None = "stopped"
    try:
        why = _write_all(out, files, given)
    finally:
        if new and why is not None:  # failed or stopped (ExportStopped): nothing written
            with suppress(OSError):
                out.rmdir()
    return None if why is None else cli.fail(why, 2)


def _write_all(out: Path, files: dict[str, str], given: str) -> str | None:
    """Write every file into ``out``, or none: why one could not be written, else None;
    :class:`ExportStopped` when a stop was asked for before they were in place."""
    from ..engines.runtime.output_files import NoReader, write_together

    paths = {str(out / name): name for name in files}
    try:
        done = write_together({str(out / name): text for name, text in files.items()},
                              stop=interrupt.requested)
    except NoReader as err:
        return str(err)
    except OSError as err:
        name = paths.get(err.filename, err.filename)
        return f"--output {given}: cannot write {name} ({err.strerror or err})"
    if not done:
        raise ExportStopped
    return None
