"""Options that do not go together, or need another (:data:`OPTION_RULES`), checked by
:func:`clash` on the parsed command line before any command runs.  Which engine an option
needs is the engines' rule (:data:`cpsolve.engines.option_choices.OWNERS`), which the Python
API's :func:`cpsolve.engines.run` holds too."""

from __future__ import annotations

import argparse

from ..engines.option_choices import KINDS, owner
from .checks import over_input


class OptionRule:
    """On ``command``, when ``option`` holds, every one of ``excludes`` must not and one of
    ``needs`` (if any) must; else the command line is refused with ``message``.

    A condition is an option's destination (``"work_dir"``: given), ``"dest=value"``
    (equal) or ``"dest>n"`` (a number above ``n``); ``message`` may name option values
    as ``{dest}``.
    """

    __slots__ = ("command", "option", "message", "excludes", "needs")

    def __init__(self, command: str, option: str, message: str,
                 excludes: tuple[str, ...] = (), needs: tuple[str, ...] = ()):
        # a plain class, not a dataclass: the parser is built at every start-up, and the
        # dataclass machinery (inspect, ast) would cost --help a fifth of bare Python
        self.command, self.option, self.message = command, option, message
        self.excludes, self.needs = excludes, needs

    def __repr__(self) -> str:
        return f"OptionRule({self.command!r}, {self.option!r}, {self.message!r})"

    def broken(self, args: argparse.Namespace) -> str | None:
        """The message when ``args`` break this rule, else None."""
        if args.command != self.command or not holds(args, self.option):
            return None
        if any(holds(args, c) for c in self.excludes) or (
                self.needs and not any(holds(args, c) for c in self.needs)):
            return self.message.format(**vars(args))
        return None


def holds(args: argparse.Namespace, condition: str) -> bool:
    """Whether ``condition`` (see :class:`OptionRule`) holds for ``args``."""
    if "=" in condition:
        dest, value = condition.split("=", 1)
        return str(getattr(args, dest, None)) == value
    if ">" in condition:
        dest, least = condition.split(">", 1)
        value = getattr(args, dest, None)
        return value is not None and value > float(least)
    value = getattr(args, condition, None)
    return value is not None and value is not False  # 0 is given: --seed 0


OPTION_RULES: tuple[OptionRule, ...] = (
    OptionRule("count", "optimal", "--optimal and --up-to do not go together",
               excludes=("up_to",)),
    OptionRule("count", "all_solutions", "--all counts every solution; -n / --limit stops "
               "after N: give one of them", excludes=("limit",)),
    OptionRule("analyze", "resume", "--resume goes on from the layers kept in --work-dir "
               "DIR: give it", needs=("work_dir",)),
    OptionRule("analyze", "algorithm", "--algorithm {algorithm} analyzes in memory; "
               "--work-dir, --workers and --scheduler choose the analysis on disk or on a "
               "cluster: give one or the other", excludes=("work_dir", "workers", "scheduler")),
    OptionRule("solve", "jobs>1", "--jobs runs local processes; with --workers or "
               "--scheduler the cluster's workers do the work: give one of them",
               excludes=("workers", "scheduler")),
    OptionRule("solve", "algorithm", "--algorithm chooses a search algorithm; --engine "
               f"{{engine}} has none (drop --engine, or use --engine {owner('algorithm')})",
               needs=("engine=auto", f"engine={owner('algorithm')}")),
    OptionRule("solve", "satisficing", "--satisficing chooses Fast Downward's satisficing "
               f"planner: use it with --engine {owner('satisficing')}",
               needs=(f"engine={owner('satisficing')}",)),
    OptionRule("solve", "confirm", "--confirm asks auto for CP-SAT's cross-check: drop "
               "--engine {engine}", needs=("engine=auto",)),
    OptionRule("count", "confirm", "--confirm asks auto for CP-SAT's cross-check: drop "
               "--engine {engine}", needs=("engine=auto",)),
    *(OptionRule(command, "solver", "--solver chooses MiniZinc's solver: use it with "
                 f"--engine {owner('solver')}", needs=(f"engine={owner('solver')}",))
      for command in ("solve", "count")),
    *(OptionRule(command, dest, f"{option} {what}: use it with --engine "
                 f"{owner(field)}" + (" or auto (the default)" if command == "solve" else ""),
                 needs=(f"engine={owner(field)}", "engine=auto"))
      for command in ("solve", "show")
      for dest, option, field, what in (
          ("no_hint", "--no-hint", "find_hint", "turns off CP-SAT's first look for a plan or tour"),
          ("time_indexed", "--time-indexed", "encoding", "chooses CP-SAT's time-indexed model"))),
    *(OptionRule("compare", dest, f"{option} is CP-SAT's, and no engine of compare --task "
                 "analyze is CP-SAT: drop it", excludes=("task=analyze",))
      for dest, option in (("no_hint", "--no-hint"), ("time_indexed", "--time-indexed"))),
    OptionRule("show", "plan", "--plan writes a page that steps through the plan: use --html",
               excludes=("svg",)),
    OptionRule("show", "gallery", "--gallery writes a page of the solutions found: use "
               "--html", excludes=("svg",)),
    OptionRule("show", "unsolved", "--unsolved draws the puzzle itself, unsolved; --gallery "
               "and --plan draw answers: give one or the other", excludes=("gallery", "plan")),
    OptionRule("show", "plan", "--plan draws a planning model's plan, --gallery a csp "
               "model's solutions: give one of them", excludes=("gallery",)),
    OptionRule("generate", "seed", "--seed chooses the draw of --random N; without it every "
               "class is listed, with no draw: give --random N, or drop --seed",
               needs=("random",)),
)
"""Options that do not go together, or need another: checked before any command runs."""


KIND_OPTIONS: dict[str, tuple[str, str]] = {
    **{option[2:].replace("-", "_"): (option, kind) for kind, option in KINDS.values() if option},
    "plan_file": ("--plan-file", "planning"),
}
"""Options that apply to one kind of model: destination → (option, kind); those that set an
engine's option are the engines' rule (:data:`cpsolve.engines.option_choices.KINDS`), which
the Python API's :func:`cpsolve.engines.run` holds too.  Checked once the models are loaded
(:func:`wrong_kind`)."""


def _kinds_given(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """The options given that apply to one kind of model: ``(option, kind, others)``, where
    ``others`` names what applies to the other kind.  :data:`KIND_OPTIONS`, and ``solve
    --algorithm NAME``, whose kind is its name's (the search registry's: ``circuit`` is
    for csp models, ``bfs`` for planning ones; an analysis has none)."""
    given = [(option, kind, "") for dest, (option, kind) in KIND_OPTIONS.items()
             if holds(args, dest)]
    name = getattr(args, "algorithm", None)
    if name:
        from ..engines.search import registry
        from ..engines.search.choosing import algorithm_kind

        kind = algorithm_kind(name)
        if kind is not None:
            other = "csp" if kind == "planning" else "planning"
            names = registry.CSP_ALGORITHMS if kind == "planning" else registry.ALGORITHMS
            given.append((f"--algorithm {name}", kind,
                          f" ({other} algorithms: {', '.join(names)})"))
    return given


def kind_options_given(args: argparse.Namespace) -> bool:
    """Whether the command line gives an option that applies to one kind of model
    (:func:`_kinds_given`): then every model's kind is needed before the work starts (a
    batch or compare loads every file first)."""
    return bool(_kinds_given(args))


def wrong_kind(args: argparse.Namespace, kinds: dict[str, str]) -> str | None:
    """Why an option given is refused, or None: it applies to a kind of model
    (:func:`_kinds_given`) that none of the loaded models (``kinds``: source → kind) is.
    In a batch of several kinds, an option used by some of its models is kept (and used
    where it applies)."""
    if not kinds:
        return None
    for option, kind, others in _kinds_given(args):
        if kind in kinds.values():
            continue
        if len(kinds) == 1:
            (source, other), = kinds.items()
            return f"{option} applies to {kind} models; {source} is a {other} model{others}"
        return f"{option} applies to {kind} models; none of the {len(kinds)} models given " \
               f"is one{others}"
    return None


def clash(args: argparse.Namespace) -> str | None:
    """The first :data:`OPTION_RULES` message that ``args`` break, or None."""
    return next((why for rule in OPTION_RULES if (why := rule.broken(args))), None) \
        or over_input(args)
