"""What a caller may ask of any engine: a time limit given, none given, and none at all."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from cpsolve import Planning
from cpsolve.engines import Options, run
from cpsolve.engines.runtime.clock import LONGEST
from cpsolve.engines.runtime.cpu import max_processes


def test_an_infinite_time_limit_is_no_limit_and_says_so():
    """``math.inf`` (``--time-limit none``), or any figure from :data:`LONGEST` on, is no
    limit at all: ``time_limit`` ``None`` as when none is given (every engine reads that as
    no limit), with ``no_time_limit`` telling the two apart (a default budget applies only
    to the second); handed on without a figure it stays, a figure given ends it."""
    lifted = Options(time_limit=math.inf)
    assert (lifted.time_limit, lifted.no_time_limit) == (None, True)
    assert Options(time_limit=LONGEST).no_time_limit
    assert (Options().time_limit, Options().no_time_limit) == (None, False)
    assert replace(lifted, time_limit=None).no_time_limit
    share = replace(lifted, time_limit=3.0)
    assert (share.time_limit, share.no_time_limit) == (3.0, False)


@pytest.mark.parametrize("fields, error, field", [
    ({"time_limit": math.nan}, ValueError, "time_limit"),
    ({"time_limit": -1}, ValueError, "time_limit"),
    ({"time_limit": 0}, ValueError, "time_limit"),
    ({"time_limit": -math.inf}, ValueError, "time_limit"),
    ({"time_limit": "5"}, TypeError, "time_limit"),
    ({"time_limit": True}, TypeError, "time_limit"),
    ({"limit": 0}, ValueError, "limit"),
    ({"limit": -3}, ValueError, "limit"),
    ({"limit": 2.5}, TypeError, "limit"),
    ({"workers": 0}, ValueError, "workers"),
    ({"memory_limit": 0}, ValueError, "memory_limit"),
    ({"memory_limit": "1G"}, TypeError, "memory_limit"),
    # --workers N and --jobs N: at most 4 per core (at least 8); analyze --from start|goal
    ({"workers": max_processes() + 1}, ValueError, "workers"),
    ({"cluster": max_processes() + 1}, ValueError, "cluster"),
    ({"cluster": 0}, ValueError, "cluster"),
    ({"cluster": 2.5}, TypeError, "cluster"),
    # analyze --scheduler ADDRESS: no port, an empty host, a port past 65535
    ({"cluster": "host:notaport"}, ValueError, "cluster"),
    ({"cluster": "tcp://"}, ValueError, "cluster"),
    ({"cluster": "host:65536"}, ValueError, "cluster"),
    ({"cluster": ""}, ValueError, "cluster"),
    ({"direction": "sideways"}, ValueError, "direction"),
    ({"direction": 1}, TypeError, "direction"),
    ({"encoding": "graph"}, ValueError, "encoding"),
    ({"resume": True}, ValueError, "resume"),  # --resume needs --work-dir DIR
])
def test_options_refuse_what_the_command_line_refuses(fields, error, field):
    # --time-limit takes seconds > 0 (nan, 0 and -1 are refused), --limit an integer >= 1
    with pytest.raises(error, match=f"Options: {field} must be"):
        Options(**fields)


def test_options_take_what_the_command_line_takes():
    assert Options(time_limit=0.5, limit=1, workers=1, memory_limit=1).time_limit == 0.5
    assert Options(limit=math.inf).limit == math.inf  # --limit none
    assert Options(time_limit=None, limit=None, memory_limit=None).limit is None
    assert Options(workers=max_processes(), cluster=max_processes()).workers == max_processes()
    for address in ("tcp://localhost:8786", "tls://10.0.0.1:8786", "[::1]:8786", "host"):
        assert Options(cluster=address).cluster == address
    assert [Options(direction=d).direction for d in ("start", "goal", None)] == \
        ["start", "goal", None]
    assert Options(encoding="time-indexed").encoding == "time-indexed"
    with pytest.raises(ValueError, match="time_limit"):  # replace() checks the new value too
        replace(Options(), time_limit=-2)


@pytest.mark.parametrize("hint", [5, "move a", ["move a", 3], {"move a": 1}])
def test_a_hint_that_is_no_list_of_action_names_is_refused(hint):
    """Refused when made, naming the field, not a TypeError deep inside CP-SAT."""
    with pytest.raises(TypeError, match="^Options: hint must be None, a plan's action names"):
        Options(hint=hint)


def test_a_hint_is_action_names_or_a_plan():
    from cpsolve.answers.kinds import Plan, Step

    assert Options(hint=["a", "b"]).hint == ("a", "b")
    assert Options(hint=()).hint == ()
    plan = Plan.of([Step("fill", (8, 0), 1), Step("pour", (3, 5), 1)])
    assert Options(hint=plan).hint == ("fill", "pour")  # a result's answer, as it comes
    assert replace(Options(), hint=plan).hint == ("fill", "pour")


def two_steps() -> Planning:
    """a and b from 0 to 1, each by its own step up (a step down too, so that longer plans
    go round in loops: there are infinitely many plans, and exactly 2 optimal ones, a
    before b and b before a)."""
    p = Planning("two steps")
    a, b = p.add_variable("a", 0, 2), p.add_variable("b", 0, 2)
    p.set_initial({"a": 0, "b": 0})
    p.set_goal((a == 1) & (b == 1))
    p.add_action("a up", a < 2, {a: a + 1})
    p.add_action("b up", b < 2, {b: b + 1})
    p.add_action("a down", a > 0, {a: a - 1})
    return p


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_a_planning_count_is_of_the_optimal_plans_with_or_without_optimal(engine):
    """What the tutorial says of ``Options.optimal``: through ``run`` a planning model's
    count is always of its optimal plans (``optimal`` is a csp's choice; the command line
    asks for ``count --optimal`` to say it)."""
    plain = run(engine, "count", two_steps(), Options(time_limit=30))
    asked = run(engine, "count", two_steps(), Options(time_limit=30, optimal=True))
    assert plain.count == asked.count == 2
