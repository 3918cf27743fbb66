"""Plans read back from cpsolve's own text: the action of each step, and nothing that is
printed beside it (the table's state column, the boards' cost), so that the checker is
given the action as written and names the right fault."""

from __future__ import annotations

import pytest

from cpsolve.answers.read import Unreadable, read_answer

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


WRAPPED = """\
Jugs  [search]  optimal (proven)  2 moves  0.005 s
 step  action                                       state
    0  start                                        8 L jug: 0 L   5 L jug: 0 L
    1  fill the five litre jug right up to its      8 L jug: 0 L   5 L jug: 5 L
       brim from the garden tap
    2  pour the five litre jug carefully into the   8 L jug: 5 L   5 L jug: 0 L
       eight litre jug until one of them is done
    3  empty the eight litre jug                    8 L jug: 0 L   5 L jug: 0 L
                                                    (a state wrapped too)

Cost: 3
"""
"""A table at 80 columns: a long action name wraps within its column, its rest on the
lines below with nothing under ``step``; a wrapped state adds nothing to the action."""


def test_an_action_wrapped_in_its_column_is_read_whole():
    assert read_answer(WRAPPED, "planning").names == (
        "fill the five litre jug right up to its brim from the garden tap",
        "pour the five litre jug carefully into the eight litre jug until one of them is done",
        "empty the eight litre jug")


def test_boards_under_a_header_wrapped_to_a_parenthesis_are_read_as_boards():
    """At 80 columns a header's sentence may wrap so that a line begins with "(": the
    file is still cpsolve's boards, not an IPC plan (which the first line is not)."""
    text = """Triangle 15  [search]  optimal (proven)
  2 moves (3 jumps; a chain of jumps by one peg is one move)  1.117 s
(cost layers closed under 0-cost actions, the last peg's row as its estimate)
   start          1. r3c1 to r1c1   2. r1c1 to r3c3
     ●               ○                 ○
"""
    answer = read_answer(text, "planning")
    assert answer.names == ("r3c1 to r1c1", "r1c1 to r3c3") and answer.form == "cpsolve text"


def test_an_ipc_plan_is_still_read_as_one():
    answer = read_answer("; a plan\n(pick a left)\n(drop a right)\n", "planning")
    assert answer.names == ("pick a left", "drop a right") and answer.form == "IPC plan"


START_ONLY = """\
2x3 sliding puzzle  [search]  optimal (proven)  0 moves  0.059 s  verified
Metric: one move moves one piece by one cell, whatever its size.
start
1 2 3
4 5 _
"""
"""The boards of a plan of no steps (the start is the goal): the start board alone."""


def test_boards_of_the_start_alone_are_a_plan_of_no_steps():
    answer = read_answer(START_ONLY, "planning")
    assert answer.names == () and answer.form == "cpsolve text"


def test_a_board_without_the_metric_line_is_not_taken_for_cpsolves_output():
    """Without the ``Metric:`` line that every plan of cpsolve's text carries, ``start`` is
    an action's name like any other."""
    assert read_answer("start\n", "planning").names == ("start",)


def test_an_empty_plan_answer_is_the_plan_of_no_steps_and_an_empty_solution_is_not():
    """As ``[]`` is: no action names at all."""
    assert read_answer(" \n", "planning").names == ()
    with pytest.raises(Unreadable, match="empty"):
        read_answer(" \n", "csp")
