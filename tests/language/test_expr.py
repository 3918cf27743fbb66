"""The expression language: trees built by operators, the reference interpreter, bounds, text."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve import And, If, Max, Min, Not, Or, Sum, Var
from cpsolve.language.expr import (
    Binary,
    Const,
    Expr,
    IfThenElse,
    Nary,
    Unary,
    conjuncts,
    is_boolean,
    readable,
    to_text,
    wrap,
)
from cpsolve.language.interpret import evaluate
from cpsolve.language.intervals import bounds
from cpsolve.language.parse import parse
from cpsolve.language.scope import variable_scope
from cpsolve.language.walk import same, substitute, variables

a, b, c = Var("a"), Var("b"), Var("c")
A, B, C = a, b, c  # readability in expected trees


def node(op: str, left: Expr | int, right: Expr | int) -> Binary:
    return Binary(op, wrap(left), wrap(right))


# ------------------------------------------------------------ operator overloading


@pytest.mark.parametrize("built, expected", [
    (a + 1, node("+", A, 1)),
    (1 + a, node("+", 1, A)),
    (a - b, node("-", A, B)),
    (3 - a, node("-", 3, A)),
    (2 * a, node("*", 2, A)),
    (a * b, node("*", A, B)),
    (-a, Unary("-", A)),
    (abs(a - 5), Unary("abs", node("-", A, 5))),
    (a == 4, node("==", A, 4)),
    (a != b, node("!=", A, B)),
    (a < b, node("<", A, B)),
    (a <= 2, node("<=", A, 2)),
    (a > 0, node(">", A, 0)),
    (a >= b, node(">=", A, B)),
    (3 < a, node(">", A, 3)),  # Python reflects 3 < a to a > 3
    (4 == a, node("==", A, 4)),
    ((a == 4) & (b == 4), Nary("and", (node("==", A, 4), node("==", B, 4)))),
    ((a == 4) | (b == 4), Nary("or", (node("==", A, 4), node("==", B, 4)))),
    (True & a, Nary("and", (Const(1), A))),
    (False | a, Nary("or", (Const(0), A))),
    (~(a == 1), Unary("not", node("==", A, 1))),
    ((a == 4) + (b == 4), node("+", node("==", A, 4), node("==", B, 4))),
    (a + b * c, node("+", A, node("*", B, C))),
    ((a + b) * c, node("*", node("+", A, B), C)),
    (a - b - c, node("-", node("-", A, B), C)),
])
def test_operators_build_trees(built, expected):
    assert same(built, expected), (to_text(built), to_text(expected))


def test_helper_constructors():
    assert same(And(), Const(1)) and same(Or(), Const(0))
    assert same(And(a), a) and same(Or(a), a) and same(Min(a), a) and same(Max(b), b)
    assert same(And(a, b, c), Nary("and", (A, B, C)))
    assert same(And([a, b], c), Nary("and", (A, B, C)))  # lists are flattened
    assert same(Or(a, 1), Nary("or", (A, Const(1))))
    assert same(Not(a), Unary("not", A))
    assert same(Min(a, 5 - b), Nary("min", (A, node("-", 5, B))))
    assert same(Max([a, b, 2]), Nary("max", (A, B, Const(2))))
    assert same(If(a > 0, b, 7), IfThenElse(node(">", A, 0), B, Const(7)))
    assert same(Sum([]), Const(0))
    assert same(Sum([a]), a)
    assert same(Sum([a, b, 3]), node("+", node("+", A, B), 3))


def test_same_is_structural():
    assert same(a + 1, Var("a") + 1)
    assert not same(a + 1, 1 + a)
    assert not same(a + 1, a - 1)
    assert not same(Var("a"), Var("b"))
    assert not same(Const(1), Const(2))
    assert not same(Const(1), Var("a"))
    assert not same(Min(a, b), Max(a, b))
    assert not same(And(a, b), And(a, b, c))


def test_wrap():
    assert same(wrap(3), Const(3))
    assert same(wrap(True), Const(1)) and same(wrap(False), Const(0))
    assert wrap(a) is a
    import numpy as np

    assert same(wrap(np.int64(7)), Const(7))
    for bad in ("x", 1.5, None, [1]):
        with pytest.raises(TypeError):
            wrap(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        a + 1.5  # type: ignore[operator]


def test_no_truth_value():
    with pytest.raises(TypeError, match="no truth value"):
        bool(a == 1)
    with pytest.raises(TypeError, match=r"cpsolve\.Min/Max/If instead of Python's min"):
        min(a, 4 - b)  # Python's min compares its arguments: the message says what to use
    with pytest.raises(TypeError):
        if a:  # the point is the implicit bool()
            pass
    with pytest.raises(TypeError):
        _ = (a == 1) and (b == 2)
    with pytest.raises(TypeError):
        _ = (a < 3) and (b < 2)  # not a chain: still refused


def test_chained_comparisons_mean_what_python_means():
    chains = {
        "1 < a < 3": (1 < a < 3, lambda x, y: 1 < x < 3),
        "0 <= a <= b < 4": (0 <= a <= b < 4, lambda x, y: 0 <= x <= y < 4),
        "a < 3 == b": (a < 3 == b, lambda x, y: x < 3 == y),
        "a != b > 1": (a != b > 1, lambda x, y: x != y > 1),
    }
    for text, (expr, meaning) in chains.items():
        for x in range(-1, 5):
            for y in range(-1, 5):
                assert evaluate(expr, {"a": x, "b": y}) == int(meaning(x, y)), (text, x, y)
    assert same(a > 1, Binary(">", a, Const(1)))  # nothing left over from a chain


def test_expressions_hash_by_identity():
    e = a + 1
    assert {e: 1}[e] == 1
    assert len({e, a + 1}) == 2  # == builds a comparison, so equal trees are distinct keys


# ------------------------------------------------------------ evaluation


@pytest.mark.parametrize("expr, env, value", [
    (a + 1, {"a": 4}, 5),
    (3 - a, {"a": 5}, -2),
    (a * b - c, {"a": 3, "b": -2, "c": 1}, -7),
    (-a, {"a": 4}, -4),
    (abs(a - 5), {"a": 2}, 3),
    (Min(a, 5 - b) + b, {"a": 3, "b": 4}, 5),  # water jugs: pour 3 L into a jug holding 4 of 5
    (Max(a, b, c), {"a": 1, "b": 9, "c": 4}, 9),
    ((a == 4) + (b == 4), {"a": 4, "b": 4}, 2),
    ((a == 4) + (b == 4), {"a": 4, "b": 3}, 1),
    ((a == 4) | (b == 4), {"a": 0, "b": 4}, 1),
    ((a == 4) & (b == 4), {"a": 0, "b": 4}, 0),
    (~(a < b), {"a": 1, "b": 2}, 0),
    (~(a < b), {"a": 2, "b": 2}, 1),
    (a != b, {"a": 2, "b": 2}, 0),
    (a >= b, {"a": 2, "b": 2}, 1),
    (a > b, {"a": 2, "b": 2}, 0),
    (a <= b, {"a": 3, "b": 2}, 0),
    (If(a > 2, b, c), {"a": 3, "b": 10, "c": 20}, 10),
    (If(a > 2, b, c), {"a": 2, "b": 10, "c": 20}, 20),
    (Not(a), {"a": 7}, 0),  # any non-zero value is true
    (Not(a), {"a": 0}, 1),
    (Or(a, b), {"a": 0, "b": -3}, 1),
    (And(), {}, 1),
    (Sum([a, a, a]), {"a": 7}, 21),
])
def test_evaluate(expr, env, value):
    assert evaluate(expr, env) == value


def test_evaluate_missing_variable():
    with pytest.raises(KeyError):
        evaluate(a + b, {"a": 1})


def test_variables_substitute_conjuncts():
    e = Min(a, 5 - b) + If(c > 0, a, 2)
    assert variables(e) == {"a", "b", "c"}
    assert variables(Const(3)) == set()
    shifted = substitute(e, lambda v: Var(v.name + "@1"))
    assert variables(shifted) == {"a@1", "b@1", "c@1"}
    assert evaluate(shifted, {"a@1": 1, "b@1": 2, "c@1": 0}) == evaluate(
        e, {"a": 1, "b": 2, "c": 0})
    assert [to_text(x) for x in conjuncts(And(a == 1, And(b == 2, c == 3)))] == [
        "a == 1", "b == 2", "c == 3"]
    assert conjuncts(Const(1)) == []
    assert len(conjuncts(Or(a, b))) == 1


def test_is_boolean():
    assert is_boolean(a == 1) and is_boolean(And(a, b)) and is_boolean(Not(a))
    assert is_boolean(Const(0)) and is_boolean(Const(1))
    assert not is_boolean(a) and not is_boolean(a + 1) and not is_boolean(Const(2))
    assert not is_boolean(Min(a, b))


# ------------------------------------------------------------ bounds


DOMAINS = {"a": (0, 8), "b": (0, 5), "c": (-3, 2)}


@pytest.mark.parametrize("expr, expected", [
    (a, (0, 8)),
    (Const(-4), (-4, -4)),
    (a + b, (0, 13)),
    (a - b, (-5, 8)),
    (-c, (-2, 3)),
    (a * c, (-24, 16)),
    (c * c, (-6, 9)),  # interval arithmetic does not know both factors are the same
    (abs(c), (0, 3)),
    (abs(b), (0, 5)),
    (abs(c - 5), (3, 8)),
    (Min(a, b), (0, 5)),
    (Max(a, c), (0, 8)),
    (Min(a, 5 - b), (0, 5)),
    (If(a > 3, b, c), (-3, 5)),
    (a == b, (0, 1)),
    (And(a, b), (0, 1)),
])
def test_bounds_by_hand(expr, expected):
    assert bounds(expr, DOMAINS.__getitem__) == expected


# Hypothesis: small random trees over a, b, c with small domains.

LEAF_VARS = ["a", "b", "c"]
HYP_DOMAINS = {"a": (0, 2), "b": (-1, 1), "c": (1, 3)}


def _decides(op: str, expr: Expr) -> bool:
    """Does ``expr``, without variables, decide an ``op`` (false for and, true for or)?"""
    return not variables(expr) and bool(evaluate(expr, {})) == (op == "or")


def _number(expr: Expr) -> bool:
    """Is ``expr``, without variables, a number other than 0 or 1 (no condition: the parser
    refuses it as an operand of ``and``/``or``)?"""
    return not variables(expr) and evaluate(expr, {}) not in (0, 1)


def _trees(leaves: st.SearchStrategy[Expr], round_trip: bool = True
           ) -> st.SearchStrategy[Expr]:
    """Random trees; with ``round_trip``, only trees whose text parses back to the same tree.

    The parser folds ``-<constant>`` into one constant, so unary minus is
    never applied directly to a constant (constants may be negative); and it reads
    ``and``/``or`` as Python does, so an operand of constants that decides ends them
    (``0 and a`` is read ``0``): with ``round_trip`` no operand decides so; and it refuses
    an operand of constants that is a number other than 0 or 1: none is one.
    """

    def extend(sub: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        neg_arg = sub.filter(lambda e: not isinstance(e, Const))

        def boolean(op: str) -> st.SearchStrategy[Expr]:
            operand = sub.filter(lambda e: not _number(e))  # refused by the parser
            operand = operand.filter(lambda e: not _decides(op, e)) if round_trip else operand
            return st.builds(Nary, st.just(op), st.lists(operand, min_size=2, max_size=3)
                             .map(tuple))

        return st.one_of(
            st.builds(Binary, st.sampled_from(["+", "-", "*"]), sub, sub),
            st.builds(Binary, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), sub, sub),
            st.builds(Unary, st.just("-"), neg_arg),
            st.builds(Unary, st.sampled_from(["abs", "not"]), sub),
            st.builds(Nary, st.sampled_from(["min", "max"]),
                      st.lists(sub, min_size=2, max_size=3).map(tuple)),
            boolean("and"),
            boolean("or"),
            st.builds(IfThenElse, sub, sub, sub),
        )

    return st.recursive(leaves, extend, max_leaves=8)


LEAVES = st.one_of(
    st.sampled_from(LEAF_VARS).map(Var),
    st.integers(min_value=-3, max_value=3).map(Const),
)
TREES = _trees(LEAVES)
ANY_TREES = _trees(LEAVES, round_trip=False)


def _assignments(names=LEAF_VARS, domains=HYP_DOMAINS):
    ranges = [range(domains[n][0], domains[n][1] + 1) for n in names]
    for values in itertools.product(*ranges):
        yield dict(zip(names, values))


@settings(max_examples=300, deadline=None)
@given(TREES)
def test_bounds_contain_every_value(expr):
    lo, hi = bounds(expr, HYP_DOMAINS.__getitem__)
    assert lo <= hi
    for env in _assignments():
        assert lo <= evaluate(expr, env) <= hi, (to_text(expr), env, (lo, hi))


# ------------------------------------------------------------ text round trip

SCOPE = variable_scope(LEAF_VARS)


@settings(max_examples=400, deadline=None)
@given(TREES)
def test_text_round_trip_is_structural(expr):
    text = to_text(expr)
    back = parse(text, SCOPE)
    assert same(back, expr), (text, to_text(back))
    assert to_text(back) == text


@settings(max_examples=400, deadline=None)
@given(ANY_TREES)
def test_text_and_readable_text_have_the_same_value(expr):
    # also where an and/or is decided by an operand of constants, read short
    for text in (to_text(expr), readable(expr)):
        back = parse(text, SCOPE)
        for env in _assignments():
            assert evaluate(back, env) == evaluate(expr, env), (text, env)


def test_readable_text_drops_the_brackets_of_how_a_chain_was_built():
    x = [Var(f"x[{i}]") for i in range(4)]
    built = x[0] + x[1] + (x[2] + x[3])  # as a loop adding pairs builds it
    assert to_text(built) == "x[0] + x[1] + (x[2] + x[3])"  # the exact tree, for files
    assert readable(built) == "x[0] + x[1] + x[2] + x[3]"
    assert readable(a * (b * c)) == "a * b * c"
    both = Nary("and", (a == 1, Nary("and", (b == 2, c == 3))))
    assert readable(both) == "a == 1 and b == 2 and c == 3"
    # brackets that change the value stay
    assert readable(a - (b + c)) == "a - (b + c)"
    assert readable(a * (b + c)) == "a * (b + c)"
    assert readable(Nary("or", (a == 1, Nary("and", (b == 2, c == 3))))) == \
        "a == 1 or b == 2 and c == 3"


ARRAY_SCOPE = variable_scope(["x[0]", "x[1]", "g[0][0]", "g[0][1]", "g[1][0]", "g[1][1]"])
ARRAY_LEAVES = st.one_of(
    st.sampled_from(["x[0]", "x[1]", "g[0][1]", "g[1][0]"]).map(Var),
    st.integers(min_value=-2, max_value=2).map(Const),
)


@settings(max_examples=100, deadline=None)
@given(_trees(ARRAY_LEAVES))
def test_text_round_trip_with_array_cells(expr):
    assert same(parse(to_text(expr), ARRAY_SCOPE), expr), to_text(expr)


@pytest.mark.parametrize("expr, text", [
    (a - (b - c), "a - (b - c)"),
    (a - b - c, "a - b - c"),
    ((a + b) * c, "(a + b) * c"),
    (a * Const(-3), "a * -3"),
    (-(a + b), "-(a + b)"),
    (Unary("-", Unary("-", a)), "-(-a)"),
    (Not(a == b), "not a == b"),
    (Not(And(a, b)), "not (a and b)"),
    (Or(And(a, b), c), "a and b or c"),
    (And(Or(a, b), c), "(a or b) and c"),
    (Binary("<", a < b, c), "(a < b) < c"),
    ((a == 4) + (b == 4), "(a == 4) + (b == 4)"),
    (If(a > 0, b, -1), "ite(a > 0, b, -1)"),
    (Min(a, 5 - b), "min(a, 5 - b)"),
    (abs(a - b), "abs(a - b)"),
])
def test_to_text(expr, text):
    assert to_text(expr) == text
    assert same(parse(text, SCOPE), expr)


def test_parse_folds_negative_constants_and_chains():
    """The two places where parse(to_text(t)) is not t itself, only equal in value."""
    folded = Unary("-", Const(3))
    assert same(parse(to_text(folded), SCOPE), Const(-3))
    chain = parse("a < b < c", SCOPE)
    assert same(chain, And(a < b, b < c))
    for env in _assignments():
        assert evaluate(chain, env) == int(env["a"] < env["b"] < env["c"])


def test_readable_takes_a_parts_own_words_where_it_has_them():
    """``words`` replaces the parts it knows (here ``a == 1``) and leaves the rest as
    written, brackets included where precedence needs them."""
    a, b = Var("a"), Var("b")

    def words(e):
        return "A holds" if isinstance(e, Binary) and e.op == "==" and \
            getattr(e.left, "name", "") == "a" else None

    assert readable(((a == 1) | (b > 2)) & (b < 5), words) == "(A holds or b > 2) and b < 5"
    assert readable(a == 1) == "a == 1"
    # a part said in words keeps the brackets its own text would need: (a == 1) + b is
    # not a == 1 + b
    assert readable((a == 1) + b >= 1, words) == "(A holds) + b >= 1"
    assert readable(((a == 1) + b) * 2, lambda e: "S" if getattr(e, "op", "") == "+"
                    else None) == "(S) * 2"


def test_fold_drops_an_operation_with_its_identity():
    """``x + 0``, ``x * 1``... fold to ``x`` (an effect of them keeps its variable), an
    ``if`` of two equal branches to that branch; ``x * 0``, ``0 - x`` and ``x + 1 - 1`` stay
    (folding computes constants and drops identities, it does not rewrite algebra)."""
    from cpsolve.language.combine import If
    from cpsolve.language.fold import fold, keeps

    x, y = Var("x"), Var("y")
    for kept in (x + 0, 0 + x, x - 0, x * 1, 1 * x, x // 1, (x * 1 + 0) // 1 - (3 - 3),
                 If(y > 1, x, x * 1)):
        assert same(fold(kept, {}), x) and keeps(kept, "x"), kept
    for changed in (x * 0, 0 - x, x + 1 - 1, x + y, If(y > 1, x, x + 1)):
        assert not keeps(changed, "x"), changed
    assert fold(x * 1 + y, {"y": 0}) is x
