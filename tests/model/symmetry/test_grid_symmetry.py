"""Board symmetries and canonical forms, checked by brute force on small boards.

Brute force here means applying every group element (board symmetry ×
renaming) explicitly in plain Python and collecting orbits, which shares no
code with the canonical forms under test.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsolve.engines import Options, run
from cpsolve.model.symmetry.canonical import (
    canonical_grids,
    canonical_puzzle,
    problems,
    relabel_normal,
    transform,
)
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids.counting import board
from cpsolve.workflows.grids.generator import Generator

MODELS = Path(__file__).resolve().parents[3] / "models"
ALL8 = {"identity", "quarter turn clockwise", "half turn", "quarter turn anticlockwise",
        "left-right mirror", "top-bottom mirror", "main-diagonal mirror", "anti-diagonal mirror"}


def grid_file(tmp_path: Path, size: int, groups: list[str], extra: str = "",
              box: str = "") -> Path:
    path = tmp_path / "grid.toml"
    path.write_text(f'family = "grid"\nsize = {size}\ngroups = {groups!r}\n{box}\n{extra}\n'
                    .replace("'", '"'), encoding="utf-8")
    return path


def solutions(puzzle) -> list[dict[str, int]]:
    """Every solution, by an engine that does not use the symmetry at all."""
    result = run("pyconstraint", "count", board(puzzle.model), Options(keep=True))
    return [dict(s) for s in result.solutions]


# ------------------------------------------------------------ which symmetries


@pytest.mark.parametrize("name, expected", [
    ("xsudoku5", ALL8),
    ("sudoku_inkala", ALL8),
    ("latin4", ALL8),
    ("sudoku4", ALL8),
    ("sudoku6", {"identity", "half turn", "left-right mirror", "top-bottom mirror"}),
])
def test_bundled_boards_keep_the_symmetries_their_groups_allow(name, expected):
    puzzle = load(MODELS / f"{name}.toml")
    sym = puzzle.symmetry()
    assert set(sym.names) == expected
    assert sym.names[0] == "identity" and sym.relabel
    assert problems(board(puzzle.model), sym) == []


def test_rows_only_lose_the_quarter_turns_and_diagonal_mirrors(tmp_path):
    sym = load(grid_file(tmp_path, 4, ["rows"])).symmetry()
    assert set(sym.names) == {"identity", "half turn", "left-right mirror", "top-bottom mirror"}


def test_an_extra_group_keeps_only_what_maps_it_onto_a_group(tmp_path):
    path = grid_file(tmp_path, 4, ["rows", "columns"], "extra = [[[0, 0], [1, 1]]]")
    assert set(load(path).symmetry().names) == {"identity", "main-diagonal mirror"}


def test_diagonals_alone_keep_all_eight(tmp_path):
    assert set(load(grid_file(tmp_path, 5, ["diagonals"])).symmetry().names) == ALL8


def test_the_symmetries_form_a_group():
    for name in ("xsudoku5", "sudoku6", "latin4"):
        perms = {tuple(p) for p in load(MODELS / f"{name}.toml").symmetry().perms}
        for a, b in itertools.product(perms, repeat=2):
            assert tuple(a[b[i]] for i in range(len(a))) in perms


def test_a_wrong_symmetry_is_reported():
    puzzle = load(MODELS / "sudoku6.toml")
    sym = puzzle.symmetry()
    quarter = tuple(c * 6 + (5 - r) for r in range(6) for c in range(6))
    bad = type(sym)(sym.variables, (*sym.perms, quarter), (*sym.names, "quarter turn"),
                    sym.values, True)
    assert any("quarter turn" in p for p in problems(board(puzzle.model), bad))


# ------------------------------------------------------------ canonical forms


def test_relabel_normal_renames_by_first_appearance():
    assert relabel_normal(np.array([[5, 3, 5, 1]])).tolist() == [[0, 1, 0, 2]]
    assert relabel_normal(np.array([[2, 2], [1, 2]])).tolist() == [[0, 0], [0, 1]]


def group_elements(sym):
    """Every (board symmetry, renaming) pair, explicitly."""
    for g in range(len(sym.perms)):
        for image in itertools.permutations(sym.values):
            yield g, dict(zip(sym.values, image))


def orbits(items, act) -> list[set]:
    """Orbits of hashable items under the explicit action ``act(item) -> images``."""
    seen: dict = {}
    out: list[set] = []
    for item in items:
        if item in seen:
            continue
        orbit = set(act(item))
        for x in orbit:
            seen[x] = len(out)
        out.append(orbit)
    return out


def test_latin_squares_classes_by_brute_force():
    """4×4 Latin squares: the canonical-form partition is the orbit partition."""
    puzzle = load(MODELS / "latin4.toml")
    sym = puzzle.symmetry()
    grids = solutions(puzzle)
    assert len(grids) == 576
    elements = list(group_elements(sym))
    assert len(elements) == 8 * 24

    def key(a):
        return tuple(a[n] for n in sym.variables)

    def act(k):
        a = dict(zip(sym.variables, k))
        return {key(transform(sym, g, a, r)) for g, r in elements}

    found = orbits([key(a) for a in grids], act)
    canon = canonical_grids(sym, np.array([key(a) for a in grids]))
    by_canon = Counter(map(tuple, canon.tolist()))
    assert len(by_canon) == len(found)
    assert sorted(by_canon.values()) == sorted(len(o) for o in found)
    # Burnside's lemma, from the explicit elements: fixed points averaged over the group.
    keys = {key(a) for a in grids}
    fixed = sum(1 for g, r in elements for k in keys
                if key(transform(sym, g, dict(zip(sym.variables, k)), r)) == k)
    assert fixed == len(found) * len(elements)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 959), st.integers(0, 7), st.permutations([1, 2, 3, 4, 5]),
       st.sets(st.integers(0, 24), min_size=0, max_size=9))
def test_canonical_forms_do_not_change_under_the_group(index, g, image, cells):
    sym, grids = _xsudoku()
    grid = grids[index]
    renaming = dict(zip(sym.values, image))
    moved = transform(sym, g, grid, renaming)
    assert (canonical_grids(sym, _row(sym, grid)) == canonical_grids(sym, _row(sym, moved))).all()
    givens = {sym.variables[i]: grid[sym.variables[i]] for i in cells}
    assert canonical_puzzle(sym, givens) == canonical_puzzle(
        sym, transform(sym, g, givens, renaming))


_CACHE: dict = {}


def _xsudoku():
    if not _CACHE:
        puzzle = load(MODELS / "xsudoku5.toml")
        _CACHE["x"] = (puzzle.symmetry(), solutions(puzzle))
    return _CACHE["x"]


def _row(sym, a):
    return np.array([[a[n] for n in sym.variables]])


def test_inequivalent_givens_get_different_canonical_forms():
    sym, grids = _xsudoku()
    rng = random.Random(4)
    for _ in range(40):
        a, b = rng.sample(grids, 2)
        cells = rng.sample(range(25), 5)
        pa = {sym.variables[i]: a[sym.variables[i]] for i in cells}
        pb = {sym.variables[i]: b[sym.variables[i]] for i in cells}
        images = {tuple(sorted(transform(sym, g, pa, r).items()))
                  for g, r in group_elements(sym)}
        same = tuple(sorted(pb.items())) in images
        assert (canonical_puzzle(sym, pa) == canonical_puzzle(sym, pb)) == same


# ------------------------------------------------------------ puzzle classes, brute force


def brute_force_classes(puzzle, k: int) -> tuple[int, int]:
    """(classes, minimal classes) of unique puzzles with k givens, by explicit orbits."""
    sym = puzzle.symmetry()
    grids = solutions(puzzle)
    names = sym.variables

    def unique_sets(size: int) -> set:
        out = set()
        for cells in itertools.combinations(names, size):
            seen = Counter(tuple(g[c] for c in cells) for g in grids)
            out |= {tuple(zip(cells, v)) for v, c in seen.items() if c == 1}
        return out

    found, fewer = unique_sets(k), unique_sets(k - 1)
    elements = list(group_elements(sym))

    def act(p):
        return {tuple(sorted(transform(sym, g, dict(p), r).items())) for g, r in elements}

    classes = orbits(sorted(found), act)
    minimal = [o for o in classes
               if all(tuple(x for x in next(iter(o)) if x != drop) not in fewer
                      for drop in next(iter(o)))]
    return len(classes), len(minimal)


@pytest.mark.parametrize("name, k", [("sudoku4", 4), ("latin4", 3), ("latin4", 4),
                                     pytest.param("sudoku4", 5, marks=pytest.mark.slow)])
def test_generated_classes_match_brute_force_orbits(name, k):
    puzzle = load(MODELS / f"{name}.toml")
    classes, minimal = brute_force_classes(puzzle, k)
    tally = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint").every(k).tally
    assert (tally.classes, tally.minimal) == (classes, minimal)
