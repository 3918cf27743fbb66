"""The PDDL task as its files write it, kept beside the grounding: its action schemas,
objects and types, initial atoms and goal (:class:`Schemas`, taken from the translator's
parse before it normalises anything).  They say what a plan's step that is no ground
action is (:func:`step_fault`): ``drive t1 l1 l2 c1`` may be an action of the domain,
rightly typed, that the grounding left out because its precondition can never hold (a
static fact the problem does not have: ``(incity l2 c1)``), or no action of the domain at
all (a wrong name or number of objects, an unknown or mistyped object); and they say the
goal as the problem's atoms where the translator settled the task itself
(:func:`condition_text`).  The translator's objects are read by their fields only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Schemas:
    """What the files declare: per action (lower-case name) its name, its parameters
    ``(?t, truck)`` and its precondition (the translator's condition); each object's type;
    each type's parent; the atoms of the init (``(incity l1 c1)``, equalities included);
    the derived predicates; and the goal as atoms."""

    actions: Mapping[str, tuple[str, tuple[tuple[str, str], ...], Any]]
    kinds: Mapping[str, str]
    above: Mapping[str, str | None]
    start: frozenset[str]
    derived: frozenset[str]
    goal: str


def schemas_of(task) -> Schemas:
    """The :class:`Schemas` of the translator's parsed task (before ``normalize``, which
    rewrites the actions and the goal)."""
    actions = {a.name.lower(): (a.name, tuple((p.name, p.type_name) for p in
                                               a.parameters[:a.num_external_parameters]),
                                a.precondition) for a in task.actions}
    return Schemas(actions, {o.name.lower(): o.type_name for o in task.objects},
                   {t.name: t.basetype_name for t in task.types},
                   frozenset(_text(a.predicate, a.args) for a in task.init
                             if hasattr(a, "predicate")),
                   frozenset(x.name for x in task.axioms), condition_text(task.goal))


@dataclass(frozen=True)
class StepFault:
    """Why a written step is no ground action: ``exists`` when it is an action of the
    domain that cannot be played where it stands (``needs``: the atoms its precondition
    needs that do not hold there), else why it is none (``needs``: the reason)."""

    exists: bool
    needs: str


def step_fault(schemas: Schemas, written: str, holds: Iterable[str],
               changing: Iterable[str]) -> StepFault | None:
    """Why ``written`` (``drive t1 l1 l2 c1``) is no ground action here, ``holds`` the
    atoms that hold in the state it starts from and ``changing`` every atom a state
    variable stands for (``(at t1 l1)``): any other atom holds always when the problem's
    init has it, never otherwise.  ``None`` when no reason is found (a condition this
    reading does not evaluate: a quantifier, a derived predicate)."""
    name, *args = written.lower().replace("(", " ").replace(")", " ").split() or [""]
    if name not in schemas.actions:
        listed = ", ".join(n for n, _, _ in schemas.actions.values())
        return StepFault(False, f"the domain has no action {name} (its actions: {listed})")
    shown, params, precondition = schemas.actions[name]
    if len(args) != len(params):
        listed = " ".join(f"{p} - {t}" for p, t in params)
        return StepFault(False, f"{shown} takes {len(params)} objects ({listed}), "
                         f"not {len(args)}")
    for (param, kind), arg in zip(params, args):
        if arg not in schemas.kinds:
            return StepFault(False, f"the problem has no object {arg}")
        if kind not in _supertypes(schemas.kinds[arg], schemas.above):
            return StepFault(False, f"{arg} is a {schemas.kinds[arg]}, not a {kind} "
                             f"({shown}'s {param})")
    binding = {p: a for (p, _), a in zip(params, args)}
    truth = _Truth(set(holds), set(changing), schemas.start, schemas.derived)
    false = [part for part in _conjuncts(precondition) if truth.of(part, binding) is False]
    if not false:
        return None
    said = [truth.said(part, binding) for part in false]
    return StepFault(True, " and ".join(said) + _fixed_note(said, truth))


def _supertypes(kind: str, above: dict[str, str | None]) -> set[str]:
    """``kind`` and every type above it (``object`` included)."""
    out = {"object"}
    while kind is not None and kind not in out:
        out.add(kind)
        kind = above.get(kind)
    return out


def _conjuncts(condition) -> list:
    """The parts of a precondition's top-level conjunction."""
    if type(condition).__name__ == "Conjunction":
        return [p for part in condition.parts for p in _conjuncts(part)]
    return [condition]


def _text(predicate: str, args: Iterable[str]) -> str:
    return "(" + " ".join([predicate, *args]) + ")"


class _Truth:
    """Literals of a precondition, evaluated in one state (``None``: not evaluated here: a
    quantifier, a derived predicate)."""

    def __init__(self, holds: set[str], changing: set[str], start: set[str],
                 derived: set[str]):
        self.holds, self.changing, self.start, self.derived = holds, changing, start, derived
        self.fixed: set[str] = set()

    def of(self, part, binding: dict[str, str]) -> bool | None:
        kind = type(part).__name__
        if kind in ("Conjunction", "Disjunction"):
            values = [self.of(p, binding) for p in part.parts]
            decisive = kind == "Disjunction"
            if decisive in values:
                return decisive
            return None if None in values else not decisive
        if kind not in ("Atom", "NegatedAtom") or part.predicate in self.derived:
            return None
        atom = self._atom(part, binding)
        true = atom in self.holds if atom in self.changing else atom in self.start
        return true != (kind == "NegatedAtom")

    def said(self, part, binding: dict[str, str]) -> str:
        """A false part as the atoms it tests (those no state variable stands for are noted
        in :attr:`fixed`)."""
        kind = type(part).__name__
        if kind not in ("Atom", "NegatedAtom"):
            joint = " and " if kind == "Conjunction" else " or "
            return "(" + joint.join(self.said(p, binding) for p in part.parts) + ")"
        atom = self._atom(part, binding)
        if atom not in self.changing:
            self.fixed.add(atom)
        return atom if kind == "Atom" else f"(not {atom})"

    @staticmethod
    def _atom(part, binding: dict[str, str]) -> str:
        return _text(part.predicate, (binding.get(a, a).lower() for a in part.args))


def _fixed_note(said: list[str], truth: _Truth) -> str:
    """What the atoms no state variable stands for do: hold never (not in the problem's
    init: static, or never reached) or always (static, in the init)."""
    never = [a for a in sorted(truth.fixed) if a not in truth.start]
    always = [a for a in sorted(truth.fixed) if a in truth.start]
    if never and not always and sorted(said) == never:
        return ", which never hold" if len(never) > 1 else ", which never holds"
    notes = [f"{' and '.join(atoms)} {when} {'hold' if len(atoms) > 1 else 'holds'}"
             for atoms, when in ((never, "never"), (always, "always")) if atoms]
    return f" ({'; '.join(notes)})" if notes else ""


def condition_text(condition) -> str:
    """A condition of the translator's parse as PDDL's atoms: ``(at b1 rb) and (not (free
    left))``; a part that is not a literal in parentheses."""
    kind = type(condition).__name__
    parts = getattr(condition, "parts", ())
    if kind == "Conjunction":
        return " and ".join(_part(p) for p in parts) or "true"
    if kind == "Disjunction":
        return " or ".join(_part(p) for p in parts) or "false"
    if kind in ("UniversalCondition", "ExistentialCondition"):
        params = " ".join(f"{p.name} - {p.type_name}" for p in condition.parameters)
        word = "forall" if kind == "UniversalCondition" else "exists"
        return f"{word} ({params}): {condition_text(parts[0])}"
    if kind in ("Atom", "NegatedAtom"):
        atom = _text(condition.predicate, map(str, condition.args))
        return atom if kind == "Atom" else f"(not {atom})"
    return {"Truth": "true", "Falsity": "false"}.get(kind, str(condition))


def _part(condition) -> str:
    text = condition_text(condition)
    return text if type(condition).__name__ in ("Atom", "NegatedAtom") else f"({text})"
