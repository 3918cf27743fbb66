"""Whether a compared model was answered and cross-checked, and the comparison's verdict
(its JSON ``status``, the last line in text)."""

from __future__ import annotations

from ..answers.agreement import complete, proof_source
from ..answers.result import Status
from ..engines.unsolvable import ARGUED
from ..workflows.batch.comparing import Compared

VERDICTS = {"disagree": ("engines disagree", "bold red"),
            "agree": ("all engines agree", "green"),
            "interrupted": ("comparison interrupted: not every engine ran, so no agreement "
                            "is claimed", "yellow"),
            "unanswered": ("no engine answered within the limits: nothing to compare",
                           "yellow"),
            "incomplete": ("not every model was cross-checked (see above): no agreement is "
                           "claimed for those", "yellow")}
"""The last line of a comparison in text (its words and style), by its JSON ``status``:
engines that disagree (whatever else happened), a comparison interrupted by Ctrl-C or
SIGTERM (what ran is in the table, but agreement needs every engine), no answer from any
engine on any model (nothing was compared), some model not cross-checked (not loaded, not
reached within the limit, no engine or only one proved its answer) or with an engine whose
answer failed the check, or agreement on every model."""

STOPPED = (Status.UNKNOWN, Status.PARTIAL, Status.AT_LEAST)
"""The statuses of a result cut short: nothing proven to compare."""


def answered(done: Compared) -> bool:
    """Some engine answered (not every result cut short by a limit)."""
    return bool(answering(done))


def answering(done: Compared) -> list[str]:
    """The engines that answered (their result not cut short by a limit: a count that
    stopped at ``at least`` is no answer to compare either)."""
    return [r.engine for r in done.results if r.status not in STOPPED]


def proving(done: Compared) -> list[str]:
    """The engines whose answer is whole (:func:`~cpsolve.answers.agreement.complete`: a
    proven optimum or "none exists", an exact count, a checked solution of a csp with
    nothing to optimise): a plan not proven optimal is no answer to "the least cost"."""
    return [r.engine for r in done.results if complete(r)]


def cross_checked(done: Compared) -> bool:
    """Two different engines or more gave a whole answer (:func:`proving`), so their answers
    were compared.  The family's own argument (:data:`~cpsolve.engines.unsolvable.ARGUED`) is
    one answer like any engine's: the checker re-derives it, but no second answer is
    compared with it when it answers alone.  Two engines that report the same proof
    (CP-SAT's "no plan" by the search engine's exhaustion, the invariant every planning
    engine finds alike: :func:`~cpsolve.answers.agreement.proof_source`) are one answer."""
    return len({proof_source(r) for r in done.results if complete(r)}) >= 2


def unchecked(done: Compared) -> str | None:
    """Why a model that some engine answered was not cross-checked, or ``None``."""
    engines, proved = answering(done), proving(done)
    if done.error or done.problems or not engines or cross_checked(done):
        return None
    if proved == [ARGUED]:  # the model's own argument: run answered before any engine
        proof = next(r.proof for r in done.results if r.engine == ARGUED)
        return f"not cross-checked: proven by the puzzle's own argument ({proof}), so no " \
            "engine ran"
    if len(proved) > 1:  # one proof, reported by each
        return f"not cross-checked: {' and '.join(proved)} gave the same proof " \
            f"({next(r.proof for r in done.results if complete(r))}), by the same code"
    if proved:
        return f"not cross-checked: only {proved[0]} " + \
            ("answered" if engines == proved else "proved its answer")
    return "not cross-checked: no engine proved its answer" + \
        ("; what they found is consistent" if len(engines) > 1 else "")


def verdict_of(done: list[Compared], interrupted: bool) -> str:
    """The comparison's ``status`` (:data:`VERDICTS`)."""
    if any(d.problems for d in done):
        return "disagree"
    if interrupted:
        return "interrupted"
    if not any(answered(d) for d in done):
        return "unanswered"
    return "agree" if all(cross_checked(d) and not d.bugs for d in done) else "incomplete"
