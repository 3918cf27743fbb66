"""Grid work that runs engines: counting classes of solutions, generating puzzles.

Generic over a :class:`~cpsolve.model.Csp` and the
:class:`~cpsolve.model.symmetry.canonical.Symmetry` a family hands over (what a
symmetry is, and the square's symmetries of a board, belong to the model layer:
:mod:`cpsolve.model.symmetry`).  Modules, from the bottom up:

* :mod:`.counting` — solutions up to renaming / symmetry, through the engines;
* :mod:`.generated` — what generation returns (puzzles and figures);
* :mod:`.exhaustive` — every unique puzzle with K givens, from the solutions;
* :mod:`.randomized` — random unique puzzles for boards too big to enumerate;
* :mod:`.generator` — :class:`~.generator.Generator`, which picks the method.

Their text and JSON are :mod:`cpsolve.output.grids`.
"""
