"""Planning search: one module per algorithm, each ``fn(task, budget) -> Result``.

The algorithms are listed, with what each finds and needs, in
:mod:`..registry`; :mod:`.heuristic` compiles the model's estimate for the
informed ones, :mod:`.symmetric_states` merges symmetric states (``memo_dfs``,
``widening``) and :mod:`.count_plans` counts the optimal plans.
"""
