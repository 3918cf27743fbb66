"""PDDL in through Fast Downward's translator: the finite-domain (SAS+) task as a
:class:`~cpsolve.model.core.Planning`.

The translator (the ``fast-downward.translate`` package that the ``up-fast-downward``
wheel brings, ``pip install 'cpsolve[peers]'``) reads the files, normalises ADL
(quantified and conditional effects, disjunctions, ``:equality``, negative
preconditions), grounds by its relaxed reachability analysis and groups atoms into
mutex-derived variables — the grounding the planning community's planners use.  Each
SAS+ variable becomes a model variable 0..range-1: a binary variable of one atom is
named like the atom (``at ball1 rooma``, 1 = it holds), any other ``var<i> <predicate>``.
Each operator becomes an action named like the ground PDDL action (``pick ball1 rooma
left``; the translator splits a disjunctive precondition into several operators of one
name: the second is ``pick ball1 rooma left #2``).  Its guard is its prevail and
effect preconditions, each effect sets its variable (under its effect conditions, an
``ite``), its cost is the operator's cost when the task has ``:action-costs`` (1
otherwise).  Derived predicates the translator cannot compile away (axioms) are
refused in one line.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Sequence
from typing import Any

from ..language.expr import And, Const, Expr, If, Var
from ..model import ModelError, Planning
from .data import ModelFileError, read_text

VARIANT = re.compile(r" #\d+$")
"""The suffix of a second operator of one PDDL action name (see the module's docstring)."""


def available() -> bool:
    """Whether Fast Downward's translator can be imported."""
    import importlib.util

    try:
        return importlib.util.find_spec("fast_downward.translate") is not None
    except ImportError:
        return False


def pddl_action(name: str) -> str:
    """A model action's name as the PDDL action it grounds (``pick ball1 rooma left``)."""
    return VARIANT.sub("", name)


def translate(domain_path, problem_path) -> Any:
    """The translator's SAS+ task of the two files (a :class:`ModelFileError` naming the
    file and the feature when unusable).  The translator's own chatter is swallowed."""
    from fast_downward.translate import main as translator
    from fast_downward.translate import normalize, options
    from fast_downward.translate.pddl_parser import lisp_parser, parsing_functions
    from fast_downward.translate.pddl_parser.parse_error import ParseError

    lists = []
    for path, kind in ((domain_path, "domain"), (problem_path, "problem")):
        text = read_text(path)
        try:
            lists.append(lisp_parser.parse_nested_list(text.splitlines()))
        except ParseError as err:
            raise ModelFileError(path, f"not a PDDL {kind} ({_line(err)})") from None
        except RecursionError:
            raise ModelFileError(path, f"not a PDDL {kind} (parentheses nested too "
                                 "deeply)") from None
    chatter = io.StringIO()
    where = problem_path
    try:
        with contextlib.redirect_stdout(chatter):
            options.set_options([str(domain_path), str(problem_path)])
            where = domain_path
            task = parsing_functions.parse_task(*lists)
            where = problem_path
            normalize.normalize(task)
            return translator.pddl_to_sas(task)
    except (ParseError, SystemExit, AssertionError, KeyError, ValueError, TypeError,
            AttributeError, IndexError) as err:
        raise ModelFileError(where, f"the translator refuses it: {_line(err, chatter)}") \
            from None
    except RecursionError:
        raise ModelFileError(where, "the translator refuses it: formulas nested too "
                             "deeply") from None


def _line(err: BaseException, chatter: io.StringIO | None = None) -> str:
    """An error of the translator on one line (its last printed line when it says
    nothing itself)."""
    text = " ".join(str(err.code if isinstance(err, SystemExit) else err).split())
    if not text or text.isdigit():
        printed = [ln for ln in (chatter.getvalue() if chatter else "").splitlines()
                   if ln.strip()]
        text = printed[-1].strip() if printed else type(err).__name__
    return re.sub(r"^(error|Error): ", "", text)[:300]


def model_of(sas, name: str) -> tuple[Planning, tuple[tuple[str, ...], ...]]:
    """The planning model of a SAS+ task, and per variable the atom each value means
    (``""`` for a negated atom or "none of those")."""
    if sas.axioms:
        raise ModelError(f"derived predicates: {len(sas.axioms)} axiom rule(s) remain after "
                         "translation (not supported)")
    values = sas.variables.value_names
    names, atoms, flip = _variables(values)
    model = Planning(name)
    for var, size in zip(names, sas.variables.ranges):
        model.add_variable(var, 0, size - 1)

    def value(v: int, val: int) -> int:
        return 1 - val if flip[v] else val

    model.set_initial({names[v]: value(v, x) for v, x in enumerate(sas.init.values)})
    model.set_goal(And(*(Var(names[v]) == value(v, x) for v, x in sas.goal.pairs)))
    seen: dict[str, int] = {}
    for op in sas.operators:
        base = op.name.strip("()").strip()
        seen[base] = seen.get(base, 0) + 1
        label = base if seen[base] == 1 else f"{base} #{seen[base]}"
        guard = [Var(names[v]) == value(v, x) for v, x in op.prevail]
        effects: dict[str, Expr] = {}
        for v, pre, post, cond in op.pre_post:
            if pre != -1:
                guard.append(Var(names[v]) == value(v, pre))
            new: Expr = Const(value(v, post))
            if cond:
                when = And(*(Var(names[c]) == value(c, x) for c, x in cond))
                new = If(when, new, effects.get(names[v], Var(names[v])))
            effects[names[v]] = new
        model.add_action(label, And(*guard) if guard else Const(1), effects,
                         op.cost if sas.metric else 1)
    if not sas.operators:
        model.add_action("(no applicable action)", Const(0), {})
    return model, atoms


def _variables(values: Sequence[Sequence[str]]):
    """Model variable names, per variable the atoms its values mean, and whether a
    binary variable's values are swapped so that 1 means its atom holds."""
    names: list[str] = []
    atoms: list[tuple[str, ...]] = []
    flip: list[bool] = []
    for i, vals in enumerate(values):
        meaning = tuple(_atom(v) for v in vals)
        pos = [m for m in meaning if m]
        single = len(vals) == 2 and len(pos) == 1 and len(set(_bare(v) for v in vals)) == 1
        if single:
            swapped = bool(meaning[0])
            names.append(pos[0])
            meaning = ("", pos[0])
        else:
            swapped = False
            heads = sorted({m.split(" ")[0] for m in pos})
            names.append(f"var{i} {'/'.join(heads[:3])}".rstrip())
        flip.append(swapped)
        atoms.append(meaning)
    if len(set(names)) != len(names):  # an atom in two variables: plain names
        names = [f"var{i}" for i in range(len(values))]
    return names, tuple(atoms), flip


def _atom(value: str) -> str:
    """``Atom at(ball1, rooma)`` as ``at ball1 rooma``; negations and "none" as ``""``."""
    if not value.startswith("Atom "):
        return ""
    return _bare(value)


def _bare(value: str) -> str:
    body = value.split(" ", 1)[1] if " " in value else value
    return " ".join(body.replace("(", " ").replace(")", " ").replace(",", " ").split())
