"""The ``cpsolve`` command line.

Exit codes: 0 an answer (a solution, a count, an analysis, or a proof that
there is none); 1 no answer within the limits, or engines that disagree;
2 a bad command line or model file; 3 an engine bug caught by the checker, an
engine that cannot be imported (a broken installation) or an internal error;
130 interrupted (Ctrl-C or SIGTERM), after printing what was found.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property

from .arguments import AUTO_BUDGET, parser, printable
from .batch import by_invariant
from .clock import Clock, TimeUp
from .engines import (
    Options,
    interrupt,
    memory,
    run,
)
from .export import ExportError
from .files import bundled, load, resolve
from .model import ModelError
from .puzzles.data import ModelFileError
from .result import EngineBug, Result, Status, Unsupported
from .words import plural

INTERRUPTED = 130
"""Exit code after Ctrl-C or SIGTERM (128 + SIGINT): what was found is printed first."""



def race_json(race) -> dict:
    """What every engine of an ``auto`` run did, for ``--json`` (key ``race``)."""
    return {"answered_by": race.result.engine, "disagreements": list(race.problems),
            "engines": [{"engine": c.engine, "role": _role(race, c.engine),
                         "status": c.result.status.value if c.result else None,
                         "seconds": round(c.result.seconds, 6) if c.result else None,
                         "bound": c.result.bound if c.result else None,
                         "note": c.note or (c.result.message if c.result else "")}
                        for c in race.checks]}


def _role(race, engine: str) -> str:
    if engine == race.result.engine:
        return "answered"
    return "confirmed" if engine in race.confirmed_by else "cross_check"


def race_text(race):
    """One line per engine of an ``auto`` run: who answered, who confirmed, who ran out."""
    from rich.text import Text

    from .compare import answer_of

    lines = Text()
    for c in race.checks:
        role = _role(race, c.engine).replace("_", "-")
        what = (f"{answer_of(c.result)}, {c.result.seconds:.3f} s" if c.result else c.note)
        lines.append(f"  {c.engine:<7} {role:<11} {what}\n", style="dim")
    for problem in race.problems:
        lines.append(f"  DISAGREEMENT: {problem}\n", style="bold red")
    return lines


class OutputError(Exception):
    """Writing an output file failed after the answer was printed."""


def exit_code(result: Result, limit: int | None = None) -> int:
    """1 when a limit stopped the work short of what was asked, else 0.

    A count stopped by the user's own ``--limit`` answered what was asked.
    """
    if result.status in (Status.UNKNOWN, Status.PARTIAL):
        return 1
    return 1 if result.status is Status.AT_LEAST and limit is None else 0


class Cli:
    """One invocation: consoles and the shared error handling."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.clock = Clock(getattr(args, "time_limit", None))
        self.loaded: dict[str, object] = {}
        """Puzzles already loaded, by the name given (a file's second load is never needed)."""
        nbytes = getattr(args, "memory_limit", None)
        if nbytes is None and args.command not in ("models", "schema", "completion"):
            nbytes = memory.default_limit()
        memory.set_limit(None if nbytes is None or nbytes == math.inf else int(nbytes))

    def auto_budget(self) -> float | None:
        """Seconds for ``--engine auto``: what is left of --time-limit, none for
        ``--time-limit none``, else :data:`AUTO_BUDGET`."""
        if self.clock.limit is not None:
            return self.clock.left()
        return None if getattr(self.args, "time_limit", None) == math.inf else AUTO_BUDGET

    def load(self, name: str | tuple[str, str]):
        """The puzzle of a model file (or bundled model name), or of a PDDL ``(domain,
        problem)`` pair, loaded within the time limit (once: :meth:`is_batch` keeps the
        puzzle it loaded to look)."""
        if isinstance(name, str) and name in self.loaded:
            return self.loaded.pop(name)
        with self.clock.guard(f"loading {name if isinstance(name, str) else name[1]}"):
            if isinstance(name, tuple):
                from .puzzles.pddl_task import load as load_pddl

                return load_pddl(*name)
            return load(resolve(name))

    @cached_property
    def out(self):
        """The console for results (rich, loaded on first use: --json never needs it)."""
        from rich.console import Console

        return Console(highlight=False)

    @cached_property
    def err(self):
        """The console for progress lines, on stderr."""
        from rich.console import Console

        return Console(stderr=True, highlight=False)

    @contextmanager
    def progress(self, what: str) -> Iterator[Options]:
        """Options with a progress callback that shows a status line on a terminal
        (none when stderr is not one: nothing would be shown, and rich is not loaded)."""
        options = Options(
            time_limit=self.clock.left(),
            limit=getattr(self.args, "limit", None),
            algorithm=getattr(self.args, "algorithm", None),
            keep=getattr(self.args, "list", False),
            direction=getattr(self.args, "direction", None),
            satisficing=getattr(self.args, "satisficing", False),
            work_dir=getattr(self.args, "work_dir", None),
            resume=getattr(self.args, "resume", False),
            memory_limit=self.array_budget(),
            cluster=self.cluster(),
            find_hint=not getattr(self.args, "no_hint", False),
        )
        if not (sys.stderr.isatty() or os.environ.get("FORCE_COLOR")):
            yield options
            return
        with self.err.status(what) as status:
            def report(line: str) -> None:
                status.update(f"{what}: {line}")

            yield dataclasses.replace(options, progress=report)

    def array_budget(self) -> int | None:
        """Bytes for an on-disk analysis's big arrays: half of ``--memory-limit``, so the
        whole process stays under the limit that stops it (without one: the analysis's own
        default budget)."""
        nbytes = getattr(self.args, "memory_limit", None)
        return None if nbytes is None or nbytes == math.inf else int(nbytes) // 2

    def cluster(self) -> int | str | None:
        """``--workers N`` (a local cluster of N), ``--scheduler ADDRESS``, or None."""
        return getattr(self.args, "workers", None) or getattr(self.args, "scheduler", None)

    def fail(self, message: str, code: int) -> int:
        """Print one plain line on stderr (never wrapped, never read as markup)."""
        return fail(message, code)

    def one(self, task: str) -> int:
        puzzle = self.load(self.args.file)
        if task == "count" and (puzzle.model.kind == "planning") != self.args.optimal:
            return self.fail("`count --optimal` counts the optimal plans of a planning model; "
                             f"without --optimal, count applies to csp models ({self.args.file} "
                             f"is a {puzzle.model.kind} model)", 2)
        engine = self.args.engine
        if getattr(self.args, "algorithm", None):  # an algorithm is the search engine's
            if engine == "auto":
                engine = "search"
            elif engine != "search":
                return self.fail(f"--algorithm chooses a search algorithm; --engine {engine} "
                                 "has none (drop --engine, or use --engine search)", 2)
        if getattr(self.args, "satisficing", False) and engine != "fd":
            return self.fail("--satisficing chooses Fast Downward's satisficing planner: "
                             "use it with --engine fd", 2)
        result, race = by_invariant(puzzle, task, getattr(self.args, "list", False)), None
        if result is None:
            with self.progress(f"{engine} {task}") as options, interrupt.handling(), \
                    self.clock.guard(f"running {engine}", self.clock.grace()):
                if engine == "auto":
                    from .race import race as run_race

                    race = run_race(task, puzzle.model, options, self.auto_budget())
                    result = race.result
                else:
                    result = run(engine, task, puzzle.model, options)
        if self.args.json:
            from .render_json import result_json

            out = result_json(puzzle, result)
            if race is not None:
                out["race"] = race_json(race)
            print(json.dumps(out, ensure_ascii=False))
        else:
            from .render import human

            self.out.print(human(puzzle, result))
            if race is not None:
                self.out.print(race_text(race))
        if getattr(self.args, "svg", None) or getattr(self.args, "html", None):
            from .draw.show import Shown

            save(Shown(puzzle, result), self.args.svg or self.args.html)
        if interrupt.by_user():
            return INTERRUPTED
        if race is not None and race.problems:
            return 1
        return exit_code(result, getattr(self.args, "limit", None))

    def is_batch(self) -> bool:
        """True when ``solve`` was given several files, a directory or a collection."""
        from .files import load_many

        names = self.args.files
        if len(names) > 1 or resolve(names[0]).is_dir():
            return True
        with self.clock.guard(f"loading {names[0]}"):
            puzzles = load_many(resolve(names[0]))
            first, second = next(puzzles, None), next(puzzles, None)
        if second is None and first is not None:
            self.loaded[names[0]] = first  # one puzzle: solve() takes it from here
        return second is not None

    def batch(self) -> int:
        """``solve`` over many instances: one table (or JSON lines), then throughput."""
        import time

        from rich.progress import Progress

        from .batch import instances, solve_all, summary
        from .render import batch_table, result_line

        args = self.args
        start = time.monotonic()
        items = list(instances(args.files))
        deadline = None if self.clock.limit is None else start + self.clock.left()
        rows = []
        with Progress(console=self.err, transient=True) as bar:
            task = bar.add_task("solving", total=len(items))
            options = Options(limit=None, algorithm=args.algorithm, find_hint=not args.no_hint)
            if self.cluster():
                from functools import partial

                from .batch import Row, on_cluster, solve_within

                solved = on_cluster(items, partial(solve_within, engine=args.engine,
                                                   options=options),
                                    self.cluster(), self.clock.left(),
                                    lambda item, why: Row(item.source, item.puzzle, None, why))
            else:
                solved = solve_all(items, args.engine, options, args.jobs, deadline)
            for row in solved:
                rows.append(row)
                bar.advance(task)
                if args.json:
                    print(json.dumps(result_line(row), ensure_ascii=False), flush=True)
        figures = summary(rows, time.monotonic() - start, args.engine)
        if args.json:
            print(json.dumps({"batch": figures}, ensure_ascii=False))
        else:
            self.out.print(batch_table(rows))
            rate = f"{figures['per_second']:,.1f}" if figures["per_second"] else "-"
            counts = ", ".join(f"{n:,} {k}" for k, n in sorted(figures["statuses"].items()))
            done = plural(figures["instances"], "instance")
            self.out.print(f"{done} in {figures['seconds']:.2f} s "
                           f"({rate} per second, {args.engine}): {counts}")
        if any(r.result is None for r in rows):
            return 2 if any(r.puzzle is None for r in rows) else 1
        return max(exit_code(r.result) for r in rows)

    def show(self) -> int:
        """``show``: the puzzle drawn, or its answer (a solved board, a plan page, a gallery)."""
        from dataclasses import replace

        from .draw import picture
        from .draw.page import board_page
        from .draw.show import Shown

        args = self.args
        puzzle = self.load(args.file)
        kind = puzzle.model.kind
        if (args.plan and kind != "planning") or (args.gallery and kind != "csp"):
            flag = "--plan" if args.plan else "--gallery"
            return self.fail(f"{flag} needs a {'planning' if args.plan else 'csp'} model; "
                             f"{args.file} is a {kind} model", 2)
        if args.plan and args.svg:
            return self.fail("--plan writes a page that steps through the plan: use --html", 2)
        task = "count" if args.gallery else \
            "solve" if args.plan or (kind == "csp" and not args.unsolved) else None
        if task is None:
            svg = picture(puzzle).svg
            text = board_page(puzzle, svg, None, "the start") if args.html else svg
            _write(args.svg or args.html, text, bool(args.svg))
            return 0
        engine = args.engine
        result = by_invariant(puzzle, task)
        if result is None:
            with self.progress(f"{engine} {task}") as options, interrupt.handling(), \
                    self.clock.guard(f"running {engine}", self.clock.grace()):
                options = replace(options, limit=args.gallery, keep=bool(args.gallery))
                result = run(engine, task, puzzle.model, options)
        save(Shown(puzzle, result), args.svg or args.html)
        print(f"wrote {args.svg or args.html} ({task}: {result.status.value}, {engine})")
        return exit_code(result, args.gallery)

    def export(self) -> int:
        """``export``: the model in another system's format, written into ``--output``."""
        from pathlib import Path

        args = self.args
        puzzle = self.load(args.file)
        kind = puzzle.model.kind
        wanted = "planning" if args.to == "pddl" else "csp"
        if kind != wanted:
            return self.fail(f"{args.file}: --to {args.to} exports {wanted} models; this is a "
                             f"{kind} model (--to {'minizinc' if kind == 'csp' else 'pddl'})", 2)
        if args.to == "pddl":
            from .export.pddl import export
        else:
            from .export.minizinc import export
        try:
            exported = export(puzzle.model)
        except ExportError as err:
            return self.fail(f"{args.file}: cannot export to {args.to}: {err}", 2)
        out = Path(args.output)
        if not out.is_dir():
            return self.fail(f"--output {args.output}: not a directory", 2)
        stem = resolve(args.file).stem
        for name, text in exported.files(stem).items():
            try:
                (out / name).write_text(text, encoding="utf-8")
            except OSError as err:
                return self.fail(f"--output {args.output}: cannot write {name} "
                                 f"({err.strerror or err})", 2)
            print(out / name)
        if args.to == "pddl":
            print(f"requirements: domain {' '.join(exported.domain_requirements)}; problem "
                  f"{' '.join(exported.problem_requirements) or '(none of its own)'}; "
                  f"{len(exported.variants)} ground actions")
        return 0

    def models(self) -> int:
        from rich.table import Table
        from rich.text import Text

        rows = []
        for path in bundled():
            try:
                puzzle = load(path)
                rows.append({"file": path.name, "name": puzzle.name, "family": puzzle.family,
                             "kind": puzzle.model.kind, "description": puzzle.description})
            except ModelFileError as err:
                rows.append({"file": path.name, "error": err.message})
        if self.args.json:
            print(json.dumps({"command": "models", "models": rows}, ensure_ascii=False))
            return 0
        table = Table(box=None)
        table.add_column("file", no_wrap=True)
        table.add_column("family", no_wrap=True)
        table.add_column("description")
        for row in rows:
            if "error" in row:
                table.add_row(Text(row["file"]), "?", Text(f"(broken: {row['error']})"))
            else:
                table.add_row(Text(row["file"]), row["family"],
                              Text(row["description"] or row["name"]))
        self.out.print(table)
        return 0


def pddl_pairs(files: list[str]) -> list[tuple[str, str]]:
    """``DOMAIN.pddl PROBLEM.pddl...`` as (domain, problem) pairs; ``[]`` when the files
    are not PDDL.  A file list that mixes PDDL and model files is a bad command line."""
    pddl = [f.lower().endswith(".pddl") for f in files]
    if not any(pddl):
        return []
    if not all(pddl) or len(files) < 2:
        raise ModelFileError(files[0], "PDDL comes as a domain file and problem file(s), all "
                             "ending in .pddl (DOMAIN.pddl PROBLEM.pddl...)")
    return [(files[0], problem) for problem in files[1:]]


def file_name(name: str | tuple[str, str]) -> str:
    """A source as the output names it (a PDDL pair as its two files)."""
    return name if isinstance(name, str) else f"{name[0]} {name[1]}"


@dataclasses.dataclass(frozen=True)
class Named:
    """A table row's model when only its source is known (a file that did not load)."""

    name: str


def _write(path: str, text: str, svg: bool) -> None:
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' if svg else ""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(head + text)
    except OSError as err:
        raise OutputError(f"{path}: cannot write: {err.strerror or err}") from None


def save(shown, path: str) -> None:
    """Write a drawn answer; a failure is the user's path, not a bug (exit 2)."""
    try:
        shown.save(path)
    except OSError as err:
        raise OutputError(f"{path}: cannot write: {err.strerror or err}") from None


def fail(message: str, code: int) -> int:
    """Print ``error: message`` as one plain line on stderr and return ``code``."""
    print(f"error: {printable(message)}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``cpsolve`` console script.

    Whatever happens, a user sees one line on stderr, never a traceback
    (set ``CPSOLVE_DEBUG=1`` to see one): exit 2 for a bad command line or
    model file, 3 for an engine bug or an internal error, 130 when interrupted.
    """
    try:
        return _main(argv)
    except BrokenPipeError:  # `cpsolve ... | head`: the reader has gone
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        return fail("interrupted", INTERRUPTED)
    except RecursionError:
        return fail("the model is nested too deeply to be handled", 2)
    except MemoryError:
        return fail("out of memory (the memory limit was not reached in time: lower "
                    "--memory-limit)", 1)
    except Exception as err:  # noqa: BLE001 - the last line of defence
        if os.environ.get("CPSOLVE_DEBUG"):
            raise
        return fail(f"internal error ({type(err).__name__}: {err}); this is a bug in "
                    "cpsolve — set CPSOLVE_DEBUG=1 to see the traceback", 3)
    finally:
        interrupt.clear()  # a stop asked for by this command ends with it (the API goes on)
        memory.set_limit(None)


def _main(argv: list[str] | None) -> int:
    interrupt.clear()
    p = parser()
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        p.print_help()
        return 0
    args = p.parse_args(argv)
    cli = Cli(args)
    try:
        if args.command == "models":
            return cli.models()
        if args.command == "schema":
            from .schema import schema

            print(json.dumps(schema(), indent=2, ensure_ascii=False))
            return 0
        if args.command == "completion":
            from .completion import script

            print(script(parser(), args.shell), end="")
            return 0
        if args.command == "compare":
            from .cli_compare import compare

            return compare(cli)
        if args.command == "export":
            return cli.export()
        if args.command == "generate":
            from .cli_grids import generate

            return generate(cli)
        if args.command == "show":
            return cli.show()
        if args.command == "count" and args.up_to:
            if args.optimal:
                return cli.fail("--optimal and --up-to do not go together", 2)
            from .cli_grids import count_up_to

            return count_up_to(cli)
        if args.command == "analyze" and args.resume and not args.work_dir:
            return cli.fail("--resume goes on from the layers kept in --work-dir DIR: give it", 2)
        if args.command == "analyze" and args.algorithm and (
                args.work_dir or args.workers or args.scheduler):
            return cli.fail(f"--algorithm {args.algorithm} analyzes in memory; --work-dir, "
                            "--workers and --scheduler choose the analysis on disk or on a "
                            "cluster: give one or the other", 2)
        if args.command == "solve" and args.jobs > 1 and cli.cluster():
            return cli.fail("--jobs runs local processes; with --workers or --scheduler the "
                            "cluster's workers do the work: give one of them", 2)
        if args.command == "solve":
            args.file = args.files[0]
            pairs = pddl_pairs(args.files)
            if pairs:
                if len(pairs) > 1:
                    return cli.fail("solve takes one PDDL domain and one problem (compare "
                                    "takes a domain and several problems)", 2)
                args.file = pairs[0]
            elif cli.is_batch():
                return cli.batch()
            if cli.cluster():
                return cli.fail("--workers and --scheduler run batches (several files, a "
                                "directory or a collection): one instance runs here", 2)
        return cli.one(args.command)
    except (ModelFileError, OutputError) as err:
        return cli.fail(str(err), 2)
    except (Unsupported, ModelError) as err:
        return cli.fail(str(err), 2)
    except EngineBug as err:
        return cli.fail(f"engine bug (the answer failed the independent check): {err}", 3)
    except ImportError as err:
        return cli.fail(str(err), 3)
    except TimeUp as err:
        return cli.fail(str(err), 1)


if __name__ == "__main__":
    sys.exit(main())
