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


def test_a_finished_run_is_reused_at_a_larger_limit_and_an_unfinished_one_is_not(tmp_path):
    from sweep_cache import Cache

    cache = Cache(tmp_path / "runs.jsonl")
    cache.add({"domain": "a", "engine": "fd", "limit": 30, "fd_status": "solved", "fd_cost": 5})
    cache.add({"domain": "b", "engine": "fd", "limit": 30, "fd_status": "time"})
    cache.add({"domain": "a", "engine": "search", "limit": 30, "cp_status": "optimal"})
    cache.add({"domain": "b", "engine": "search", "limit": 30, "cp_status": "unknown"})
    cache.add({"domain": "c", "engine": "search", "limit": 30, "cp_code": 2,
               "refused": "error: recursive derived predicates", "refused_lines": 1})
    again = Cache(tmp_path / "runs.jsonl")  # read back from the file
    assert again.best("a", "fd", 60)["fd_cost"] == 5
    assert again.best("a", "search", 60)["cp_status"] == "optimal"
    assert again.best("c", "search", 60)["refused_lines"] == 1  # a refusal names a feature
    assert again.best("b", "fd", 60) is None and again.best("b", "search", 60) is None
    assert again.best("b", "fd", 30)["fd_status"] == "time"  # at its own limit: as it is
    assert again.best("a", "fd", 10) is None  # finished within 30 s is not within 10 s
    again.add({"domain": "b", "engine": "fd", "limit": 60, "fd_status": "solved"})
    assert Cache(tmp_path / "runs.jsonl").best("b", "fd", 60)["fd_status"] == "solved"


def test_an_older_results_row_splits_into_runs():
    from sweep_cache import split_row

    row = {"domain": "a", "problem": "p", "fd_cost": 3, "fd_status": "solved",
           "cp_code": 0, "cp_status": "optimal", "cp_cost": 3,
           "val_code": 0, "val_valid": True, "val_cost": 3}
    runs = {r["engine"]: r for r in split_row(row, 30)}
    assert runs["fd"]["fd_cost"] == 3 and runs["search"]["cp_cost"] == 3
    assert runs["validate"]["val_valid"] and runs["validate"]["fd_limit"] == 30
    assert all(r["limit"] == 30 for r in runs.values())
    refused = split_row({"domain": "b", "problem": "p", "fd_status": "time", "cp_code": 2,
                         "refused": "error: x"}, 30)
    assert [r["engine"] for r in refused] == ["fd"]  # re-run: its stderr lines were not kept


def test_the_table_says_which_runs_came_from_a_smaller_limit_and_one_line_refusals():
    rows = [{"domain": "a", "problem": "p", "fd_cost": 3, "cp_status": "optimal", "cp_cost": 3,
             "fd_limit": 30, "cp_limit": 30, "loads": [9.5]},
            {"domain": "b", "problem": "p", "fd_cost": None, "fd_limit": 60, "cp_limit": 60,
             "cp_code": 2, "refused": "error: b/p.pddl: x", "refused_lines": 1, "loads": [12]},
            {"domain": "c", "problem": "p", "fd_cost": None, "fd_limit": 60, "cp_limit": 60,
             "cp_code": 3, "refused": "exit 3: Traceback", "refused_lines": 9}]
    page = sweep.table(rows, 60)
    assert "not taken: 2 (1 refused in one line naming the feature, 1 crashed or killed)" \
        in page
    assert "runs reused from a sweep at a smaller limit" in page and ": 1 domains" in page
    assert "median 10.75, 9.5 to 12" in page
    assert "| a | p | 3 |  | optimal | 3 |  | 30 |" in page
