"""Counts over 0/1 cells in the search engine's backtracking (search/csp/counts.py).

Expected numbers from the literature: n queens has 92 solutions for n = 8 (12 up to
the square's 8 symmetries) and 724 for n = 10 (92 up to symmetry), OEIS A000170 and
A002562.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cpsolve import Csp
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.engines.search.csp.counts import count_of, propagate
from cpsolve.language.expr import Binary, Const, Var
from cpsolve.puzzles.files import load

QUEENS8 = Path(__file__).parents[3] / "models" / "queens8.toml"


def queens(tmp_path: Path, n: int) -> Path:
    """The bundled 8-queens board with ``n`` for 8 (its 8x8 drawing and answers dropped)."""
    text = QUEENS8.read_text().replace("n = 8\n", f"n = {n}\n")
    text = re.sub(r'show = """[\s\S]*?"""\n', "", text)
    text = re.sub(r"\[expected\][\s\S]*", "", text)
    path = tmp_path / f"queens{n}.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(("n", "total", "classes"), [(8, 92, 12), (10, 724, 92)])
def test_queens_on_a_board_of_cells(tmp_path: Path, cli, n: int, total: int,
                                    classes: int) -> None:
    model = load(queens(tmp_path, n)).model
    result = run("search", "count", model, Options(time_limit=120))
    assert result.status is Status.EXACT and result.count == total
    # the counts fail early and force the last free cell: a few thousand nodes, where
    # checking each sum once all its cells were set explored millions without a solution
    assert result.details["nodes"] < 100_000
    out = cli("count", str(queens(tmp_path, n)), "--engine", "search", "--up-to",
              "symmetry", "--json").out
    assert f'"count": {classes}' in out and f'"total": {total}' in out


def test_a_sum_of_cells_is_read_as_a_count() -> None:
    index = {"a": 0, "b": 1, "c": 2, "k": 3}
    binary = {0, 1, 2}
    a, b, c, k = (Var(n) for n in "abck")
    assert count_of(a + b + c <= 1, index, binary) == ((0, 1, 2), 0, 1)
    assert count_of(Binary("==", Const(2), a + (b + c)), index, binary) == ((0, 1, 2), 2, 2)
    assert count_of(a + b > 0, index, binary) == ((0, 1), 1, 2)
    assert count_of(a + k <= 1, index, binary) is None      # k is not 0/1
    assert count_of(a + a <= 1, index, binary) is None      # not distinct
    assert count_of(2 * a + b <= 1, index, binary) is None  # not a plain sum


def test_exactly_one_forces_the_last_free_cell() -> None:
    zero, one = 1, 2                        # domain bits of 0 and 1 (base 0)
    doms, vals = [zero, zero, 3], [0, 0, None]
    queue: list = []
    assert propagate(((0, 1, 2), 1, 1), doms, vals, queue, zero, one)
    assert queue == [(2, 1)] and doms[2] == one
    doms, vals, queue = [one, 3, 3], [1, None, None], []
    assert propagate(((0, 1, 2), 0, 1), doms, vals, queue, zero, one)  # at most one
    assert queue == [(1, 0), (2, 0)]
    assert not propagate(((0, 1), 2, 2), [zero, 3], [0, None], [], zero, one)  # too few


def _digits(extra=None) -> Csp:
    """Three digits: ``a != b``, ``c`` free — 10 x 9 pairs times 10 values of c = 900."""
    csp = Csp("digits")
    a, b, c = (csp.add_variable(n, 0, 9) for n in "abc")
    csp.require(a != b)
    if extra is not None:
        extra(csp, a, b, c)
    return csp


def test_independent_parts_are_counted_apart_and_multiplied() -> None:
    counted = run("search", "count", _digits())
    assert counted.status is Status.EXACT and counted.count == 900
    assert counted.details["parts"] == 2
    assert run("cpsat", "count", _digits()).count == 900  # one by one: the same count


def test_a_part_with_no_solution_makes_none_at_all() -> None:
    """``c != c`` holds for no c: whatever a and b do, no solution."""
    counted = run("search", "count", _digits(lambda csp, a, b, c: csp.require(c != c)))
    assert counted.status is Status.EXACT and counted.count == 0


def test_a_listing_or_a_limit_does_not_split() -> None:
    """Listed solutions are every combination, one by one; a limit counts them one by one."""
    listed = run("search", "count", _digits(), Options(keep=True))
    assert listed.count == 900 and len(listed.answer.solutions) == 900
    assert "parts" not in listed.details
    limited = run("search", "count", _digits(), Options(limit=50))
    assert limited.count == 50 and "parts" not in limited.details
