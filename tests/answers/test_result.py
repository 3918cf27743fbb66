"""The words of a result (:mod:`cpsolve.answers.result`)."""

from __future__ import annotations

from cpsolve.answers.result import Result, Status, cut_off_words


def test_a_cut_off_says_how_long_past_the_limit_it_had_to_stop():
    """It said "did not stop within the grace", a grace explained nowhere a user looks."""
    said = cut_off_words("cpsat", "time limit 5 s reached", 0.3)
    assert said == "time limit 5 s reached (cpsat did not stop within 0.3 s of the limit; cut off)"
    # a limit of an hour: 60 % of its 10 % (360 s), in whole seconds
    assert cut_off_words("search", "time limit 3600 s reached", 216.0).endswith(
        "(search did not stop within 216 s of the limit; cut off)")
    # no time to stop (an import the clock cut: how late not known) claims none
    for none in (0.0, None):
        assert cut_off_words("search", "time limit 5 s reached", none) == \
            "time limit 5 s reached (search did not stop at the limit; cut off)"


def test_a_cut_off_result_proves_nothing_and_says_why():
    result = Result.cut_off("analyze", "search", "time limit 5 s reached", 5.4, 0.3)
    assert result.status is Status.PARTIAL and result.seconds == 5.4
    assert result.message == cut_off_words("search", "time limit 5 s reached", 0.3)
