"""What every puzzle offers the CLI: its model, and text for people and programs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..answers.check.assignments import Words
from ..answers.result import Step
from ..answers.words import plural
from ..language.expr import Binary, Const, Expr, Var, readable
from ..model import Csp, Planning
from .assignment_text import assignment_text, drawn_assignment, read_assignment_text

if TYPE_CHECKING:
    from ..answers.read import PlanAnswer
    from ..answers.result import Result
    from ..model.symmetry.canonical import Symmetry

_TESTS = ("==", "!=", "<", "<=", ">", ">=")
"""The tests of a variable with a constant that :meth:`Puzzle.condition_text` says with
the constant in the puzzle's words (:meth:`Puzzle.value_text`)."""

@dataclass(frozen=True)
class Puzzle:
    """A built puzzle: a generic model plus the family's rendering.

    Families subclass this, add their own typed fields (keyword-only, as in
    ``@dataclass(frozen=True, kw_only=True)``) and override the ``render_*``
    / ``step_text`` methods; the defaults print variables plainly.
    """

    name: str
    family: str
    model: Csp | Planning
    description: str = ""
    metric: str = "one move = one action"
    expected: dict[str, Any] = field(default_factory=dict)
    """Known answers from the file's ``[expected]`` table (see ``expected_table.EXPECTED``)."""

    def render_state(self, state: tuple[int, ...]) -> str:
        """A state drawn for people."""
        assert isinstance(self.model, Planning)
        return "  ".join(f"{n}={v}" for n, v in zip(self.model.names, state))

    def render_solution(self, solution: Mapping[str, int]) -> str:
        """An assignment drawn for people: an array on a line, ``x = [4, 0, 3]``, scalars
        ``y = 0`` (:mod:`.assignment_text`)."""
        return assignment_text(self.model.names, {n: str(v) for n, v in solution.items()})

    def step_text(self, step: Step) -> str:
        """One plan step in words."""
        return step.action

    def json_state(self, state: tuple[int, ...]) -> Any:
        """A state for ``--json``."""
        assert isinstance(self.model, Planning)
        return self.model.assignment(state)

    def state_lines(self, state: tuple[int, ...]) -> tuple[str, ...] | None:
        """A state as lines of text, for the pictures of a family that has no board of
        its own and would rather be read than shown as a table of its variables (None:
        the table)."""
        return None

    def condition_text(self, condition: Expr) -> str:
        """A condition of the model (a guard, the goal, a constraint) in the puzzle's words,
        for messages: by default the expression as written, each variable as
        :meth:`variable_text` names it, and each test ``x == v`` (``x != v``) as
        :meth:`atom_text` says it, else with ``v`` as :meth:`value_text` shows it, as in
        each comparison ``x < v`` (``<=``, ``>``, ``>=``: a tour's ``the leap from r1c2 <
        r2c4``)."""
        return readable(condition, self._said)

    def variable_text(self, name: str) -> str:
        """A variable as the puzzle names it for people (a grid's cell ``r3c3``, counted
        from 1); by default its name."""
        return name

    def value_text(self, name: str, value: int) -> str:
        """A value of variable ``name`` as the puzzle shows it (a symbol, a label); by
        default the number."""
        return str(value)

    def atom_text(self, name: str, value: int) -> str | None:
        """``name == value`` said as a fact of the puzzle (sokoban's ``a box on r3c4``);
        None (the default): written as the test, in :meth:`variable_text` and
        :meth:`value_text`."""
        return None

    def message_text(self, result: Result) -> str:
        """A result's message in the puzzle's words: an engine knows no puzzle, so an
        invariant proof names the model's variables; here each is said as
        :meth:`variable_text` says it."""
        invariant = result.invariant
        if invariant is None:
            return result.message
        return result.message.replace(invariant.words(), invariant.words(self.variable_text), 1)

    def outside_text(self, name: str, value: int) -> str | None:
        """Why ``value`` is no value of variable ``name``, said as a fact of the puzzle (a
        tour's ``r4c4 to r3c1 is not a knight's leap``); None (the default): ``x = v is
        outside its domain``, in :meth:`variable_text` and :meth:`value_text`."""
        return None

    def cycle_text(self, cycle: tuple[int, ...], total: int) -> str | None:
        """A circuit's successors that come back to node 0 after ``cycle`` (its nodes in
        order), short of all ``total`` nodes, said in the puzzle's words (a tour's squares);
        None (the default): ``the successors form a cycle of k nodes, not all n``."""
        return None

    def words(self) -> Words:
        """The puzzle's words for the checker's messages about a solution."""
        return Words(self.variable_text, self.value_text, self.condition_text,
                     self.outside_text, self.cycle_text)

    def _said(self, expr: Expr) -> str | None:
        """A part of a condition in the puzzle's words (None: as :func:`readable` writes it,
        with its parts in the puzzle's words)."""
        if isinstance(expr, Var):
            return self.variable_text(expr.name)
        if not (isinstance(expr, Binary) and expr.op in _TESTS):
            return None
        var, const = (expr.left, expr.right) if isinstance(expr.left, Var) else \
            (expr.right, expr.left)
        domain = self.model.domains.get(var.name) if isinstance(var, Var) else None
        if domain is None or not isinstance(const, Const):
            return None
        flipped = expr.op == "!=" and (domain.lo, domain.hi) == (0, 1) and const.value in (0, 1)
        atom = None if expr.op != "==" and not flipped else \
            self.atom_text(var.name, 1 - const.value if flipped else const.value)  # x != 0: x == 1
        if atom is not None:
            return atom
        sides = [self.variable_text(var.name), self.value_text(var.name, const.value)]
        return f" {expr.op} ".join(sides if expr.left is var else sides[::-1])

    def goal_text(self) -> str | None:
        """The goal drawn in the puzzle's words (None: the family cannot draw it); by
        default, when the goal is one state, that state as :meth:`render_state` draws it."""
        from ..answers.check.plans import in_domains
        from ..model.pins import goal_state

        assert isinstance(self.model, Planning)
        state = goal_state(self.model)
        if state is None or not in_domains(self.model, state):
            return None
        return self.render_state(state)

    def unreachable_goal(self) -> str | None:
        """The goal and why no plan reaches it, when the puzzle's reading proved so before
        any engine runs (a PDDL goal Fast Downward's translator proves unreachable), said
        as :meth:`goal_text` says it; None (the default): not known."""
        return None

    def count_moves(self, plan: tuple[Step, ...]) -> int:
        """The plan's length in the family's metric (``moves``); one action is one move
        unless the family says otherwise (peg solitaire: a chain of jumps)."""
        return len(plan)

    @property
    def distance_unit(self) -> str:
        """What a distance of ``analyze`` counts, in the plural: actions, one each, which
        are the metric's ``moves`` unless the family groups actions into moves (overrides
        :meth:`count_moves`); such a family names its actions (``steps``, ``jumps``),
        else they are ``actions``."""
        return "moves" if type(self).count_moves is Puzzle.count_moves else "actions"

    def plan_words(self, plan: tuple[Step, ...]) -> str:
        """The plan's size in words: its moves, and its steps and cost where they differ."""
        moves, steps, cost = self.count_moves(plan), len(plan), sum(s.cost for s in plan)
        words = plural(moves, "move")
        if steps != moves:
            words += f" ({plural(steps, 'step')})"
        if cost != moves:
            words += f", cost {cost:,}"
        return words

    def plan_summary(self, plan: tuple[Step, ...]) -> list[str]:
        """A few lines about a plan in the puzzle's notation (e.g. chains as moves), each
        without a line break (the output prints them one under the other); none: nothing
        to add."""
        return []

    def plan_line(self, plan: tuple[Step, ...]) -> str:
        """A plan on one line (for lists of plans)."""
        return ", ".join(self.step_text(s) for s in plan)

    def json_plan(self, plan: tuple[Step, ...]) -> dict[str, Any]:
        """Extra ``--json`` fields about a plan."""
        return {}

    def infeasibility_proof(self) -> str | None:
        """A reason, from the puzzle's own argument, why no solution exists (or None): the
        words of the argument its family attached to the model
        (:meth:`~cpsolve.model.planning.Planning.set_unsolvable`), with which
        :func:`cpsolve.engines.run` answers, through the checker, before any engine starts."""
        argument = getattr(self.model, "unsolvable", None)
        return None if argument is None else argument.words

    def json_solution(self, solution: Mapping[str, int]) -> Any:
        """An assignment for ``--json``."""
        return dict(solution)

    def read_solution(self, written: Any) -> dict[str, int]:
        """A solution written by someone (JSON or text, see :mod:`cpsolve.answers.read`)
        as an assignment; a ``ValueError`` says why it cannot be read.  By default a JSON
        object of variable: value, or the text :meth:`render_solution` writes; families
        read their own drawings too (a subclass that draws in its own way and does not read
        its drawing asks for JSON)."""
        if isinstance(written, str):
            try:
                said = read_assignment_text(drawn_assignment(written))
            except ValueError:
                if type(self).render_solution is Puzzle.render_solution:
                    raise
                raise ValueError("this model draws its solution in its own way: give the "
                                 "--json output (or a JSON assignment)") from None
            written = {n: _integer(n, v) for n, v in said.items()}
        if not isinstance(written, dict):
            raise ValueError("expected a JSON object of variable: value")
        out: dict[str, int] = {}
        for name, value in written.items():
            if name not in self.model.domains:
                raise ValueError(f"the model has no variable named {name[:60]!r}")
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name}: expected an integer value, got {value!r:.40}")
            out[name] = value
        return out

    def checking_model(self):
        """The model a plan someone wrote is replayed against, for ``validate``: the model
        itself by default (a PDDL task adds its ground actions that change nothing)."""
        return self.model

    def read_plan(self, text: str) -> PlanAnswer | None:
        """A plan written in the family's own notation (sokoban's ``lurd`` line) as the
        model's action names, for ``validate``; None when ``text`` is not in it (then
        :func:`cpsolve.answers.read.read_answer` reads it).  None by default."""
        return None

    def symmetry(self) -> Symmetry | None:
        """Symmetries of the puzzle's rules, when known (``None``: none).

        By default the symmetries a CSP declares (``Csp.symmetries``), checked
        and closed into a group by :mod:`cpsolve.model.symmetry.declared`; a family may
        know its own.
        """
        if isinstance(self.model, Csp) and self.model.symmetries:
            from ..model.symmetry.declared import declared_symmetry

            return declared_symmetry(self.model)
        return None


def indices(name: str, array: str) -> tuple[int, ...] | None:
    """The indices of ``name`` when it is an item of ``array`` (``box[7]``: ``(7,)``,
    ``cell[2][3]``: ``(2, 3)``), else None."""
    head, bracket, rest = name.partition("[")
    if head != array or not bracket or not rest.endswith("]"):
        return None
    parts = rest[:-1].split("][")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


def cell_name(cell: Sequence[int]) -> str:
    """A cell ``(row, column)`` as people name it, counted from 1: ``r2c4``."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def cell_of(name: str, array: str, cells: Sequence[tuple[int, int]]) -> str | None:
    """The cell, as ``r2c4`` (counted from 1), of ``name`` when it is item ``i`` of the
    one-dimensional ``array`` whose item ``i`` stands for ``cells[i]``; else None."""
    at = indices(name, array)
    if at is None or len(at) != 1 or at[0] >= len(cells):
        return None
    return cell_name(cells[at[0]])


def _integer(name: str, said: str) -> int:
    try:
        return int(said)
    except ValueError:
        raise ValueError(f"{name}: {said[:40]!r} is not a value") from None
