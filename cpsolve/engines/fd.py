"""Engine ``fd``: Fast Downward on a planning model exported as PDDL.

The model goes out through :func:`cpsolve.interop.pddl.export`; the planner
(the ``up-fast-downward`` wheel, ``pip install 'cpsolve[peers]'``) runs as a
child process (:mod:`.runtime.processes`) with A* and the admissible LM-cut heuristic
by default — its plans are optimal — or ``lama-first`` when
``options.satisficing`` (a plan, no optimality claim).  The plan comes back as
PDDL action names; each names a variant of one model action, whose effects
give the states, and the result passes cpsolve's checker like any other.

Statuses: a plan → ``optimal`` (A* with LM-cut) or ``solved``; "no plan"
after a complete search (exit codes 10 and 11) → ``infeasible``, proof
``exhausted search``; a time limit, an interruption or the planner's own
limits → ``unknown``, with the last completed f-layer of A* as the bound.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path

from ..answers.result import Plan, Result, Status, Step, Unsupported
from ..answers.words import lower_bound
from ..model import Planning
from . import Options
from .runtime.clock import Clock
from .runtime.processes.tools import run_tool

CAPABILITIES = {("planning", "solve")}

OPTIMAL = "astar(lmcut())"
"""The default search: A* with LM-cut (admissible), so a plan found is optimal."""

SATISFICING = "lama-first"
"""``options.satisficing``: the driver's alias for LAMA's first iteration (no optimality)."""

INSTALL = "Fast Downward is not installed (pip install 'cpsolve[peers]', the up-fast-downward " \
    "wheel)"

UNSOLVABLE = {10: "the translator", 11: "the search"}
"""Exit codes of a complete proof that no plan exists."""

LIMITS = {1: "out of memory", 2: "out of time", 3: "out of memory and time", 12:
          "incomplete search", 13: "no plan within the bound", 20: "out of memory",
          21: "out of time", 22: "out of memory", 23: "out of time",
          24: "out of memory and time"}


def driver() -> Path | None:
    """The ``fast-downward.py`` driver of the installed wheel, or ``None``."""
    spec = importlib.util.find_spec("up_fast_downward")  # locates it without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "downward" / "fast-downward.py"
    return path if path.exists() else None


def tool_missing() -> str | None:
    """What to install when the planner is missing, or ``None``."""
    return None if driver() else INSTALL


def supports(model: Planning) -> str | None:
    """Why this engine cannot take ``model`` (the planner is missing, the model forbids
    states, which the PDDL export cannot say, or its export would be too large:
    :func:`cpsolve.interop.pddl.too_large`), or ``None``."""
    from ..interop import ExportError
    from ..interop.pddl import too_large

    if model.forbidden:
        return "the PDDL export has no forbidden states (state constraints)"
    missing = tool_missing()
    if missing:
        return missing
    try:
        big = too_large(model)
    except ExportError as err:  # a domain of more values than PDDL objects may be
        return f"cannot export to PDDL: {err}"
    return f"not applicable (too large: {big})" if big else None


def command(options: Options) -> list[str]:
    """The planner's command line (files in the working directory)."""
    files = ["--plan-file", "plan", "domain.pddl", "problem.pddl"]
    if options.satisficing:
        return [sys.executable, str(driver()), "--alias", SATISFICING, *files]
    return [sys.executable, str(driver()), *files, "--search", OPTIMAL]


def solve(model: Planning, options: Options) -> Result:
    """A plan from Fast Downward, mapped back to the model's actions."""
    from ..interop import ExportError, ExportStopped
    from ..interop.pddl import export

    clock = Clock(options.time_limit)  # the export's time is the planner's too
    try:
        task = export(model, stop=clock.expired)
    except ExportStopped:
        return Result.stopped("solve", "fd", clock.why())
    except ExportError as err:
        raise Unsupported(f"cannot export to PDDL: {err}") from None
    optimal = not options.satisficing
    with tempfile.TemporaryDirectory(prefix="cpsolve-fd-") as tmp:
        work = Path(tmp)
        (work / "domain.pddl").write_text(task.domain, encoding="utf-8")
        (work / "problem.pddl").write_text(task.problem, encoding="utf-8")
        done = run_tool(command(options), work, clock.left())
        plan_file = work / "plan"
        text = plan_file.read_text(encoding="utf-8") if plan_file.exists() else None
    details = {"config": OPTIMAL if optimal else SATISFICING,
               "ground_actions": len(task.variants)}
    bound = _bound(done.stdout) if optimal else None
    if done.stopped:
        return Result(Status.UNKNOWN, "fd", bound=bound, details=details,
                      message=_with_bound(done.stopped, bound, model))
    if done.returncode in UNSOLVABLE:
        return Result(Status.INFEASIBLE, "fd", proof="exhausted search", details=details,
                      message=f"Fast Downward: {UNSOLVABLE[done.returncode]} proved that no "
                      "plan exists")
    if done.returncode == 0 and text is not None:
        steps = _steps(model, task.variants, text)
        return Result(Status.OPTIMAL if optimal else Status.SOLVED, "fd",
                      answer=Plan.of(steps), details=details)
    if done.returncode in LIMITS:
        return Result(Status.UNKNOWN, "fd", bound=bound, details=details,
                      message=_with_bound(f"Fast Downward: {LIMITS[done.returncode]}", bound,
                                          model))
    last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
    raise RuntimeError(f"Fast Downward failed (exit {done.returncode}): {last[0]}")


def _bound(stdout: str) -> int | None:
    """The last f-layer A* reported: no plan costs less (``None`` when none was reported)."""
    layers = re.findall(r"\bf = (\d+)", stdout)
    return int(layers[-1]) if layers else None


def _with_bound(why: str, bound: int | None, model: Planning) -> str:
    """Why the planner stopped, and the bound it proved in the words every engine says it
    with (``time limit 3 s reached; no plan has fewer than 31 steps``): the text shows the
    message, not ``bound``."""
    return why if bound is None else f"{why}; {lower_bound(bound, model.unit_costs())}"


def _steps(model: Planning, variants, text: str) -> list[Step]:
    """The plan file's actions as steps; the states follow from each variant's effects."""
    state = dict(model.initial)
    steps = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(";"):
            continue
        name = line.strip("()").split()[0].lower()
        variant = variants.get(name)
        if variant is None:
            raise RuntimeError(f"Fast Downward's plan names an unknown action {name!r}")
        if variant.action is None:  # the goal action: not a move
            continue
        state.update(variant.effects)
        steps.append(Step(variant.action, model.state(state), variant.cost))
    return steps
