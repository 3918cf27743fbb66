"""What a caller may ask of any engine: a time limit given, none given, and none at all."""

from __future__ import annotations

import math
from dataclasses import replace

from cpsolve.engines import Options
from cpsolve.engines.runtime.clock import LONGEST


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
