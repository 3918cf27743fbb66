"""The generic models — :class:`Csp` and :class:`Planning` — and what is derived from them
without solving: facts (:mod:`.facts`), linear invariants (:mod:`.invariants`) and
symmetries (:mod:`.symmetry`).  No puzzle, no engine, no solver library."""

from .core import (
    MAX_ACTIONS,
    MAX_DOMAIN,
    MAX_MAGNITUDE,
    MAX_NAME_WIDTH,
    MAX_PATTERN_ENTRIES,
    MAX_VARIABLES,
    Action,
    AllDifferent,
    Circuit,
    Condition,
    Csp,
    CspSymmetry,
    Domain,
    Forbidden,
    ModelError,
    Objective,
    Planning,
    check_size,
    combinations,
    expand,
    format_name,
)

__all__ = ["MAX_ACTIONS", "MAX_DOMAIN", "MAX_MAGNITUDE", "MAX_NAME_WIDTH",
           "MAX_PATTERN_ENTRIES", "MAX_VARIABLES", "Action", "AllDifferent", "Circuit",
           "Condition", "Csp", "CspSymmetry", "Domain", "Forbidden", "ModelError", "Objective",
           "Planning",
           "check_size", "combinations", "expand", "format_name"]
