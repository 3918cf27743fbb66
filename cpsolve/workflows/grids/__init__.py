"""Grid work: symmetries of a board, canonical forms, counting classes, generating puzzles.

Generic over a :class:`~cpsolve.model.core.Csp` and the
:class:`~cpsolve.model.symmetry.canonical.Symmetry` a family hands over; only the
board module knows what a square grid is.  Modules, from the bottom up:

* :mod:`.canonical` — the :class:`Symmetry` type (variable permutations and
  renaming of values), whether it holds for a model, canonical forms;
* :mod:`.board` — the square's 8 symmetries that keep a grid's groups;
* :mod:`.counting` — solutions up to renaming / symmetry, through the engines;
* :mod:`.generated` — what generation returns (puzzles and figures);
* :mod:`.exhaustive` — every unique puzzle with K givens, from the solutions;
* :mod:`.randomized` — random unique puzzles for boards too big to enumerate;
* :mod:`.generator` — :class:`~.generator.Generator`, which picks the method;
* :mod:`.render` — text and JSON of class counts and generations (CLI only).

This package file imports nothing, so the grid family can use
:mod:`.board` without loading the engines.
"""
