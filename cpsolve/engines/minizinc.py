"""Engine ``minizinc``: MiniZinc with Gecode on a csp model (:mod:`cpsolve.interop.minizinc`).

The ``minizinc`` binary and Gecode come from the distribution's packages
(Debian: ``apt-get install minizinc``, which brings Gecode).  The model and its
data are written to a temporary directory and solved by a child process
(:mod:`.runtime.processes`): ``solve`` asks for two solutions (the second one, or the
search's end after the first, settles uniqueness); ``count`` asks for all
(``--all-solutions``, or ``-n LIMIT``).  MiniZinc ends a complete search with
``==========`` (or ``=====UNSATISFIABLE=====``); without that line the
search was cut short and the statuses say so (``solved`` with uniqueness
unknown, ``at_least``, ``unknown``).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..answers.result import Assignment, Count, Result, Status, Unsupported
from ..model import Csp
from ..words import plural
from .runtime.processes import run_tool

CAPABILITIES = {("csp", "solve"), ("csp", "count")}

SOLVER = "gecode"

INSTALL = "MiniZinc is not installed (apt-get install minizinc: MiniZinc with Gecode)"

GRACE = 2.0
"""Seconds MiniZinc gets past its own time limit to print what it found before it is killed."""


def tool_missing() -> str | None:
    """What to install when the ``minizinc`` binary is missing, or ``None``."""
    return None if shutil.which("minizinc") else INSTALL


def supports(model: Csp) -> str | None:
    """Why this engine cannot take ``model`` (MiniZinc is missing, or the model has an
    objective: ``cpsolve export --to minizinc`` writes it as ``solve minimize``, but this
    engine reads back satisfaction answers only), or ``None``."""
    if getattr(model, "objective", None) is not None:
        return ("the minizinc engine does not optimise yet (export --to minizinc writes the "
                "objective; cpsat and search prove optima)")
    return tool_missing()


def _run(model: Csp, options, how: list[str], stream=None):
    """Solutions (as assignments), whether the search was complete, and why it stopped;
    ``stream`` is called with each solution as MiniZinc prints it."""
    from ..interop import ExportError
    from ..interop.minizinc import export

    try:
        mzn = export(model)
    except ExportError as err:
        raise Unsupported(f"cannot export to MiniZinc: {err}") from None
    solver = options.solver or SOLVER
    if options.solver:
        _check_solver(options.solver)
    cmd = ["minizinc", "--solver", solver, *how]
    limit = options.time_limit
    if limit is not None:
        cmd += ["--time-limit", str(max(1, int(limit * 1000)))]
    with tempfile.TemporaryDirectory(prefix="cpsolve-mzn-") as tmp:
        work = Path(tmp)
        (work / "model.mzn").write_text(mzn.model, encoding="utf-8")
        (work / "data.dzn").write_text(mzn.data, encoding="utf-8")
        reader = _Reader(mzn.names, stream)
        done = run_tool([*cmd, "model.mzn", "data.dzn"], work,
                        None if limit is None else limit + GRACE, reader.line)
    solutions, complete, infeasible = reader.solutions, reader.complete, reader.infeasible
    if not (complete or solutions or done.stopped or "=====UNKNOWN=====" in done.stdout) \
            and done.returncode != 0:
        last = (done.stderr.strip() or "no output").splitlines()[-1]
        if "plugin" in last.lower():  # a MIP solver listed without its library
            raise Unsupported(f"MiniZinc's solver {solver!r} cannot run here: {last}")
        raise RuntimeError(f"MiniZinc failed (exit {done.returncode}): {last}")
    why = done.stopped or ("" if complete else "time limit reached")
    return solutions, complete, infeasible, why


class _Reader:
    """MiniZinc's output read line by line as it comes: the solutions (each passed to
    ``on_solution`` when its ``----------`` line arrives), and how the search ended."""

    def __init__(self, names: dict[str, str], on_solution=None) -> None:
        self.names, self.on_solution = names, on_solution
        self.solutions: list[dict[str, int]] = []
        self.current: dict[str, int] = {}
        self.complete = self.infeasible = False

    def line(self, line: str) -> None:
        """One line of MiniZinc's output."""
        line = line.strip()
        if line == "----------":
            self.solutions.append(self.current)
            if self.on_solution is not None:
                self.on_solution(self.current)
            self.current = {}
        elif line == "==========":
            self.complete = True
        elif line == "=====UNSATISFIABLE=====":
            self.infeasible = self.complete = True
        elif " = " in line and line.endswith(";"):
            ident, _, value = line[:-1].partition(" = ")
            self.current[self.names[ident]] = int(value)


def installed_solvers() -> list[str]:
    """The solvers of this MiniZinc installation (their ids' last parts and tags)."""
    import json

    with tempfile.TemporaryDirectory(prefix="cpsolve-mzn-") as tmp:
        done = run_tool(["minizinc", "--solvers-json"], Path(tmp), 30.0)
    try:
        listed = json.loads(done.stdout)
    except ValueError:
        return [SOLVER]
    return sorted({s["id"].rsplit(".", 1)[-1] for s in listed if "id" in s})


def _check_solver(name: str) -> None:
    """An ``Unsupported`` (one line, exit 2) when MiniZinc has no such solver here."""
    have = installed_solvers()
    if name not in have and not any(name == full for full in have):
        raise Unsupported(f"MiniZinc has no solver {name!r} here (installed: "
                          f"{', '.join(have)}; see minizinc --solvers)")


def solve(model: Csp, options) -> Result:
    """One solution and whether it is unique."""
    found, complete, infeasible, why = _run(model, options, ["-n", "2"])
    if infeasible:
        return Result(Status.INFEASIBLE, "minizinc", proof="exhausted search",
                      message="Gecode: no assignment satisfies every constraint")
    if not found:
        return Result(Status.UNKNOWN, "minizinc", message=why)
    unique = False if len(found) > 1 else (True if complete else None)
    second = found[1] if len(found) > 1 else None
    return Result(Status.SOLVED, "minizinc", answer=Assignment(found[0], unique, second),
                  message="" if unique is not None else why)


def count(model: Csp, options) -> Result:
    """Count (and optionally keep) every solution."""
    how = ["--all-solutions"] if options.limit is None else ["-n", str(options.limit)]
    found, complete, infeasible, why = _run(model, options, how,
                                            getattr(options, "on_solution", None))
    listed = tuple(found) if options.keep else None
    if infeasible:
        return Result.counted("minizinc", Count(0, listed), True)
    if options.limit is not None and len(found) >= options.limit and not complete:
        why = f"stopped at the limit of {plural(options.limit, 'solution')}"
    return Result.counted("minizinc", Count(len(found), listed), complete,
                          message="" if complete else why)
