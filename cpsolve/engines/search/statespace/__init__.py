"""State-space analysis: breadth-first layers from the start or back from the goal.

:mod:`.layers` is the plain-Python analysis; :mod:`.vector` the NumPy one
(whole frontiers at once, states packed by :mod:`.packing`, predecessors and
the reversibility test from :mod:`.backward`).  NumPy is imported only when
the vectorised analysis runs.
"""
