"""Symmetries a CSP declares (``Csp.symmetries``): checked, then closed into a group.

A declared symmetry is a claim (:class:`cpsolve.model.csp.CspSymmetry`: a
permutation of the variables and a renaming of values).  :func:`~.rules.breaks`
checks it generically: it must map every variable's values onto its image's
values, every all-different group onto a group, and every condition (each
top-level conjunct of a constraint) onto a condition over the image
variables with the same truth table.  Givens are ignored: symmetries belong
to the rules.  Mapping the constraints onto constraints is enough: the
symmetry then maps solutions to solutions, and being a bijection of the
finitely many assignments, maps the solutions onto themselves.

The comparison is structural first (after renaming, sums, conjunctions and
the like compared as multisets), else by truth table over at most
:data:`~.rules.MAX_TABLE` value combinations.  :func:`declared_symmetry` closes the
checked symmetries into the :class:`~.canonical.Symmetry` group the counting
and generation tools use.
"""

from __future__ import annotations

import itertools

from ..csp import Csp
from .canonical import Symmetry
from .rules import breaks


class SymmetryError(ValueError):
    """A symmetry that does not hold for the model (or none was declared)."""


MAX_GROUP = 50_000
"""Most elements the declared symmetries may generate."""


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
