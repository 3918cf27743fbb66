"""What a caller may ask of any engine (:class:`Options`), re-exported by the engines' door
(:mod:`cpsolve.engines`), which imports this module on first use."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral, Real

from .option_choices import ADDRESS_FORM, DIRECTIONS, ENCODINGS, scheduler_address
from .runtime.clock import LONGEST
from .runtime.cpu import max_processes

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Options:
    """What a caller may ask of any engine; engines ignore what they do not need (``keep``
    for a solve), but refuse one that chooses what only another engine has — ``algorithm``,
    ``satisficing``, ``solver`` (:data:`~.option_choices.OWNERS`) — or that applies to the
    other kind of model — ``unique``, ``encoding``, ``hint`` (:data:`~.option_choices.KINDS`):
    :func:`~cpsolve.engines.run` raises :class:`~cpsolve.answers.result.Unsupported`, as the
    command line refuses ``--engine cpsat --algorithm astar`` or ``--unique`` for a planning
    model.

    * ``time_limit`` — seconds; an engine stops and returns ``UNKNOWN`` with
      what it proved.  ``None``: none was given, and an engine may bound work that
      could go on for ever once it has an answer (the search engine's optimality
      proof: :data:`~cpsolve.engines.search.planning.anytime.PROOF_SECONDS`);
      ``math.inf`` (or :data:`~cpsolve.engines.runtime.clock.LONGEST` seconds and more):
      no limit at all, not even such a default — kept as ``None`` with
      ``no_time_limit`` set;
    * ``no_time_limit`` — the caller lifted every time limit (``--time-limit none``);
      only with ``time_limit`` ``None``; internal: set from ``time_limit=math.inf``;
    * ``limit`` — count at most this many solutions / explore at most this
      many states;
    * ``algorithm`` — the search engine's algorithm (``bfs``, ``bidir``, ``iddfs``,
      ``dfs``, ``dijkstra``, …; ``analyze``: its analysis, ``numpy``, ``bitmap``, …);
    * ``keep`` — keep the enumerated solutions (planning: the optimal plans)
      in the result (``count``);
    * ``workers`` — CP-SAT workers (counting always uses one), at most
      :func:`~.runtime.cpu.max_processes`;
    * ``direction`` — analyze: ``"start"`` (states reachable from the initial
      state) or ``"goal"`` (states that can reach the goal); ``None``: the
      goal when it is one state, else the start;
    * ``progress`` — called with a short line of text on long work;
    * ``satisficing`` — ``fd``: a satisficing planner configuration instead of the
      optimal one (its plans are not claimed optimal);
    * ``work_dir``, ``resume`` — analyze on disk
      (:mod:`~cpsolve.engines.search.statespace.external`): where the layers
      go, whether the finished ones found there are kept;
    * ``memory_limit`` — the bytes an on-disk analysis's big arrays may take; given to
      :func:`~cpsolve.engines.run` outside a command (the API), the process's memory
      limit for the run as well (:func:`~cpsolve.engines.runtime.memory.adopted`), its
      arrays then taking half, as ``--memory-limit`` gives them;
    * ``cluster`` — analyze on Dask: a number of local workers (at most
      :func:`~.runtime.cpu.max_processes`), or the address
      of a running scheduler (:mod:`~cpsolve.engines.search.statespace.cluster`);
    * ``hint`` — planning: a plan believed to reach the goal, as action names (a list or
      tuple of strings; a :class:`~cpsolve.answers.kinds.Plan`, such as another
      result's ``answer``, is taken as its steps' action names; kept as a tuple), found
      by another engine, e.g. weighted A*: :mod:`cpsolve.engines.hints`.  An
      engine may start from it — CP-SAT takes it as an upper bound on the
      plan's length or cost — but never trusts it: it is replayed first and
      ignored when it does not reach the goal;
    * ``find_hint`` — planning, ``cpsat`` solve without a ``hint``: first look
      for one with weighted A* within a small share of the time limit
      (:func:`cpsolve.engines.hints.prepare`; skipped for a tiny model and when a proof
      already answers).  ``--no-hint`` on the command line turns it off;
    * ``optimal`` — ``count`` of a csp with an objective: the optimum is found (and
      must be proven) by the same engine first, then the solutions of that value
      are counted (:func:`cpsolve.engines.count_optimal`); a planning model's count is
      of its optimal plans whether it is set or not;
    * ``on_solution`` — ``count`` of a csp: called with each solution as it is found;
    * ``encoding`` — planning, ``cpsat``: ``"time-indexed"`` keeps the time-indexed
      model even where the transition graph (:mod:`cpsolve.engines.cpsat.graph`)
      applies; ``None``: the graph when it applies;
    * ``unique`` — csp, ``cpsat``: look for a second solution even where it costs a
      full solve (a model with a circuit); without it uniqueness is decided only where
      it is cheap (:func:`cpsolve.engines.cpsat.csp.solve`).
    """

    time_limit: float | None = None
    limit: int | None = None
    algorithm: str | None = None
    keep: bool = False
    workers: int = 2
    direction: str | None = None
    progress: Progress | None = None
    satisficing: bool = False
    work_dir: str | None = None
    resume: bool = False
    memory_limit: int | None = None
    cluster: int | str | None = None
    hint: tuple[str, ...] | None = None
    find_hint: bool = True
    solver: str | None = None
    """``minizinc``: the MiniZinc solver (``gecode`` by default; ``minizinc --solvers``)."""
    encoding: str | None = None
    unique: bool = False
    optimal: bool = False
    """``count`` of a csp with an objective: count only its optimal solutions."""
    on_solution: Callable[[dict[str, int]], None] | None = None
    """``count`` of a csp: called with each solution as the engine finds it (``count
    --list`` streams them); the engine's result still lists them when ``keep`` asks."""
    no_time_limit: bool = False

    def __post_init__(self) -> None:
        """The figures checked as the command line checks its options (:func:`checked`);
        ``time_limit`` of :data:`~cpsolve.engines.runtime.clock.LONGEST` seconds or more
        (``math.inf``) is ``None`` with ``no_time_limit``; a limit given clears
        ``no_time_limit`` (a share of a lifted limit handed on with a figure is a limit)."""
        checked(self)
        if self.hint is not None:
            object.__setattr__(self, "hint", hint_names(self.hint))
        if self.time_limit is not None and self.time_limit >= LONGEST:
            object.__setattr__(self, "time_limit", None)
            object.__setattr__(self, "no_time_limit", True)
        elif self.time_limit is not None and self.no_time_limit:
            object.__setattr__(self, "no_time_limit", False)


_PROCESSES = f"an integer from 1 to {max_processes()} (4 per core, at least 8)"

RULES: dict[str, str] = {
    "time_limit": "a number of seconds > 0, None (none given) or math.inf (no limit)",
    "limit": "an integer >= 1, None (none given) or math.inf (no limit)",
    "workers": _PROCESSES,
    "memory_limit": "a number of bytes (an integer >= 1) or None",
    "hint": "None, a plan's action names (a list or tuple of str) or a Plan",
    "cluster": f"None, a number of local workers ({_PROCESSES}) or a Dask scheduler's "
               f"address ([tcp://|tls://]host[:port], as {ADDRESS_FORM})",
    "direction": f"None or one of {', '.join(map(repr, DIRECTIONS))}",
    "encoding": f"None or one of {', '.join(map(repr, ENCODINGS))}",
}
"""What each figure or choice of :class:`Options` may be: the command line's rules
(``--time-limit``, ``--limit``, ``--memory-limit``, ``--workers`` and ``--jobs``: at most
:func:`~.runtime.cpu.max_processes`, ``analyze --from``, ``--time-indexed``), said in the
error that refuses one."""


def checked(options: Options) -> None:
    """Refuse a figure or choice of ``options`` that the command line would refuse:
    ``TypeError`` for a figure that is no number (``time_limit="5"``, ``True``) or a choice
    that is no text, ``ValueError`` for a figure out of range (``nan``, ``0``, ``-1``, more
    workers than :func:`~.runtime.cpu.max_processes`) or a choice not among the command
    line's (``direction="sideways"``, a ``cluster`` text that is no scheduler's address, as
    ``analyze --scheduler`` refuses it) or ``resume`` without a ``work_dir`` (``--resume``
    needs ``--work-dir``), each naming the field and what it may be (:data:`RULES`)."""
    for name, whole, least, infinite in (("time_limit", False, 0, True),
                                         ("limit", True, 1, True),
                                         ("workers", True, 1, False),
                                         ("memory_limit", True, 1, False),
                                         ("cluster", True, 1, False)):
        value = getattr(options, name)
        if name == "cluster" and isinstance(value, str):
            if not scheduler_address(value):  # as analyze --scheduler refuses it
                raise ValueError(f"Options: {name} must be {RULES[name]}; {value!r} is not a "
                                 "Dask scheduler address")
            continue
        if value is None and name != "workers":
            continue
        kind = Integral if whole else Real
        number = isinstance(value, kind) and not isinstance(value, bool)
        if infinite and value == math.inf and not isinstance(value, bool):
            continue
        if not number:
            raise TypeError(f"Options: {name} must be {RULES[name]}, not "
                            f"{type(value).__name__} {value!r}")
        if not (value > least if name == "time_limit" else value >= least) or (
                name in ("workers", "cluster") and value > max_processes()):
            raise ValueError(f"Options: {name} must be {RULES[name]}; got {value!r}")
    if options.resume and options.work_dir is None:
        raise ValueError("Options: resume must be False without a work_dir (it goes on "
                         "from the layers kept there, as --resume needs --work-dir DIR)")
    for name, allowed in (("direction", DIRECTIONS), ("encoding", ENCODINGS)):
        value = getattr(options, name)
        if value is not None and value not in allowed:
            error = ValueError if isinstance(value, str) else TypeError
            raise error(f"Options: {name} must be {RULES[name]}; got {value!r}")


def hint_names(hint: object) -> tuple[str, ...]:
    """``Options.hint`` as the tuple of action names it stands for: a list or tuple of
    strings, or a :class:`~cpsolve.answers.kinds.Plan` (its steps' actions); anything else
    a ``TypeError`` naming the field and what it may be (:data:`RULES`)."""
    if isinstance(hint, (list, tuple)) and all(isinstance(name, str) for name in hint):
        return tuple(hint)
    from ..answers.kinds import Plan

    if isinstance(hint, Plan):
        return tuple(step.action for step in hint.steps)
    from ..language.quoting import shown

    raise TypeError(f"Options: hint must be {RULES['hint']}, not {type(hint).__name__} "
                    f"{shown(hint)}")
