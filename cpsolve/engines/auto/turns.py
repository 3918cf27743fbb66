"""``auto`` in this process, its engines one after the other (:func:`in_turn`), as a batch
runs it: one process per racer and instance would cost more than most instances take.

Search runs first, with half of the time; CP-SAT then runs with what is left unless search
proved its answer (or a stop was asked for).  Each engine's answer, or why it has none, is
recorded as a racer's is (:class:`.outcome.Check`, :func:`.waiting.failed`: an answer that
failed the independent check is that engine's ``bug``, and the next engine still runs), and
the race's own :func:`.verdict.verdict` chooses the answer: ``solve``'s race and a batch
keep the same answer out of the same engines' results.
"""

from __future__ import annotations

from dataclasses import replace

from ...answers.result import EngineBug, Unanswerable, Unsupported
from ...model import Csp, Planning
from .. import Options, run
from ..option_choices import usable
from ..runtime import interrupt
from ..runtime.clock import Clock
from ..runtime.processes import Failure
from .outcome import Check, Ending, Race, Watch, proven
from .racing import RACERS, argued_race
from .verdict import verdict
from .waiting import failed


def in_turn(task: str, model: Csp | Planning, options: Options,
            engines: tuple[str, ...] = RACERS) -> Race:
    """``engines`` on ``task``, one after the other within ``options.time_limit`` (each an
    equal share of what is left when its turn comes; each without the options that choose
    what only another engine has, :func:`~..option_choices.usable`: a batch's ``--algorithm``
    is search's), until one proves its answer; the
    answer is the race's verdict on what they did, its seconds all of theirs.  Raises what
    the race raises: ``ModelError`` for a model the engines refuse, :class:`Unsupported`
    when no engine can do the task.  A model that carries its own argument that no plan
    exists is answered with it, no engine run (:func:`.racing.argued_race`)."""
    if (argued := argued_race(task, model, options)) is not None:
        return argued
    clock = Clock(options.time_limit)
    checks: dict[str, Check] = {}
    for i, name in interrupt.each_on_its_own(enumerate(engines)):  # a memory stop: its own
        why = _not_now(checks)
        if why:
            checks[name] = Check(name, note=f"not started: {why}", started=False)
            continue
        asked = replace(usable(name, options), time_limit=clock.share(len(engines) - i))
        try:
            checks[name] = Check(name, run(name, task, model, asked))
        except (EngineBug, Unanswerable, Unsupported) as err:  # in a racer's words
            checks[name] = failed(name, Failure(type(err), str(err)))
    return verdict(engines, checks, Watch(ending=Ending.ALL_DONE), task, clock.elapsed())


def _not_now(checks: dict[str, Check]) -> str:
    """Why the next engine does not run: an engine before it proved its answer (or that the
    task has none), or a stop was asked for; ``""``: it runs."""
    for check in checks.values():
        if check.refused or (check.result is not None and proven(check.result)):
            return f"{check.engine} proved its answer"
    return interrupt.reason() if interrupt.requested() else ""
