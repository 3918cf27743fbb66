"""``count``'s MiniZinc-style flags: ``-n N`` stops after N solutions, ``--all`` counts
every one (the default), and the two do not go together."""

from __future__ import annotations

import json
import shutil

import pytest


def test_n_stops_after_n_solutions(cli):
    """5 of the 576: the count stopped short, exit 1 (a limit; json.md's exit codes)."""
    out = cli("count", "latin4", "-n", "5", "--engine", "search", "--json")
    assert out.code == 1, out.err
    assert json.loads(out.out)["count"] == 5


def test_all_counts_every_latin_square_of_order_4(cli):
    out = cli("count", "latin4", "--all", "--engine", "search", "--json")
    assert out.code == 0, out.err
    assert json.loads(out.out)["count"] == 576  # 4! * 3! * 4 (OEIS A002860)


def test_n_and_all_do_not_go_together(cli):
    out = cli("count", "latin4", "--all", "-n", "3")
    assert out.code == 2 and "--all" in out.err and out.err.count("\n") == 1


def test_statistics_line_in_text(cli):
    out = cli("solve", "hanoi4", "--engine", "search", "--statistics")
    assert out.code == 0
    last = out.out.strip().splitlines()[-1]
    assert last.startswith("statistics: search:") and "explored" in last


ENGINES = ["search", "cpsat", "pyconstraint",
           *(["minizinc"] if shutil.which("minizinc") else [])]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_ends_a_count_with_the_same_line(cli, engine):
    """latin4 has 576 squares (4! * 3! * 4, OEIS A002860); the last line said 'exactly 576
    solutions' under search, 'exact count' under cpsat and nothing under pyconstraint."""
    full = cli("count", "latin4", "--engine", engine)
    assert full.code == 0, full.err
    assert full.out.strip().splitlines()[-1] == "exactly 576 solutions"
    cut = cli("count", "latin4", "--engine", engine, "-n", "5")
    assert cut.out.strip().splitlines()[-1] == \
        "stopped at the limit of 5 solutions; there may be more"
