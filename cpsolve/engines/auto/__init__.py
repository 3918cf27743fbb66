"""``auto``: CP-SAT and search side by side; the first proof wins, the other cross-checks.

The default of ``solve`` and ``count``: a user asks a question, not an engine.
Each engine runs in its own forked process (two cores, two engines;
:func:`cpsolve.engines.runtime.processes.start`) through :func:`cpsolve.engines.run`, so
its answer is checked like any other.

* The first *proven* answer (optimal, infeasible, an exact count) is the
  answer, and the race ends soon after: the other engine gets a short, stated
  cross-check window — :data:`WINDOW_MIN` seconds, or :data:`WINDOW_SHARE` of
  what the winner took if that is longer (so never more than the longer of 1 s
  and the winner's time), within the budget — to confirm it, and is then
  stopped.  :class:`Confirmation` says whether it confirmed, or within what window it did
  not.
* Without a proof from either engine by the budget, or when the user
  interrupts (Ctrl-C, SIGTERM: the parent passes the signal on to both racers,
  each a session of its own, and they return what they have), the most useful
  partial answer (a plan found, the best bound, a
  count so far) is the answer, with every engine's bound beside it.
* On models where search is expected to win (:func:`head_start`: a csp; a planning model
  with an estimate or at most :data:`SMALL_SPACE` states) search runs alone first, for
  :data:`HEAD_START` seconds: a proof within that slice is the answer at once, CP-SAT never
  started (the confirmation says so; ``confirm`` — ``--confirm`` — races both from the
  start, and ``compare`` always runs both).
* An engine that cannot do the task (``Unsupported``) is simply not raced.
* A racer whose answer fails the independent check (``EngineBug``) leaves the answer to
  the other; the race lists it in :attr:`Race.bugs` (a bug in cpsolve: the command says
  so and exits 3).
* When the command's time left would not even cover the race's start (:func:`not_raced`),
  no racer starts: the answer is an invariant's proof that no plan exists, or nothing.
* An engine that proves the question has no answer of the kind asked
  (``Unanswerable``: infinitely many optimal plans to count) ends the race like a
  proof, and its refusal is the verdict (raised again: one line, exit 2), as under
  that engine alone; nothing confirms it (no engine could count them).
* CP-SAT solving a plan first looks for a plan found fast by weighted A*
  (:func:`cpsolve.engines.hints.prepare`, at most 2 s of its budget; as it does under
  ``--engine cpsat`` too) to take as a hint: an upper bound on the plan's
  length or cost that it replays and never trusts.

The racers' own time limit ends a little before the budget (:func:`margin`) so
that they stop themselves and report in time; a racer still running at the
budget, the window's end or an interruption is asked to stop (SIGINT) and
killed after a grace (at the budget: the racers are asked to stop a little before it and
killed :data:`LIMIT_GRACE` of the clock's grace after it, so that the race ends before the
command's guard gives up on it).  The parent never imports an engine's
solver.

The modules: :mod:`.outcome` (what a race records and returns), :mod:`.racing` (starting
the racers), :mod:`.waiting` (reading their messages, the window and the graces),
:mod:`.verdict` (the answer and its cross-check), :mod:`.turns` (the engines one after the
other in this process, as a batch runs them, answered by the same verdict).
"""

from .outcome import PROVEN, Check, Confirmation, Ending, Found, Race, proven
from .racing import HEAD_START, RACERS, SMALL_SPACE, answer, head_start, not_raced, race
from .waiting import (
    INTERRUPT_GRACE,
    LIMIT_GRACE,
    POLL,
    WINDOW_GRACE,
    WINDOW_MIN,
    WINDOW_SHARE,
    margin,
)

__all__ = ["HEAD_START", "INTERRUPT_GRACE", "LIMIT_GRACE", "POLL", "PROVEN", "RACERS",
           "SMALL_SPACE", "WINDOW_GRACE", "WINDOW_MIN", "WINDOW_SHARE", "Check", "Confirmation",
           "Ending", "Found", "Race", "answer", "head_start", "margin", "not_raced", "proven",
           "race"]
