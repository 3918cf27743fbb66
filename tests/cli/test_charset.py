"""A console that cannot encode every character (``PYTHONIOENCODING=ascii`` or ``latin-1``):
text degrades to ASCII stand-ins and escapes, never an internal error (exit 3); JSON stays
one exact document; a page sent to stdout is UTF-8 as it declares (docs/json.md)."""

from __future__ import annotations

import json
import os
import tomllib

import pytest

from cpsolve.cli.charset import HANDLER

ASCII = {"PYTHONIOENCODING": "ascii"}
LATIN1 = {"PYTHONIOENCODING": "latin-1"}
SOLVE = ("--engine", "search")
"""One engine: the text has no race lines to wrap or time."""


def test_common_symbols_have_ascii_stand_ins_and_the_rest_is_escaped():
    assert "a — b × c … d · e │ f ◀ g → h".encode("ascii", HANDLER) == \
        b"a - b x c ... d . e | f < g -> h"
    assert "caf\u00e9 \u250c \U0001f34e".encode("ascii", HANDLER) == \
        b"caf\\xe9 \\u250c \\U0001f34e"


def test_a_latin1_console_keeps_what_it_can_encode():
    assert "3×3 ◀".encode("latin-1", HANDLER) == "3×3 <".encode("latin-1")


@pytest.mark.parametrize("env", [ASCII, LATIN1], ids=["ascii", "latin-1"])
@pytest.mark.parametrize("argv", [
    ["solve", "examples/lights_out.toml", *SOLVE],  # × in the model's name
    ["solve", "examples/futoshiki5.toml", *SOLVE],  # ∧ ∨ between the cells of a column
    ["solve", "line_puzzle", *SOLVE],  # pieces drawn with box lines: │ ─ ┌ ┐ └ ┘
    ["count", "examples/lights_out.toml", "--optimal", *SOLVE],
])
def test_text_output_degrades_instead_of_failing(cli_subprocess, argv, env):
    done = cli_subprocess(*argv, env=env)
    assert (done.code, done.err) == (0, "")
    assert env is not ASCII or done.out.isascii()


def test_a_latin1_console_gets_what_latin1_can_write(cli_subprocess):
    done = cli_subprocess("solve", "examples/lights_out.toml", *SOLVE, env=LATIN1)
    raw = done.out.encode("utf-8", "surrogateescape")  # read back as the bytes written
    assert raw.decode("latin-1").startswith("Lights Out 3×3, all on  [search]")


def test_stand_ins_and_escapes_in_the_text(cli_subprocess):
    lights = cli_subprocess("solve", "examples/lights_out.toml", *SOLVE, env=ASCII)
    assert lights.out.startswith("Lights Out 3x3, all on  [search]")
    pieces = cli_subprocess("solve", "line_puzzle", *SOLVE, env=ASCII)
    start = pieces.out.splitlines()[3:6]  # the start board: "┘ │ └ / ─ _ ─ / ┐ │ ┌"
    assert [row.split()[:3] for row in start] == [
        ["\\u2518", "|", "\\u2514"], ["-", "_", "-"], ["\\u2510", "|", "\\u250c"]]


def test_an_error_line_degrades_too(cli_subprocess, tmp_path):
    done = cli_subprocess("solve", tmp_path / "no×such — é.toml", env=ASCII)
    assert done.code == 2
    assert done.err == f"error: {tmp_path}/noxsuch - \\xe9.toml: no such file\n"


@pytest.mark.parametrize("env", [ASCII, LATIN1], ids=["ascii", "latin-1"])
def test_json_is_exact_on_any_console(cli_subprocess, env):
    done = cli_subprocess("solve", "examples/lights_out.toml", *SOLVE, "--json", env=env)
    assert (done.code, done.err) == (0, "")
    assert done.out.isascii()  # \u00d7, read back as ×
    with open("examples/lights_out.toml", "rb") as model:
        assert json.loads(done.out)["model"] == tomllib.load(model)["name"]


def test_json_error_object_on_an_ascii_console(cli_subprocess, tmp_path):
    missing = tmp_path / "nonexist_é.toml"
    done = cli_subprocess("solve", missing, "--json", env=ASCII)
    assert done.code == 2
    assert json.loads(done.out) == {"command": "solve", "status": "error",
                                    "error": f"{missing}: no such file", "exit": 2}


def test_json_lines_of_a_batch_on_an_ascii_console(cli_subprocess, tmp_path):
    text = open("cpsolve/models/water_jugs.toml", encoding="utf-8").read()
    (tmp_path / "水.toml").write_text(text, encoding="utf-8")
    done = cli_subprocess("solve", tmp_path, *SOLVE, "--json", env=ASCII)
    assert (done.code, done.err) == (0, "")
    lines = [json.loads(line) for line in done.out.splitlines()]
    assert lines[0]["source"] == str(tmp_path / "水.toml")
    assert lines[1]["batch"]["instances"] == 1


@pytest.mark.parametrize("env", [ASCII, LATIN1], ids=["ascii", "latin-1"])
def test_a_page_on_stdout_is_utf8_whatever_the_console(cli_subprocess, env):
    done = cli_subprocess("show", "water_jugs", "--plan", "--html", "-", env=env)
    assert (done.code, done.err) == (0, "")
    assert 'charset="utf-8"' in done.out.lower() or "charset=utf-8" in done.out.lower()
    assert "\u25c0 back" in done.out  # the player's button, as the page's UTF-8


KRUG = """family = "transition"
name = "Krüge"
goal = "jug[0] == 3"
show = "Krug: {jug[0]} L"

[variables]
jug = { size = 1, domain = [0, 3] }

[initial]
jug = [0]

[[actions]]
name = "fülle den Krug"
effects = { "jug[0]" = "3" }
"""


def test_escaped_text_is_laid_out_as_wide_as_it_is_written(cli_subprocess, tmp_path):
    """``ü`` written as ``\\xfc`` takes four columns, not one: a plan's state column
    starts under its header on every row (it came three columns late after ``fülle``)."""
    path = tmp_path / "krug.toml"
    path.write_text(KRUG, encoding="utf-8")
    done = cli_subprocess("solve", path, *SOLVE, env=ASCII, width="80")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    head = next(line for line in lines if line.split()[:1] == ["step"])
    rows = [line for line in lines if "Krug: " in line]
    assert len(rows) == 2 and "\\xfc" in done.out
    assert {row.index("Krug: ") for row in rows} == {head.index("state")}


def test_a_batch_gives_a_file_name_the_columns_it_is_written_in(cli_subprocess, tmp_path):
    """The instance column is as wide as the longest name as written (``\\xfc``: four
    columns): ``krüge.toml`` is not folded, and both rows' engines line up."""
    for name in ("a.toml", "krüge.toml"):
        (tmp_path / name).write_text(KRUG, encoding="utf-8")
    done = cli_subprocess("solve", tmp_path, *SOLVE, env=ASCII, width="250")
    assert done.code == 0, done.err
    rows = [line for line in done.out.splitlines() if " search " in line]
    assert len(rows) == 2 and f"{tmp_path}/kr\\xfcge.toml " in rows[1]
    assert len({row.index(" search ") for row in rows}) == 1


def _bytes_name(tmp_path, name: bytes) -> str:
    """A folder under ``tmp_path`` holding the water jugs as ``name`` (not UTF-8); the
    folder's name, as Python holds it (a byte ``\\xff`` as ``\\udcff``)."""
    folder = tmp_path / "u2"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), name), "wb") as f:
        f.write(open("cpsolve/models/water_jugs.toml", "rb").read())
    return str(folder)


def test_a_file_name_that_is_not_utf8_is_escaped_in_json_and_text_alike(cli_subprocess,
                                                                        tmp_path):
    """docs/json.md: the JSON is UTF-8 text; the file name's byte 0xff is ``\\udcff`` in
    it (read back as the name Python holds), in the text rows and on stderr alike."""
    folder = _bytes_name(tmp_path, b"\xffbad.toml")
    done = cli_subprocess("solve", folder, *SOLVE, "--json")
    assert done.code == 0, done.err
    assert done.out.encode("utf-8")  # no raw byte, which the run reads back as \udcff
    assert json.loads(done.out.splitlines()[0])["source"] == f"{folder}/\udcffbad.toml"
    done = cli_subprocess("solve", folder, *SOLVE)
    assert f"{folder}/\\udcffbad.toml " in done.out
    missing = f"{folder}/\udcffnope.toml"
    done = cli_subprocess("solve", missing, "--json")
    assert done.code == 2 and done.out.encode("utf-8")
    assert json.loads(done.out)["error"] == f"{folder}/\\udcffnope.toml: no such file"
    assert done.err == f"error: {folder}/\\udcffnope.toml: no such file\n"
