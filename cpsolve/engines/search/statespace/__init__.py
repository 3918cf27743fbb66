"""State-space analysis: breadth-first layers from the start or back from the goal.

:mod:`.layers` is the plain-Python analysis; :mod:`.vector` the NumPy one
(whole frontiers at once, states packed by :mod:`.packing`, predecessors and
the reversibility test from :mod:`.backward`; states wider than 64 bits in
several words, kept by :mod:`.wordsets` and stepped by the tables of :mod:`.stacked`).
NumPy is imported only when the vectorised analysis runs.

For spaces beyond memory, :mod:`.external` builds the layers on disk
(:mod:`.store`) under a memory limit, one state per orbit of the symmetries
that keep the start (:mod:`.symmetry`), resumably; :mod:`.cluster` runs the
same layers hash-partitioned over a Dask cluster (the only module here that
reaches Dask, through :mod:`cpsolve.engines.runtime.dask`).  When every state is
a permutation of distinct values, :mod:`.bitmap` keeps two bits per permutation instead
(:mod:`.twobits`), its address a perfect hash (:mod:`.permrank`).
"""
