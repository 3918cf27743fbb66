"""Plans in the IPC plan format: one ``(action arg ...)`` per line, then the cost as a
comment, as Fast Downward writes them (``; cost = 11 (unit cost)``), so planners'
tools (VAL, unified-planning, ``cpsolve validate``) read cpsolve's answers."""

from __future__ import annotations

from ..answers.kinds import Plan


def ipc_plan(plan: Plan, unit: bool) -> str:
    """The plan's text (a PDDL input's actions are named like its ground actions)."""
    lines = [f"({step.action})" for step in plan.steps]
    lines.append(f"; cost = {plan.cost} ({'unit' if unit else 'general'} cost)")
    return "\n".join(lines) + "\n"
