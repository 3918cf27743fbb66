"""``cpsolve validate MODEL ANSWER``: someone's plan or solution, checked by cpsolve's
independent checker (:mod:`cpsolve.answers.check`) against the model's rules.

The answer's formats are :mod:`cpsolve.answers.read`'s, and the family's own notation
for a plan (``Puzzle.read_plan``: sokoban's ``lurd`` line).  A plan is replayed from the
initial state (every step's action must exist and be applicable, the goal must hold at
the end): valid with its cost in the model's metric, or the first illegal step named.
A solution must give every variable a value of its domain and break no constraint:
valid, or the first broken constraint named; with an objective (``minimize``/``maximize``)
a valid one's value is given too — valid is not optimal, which only ``solve`` proves.
Exit 0 valid, 1 invalid (or the time limit reached), 2 unreadable, 130 interrupted: reading
and checking the answer has nothing to keep, so a Ctrl-C or SIGTERM ends it at once.
For a PDDL pair the plan's names are the ground PDDL actions (``pick ball1 rooma
left``, letters in any case), as planners write them.
"""

from __future__ import annotations

import re
import sys

from ..answers.check.assignments import objective_value, violations
from ..answers.check.plans import forbidden_by, in_domains, replay
from ..answers.read import PlanAnswer, Unreadable, read_answer
from ..language.interpret import evaluate
from ..puzzles.data import ModelFileError, read_text
from .session import Cli
from .sources import file_name, pddl_pairs


def validate(cli: Cli) -> int:
    """``validate``: the verdict on one answer (exit 0 valid, 1 invalid, 2 unreadable)."""
    files = cli.args.files
    three_not_pddl = len(files) == 3 and not files[0].lower().endswith(".pddl")
    if len(files) not in (2, 3) or three_not_pddl:  # three files are a PDDL pair and a plan
        return cli.fail("validate takes a model and an answer file (MODEL ANSWER, or "
                        "DOMAIN.pddl PROBLEM.pddl PLAN)", 2)
    source = pddl_pairs(files[:2])[0] if len(files) == 3 else files[0]
    if len(files) == 2 and source.lower().endswith(".pddl"):
        raise ModelFileError(source, "a PDDL domain needs its problem file too "
                             "(DOMAIN.pddl PROBLEM.pddl PLAN)")
    puzzle = cli.load(source, whole=True)
    answer_file = files[-1]
    # reading, parsing and checking the answer has nothing to keep and may take long (a
    # plan of a million steps): the time limit and a Ctrl-C or SIGTERM end it at once
    with cli.loading(f"checking {file_name(answer_file)}"):
        verdict = _verdict(puzzle, answer_file)
    if isinstance(verdict, str):
        return cli.fail(verdict, 2)
    return _report(cli, source, **verdict)


def _verdict(puzzle, answer_file: str) -> dict | str:
    """The verdict on the answer in ``answer_file``: :func:`_report`'s arguments, or the
    line saying why the answer cannot be read."""
    model = puzzle.checking_model()  # a PDDL task's: a step that changes nothing is legal
    # cpsolve's own stdout (a plan, a grid) is in the console's encoding: read it back
    # and an empty plan file is the plan of no steps, as ``[]`` and a file of comments are
    text = read_text(answer_file, "answer file", also=getattr(sys.stdout, "encoding", None),
                     empty=model.kind == "planning")
    try:
        answer = puzzle.read_plan(text) if model.kind == "planning" else None
        answer = answer or read_answer(text, model.kind)
        if isinstance(answer, PlanAnswer) and answer.names and puzzle.unreachable_goal():
            return _unreachable(puzzle, answer)
        if isinstance(answer, PlanAnswer):
            names, playable = _resolved(puzzle, model, answer)
            verdict = replay(model, names, puzzle.condition_text)
            message = verdict.message if verdict.reached is None else \
                _goal_missed(puzzle, verdict.reached)
            if verdict.step and names[verdict.step - 1] not in {a.name for a in model.actions}:
                message = _no_action(puzzle, model, names[:verdict.step], message, playable)
            return dict(ok=verdict.ok, message=message, form=answer.form, steps=len(names),
                        cost=verdict.cost if verdict.ok else None, step=verdict.step)
        assignment = puzzle.read_solution(answer.value)
    except (Unreadable, ValueError) as err:
        return f"{answer_file}: cannot read the answer: {err}"
    broken = violations(model, assignment, puzzle.words())
    out = dict(ok=not broken, message=broken[0] if broken else "", form=answer.form)
    goal = getattr(model, "objective", None)
    if goal is None:
        return out
    value = None if broken else objective_value(model, assignment)
    note = f"{goal.sense} {goal.label}: {value:,} at this solution (validity is not " \
        "optimality: solve proves the optimum)" if value is not None else ""
    return {**out, "note": note, "objective": value}


def _resolved(puzzle, model, answer: PlanAnswer) -> tuple[list[str], list[str]]:
    """The plan's steps as ``model``'s action names, matched in the state each step
    starts from: a step is an applicable action's name, or the text the family writes
    for it (the sliding puzzles' ``6 right``); for PDDL, names in any case (and
    :data:`OLD_VARIANT`'s ``name #2`` as ``name``).
    A step that matches nothing ends the matching: it is left as written, for the
    checker to name.  Also: the steps that could be played where the matching ended, as
    the family writes them (none when every step matched).

    A plan each of whose steps names one action (an IPC plan, a list of action names)
    is matched by name alone, in one pass that plays nothing: the checker's replay plays
    it once, and each step matched in its state would cost every action's guard and
    drawing at every step."""
    key = _pddl_key if puzzle.family == "pddl" else (lambda text: " ".join(text.split()))
    named: dict[str, list[str]] = {}
    for action in model.actions:
        named.setdefault(key(action.name), []).append(action.name)
    names = [named.get(key(written), ()) for written in answer.names]
    if all(len(found) == 1 for found in names):
        return [found[0] for found in names], []
    return _matched(puzzle, model, answer, key)


def _matched(puzzle, model, answer: PlanAnswer, key) -> tuple[list[str], list[str]]:
    """:func:`_resolved` step by step, each step matched in the state the ones before
    reach (``key``: a step's text as it is compared)."""
    from ..answers.kinds import Step

    pddl = puzzle.family == "pddl"
    env = dict(model.initial)
    out: list[str] = []
    for written in answer.names:
        texts: list[tuple[str, object, dict]] = []
        shown: list[tuple[str, dict]] = []  # each applicable action as the family writes it
        for action in model.actions:
            if not evaluate(action.guard, env):
                continue
            new = {**env, **{var: evaluate(value, env) for var, value in action.effects}}
            texts.append((key(action.name), action, new))
            text = action.name
            if not pddl:
                try:
                    state = model.state(new)
                    text = puzzle.step_text(Step(action.name, state,
                                                 evaluate(action.cost, env)))
                    texts.append((key(text), action, new))
                except Exception:  # noqa: BLE001 - a state the family cannot draw
                    pass
            shown.append((text, new))
        found = next((item for item in texts if item[0] == key(written)), None) \
            or _as_ascii(texts, key(written))
        if found is None:  # those listed land (matched even if not: the checker says why)
            return out + list(answer.names[len(out):]), \
                [text for text, new in shown if _lands(model, new)]
        out.append(found[1].name)
        env = found[2]
    return out, []


def _lands(model, new: dict[str, int]) -> bool:
    """Whether a step whose guard holds can be played: it reaches a state whose values
    are in their domains and that no ``forbid`` rule forbids (as the checker's replay
    has it)."""
    return in_domains(model, model.state(new)) and not forbidden_by(model, new)


def _as_ascii(texts: list[tuple[str, object, dict]], written: str) -> tuple | None:
    """The one applicable step whose text is ``written`` as a console that cannot write
    every character prints it (``│ at r3c2 up`` as ``| at r3c2 up``:
    :func:`~.charset.as_ascii`), else ``None``."""
    from .charset import as_ascii

    found = [item for item in texts if as_ascii(item[0]) == written]
    return found[0] if len({id(item[1]) for item in found}) == 1 else None


def _unreachable(puzzle, answer: PlanAnswer) -> dict:
    """The verdict on a plan of some steps whose goal no plan reaches, as the puzzle's
    reading proved (a PDDL goal the translator proves unreachable: its task is a stand-in
    without the PDDL's actions, so a step is said as no action, falsely): whatever its
    steps, the goal does not hold after it.  No step is named illegal (step null)."""
    return dict(ok=False, message="the goal cannot hold after the plan, whatever its "
                f"steps: the goal is {puzzle.unreachable_goal()}", form=answer.form,
                steps=len(answer.names), cost=None, step=None)


def _goal_missed(puzzle, reached: tuple[int, ...]) -> str:
    """A legal plan that misses the goal, in the family's drawings: the state it ends in,
    and the goal (its one state drawn, or the condition in the puzzle's words).  Drawings
    of several lines follow the first line, each on its own lines."""
    goal = puzzle.goal_text()
    parts = [("it ends in", puzzle.render_state(reached)),
             ("the goal is", puzzle.condition_text(puzzle.model.goal) if goal is None
              else goal)]
    head = "the goal does not hold after the plan"
    if any("\n" in text for _, text in parts):
        return "\n".join([head, *(f"{label}:\n{text}" for label, text in parts)])
    return f"{head}: " + "; ".join(f"{label} {text}" for label, text in parts)


def _no_action(puzzle, model, steps: list[str], message: str, playable: list[str]) -> str:
    """The message on a plan whose last step of ``steps`` names no action of ``model``: for
    PDDL, a ground action the grounding left out (its precondition never holds) is said
    as one that cannot be played, by the atoms it needs; any other step as no action, and
    why (no such action in the domain, the wrong number of objects, an unknown or
    mistyped object), with the steps that could be played there."""
    fault = None
    if puzzle.family == "pddl":
        env = dict(model.initial)
        actions = {a.name: a for a in model.actions}
        for name in steps[:-1]:  # each legal: the checker's replay played them
            env = {**env, **{var: evaluate(value, env) for var, value in actions[name].effects}}
        fault = puzzle.step_fault(steps[-1], model.state(env))
    if fault is not None and fault.exists:
        return f"step {len(steps)} ({steps[-1]}) cannot be played: its guard needs " \
            f"{fault.needs}"
    why = f": {fault.needs}" if fault is not None else ""
    return f"{message}{why}; {_listed(playable)}"


PLAYABLE_SHOWN = 8
"""How many of the steps that could be played an invalid plan's message lists."""


def _listed(playable: list[str]) -> str:
    """The steps that could be played where a plan's step named none, for its message."""
    if not playable:
        return "no step can be played there"
    more = len(playable) - PLAYABLE_SHOWN
    shown = ", ".join(playable[:PLAYABLE_SHOWN]) + (f" and {more:,} more" if more > 0 else "")
    return f"steps that can be played there: {shown}"


OLD_VARIANT = re.compile(r" #\d+$")
"""How earlier versions named a disjunctive precondition's second operator (``name #2``),
now one action with the first: such a step, in a plan they wrote, is that action."""


def _pddl_key(text: str) -> str:
    return OLD_VARIANT.sub("", " ".join(text.lower().split()))


def _report(cli: Cli, source, ok: bool, message: str, form: str, note: str = "",
            **facts) -> int:
    """The verdict, in text (``note``: a line after a valid one) or JSON; ``facts``: a
    plan's ``steps``, ``cost`` and ``step``, or a solution's ``objective`` (when the model
    has one)."""
    from ..engines.runtime.alarms import printing

    what = "plan" if "steps" in facts else "solution"
    with printing(answer=True):  # the verdict is reached: the clock no longer cuts it
        if cli.args.json:
            cli.emit({"command": "validate", "model": file_name(source), "answer": what,
                      "format": form, "valid": ok, "message": message, **facts})
        elif ok:
            size = f" of {facts['steps']:,} steps, cost {facts['cost']:,}" \
                if what == "plan" else ""
            cli.out.print(f"valid: a {what}{size} ({form})", markup=False)
            if note:
                cli.out.print(note, markup=False)
        else:  # the form after the first line; a drawing below it, its lines kept
            from ..output.shown import Lines

            first, _, rest = message.partition("\n")
            cli.out.print(f"invalid: {first} ({form})", markup=False)
            if rest:
                cli.out.print(Lines(rest))
    return 0 if ok else 1
