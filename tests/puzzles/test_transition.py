"""The ``transition`` family: an action left without instances names its cause."""

from __future__ import annotations

import pytest

from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import load

LAMPS = """family = "transition"
goal = "x[0] == 1"
[variables]
x = {{ size = 2, domain = [0, 1] }}
[initial]
x = 0
[[actions]]
name = "light {{i}}"
params = {{ i = {values} }}
{where}
effects = {{ "x[i]" = "1" }}
"""


def refused(write_model, text: str) -> ModelFileError:
    with pytest.raises(ModelFileError) as info:
        load(write_model("m.toml", text))
    return info.value


@pytest.mark.parametrize("where", ['"i > 5"', '"i >= 0 and i < 0"', '"False"'])
def test_a_where_that_keeps_no_combination_is_named(write_model, where):
    # i takes 0 and 1: each of these conditions is false for both
    error = refused(write_model, LAMPS.format(values='"range(2)"', where=f"where = {where}"))
    assert error.key == "actions[0].where"
    assert "leaves no combination of the parameters" in error.message
    assert where.strip('"') in error.message


def test_a_where_that_keeps_one_combination_gives_one_action(write_model):
    text = LAMPS.format(values='"range(2)"', where='where = "i == 0"')
    puzzle = load(write_model("m.toml", text))
    assert [a.name for a in puzzle.model.actions] == ["light 0"]


@pytest.mark.parametrize("values", ['"range(0)"', "[]", '"range(3, 1)"'])
def test_a_parameter_without_values_is_named(write_model, values):
    error = refused(write_model, LAMPS.format(values=values, where=""))
    assert error.key == "actions[0].params.i" and "takes no values" in error.message


@pytest.mark.parametrize("second", ['params = { i = "range(0)" }',
                                    'params = { i = "range(2)" }\nwhere = "i > 5"'])
def test_an_empty_table_is_named_beside_one_with_actions(write_model, second):
    """Two tables, the first with its two lamps: a second that keeps nothing is a slip
    (a typo in its range or condition), refused rather than dropped: dropped, it could
    turn a solvable puzzle into a proven "infeasible"."""
    text = LAMPS.format(values='"range(2)"', where="") + f"""
[[actions]]
name = "dark {{i}}"
{second}
effects = {{ "x[i]" = "0" }}
"""
    error = refused(write_model, text)
    assert error.key.startswith("actions[1].") and "has no instance" in error.message
    assert "no action at all" not in error.message  # the first table has two


def test_the_cli_says_it_in_one_line_and_exits_2(cli, write_model):
    result = cli("solve", write_model("m.toml", LAMPS.format(values='"range(2)"',
                                                             where='where = "i > 5"')))
    assert result.code == 2 and len(result.err_lines) == 1, result
    assert "actions[0].where: 'i > 5' leaves no combination" in result.err_lines[0]


@pytest.mark.parametrize("target", ['" "', '""', '"x[0] + 1"'])
def test_an_effect_target_that_is_no_variable_says_so(write_model, target):
    """A blank target was parsed as an expression: 'syntax error in ''' under the key
    'actions[0].effects. '; it is no variable, like 'x[0] + 1'."""
    text = LAMPS.format(values='"range(2)"', where="").replace('"x[i]"', target)
    error = refused(write_model, text)
    name = target.strip('"')
    key = target if name.strip() != name or not name else name
    assert error.key == f"actions[0].effects.{key}"
    assert error.message == f"{name!r} is not a variable"


@pytest.mark.parametrize("table, line, key", [
    ("variables", '" " = [0, 1]', 'variables." "'),
    ("initial", '" " = 1', 'initial." "'),
    ("constants", '" " = 1', 'constants." "'),
])
def test_a_blank_key_is_quoted_in_the_key_path(write_model, table, line, key):
    text = LAMPS.format(values='"range(2)"', where="")
    if table == "constants":
        text = text.replace("[variables]", "[constants]\n" + line + "\n[variables]")
    else:
        text = text.replace(f"[{table}]\n", f"[{table}]\n{line}\n")
    assert refused(write_model, text).key == key


STEPS = """family = "transition"
goal = "x[0] == 3"
[variables]
x = {{ size = 1, domain = [0, 3] }}
k = {{ size = 1, domain = [0, 3] }}
[initial]
x = 0
k = 2
[[actions]]
name = "step"
guard = "x[0] < 3"
{part}
"""


@pytest.mark.parametrize("part, key", [
    ('effects = { "x[0]" = "x[0] + 1 if k[0] else x[0]" }', "actions[0].effects.x[0]"),
    ('effects = { "x[0]" = "ite(k[0], x[0] + 1, x[0])" }', "actions[0].effects.x[0]"),
    ('effects = { "x[0]" = { value = "x[0] + 1", when = "k[0]" } }',
     "actions[0].effects.x[0].when"),
    ('effects = { "x[0]" = "x[0] + 1" }\ncost = "1 if k[0] else 2"', "actions[0].cost"),
])
def test_an_if_whose_condition_is_a_number_is_refused(write_model, part, key):
    """``a if k else b`` with ``k`` in 0..3 read ``k`` as true when non-zero, where a number
    standing as a condition is refused everywhere else (``x == 3 or k``): in an effect, its
    ``when`` and a cost too, in the file's words."""
    error = refused(write_model, STEPS.format(part=part))
    assert error.key == key
    assert error.message == ("'k[0]' is a number, not a condition: compare it (==, !=, <, "
                             "...) or combine conditions (and, or, not)")


def test_an_if_on_a_comparison_stands(write_model):
    text = STEPS.format(part='effects = { "x[0]" = "x[0] + 1 if k[0] == 2 else x[0]" }\n'
                             'cost = "ite(k[0] > 1, 1, 2)"')
    assert [a.name for a in load(write_model("m.toml", text)).model.actions] == ["step"]


COUNTER = """family = "transition"
goal = "x == 3"
{rule}
[variables]
x = [0, 3]
y = [0, 3]
[initial]
x = 0
y = 2
[[actions]]
name = "inc"
effects = {{ x = "x + 1" }}
"""


@pytest.mark.parametrize("rule, key, said", [
    # an invariant is what must hold: x = 0 breaks x >= 1, nothing "forbids" by it
    ('invariant = ["x >= 1"]', "invariant[0]",
     "the initial state breaks the invariant 'x >= 1' (x = 0)"),
    # the values of the variables it reads, in the variables' order
    ('invariant = ["y + x != 2"]', "invariant[0]",
     "the initial state breaks the invariant 'y + x != 2' (x = 0, y = 2)"),
    # a forbid entry does forbid the initial state
    ('forbid = ["x == 0"]', "forbid[0]", "the initial state is forbidden by 'x == 0'"),
])
def test_an_initial_state_an_invariant_or_forbid_refuses_is_said_as_each_means(
        write_model, rule, key, said):
    """An invariant the initial state broke was said "the initial state is forbidden by
    'x >= 1'", the words of a ``forbid`` entry, as if ``x >= 1`` were what is forbidden."""
    error = refused(write_model, COUNTER.format(rule=rule))
    assert (error.key, error.message) == (key, said)


STEPPER = """family = "transition"
goal = "x == 3"
[variables]
x = [0, 3]
[initial]
x = 0
[[actions]]
name = "{name}"
params = {params}
effects = {{ x = "x + k" }}
"""


@pytest.mark.parametrize("name, params, said", [
    # declared once: its two expansions, k = 1 and k = 2, both are named 'step'
    ("step", '{ k = "range(1, 3)" }',
     "'step' gives every k the same name (k = 1 and k = 2 both give 'step'): put {k} in "
     "the name"),
    # {j} is there, {k} is not: the first two combinations j = 0, k = 1 and j = 0, k = 2
    ("step {j}", '{ j = "range(2)", k = "range(1, 3)" }',
     "'step {j}' gives every k the same name (k = 1 and k = 2 both give 'step 0'): put {k} "
     "in the name"),
    # both are there, run together: k = 1, j = 12 and k = 11, j = 2 both make 'step 112'
    ("step {k}{j}", '{ k = [1, 11], j = [12, 2] }',
     "'step {k}{j}' gives two actions the same name (k = 1, j = 12 and k = 11, j = 2 both "
     "give 'step 112'): each expanded name must differ"),
])
def test_expansions_of_one_action_that_share_a_name_say_so(write_model, name, params, said):
    """An action declared once whose expansions get the same name was refused as
    "action 'step' is declared twice"."""
    error = refused(write_model, STEPPER.format(name=name, params=params))
    assert (error.key, error.message) == ("actions[0].name", said)


def test_two_tables_of_one_name_are_declared_twice(write_model):
    text = STEPPER.format(name="step {k}", params='{ k = [1] }') + \
        '[[actions]]\nname = "step 1"\neffects = { x = "x + 2" }\n'
    error = refused(write_model, text)
    assert (error.key, error.message) == ("actions[1].name", "action 'step 1' is declared twice")
