"""Each command's options and their help, added to :func:`.arguments.parser` one function
per command (:data:`COMMANDS`), and the groups of options several commands share
(:func:`common`, :func:`cluster`, :func:`no_hint`, :func:`pictures`)."""

from __future__ import annotations

import argparse

from ..engines import ENGINES, TASKS, every
from ..engines.option_choices import AUTO_BUDGET, DIRECTIONS
from ..engines.runtime import memory
from ..interop import FORMATS
from .checks import (
    integer,
    memory_size,
    natural,
    output_file,
    output_folder,
    path_name,
    positive,
    processes,
    scheduler_address,
    seconds,
    states,
    work_folder,
)
from .interop_options import (
    MODEL_FILE,
    mzn_solver,
    pddl_problem,
    statistics,
    validate_command,
)

ANALYZERS = ["search"]
"""Engines that can analyze a state space."""

FILE_HELP = f"{MODEL_FILE}, or a PDDL domain (DOMAIN.pddl, its problem next)"
"""The help of a command's one model file (one that takes a PDDL pair: :func:`pddl_problem`)."""

Commands = argparse._SubParsersAction
"""The subparsers of :func:`.arguments.parser` (argparse's own type for them)."""


def _solve(sub: Commands) -> None:
    s = sub.add_parser("solve", help="solve model files (several, a directory or a "
                       "collection: a batch)")
    from ..engines.search import registry as search_registry  # only when solve is named

    s.add_argument("files", nargs="+", metavar="FILE", type=path_name,
                   help=f"each {MODEL_FILE}, or a directory of them; several "
                   "instances make a batch: one table, or JSON lines with --json; or a PDDL "
                   "domain and problem (DOMAIN.pddl PROBLEM.pddl)")
    common(s, ["auto", *every()], "auto")
    s.add_argument("--satisficing", action="store_true",
                   help="--engine fd: a satisficing planner (lama-first) instead of the "
                   "optimal A* with LM-cut; its plans are not claimed optimal")
    s.add_argument("--jobs", type=processes, metavar="N",
                   help="batches: solve with N worker processes (default 1; a single "
                   "model is no batch and runs in this process)")
    s.add_argument("--algorithm", choices=search_registry.choices(),
                   help=search_registry.help_text())
    mzn_solver(s)
    statistics(s)
    s.add_argument("--plan-file", type=output_file, metavar="FILE", dest="plan_file",
                   help="planning models: write the plan in the IPC format, one "
                   "(action arg ...) per line (PDDL inputs: the PDDL action names, in lower "
                   "case; - for stdout, which then holds the plan file alone; default: "
                   "none); with no plan, nothing is written and an existing FILE is left as "
                   "it was, both said beside the answer")
    no_hint(s)
    s.add_argument("--unique", action="store_true",
                   help="csp: decide uniqueness even where it costs CP-SAT a second full "
                   "solve (a tour); grids and other csps decide it anyway")
    cluster(s, batches=True)


def _compare(sub: Commands) -> None:
    c = sub.add_parser("compare", help="every engine that applies, side by side")
    c.add_argument("files", nargs="+", metavar="FILE", type=path_name,
                   help=f"each {MODEL_FILE}, a directory of them or a collection (each "
                   "instance compared in turn; with --workers or --scheduler, one task per "
                   "instance); or a PDDL domain and problem")
    c.add_argument("--task", choices=TASKS, default="solve",
                   help="what every engine is asked (default: solve)")
    common(c)
    no_hint(c)
    cluster(c)


def _count(sub: Commands) -> None:
    n = sub.add_parser("count", help="count all solutions")
    n.add_argument("file", metavar="FILE", type=path_name, help=FILE_HELP)
    pddl_problem(n)
    common(n, ["auto", *every()], "auto")
    n.add_argument("-n", "--limit", type=positive, metavar="N",
                   help="stop after N solutions: at least N, exit 1 as for any count "
                   "stopped short; fewer than N found is the exact count (default: count "
                   "them all). With --up-to, N counts the solutions the engine enumerates "
                   "(a grid's: those with one row fixed, one per renaming), not classes: "
                   "stopped at N, the count is at least the classes among them")
    n.add_argument("--all", action="store_true", dest="all_solutions",
                   help="count every solution (the default; as MiniZinc's -a / --all)")
    n.add_argument("--list", action="store_true", help="print the solutions too")
    n.add_argument("--optimal", action="store_true",
                   help="planning models: count the optimal plans (distinct action sequences "
                   "of least cost; --limit caps how many are listed or enumerated); csp "
                   "models with minimize/maximize: count the optimal solutions")
    mzn_solver(n)
    statistics(n)
    n.add_argument("--up-to", choices=["relabel", "symmetry"], dest="up_to",
                   help="count classes: under renaming of the symbols (relabel), or under "
                   "that and the board's symmetries (symmetry) (default: every solution "
                   "counted on its own)")


def _generate(sub: Commands) -> None:
    g = sub.add_parser("generate", help="puzzles with a unique solution, up to symmetry")
    g.add_argument("file", metavar="FILE", type=path_name,
                   help=MODEL_FILE + " (a grid or csp model)")
    common(g, list(ENGINES), "cpsat")
    g.add_argument("--givens", type=natural, nargs="+", required=True, metavar="K",
                   help="number(s) of givens")
    g.add_argument("--count", action="store_true", help="print only the numbers")
    g.add_argument("--minimal", action="store_true",
                   help="keep puzzles from which no given can be removed")
    g.add_argument("--random", type=positive, metavar="N",
                   help="draw N puzzles instead of all (default: all)")
    g.add_argument("--seed", type=integer, metavar="S",
                   help="random seed (with --random; default: a different draw each run)")
    g.add_argument("--check", nargs="?", const="auto", choices=["auto", *ENGINES],
                   help="re-solve every puzzle with another engine (always done for --random; "
                   "default: not done otherwise; without a value: auto)")


def _analyze(sub: Commands) -> None:
    a = sub.add_parser("analyze", help="state space of a planning model")
    from ..engines.search import registry as search_registry  # only when analyze is named

    a.add_argument("file", metavar="FILE", type=path_name,
                   help=f"{MODEL_FILE} (a planning model), or a PDDL domain (DOMAIN.pddl, its "
                   "problem next)")
    pddl_problem(a)
    common(a, ANALYZERS, "search")
    a.add_argument("--limit", type=states, metavar="N",
                   help="explore at most N states, or none: no limit (from the goal, N "
                   "that can reach it, then N more counting those reachable from the start; "
                   "default: "
                   f"{search_registry.ANALYZE_LIMIT:,} for the numpy and python analyses in "
                   "memory; none for the bit map, on disk and on a cluster, whether asked for "
                   "or chosen by themselves: see --algorithm and --work-dir)")
    a.add_argument("--from", choices=list(DIRECTIONS), dest="direction",
                   help="explore the states reachable from the start, or the states that can "
                   "reach the goal (default: the goal when it is one state, else the start; "
                   "on disk always the start)")
    a.add_argument("--algorithm", choices=search_registry.analysis_choices(),
                   help="the analysis in memory: " + "; ".join(
                       f"{name}: {search_registry.ANALYSES[name].description}"
                       for name in search_registry.analysis_choices())
                   + " (default: bitmap when --limit is not given, or none, and the states "
                   "are permutations of 12 or 13 distinct values; else numpy, falling back to "
                   "python when the states do not pack; or on disk: see --work-dir)")
    a.add_argument("--work-dir", metavar="DIR", type=work_folder,
                   help="analyze on disk: keep the breadth-first layers under DIR (created "
                   "if its parent folder exists), big arrays "
                   "within half of --memory-limit (default: in memory, except that without "
                   "--from goal, with --limit not given, none or above "
                   f"{search_registry.ANALYZE_LIMIT:,}, a space whose packed states are too "
                   "many for the in-memory bit map and whose moves cannot all be undone, as "
                   "English 33's, goes on disk by itself, in a temporary directory)")
    a.add_argument("--resume", action="store_true",
                   help="with --work-dir: keep the layers a stopped run finished there and go on")
    cluster(a)
    pictures(a)


def _show(sub: Commands) -> None:
    w = sub.add_parser("show", help="draw a model as SVG, or a page (a plan player, a gallery)")
    w.add_argument("file", metavar="FILE", type=path_name, help=FILE_HELP)
    pddl_problem(w)
    common(w, list(ENGINES), "search", json_flag=False)
    w.add_argument("--plan", action="store_true",
                   help="planning models: solve and write a page that steps through the plan")
    w.add_argument("--gallery", type=positive, metavar="N",
                   help="csp models: find up to N solutions and draw them (the count "
                   "stops at N + 1: 'at least N + 1' when there are more than N, else "
                   "exactly; default: one picture of the solution)")
    w.add_argument("--unsolved", action="store_true",
                   help="csp models: draw the puzzle itself (by default it is solved first)")
    no_hint(w)
    pictures(w, required=True)


def _export(sub: Commands) -> None:
    x = sub.add_parser("export", help="write a model as PDDL (planning) or MiniZinc (csp)")
    x.add_argument("file", metavar="FILE", type=path_name, help=FILE_HELP)
    pddl_problem(x)
    x.add_argument("--to", choices=FORMATS, required=True,
                   help="pddl: domain and problem files; minizinc: model and data files")
    x.add_argument("-o", "--output", metavar="DIR", default=".", type=output_folder,
                   help="directory to write the files into, created if its parent exists "
                   "(default: the current one)")


def _validate(sub: Commands) -> None:
    validate_command(sub, seconds)


def _models(sub: Commands) -> None:
    """``models``, ``schema`` and ``completion`` (below): what cpsolve prints about itself."""
    m = sub.add_parser("models", help="list the bundled model files (usable by name anywhere)")
    m.add_argument("--json", action="store_true", help="print one JSON object")


def _schema(sub: Commands) -> None:
    sub.add_parser("schema", help="print the JSON Schema of every command's --json output")


def _completion(sub: Commands) -> None:
    comp = sub.add_parser("completion", help="print a shell completion script "
                          "(eval \"$(cpsolve completion bash)\" in ~/.bashrc)")
    comp.add_argument("shell", choices=["bash", "zsh"], help="the shell to complete for")


COMMANDS = (_solve, _compare, _count, _generate, _analyze, _show, _export, _validate,
             _models, _schema, _completion)
"""Each adds its command(s) and their arguments to :func:`.arguments.parser`, in the order of
its help."""


def common(cmd: argparse.ArgumentParser, engines: list[str] | None = None,
           default: str = "", json_flag: bool = True) -> None:
    """``--engine`` (when ``engines``), ``--time-limit``, ``--memory-limit`` and ``--json``."""
    if engines:
        cmd.add_argument("--engine", choices=engines, default=default,
                         help=f"engine to use (default: {default}"
                         + ("; auto races CP-SAT and search, the first proof wins and "
                            "the other cross-checks it within a short window, unless search "
                            "proves it alone within its 0.3 s head start: see --confirm"
                            if default == "auto" else "") + ")")
    if default == "auto":
        cmd.add_argument("--confirm", action="store_true",
                         help="auto: race CP-SAT and search from the start and wait for the "
                         "cross-check (default: off; search first runs alone for 0.3 s on "
                         "models it is expected to win, and a proof within that needs no "
                         "CP-SAT)")
    cmd.add_argument("--time-limit", type=seconds, metavar="S",
                     help="stop after S seconds and report what was proven ('none': no "
                     "limit at all; the default is none, except auto's budget of "
                     f"{AUTO_BUDGET:g} s for its engines, compare's {AUTO_BUDGET:g} s per "
                     "model and the search engine's 5 s for an optimality proof once it "
                     "has a plan; loading a model file has no limit but this one)")
    cmd.add_argument("--memory-limit", type=memory_size, metavar="SIZE",
                     help="stop when the process holds SIZE of memory (500M, 2G, 2GiB: K, M, "
                     "G or T, powers of 1,024; 50%% of the available memory; or none) and "
                     "report what was proven "
                     f"(default: {100 * memory.DEFAULT_SHARE:g}%% of the memory available "
                     "at the start; shared by the processes of auto and --jobs)")
    if json_flag:
        cmd.add_argument("--json", action="store_true", help="print one JSON object")


def cluster(cmd: argparse.ArgumentParser, batches: bool = False) -> None:
    """``--workers N`` or ``--scheduler ADDRESS``: run on a Dask cluster; ``batches``:
    only a batch does (``solve``, which refuses them for one instance), as its help says."""
    where = cmd.add_mutually_exclusive_group()
    what = "batches: solve on" if batches else "run on"
    task = ", one task per instance" if batches else ""
    alone = "a single model is no batch and is refused; " if batches else ""
    where.add_argument("--workers", type=processes, metavar="N",
                       help=f"{what} a local Dask cluster of N worker processes{task} "
                       f"({alone}needs the [dask] extra; default: no cluster)")
    where.add_argument("--scheduler", metavar="ADDRESS", type=scheduler_address,
                       help=f"{what} the Dask cluster whose scheduler is at ADDRESS{task} "
                       f"(tcp://host:8786; {alone}needs the [dask] extra; default: none)")


def no_hint(cmd: argparse.ArgumentParser) -> None:
    """``--no-hint``: CP-SAT without the first plan of weighted A* (planning,
    :mod:`cpsolve.engines.hints`) or the circuit search's tour (a csp with a circuit)."""
    cmd.add_argument("--no-hint", action="store_true", dest="no_hint",
                     help="CP-SAT's (--engine cpsat; auto and compare hand it to CP-SAT; "
                     "other engines refuse it): do not first look for a plan "
                     "with weighted A* (planning) "
                     "or a tour with the circuit search (a csp with a circuit), at most 2 s "
                     "and a tenth of the time limit, to start from; CP-SAT proves its answer "
                     "either way")
    cmd.add_argument("--time-indexed", action="store_true", dest="time_indexed",
                     help="CP-SAT planning's (as --no-hint): keep the "
                     "time-indexed model even where the "
                     "transition graph of a small state space applies (one automaton "
                     "constraint; see docs/speed.md)")


def pictures(cmd: argparse.ArgumentParser, required: bool = False) -> None:
    """``--svg OUT`` / ``--html OUT``: write the answer drawn (see :mod:`cpsolve.output.draw`)."""
    out = cmd.add_mutually_exclusive_group(required=required)
    out.add_argument("--svg", metavar="OUT", type=output_file,
                     help="write an SVG picture (- for stdout, which then holds the "
                     "picture alone)"
                     + ("" if required else "; default: none"))
    out.add_argument("--html", metavar="OUT", type=output_file,
                     help="write a self-contained HTML page (- for stdout, which then "
                     "holds the page alone)"
                     + ("" if required else "; default: none"))
