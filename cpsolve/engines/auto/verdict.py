"""The verdict of an ``auto`` race: the winner's answer, else the most useful partial one,
cross-checked, and the confirmation of a proof."""

from __future__ import annotations

from dataclasses import replace

from ...answers.agreement import same_proof
from ...answers.kinds import Count, Plan
from ...answers.result import Result, Status, Unanswerable, Unsupported
from ..runtime.clock import seconds, stated
from .outcome import Check, Confirmation, Ending, Race, Watch, proven


def stopped_note(watch: Watch) -> str:
    """What a racer stopped by the race (not by itself) did."""
    if watch.ending is Ending.WINDOW:
        return f"stopped after its {watch.window:.1f} s cross-check window"
    if watch.ending is Ending.LIMIT:  # the figure the user gave, not the race's budget
        said = stated(watch.limit)
        return "stopped at the time limit" + ("" if said is None else f" ({seconds(said)} s)")
    if watch.ending is Ending.INTERRUPT:
        return "interrupted"
    return "stopped"


def verdict(engines: tuple[str, ...], checks: dict[str, Check], watch: Watch, task: str,
             seconds: float) -> Race:
    """The race's answer: the winner's, else the most useful partial one; cross-checked."""
    from ...answers.agreement import cross_check, disagreements

    stopped = stopped_note(watch)
    ordered = tuple(_noted(checks.get(name), name, stopped, name in watch.running)
                    for name in engines)
    results = [c.result for c in ordered if c.result is not None]
    problems = tuple(disagreements(results))
    winner = watch.winner or next((c.engine for c in ordered
                                   if c.result is not None and proven(c.result)), None)
    problems += _refusal(ordered)
    if winner is not None:  # (a proof may also come in while the racers are being stopped)
        primary = checks[winner].result
    elif results:
        primary = max(results, key=_usefulness)
    else:
        if all(c.unsupported for c in ordered):
            notes = "; ".join(f"{c.engine}: {c.note}" for c in ordered)
            raise Unsupported(f"no engine can do this: {notes}")
        notes = "; ".join(f"{c.engine}: {c.note}" for c in ordered if not c.unsupported)
        primary = Result(Status.UNKNOWN, "auto", task, message=notes)
    if primary in results and not problems:
        primary = cross_check(results)[results.index(primary)]
    return Race(primary.but(seconds=seconds), ordered, problems,
                _confirmation(ordered, primary, winner, watch), watch.proved_at)


def _refusal(checks: tuple[Check, ...]) -> tuple[str, ...]:
    """Raise an engine's proven refusal (:class:`Unanswerable`) as the race's verdict; an
    engine that proved an answer to the same question contradicts it: a disagreement."""
    refusal = next((c for c in checks if c.refused), None)
    if refusal is None:
        return ()
    for other in checks:
        if other.result is not None and proven(other.result):
            return (f"{refusal.engine} refused, {refusal.note}, but {other.engine} "
                    f"answered ({other.result.status.value})",)
    raise Unanswerable(refusal.note)


def _noted(check: Check | None, name: str, stopped: str, running: bool) -> Check:
    """A racer's check, saying so when the race stopped it."""
    if check is None:
        return Check(name, note=f"{stopped} without an answer" if running else "no answer")
    return replace(check, note=check.note or stopped) if running else check


def _confirmation(checks: tuple[Check, ...], primary: Result, winner: str | None,
                  watch: Watch) -> Confirmation | None:
    """The cross-check of the winner's proof by the other engine raced (None without)."""
    if winner is None:
        return None
    other = next((c for c in checks if c.engine != winner and not c.unsupported), None)
    if other is None:
        return None
    if not other.started:
        return Confirmation(other.engine, 0.0, False, False, watch.head_start)
    return Confirmation(other.engine, round(watch.window, 3),
                        other.engine in primary.cross_checked_by, other.engine in watch.running,
                        same_proof=other.result is not None
                        and same_proof(other.result, primary))


def _usefulness(result: Result) -> tuple[int, int, int]:
    """Order unproven results: an answer beats none; then the better answer (the cheaper
    plan, the larger count so far); then the better bound."""
    answer, bound = result.answer, result.bound or 0
    if answer is None:
        return (0, 0, bound)
    if isinstance(answer, Plan):
        return (1, -answer.cost, bound)
    if isinstance(answer, Count):
        return (1, answer.count, bound)
    return (1, 0, bound)
