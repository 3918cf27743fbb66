"""Conditions decided by the domains alone (:mod:`cpsolve.model.never`): sound against brute
force over every value within small domains, and strong enough for the forms a goal that
no state meets takes (a folded constant, a bound, an ``or`` of such)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.language.expr import Binary, Const, Expr, IfThenElse, Nary, Unary, Var
from cpsolve.language.interpret import evaluate
from cpsolve.language.parse import parse
from cpsolve.model.never import always, never

NAMES = ("x", "y", "z")


def numbers(draw: st.DrawFn, depth: int) -> Expr:
    """A random integer expression over x, y, z and small constants."""
    if depth == 0 or draw(st.booleans()):
        return draw(st.one_of(st.sampled_from(NAMES).map(Var), st.integers(-3, 9).map(Const)))
    kind = draw(st.sampled_from(["+", "-", "*", "//", "%", "neg", "abs", "min", "max", "ite"]))
    a, b = numbers(draw, depth - 1), numbers(draw, depth - 1)
    if kind in ("//", "%"):
        return Binary(kind, a, Const(draw(st.integers(1, 4))))
    if kind in ("neg", "abs"):
        return Unary("-" if kind == "neg" else "abs", a)
    if kind in ("min", "max"):
        return Nary(kind, (a, b))
    if kind == "ite":
        return IfThenElse(conditions(draw, depth - 1), a, b)
    return Binary(kind, a, b)


def conditions(draw: st.DrawFn, depth: int) -> Expr:
    """A random condition: comparisons joined by and / or / not, sometimes a bare number."""
    kind = draw(st.sampled_from(["cmp", "cmp", "and", "or", "not", "number"]
                                if depth else ["cmp", "number"]))
    if kind == "cmp":
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return Binary(op, numbers(draw, 1), numbers(draw, 1))
    if kind == "number":
        return numbers(draw, 1)
    if kind == "not":
        return Unary("not", conditions(draw, depth - 1))
    parts = tuple(conditions(draw, depth - 1) for _ in range(draw(st.integers(2, 3))))
    return Nary(kind, parts)


@st.composite
def cases(draw: st.DrawFn) -> tuple[Expr, dict[str, tuple[int, int]]]:
    domains = {}
    for name in NAMES:
        lo = draw(st.integers(-2, 4))
        domains[name] = (lo, lo + draw(st.integers(0, 3)))
    return conditions(draw, 2), domains


@settings(max_examples=600, deadline=None)
@given(cases())
def test_never_and_always_agree_with_every_value_within_the_domains(case):
    cond, domains = case
    values = [bool(evaluate(cond, dict(zip(NAMES, v))))
              for v in itertools.product(*(range(lo, hi + 1) for lo, hi in domains.values()))]
    if never(cond, domains.__getitem__):
        assert not any(values), cond
    if always(cond, domains.__getitem__):
        assert all(values), cond


def v_domain(name: str) -> tuple[int, int]:
    return (0, 100)


def condition(text: str) -> Expr:
    return parse(text, {f"v{i}": Var(f"v{i}") for i in range(4)})


def test_the_forms_a_goal_no_state_meets_takes_are_decided():
    # v[i] take 0..100: 101 is out of reach however it is written or compared
    for text in ["v0 == 50 + 51", "v0 >= 101", "v0 > 100", "101 <= v0", "v0 < 0",
                 "v0 == 101 or v1 == 101", "v0 == 3 and v1 + v2 > 200", "not (v0 <= 100)",
                 "v0 + v1 + v2 + v3 == 401", "v0 == 101 and v1 == 101 and v2 == 0",
                 "not (v0 >= 0 and v1 < 200)", "min(v0, v1) > 100", "v0 * 2 == 201 + 0"]:
        assert never(condition(text), v_domain), text
    # each of these holds somewhere (v0 = 100, v0 = v1 = 0, ...): never proven
    for text in ["v0 == 100", "v0 >= 100 or v1 == 101", "v0 + v1 == 200", "v0 != 101",
                 "not (v0 == 101)", "v0 == v1", "v0 * 2 == 200"]:
        assert not never(condition(text), v_domain), text
    assert always(condition("v0 != 101"), v_domain) and not always(condition("v0 != 5"), v_domain)
