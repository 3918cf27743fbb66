"""``cpsolve validate MODEL ANSWER``: someone's plan or solution, checked by cpsolve's
independent checker (:mod:`cpsolve.answers.check`) against the model's rules.

The answer's formats are :mod:`cpsolve.answers.read`'s.  A plan is replayed from the
initial state (every step's action must exist and be applicable, the goal must hold at
the end): valid with its cost in the model's metric, or the first illegal step named.
A solution must give every variable a value of its domain and break no constraint:
valid, or the first broken constraint named.  Exit 0 valid, 1 invalid, 2 unreadable.
For a PDDL pair the plan's names are the ground PDDL actions (``pick ball1 rooma
left``, letters in any case), as planners write them.
"""

from __future__ import annotations

from ..answers.check import replay, violations
from ..answers.read import PlanAnswer, Unreadable, read_answer
from ..language.expr import evaluate
from ..puzzles.data import ModelFileError, read_text
from .session import Cli, file_name, pddl_pairs


def validate(cli: Cli) -> int:
    """``validate``: the verdict on one answer (exit 0 valid, 1 invalid, 2 unreadable)."""
    files = cli.args.files
    if len(files) not in (2, 3):
        return cli.fail("validate takes a model and an answer file (MODEL ANSWER, or "
                        "DOMAIN.pddl PROBLEM.pddl PLAN)", 2)
    source = pddl_pairs(files[:2])[0] if len(files) == 3 else files[0]
    if len(files) == 2 and source.lower().endswith(".pddl"):
        raise ModelFileError(source, "a PDDL domain needs its problem file too "
                             "(DOMAIN.pddl PROBLEM.pddl PLAN)")
    puzzle = cli.load(source)
    model = puzzle.model
    answer_file = files[-1]
    text = read_text(answer_file)
    try:
        answer = read_answer(text, model.kind, [a.name for a in getattr(model, "actions", [])])
        if isinstance(answer, PlanAnswer):
            names = _resolved(model, answer.names, isinstance(source, tuple))
            verdict = replay(model, names)
            return _report(cli, source, verdict.ok, verdict.message, answer.form,
                           steps=len(names), cost=verdict.cost if verdict.ok else None,
                           step=verdict.step)
        assignment = puzzle.read_solution(answer.value)
    except (Unreadable, ValueError) as err:
        return cli.fail(f"{answer_file}: cannot read the answer: {err}", 2)
    broken = violations(model, assignment)
    return _report(cli, source, not broken, broken[0] if broken else "", answer.form)


def _resolved(model, names: tuple[str, ...], pddl: bool) -> list[str]:
    """The plan's names as the model's actions.  For PDDL, a name is matched whatever
    its letters' case, and a ground action the translator split into several operators
    (``name``, ``name #2``...) is the first one applicable in the state reached; a name
    that matches nothing is left as written, for the checker to name."""
    if not pddl:
        return list(names)
    from ..puzzles.pddl_sas import pddl_action

    variants: dict[str, list] = {}
    for action in model.actions:
        variants.setdefault(pddl_action(action.name).lower(), []).append(action)
    env = dict(model.initial)
    out = []
    for name in names:
        options = variants.get(" ".join(name.lower().split()), [])
        action = next((a for a in options if evaluate(a.guard, env)), None)
        if action is None:
            out.append(options[0].name if options else name)
            break  # not applicable (or unknown): the checker names this step
        out.append(action.name)
        env = {**env, **{var: evaluate(value, env) for var, value in action.effects}}
    return out + list(names[len(out):])


def _report(cli: Cli, source, ok: bool, message: str, form: str, **plan) -> int:
    what = "plan" if "steps" in plan else "solution"
    if cli.args.json:
        cli.emit({"command": "validate", "model": file_name(source), "answer": what,
                  "format": form, "valid": ok, "message": message, **plan})
    elif ok:
        size = f" of {plan['steps']:,} steps, cost {plan['cost']:,}" if what == "plan" else ""
        cli.out.print(f"valid: a {what}{size} ({form})", markup=False)
    else:
        cli.out.print(f"invalid: {message} ({form})", markup=False)
    return 0 if ok else 1
