"""The independent checker: every answer passes here before anyone sees it.

It shares no code with the engines: expressions are evaluated by the
reference interpreter :func:`cpsolve.language.interpret.evaluate`, which no engine solves
with, and each constraint kind is checked by its plain definition.

:func:`verify` is the door every result passes; the checks it relies on live beside it:
:mod:`~cpsolve.answers.check.plans` replays a plan, :mod:`~cpsolve.answers.check.assignments`
checks an assignment against every constraint, :mod:`~cpsolve.answers.check.proofs`
re-derives an invariant or a permutation parity that proves no plan exists, and
:mod:`~cpsolve.answers.check.circuits` a reason from a circuit's graph that no csp solution
exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...model import Csp, Planning
from .circuits import no_circuit
from .proofs import goal_met_nowhere, invariant_problem, parity_problem


class EngineBug(RuntimeError):
    """An engine returned an answer that the independent checker rejected."""

    def said(self) -> str:
        """The error in the words every command uses for it (a bug in cpsolve: exit 3)."""
        return f"engine bug (the answer failed the independent check): {self}"


def verify(model: Csp | Planning, result: Any,
           passed: Callable[[Mapping[str, int]], bool] | None = None) -> Any:
    """Check the answer a result carries; mark it verified or raise :class:`EngineBug`.

    ``passed`` (a count's listed solutions): tells those this checker already passed as
    the engine streamed them; they are not checked again (their check was done).

    The answer checks itself with this module's functions (``answer.problem``);
    ``verified`` is then whether the checker re-checked all of it
    (``answer.checkable``: a plan replayed, an assignment checked, every listed
    solution checked — not a bare count, nor a count of 0).  A result without an
    answer (a proof of infeasibility, a limit hit) has nothing to verify and keeps ``None``,
    except a proof by an invariant (``result.invariant``) or by a permutation parity
    (``result.parity``): that is re-verified here (:func:`invariant_problem`,
    :func:`parity_problem`) and then ``verified``, as is a count of 0 it proves; and so is
    a proof that no plan exists of a model whose goal no values within the domains meet
    (:func:`goal_met_nowhere`, re-derived whatever the engine's proof), and a proof that a
    csp has no solution whose circuit's graph admits none (:func:`no_circuit`, likewise).
    """
    problem = _proof_problem(model, result)
    if problem:
        raise EngineBug(f"engine {result.engine} claims {problem}")
    answer = result.answer
    proven = getattr(result, "invariant", None) is not None or \
        getattr(result, "parity", None) is not None or _nowhere(model, result) or \
        (isinstance(model, Csp) and result.none_exists and no_circuit(model))
    if answer is None:
        if result.found:
            raise EngineBug(f"engine {result.engine} claims an answer but returned none")
        return result.but(verified=True) if proven else result
    problem = answer.problem(model, passed)
    if problem:
        raise EngineBug(f"engine {result.engine} returned {problem}")
    return result.but(verified=answer.checkable or (proven and result.none_exists))


def _nowhere(model: Csp | Planning, result: Any) -> bool:
    """Whether ``result`` proves no plan exists of a planning model whose goal no values
    within the domains meet (:func:`goal_met_nowhere`): re-derived here, whatever the
    engine's own proof."""
    return isinstance(model, Planning) and result.none_exists and goal_met_nowhere(model)


def _proof_problem(model: Csp | Planning, result: Any) -> str | None:
    """What is wrong with the invariant or the parity a result proves its answer by, as
    "an invariant proof, but ..." (``None``: nothing, or no such proof)."""
    invariant = getattr(result, "invariant", None)
    if invariant is not None:
        problem = invariant_problem(model, invariant.weights, invariant.modulus,
                                    invariant.start, invariant.goal)
        if problem:
            return f"an invariant proof, but {problem}"
    parity = getattr(result, "parity", None)
    if parity is not None:
        if not isinstance(model, Planning):
            return "a parity proof for a model that is no planning model"
        problem = parity_problem(model, parity.cells, parity.colours, parity.blank,
                                 parity.start, parity.goal)
        if problem:
            return f"a parity proof, but {problem}"
    return None
