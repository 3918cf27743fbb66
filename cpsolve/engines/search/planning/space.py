"""Whether a model's reachable space is small enough for :mod:`.packed_bidir`, asked without
NumPy when the domains alone say the space is tiny (the plain searches are faster there,
and a one-line solve should not pay NumPy's import)."""

from __future__ import annotations

from ....model.facts import state_count

PLAIN_SPACE = 100_000
"""Spaces of at most this many states (the product of the domains' sizes) are left to the
plain searches: packing and tables cost more than they save."""


def lacking(task) -> str | None:
    """Why the packed search is not the one for ``task`` (None: it is); ``task`` None: not
    compiled yet."""
    if task is None:
        return "not known before the model is compiled"
    if state_count(task.model) <= PLAIN_SPACE:
        return "few enough states for the plain searches"
    from .packed_bidir import space_lacking

    return space_lacking(task)
