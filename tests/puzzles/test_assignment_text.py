"""An assignment drawn without a template: an array on a line, scalars ``name = value``,
and read back (``cpsolve validate``)."""

from __future__ import annotations

import pytest

from cpsolve.puzzles.assignment_text import assignment_text, inside_panel, read_assignment_text

X = [f"x[{i}]" for i in range(20)]


def test_an_array_is_one_line_and_scalars_share_one():
    values = {**{n: str(i % 10) for i, n in enumerate(X)}, "y": "0", "z": "7"}
    text = assignment_text([*X, "y", "z"], values)
    assert text.splitlines() == [
        "x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]",
        "y = 0  z = 7",
    ]


def test_a_long_array_wraps_under_its_first_value():
    names = [f"x[{i}]" for i in range(30)]
    text = assignment_text(names, {n: "100" for n in names}, width=40)
    lines = text.splitlines()
    # "x = [" is 5 wide, each "100," 4 and a space: 7 values fit in 40 columns
    assert lines[0] == "x = [" + ", ".join(["100"] * 7) + ","
    assert all(line.startswith(" " * 5 + "100") for line in lines[1:])
    assert all(len(line) <= 40 for line in lines) and lines[-1].endswith("100]")
    assert text.count("100") == 30


def test_a_2d_array_is_one_line_per_row_with_labels():
    names = [f"g[{r}][{c}]" for r in range(2) for c in range(3)]
    shown = dict(zip(names, [".", "Q", ".", "Q", ".", "."]))
    assert assignment_text(names, shown) == "g[0] = [., Q, .]\ng[1] = [Q, ., .]"


def test_a_partly_assigned_array_names_its_cells():
    # a puzzle's givens: x = [...] would hide which cells are not given
    assert assignment_text(X[:3], {"x[0]": "4", "x[2]": "1"}) == "x[0] = 4  x[2] = 1"


def test_read_back_what_was_written_and_the_old_pairs():
    names = [*X, "y", "g[0][0]", "g[0][1]"]
    values = {n: str(i) for i, n in enumerate(names)}
    assert read_assignment_text(assignment_text(names, values, width=30)) == values
    assert read_assignment_text("x[0]=1  y=c") == {"x[0]": "1", "y": "c"}


@pytest.mark.parametrize("text", ["x = [1, 2] oops", "x = [1, , 2]", "x = [1, 2]\nx[1] = 3"])
def test_unreadable_text_says_why(text):
    with pytest.raises(ValueError):
        read_assignment_text(text)


@pytest.mark.parametrize("top, side, bottom", [
    ("\u256d\u2500\u2500 solution \u2500\u2500\u256e", "\u2502",
     "\u2570" + "\u2500" * 14 + "\u256f"),
    ("+-- solution --+", "|", "+" + "-" * 14 + "+"),  # a console that cannot write box lines
], ids=["box lines", "ascii"])
def test_the_inside_of_the_solution_panel_in_either_frame(top, side, bottom):
    text = "\n".join(["Title  [cpsat]  solved", "+-- another --+", f"{side} x = 9      {side}",
                      bottom, top, f"{side} x = 1 | y  {side}", f"{side} ---+----   {side}",
                      bottom, "The solution is unique."])
    assert inside_panel(text) == " x = 1 | y  \n ---+----   "


def test_a_drawing_of_plus_and_minus_outside_any_panel_is_not_a_frame():
    text = "+---+\nab\n+---+"
    assert inside_panel(text) == text
