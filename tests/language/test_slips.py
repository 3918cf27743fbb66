"""Hints for common slips in an expression: each message says what to write instead."""

from __future__ import annotations

import pytest

from cpsolve.language.parse import parse
from cpsolve.language.scope import constant_scope, variable_scope
from cpsolve.language.syntax import ExprError

SCOPE = {**constant_scope({"n": 2}),
         **variable_scope(["a", "b", "x[0][0]", "x[0][1]", "x[1][0]", "x[1][1]"])}


def message(text: str) -> str:
    with pytest.raises(ExprError) as info:
        parse(text, SCOPE)
    return str(info.value)


@pytest.mark.parametrize("text", ["a / 2 == 1", "b == a / n", "a / (b + 1) < 2"])
def test_division_says_to_use_floor_division(text):
    assert "use // (integer division)" in message(text)


@pytest.mark.parametrize("text", ["a = 1", "x[1][0] = b", "a == 1 and b = 2", "(a)=1"])
def test_one_equals_sign_asks_whether_two_were_meant(text):
    said = message(text)
    assert "syntax error" in said and "did you mean '=='?" in said


@pytest.mark.parametrize("text", ["a + = 1", "a <= = 1", "a == 1 =", "a ==", "a b"])
def test_other_syntax_errors_do_not_suggest_two_equals_signs(text):
    assert "'=='" not in message(text)


def test_a_two_dimensional_index_says_to_index_one_dimension_at_a_time():
    assert "write x[1][0]" in message("x[1, 0] == 1")
    assert "write x[n - 1][0]" in message("x[n - 1, 0] == a")


@pytest.mark.parametrize("text, parts", [
    ("(a, b) != (b, a)", "a != b or b != a"),
    ("(a, b) == (1, n)", "a == 1 and b == n"),
])
def test_compared_tuples_say_to_compare_each_part(text, parts):
    said = message(text)
    assert "tuples are not values in expressions" in said and parts in said


@pytest.mark.parametrize("text", ["(a, b) < (1, 2)", "a == (1, 2)", "(a, b)"])
def test_any_other_tuple_says_to_compare_each_part(text):
    said = message(text)
    assert "tuples are not values in expressions: compare each part" in said


@pytest.mark.parametrize("text", ["(a, a) != (x[0][0], x[0][1])", "(a, b) < (1, 2)",
                                  "(a, b)", "x[1, 0]", "(a,b)==(b,a)"])
def test_a_slip_in_the_whole_expression_quotes_it_once(text):
    """``in '(a, a) != (x[0], x[1])': '(a, a) != (x[0], x[1])': tuples are ...`` said the
    expression twice: a slip that is the whole expression is quoted by the ``in`` alone
    (however it was spaced)."""
    said = message(text)
    assert said.startswith(f"in {text!r}: ") and said.count("'") == 2, said


@pytest.mark.parametrize("text, part", [("a + (a, b) == 1", "(a, b)"),
                                        ("x[1, 0] == a", "x[1, 0]"),
                                        ("a == 1 or (a, b) != (b, a)", "(a, b) != (b, a)")])
def test_a_slip_in_a_part_names_the_part(text, part):
    said = message(text)
    assert said.startswith(f"in {text!r}: {part!r}: "), said


def test_the_right_forms_parse():
    for text in ("a // 2 == 1", "a == 1", "x[1][0] == 1", "a != b or b != a"):
        parse(text, SCOPE)
