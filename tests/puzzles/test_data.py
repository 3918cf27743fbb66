"""A top-level key written after a table header (TOML reads it as part of that table) is
refused with one message that names the key and says to move it: for every family's
top-level keys (its declared ``KEYS``), in every table where the key can land."""

from __future__ import annotations

import itertools
import json
import tomllib
from pathlib import Path

import pytest

from cpsolve.puzzles import FAMILIES
from cpsolve.puzzles.data import ModelFileError, utf8_text
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[2] / "models"


def value(v) -> str:
    """``v`` written as a TOML value (inline: lists and tables on one line)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return json.dumps(v)  # a JSON string is a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + " }"


def tables(table: dict) -> list[tuple[str, dict]]:
    """The tables a file's top level holds, as (header, table), in order."""
    out = []
    for key, v in table.items():
        if isinstance(v, dict):
            out.append((f"[{key}]", v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            out += [(f"[[{key}]]", x) for x in v]
    return out


def written(table: dict, moved: str) -> str:
    """``table`` as a model file, with the top-level key ``moved`` written after the last
    table header (so TOML reads it as part of that table)."""
    heads = tables(table)
    inline = {id(t) for _, t in heads}
    top = [f"{k} = {value(v)}" for k, v in table.items()
           if k != moved and not (isinstance(v, dict) and id(v) in inline)
           and not (isinstance(v, list) and v and all(id(x) in inline for x in v))]
    body = [f"{head}\n" + "\n".join(f"{json.dumps(k)} = {value(v)}" for k, v in t.items())
            for head, t in heads]
    return "\n".join(top + body) + f"\n{moved} = {value(table[moved])}\n"


def model(name: str, expected: bool) -> dict:
    """The table of a bundled model; without its ``[expected]`` table unless ``expected``."""
    table = tomllib.loads((MODELS / name).read_text(encoding="utf-8"))
    if not expected:
        table.pop("expected", None)
    return table


def cases() -> list:
    """Every top-level key of every bundled model, moved below its last table (its
    ``[expected]``, and without that its last own table); not when that table has a key of
    that name (TOML refuses the file) or when the table's rows are that key's own
    (``name`` after ``[[actions]]`` is the action's name)."""
    out = []
    for path, expected in itertools.product(sorted(MODELS.glob("*.toml")), (True, False)):
        table = model(path.name, expected)
        heads = tables(table)
        if not heads:
            continue
        header, last = heads[-1]
        keys = FAMILIES[table["family"]].keys
        assert set(table) - {"expected"} <= keys, path  # the declared keys are those used
        for key in sorted(set(table) - {t for t in table if isinstance(table[t], dict)}):
            if isinstance(table[key], list) and any(isinstance(x, dict) for x in table[key]):
                continue  # an array of tables: its own headers
            if key in last or (key == "name" and header in ("[[actions]]", "[[symmetries]]")):
                continue
            out.append(pytest.param(path.name, expected, key, header,
                                    id=f"{path.stem}-{header.strip('[]')}-{key}"))
    return out


@pytest.mark.parametrize("name, expected, key, header", cases())
def test_a_top_level_key_after_the_last_table_says_to_move_it(tmp_path, name, expected, key,
                                                               header):
    table = model(name, expected)
    path = tmp_path / name
    path.write_text(written(table, key), encoding="utf-8")
    with pytest.raises(ModelFileError) as info:
        load(path)
    plain = header.strip("[]")
    assert f"{key!r} is a top-level key, but it comes after the [" in info.value.message
    assert plain in info.value.message and "move it above" in info.value.message
    assert info.value.key.startswith(plain) and info.value.key.endswith(key)


TRANSITION = """family = "transition"
name = "two lamps"
goal = "x[0] == 1 and x[1] == 1"
{top}
[constants]
n = 2
{constants}
[variables]
x = {{ size = "n", domain = [0, 1] }}
{variables}
[initial]
x = 0
{initial}
[[actions]]
name = "light {{i}}"
[actions.params]
i = "range(n)"
{params}
[actions.effects]
"x[i]" = "1"
{effects}
[labels]
x = ["off", "on"]
{labels}
[expected]
steps = 2
{expected}
"""

TRANSITION_TABLES = ["constants", "variables", "initial", "params", "effects", "labels",
                     "expected"]


def transition(where: str, line: str) -> str:
    return TRANSITION.format(**{t: line if t == where else "" for t in
                                ["top", *TRANSITION_TABLES]})


def test_the_transition_file_reads_with_its_optional_keys_at_the_top(tmp_path):
    for line in ('forbid = ["x[0] == 1 and x[1] == 0"]', 'invariant = ["x[0] >= 0"]',
                 'show = "{x[0]} {x[1]}"', 'description = "lamps"'):
        path = tmp_path / "m.toml"
        path.write_text(transition("top", line), encoding="utf-8")
        load(path)


@pytest.mark.parametrize("where", TRANSITION_TABLES)
@pytest.mark.parametrize("line", [
    'forbid = ["x[0] == 1 and x[1] == 0"]',  # a list of conditions
    'invariant = ["x[0] >= 0"]',
    "forbid = []",
    'show = "{x[0]} {x[1]}"',  # a string
    'description = "lamps"',
])
def test_an_optional_top_level_key_in_any_table_says_to_move_it(tmp_path, where, line):
    key = line.split(" ")[0]
    path = tmp_path / "m.toml"
    path.write_text(transition(where, line), encoding="utf-8")
    with pytest.raises(ModelFileError) as info:
        load(path)
    header = {"params": "[actions.params]", "effects": "[actions.effects]"}.get(
        where, f"[{where}]")
    assert f"{key!r} is a top-level key, but it comes after the {header} header" \
        in info.value.message
    assert info.value.key.endswith(f"{where}.{key}")


CSP = """family = "csp"
{top}
[constants]
n = 3
{constants}
[variables]
a = [0, "n"]
b = [0, "n"]
{variables}
[labels]
a = ["w", "x", "y", "z"]
{labels}
[[symmetries]]
name = "swap"
[symmetries.variables]
a = "b"
b = "a"
{symmetry}
"""


@pytest.mark.parametrize("where", ["constants", "variables", "labels", "symmetry"])
@pytest.mark.parametrize("line", [
    'constraints = ["a + b == 3"]', 'all_different = [["a", "b"]]', 'clues = ["a"]',
    'minimize = "a + b"',
])
def test_a_csp_top_level_key_in_any_table_says_to_move_it(tmp_path, where, line):
    key = line.split(" ")[0]
    path = tmp_path / "m.toml"
    path.write_text(CSP.format(**{t: line if t == where else "" for t in
                                  ("top", "constants", "variables", "labels", "symmetry")}),
                    encoding="utf-8")
    with pytest.raises(ModelFileError) as info:
        load(path)
    assert f"{key!r} is a top-level key, but it comes after the [" in info.value.message
    assert "move it above the first [table] header" in info.value.message


def test_the_cli_says_it_in_one_line_and_exits_2(cli, write_model):
    result = cli("solve", write_model("m.toml", transition(
        "initial", 'forbid = ["x[0] == 1 and x[1] == 0"]')))
    assert result.code == 2 and len(result.err_lines) == 1, result
    assert result.err_lines[0].startswith("error: ")
    assert "initial.forbid: 'forbid' is a top-level key" in result.err_lines[0]


@pytest.mark.parametrize("raw, where", [
    ("# a 3\u00d73 board\n".encode("latin-1"), "line 1, column 6: byte 0xd7"),
    (b'\xef\xbb\xbfa = 1\nname = "\xc3\xa9\xd7"\n', "line 2, column 10: byte 0xd7"),  # mark, é
    (b"a\r\nb = '\xe9'", "line 2, column 6: byte 0xe9"),
])
def test_text_that_is_not_utf8_says_where(raw, where):
    with pytest.raises(ValueError) as err:
        utf8_text(raw)
    assert str(err.value) == f"not UTF-8 text ({where}): save it as UTF-8, the encoding " \
        "cpsolve reads"


def test_utf8_text_drops_the_byte_order_mark():
    assert utf8_text(b"\xef\xbb\xbfname = \"\xc3\x97\"") == "name = \"\u00d7\""


def test_items_refuses_an_item_of_another_type_naming_its_index():
    from cpsolve.puzzles.data import Data

    data = Data({"xs": [1, True], "ys": ["a", {"b": 1}], "zs": [1, 2]}, "m.toml")
    assert data.items("zs", int) == [1, 2] and data.items("no", int, [3]) == [3]
    with pytest.raises(ModelFileError, match=r"m\.toml: xs\[1\]: expected int, got bool True$"):
        data.items("xs", int)
    with pytest.raises(ModelFileError, match=r": ys\[1\]: expected str or int, got dict"):
        data.items("ys", (str, int))


LABELLED = """family = "transition"
goal = "x[1] == 1"
[variables]
x = {{ size = 2, domain = [0, 1] }}
[initial]
x = 0
[labels]
v = {labels}
[[actions]]
name = "set {{i}}"
params = {{ i = {params} }}
effects = {{ "x[i]" = "1" }}
"""

PEGS = 'family = "pegs"\npegs_left = 1\njumps = [[0, true]]\nboard = """\no o .\n"""\n'
TOUR = 'family = "tour"\nleaper = [true, 2]\nboard = """\n. . . .\n. . . .\n. . . .\n"""\n'
GRID = 'family = "grid"\nsize = 4\ngroups = ["rows", "columns", "boxes"]\nbox = [2, true]\n'
EXTRA = 'family = "grid"\nsize = 4\nextra = [[[0, 0], [1, false]]]\n'


@pytest.mark.parametrize("text, key", [
    (LABELLED.format(labels='[{a = 1}, [2]]', params="[1]"), "labels.v[0]"),
    (LABELLED.format(labels='["a", [2]]', params="[1]"), "labels.v[1]"),
    (LABELLED.format(labels='["a", "b"]', params="[[1, 0]]"), "actions[0].params.i[0]"),
    (LABELLED.format(labels='["a", "b"]', params="[true]"), "actions[0].params.i[0]"),
    (PEGS, "jumps[0][1]"),
    (TOUR, "leaper[0]"),
    (GRID, "box[1]"),
    (EXTRA, "extra[0][1][1]"),
])
def test_a_value_of_the_wrong_type_inside_a_list_is_refused_naming_key_and_index(
        write_model, text, key):
    """Labels that are tables or lists were shown as Python writes them in plans, nested
    params were flattened, and true was taken as 1 where expected.steps = true is not."""
    with pytest.raises(ModelFileError) as info:
        load(write_model("m.toml", text))
    assert info.value.key == key, str(info.value)
    assert "\n" not in str(info.value)


LONG = "Q" * 5000


@pytest.mark.parametrize("model, old, new, key", [
    ("water_jugs", 'family = "transition"', f'family = "{LONG}"', "family"),
    ("eight_puzzle", 'family = "sliding"', f'family = "sliding"\nmetric = "{LONG}"', "metric"),
    ("water_jugs", "steps = 10", f'steps = "{LONG}"', "expected.steps"),
    ("fifteen_korf1", '["13", "14", "15"]', f'["{LONG}"]', "estimate.patterns"),
    ("water_jugs", "[initial]", f"[initial]\n{LONG} = 1", "initial.'" + "Q" * 60 + "'..."),
])
def test_a_long_value_is_echoed_cut_to_60_characters(write_model, model, old, new, key):
    """Each came back whole (5,000 characters) in the one error line; expressions were
    already cut at 60."""
    text = (Path(__file__).resolve().parents[2] / "models" / f"{model}.toml").read_text()
    assert old in text
    with pytest.raises(ModelFileError) as info:
        load(write_model("m.toml", text.replace(old, new, 1)))
    assert info.value.key == key
    assert "Q" * 61 not in str(info.value) and "Q" * 60 + "'..." in str(info.value)
