"""benchmarks/ipc/sweep.py: which problem and domain file it takes from a domain folder."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "ipc"))
import sweep  # noqa: E402


def test_the_smallest_problem_with_its_domain_as_fast_downward_finds_it(tmp_path):
    (tmp_path / "p01-domain.pddl").write_text("(define (domain d))")
    (tmp_path / "p01.pddl").write_text("x" * 50)
    (tmp_path / "p02-domain.pddl").write_text("(define (domain d))")
    (tmp_path / "p02.pddl").write_text("x" * 10)
    assert sweep.smallest(tmp_path) == (tmp_path / "p02-domain.pddl", tmp_path / "p02.pddl")


def test_a_shared_domain_file_and_problems_without_one(tmp_path):
    (tmp_path / "prob.pddl").write_text("x")
    assert sweep.smallest(tmp_path) is None
    (tmp_path / "domain.pddl").write_text("(define (domain d))")
    assert sweep.smallest(tmp_path) == (tmp_path / "domain.pddl", tmp_path / "prob.pddl")


def test_the_table_counts_disagreements_and_refusals():
    rows = [{"domain": "a", "problem": "p", "fd_cost": 3, "cp_status": "optimal", "cp_cost": 3,
             "val_code": 0, "val_valid": True, "val_cost": 3},
            {"domain": "b", "problem": "p", "fd_cost": 5, "cp_status": "optimal", "cp_cost": 4},
            {"domain": "c", "refused": "error: c/p.pddl: recursive derived predicates"}]
    page = sweep.table(rows, 30)
    assert "with 1 disagreement(s)" in page and "DIFFERENT" in page
    assert "| recursive derived predicates |" in page
    assert "at its cost: 1 of 1 checked" in page
