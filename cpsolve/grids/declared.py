"""Symmetries a CSP declares (``Csp.symmetries``): checked, then closed into a group.

A declared symmetry is a claim (:class:`cpsolve.model.CspSymmetry`: a
permutation of the variables and a renaming of values).  :func:`breaks`
checks it generically: it must map every variable's values onto its image's
values, every all-different group onto a group, and every condition (each
top-level conjunct of a constraint) onto a condition over the image
variables with the same truth table.  Givens are ignored: symmetries belong
to the rules.  Mapping the constraints onto constraints is enough: the
symmetry then maps solutions to solutions, and being a bijection of the
finitely many assignments, maps the solutions onto themselves.

The comparison is structural first (after renaming, sums, conjunctions and
the like compared as multisets), else by truth table over at most
:data:`MAX_TABLE` value combinations.  :func:`declared_symmetry` closes the
checked symmetries into the :class:`~.canonical.Symmetry` group the counting
and generation tools use.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from ..expr import (
    Expr,
    Var,
    conjuncts,
    evaluate,
    normal_text,
    substitute,
    to_text,
    variables,
)
from ..model import AllDifferent, Circuit, Condition, Csp, CspSymmetry
from .canonical import Symmetry


class SymmetryError(ValueError):
    """A symmetry that does not hold for the model (or none was declared)."""


MAX_TABLE = 1 << 16
"""Most value combinations of one condition's variables compared by truth table."""

MAX_GROUP = 50_000
"""Most elements the declared symmetries may generate."""


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
        label = c.label or type(c).__name__
        if isinstance(c, Circuit):
            return f"{sym.name}: the circuit {label} cannot be checked (circuits take no symmetry)"
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
        return (f"the image of {to_text(part)} is not written the same way, and its "
                f"{size:,} value combinations are too many to compare")
    inverse = {b: a for a, b in vmap.items()}
    combos = list(itertools.product(*(csp.values(y) for y in ys)))
    want = tuple(bool(evaluate(part, {x: inverse.get(b, b) for x, b in zip(xs, combo)}))
                 for combo in combos)
    for cand in candidates:
        if tuple(bool(evaluate(cand, dict(zip(ys, combo)))) for combo in combos) == want:
            return ""
    return f"no condition over {', '.join(ys)} is the image of {to_text(part)}"


def declared_symmetry(csp: Csp) -> Symmetry | None:
    """The group the declared symmetries generate, as a :class:`Symmetry` (None: none declared).

    Raises :class:`SymmetryError` when one breaks the rules (:func:`breaks`) or the group
    has more than :data:`MAX_GROUP` elements.
    """
    if not csp.symmetries:
        return None
    for sym in csp.symmetries:
        why = breaks(csp, sym)
        if why:
            raise SymmetryError(why)
    names = tuple(csp.domains)
    pos = {n: i for i, n in enumerate(names)}
    values = tuple(sorted({v for n in names for v in csp.values(n)}))
    vpos = {v: j for j, v in enumerate(values)}
    identity = (tuple(range(len(names))), values)
    gens = [((tuple(pos[s.variables.get(n, n)] for n in names),
              tuple(s.values.get(v, v) for v in values)), s.name) for s in csp.symmetries]
    found = {identity: "identity"}
    frontier = [identity]
    while frontier:
        grown = []
        for (p, vm), ((q, wm), gname) in itertools.product(frontier, gens):
            element = (tuple(q[i] for i in p), tuple(wm[vpos[v]] for v in vm))
            if element not in found:
                found[element] = gname if found[(p, vm)] == "identity" \
                    else f"{found[(p, vm)]} then {gname}"
                grown.append(element)
                if len(found) > MAX_GROUP:
                    raise SymmetryError(f"the declared symmetries generate more than "
                                     f"{MAX_GROUP:,} symmetries")
        frontier = grown
    elements = list(found)
    maps = tuple(vm for _, vm in elements)
    plain = all(vm == values for vm in maps)
    listed = ", ".join(found[e] for e in elements[:8]) + (", ..." if len(elements) > 8 else "")
    summary = f"{len(elements)} declared symmetries ({listed})"
    return Symmetry(names, tuple(p for p, _ in elements), tuple(found[e] for e in elements),
                    values, False, summary, () if plain else maps)
