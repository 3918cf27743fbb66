"""The search engine: plain state-space search on Planning, backtracking on Csp.

Three parts, one job each:

* :mod:`.planning` — one module per search algorithm, each
  ``fn(task, budget) -> Result`` on a :class:`~.compile.Task` (a planning
  model compiled once by :mod:`.compile`; states are tuples of ints in
  ``model.names`` order);
* :mod:`.statespace` — layered analysis of the state space (Python sets, or
  NumPy over packed states with vectorised backward steps);
* :mod:`.csp` — backtracking with forward checking on a
  :class:`~cpsolve.model.csp.Csp`, or a Hamiltonian-circuit search when the
  model is one circuit plus conditions.

Before any planning search, an invariant may prove that no plan exists
(:func:`cpsolve.engines.unsolvable.before_search`).

Shared by all three: :mod:`.compile` (the task), :mod:`.emit` (expressions
compiled to Python / NumPy source) and :mod:`.common` (budgets, results).
:mod:`.registry` lists every algorithm and analysis with what it finds and
needs; this module, the CLI and the tests read it.  Adding a search is one
module and one entry there.

The engine itself is :mod:`.engine` (what :func:`cpsolve.engines.run` loads); this
package file imports nothing, so the registry can be read (the CLI's help) without
loading a search.  Imports stay light (numpy only when the vectorised analysis runs, and
never the CP-SAT solver's package): ``cpsolve solve ... --engine search``
starts fast.
"""
