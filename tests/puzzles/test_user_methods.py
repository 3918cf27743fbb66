"""A Python model's own puzzle methods that raise: the model file's error, not cpsolve's."""

import json

import pytest
from test_language import one_error_line

MODEL = '''
from cpsolve import Csp
from cpsolve.puzzles.base import Puzzle


class P(Puzzle):
    def render_solution(self, solution):
        return {render}

    def read_solution(self, written):
        if not isinstance(written, str):
            raise ValueError("give the drawing")
        return {read}


def build():
    csp = Csp("one var")
    csp.add_array("x", 1, 0, 1)
    return P(csp.name, "python", csp, "d", "a")
'''
FINE = '"X" * (solution["x[0]"] + 1)'


@pytest.mark.parametrize("render", ['solution["nope"]', "1 / 0", "undefined"])
def test_a_drawing_that_raises_names_its_line(write_model, cli, render):
    path = write_model("m.py", MODEL.format(render=render, read="{}"))
    run = cli("solve", str(path), "--engine", "search")
    one_error_line(run, f"{path}:8: render_solution() raised ")
    assert "internal error" not in run.err


def test_json_does_not_draw(write_model, cli):
    """``--json`` carries the assignment; the drawing is not called, so nothing fails."""
    path = write_model("m.py", MODEL.format(render="1 / 0", read="{}"))
    run = cli("solve", str(path), "--engine", "search", "--json")
    assert run.code == 0 and json.loads(run.out)["solution"] in ({"x[0]": 0}, {"x[0]": 1})


def test_a_reader_that_raises_names_its_line_and_its_value_error_is_an_answer(
        write_model, cli, tmp_path):
    path = write_model("m.py", MODEL.format(render=FINE,
                                            read='{"x[0]": written.count("X") - 1 + nope}'))
    drawing = tmp_path / "a.txt"
    drawing.write_text("XX\n", encoding="utf-8")
    one_error_line(cli("validate", str(path), str(drawing)),
                   f"{path}:13: read_solution() raised NameError")
    assignment = tmp_path / "a.json"
    assignment.write_text('{"x[0]": 1}', encoding="utf-8")
    run = cli("validate", str(path), str(assignment))  # its ValueError: cannot be read
    one_error_line(run, "give the drawing")
    assert "raised" not in run.err
