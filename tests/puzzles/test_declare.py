"""Declarations shared by ``transition`` and ``csp``: a ``show`` template with an unclosed
brace is refused; a goal or constraint written with ``=`` says to write ``==``."""

from __future__ import annotations

import pytest

from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import load

TRANSITION = """family = "transition"
goal = "{goal}"
show = "{show}"
[variables]
x = {{ size = 2, domain = [0, 1] }}
[initial]
x = 0
[[actions]]
name = "light {{i}}"
params = {{ i = "range(2)" }}
effects = {{ "x[i]" = "1" }}
"""

CSP = """family = "csp"
constraints = ["{constraint}"]
show = "{show}"
[variables]
a = [0, 3]
"""


def refused(write_model, text: str) -> ModelFileError:
    with pytest.raises(ModelFileError) as info:
        load(write_model("m.toml", text))
    return info.value


@pytest.mark.parametrize("show", ["{x", "x = {x[0]", "{x[0]} and {x[1] + 1", "{x[0]} {"])
def test_a_brace_that_nothing_closes_is_refused(write_model, show):
    for text in (TRANSITION.format(goal="x[0] == 1", show=show),
                 CSP.format(constraint="a == 1", show=show.replace("x[0]", "a"))):
        error = refused(write_model, text)
        assert error.key == "show" and "no '}' closes" in error.message


def test_a_closed_template_is_drawn(write_model):
    puzzle = load(write_model("m.toml", TRANSITION.format(goal="x[0] == 1",
                                                          show="{x[0]}-{x[1]}")))
    assert puzzle.render_state((1, 0)) == "1-0"


def test_a_tab_is_drawn_as_the_spaces_to_the_next_multiple_of_8(write_model):
    """A tab left raw was shown as ``\\t`` and measured as no width: a board cut short."""
    transition = TRANSITION.format(goal="x[0] == 1", show="{x[0]}\\t{x[1]}\\nab\\t\\t{x[0]}\\t")
    assert load(write_model("t.toml", transition)).render_state((1, 0)) == \
        "1" + " " * 7 + "0\n" + "ab" + " " * 14 + "1" + " " * 7
    csp = CSP.format(constraint="a == 1", show="a\\t{a}")
    assert load(write_model("c.toml", csp)).render_solution({"a": 1}) == "a" + " " * 7 + "1"


def test_the_cli_refuses_an_unclosed_brace_in_one_line(cli, write_model):
    result = cli("solve", write_model("m.toml", TRANSITION.format(goal="x[0] == 1", show="{x")))
    assert result.code == 2 and len(result.err_lines) == 1, result
    assert "show:" in result.err_lines[0]


@pytest.mark.parametrize("goal", ["x[0] = 1", "x[1] == 0 and x[0] = 1"])
def test_a_goal_written_with_one_equals_sign_says_to_write_two(write_model, goal):
    error = refused(write_model, TRANSITION.format(goal=goal, show=""))
    assert error.key == "goal" and "did you mean '=='?" in error.message


def test_a_constraint_written_with_one_equals_sign_says_to_write_two(write_model):
    error = refused(write_model, CSP.format(constraint="a = 1", show=""))
    assert error.key == "constraints[0]" and "did you mean '=='?" in error.message


JUGS = """family = "transition"
goal = "j[0] == 6"
show = "{j}"
[variables]
j = { domain = [0, [12, 8, 5]] }
[initial]
j = [12, 0, 0]
[[actions]]
name = "empty {a}"
params = { a = "range(3)" }
effects = { "j[a]" = "0" }
"""


def test_an_array_is_padded_to_its_domains_widest_value_so_states_line_up(write_model):
    """j[0] can hold 12: every item of every state takes two characters, not only the
    states where a jug holds 10 or more."""
    puzzle = load(write_model("j.toml", JUGS))
    assert puzzle.render_state((12, 0, 0)) == "12  0  0"
    assert puzzle.render_state((4, 8, 0)) == " 4  8  0"


def test_labels_are_padded_to_the_widest_label_of_the_domain(write_model):
    """Labels "no"/"yes": every item takes three characters, whichever value it holds."""
    text = (TRANSITION.format(goal="x[0] == 1", show="{x}")
            + '[labels]\nx = ["no", "yes"]\n')
    puzzle = load(write_model("l.toml", text))
    assert puzzle.render_state((0, 0)) == " no  no"
    assert puzzle.render_state((1, 0)) == "yes  no"


VARIABLES = {
    "transition": """family = "transition"
goal = "x == 3"
[constants]
n = 6
[variables]
x = {spec}
[initial]
x = 0
[[actions]]
name = "up"
guard = "x < 6"
effects = {{ x = "x + 1" }}
""",
    "csp": """family = "csp"
constraints = ["x == 3"]
[constants]
n = 6
[variables]
x = {spec}
""",
}


@pytest.mark.parametrize("family", list(VARIABLES))
@pytest.mark.parametrize("spec, key, scalar", [
    ("{ domain = [0, 6] }", "variables.x.size", "x = [0, 6]"),
    ('{ domain = [0, "n"] }', "variables.x.size", 'x = [0, "n"]'),
    ("{ size = 3 }", "variables.x.domain", "x = [lo, hi]"),
    ("{}", "variables.x.domain", "x = [lo, hi]"),
])
def test_a_table_without_an_arrays_keys_says_how_a_scalar_is_written(write_model, family,
                                                                       spec, key, scalar):
    # a table declares an array; written for a scalar's domain it lacked "size" and the
    # error said only "missing"
    error = refused(write_model, VARIABLES[family].format(spec=spec))
    assert error.key == key
    assert "a table declares an array, {size = n, domain = [lo, hi]}" in error.message
    assert error.message.endswith(f"a scalar variable is written {scalar}")


@pytest.mark.parametrize("family", list(VARIABLES))
def test_the_scalar_the_error_proposes_is_read(write_model, family):
    puzzle = load(write_model("m.toml", VARIABLES[family].format(spec="[0, 6]")))
    assert puzzle.model.domain("x") == (0, 6)
