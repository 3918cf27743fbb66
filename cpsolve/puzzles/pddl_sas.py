"""PDDL in through Fast Downward's translator: the finite-domain (SAS+) task as a
:class:`~cpsolve.model.planning.Planning`.

The translator (the ``fast-downward.translate`` package that the ``up-fast-downward``
wheel brings, ``pip install 'cpsolve[peers]'``) reads the files, normalises ADL
(quantified and conditional effects, disjunctions, ``:equality``, negative
preconditions), grounds by its relaxed reachability analysis and groups atoms into
mutex-derived variables — the grounding the planning community's planners use.  Each
SAS+ variable becomes a model variable 0..range-1: a binary variable of one atom is
named like the atom (``at ball1 rooma``, 1 = it holds), any other by the predicates of its
atoms and the arguments they share (``at/carry ball1``: where ball1 is).  When the
translator settles the task itself (the goal violates a mutex, or cannot be reached even
ignoring deletes) it returns one stand-in variable: that is named by what it found
(:data:`SETTLED`), so a proof that no plan exists reads in the file's terms.
Each operator becomes an action named like the ground PDDL action (``pick ball1 rooma
left``; the operators the translator splits a disjunctive precondition into, of one name,
are one action: :func:`_add_operators`).  Its guard is its prevail and
effect preconditions, each effect sets its variable (under its effect conditions, an
``ite``), its cost is the operator's cost when the task has ``:action-costs`` (1
otherwise).  The translator's axioms (derived predicates, and the ones it makes for
universal goals and negated complex conditions) are substituted into the formulas
that read them; recursive ones (a fixpoint) are refused in one line, naming the domain
file (:class:`DomainFault`), where derived predicates are declared.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..language.combine import And, If, Not, Or
from ..language.expr import Const, Expr, Var
from ..language.quoting import shorten, shown
from ..model import Action, ModelError, Planning
from .data import ModelFileError, read_text
from .pddl_puzzle import Variant, merged
from .pddl_schemas import Schemas, schemas_of

SETTLED_LINE = re.compile(r"^(.*)! Generating (?:un)?solvable task\.\.\.$", re.M)
"""The translator's line when it settles the task itself, returning a stand-in task of one
variable ``dummy`` (its goal the value it does not have when no plan exists)."""
SETTLED = {
    "Goal violates a mutex": "whether the goal's facts can hold together (the translator "
                             "proves that two of them exclude each other)",
    "No relaxed solution": "whether the goal can be reached (the translator proves that no "
                           "actions reach some of its facts, even ignoring what they delete)",
    "Simplified to trivially false goal": "whether the goal can be reached (the translator "
                                          "proves that some of its facts are never reached)",
    "Trivially false goal": "whether the goal can hold (the translator finds it false "
                            "in itself)",
    "Empty goal": "whether the goal holds (the translator finds it true in itself)",
    "Simplified to empty goal": "whether the goal holds (the translator finds that it "
                                "holds at the start and always will)",
}
"""The stand-in variable's name, by the translator's reason: what it stands for."""
class DomainFault(ModelError):
    """A model error whose cause is in the domain file (recursive derived predicates)."""


@dataclass(frozen=True)
class Translated:
    """The translator's answer: its SAS+ task ``sas``; the reason it gives when it settled
    the task itself (``""`` otherwise: :data:`SETTLED_LINE`); whether the task has action
    costs (the PDDL task's, which a settled stand-in task does not keep); and the fluent atoms
    that hold at the start (``at ball1 rooma``), which a settled task no longer has."""

    sas: Any
    settled: str
    costs: bool
    start: tuple[str, ...]
    schemas: Schemas | None = None
    """The task as the files write it (action schemas, objects, init, goal)."""


def available() -> bool:
    """Whether Fast Downward's translator can be imported."""
    import importlib.util

    try:
        return importlib.util.find_spec("fast_downward.translate") is not None
    except ImportError:
        return False


def translate(domain_path, problem_path, whole: bool = False) -> Translated:
    """The translator's task of the two files (a :class:`ModelFileError` naming the file
    and the feature when unusable).  Its chatter is swallowed.  The translator leaves out
    the operators that change nothing and the variables the goal does not depend on (with
    the operators that change only them), which no plan needs; ``whole`` keeps them all,
    as checking someone's plan needs (a step may be any legal ground action)."""
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
            kept = ["--keep-no-ops", "--keep-unimportant-variables"] if whole else []
            options.set_options([*kept, str(domain_path), str(problem_path)])
            where = domain_path
            try:
                task = parsing_functions.parse_task(*lists)
            except ParseError as err:
                raise _parse_error(str(err), domain_path, problem_path) from None
            where = problem_path
            schemas = schemas_of(task)  # before normalize rewrites it
            normalize.normalize(task)
            sas = translator.pddl_to_sas(task)
        settled = SETTLED_LINE.search(chatter.getvalue())
        return Translated(sas, settled.group(1).strip() if settled else "",
                          bool(task.use_min_cost_metric), _start_atoms(task), schemas)
    except (MemoryError, ModelFileError):
        raise
    except RecursionError:
        raise ModelFileError(where, "the translator refuses it: formulas nested too "
                             "deeply") from None
    except (Exception, SystemExit) as err:  # noqa: BLE001 - the translator's many ways
        raise ModelFileError(where, f"the translator refuses it: {_line(err, chatter)}") \
            from None


def settled_name(reason: str) -> str:
    """The stand-in variable's name for the translator's ``reason`` (:data:`SETTLED`)."""
    return SETTLED.get(reason, f"whether the goal can be reached (the translator: {reason})")


def unreachable(translated: Translated) -> tuple[str, str]:
    """A goal the translator proved unreachable, as the problem's atoms (``(at b1 rb) and
    (at b2 rb)``), and the proof (``the translator proves that ...``; ``""`` when its
    reason says none)."""
    why = re.search(r"\((the translator.*)\)$", settled_name(translated.settled))
    goal = translated.schemas.goal if translated.schemas else "the goal"
    return goal, why.group(1) if why else ""


def _start_atoms(task) -> tuple[str, ...]:
    """The atoms of the initial state whose predicates some action or axiom changes (the
    static ones, like the translator's variables, left out)."""
    fluent = {e.literal.predicate for a in task.actions for e in a.effects} | \
        {x.name for x in task.axioms}
    return tuple(" ".join([a.predicate, *map(str, a.args)]) for a in task.init
                 if getattr(a, "predicate", None) in fluent)


def _line(err: BaseException, chatter: io.StringIO | None = None) -> str:
    """An error of the translator on one line (its last printed line when it says
    nothing itself)."""
    text = " ".join(str(err.code if isinstance(err, SystemExit) else err).split())
    if not text or text.isdigit():
        printed = [ln for ln in (chatter.getvalue() if chatter else "").splitlines()
                   if ln.strip()]
        text = printed[-1].strip() if printed else type(err).__name__
    return re.sub(r"^(error|Error): ", "", text)[:300]


LAYER = re.compile(r"^(?:\t->)?Parsing (.*)$")
"""A line of the translator parser's context: where in the file it was (``Parsing goal``)."""
SECTION_OF_ANY = {"condition", "literal", "typed list", "typed object", "PDDL type", "expression",
                  "Assignment", "problem", "domain"}
"""Layers that say nothing a person can find in the file: left out of the place."""


def _parse_error(text: str, domain_path, problem_path) -> ModelFileError:
    """The translator parser's error ``text`` as one sentence, blaming the file at fault:
    ``undefined object 'c3' in the goal`` in the problem file.  Its text is lines of context
    (``Parsing problem``, ``->Parsing goal``...), the message, then ``Syntax:`` and ``Got:``
    lines; an error outside both files' layers (two files that do not match, objects named
    twice) is the problem's, unless it says it is the domain's."""
    layers = [m.group(1) for m in map(LAYER.match, text.splitlines()) if m]
    said = [ln.strip() for ln in text.splitlines() if ln.strip() and not LAYER.match(ln)]
    got = next((ln[4:].strip() for ln in said if ln.startswith("Got:")), None)
    syntax = next((ln[7:].strip() for ln in said if ln.startswith("Syntax:")), None)
    message = " ".join(ln for ln in said if not ln.startswith(("Got:", "Syntax:")))
    # "Undefined object" names what it got; "Expected ..." and sentences ending in "." do not
    sentence = message.endswith(".") or message.startswith("Expected")
    message = message.rstrip(".")
    if message[:1].isupper() and message[1:2].islower():
        message = message[0].lower() + message[1:]
    if got is not None:
        got = shorten(got, quote=False)
        message += f", got {shown(got)}" if sentence else f" {shown(got)}"
    message += _place(layers[1:])
    if syntax:
        message += f" (expected {syntax})"
    domain = layers[0] == "domain" if layers else "PDDL domain" in text
    return ModelFileError(domain_path if domain else problem_path,
                          f"the translator refuses it: {message}")


def _place(layers: list[str]) -> str:
    """`` in the precondition of action 'sail'``: the layers a person finds in the file,
    innermost first (a numbered entry left out when its name is known)."""
    named = any("'" in p for p in layers)
    places: list[str] = []
    for p in reversed(layers):
        if _anywhere(p) or (named and "#" in p) or (places and places[-1].endswith(p)):
            continue
        places.append(("the " if "'" not in p and "#" not in p else "") + p)
    return " in " + " of ".join(places) if places else ""


def _anywhere(layer: str) -> bool:
    """A layer that could be anywhere in a file (a condition, a typed list...)."""
    return layer in SECTION_OF_ANY or layer.endswith("group of typed list") \
        or layer.startswith("axiom/action entry")


def model_of(translated: Translated, name: str
             ) -> tuple[Planning, tuple[tuple[tuple[str, ...], ...], ...], tuple[Action, ...]]:
    """The planning model of the translator's task, per state variable the atoms each
    value means (none for a negated atom or "none of those"), and the ground actions that
    change nothing (kept out of the model: see :func:`_add_operators`).  Derived variables (the
    translator's axioms: universal goals and preconditions, negated complex conditions) are
    no state variables: each is the expression of its rules (:class:`_Derived`).  A task the
    translator settled itself has one stand-in variable, named by its reason; its initial
    value means the atoms that hold at the start, its other value none."""
    sas, settled = translated.sas, translated.settled
    layers = sas.variables.axiom_layers
    state = [v for v in range(len(layers)) if layers[v] < 0]
    if settled:
        why = settled_name(settled)
        rest: tuple[tuple[str, ...], ...] = ((),) * (sas.variables.ranges[0] - 1)
        names, atoms, flip = [why], ((translated.start, *rest),), [False]
    else:
        names, atoms, flip = _variables([sas.variables.value_names[v] for v in state])
    index = {v: i for i, v in enumerate(state)}
    model = Planning(name)
    for v in state:
        model.add_variable(names[index[v]], 0, sas.variables.ranges[v] - 1)
    derived = _Derived(sas, names, index, flip)
    lit = derived.literal
    model.set_initial({names[index[v]]: derived.value(v, sas.init.values[v]) for v in state})
    model.set_goal(And(*(lit(v, x) for v, x in sas.goal.pairs)))
    idle = _add_operators(model, sas.operators, derived, translated.costs)
    if not model.actions:
        model.add_action("(no applicable action)", Const(0), {}, no_effect_ok=True)
    return model, atoms, idle


def _add_operators(model: Planning, operators, derived: _Derived, costs: bool
                   ) -> tuple[Action, ...]:
    """The operators as the model's actions, one per PDDL action name.  The translator
    splits a disjunctive precondition into several operators of one name: they are one
    action (its guard theirs or-ed, each effect the first applicable one's: where several
    apply they are the same PDDL action, with the same result), so that every engine counts
    plans as a plan file writes them.  Operators that change nothing (``move rooma rooma``:
    only a ``whole`` translation keeps them) never help a plan and are kept out of the
    model: they are returned, one action without effects per name, for ``validate``."""
    variants: dict[str, list[Variant]] = {}
    for op in operators:
        guard = [derived.literal(v, x) for v, x in op.prevail]
        effects: dict[str, Expr] = {}
        for v, pre, post, cond in op.pre_post:
            var = derived.names[derived.index[v]]
            if pre != -1:
                guard.append(derived.literal(v, pre))
            new: Expr = Const(derived.value(v, post))
            if cond:
                new = If(And(*(derived.literal(c, x) for c, x in cond)), new,
                         effects.get(var, Var(var)))
            effects[var] = new
        variants.setdefault(op.name.strip("()").strip(), []).append(
            (And(*guard) if guard else Const(1), effects, op.cost if costs else 1))
    idle: list[Action] = []
    for name, group in variants.items():
        changing = [g for g in group if g[1]]
        if changing:
            model.add_action(name, Or(*(g[0] for g in changing)), *merged(changing))
        still = [g for g in group if not g[1]]
        if still:
            idle.append(Action(name, Or(*(g[0] for g in still)), (), merged(still)[1]))
    return tuple(idle)


class _Derived:
    """Literals over state variables, a derived variable's being the disjunction of its
    axiom rules' conditions (the rules of lower layers substituted in; a derived variable
    holds its default value, the initial one, unless a rule fires).  Recursive rules (a
    fixpoint) are refused."""

    def __init__(self, sas, names: list[str], index: dict[int, int], flip: list[bool]):
        self.names, self.index, self.flip = names, index, flip
        self.default = {v: sas.init.values[v] for v in range(len(sas.init.values))
                        if v not in index}
        self.rules: dict[int, list] = {}
        for axiom in sas.axioms:
            var, val = axiom.effect
            if val == self.default[var]:
                continue
            self.rules.setdefault(var, []).append(axiom.condition)
        self.memo: dict[int, Expr] = {}
        self.open: set[int] = set()

    def value(self, v: int, val: int) -> int:
        """A state variable's SAS+ value as the model's (1 = the atom holds)."""
        return 1 - val if self.flip[self.index[v]] else val

    def literal(self, v: int, val: int) -> Expr:
        """``v = val`` as an expression over the state variables."""
        if v in self.index:
            return Var(self.names[self.index[v]]) == self.value(v, val)
        holds = self.fires(v)
        return Not(holds) if val == self.default[v] else holds

    def fires(self, v: int) -> Expr:
        if v in self.memo:
            return self.memo[v]
        if v in self.open:
            raise DomainFault("recursive derived predicates (an axiom that depends on "
                              "itself) are not supported")
        self.open.add(v)
        expr = Or(*(And(*(self.literal(c, x) for c, x in cond)) if cond else Const(1)
                    for cond in self.rules.get(v, []))) if self.rules.get(v) else Const(0)
        self.open.discard(v)
        self.memo[v] = expr
        return expr


def _variables(values: Sequence[Sequence[str]]):
    """Model variable names, per variable the atoms each of its values means (one or
    none), and whether a binary variable's values are swapped so that 1 means its atom
    holds."""
    names: list[str] = []
    atoms: list[tuple[tuple[str, ...], ...]] = []
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
            names.append(_group_name(pos) or f"var{i}")
        flip.append(swapped)
        atoms.append(tuple((m,) if m else () for m in meaning))
    seen: dict[str, int] = {}
    for i, n in enumerate(names):  # one name for two variables: the later ones numbered
        seen[n] = seen.get(n, 0) + 1
        names[i] = n if seen[n] == 1 else f"{n} #{seen[n]}"
    return names, tuple(atoms), flip


def _group_name(atoms: list[str]) -> str:
    """A variable of several atoms named by their predicates and the arguments all of them
    share: ``at(ball1, rooma)``, ``carry(ball1, left)`` make ``at/carry ball1``."""
    heads = list(dict.fromkeys(a.split(" ")[0] for a in atoms))
    shared = [x for x in dict.fromkeys(atoms[0].split(" ")[1:])
              if all(x in a.split(" ")[1:] for a in atoms)]
    more = "/..." if len(heads) > 3 else ""
    return " ".join(["/".join(heads[:3]) + more, *shared]).strip()


def _atom(value: str) -> str:
    """``Atom at(ball1, rooma)`` as ``at ball1 rooma``; negations and "none" as ``""``."""
    if not value.startswith("Atom "):
        return ""
    return _bare(value)


def _bare(value: str) -> str:
    body = value.split(" ", 1)[1] if " " in value else value
    return " ".join(body.replace("(", " ").replace(")", " ").replace(",", " ").split())
