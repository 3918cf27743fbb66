"""A :class:`~cpsolve.model.csp.Csp` as a MiniZinc model and data file.

* every variable is a decision variable of its own (``var 1..9: cell_0_0;``, or
  ``var {1,3,5}: x;`` when only some values are allowed — the domain tables),
  also gathered in one array ``x`` in declaration order;
* givens (``x == k`` from :meth:`~cpsolve.model.csp.Csp.fix`) go to the data file
  as ``given_index`` / ``given_value``, so the same model takes another
  instance's givens;
* a model with a circuit gets a search annotation (first-fail on the successors);
* all-different groups → ``alldifferent``; circuits → ``circuit`` over the
  successor variables indexed from 0 (cpsolve's node numbers); any other
  condition → a ``constraint`` translated from the expression tree, with
  ``bool2int`` / ``!= 0`` where cpsolve's 0/1 booleans meet integers;
* the output item shows every decision variable as ``name = value;`` — MiniZinc
  prints each solution's output, and solutions that differed only in hidden
  variables would look alike.

Only ``alldifferent.mzn`` and ``circuit.mzn`` are included (not ``globals.mzn``:
a distribution's Gecode may redefine some globals incompatibly).
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var
from ..model import AllDifferent, Circuit, Condition, Csp
from . import ExportError

KEYWORDS = frozenset("""
ann annotation any array bool case constraint diff div else elseif endif enum false float
function if in include int intersect let list of op opt output par predicate record set
solve string subset superset symdiff test then true tuple type union var where xor
satisfy minimize maximize mod not abs min max sum forall exists circuit alldifferent
""".split())


@dataclass(frozen=True)
class MznModel:
    """The model and data files, and ``names``: MiniZinc identifier -> cpsolve variable."""

    model: str
    data: str
    names: Mapping[str, str]

    def files(self, stem: str) -> dict[str, str]:
        """File name -> text (``STEM.mzn``, ``STEM.dzn``)."""
        return {f"{stem}.mzn": self.model, f"{stem}.dzn": self.data}


RESERVED = frozenset({"x", "givens", "objective"}) | frozenset(keyword.kwlist)
"""Identifiers the export does not give a variable: ``x`` (the array of every variable),
``givens`` (the data file's number of givens; ``given_...`` names are kept out as a
prefix), ``objective`` (the field where MiniZinc's JSON output puts the objective's value)
and Python's keywords (MiniZinc's Python package renames such fields ``mzn_...``)."""


def identifiers(names: list[str]) -> dict[str, str]:
    """cpsolve variable -> a MiniZinc identifier (letters, digits, ``_``; distinct; never
    a keyword or one of :data:`RESERVED`)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        base = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_") or "v"
        if not base[0].isalpha() or base in KEYWORDS or base in RESERVED \
                or base.startswith("given_"):
            base = f"v_{base}"
        ident, n = base, 1
        while ident in used:
            n += 1
            ident = f"{base}_{n}"
        used.add(ident)
        out[name] = ident
    return out


def _given(c: Condition) -> tuple[str, int] | None:
    e = c.expr
    if c.label == "given" and isinstance(e, Binary) and e.op == "==" \
            and isinstance(e.left, Var) and isinstance(e.right, Const):
        return e.left.name, e.right.value
    return None


def export(csp: Csp, output_item: bool = True, objective: bool = True) -> MznModel:
    """The MiniZinc model and data of ``csp`` (see the module's docstring); without
    ``output_item`` for a reader of MiniZinc's JSON output, which lists every decision
    variable itself (MiniZinc prints solutions faster without an output item to evaluate);
    without ``objective``, ``solve satisfy`` even when ``csp`` has an objective (a count of
    every solution: MiniZinc's ``--all-solutions`` on ``solve minimize`` lists only the
    improving ones)."""
    ident = identifiers(list(csp.domains))
    index = {n: i + 1 for i, n in enumerate(csp.domains)}
    lines = [f"% {csp.name}: exported by cpsolve ({len(csp.domains)} variables, "
             f"{len(csp.constraints)} constraints); data: the givens",
             'include "alldifferent.mzn";', 'include "circuit.mzn";', ""]
    for name in csp.domains:
        lines.append(f"var {_domain(csp, name)}: {ident[name]};  % {name}")
    every = ", ".join(ident[n] for n in csp.domains)
    lines += ["", f"array[1..{len(csp.domains)}] of var int: x = [{every}];",
              "int: givens;", f"array[1..givens] of 1..{len(csp.domains)}: given_index;",
              "array[1..givens] of int: given_value;",
              "constraint forall(g in 1..givens)(x[given_index[g]] = given_value[g]);", ""]
    givens: list[tuple[int, int]] = []
    successors: list[str] = []
    for c in csp.constraints:
        if isinstance(c, AllDifferent):
            lines.append(f"constraint alldifferent([{', '.join(ident[n] for n in c.names)}]);"
                         + (f"  % {c.label}" if c.label else ""))
        elif isinstance(c, Circuit):
            succ = ", ".join(ident[n] for n in c.names)
            successors.append(succ)
            lines.append(f"constraint circuit(array1d(0..{len(c.names) - 1}, [{succ}]));")
        elif isinstance(c, Condition):
            given = _given(c)
            if given is not None:
                givens.append((index[given[0]], given[1]))
                continue
            lines.append(f"constraint {_bool(c.expr, ident)};")
        else:  # pragma: no cover - a new constraint kind must be added here
            raise ExportError(f"no MiniZinc translation for {type(c).__name__}")
    shown = " ++ ".join(f'"{ident[n]} = \\({ident[n]});\\n"' for n in csp.domains)
    goal = _solve_item(successors) if csp.objective is None or not objective else \
        f"solve {csp.objective.sense} {_int(csp.objective.expr, ident)};"
    lines += ["", goal, "", *([f"output [{shown}];"] if output_item else []), ""]
    data = [f"% {csp.name}: the givens (variable number in x, value)",
            f"givens = {len(givens)};",
            f"given_index = [{', '.join(str(i) for i, _ in givens)}];",
            f"given_value = [{', '.join(str(v) for _, v in givens)}];", ""]
    return MznModel("\n".join(lines), "\n".join(data), {v: k for k, v in ident.items()})


def _solve_item(successors: list[str]) -> str:
    """``solve satisfy``; with a circuit, the search annotation of a tour: branch on the
    successor with the fewest moves left (Warnsdorff's rule, as first-fail), its smallest
    value first (Gecode finds an 8x8 knight's tour in a second, none in minutes without)."""
    if not successors:
        return "solve satisfy;"
    return f"solve :: int_search([{', '.join(successors)}], first_fail, indomain_min) satisfy;"


def _domain(csp: Csp, name: str) -> str:
    if name in csp.allowed:
        return "{" + ", ".join(str(v) for v in csp.allowed[name]) + "}"
    lo, hi = csp.domain(name)
    return f"{_int_const(lo)}..{_int_const(hi)}"


def _int_const(v: int) -> str:
    return str(v) if v >= 0 else f"({v})"


_COMPARE = {"==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def _int(expr: Expr, ident: Mapping[str, str]) -> str:
    text, kind = _mzn(expr, ident)
    return text if kind == "int" else f"bool2int({text})"


def _bool(expr: Expr, ident: Mapping[str, str]) -> str:
    text, kind = _mzn(expr, ident)
    return text if kind == "bool" else f"({text} != 0)"


def _mzn(expr: Expr, ident: Mapping[str, str]) -> tuple[str, str]:
    """MiniZinc text of ``expr`` and its type (``"int"`` or ``"bool"``)."""
    if isinstance(expr, Const):
        return _int_const(expr.value), "int"
    if isinstance(expr, Var):
        return ident[expr.name], "int"
    if isinstance(expr, Unary):
        if expr.op == "not":
            return f"(not {_bool(expr.arg, ident)})", "bool"
        if expr.op == "abs":
            return f"abs({_int(expr.arg, ident)})", "int"
        return f"(-{_int(expr.arg, ident)})", "int"
    if isinstance(expr, Binary):
        a, b = _int(expr.left, ident), _int(expr.right, ident)
        if expr.op in _COMPARE:
            return f"({a} {_COMPARE[expr.op]} {b})", "bool"
        if expr.op in ("//", "%"):  # floor semantics (MiniZinc's div and mod truncate)
            rem = f"((({a}) mod {b} + {b}) mod {b})"
            return (rem, "int") if expr.op == "%" else (f"((({a}) - {rem}) div {b})", "int")
        return f"({a} {expr.op} {b})", "int"
    if isinstance(expr, Nary):
        if expr.op in ("and", "or"):
            joint = " /\\ " if expr.op == "and" else " \\/ "
            return "(" + joint.join(_bool(a, ident) for a in expr.args) + ")", "bool"
        return f"{expr.op}([{', '.join(_int(a, ident) for a in expr.args)}])", "int"
    if isinstance(expr, IfThenElse):
        return (f"(if {_bool(expr.cond, ident)} then {_int(expr.then, ident)} "
                f"else {_int(expr.otherwise, ident)} endif)", "int")
    raise ExportError(f"no MiniZinc translation for {expr!r}")
