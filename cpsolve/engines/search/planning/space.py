"""Whether a model's reachable space is small enough for :mod:`.packed_bidir`, asked without
NumPy when the domains alone say the space is tiny (the plain searches are faster there,
and a one-line solve should not pay NumPy's import); and how much of a reachable space
other work may enumerate on the side (:func:`side_seconds`: CP-SAT's transition graph, the
audit of a model's estimate)."""

from __future__ import annotations

from ....model.facts import state_count

SIDE_STATES = 100_000
"""Most reachable states an enumeration on the side may find (it gives up beyond) ..."""
SIDE_SECONDS = 0.25
"""... within this many seconds ..."""
SIDE_SHARE = 0.1
"""... and at most this share of the time limit (the 8-puzzle's 181,440 states pass
:data:`SIDE_STATES` after about 0.1 s)."""

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


def side_seconds(time_limit: float | None) -> float:
    """The seconds an enumeration on the side may take under ``time_limit`` (None: no
    limit): :data:`SIDE_SECONDS`, and at most :data:`SIDE_SHARE` of the limit."""
    return SIDE_SECONDS if time_limit is None else min(SIDE_SECONDS, SIDE_SHARE * time_limit)
