"""A grid collection's ``instances_file``: every bad name is one clear line and exit 2."""

from __future__ import annotations

import json

import pytest

from cpsolve.puzzles import collection
from cpsolve.puzzles.data import ModelFileError
from cpsolve.puzzles.files import load_many

GRID4 = ('family = "grid"\nname = "g"\nsize = 4\ngroups = ["rows", "columns", "boxes"]\n'
         'box = [2, 2]\n')
LINE = "4...........2...\n"


def with_file(name: str) -> str:
    """A 4x4 grid model whose ``instances_file`` is ``name`` (escaped as TOML)."""
    return GRID4 + f"instances_file = {json.dumps(name)}\n"


@pytest.mark.parametrize("name, says", [
    ("a\u0000b", "NUL character"),
    ("", "the name is empty"),
    ("  ", "the name is empty"),
    (".", "is a directory"),
    ("sub", "is a directory"),
    ("nope.txt", "no such file"),
])
def test_a_bad_instances_file_names_the_key_and_what_it_is(tmp_path, write_model, name, says):
    (tmp_path / "sub").mkdir()
    path = write_model("c.toml", with_file(name))
    with pytest.raises(ModelFileError) as err:
        list(load_many(path))
    assert err.value.key == "instances_file"
    assert says in str(err.value)
    assert "no such file" not in str(err.value) or says == "no such file"


def test_an_instances_file_over_the_limit_is_refused_naming_the_limit(write_model,
                                                                       monkeypatch):
    monkeypatch.setattr(collection, "MAX_COLLECTION_BYTES", 10 * len(LINE))
    write_model("l.txt", LINE * 11)
    with pytest.raises(ModelFileError) as err:
        list(load_many(write_model("c.toml", with_file("l.txt"))))
    assert "l.txt" in str(err.value) and f"limited to {10 * len(LINE)}" in str(err.value)
    write_model("l.txt", LINE * 10)  # at the limit: read
    assert len(list(load_many(write_model("c.toml", with_file("l.txt"))))) == 10


def test_the_collection_limit_holds_the_most_puzzles_of_a_9x9_collection():
    """A 9x9 line is 81 symbols and a newline: the byte limit must not cut a collection
    short of :data:`MAX_INSTANCES`."""
    assert collection.MAX_COLLECTION_BYTES >= 82 * collection.MAX_INSTANCES


def test_a_batch_goes_on_past_a_nul_in_instances_file(cli, write_model):
    bad = write_model("bad.toml", with_file("a\u0000b"))
    write_model("l.txt", LINE)
    good = write_model("good.toml", with_file("l.txt"))
    run = cli("solve", bad, good, "--engine", "search", "--json")
    rows = [json.loads(line) for line in run.out.splitlines()]
    assert run.code == 2
    assert "instances_file" in rows[0]["error"] and "NUL" in rows[0]["error"]
    assert rows[1]["status"] == "solved"
    assert len(run.err.strip().splitlines()) == 1
