"""``--engine auto`` (the default of solve and count): CP-SAT and search race, the first
proof wins and the other cross-checks it within a short window."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def hanoi(tmp_path: Path, discs: int) -> Path:
    """examples/hanoi.toml with ``discs`` discs (the optimum is 2**discs - 1)."""
    text = (ROOT / "examples" / "hanoi.toml").read_text()
    everything = ", ".join(str(d) for d in range(discs))
    text = text.replace("discs = 3", f"discs = {discs}")
    text = text.replace("size = 3, domain", f"size = {discs}, domain")
    text = text.replace("peg = [0, 0, 0]", f"peg = [{', '.join(['0'] * discs)}]")
    text = text.replace("d = [0, 1, 2]", f"d = [{everything}]")
    text = re.sub(r"^show = .*$", "", text, flags=re.M)
    path = tmp_path / f"hanoi{discs}.toml"
    path.write_text(text)
    return path


def assert_cross_checked(out: dict) -> None:
    """The other engine confirmed the answer — or, on a machine too loaded for it to
    finish within its cross-check window, is reported as stopped (never as agreeing)."""
    other = [e for e in out["race"]["engines"] if e["role"] != "answered"]
    assert len(other) == 1
    if other[0]["role"] == "confirmed":
        assert out["cross_checked_by"] == [other[0]["engine"]]
    else:
        assert out["cross_checked_by"] == []
        assert other[0]["status"] in (None, "unknown", "at_least", "solved")


def test_hanoi_8_is_answered_in_seconds_by_default(cli, tmp_path):
    """CP-SAT's time-indexed model alone ran past 14 minutes on this; search proves 255 =
    2**8 - 1 at once, and so does CP-SAT over the transition graph (6,561 states): either
    may answer first (on a loaded machine, which one is a matter of scheduling)."""
    run = cli("solve", hanoi(tmp_path, 8), "--json")
    assert run.code == 0, run.err
    out = json.loads(run.out)
    assert out["status"] == "optimal" and out["steps"] == 255
    race = out["race"]
    assert race["answered_by"] == out["engine"] in ("search", "cpsat")
    engines = {e["engine"]: e for e in race["engines"]}
    assert set(engines) == {"search", "cpsat"}
    other = engines["cpsat" if out["engine"] == "search" else "search"]
    # what the other found: nothing proven yet, the plan weighted A* handed it (solved), or
    # the optimum — or nothing at all: its cross-check window is 1 s after the proof, and on
    # a loaded machine importing OR-Tools alone can take longer (then it says so)
    assert other["status"] in ("unknown", "solved", "optimal", None)
    if other["status"] is None:  # (or search proved it within its head start)
        assert re.search("cross-check window without an answer|^not started: search proved",
                         other["note"])
    import jsonschema

    from cpsolve.output.schema import schema

    jsonschema.validate(out, schema())


def test_both_engines_agree_on_a_small_model(cli):
    out = json.loads(cli("solve", "water_jugs", "--json", "--confirm").out)
    assert out["steps"] == 10 and out["status"] == "optimal"
    assert out["race"]["disagreements"] == []
    assert_cross_checked(out)


def test_count_by_default_is_exact_and_cross_checked(cli):
    out = json.loads(cli("count", "xsudoku5", "--json", "--confirm").out)
    assert out["count"] == 960 and out["status"] == "exact"
    assert_cross_checked(out)


GOLOMB4 = (ROOT / "models" / "golomb6.toml").read_text().replace("n = 6", "n = 4") \
    .replace("domain = [0, 20]", "domain = [0, 10]").split("[expected]")[0]


def test_count_optimal_counts_only_the_optimal_solutions_by_default(cli, tmp_path):
    """The racers count what the command asks: with --optimal, the optimal rulers only.
    Four marks: the shortest Golomb ruler is 6 long, and there are two, 0 1 4 6 and its
    mirror 0 2 5 6 (every other ruler of 4 marks within 10 is longer)."""
    model = tmp_path / "golomb4.toml"
    model.write_text(GOLOMB4)
    out = json.loads(cli("count", model, "--optimal", "--json", "--confirm").out)
    assert (out["status"], out["count"], out["details"]["optimum"]) == ("exact", 2, 6)
    assert out["race"]["disagreements"] == []
    assert_cross_checked(out)


def test_text_says_who_answered_and_who_confirmed(cli):
    run = cli("solve", "water_jugs")
    assert re.search(r"answered", run.out) and re.search(r"confirmed|cross-check", run.out)


def test_infeasible_is_proven_by_the_race(cli, tmp_path):
    text = (ROOT / "models" / "water_jugs.toml").read_text()
    goal = re.search(r'^goal = "(.*)"$', text, flags=re.M)
    assert goal, "the jugs model states its goal on one line"
    path = tmp_path / "jugs7.toml"
    # every action leaves some jug empty or full (fill, empty, or pour until the source
    # is empty or the target full), so 3 L and 2 L together can never be reached
    path.write_text(text.replace(goal.group(0), 'goal = "jug[0] == 3 and jug[1] == 2"'))
    out = json.loads(cli("solve", path, "--json").out)
    assert out["status"] == "infeasible"


# 2.5, not 0.5: a number that is not whole, and time enough for the solve on a loaded
# machine, where a first run in this process (its imports) took more than 0.5 s
@pytest.mark.parametrize("value", ["none", "None", "10", "2.5"])
def test_time_limit_none_and_numbers_are_accepted(cli, value):
    assert cli("solve", "water_jugs", "--time-limit", value).code == 0


# ------------------------------------------------ the answer at once, the cross-check's window


def test_the_answer_comes_when_proven_and_the_cross_check_gets_a_stated_window(tmp_path):
    """Search proves Hanoi 10 (1,023 moves) in about a second; CP-SAT cannot within a second
    (its transition graph is too long to unroll, 88,572 arcs x 1,022 steps, so the
    time-indexed model runs; on Hanoi 8 it ran past 14 minutes; the graph now proves
    Hanoi 8 itself).  The race ends after the window — never waiting for the 60 s budget —
    and says CP-SAT did not confirm.  Orders on the race's own clock only."""
    from cpsolve.answers.result import Status
    from cpsolve.engines import Options
    from cpsolve.engines.auto import WINDOW_GRACE, WINDOW_MIN, race
    from cpsolve.puzzles.files import load

    outcome = race("solve", load(hanoi(tmp_path, 10)).model, Options(), budget=60,
                   confirm=True)
    assert outcome.result.engine == "search" and outcome.result.status is Status.OPTIMAL
    c = outcome.confirmation
    assert c is not None and c.by == "cpsat" and not c.confirmed and c.stopped
    assert outcome.proved_at is not None
    assert WINDOW_MIN <= c.window <= max(1.0, outcome.proved_at)  # the ceiling
    ended = outcome.result.seconds
    assert outcome.proved_at + c.window <= ended
    assert ended <= outcome.proved_at + c.window + WINDOW_GRACE + 5.0  # + reaping, generously
    cpsat = {check.engine: check for check in outcome.checks}["cpsat"]
    assert f"{c.window:.1f} s cross-check window" in cpsat.note


def test_text_and_json_say_the_cross_check_was_not_confirmed_within_its_window(cli, tmp_path):
    path = hanoi(tmp_path, 10)  # CP-SAT's time-indexed model: not within the window
    text = cli("solve", path, "--confirm")
    assert text.code == 0, text.err
    assert re.search(r"not confirmed within \d+\.\d s \(cpsat was stopped\)", text.out)
    out = json.loads(cli("solve", path, "--json", "--confirm").out)
    confirmation = out["race"]["confirmation"]
    assert confirmation["by"] == "cpsat" and confirmation["confirmed"] is False
    assert confirmation["stopped"] is True and confirmation["window"] >= 1.0


def test_a_confirmation_is_said_as_it_happened(cli):
    """Water jugs: CP-SAT usually confirms within its window (on a loaded machine it may
    not): what the text and the JSON say matches the engines' roles either way."""
    out = json.loads(cli("solve", "water_jugs", "--json", "--confirm").out)
    confirmation = out["race"]["confirmation"]
    roles = {e["engine"]: e["role"] for e in out["race"]["engines"]}
    assert confirmation["by"] == "cpsat"
    assert confirmation["confirmed"] is (roles["cpsat"] == "confirmed")
    text = cli("solve", "water_jugs", "--confirm").out
    assert "confirmed by cpsat" in text or "not confirmed within" in text


@pytest.mark.parametrize("confirmed, stopped, same, words", [
    (True, False, False, "confirmed by cpsat"),
    (False, True, False, "not confirmed within 1.2 s (cpsat was stopped)"),
    (False, False, False, "not confirmed by cpsat"),
    (False, False, True, "not cross-checked: cpsat proved it with the same code"),
])
def test_the_confirmation_in_words_and_json(confirmed, stopped, same, words):
    import jsonschema
    from rich.console import Console

    from cpsolve.answers.result import Result, Status
    from cpsolve.engines.auto import Check, Confirmation, Race
    from cpsolve.output.json import race_json
    from cpsolve.output.schema_result import RACE
    from cpsolve.output.text import race_text

    winner = Result(Status.INFEASIBLE, "search", cross_checked_by=("cpsat",) if confirmed
                    else ())
    other = Result(Status.INFEASIBLE if confirmed else Status.UNKNOWN, "cpsat")
    race = Race(winner, (Check("search", winner), Check("cpsat", other)), (),
                Confirmation("cpsat", 1.2, confirmed, stopped, same_proof=same), 0.4)
    console = Console(width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(race_text(race))
    assert words in console.export_text()
    out = race_json(race)
    jsonschema.validate(out, RACE)
    assert out["confirmation"] == {"by": "cpsat", "window": 1.2, "confirmed": confirmed,
                                   "stopped": stopped, "head_start": None, "same_proof": same}


def test_without_a_proof_there_is_no_confirmation(tmp_path):
    """A budget too short for any proof: the race ends with what it has, and no engine is
    said to confirm anything; the race ends before its budget's end plus the grace."""
    from cpsolve.engines import Options
    from cpsolve.engines.auto import race
    from cpsolve.puzzles.files import load

    korf = (ROOT / "models" / "fifteen_korf1.toml").read_text()
    path = tmp_path / "korf1_manhattan.toml"
    path.write_text(korf[:korf.index("[estimate]")] + korf[korf.index("[expected]"):])
    budget = 1.0
    outcome = race("solve", load(path).model, Options(), budget=budget)
    assert outcome.confirmation is None and outcome.proved_at is None
    assert outcome.result.status.value in ("unknown", "solved")
    assert outcome.result.seconds <= budget + 1.0  # the race's own clock: budget + reaping


def test_a_race_without_a_budget_gives_its_racers_no_limit_at_all(monkeypatch):
    """``--time-limit none`` is a race without a budget: its racers get no limit either, not
    the defaults of a run given none — search's optimality proof is not cut at its default
    budget (made all but nothing here) and proves the medium 15-puzzle's optimum, 32 moves
    (its model's ``[expected]``).  Search races alone, so no other proof can stand in."""
    from cpsolve.answers.result import Status
    from cpsolve.engines import Options
    from cpsolve.engines.auto import race
    from cpsolve.engines.search.planning import anytime
    from cpsolve.puzzles.files import load

    monkeypatch.setattr(anytime, "PROOF_SECONDS", 1e-9)  # the racers are forked: theirs too
    model = load(ROOT / "models" / "fifteen_medium.toml").model
    outcome = race("solve", model, Options(), budget=None, engines=("search",))
    assert outcome.result.status is Status.OPTIMAL and outcome.result.steps == 32


# ------------------------------------------------------------------------- interrupted auto


def started(*argv: str):
    """The CLI in a process group of its own (as under ``timeout``), once its racers are
    running: after the first progress line of the search racer on stderr."""
    import os
    import subprocess
    import sys
    import threading

    process = subprocess.Popen([sys.executable, "-m", "cpsolve", *argv],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True, env={**os.environ, "FORCE_COLOR": "1"})
    seen, err = threading.Event(), []

    def read() -> None:
        while chunk := os.read(process.stderr.fileno(), 4096):
            err.append(chunk)
            if b"search:" in b"".join(err[-2:]):
                seen.set()

    threading.Thread(target=read, daemon=True).start()
    assert seen.wait(120), "no progress line from the search racer"
    return process


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_interrupted_auto_prints_what_its_racers_knew(tmp_path, signal_name):
    """``timeout -s INT`` signals the command and then its whole group, so the command gets
    two signals (the second used to raise KeyboardInterrupt: ``error: interrupted`` and
    nothing else) and each racer one.  Every time: exit 130 and the race's partial answer."""
    import os
    import signal

    korf = (ROOT / "models" / "fifteen_korf1.toml").read_text()
    path = tmp_path / "korf1_manhattan.toml"  # no pattern databases: minutes to prove
    path.write_text(korf[:korf.index("[estimate]")] + korf[korf.index("[expected]"):])
    process = started("solve", str(path), "--json")
    sig = getattr(signal, signal_name)
    os.kill(process.pid, sig)
    os.killpg(process.pid, sig)
    out, _ = process.communicate(timeout=60)  # a guard against a hang, not a time check
    assert process.returncode == 130
    data = json.loads(out)
    assert data["status"] in ("unknown", "solved")
    assert data.get("plan") or data["bound"] is not None  # a plan found, or a bound
    engines = {e["engine"]: e for e in data["race"]["engines"]}
    assert set(engines) == {"search", "cpsat"}
    assert engines["search"]["status"] is not None  # search was running: it answers
    assert all("interrupted" in e["note"] for e in engines.values())
    assert data["race"]["confirmation"] is None


# ---------------------------------------------------------------- search's head start


def test_search_alone_first_on_a_model_it_is_expected_to_win(cli):
    """Water jugs (96 states): search proves the 10 moves within its head start, CP-SAT is
    never started, and the text and JSON say so; --confirm races both from the start."""
    import jsonschema

    from cpsolve.engines.auto import HEAD_START
    from cpsolve.output.schema import schema

    out = json.loads(cli("solve", "water_jugs", "--json").out)
    jsonschema.validate(out, schema())
    assert out["steps"] == 10 and out["status"] == "optimal" and out["engine"] == "search"
    confirmation = out["race"]["confirmation"]
    engines = {e["engine"]: e for e in out["race"]["engines"]}
    if confirmation["head_start"] is None:  # a machine so loaded that 0.3 s was not enough
        assert engines["cpsat"]["status"] is not None or "window" in engines["cpsat"]["note"]
        return
    assert confirmation == {"by": "cpsat", "window": 0.0, "confirmed": False,
                            "stopped": False, "head_start": HEAD_START, "same_proof": False}
    assert engines["cpsat"]["status"] is None
    assert engines["cpsat"]["note"].startswith("not started: search proved the answer")
    assert "not cross-checked by cpsat (--confirm" in cli("solve", "water_jugs").out


@pytest.mark.parametrize("confirm", [False, True])
def test_the_head_start_rule(confirm, tmp_path):
    """Who gets a head start: a csp, a planning model with an estimate or a small space —
    not a large space without an estimate, not with --confirm, not without search."""
    from cpsolve.engines.auto import HEAD_START, SMALL_SPACE, head_start
    from cpsolve.model import Csp, Planning

    both = ("search", "cpsat")
    csp = Csp()
    csp.add_variable("x", 0, 3)
    small = Planning()
    small.add_variable("x", 0, 9)
    large = Planning()
    for i in range(7):  # 10**7 states > SMALL_SPACE
        large.add_variable(f"x{i}", 0, 9)
    assert 10**7 > SMALL_SPACE
    expected = 0.0 if confirm else HEAD_START
    assert head_start(csp, 60, both, confirm) == expected
    assert head_start(small, 60, both, confirm) == expected
    assert head_start(large, 60, both, confirm) == 0.0
    assert head_start(csp, 1.0, both, confirm) == (0.0 if confirm else 0.1)  # a tenth
    assert head_start(csp, 60, ("cpsat",), confirm) == 0.0
    assert head_start(csp, 60, ("cpsat", "search"), confirm) == 0.0


def test_confirm_needs_auto(cli):
    run = cli("solve", "water_jugs", "--engine", "search", "--confirm")
    assert run.code == 2 and "--confirm" in run.err


BLOCKS = """family = "sliding"
metric = "path"
blocks = ["v", "h"]
start = \"\"\"
v a _
v h h
b _ _
\"\"\"
goal_pieces = { v = [2, 3] }
"""
PUSHES = """family = "sokoban"
metric = "pushes"
board = \"\"\"
######
#    #
#@$ .#
######
\"\"\"
"""
INFINITE = ("search: infinitely many optimal plans (a cycle of actions that cost 0 lies on "
            "an optimal plan), so they cannot be counted")


@pytest.mark.parametrize("text", [BLOCKS, PUSHES], ids=["path metric", "pushes"])
def test_infinitely_many_optimal_plans_get_one_verdict_from_every_engine(cli, tmp_path, text):
    """In both models a piece (the player) can walk back and forth at no cost (a route move
    goes on for free; walking costs no push) on the way of an optimal plan, so there are
    infinitely many optimal plans: search proves it, and auto says so as search does alone,
    neither 'unknown' (no limit was hit) nor with cpsat's advice to try search."""
    path = tmp_path / "model.toml"
    path.write_text(text)
    alone = cli("count", path, "--optimal", "--engine", "search")
    assert alone.code == 2 and alone.err.strip() == f"error: {INFINITE}"
    auto = cli("count", path, "--optimal", "--time-limit", "20")
    assert (auto.code, auto.err, auto.out) == (2, alone.err, "")
    data = json.loads(cli("count", path, "--optimal", "--time-limit", "20", "--json").out)
    assert data["exit"] == 2 and data["error"] == INFINITE
    cpsat = cli("count", path, "--optimal", "--engine", "cpsat", "--time-limit", "20")
    assert cpsat.code == 2 and len(cpsat.err_lines) == 1 and "cpsat: cannot count" in cpsat.err


def test_in_turn_asks_cpsat_only_for_what_search_did_not_prove():
    """A batch's ``auto``, the engines one after the other: search proves the water jugs'
    10 moves (DESIGN.md), so CP-SAT is not started, and the race's verdict names search."""
    from cpsolve.engines import Options
    from cpsolve.engines.auto.turns import in_turn
    from cpsolve.puzzles.files import load, resolve

    race = in_turn("solve", load(resolve("water_jugs")).model, Options(time_limit=30))
    assert race.result.engine == "search" and race.result.answer.cost == 10
    assert [(c.engine, c.started) for c in race.checks] == [("search", True), ("cpsat", False)]
    assert race.bugs == ()


def test_in_turn_gives_cpsat_its_turn_without_searchs_algorithm():
    """A batch's ``--algorithm`` is search's: CP-SAT, which has none and refuses one through
    the API, runs without it.  ``bidir`` needs one goal state and the water jugs have many,
    so search refuses it and CP-SAT answers the 10 moves."""
    from cpsolve.engines import Options
    from cpsolve.engines.auto.turns import in_turn
    from cpsolve.puzzles.files import load, resolve

    race = in_turn("solve", load(resolve("water_jugs")).model,
                   Options(time_limit=30, algorithm="bidir"))
    assert race.result.engine == "cpsat" and race.result.answer.cost == 10
    assert race.bugs == ()


@pytest.mark.parametrize(("cpsat", "kept"), [
    ({"message": "time limit reached before cpsat started"}, "search"),
    ({"bound": 31}, "cpsat"),
])
def test_in_turn_keeps_what_search_knew_when_cp_sat_knew_less(monkeypatch, cpsat, kept):
    """CP-SAT not started in time (nothing known) does not replace search's bound of 15; a
    higher bound of CP-SAT's does (the race's verdict chooses, as in ``solve``)."""
    from cpsolve.answers.result import Result, Status
    from cpsolve.engines import Options
    from cpsolve.engines.auto import turns
    from cpsolve.puzzles.files import load, resolve

    def run(engine, task, model, options):
        if engine == "search":
            return Result(Status.UNKNOWN, "search", task, bound=15)
        return Result(Status.UNKNOWN, "cpsat", task, **cpsat)

    monkeypatch.setattr(turns, "run", run)
    race = turns.in_turn("solve", load(resolve("water_jugs")).model, Options(time_limit=10))
    assert race.result.engine == kept


def test_in_turn_starts_cpsat_after_search_was_stopped_at_the_memory_limit(monkeypatch):
    """Search stopped at the memory limit proved nothing, so CP-SAT runs (a batch's
    ``auto``: docs/how-to/batches.md) on its own account: the stop asked during search's
    run left CP-SAT 'not started: memory limit ... reached'.  Here CP-SAT's run is the real
    one: the water jugs in 10 moves (DESIGN.md)."""
    from cpsolve.answers.result import Result, Status
    from cpsolve.engines import Options
    from cpsolve.engines.auto import turns
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.stop import Stop
    from cpsolve.puzzles.files import load, resolve

    real = turns.run

    def run(engine, task, model, options):
        if engine == "search":  # as the memory watch asks during its run
            interrupt.request("memory limit 150 MiB reached", Stop.MEMORY)
            return Result(Status.UNKNOWN, "search", task, message="memory limit reached")
        return real(engine, task, model, options)

    monkeypatch.setattr(turns, "run", run)
    try:
        race = turns.in_turn("solve", load(resolve("water_jugs")).model,
                             Options(time_limit=30))
    finally:
        interrupt.clear()
    assert [(c.engine, c.started) for c in race.checks] == [("search", True), ("cpsat", True)]
    assert race.result.engine == "cpsat" and race.result.answer.cost == 10


# --------------------------------------------------------------- stopped at the time limit


def test_racers_stopped_at_the_budget_without_an_answer_say_the_limit_s_figure(monkeypatch):
    """Both racers still running at the race's end (deaf to the stop asked for: each is
    killed past its grace) said "stopped at the time limit", the one stop whose words did
    not name the limit, as every other stop does (``time limit 2 s reached``).  The figure
    is the user's limit (2 s here), not the race's budget, a little less (1.7 s).  Both
    start at once (``confirm``: no head start for search)."""
    import time

    from cpsolve.engines import Options
    from cpsolve.engines.auto import racing
    from cpsolve.engines.runtime.clock import state_limit
    from cpsolve.puzzles.files import load

    def deaf(*args, **kwargs):  # the racers are forked: they run this
        end = time.monotonic() + 30  # never looks at the stop asked for
        while time.monotonic() < end:
            time.sleep(0.01)

    monkeypatch.setattr(racing, "run", deaf)
    model = load(ROOT / "models" / "water_jugs.toml").model
    state_limit(2.0)
    try:
        outcome = racing.race("solve", model, Options(), budget=1.7, confirm=True)
    finally:
        state_limit(None)
    stopped = "stopped at the time limit (2 s) without an answer"
    assert outcome.result.message == f"search: {stopped}; cpsat: {stopped}"
    assert [c.note for c in outcome.checks] == [stopped, stopped]


def test_a_race_stopped_at_its_budget_outside_a_command_names_the_budget():
    """Without a command's limit (the Python API), the figure is the race's budget: in the
    racers' notes, and in what the racers still running are told stopped them (which they
    said as "time limit reached")."""
    from cpsolve.engines.auto.outcome import Ending, Watch
    from cpsolve.engines.auto.verdict import stopped_note
    from cpsolve.engines.auto.waiting import why_stopped
    from cpsolve.engines.runtime.stop import Stop

    watch = Watch(ending=Ending.LIMIT, limit=60.0)
    assert stopped_note(watch) == "stopped at the time limit (60 s)"
    assert why_stopped(watch) == (Stop.TIME, "time limit 60 s reached")


def test_a_racer_gets_the_callers_options_a_hint_too():
    """A hint handed to ``auto`` through the Python API reaches CP-SAT's racer (it was
    dropped, with every option the race did not list): the result reports it, refused here
    by the replay since no action has its name."""
    from cpsolve.engines import Options
    from cpsolve.engines.auto import race
    from cpsolve.puzzles.files import load

    model = load(ROOT / "models" / "water_jugs.toml").model
    outcome = race("solve", model, Options(hint=("no such action",)), budget=60,
                   engines=("cpsat",))
    assert outcome.result.hint is not None and outcome.result.hint.source == "given"
    assert outcome.result.hint.verdict == "rejected"
