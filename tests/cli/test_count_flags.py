"""``count``'s MiniZinc-style flags: ``-n N`` stops after N solutions, ``--all`` counts
every one (the default), and the two do not go together."""

from __future__ import annotations

import json


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
