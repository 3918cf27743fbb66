"""Plans read back from cpsolve's own text: the action of each step, and nothing that is
printed beside it (the table's state column, the boards' cost), so that the checker is
given the action as written and names the right fault."""

from __future__ import annotations

from cpsolve.answers.read import read_answer

TABLE = """\
Frogs  [search]  optimal (proven)  2 moves  0.061 s  verified
 step  action              state          cost
    0  start               T _ F
    1  toad slides from 0  _ T F             1
    2  frog  jumps from 2  F T _             2
"""
"""A table as cpsolve prints it: the action column is as wide as its widest entry (one
name with two spaces inside), two spaces before the state column, a cost column last."""


def test_the_table_gives_the_action_column_only():
    answer = read_answer(TABLE, "planning")
    assert answer.form == "cpsolve text"
    assert answer.names == ("toad slides from 0", "frog jumps from 2")


def test_an_action_edited_longer_than_its_column_is_read_whole():
    edited = TABLE.replace("toad slides from 0  _ T F", "toad slides from 0 again  _ T F")
    assert read_answer(edited, "planning").names[0] == "toad slides from 0 again"


def test_the_boards_give_the_step_without_its_cost():
    boards = ("start        1. walk up from r4c5 (cost 0)   2. push left from r3c5 (cost 1)\n"
              "#####        #####                           #####\n")
    assert read_answer(boards, "planning").names == ("walk up from r4c5",
                                                      "push left from r3c5")
