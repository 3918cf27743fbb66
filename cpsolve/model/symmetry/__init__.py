"""Symmetries of a model: named rotations and reflections of a board (:mod:`.boards`), the
:class:`~.canonical.Symmetry` type and canonical forms (:mod:`.canonical`), the square's
symmetries that keep a grid's groups (:mod:`.grid`), symmetries a csp declares, checked
(:mod:`.declared`)."""
