"""The expression parser: a whitelist over Python's grammar, generators unrolled while parsing."""

from __future__ import annotations

import itertools
import re

import pytest

from cpsolve.language.expr import Binary, Const, IfThenElse, Nary, Unary, Var, readable, to_text
from cpsolve.language.interpret import evaluate
from cpsolve.language.parse import constant_list, listing, parse
from cpsolve.language.scope import constant_scope, variable_scope
from cpsolve.language.syntax import ExprError
from cpsolve.language.unroll import MAX_UNROLL
from cpsolve.language.walk import same

JUGS = {**constant_scope({"cap": [8, 5], "n": 3}), **variable_scope(["jug[0]", "jug[1]"])}
ON = {**constant_scope({"blocks": 3}), **variable_scope(["on[0]", "on[1]", "on[2]", "t"])}
GRID = variable_scope([f"g[{r}][{c}]" for r in range(2) for c in range(3)] + ["a", "b", "c"])

j0, j1 = Var("jug[0]"), Var("jug[1]")
a, b, c = Var("a"), Var("b"), Var("c")


def cells(*names: str) -> list[Var]:
    return [Var(n) for n in names]


# ------------------------------------------------------------ what is allowed


def test_constants_names_and_indexing():
    assert same(parse("42", JUGS), Const(42))
    assert same(parse("-7", JUGS), Const(-7))
    assert same(parse("True", JUGS), Const(1)) and same(parse("False", JUGS), Const(0))
    assert same(parse(5, JUGS), Const(5)) and same(parse(True, JUGS), Const(1))
    assert same(parse("jug[1]", JUGS), j1)
    assert same(parse("cap[1]", JUGS), Const(5))
    assert same(parse("cap[n - 2]", JUGS), Const(5))  # a constant index expression
    assert same(parse("g[1][2]", GRID), Var("g[1][2]"))
    assert same(parse("  jug[0] + 1  ", JUGS), j0 + 1)


def test_water_jugs_effect():
    e = parse("jug[1] + min(jug[0], cap[1] - jug[1])", JUGS)
    assert same(e, j1 + Nary("min", (j0, Binary("-", Const(5), j1))))
    assert evaluate(e, {"jug[0]": 7, "jug[1]": 0}) == 5
    assert evaluate(e, {"jug[0]": 3, "jug[1]": 1}) == 4


def test_boolean_operators():
    assert same(parse("a and b or not c", GRID),
                Nary("or", (Nary("and", (a, b)), Unary("not", c))))
    assert same(parse("a == 1 and b != 2 and c", GRID), Nary("and", (a == 1, b != 2, c)))
    assert same(parse("+a", GRID), a)
    assert same(parse("-a", GRID), Unary("-", a))
    assert same(parse("abs(a - b)", GRID), abs(a - b))


@pytest.mark.parametrize("text", ["ite(a > 0, b, c)", "b if a > 0 else c"])
def test_conditional_expressions(text):
    e = parse(text, GRID)
    assert same(e, IfThenElse(a > 0, b, c))
    assert evaluate(e, {"a": 1, "b": 10, "c": 20}) == 10
    assert evaluate(e, {"a": 0, "b": 10, "c": 20}) == 20


def test_chained_comparisons_become_conjunctions():
    e = parse("0 <= a < b <= 4", GRID)
    assert same(e, Nary("and", (Binary("<=", Const(0), a), a < b, b <= 4)))
    for x, y in itertools.product(range(-1, 6), repeat=2):
        assert evaluate(e, {"a": x, "b": y}) == int(0 <= x < y <= 4)
    assert same(parse("a == b", GRID), a == b)  # a single comparison stays one node


def test_min_max_of_arguments():
    assert same(parse("min(a, b, 3)", GRID), Nary("min", (a, b, Const(3))))
    assert same(parse("max(a)", GRID), a)


def test_generators_are_unrolled():
    e = parse("all(on[c] != t for c in range(blocks))", ON)
    assert same(e, Nary("and", tuple(Var(f"on[{i}]") != Var("t") for i in range(3))))
    e = parse("sum(jug[i] for i in range(2))", JUGS)
    assert same(e, j0 + j1)
    e = parse("any(jug[i] == 4 for i in [1, 0])", JUGS)
    assert same(e, Nary("or", (j1 == 4, j0 == 4)))
    e = parse("max(g[0][k] for k in range(1, 3))", GRID)
    assert same(e, Nary("max", tuple(cells("g[0][1]", "g[0][2]"))))


def test_generator_filters_and_nesting():
    e = parse("sum(g[r][k] for r in range(2) for k in range(3) if k != r)", GRID)
    expected = [f"g[{r}][{k}]" for r in range(2) for k in range(3) if k != r]
    assert to_text(e).replace("(", "").replace(")", "") == " + ".join(expected)
    # a later range may use an earlier name
    e = parse("all(g[0][i] != g[0][j] for i in range(3) for j in range(i + 1, 3))", GRID)
    assert [to_text(x) for x in e.args] == [  # type: ignore[attr-defined]
        "g[0][0] != g[0][1]", "g[0][0] != g[0][2]", "g[0][1] != g[0][2]"]


def test_empty_generators():
    assert same(parse("sum(a for i in range(0))", GRID), Const(0))
    assert same(parse("all(a for i in range(0))", GRID), Const(1))
    assert same(parse("any(a for i in range(0))", GRID), Const(0))
    with pytest.raises(ExprError, match="of nothing"):
        parse("min(a for i in range(0))", GRID)


def test_generator_name_does_not_leak():
    with pytest.raises(ExprError, match="unknown name 'i'"):
        parse("sum(a for i in range(2)) + i", GRID)


def test_variable_scope_builds_nested_arrays():
    scope = variable_scope(["x", "v[0]", "v[1]", "m[0][0]", "m[0][1]", "m[1][0]", "m[1][1]"])
    assert same(scope["x"], Var("x"))  # type: ignore[arg-type]
    assert [v.name for v in scope["v"]] == ["v[0]", "v[1]"]  # type: ignore[union-attr]
    assert [[v.name for v in row] for row in scope["m"]] == [  # type: ignore[union-attr]
        ["m[0][0]", "m[0][1]"], ["m[1][0]", "m[1][1]"]]


def test_constant_scope_rejects_non_integers():
    with pytest.raises(ExprError):
        constant_scope({"x": 1.5})
    with pytest.raises(ExprError):
        constant_scope({"x": [1, "two"]})


# ------------------------------------------------------------ what is refused


@pytest.mark.parametrize("text, scope, fragment", [
    ("__import__('os')", JUGS, "unknown function '__import__'"),
    ("__import__('os').system('echo hi')", JUGS, "unknown function"),
    ("jug.real", JUGS, "not allowed"),
    ("cap.__class__", JUGS, "not allowed"),
    ("(lambda: 1)()", JUGS, "unknown function"),
    ("lambda: 1", JUGS, "not allowed"),
    ("'four'", JUGS, "only integers"),
    ("jug[0] == 'four'", JUGS, "only integers"),
    ("1.5", JUGS, "only integers"),
    ("jug[0] * 0.5", JUGS, "only integers"),
    ("None", JUGS, "only integers"),
    ("jug[0] // jug[1]", JUGS, "positive constant"),
    ("jug[0] ** 2", JUGS, "Pow"),
    ("jug[0] / 2", JUGS, "Div"),
    ("jug[0] % (1 - 1)", JUGS, "positive constant"),
    ("~jug[0]", JUGS, "~"),
    ("jug[0] in cap", JUGS, "In"),
    ("jug[0] is 4", JUGS, "Is"),
    ("jar == 4", JUGS, "unknown name 'jar'"),
    ("pow(jug[0], 2)", JUGS, "unknown function 'pow'"),
    ("eval('1')", JUGS, "unknown function 'eval'"),
    ("min(a=1)", JUGS, "unknown function"),
    ("jug[jug[0]]", JUGS, "must be a constant"),
    ("cap[jug[1]]", JUGS, "must be a constant"),
    ("jug[2]", JUGS, "index 2 out of range"),
    ("jug[-1]", JUGS, "index -1 out of range"),
    ("jug[0][0]", JUGS, "not an array"),
    ("jug", JUGS, "'jug' is an array; index it, e.g. jug[0], or compare it cell by cell: "
                  "all(jug[i] == ... for i in range(len(jug)))"),
    ("g[0]", GRID, "'g[0]' is an array; index it, e.g. g[0][0]"),
    ("jug == [8, 5]", JUGS, "e.g. jug[0]"),
    ("jug[0:1]", JUGS, "not allowed"),
    ("[1, 2]", JUGS, "not allowed"),
    ("jug[0] +", JUGS, "syntax error"),
    ("x = 1", JUGS, "syntax error"),
    ("", JUGS, "syntax error"),
    ("abs(jug[0], jug[1])", JUGS, "abs takes one argument"),
    ("ite(jug[0], 1)", JUGS, "ite takes three arguments"),
    ("min()", JUGS, "at least one argument"),
    ("all(jug[0], jug[1])", JUGS, "takes a generator"),
    ("sum(jug[i] for i in range(jug[0]))", JUGS, "range() bounds must be constant"),
    ("sum(jug[i] for i in range(0, 2, 1))", JUGS, "a generator iterates over"),
    ("sum(jug[i] for i in jug)", JUGS, "must be constant"),  # a constant table is looped
    ("sum(jug[i] for i in [0, jug[1]])", JUGS, "must be constant"),
    ("sum(jug[i] for i in range(2) if jug[i] > 0)", JUGS, "filter"),
    ("sum(jug[i] for (i, k) in [(0, 1)])", JUGS, "one plain name"),
    ("abs(jug[i] for i in range(2))", JUGS, "does not take a generator"),
    ("[x for x in range(3)]", JUGS, "not allowed"),
    ("{1: 2}", JUGS, "not allowed"),
])
def test_refused(text, scope, fragment):
    with pytest.raises(ExprError) as info:
        parse(text, scope)
    message = str(info.value)
    assert fragment in message, message
    if text:
        assert repr(text) in message  # the message quotes the whole expression


@pytest.mark.parametrize("text, where", [
    ("jug[0] >", "unexpected end, column 9"),        # 8 characters: the end is column 9
    ("jug[0] == 1 and", "unexpected end, column 16"),
    ("jug[0] + * 2 == 1", "(column 10)"),            # the '*' is the 10th character
    ("1 2", "(column 3)"),                           # the '2'
])
def test_a_syntax_error_names_the_column_of_the_mistake(text, where):
    """An input that ends too soon is wrong at its end, not at column 1 (Python's parser
    gives no column for it)."""
    with pytest.raises(ExprError) as info:
        parse(text, JUGS)
    message = str(info.value)
    assert where in message and "column 1)" not in message, message


ONLY_CONSTANTS = "(known: cap, n; a variable cannot be used here)"


@pytest.mark.parametrize("text, known", [
    ("jar == 4", "(known: cap, jug, n)"),                         # anything goes here
    ("sum(jug[i] for i in range(m))", ONLY_CONSTANTS),            # a bound: constants only
    ("jug[k] == 1", ONLY_CONSTANTS),                              # an index too
    ("sum(jug[i] for i in range(2) if i < m)",                    # a filter: with its i
     "(known: cap, i, n; a variable cannot be used here)"),
])
def test_an_unknown_name_lists_the_names_usable_there(text, known):
    with pytest.raises(ExprError, match="unknown name") as info:
        parse(text, JUGS)
    assert str(info.value).endswith(known), str(info.value)


def test_where_only_constants_may_stand_the_variables_are_not_offered():
    with pytest.raises(ExprError) as info:
        constant_list("range(nn)", JUGS)
    assert str(info.value).endswith(ONLY_CONSTANTS)
    with pytest.raises(ExprError) as info:
        parse("nn", JUGS, constant=True)
    assert "jug" not in str(info.value)


def test_unknown_name_lists_known_names():
    with pytest.raises(ExprError, match=r"known: cap, jug, n"):
        parse("jar", JUGS)


def test_non_string_input():
    with pytest.raises(ExprError, match="expected an expression string"):
        parse(1.5, JUGS)  # type: ignore[arg-type]
    with pytest.raises(ExprError):
        parse(["jug[0]"], JUGS)  # type: ignore[arg-type]


def test_expr_error_is_a_value_error():
    assert issubclass(ExprError, ValueError)


# ------------------------------------------------------------ sizes, nested lists in full


@pytest.mark.parametrize("text", [
    "[[i * j for i in range(400)] for j in range(400)]",  # 160,000 values in 400 lists
    "[i * j for i in range(400) for j in range(400)]",    # one list, two for clauses
    "[[0, 1, 2, 3] for j in range(30000)]",               # 120,000: literal rows
    "[[0] * 1000] * 1000",                                # 1,000 copies of 1,000
    "[0] * 60000 + [1] * 60000",
    "[row for j in range(1000)]",                         # 1,000 copies of a named row
])
def test_a_list_counts_its_nested_values_in_full(text):
    """Each range is within the limit; the lists, their nested lists counted in full, are
    not (400 * 400, 30,000 * 4, 1,000 * 1,000, 2 * 60,000, 1,000 * 1,000 > 100,000)."""
    scope = constant_scope({"row": list(range(1000))})
    with pytest.raises(ExprError, match="a list of more than 100,000 values"):
        constant_list(text, scope)


def test_a_nested_list_within_the_limit_is_built():
    table = constant_list("[[i * j for i in range(300)] for j in range(300)]", {})
    assert 300 * 300 <= MAX_UNROLL
    assert len(table) == 300 and all(len(row) == 300 for row in table)
    assert same(table[7][11], Const(77))


def test_groups_and_generators_count_their_values_too():
    scope = variable_scope([f"x[{i}]" for i in range(400)])
    with pytest.raises(ExprError, match="more than 100,000 values"):
        listing("[[x[i] for i in range(400)] for j in range(400)]", scope)
    with pytest.raises(ExprError, match="more than 100,000 values"):
        parse("sum(x[i] for i in range(400) for j in range(400))", scope)


def test_arrays_of_variables_nest_by_their_indices_in_any_order():
    """``x[i][j]`` names, given in any order, make nested lists indexed as written; a
    200,000-cell array is built in one pass (row by row it took minutes)."""
    names = [f"x[{i}][{j}]" for j in range(4) for i in range(3)] + ["y[2]", "y[0]", "y[1]"]
    scope = variable_scope(names)
    assert [[v.name for v in row] for row in scope["x"]] == \
        [[f"x[{i}][{j}]" for j in range(4)] for i in range(3)]
    assert [v.name for v in scope["y"]] == ["y[0]", "y[1]", "y[2]"]
    big = variable_scope([f"z[{i}]" for i in range(200_000)])["z"]
    assert len(big) == 200_000 and big[123_456].name == "z[123456]"



@pytest.mark.parametrize("text, shown", [
    ("jug[0] != 3 or (4 < 2 and jug[1] == 1) or (0 > 1 and jug[0] == 0)", "jug[0] != 3"),
    ("jug[0] > 1 and (2 > 1 or jug[1] == 0) and jug[1] < 4", "jug[0] > 1 and jug[1] < 4"),
    ("jug[0] or 0", "jug[0] or 0"),  # a number stays under its or: the or's value is 0 or 1
])
def test_a_message_leaves_out_constants_that_decide_nothing(text, shown):
    """A Langford rule unrolled for one cell read ``s[3] != 3 or 0 or 0 is false``: a
    message leaves out the parts without variables that decide nothing (false in an ``or``,
    true in an ``and``), saying the same thing."""
    expr = parse(text, JUGS)
    assert readable(expr) == shown
    again = parse(shown, JUGS)
    for a, b in itertools.product(range(9), range(6)):
        env = {"jug[0]": a, "jug[1]": b}
        assert bool(evaluate(again, env)) == bool(evaluate(expr, env))


@pytest.mark.parametrize("text, said", [
    ("jug[0] == 3 or 5", "'5' is a number"),  # decided "true" before: always true
    ("5 or jug[0] > 1", "'5' is a number"),
    ("jug[0] > 1 and n", "'n' (3) is a number"),  # the constant named as written
    ("any(jug[0] == i or 3 for i in range(2))", "'3' is a number"),
])
def test_a_constant_number_in_and_or_is_no_condition(text, said):
    """``x == 3 or 5`` was read as true: a constant operand is a condition (0 or 1) like
    any other, as the model refuses ``x == 3 or k`` for a variable ``k`` in 0..5."""
    with pytest.raises(ExprError, match=re.escape(said) + ", not a condition"):
        parse(text, JUGS)
    assert to_text(parse("jug[0] == 3 or 1", JUGS)) == "jug[0] == 3 or 1"  # 1 is true


@pytest.mark.parametrize("text, said", [
    ("jug[0] if 2 else jug[1]", "'2' is a number"),  # chose jug[0] before
    ("jug[1] + (1 if n else 0)", "'n' (3) is a number"),
])
def test_a_constant_number_as_an_if_s_condition_is_no_condition(text, said):
    """A constant condition chooses the branch as the file is read: a number other than 0
    or 1 chose the first, read as true, where the model refuses a variable ``k`` in 0..5
    there; 0 and 1 still choose."""
    with pytest.raises(ExprError, match=re.escape(said) + ", not a condition"):
        parse(text, JUGS)
    assert to_text(parse("jug[0] if 1 else jug[1]", JUGS)) == "jug[0]"
    assert to_text(parse("jug[0] if 3 > 2 else jug[1]", JUGS)) == "jug[0]"
