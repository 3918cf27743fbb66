"""Search on a :class:`~cpsolve.model.csp.Csp`: backtracking, and Hamiltonian circuits.

:mod:`.backtrack` is the general backtracking search (forward checking on
bit-mask domains); :mod:`.circuit` routes a model that is one circuit plus
conditions to the Hamiltonian-circuit search of :mod:`.hamilton`, whose
conditions on arcs :mod:`.arcs` compiles.
"""

ALGORITHMS: dict[str, str] = {
    "circuit": "Hamiltonian-circuit search (models made of one circuit and no objective; "
               "their default)",
    "backtracking": "backtracking with forward checking (the default otherwise)",
}
"""Csp algorithms by name (``Options.algorithm`` on a csp), with what each is."""
