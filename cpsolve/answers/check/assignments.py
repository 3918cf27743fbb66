"""An assignment checked against every constraint and domain of a :class:`Csp`, and the
words its messages name variables, values and conditions in."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ...language.expr import Expr, readable
from ...language.interpret import evaluate
from ...model import AllDifferent, Circuit, Condition, Csp
from ..words import plural


def _plain_value(name: str, value: int) -> str:
    return str(value)


def _no_reason(name: str, value: int) -> str | None:
    return None


def _no_cycle(cycle: tuple[int, ...], total: int) -> str | None:
    return None


@dataclass(frozen=True)
class Words:
    """How messages name a model's variables, its values and its conditions: a puzzle's
    words (a grid's ``r3c3`` and symbol ``C``); by default as the model writes them."""

    variable: Callable[[str], str] = str
    value: Callable[[str, int], str] = _plain_value
    """The text of a value of the named variable (a symbol, a label)."""
    condition: Callable[[Expr], str] = readable
    outside: Callable[[str, int], str | None] = _no_reason
    """Why a value is outside the named variable's domain, in the puzzle's words (a
    tour's ``r4c4 to r3c1 is not a knight's leap``); None: ``x = v is outside its
    domain``, in :attr:`variable` and :attr:`value`."""
    cycle: Callable[[tuple[int, ...], int], str | None] = _no_cycle
    """A circuit's successors that lead from node 0 back to it (the cycle's nodes in
    order, from node 0) short of all ``total`` nodes, in the puzzle's words (a tour's
    squares); None: ``the successors form a cycle of k nodes, not all n``."""


PLAIN = Words()


def objective_value(model: Csp, assignment: Mapping[str, int]) -> int | None:
    """The model's objective re-evaluated at ``assignment`` (``None``: no objective)."""
    if model.objective is None:
        return None
    return evaluate(model.objective.expr, assignment)


def _false(label: str, text: str, written: str) -> str:
    """A broken condition: its ``text``, after the constraint it is part of when that says
    more (the label of a whole ``all(...)``; not the same condition, ``written`` as the
    model writes it, again)."""
    if not label.strip() or "".join(label.split()) == "".join(written.split()):
        return f"{text} is false"
    return f"{label}: {text} is false"


def violations(model: Csp, assignment: Mapping[str, int], words: Words = PLAIN) -> list[str]:
    """Every constraint (and domain) the assignment breaks, described for people in
    ``words`` (a puzzle's names of its variables, values and conditions)."""
    out: list[str] = []
    for name in model.domains:
        if name not in assignment:
            out.append(f"{words.variable(name)} has no value")
        elif assignment[name] not in model.values(name):
            value = assignment[name]
            out.append(words.outside(name, value) or f"{words.variable(name)} = "
                       f"{words.value(name, value)} is outside its domain")
    if out:
        return out
    for c in model.constraints:
        if isinstance(c, AllDifferent):
            seen: dict[int, str] = {}
            for n in c.names:
                v = assignment[n]
                if v in seen:
                    out.append(f"{c.label or 'all-different'}: {words.variable(seen[v])} and "
                               f"{words.variable(n)} are both {words.value(n, v)}")
                    break
                seen[v] = n
        elif isinstance(c, Condition):
            if not evaluate(c.expr, assignment):
                out.append(_false(c.label, words.condition(c.expr), readable(c.expr)))
        elif isinstance(c, Circuit):
            problem = _circuit_problem([assignment[n] for n in c.names], words)
            if problem:
                out.append(f"{c.label or 'circuit'}: {problem}")
        else:  # pragma: no cover - a new constraint kind must be added here
            out.append(f"unknown constraint kind {type(c).__name__}")
    return out


def _circuit_problem(successor: list[int], words: Words = PLAIN) -> str:
    n = len(successor)
    if any(not 0 <= s < n for s in successor):
        return "a successor is not a node"
    seen: dict[int, None] = {}  # in the order visited
    node = 0
    for _ in range(n):
        if node in seen:
            break
        seen[node] = None
        node = successor[node]
    if len(seen) != n or node != 0:
        said = words.cycle(tuple(seen), n) if node == 0 else None  # back at node 0
        return said or f"the successors form a cycle of {plural(len(seen), 'node')}, not all {n:,}"
    return ""
