"""Issue 26: branch and bound with the counts' bound (:mod:`cpsolve.engines.search.csp.cover`).

Optima come from brute force written here (the smallest set of squares that
dominates an n×n board, by trying every set; the least sum of 0/1 variables
meeting random counts, by trying every assignment) and from OEIS A075458
(queens dominating the n×n board: 1, 1, 1, 2, 3, 3, 4, 5, 5, 5 for n = 1..10).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from cpsolve import Csp
from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.language.combine import Sum
from cpsolve.puzzles.files import load

MODELS = Path(__file__).resolve().parents[3] / "models"


def fewest_dominating_queens(n: int) -> int:
    """The least number of queens that occupy or attack every square (every set tried)."""
    squares = [(r, c) for r in range(n) for c in range(n)]
    seen = []
    for r, c in squares:
        mask = 0
        for i, (a, b) in enumerate(squares):
            if a == r or b == c or a - b == r - c or a + b == r + c:
                mask |= 1 << i
        seen.append(mask)
    everything = (1 << len(squares)) - 1
    for k in range(1, len(squares) + 1):
        for chosen in itertools.combinations(seen, k):
            total = 0
            for mask in chosen:
                total |= mask
            if total == everything:
                return k
    raise AssertionError("unreachable")


def board(n: int):
    text = (MODELS / "queens_dominate8.toml").read_text().replace("n = 8", f"n = {n}")
    return text.split("[expected]")[0]


def test_search_proves_5_queens_dominate_the_8x8_board():
    result = run("search", "solve", load(MODELS / "queens_dominate8.toml").model,
                 Options(time_limit=600))
    assert result.status is Status.OPTIMAL and result.answer.objective == 5  # A075458(8)
    assert result.verified


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_search_matches_a_brute_force_on_small_boards(write_model, n):
    want = fewest_dominating_queens(n)
    assert want == [1, 2, 3, 3][n - 3]  # A075458
    result = run("search", "solve", load(write_model("q.toml", board(n))).model,
                 Options(time_limit=120))
    assert result.status is Status.OPTIMAL and result.answer.objective == want


def least_cover(size: int, rules: list[tuple[list[int], str, int]]) -> int | None:
    """The least number of ones meeting every rule (cells, op, bound), by every assignment."""
    best = None
    for bits in itertools.product((0, 1), repeat=size):
        ok = all((sum(bits[i] for i in cells) >= k) if op == ">=" else
                 (sum(bits[i] for i in cells) <= k) for cells, op, k in rules)
        if ok and (best is None or sum(bits) < best):
            best = sum(bits)
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_bound_never_cuts_off_the_optimum(seed):
    """Random counts over 11 cells, needing 1 to 3 ones, some capped: search's optimum
    (or infeasibility) is the brute force's."""
    rng = random.Random(seed)
    size = 11
    rules = []
    for _ in range(rng.randint(3, 7)):
        cells = rng.sample(range(size), rng.randint(2, 6))
        if rng.random() < 0.8:
            rules.append((cells, ">=", rng.randint(1, min(3, len(cells)))))
        else:
            rules.append((cells, "<=", rng.randint(0, 2)))
    csp = Csp("random cover")
    x = [csp.add_variable(f"x[{i}]", 0, 1) for i in range(size)]
    for cells, op, k in rules:
        total = Sum(x[i] for i in cells)
        csp.require(total >= k if op == ">=" else total <= k)
    csp.minimize(Sum(x))
    want = least_cover(size, rules)
    result = run("search", "solve", csp, Options(time_limit=60))
    if want is None:
        assert result.status is Status.INFEASIBLE
    else:
        assert result.status is Status.OPTIMAL and result.answer.objective == want
