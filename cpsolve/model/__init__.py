"""The generic models — :class:`Csp` (:mod:`.csp`) and :class:`Planning` (:mod:`.planning`),
on the variables of :mod:`.variables`, with names made by :mod:`.naming` — and what is
derived from them without solving: facts (:mod:`.facts`), linear invariants
(:mod:`.invariants`) and symmetries (:mod:`.symmetry`).  No puzzle, no engine, no solver
library.

A puzzle family (or a user's own
Python file) builds one; every engine consumes one.  Nothing here imports an
engine.

Vocabulary, used everywhere in cpsolve:

* *variable* — a name with a finite integer domain ``lo..hi``;
* *state* — a tuple of values, one per state variable, in declaration order;
* *action* — name, *guard* (condition on the current state), *effects*
  (new values of some variables, as expressions over the current state;
  all other variables keep their values) and *cost* (an expression over the
  current state; 1 by default);
* *plan* — a sequence of action names leading from the initial state to a
  state where the *goal* holds;
* *forbidden* conditions — conditions that no state of a plan may satisfy,
  the initial state included (river crossings: more cannibals than
  missionaries on a bank).  A successor that satisfies one is not reached.

Two rules every engine and the checker share: an action whose effects would
take a variable outside its domain is not applicable in that state, and
action costs are never negative (checked by :meth:`Planning.validate` from
the costs' bounds), so that optimality claims mean what they say.
"""

from .csp import AllDifferent, Circuit, Condition, Csp, CspSymmetry, Objective
from .naming import MAX_NAME_WIDTH, combinations, expand, format_name, same_name
from .planning import Action, Forbidden, Planning
from .variables import (
    MAX_ACTIONS,
    MAX_DOMAIN,
    MAX_MAGNITUDE,
    MAX_PATTERN_ENTRIES,
    MAX_VARIABLES,
    Domain,
    ModelError,
    check_size,
)

Model = Csp | Planning
"""Either kind of model."""

__all__ = ["MAX_ACTIONS", "MAX_DOMAIN", "MAX_MAGNITUDE", "MAX_NAME_WIDTH",
           "MAX_PATTERN_ENTRIES", "MAX_VARIABLES", "Action", "AllDifferent", "Circuit",
           "Condition", "Csp", "CspSymmetry", "Domain", "Forbidden", "ModelError", "Objective",
           "Planning",
           "Model", "check_size", "combinations", "expand", "format_name", "same_name"]
