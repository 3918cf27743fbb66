"""Whether one declared symmetry keeps a csp's rules: :func:`breaks` says why not.

A symmetry (:class:`~cpsolve.model.csp.CspSymmetry`) must map every variable's
values onto its image's values, every all-different group onto a group, and every
condition (each top-level conjunct of a constraint) onto a condition over the image
variables with the same truth table; givens are ignored.  Conditions are compared
structurally first, else by truth table over at most :data:`MAX_TABLE` combinations.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from ...language.expr import Expr, Var, conjuncts, readable
from ...language.interpret import evaluate
from ...language.walk import normal_text, substitute, variables
from ..csp import AllDifferent, Circuit, Condition, Csp, CspSymmetry, named

MAX_TABLE = 1 << 16
"""Most value combinations of one condition's variables compared by truth table."""


def breaks(csp: Csp, sym: CspSymmetry) -> str:
    """Why ``sym`` is not a symmetry of ``csp``'s rules ("" when it is)."""
    perm, vmap = sym.variables, sym.values
    for x in csp.domains:
        y = perm.get(x, x)
        if sorted(vmap.get(v, v) for v in csp.values(x)) != list(csp.values(y)):
            return f"{sym.name}: the values of {x} do not map onto the values of {y}"
    groups = {frozenset(c.names) for c in csp.constraints if isinstance(c, AllDifferent)}
    conditions: dict[frozenset[str], list[Expr]] = {}
    for c in csp.constraints:
        if isinstance(c, Condition) and c.label != "given":
            for part in conjuncts(c.expr):
                conditions.setdefault(frozenset(variables(part)), []).append(part)
    for c in csp.constraints:
        label = named(c)
        if isinstance(c, Circuit):
            return f"{sym.name}: the circuit {c.label or ', '.join(c.names)} cannot be " \
                   "checked (circuits take no symmetry)"
        if isinstance(c, AllDifferent):
            if frozenset(perm.get(n, n) for n in c.names) not in groups:
                return f"{sym.name} breaks the constraint {label}: its image is no " \
                       "all-different group"
        elif c.label != "given":
            for part in conjuncts(c.expr):
                why = _image_missing(csp, sym, part, conditions)
                if why:
                    return f"{sym.name} breaks the constraint {label}: {why}"
    return ""


def _image_missing(csp: Csp, sym: CspSymmetry, part: Expr,
                   conditions: Mapping[frozenset[str], list[Expr]]) -> str:
    perm, vmap = sym.variables, sym.values
    xs = sorted(variables(part))
    ys = [perm.get(x, x) for x in xs]
    candidates = conditions.get(frozenset(ys), [])
    if not xs:
        return ""
    if not vmap:
        image = normal_text(substitute(part, lambda v: Var(perm.get(v.name, v.name))))
        if any(normal_text(c) == image for c in candidates):
            return ""
    size = math.prod(len(csp.values(y)) for y in ys)
    if size > MAX_TABLE:
        return (f"the image of {readable(part)} is not written the same way, and its "
                f"{size:,} value combinations are too many to compare")
    inverse = {b: a for a, b in vmap.items()}
    combos = list(itertools.product(*(csp.values(y) for y in ys)))
    want = tuple(bool(evaluate(part, {x: inverse.get(b, b) for x, b in zip(xs, combo)}))
                 for combo in combos)
    for cand in candidates:
        if tuple(bool(evaluate(cand, dict(zip(ys, combo)))) for combo in combos) == want:
            return ""
    return f"no condition over {', '.join(ys)} is the image of {readable(part)}"
