"""Counting, uniqueness and generation on grid boards, against independent reasoning.

Known answers come from reasoning or the literature, never from this code:
4×4 Latin squares 576 (4 reduced squares × 4! × 3!); 4×4 sudoku 288;
5×5 X-sudoku 960 with 8 classes under renaming (seed 004) and 246 unique
4-given puzzles up to symmetry (seed 004).  Every row of these boards holds
every symbol, so renaming acts freely and the classes under renaming number
``total / n!``.  The 5-given figures are cross-checked by Burnside's lemma,
computed here from exact values with no canonical forms and no patterns.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from cpsolve.answers.check.assignments import violations
from cpsolve.answers.result import Status
from cpsolve.engines import ENGINES, Options, run
from cpsolve.engines.runtime.clock import Clock
from cpsolve.model.symmetry.canonical import canonical_puzzle, transform
from cpsolve.puzzles.files import load
from cpsolve.workflows.grids import counting
from cpsolve.workflows.grids.counting import board, count_up_to, with_givens
from cpsolve.workflows.grids.generator import Generator, TooLarge, available, second_engine

MODELS = Path(__file__).resolve().parents[3] / "models"
TOTAL = {"latin4": 576, "sudoku4": 288, "xsudoku5": 960}
SYMBOLS = {"latin4": 4, "sudoku4": 4, "xsudoku5": 5}


def puzzle_of(name: str):
    return load(MODELS / f"{name}.toml")


@pytest.fixture(scope="module")
def xsudoku():
    """5×5 X-sudoku, enumerated by the pyconstraint engine (so any other engine can check)."""
    puzzle = puzzle_of("xsudoku5")
    return puzzle, Generator(puzzle.model, puzzle.symmetry(), "pyconstraint")


def checker(model) -> str:
    engine = second_engine(model, "pyconstraint")
    assert engine is not None, "no second engine for this model"
    return engine


# ------------------------------------------------------------ counting


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("name", sorted(TOTAL))
def test_counts_match_the_literature(name, engine):
    result = run(engine, "count", puzzle_of(name).model)
    assert (result.status, result.count) == (Status.EXACT, TOTAL[name])


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("name", sorted(TOTAL))
def test_classes_under_renaming_are_total_over_n_factorial(name, engine):
    puzzle = puzzle_of(name)
    result = count_up_to(puzzle.model, puzzle.symmetry(), "relabel", engine, Options(keep=True))
    assert result.count == TOTAL[name] // math.factorial(SYMBOLS[name])
    assert result.details["total"] == TOTAL[name]
    assert len(result.solutions) == result.count
    assert result.verified is False  # classes are counted by canonical forms, not re-checked
    assert all(not violations(puzzle.model, s) for s in result.solutions)


def test_the_seed_has_eight_patterns(xsudoku):
    puzzle, _ = xsudoku
    result = count_up_to(puzzle.model, puzzle.symmetry(), "relabel", "pyconstraint",
                         Options(keep=True))
    assert result.count == 8
    first_row = [[s[f"cell[0][{c}]"] for c in range(5)] for s in result.solutions]
    assert first_row == [[1, 2, 3, 4, 5]] * 8


def test_classes_under_symmetry_match_explicit_orbits():
    puzzle = puzzle_of("latin4")
    sym = puzzle.symmetry()
    grids = run("pyconstraint", "count", puzzle.model, Options(keep=True)).solutions
    elements = [(g, dict(zip(sym.values, p))) for g in range(len(sym.perms))
                for p in itertools.permutations(sym.values)]
    seen, orbits = set(), 0
    for grid in grids:
        key = tuple(sorted(grid.items()))
        if key not in seen:
            orbits += 1
            seen |= {tuple(sorted(transform(sym, g, grid, r).items())) for g, r in elements}
    result = count_up_to(puzzle.model, sym, "symmetry", "pyconstraint")
    assert result.count == orbits


def test_sorting_into_classes_stops_at_the_limit_with_a_lower_bound(monkeypatch):
    puzzle = puzzle_of("latin4")
    times = iter([0.0])  # the clock starts at 0; every later look finds the limit long past
    monkeypatch.setattr(counting, "Clock", lambda limit: Clock(
        limit, now=lambda: next(times, 100.0)))
    monkeypatch.setattr(counting, "CANONICAL_CHUNK", 1)
    result = count_up_to(puzzle.model, puzzle.symmetry(), "symmetry", "pyconstraint",
                         Options(time_limit=50))
    # 576 squares, 4! renamings: 24 with the first row fixed; one was sorted in time, but
    # the 8 board symmetries join at most 8 of the 24 into a class: at least 3 classes
    assert (result.status, result.count) == (Status.AT_LEAST, 3)
    assert "sorted into its class (1 of 24)" in result.message
    assert "at least 3 classes, as a class holds at most 8 of the 24 solutions" in result.message
    # the engine counted all 24, so the 24 × 4! = 576 squares are still a proven lower bound
    assert result.details["total"] is None and result.details["total_at_least"] == 576


def test_cpsat_counts_exactly_whatever_the_workers():
    for workers in (1, 2, 8):
        result = run("cpsat", "count", puzzle_of("xsudoku5").model, Options(workers=workers))
        assert (result.status, result.count) == (Status.EXACT, 960)


def test_a_limit_stops_the_count():
    result = run("pyconstraint", "count", puzzle_of("xsudoku5").model, Options(limit=100))
    assert (result.status, result.count) == (Status.AT_LEAST, 100)


# ------------------------------------------------------------ uniqueness of solve


@pytest.mark.parametrize("engine", list(ENGINES))
def test_solve_tells_unique_multiple_and_none(engine):
    inkala = run(engine, "solve", puzzle_of("sudoku_inkala").model)
    assert inkala.unique is True
    assert run(engine, "solve", puzzle_of("sudoku6").model).unique is True
    xs = puzzle_of("xsudoku5").model
    several = run(engine, "solve", with_givens(xs, {"cell[0][0]": 1, "cell[1][1]": 2}))
    assert several.unique is False and several.second is not None
    none = run(engine, "solve", with_givens(xs, {"cell[0][0]": 1, "cell[1][1]": 1}))
    assert none.status is Status.INFEASIBLE


# ------------------------------------------------------------ exhaustive generation


def test_four_givens_give_the_seeds_246(xsudoku):
    _, gen = xsudoku
    result = gen.every(4)
    assert result.tally.classes == len(result.puzzles) == 246
    assert result.tally.minimal == 246  # 3 givens show at most 3 symbols: never unique
    assert gen.every(3).tally.classes == 0


def test_generated_puzzles_are_well_formed_and_pairwise_different(xsudoku):
    puzzle, gen = xsudoku
    result = gen.every(4)
    keys = set()
    for p in result.puzzles:
        assert len(p.givens) == 4 and not violations(puzzle.model, p.solution)
        assert all(p.solution[n] == v for n, v in p.givens.items())
        keys.add(canonical_puzzle(gen.sym, p.givens))
    assert len(keys) == len(result.puzzles)


def test_every_four_given_puzzle_is_unique_for_a_second_engine(xsudoku):
    puzzle, gen = xsudoku
    engine = checker(puzzle.model)
    checked = gen.check(gen.every(4), engine)
    assert all(p.checked == engine for p in checked.puzzles)
    assert len(checked.puzzles) == 246


def test_every_five_given_puzzle_is_unique_for_a_second_engine(xsudoku):
    puzzle, gen = xsudoku
    engine = checker(puzzle.model)
    assert len(gen.check(gen.every(5), engine).puzzles) == 10_090


def test_minimal_flags_hold_for_a_second_engine(xsudoku):
    puzzle, gen = xsudoku
    engine = checker(puzzle.model)
    result = gen.every(5)
    minimal = [p for p in result.puzzles if p.minimal][::400]
    other = [p for p in result.puzzles if not p.minimal][::400]
    assert minimal and other
    for p in minimal + other:
        removable = [run(engine, "solve", with_givens(gen.board, {n: v for n, v in
                                                                  p.givens.items() if n != drop})
                         ).unique for drop in p.givens]
        assert any(removable) == (not p.minimal)
    only = gen.every(5, minimal=True)
    assert len(only.puzzles) == result.tally.minimal and all(p.minimal for p in only.puzzles)


def unique_flags(grids: np.ndarray, k: int, n: int, columns: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """All k-subsets of cells, and per (subset, grid in ``columns``): does no other grid
    show the same values there?  Values are compared exactly (no patterns)."""
    subsets = np.array(list(itertools.combinations(range(grids.shape[1]), k)),
                       dtype=np.int64).reshape(-1, k)
    digits = (grids - 1).astype(np.int32)
    flags = np.zeros((len(subsets), len(columns)), dtype=bool)
    step = 2000
    for start in range(0, len(subsets), step):
        block = subsets[start:start + step]
        codes = np.arange(len(block), dtype=np.int32)[None, :] * n ** k
        for j in range(k):
            codes = codes + digits[:, block[:, j]] * n ** j
        counts = np.bincount(codes.ravel(), minlength=len(block) * n ** k)
        flags[start:start + len(block)] = (counts[codes[columns]] == 1).T
    return subsets, flags


def burnside(name: str, k: int) -> tuple[int, int, int]:
    """(labelled unique puzzles, classes, minimal classes) by Burnside's lemma.

    A puzzle fixed by a group element has its unique solution fixed too, so
    besides the identity only symmetric grids contribute.  For the identity,
    renaming a grid renames its unique puzzles, so the grids whose first row
    reads 1..n stand for all (each for n! grids).
    """
    puzzle = puzzle_of(name)
    sym = puzzle.symmetry()
    n = len(sym.values)
    sols = run("pyconstraint", "count", puzzle.model, Options(keep=True)).solutions
    grids = np.array([[s[v] for v in sym.variables] for s in sols])
    elements = []
    for g, perm in enumerate(sym.perm_array()):
        for image in itertools.permutations(sym.values):
            table = np.zeros(n + 1, dtype=np.int64)
            table[list(sym.values)] = image
            fixed = np.nonzero((grids[:, perm] == table[grids]).all(axis=1))[0]
            elements.append((g, fixed))
    first_row = np.nonzero((grids[:, :n] == np.array(sym.values)).all(axis=1))[0]
    columns = np.unique(np.concatenate([first_row, *(f for _, f in elements[1:])]))
    column = {int(c): i for i, c in enumerate(columns)}
    subsets, unique = unique_flags(grids, k, n, columns)
    fewer_subsets, fewer = unique_flags(grids, k - 1, n, columns)
    index = {tuple(s): i for i, s in enumerate(fewer_subsets.tolist())}
    minimal = unique.copy()
    for drop in range(k):
        minimal &= ~fewer[[index[tuple(s[:drop] + s[drop + 1:])] for s in subsets.tolist()]]
    reps = [column[int(c)] for c in first_row]
    identity = [int(f[:, reps].sum()) * math.factorial(n) for f in (unique, minimal)]
    total = list(identity)
    kept_by = [(np.sort(perm[subsets], axis=1) == subsets).all(axis=1)
               for perm in sym.perm_array()]
    for g, fixed in elements[1:]:
        kept = kept_by[g]
        cols = [column[int(c)] for c in fixed]
        for i, flags in enumerate((unique, minimal)):
            total[i] += int(flags[np.ix_(kept, cols)].sum())
    order = len(elements)
    assert total[0] % order == 0 and total[1] % order == 0
    return identity[0], total[0] // order, total[1] // order


@pytest.mark.parametrize("name, k", [("xsudoku5", 4), ("sudoku4", 5), ("latin4", 5),
                                     ("xsudoku5", 5)])
def test_figures_agree_with_burnside(name, k):
    puzzle = puzzle_of(name)
    labelled, classes, minimal = burnside(name, k)
    tally = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint").every(k).tally
    assert (tally.labelled, tally.classes, tally.minimal) == (labelled, classes, minimal)


@pytest.mark.parametrize("k", [4, 5])
def test_without_symmetry_the_classes_are_the_labelled_puzzles(k):
    """The value-based path (no renaming) agrees with the pattern-based one."""
    puzzle = puzzle_of("sudoku4")
    plain = Generator(puzzle.model, None, "pyconstraint").every(k, puzzles=False).tally
    full = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint").every(k, puzzles=False).tally
    assert plain.classes == plain.labelled == full.labelled
    assert plain.renamed is None


# ------------------------------------------------------------ random generation


def test_random_draws_from_the_exhaustive_list_and_checks(xsudoku):
    puzzle, gen = xsudoku
    checker(puzzle.model)
    first = gen.random(5, 6, seed=11)
    again = gen.random(5, 6, seed=11)
    assert [p.givens for p in first.puzzles] == [p.givens for p in again.puzzles]
    assert len({canonical_puzzle(gen.sym, p.givens) for p in first.puzzles}) == 6
    assert all(p.checked and p.checked != "pyconstraint" for p in first.puzzles)


def test_random_sudoku_with_a_target_number_of_givens():
    puzzle = puzzle_of("sudoku_inkala")
    engine = "pyconstraint"
    other = checker(puzzle.model)
    gen = Generator(puzzle.model, puzzle.symmetry(), engine, max_classes=50)
    result = gen.random(32, 1, seed=5)
    (p,) = result.puzzles
    assert len(p.givens) == 32 and p.checked == other
    third = [e for e in available(puzzle.model) if e not in (engine, other)]
    for e in third:
        assert run(e, "solve", with_givens(board(puzzle.model), p.givens)).unique is True


def test_listing_every_sudoku_puzzle_is_refused():
    puzzle = puzzle_of("sudoku_inkala")
    with pytest.raises(TooLarge):
        Generator(puzzle.model, puzzle.symmetry(), "pyconstraint", max_classes=50).every(30)


def test_an_enumeration_stopped_by_the_time_limit_is_short_not_too_large(monkeypatch):
    """Stopped by its time limit, the enumeration says nothing of the board's size: the
    generation ends short at that limit (its own words), with no advice to draw at random."""
    from types import SimpleNamespace

    from cpsolve.answers.result import Result
    from cpsolve.workflows.grids import generator

    stopped = Result.stopped("count", "pyconstraint", "time limit 2 s reached")
    monkeypatch.setattr(generator, "enumerate_classes",
                        lambda *args: SimpleNamespace(result=stopped, reps=[]))
    puzzle = puzzle_of("xsudoku5")
    gen = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint").every(5)
    assert gen.short == "time limit 2 s reached" and gen.puzzles == ()
    assert "--random" not in gen.message


# ------------------------------------------------------------ command line


def test_cli_generate_counts(cli):
    run_ = cli("generate", MODELS / "xsudoku5.toml", "--givens", "4", "5", "--count",
               "--engine", "pyconstraint")
    assert run_.code == 0
    assert "4 givens: 246 puzzles up to symmetry" in run_.out
    assert "5 givens: 10,090 puzzles up to symmetry" in run_.out and "5,540" in run_.out


def test_cli_generate_json_and_boards(cli):
    import json

    run_ = cli("generate", MODELS / "xsudoku5.toml", "--givens", "4", "--json",
               "--engine", "pyconstraint")
    data = json.loads(run_.out)
    (item,) = data["givens"]
    assert item["classes"] == 246 and len(item["puzzles"]) == 246
    assert data["symmetry"]["relabel"] is True and len(data["symmetry"]["board"]) == 8
    shown = cli("generate", MODELS / "sudoku4.toml", "--givens", "4", "--engine", "pyconstraint")
    assert "#143" in shown.out and "#144" not in shown.out


def test_cli_generate_check_and_random(cli):
    checked = cli("generate", MODELS / "sudoku4.toml", "--givens", "4", "--count", "--check",
                  "--engine", "pyconstraint")
    assert checked.code == 0 and "143 puzzles" in checked.out and "re-solved by" in checked.out
    drawn = cli("generate", MODELS / "sudoku4.toml", "--givens", "5", "--random", "3",
                "--seed", "2", "--minimal", "--engine", "pyconstraint")
    assert drawn.code == 0 and drawn.out.count("minimal") >= 3 and "#3" in drawn.out
    too_many = cli("generate", MODELS / "xsudoku5.toml", "--givens", "8", "--engine",
                   "pyconstraint")
    assert too_many.code == 1 and "--random" in too_many.err


EMPTY_SUDOKU6 = """family = "grid"
name = "6x6 sudoku, empty"
size = 6
symbols = "123456"
groups = ["rows", "columns", "boxes"]
box = [2, 3]
givens = \"\"\"
""" + ". . . . . .\n" * 6 + '\"\"\"\n'


def test_a_random_puzzle_not_tried_for_minimality_says_null_in_valid_json(cli, tmp_path):
    """Drawn at random without --minimal, nobody removed each given again: ``minimal`` is
    null (not false), and the JSON still meets the schema."""
    import jsonschema

    from cpsolve.output.schema import schema

    model = tmp_path / "sudoku6.toml"
    model.write_text(EMPTY_SUDOKU6)
    run_ = cli("generate", model, "--givens", "12", "--random", "1", "--seed", "2", "--json")
    out = json.loads(run_.out)
    jsonschema.validate(out, schema())
    assert out["givens"][0]["method"] == "random"
    assert [p["minimal"] for p in out["givens"][0]["puzzles"]] == [None]
    assert out["givens"][0]["message"].endswith("not tried for minimality (--minimal keeps "
                                                "only minimal ones)")
    text = cli("generate", model, "--givens", "12", "--random", "1", "--seed", "2")
    assert "not tried for minimality" in " ".join(text.out.split())


def test_a_random_draw_from_the_enumeration_has_minimality_decided(xsudoku):
    """On a board that is enumerated, ``--random`` draws from the list of every class, whose
    minimality enumeration decided for the figures: each puzzle drawn is ``True`` or
    ``False`` (JSON: never ``null``), as a second engine finds by removing each given."""
    puzzle, gen = xsudoku
    engine = checker(puzzle.model)
    drawn = gen.random(5, 12, seed=1)
    assert drawn.message.startswith("drawn from the 10,090 classes")
    assert {p.minimal for p in drawn.puzzles} == {True, False}
    for p in drawn.puzzles:
        removable = [run(engine, "solve", with_givens(gen.board, {n: v for n, v in
                                                                  p.givens.items() if n != drop})
                         ).unique for drop in p.givens]
        assert any(removable) == (not p.minimal)


def test_cli_count_up_to(cli):
    run_ = cli("count", MODELS / "xsudoku5.toml", "--up-to", "relabel", "--engine", "pyconstraint")
    assert run_.code == 0 and "8 classes (960 solutions)" in run_.out
    refused = cli("count", MODELS / "sudoku_inkala.toml", "--up-to", "relabel")
    assert refused.code == 2 and "givens" in refused.err


# ------------------------------------------------------------ stopped, and short


@pytest.fixture
def stop_asked():
    """A stop asked for (as by Ctrl-C) for the length of the test."""
    from cpsolve.engines.runtime import interrupt

    interrupt.request()
    yield
    interrupt.clear()


def test_a_stop_between_steps_keeps_the_figures_and_the_puzzles_made(xsudoku):
    """Stopped while the puzzles are written out, exhaustive generation keeps its figures
    (every cell set was checked: 10,090 classes of 5-given puzzles, the Burnside figure
    above) and the puzzles made so far, and says why it has fewer."""
    import sys

    from cpsolve.workflows.grids import exhaustive

    said: list[str] = []

    def stop() -> str:  # "stop" once 512 puzzles are written out (it is asked every 256)
        caller = sys._getframe(1)
        if caller.f_code.co_name == "representatives" and len(caller.f_locals["out"]) >= 512:
            said.append("interrupted")
        return said[0] if said else ""  # and from then on, as a stop asked for is

    _, gen = xsudoku
    stopped = exhaustive.every(gen.grids(), 5, stop=stop)
    assert stopped.tally.classes == 10090 and len(stopped.puzzles) == 512
    assert stopped.short == "interrupted: 512 of 10,090 puzzles written out"


def test_a_stop_before_every_cell_set_was_checked_gives_no_figures(xsudoku):
    from cpsolve.workflows.grids import exhaustive

    _, gen = xsudoku
    stopped = exhaustive.every(gen.grids(), 5, stop=lambda: "time limit reached")
    assert (stopped.tally, stopped.puzzles, stopped.short) == (None, (), "time limit reached")


def test_a_generation_asked_to_stop_says_so_and_claims_nothing(xsudoku, stop_asked):
    """Ctrl-C came: no figures, no puzzles, the reason; a random draw whose check was
    stopped is no disagreement (nothing was re-solved)."""
    puzzle, gen = xsudoku
    every = gen.every(4)
    assert (every.tally, every.puzzles, every.short) == (None, (), "interrupted")
    drawn = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint").random(9, 2, seed=1)
    assert drawn.puzzles == () and drawn.short.startswith("interrupted")


def test_a_check_stopped_midway_keeps_the_puzzles_unchecked(xsudoku):
    from cpsolve.engines.runtime import interrupt
    from cpsolve.workflows.grids.generated import Generation

    puzzle, gen = xsudoku
    every = gen.every(4)
    try:
        interrupt.request()
        checked = gen.check(Generation(4, "exhaustive", every.puzzles[:3], every.tally))
    finally:
        interrupt.clear()
    assert [p.checked for p in checked.puzzles] == [None] * 3
    assert checked.short.startswith("interrupted while re-solving with ")
    assert "0 of 3 puzzles checked" in checked.short


def test_random_attempts_used_up_say_so(tmp_path):
    """One random solution tried for two puzzles asked: at most one puzzle, and why."""
    path = tmp_path / "sudoku6.toml"
    path.write_text(EMPTY_SUDOKU6)
    puzzle = load(path)
    gen = Generator(puzzle.model, puzzle.symmetry(), "cpsat")
    drawn = gen.random(12, 2, seed=2, attempts=1)
    assert len(drawn.puzzles) <= 1
    assert drawn.short.startswith("gave up after 1 random solution: ")
    assert drawn.short.endswith("1 class among them" if drawn.puzzles else
                                "0 classes among them")


def test_fewer_classes_than_asked_say_so(cli):
    """4×4 sudoku has 143 classes of unique 4-given puzzles (above): 200 cannot be drawn."""
    run_ = cli("generate", MODELS / "sudoku4.toml", "--givens", "4", "--random", "200",
               "--engine", "pyconstraint", "--json")
    assert run_.code == 1, run_.err
    (item,) = json.loads(run_.out)["givens"]
    assert item["drawn"] == 143
    assert item["short"] == ("only 143 classes of unique puzzles with 4 givens exist up to "
                             "symmetry, fewer than the 200 asked")
    text = cli("generate", MODELS / "sudoku4.toml", "--givens", "4", "--random", "200",
               "--engine", "pyconstraint", "--count")
    assert text.code == 1 and "only 143 classes" in text.out


def test_a_time_limit_during_random_generation_says_so(cli, tmp_path):
    """8 givens on an empty 6×6 sudoku (its fewest for a unique puzzle) are hard to reach
    by removal: the draw is still at work at the limit, stops there and says so."""
    model = tmp_path / "sudoku6.toml"
    model.write_text(EMPTY_SUDOKU6)
    run_ = cli("generate", model, "--givens", "8", "--random", "2", "--seed", "1",
               "--time-limit", "3", "--json")
    assert run_.code == 1, run_.err
    data = json.loads(run_.out)
    if data.get("status") == "error":  # a loaded machine: the limit came while loading
        assert data["exit"] == 1 and "loading" in data["error"]
        return
    (item,) = data["givens"]
    assert "time limit" in item["short"], item


def test_ctrl_c_while_the_puzzles_are_written_ends_the_list_and_says_so(cli, monkeypatch):
    """10,090 classes of 5-given puzzles: a Ctrl-C while they are written out as JSON cuts
    the list there (the figures stand), the object stays valid, exit 130."""
    import os
    import signal

    import jsonschema

    import cpsolve.output.grids as grids
    from cpsolve.output.schema import schema

    real, written = grids._json_givens, []

    def givens(puzzle, values):
        written.append(1)
        if len(written) == 1000:
            os.kill(os.getpid(), signal.SIGINT)
        return real(puzzle, values)

    monkeypatch.setattr(grids, "_json_givens", givens)
    run_ = cli("generate", MODELS / "xsudoku5.toml", "--givens", "5", "--json")
    assert run_.code == 130, run_.err
    data = json.loads(run_.out)
    jsonschema.validate(data, schema())
    (item,) = data["givens"]
    assert item["classes"] == item["drawn"] == 10090 and len(item["puzzles"]) < 10090
    assert item["short"] == (f"interrupted while the puzzles were being written: "
                             f"{len(item['puzzles']):,} of 10,090 listed")


def _every_run(monkeypatch, change) -> None:
    """Every engine run of generation (enumeration, draw, checks) answers ``change(real)``."""
    from cpsolve.workflows.grids import generator, randomized

    def patched(name, task, model, options=None, late=None):
        return change(lambda late_=late: run(name, task, model, options, late_))

    for module in (counting, generator, randomized):
        monkeypatch.setattr(module, "run", patched)


def test_an_engine_that_cannot_start_in_time_is_no_proof_of_no_solution(monkeypatch):
    """Each run comes too late to start (as CP-SAT with 0.3 s left, its import taking 0.4):
    the board is not said to have no solution, nor refused as one; the draw ends with the
    engine's own reason, and no puzzle was made."""
    late = "time limit reached before cpsat started"
    _every_run(monkeypatch, lambda real: real(late))
    puzzle = puzzle_of("sudoku4")
    drawn = Generator(puzzle.model, puzzle.symmetry(), "cpsat").random(4, 2, seed=1)
    assert (drawn.puzzles, drawn.short) == ((), late)


def test_uniqueness_not_decided_in_time_ends_the_draw_saying_so(monkeypatch):
    """Every solve finds a solution but cannot decide uniqueness before its limit: no
    removal is read as "not unique" (the draw would give up after its attempts, or claim
    a puzzle minimal); it ends at once with the engine's reason."""
    from cpsolve.answers.kinds import Assignment

    why = "time limit 1 s reached: uniqueness not decided"

    def undecided(real):
        result = real()
        if not result.found:
            return result
        return result.but(answer=Assignment(dict(result.solution)), message=why)

    _every_run(monkeypatch, undecided)
    puzzle = puzzle_of("sudoku4")
    gen = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint", max_classes=0)
    drawn = gen.random(4, 2, seed=1, minimal=True)  # max_classes 0: drawn, not enumerated
    assert (drawn.puzzles, drawn.short) == ((), why)


def test_a_check_that_cannot_decide_uniqueness_in_time_is_no_disagreement(xsudoku,
                                                                          monkeypatch):
    """The second engine finds each puzzle's solution but its limit came before it could
    decide uniqueness: that is no "does not find it unique"; the puzzles stay unchecked
    and the check says why."""
    from cpsolve.answers.kinds import Assignment
    from cpsolve.workflows.grids.generated import Generation

    puzzle, gen = xsudoku
    every = gen.every(4)
    why = "time limit 1 s reached: uniqueness not decided"
    _every_run(monkeypatch, lambda real: real().but(
        answer=Assignment(dict(real().solution)), message=why))
    checked = gen.check(Generation(4, "exhaustive", every.puzzles[:3], every.tally))
    assert [p.checked for p in checked.puzzles] == [None] * 3
    assert checked.short.startswith(f"{why} while re-solving with ")
    assert "0 of 3 puzzles checked" in checked.short


def test_an_exact_count_whose_list_was_cut_is_no_enumeration(monkeypatch):
    """The count is exact but the limit cut its list (the checker could re-check none): the
    solutions are not all known, so there are no figures and no puzzles, and the limit says
    why (not 0 puzzles from a board with 0 solutions)."""
    from types import SimpleNamespace

    from cpsolve.answers.kinds import Count
    from cpsolve.answers.result import Result
    from cpsolve.workflows.grids import generator

    why = ("only the first 0 of the solutions are listed: the checker could re-check no "
           "more within the time limit")
    cut = Result.counted("pyconstraint", Count(8, ()), True, message=why)
    monkeypatch.setattr(generator, "enumerate_classes",
                        lambda *args: SimpleNamespace(result=cut, reps=[]))
    puzzle = puzzle_of("xsudoku5")
    every = Generator(puzzle.model, puzzle.symmetry(), "pyconstraint").every(4)
    assert (every.tally, every.puzzles, every.short) == (None, (), why)


def test_a_generation_with_no_puzzle_claims_no_cross_check(cli):
    """4×4 sudoku has no unique puzzle with 3 givens (4 is the fewest: with 3, at most three
    symbols appear, and two symbols missing from the givens can always be swapped): the
    second engine re-solved nothing, and neither the text nor the JSON says it checked."""
    import jsonschema

    from cpsolve.output.schema import schema

    argv = ["generate", MODELS / "sudoku4.toml", "--givens", "3", "--random", "2",
            "--seed", "3", "--engine", "pyconstraint"]
    text = cli(*argv)
    assert text.code == 1 and "0 drawn at random" in text.out
    assert "re-solved by search: unique" not in text.out
    assert "nothing re-solved by search" in text.out
    data = json.loads(cli(*argv, "--json").out)
    jsonschema.validate(data, schema())
    (item,) = data["givens"]
    assert (item["drawn"], item["puzzles"], item["cross_checked_by"]) == (0, [], [])
