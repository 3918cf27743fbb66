"""A model file's ``[expected]`` table: its keys, read and checked, and the keys that apply
to the model the file builds (a planning model has no ``objective``, a csp no ``steps``).

Families never see the table; the run is compared with it in
:mod:`cpsolve.workflows.expected`.
"""

from __future__ import annotations

from typing import Any

from .data import Data

EXPECTED: dict[str, tuple[type, ...]] = {
    "solve": (str,),         # "optimal" | "solved" | "infeasible": what solving must prove
    "steps": (int,),         # actions in an optimal plan
    "cost": (int,),          # the least total cost of a plan
    "unique": (bool,),       # the CSP has exactly one solution
    "objective": (int,),     # the optimum of a CSP's minimize / maximize (may be < 0)
    "count": (int,),         # solutions of a CSP; optimal plans of a planning model
    "classes": (int,),       # solutions of a CSP up to its symmetries (count --up-to symmetry)
    "states": (int,),        # states analyze counts in its default direction (below)
    "max_distance": (int,),  # the largest distance there
    "farthest": (int,),      # how many states lie at max_distance
}
"""Keys of a model file's ``[expected]`` table (known answers, checked by the tests).
``states``, ``max_distance`` and ``farthest`` are ``analyze``'s figures in its default
direction: back from the goal when the goal is one state (distances to it), else from the
start (distances from it)."""

SOLVE_STATUSES = ("optimal", "solved", "infeasible")

KINDS: dict[str, str] = {
    "steps": "planning", "cost": "planning", "states": "planning",
    "max_distance": "planning", "farthest": "planning",
    "unique": "csp", "objective": "csp", "classes": "csp",
}
"""The keys that only one kind of model answers (the others, ``solve`` and ``count``,
apply to both): no run of a model of the other kind could ever check them."""


def read_expected(data: Data) -> dict[str, Any]:
    """Take the ``[expected]`` table out of ``data`` (families never see it), checked."""
    table = data.get("expected", dict, {})
    data.table.pop("expected", None)
    data.unknown_keys(set(EXPECTED), table, prefix="expected.")
    out = {key: data.get(key, kind, table=table, prefix="expected.")
           for key, kind in EXPECTED.items() if key in table}
    if out.get("solve", "optimal") not in SOLVE_STATUSES:
        raise data.error("expected.solve", f"expected one of {', '.join(SOLVE_STATUSES)}")
    for key, value in out.items():  # an optimum may be negative; steps, costs, counts not
        if key != "objective" and isinstance(value, int) and not isinstance(value, bool) \
                and value < 0:
            raise data.error(f"expected.{key}", f"must be >= 0, got {value}")
    return out


def check_applies(data: Data, expected: dict[str, Any], model) -> None:
    """Refuse a key of ``expected`` that ``model`` can never answer: one of another kind of
    model (:data:`KINDS`), an ``objective`` or ``solve = "optimal"`` of a csp without
    ``minimize`` / ``maximize`` (its solutions are all equal: a solve says ``solved``)."""
    for key in expected:
        kind = KINDS.get(key)
        if kind is not None and kind != model.kind:
            raise data.error(f"expected.{key}", f"applies to a {kind} model only; this is a "
                                                f"{model.kind} model, whose runs never answer it")
    if model.kind != "csp" or model.objective is not None:
        return
    if "objective" in expected:
        raise data.error("expected.objective", "this csp has no minimize or maximize, so "
                                               "no optimum to expect")
    if expected.get("solve") == "optimal":
        raise data.error("expected.solve", "\"optimal\" needs a minimize or maximize, which "
                                           "this csp does not have: its solve says "
                                           "\"solved\" (or \"infeasible\")")
