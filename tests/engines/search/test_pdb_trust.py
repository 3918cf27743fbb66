"""Cached pattern tables are verified before they are trusted (:mod:`.pdb_loaded`,
:mod:`.pdb_partial`): a file edited or damaged since it was written, one whose goal entry
is not 0, or an earlier version's file without a digest is ignored with one line, and the
table is built again — an edited table of large entries must not become a false bound."""

from __future__ import annotations

import numpy as np
import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.runtime.stop import Stop
from cpsolve.engines.search.common import Budget
from cpsolve.engines.search.compile import compile_planning
from cpsolve.engines.search.planning import pdb, pdb_loaded, pdb_store
from cpsolve.puzzles.data import Data
from cpsolve.puzzles.sliding import build

START = "8 6 7\n2 5 4\n3 _ 1"  # 31 moves from the goal (the model file eight_puzzle.toml)
GOAL = "1 2 3\n4 5 6\n7 8 _"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CPSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    pdb_loaded._loaded.clear()
    return tmp_path / "cache"


def eight():
    puzzle = build(Data({"family": "sliding", "start": START, "goal": GOAL,
                         "estimate": {"patterns": [["1", "2", "3", "4"], ["5", "6", "7", "8"]]}},
                        "test.toml"))
    return puzzle, compile_planning(puzzle.model)


class Lines(Budget):
    """A budget that keeps the progress lines; with ``stop_at``, it runs out once a build
    reports that distance."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.lines: list[str] = []
        self.stop_at = stop_at
        super().__init__(progress=self.lines.append)

    def exceeded(self, seen, status=None, *args) -> bool:
        if self.stop_at is not None and any(f"distance {self.stop_at}," in x
                                            for x in self.lines):
            return self.halt(Stop.STATES, "test limit reached")
        return False


def key_of(task, number: int) -> str:
    good = pdb.pattern_set(task)
    return pdb.model_key(task, good.abstractions[number])


def rewrite(path, **arrays) -> None:
    data = dict(np.load(path))
    data.update(arrays)
    with open(path, "wb") as f:
        np.savez(f, **data)


def damage(how: str, key: str, table: np.ndarray) -> None:
    path = pdb_store.table_path(key)
    if how == "raised":  # every entry 255, the digest left as it was
        rewrite(path, table=np.full_like(table, 255))
    elif how == "raised, digest redone":  # digest matches, but the goal entry is not 0
        raised = np.full_like(table, 200)
        rewrite(path, table=raised, sha256=np.array(pdb_loaded.digest(key, raised)))
    elif how == "one entry up":
        up = table.copy()
        up[int(np.flatnonzero(table == 5)[0])] = 6
        rewrite(path, table=up)
    elif how == "foreign":
        rewrite(path, key=np.array("0" * 32))
    elif how == "garbage":
        path.write_bytes(b"not a table")
    else:  # an earlier version's file: a bare .npy, no digest
        path.unlink()
        np.save(pdb_store.legacy_path(key), np.full_like(table, 255))


WHY = {"raised": "checksum does not match", "raised, digest redone": "goal entry is 200",
       "one entry up": "checksum does not match", "foreign": "another table",
       "garbage": "unreadable", "legacy": "without a checksum"}


@pytest.mark.parametrize("how", list(WHY))
def test_an_unverified_table_file_is_ignored_with_one_line_and_built_again(own_cache, how):
    _, task = eight()
    good = pdb.pattern_set(task)
    key = pdb.model_key(task, good.abstractions[0])
    damage(how, key, np.frombuffer(good.tables[0], np.uint8))
    watch = Lines()
    again = pdb.pattern_set(task, watch)
    assert again.cached == [False, True] and not again.partial
    assert len(again.notes) == 1 and "\n" not in again.notes[0]
    assert again.notes[0].startswith("cached file of table 1 ignored: ")
    assert WHY[how] in again.notes[0]
    assert again.notes[0] in watch.lines and again.notes[0] in again.describe()
    assert again.tables == good.tables
    assert not pdb_store.legacy_path(key).exists()  # replaced by the checked file
    assert pdb.pattern_set(task).cached == [True, True]  # the rebuilt file is trusted


def test_a_solve_never_proves_from_a_table_edited_upwards(own_cache):
    """Without the check, a table of 255s made IDA* prove a bound far above the optimum
    (the 15-puzzle's Korf #1: "no plan has fewer than 277 steps"; its optimum is 57)."""
    puzzle, task = eight()
    good = pdb.pattern_set(task)
    for number, table in enumerate(good.tables):
        damage("raised", pdb.model_key(task, good.abstractions[number]),
               np.frombuffer(table, np.uint8))
    pdb_loaded._loaded.clear()
    result = run("search", "solve", puzzle.model, Options(algorithm="idastar"))
    assert result.status is Status.OPTIMAL and result.steps == 31
    assert "cached file of table 1 ignored" in str(result.details)


@pytest.mark.parametrize("what", ["table", "layer"])
def test_an_edited_partial_build_is_ignored(own_cache, what):
    _, task = eight()
    key = key_of(task, 0)
    for path in own_cache.glob("pdb-*"):
        path.unlink()
    assert pdb.pattern_set(task, Lines(stop_at=6)).partial
    path = pdb_store.partial_path(key)
    data = dict(np.load(path))
    if what == "table":  # an entry raised, still within the distance reached
        table = data["table"].copy()
        table[int(np.flatnonzero(table == 3)[0])] = 6
        rewrite(path, table=table)
    else:  # a code dropped from a layer (still sorted)
        rewrite(path, layer0=data["layer0"][1:])
    watch = Lines()
    again = pdb.pattern_set(task, watch)
    assert not again.partial and again.cached == [False, False]
    assert len(again.notes) == 1
    assert again.notes[0].startswith("saved partial build of table 1 ignored: its checksum")
