"""``and``/``or``, ``all``/``any`` and ``a if c else b`` are read as Python reads them: an
operand made of constants alone that decides ends the reading, so what comes after it may
index out of range; an operand over variables decides nothing while parsing."""

from __future__ import annotations

import itertools

import pytest

from cpsolve.engines import Options, run
from cpsolve.language.expr import Const, Nary, Var
from cpsolve.language.interpret import evaluate
from cpsolve.language.parse import constant_list, parse
from cpsolve.language.scope import constant_scope, variable_scope
from cpsolve.language.syntax import ExprError
from cpsolve.language.walk import same, variables
from cpsolve.puzzles.files import load

X = {**variable_scope(["x[0]", "x[1]"]), **constant_scope({"c": [1, 0, 2]})}
x0 = Var("x[0]")


@pytest.mark.parametrize("text, value", [
    ("False and x[99] == 1", 0),
    ("True or x[99] == 1", 1),
    ("1 > 2 and x[99] == 1", 0),                  # a comparison of constants decides too
    ("not (1 > 2) or x[99] == 1", 1),
    ("(False and x[99] == 1) or (True or x[98] == 1)", 1),
    ("all(c[i] > 0 for i in range(9))", 0),       # c[1] == 0 ends it before c[3]
    ("any(c[i] == 0 for i in range(9))", 1),
    ("0 <= -1 < x[99]", 0),                       # a chain is a conjunction too
    ("(x[99] if 1 > 2 else 1) == 1", 1),
])
def test_an_operand_of_constants_that_decides_ends_the_reading(text, value):
    e = parse(text, X)
    assert not variables(e) and evaluate(e, {}) == value


def test_false_and_and_true_or_are_read_as_their_constant():
    assert same(parse("False and x[99] == 1", X), Const(0))
    assert same(parse("True or x[99] == 1", X), Const(1))


def test_all_and_any_keep_the_elements_before_the_deciding_one():
    # c = [1, 0, 2]: all(...) reads c[0] > 0 (true, kept), then c[1] > 0, false: the end
    e = parse("all(c[i] > 0 for i in range(9))", X)
    assert isinstance(e, Nary) and e.op == "and" and same(e.args[-1], Const(0))
    assert len(e.args) == 2
    e = parse("any(c[i] == 2 or x[0] == i for i in range(9))", X)
    # i = 0: x[0] == 0 (c[0] == 2 is false, kept); i = 1: x[0] == 1; i = 2: c[2] == 2 decides
    assert isinstance(e, Nary) and e.op == "or" and len(e.args) == 3
    assert same(e.args[-1], Const(1))


def test_operands_over_variables_are_all_kept():
    e = parse("x[0] == 1 and False and x[99] == 1", X)
    assert same(e, Nary("and", (x0 == 1, Const(0))))
    e = parse("x[0] == 1 or x[1] == 0", X)
    assert same(e, Nary("or", (x0 == 1, Var("x[1]") == 0)))


@pytest.mark.parametrize("text", [
    "x[0] == 1 and x[99] == 1",      # x[0] decides nothing while parsing: x[99] is read
    "x[0] == 1 or x[99] == 1",
    "all(x[i] == 1 for i in range(3))",
    "True and x[99] == 1",           # a constant that does not decide
    "False or x[99] == 1",
])
def test_an_index_read_after_an_undecided_operand_is_still_out_of_range(text):
    with pytest.raises(ExprError, match="index (99|2) out of range for 'x' \\(size 2\\)"):
        parse(text, X)


def test_constants_and_filters_short_circuit_alike():
    assert same(constant_list("(3 > 4 and c[9] == 1) + 1", X), Const(1))  # type: ignore[arg-type]
    values = constant_list("[i for i in range(5) if i > 2 or c[i] > 0]", X)
    assert [v.value for v in values] == [0, 2, 3, 4]  # type: ignore[union-attr]


# ------------------------------------------------------------ Langford L(2,4)

LANGFORD = """family = "csp"
name = "Langford L(2,4)"
constraints = [
    "all(sum(s[i] == v for i in range(8)) == 2 for v in range(1, 5))",
    "all({partner} for i in range(8) for v in range(1, 5))",
]
[variables]
s = {{ size = 8, domain = [1, 4] }}
"""
PARTNER_OR = ("s[i] != v or (i + v + 1 < 8 and s[i + v + 1] == v) "
              "or (i - v - 1 >= 0 and s[i - v - 1] == v)")
PARTNER_IF = ("s[i] != v or ((s[i + v + 1] == v) if i + v + 1 < 8 else False) "
              "or ((s[i - v - 1] == v) if i - v - 1 >= 0 else False)")


def langford_sequences() -> set[tuple[int, ...]]:
    """Every arrangement of 1 1 2 2 3 3 4 4 whose two v's have v numbers between them."""
    out = set()
    for seq in set(itertools.permutations([1, 1, 2, 2, 3, 3, 4, 4])):
        where = {v: [i for i, s in enumerate(seq) if s == v] for v in range(1, 5)}
        if all(q - p == v + 1 for v, (p, q) in where.items()):
            out.add(seq)
    return out


def test_langford_by_brute_force_has_two_sequences_one_up_to_reversal():
    found = langford_sequences()
    assert len(found) == 2
    first = next(iter(found))
    assert found == {first, first[::-1]}


@pytest.mark.parametrize("partner", [PARTNER_OR, PARTNER_IF])
@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_langford_guarded_by_and_counts_as_brute_force_does(write_model, partner, engine):
    puzzle = load(write_model("langford.toml", LANGFORD.format(partner=partner)))
    result = run(engine, "count", puzzle.model, Options(time_limit=60, keep=True))
    assert result.count == len(langford_sequences()) == 2
    seqs = {tuple(sol[f"s[{i}]"] for i in range(8)) for sol in result.solutions}
    assert seqs == langford_sequences()


def test_planning_guards_effects_goals_and_constants_short_circuit(write_model):
    # every index below past the deciding operand is out of range: x has 3 cells, w none
    text = """family = "transition"
goal = "all(x[i] == 1 for i in range(3)) and (m < 0 or x[9] == 0)"
[constants]
m = "(3 > 4 and w[9] == 1) - 1"
[variables]
x = { size = 3, domain = [0, 1] }
[initial]
x = 0
[[actions]]
name = "set {i}"
params = { i = "range(3)" }
guard = "x[i] == 0 and (i == 0 or x[i - 1] == 1) and (i + 1 >= 3 or x[i + 1] == 0)"
[actions.effects]
"x[i]" = "1 if i < 3 or x[i + 5] == 0 else 0"
"""
    puzzle = load(write_model("p.toml", text))
    for engine in ("search", "cpsat"):  # set x[0], x[1], x[2] in turn: one cell a step
        result = run(engine, "solve", puzzle.model, Options(time_limit=60))
        assert result.verified and result.steps == 3, (engine, result)
