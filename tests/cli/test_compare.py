"""Agreement between engines: results that can both be right, and results that cannot;
and the compare command: which engines run, and the time each gets."""

from __future__ import annotations

import json

import pytest

from cpsolve.answers.agreement import PROOF_BY, answer_of, cross_check, disagreements, same_proof
from cpsolve.answers.result import Analysis, Assignment, Count, Plan, Result, Status, Step

OPT, SOL, INF, UNK = Status.OPTIMAL, Status.SOLVED, Status.INFEASIBLE, Status.UNKNOWN
EXACT, AT_LEAST = Status.EXACT, Status.AT_LEAST


def plan(n: int, cost: int = 1) -> tuple[Step, ...]:
    return tuple(Step(f"a{i}", (i,), cost) for i in range(n))


def planned(engine: str, status: Status, steps: int, **kw) -> Result:
    return Result(status, engine, answer=Plan.of(plan(steps)), **kw)


def counted(engine: str, status: Status, count: int, **kw) -> Result:
    return Result(status, engine, task="count", answer=Count(count), **kw)


def solved(engine: str, unique: bool, second: dict | None = None) -> Result:
    return Result(SOL, engine, answer=Assignment({"x": 1}, unique, second))


def maximized(engine: str, status: Status, objective: int, **kw) -> Result:
    return Result(status, engine, answer=Assignment({"x": objective}, objective=objective,
                                                    minimizing=False), **kw)


def analysed(engine: str, states: int) -> Result:
    return Result(Status.COMPLETE, engine, task="analyze",
                  answer=Analysis(states, (1, states - 1), "goal", 1))


# ------------------------------------------------------------ agreement


@pytest.mark.parametrize("results", [
    [],
    [planned("cpsat", OPT, 10)],
    [planned("cpsat", OPT, 10), planned("search", OPT, 10)],
    [planned("cpsat", OPT, 10), planned("search", SOL, 12)],  # a longer plan, not optimal
    [planned("cpsat", SOL, 12), planned("search", SOL, 14)],  # no optimality claimed
    [Result(INF, "cpsat"), Result(INF, "search")],
    [counted("cpsat", EXACT, 960), counted("search", EXACT, 960),
     counted("pyconstraint", EXACT, 960)],
    [counted("pyconstraint", EXACT, 960), counted("cpsat", AT_LEAST, 512)],  # at least 512
    [solved("pyconstraint", True), solved("cpsat", True)],
    [planned("cpsat", OPT, 10), Result(UNK, "search", bound=9)],  # proved >= 9: consistent
    [planned("cpsat", OPT, 10), Result(UNK, "search", bound=10)],
    [Result(INF, "cpsat"), Result(UNK, "search", bound=30)],
    [analysed("cpsat", 540), analysed("search", 540)],
    # plans not proven optimal with the lower bounds each proved: 108 >= 58 >= 54, 50
    [planned("cpsat", SOL, 108, bound=54), planned("search", SOL, 108, bound=58),
     Result(UNK, "fd", bound=50)],
    [planned("cpsat", OPT, 60), planned("search", SOL, 108, bound=60)],
    # maximise: the best found, 7, under the proven upper bound 9, the optimum 9
    [maximized("cpsat", SOL, 7, bound=9), maximized("search", OPT, 9)],
])
def test_agreeing_results(results):
    assert disagreements(results) == []


# ------------------------------------------------------------ disagreement


@pytest.mark.parametrize("a, b, fragment", [
    (planned("cpsat", OPT, 10), planned("search", OPT, 11), "both claim optimal, 10 and 11"),
    (planned("cpsat", OPT, 10), planned("search", SOL, 9),
     "a plan of 9 beats the claimed optimum 10"),
    (planned("cpsat", SOL, 9), planned("search", OPT, 10),
     "a plan of 9 beats the claimed optimum 10"),
    (Result(INF, "cpsat"), planned("search", OPT, 10), "no answer"),
    (planned("cpsat", SOL, 10), Result(INF, "search"), "no answer"),
    (Result(INF, "cpsat"), solved("pyconstraint", True), "no answer"),
    (counted("cpsat", EXACT, 912), counted("pyconstraint", EXACT, 960),
     "exact counts differ: 912 and 960"),
    (solved("pyconstraint", True), solved("cpsat", False, {"x": 2}), "uniqueness"),
    (planned("cpsat", OPT, 10), Result(UNK, "search", bound=11), "below the proven bound 11"),
    (Result(UNK, "search", bound=11), planned("cpsat", SOL, 10), "below the proven bound 11"),
    (analysed("cpsat", 540), analysed("search", 541), "540 and 541"),
    # a proven optimum, or any plan, below a lower bound that another engine proved while
    # it found a plan of its own (not proven optimal): one of them is wrong
    (planned("cpsat", OPT, 60), planned("search", SOL, 108, bound=61),
     "cpsat found 60, below the proven bound 61"),
    (planned("cpsat", SOL, 108, bound=58), planned("search", SOL, 55, bound=50),
     "search found 55, below the proven bound 58"),
    # maximise: a csp's bound is an upper bound on the objective
    (maximized("cpsat", SOL, 7, bound=9), maximized("search", OPT, 10),
     "search found 10, above the proven bound 9"),
])
def test_disagreeing_results(a, b, fragment):
    found = disagreements([a, b])
    assert len(found) == 1
    assert found[0].startswith(f"{a.engine} vs {b.engine}: ")
    assert fragment in found[0]


def test_costs_are_compared_not_lengths():
    """With costs (e.g. peg moves), a longer plan may be the cheaper one."""
    cheap = Result(OPT, "cpsat", answer=Plan(plan(11, cost=0), 7))
    same_cost = Result(OPT, "search", answer=Plan(plan(12, cost=0), 7))
    assert disagreements([cheap, same_cost]) == []
    dearer = Result(OPT, "search", answer=Plan.of(plan(9, cost=1)))
    assert "both claim optimal, 7 and 9" in disagreements([cheap, dearer])[0]


def test_every_pair_is_reported():
    results = [planned("cpsat", OPT, 10), planned("search", OPT, 11), planned("iddfs", OPT, 12)]
    found = disagreements(results)
    assert [f.split(":")[0] for f in found] == ["cpsat vs search", "cpsat vs iddfs",
                                                "search vs iddfs"]


def test_answer_of():
    assert answer_of(planned("x", OPT, 10)) == "10 steps"
    assert answer_of(Result(OPT, "x", answer=Plan(plan(11, 0), 7))) == "cost 7 (11 steps)"
    assert answer_of(counted("x", EXACT, 960)) == "960 solutions"
    assert answer_of(counted("x", AT_LEAST, 10)) == "at least 10 solutions"
    assert answer_of(Result(INF, "x")) == "infeasible (proven)"
    assert answer_of(Result(UNK, "x", bound=9)) == "unknown, bound 9"
    assert answer_of(solved("x", True)) == "unique solution"
    assert answer_of(solved("x", False)) == "several solutions"
    assert answer_of(solved("x", None)) == "a solution"  # uniqueness not looked for


def test_cross_check_names_the_engines_that_agree():
    results = cross_check([planned("cpsat", OPT, 10), planned("search", OPT, 10),
                           planned("pyconstraint", SOL, 12), counted("x", EXACT, 3)])
    assert [r.cross_checked_by for r in results] == [("search",), ("cpsat",), (), ()]
    exact = cross_check([counted("cpsat", EXACT, 960), counted("pyconstraint", EXACT, 960),
                         counted("search", AT_LEAST, 10)])
    assert [r.cross_checked_by for r in exact] == [("pyconstraint",), ("cpsat",), ()]


def test_the_same_proof_reported_by_two_engines_cross_checks_nothing():
    """CP-SAT's "no plan" by the search engine's exhaustion, and the invariant proof both
    engines share, are one proof each: only an engine with a proof of its own (fd)
    cross-checks them."""
    cpsat = Result(INF, "cpsat", proof="exhausted search", details={PROOF_BY: "search"})
    search = Result(INF, "search", proof="exhausted search")
    fd = Result(INF, "fd", proof="exhausted search")
    assert [r.cross_checked_by for r in cross_check([cpsat, search])] == [(), ()]
    assert [r.cross_checked_by for r in cross_check([cpsat, search, fd])] == \
        [("fd",), ("fd",), ("cpsat", "search")]
    shared = [Result(INF, e, proof="invariant") for e in ("cpsat", "search")]
    assert [r.cross_checked_by for r in cross_check(shared)] == [(), ()]
    assert same_proof(cpsat, search) and not same_proof(cpsat, fd)


# ------------------------------------------------------------ gaps found while writing these


def test_lower_bound_on_a_count_above_an_exact_count():
    assert disagreements([counted("cpsat", EXACT, 960),
                          counted("pyconstraint", AT_LEAST, 1000)])



# ------------------------------------------------------------ the table


def test_the_table_puts_a_skipped_engine_in_its_column_and_a_note_under_the_table():
    """An engine that did not run is a typed row (its name, why), never text split at ': ';
    a note (a disagreement) keeps its colons and is a whole line under the table, after
    the model's name, not a sliver of the answer column."""
    from rich.console import Console

    from cpsolve.answers.result import Skipped
    from cpsolve.output.text import comparison_table
    from cpsolve.puzzles.files import MODELS_DIR, load

    puzzle = load(MODELS_DIR / "water_jugs.toml")
    note = "DISAGREEMENT: cpsat: 10 moves, search: 11 moves"
    rows = [(puzzle, Skipped("my-engine", "tool: not installed")), (puzzle, note)]
    console = Console(width=80, record=True)
    console.print(comparison_table(rows))
    text = console.export_text().splitlines()
    lines = [[cell.strip() for cell in line.split("│")[1:-1]]
             for line in text if line.startswith("│")]
    assert text[0] == puzzle.name  # one model: its name above the table, no model column
    assert lines[0][0:2] == ["my-engine", "tool: not installed"]
    assert text[-1] == f"{puzzle.name}: {note}"
    assert str(Skipped("fd", "not applicable")) == "fd: not applicable"


def test_an_error_under_the_table_is_one_line_at_80_columns(cli, tmp_path):
    """``compare bad.toml water_jugs | cat`` (80 columns): the bad file's error, 180
    characters, was broken by rich into three lines mid-sentence (its path could not be
    copied whole); it is one line, as on stderr and as every other error of cpsolve."""
    bad = tmp_path / "some" / "longer" / "directory" / "bad_model_file.toml"
    bad.parent.mkdir(parents=True)
    bad.write_text('family = "grid"\nsize = 4\ngroups = ["rows"]\nbogus_key_here = 1\n')
    run = cli("compare", bad, "water_jugs", width="80")
    told = [line for line in run.err.splitlines() if "bogus_key_here" in line]
    assert len(told) == 1 and len(told[0]) > 80 and told[0].startswith(f"error: {bad}: ")
    assert told[0] in run.out.splitlines()  # the same line, whole, under the table
    table = run.out.split(told[0])[0].splitlines()
    assert table and all(len(line) <= 80 for line in table)  # the table still fits


# ------------------------------------------------------------ compare: engines and budgets


def _models(*names: str):
    from cpsolve.puzzles.files import load, resolve

    return {name: load(resolve(name)) for name in names}


def test_compare_runs_the_peers_and_lists_the_engines_it_skipped(cli):
    """Every engine that applies runs (fd and minizinc when installed); the others are
    listed, each with its reason, in the JSON report as in the table."""
    from cpsolve.engines import engines_for, installed, not_applicable

    run = cli("compare", "water_jugs", "latin4", "--json")
    assert run.code == 0, run.err
    report = {m["file"]: m for m in json.loads(run.out)["models"]}
    for name, puzzle in _models("water_jugs", "latin4").items():
        model = puzzle.model
        assert [r["engine"] for r in report[name]["results"]] == \
            engines_for(model, "solve", peers=True)
        assert [s["engine"] for s in report[name]["skipped"]] == \
            not_applicable(model, "solve")
        assert all(s["reason"].startswith("not applicable (cannot solve a")
                   for s in report[name]["skipped"])
    assert ("fd" in {r["engine"] for r in report["water_jugs"]["results"]}) == installed("fd")
    assert ("minizinc" in {r["engine"] for r in report["latin4"]["results"]}) == \
        installed("minizinc")
    table = cli("compare", "water_jugs", "latin4").out
    for name in not_applicable(_models("water_jugs")["water_jugs"].model, "solve"):
        assert f"{name}" in table and "not applicable (cannot solve a planning model)" in table


def _recorded(monkeypatch) -> list[tuple[str, float | None]]:
    """Each engine run by compare as (engine, time limit), answering unknown at once."""
    import cpsolve.workflows.batch.comparing
    from cpsolve.answers.result import Result, Status

    given: list[tuple[str, float | None]] = []

    def run(engine, task, model, options):
        given.append((engine, options.time_limit))
        return Result(Status.UNKNOWN, engine, task=task)

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    return given


def test_compare_gives_each_model_the_default_budget_split_among_its_engines(
        cli, monkeypatch):
    import cpsolve.cli.session

    monkeypatch.setattr(cpsolve.cli.session, "AUTO_BUDGET", 30.0)
    given = _recorded(monkeypatch)
    run = cli("compare", "water_jugs", "blocks", "--json")
    assert run.code == 1, run.err  # every engine answered unknown: no answer (issue 21)
    engines = [engine for engine, _ in given]
    per_model = len(engines) // 2
    assert engines[:per_model] == engines[per_model:]
    for model in (given[:per_model], given[per_model:]):
        # each engine: an equal share of what is left of the model's 30 s
        assert all(limit <= 30.0 / (per_model - i) for i, (_, limit) in enumerate(model))
        assert model[0][1] > 30.0 / per_model - 1.0  # an order: it is the model's own budget


def test_compare_shares_the_time_limit_among_the_models(cli, monkeypatch):
    import cpsolve.engines

    monkeypatch.setattr(cpsolve.engines, "START_COST", {})  # no start to pay (tested below)
    given = _recorded(monkeypatch)
    run = cli("compare", "water_jugs", "blocks", "--time-limit", "20", "--json")
    assert run.code == 1, run.err  # every engine answered unknown: no answer (issue 21)
    per_model = len(given) // 2
    first, second = given[:per_model], given[per_model:]
    # the first model: half of the limit, its first engine a share of that; the last
    # model: what is left; no engine more than its model's budget
    assert first[0][1] <= 20.0 / 2 / per_model and second[0][1] <= 20.0 / per_model
    assert all(limit <= 20.0 / 2 for _, limit in first)
    assert all(limit <= 20.0 for _, limit in second)
    none = cli("compare", "water_jugs", "--time-limit", "none", "--json")
    assert none.code == 1 and all(limit is None for _, limit in given[2 * per_model:])


def test_compare_names_the_engines_not_run_after_ctrl_c(cli, monkeypatch):
    """A stop asked for while a model's first engine runs: the later engines and models
    are not run, the report says so (each model listed: its engines not run, or the file
    whose turn had not come as not loaded), exit 130."""
    import cpsolve.workflows.batch.comparing
    from cpsolve.answers.result import Result, Status
    from cpsolve.engines.runtime import interrupt

    def run(engine, task, model, options):
        interrupt.request()  # as Ctrl-C would
        return Result(Status.UNKNOWN, engine, task=task)

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    try:
        done = cli("compare", "water_jugs", "blocks", "--json")
    finally:
        interrupt.clear()
    assert done.code == 130
    first, second = json.loads(done.out)["models"]
    assert first["file"] == "water_jugs" and len(first["results"]) == 1
    assert {s["reason"] for s in first["skipped"]
            if not s["reason"].startswith("not applicable")} == {"not run: interrupted"}
    # each file loads when its turn comes: after the stop, the second one never loaded
    assert second == {"source": "blocks", "error": "not loaded: interrupted"}


def test_compare_of_one_file_that_loads_past_the_limit_is_a_limit_not_bad_input(
        cli, monkeypatch):
    """Exit 1 (a limit), as ``solve`` gives, not 2: the file itself is fine (seen under load,
    where loading a model may take the whole of a short limit)."""
    from cpsolve.engines.runtime.clock import TimeUp
    from cpsolve.workflows.batch import items

    def slow(path):
        raise TimeUp(f"loading {path}", 1.5)

    monkeypatch.setattr(items, "load_many", slow)
    run = cli("compare", "water_jugs", "--time-limit", "1.5", "--json")
    assert run.code == 1, run.err
    assert "time limit (1.5 s) was reached while loading" in run.err
    assert json.loads(run.out)["status"] == "error"


def test_a_comparison_where_no_engine_answered_claims_no_agreement(cli):
    """English 33 in moves takes search about 25 s and CP-SAT longer: within 1 s no engine
    answers, so there is nothing to compare — not "all engines agree"."""
    import jsonschema

    from cpsolve.output.schema import schema

    run = cli("compare", "english33_moves", "--time-limit", "1", "--json")
    out = json.loads(run.out)
    jsonschema.validate(out, schema())
    assert (run.code, out["status"]) == (1, "unanswered")
    text = cli("compare", "english33_moves", "--time-limit", "1")
    assert "no engine answered" in text.out and "all engines agree" not in text.out


# ------------------------------------------------------------ compare: limits and stops


def _answering(monkeypatch, answers: dict[str, Status], stop=None) -> list[str]:
    """compare's engines answer ``answers[engine]`` at once (unknown when not named); the
    first run calls ``stop()`` (a stop asked for, or ``KeyboardInterrupt``) if given.  A
    model that carries its own argument that no plan exists goes to the real door, which
    answers with it before any engine starts (not recorded: no engine ran)."""
    import cpsolve.workflows.batch.comparing
    from cpsolve.answers.result import Result

    ran: list[str] = []
    door = cpsolve.workflows.batch.comparing.run

    def run(engine, task, model, options):
        if getattr(model, "unsolvable", None) is not None:
            return door(engine, task, model, options)
        ran.append(engine)
        if stop is not None and len(ran) == 1:
            stop()
        status = answers.get(engine, Status.UNKNOWN)
        answer = Plan.of(plan(10)) if status in (OPT, SOL) else None
        return Result(status, engine, task=task, answer=answer)

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    return ran


def test_compare_lists_every_model_the_time_limit_came_before(cli, monkeypatch):
    """The command's limit reached during the first model (its clock asks the engines to
    stop): the other models are still in the report, their files not loaded for that
    reason (each file loads when its turn comes), and no agreement is claimed (exit 1) —
    they were never compared."""
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.stop import Stop

    def limit():
        interrupt.request("time limit 9 s reached", Stop.TIME)

    _answering(monkeypatch, {"search": OPT}, limit)
    run = cli("compare", "water_jugs", "hanoi4", "blocks", "--json")
    assert run.code == 1, run.err
    out = json.loads(run.out)
    assert out["models"][0]["file"] == "water_jugs"
    assert out["status"] != "agree"
    assert out["models"][1:] == [
        {"source": name, "error": "not loaded: time limit 9 s reached"}
        for name in ("hanoi4", "blocks")]
    _answering(monkeypatch, {"search": OPT}, limit)  # the first run of the next command
    text = cli("compare", "water_jugs", "hanoi4", "blocks")
    assert text.code == 1 and "all engines agree" not in text.out
    assert text.out.count("not loaded: time limit 9 s reached") == 2, text.out


def test_a_model_only_one_engine_answered_is_not_cross_checked(cli, monkeypatch):
    """search answers, every other engine is stopped by the limit: nothing was compared, so
    the model's ``agree`` is null, the status ``incomplete`` (not ``agree``), and the text
    says which engine alone answered; every model answered, so the exit stays 0."""
    import jsonschema

    from cpsolve.output.schema import schema

    _answering(monkeypatch, {"search": OPT})
    run = cli("compare", "water_jugs", "--json")
    out = json.loads(run.out)
    jsonschema.validate(out, schema())
    assert (run.code, out["status"], out["models"][0]["agree"]) == (0, "incomplete", None)
    text = cli("compare", "water_jugs")
    assert "not cross-checked: only search answered" in text.out
    assert "all engines agree" not in text.out


def test_plans_not_proven_optimal_are_not_cross_checked(cli, monkeypatch):
    """cpsat and search each give a plan of 10 steps, neither proven optimal (CP-SAT's may
    be the very plan search handed it as a hint): no engine answered "the least cost", so
    nothing was cross-checked — status ``incomplete``, ``agree`` null, never "all engines
    agree" — though every model has an answer (exit 0)."""
    _answering(monkeypatch, {"search": SOL, "cpsat": SOL})
    run = cli("compare", "water_jugs", "--json")
    out = json.loads(run.out)
    assert (run.code, out["status"], out["models"][0]["agree"]) == (0, "incomplete", None)
    _answering(monkeypatch, {"search": SOL, "cpsat": SOL})
    text = cli("compare", "water_jugs")
    assert "not cross-checked: no engine proved its answer" in text.out
    assert "all engines agree" not in text.out
    _answering(monkeypatch, {"search": OPT, "cpsat": SOL})  # one proof: still one
    text = cli("compare", "water_jugs")
    assert "not cross-checked: only search proved its answer" in text.out


def test_two_engines_that_answer_alike_agree(cli, monkeypatch):
    """The same optimum from cpsat and search (the others unknown): cross-checked."""
    _answering(monkeypatch, {"search": OPT, "cpsat": OPT})
    run = cli("compare", "water_jugs", "--json")
    out = json.loads(run.out)
    assert (run.code, out["status"], out["models"][0]["agree"]) == (0, "agree", True)


def test_ctrl_c_that_stops_an_engine_at_once_keeps_the_comparison(cli, monkeypatch):
    """``KeyboardInterrupt`` out of an engine (a second Ctrl-C, or a first one it did not
    answer within a second): that engine's work is lost, not the report — the interrupted
    object lists every model, exit 130."""
    from cpsolve.engines.runtime import interrupt

    def ctrl_c():
        interrupt.request()
        raise KeyboardInterrupt

    ran = _answering(monkeypatch, {}, ctrl_c)
    try:
        run = cli("compare", "water_jugs", "blocks", "--json")
    finally:
        interrupt.clear()
    assert run.code == 130, run.err
    out = json.loads(run.out)
    assert out["status"] == "interrupted" and len(ran) == 1
    assert [m.get("file", m.get("source")) for m in out["models"]] == ["water_jugs", "blocks"]
    assert out["models"][1]["error"] == "not loaded: interrupted"  # its turn came after
    first = out["models"][0]["results"]
    assert [r["engine"] for r in first] == ran
    assert "stopped at once" in first[0]["message"]


def test_ctrl_c_between_two_engines_keeps_the_models_before(cli, monkeypatch):
    """``KeyboardInterrupt`` outside any engine (the progress line of the second model's
    first engine): the first model's comparison stays, the second is listed as not run."""
    from contextlib import contextmanager

    import cpsolve.cli.compare
    from cpsolve.engines.runtime import interrupt

    _answering(monkeypatch, {"search": OPT, "cpsat": OPT})
    started: list[str] = []
    real = cpsolve.cli.compare._running

    @contextmanager
    def running(cli_, name, end, engine):
        started.append(name)
        if len(set(started)) == 2:
            raise KeyboardInterrupt
        with real(cli_, name, end, engine) as options:
            yield options

    monkeypatch.setattr(cpsolve.cli.compare, "_running", running)
    try:
        run = cli("compare", "water_jugs", "hanoi4", "--json")
    finally:
        interrupt.clear()
    assert run.code == 130, run.err
    out = json.loads(run.out)
    assert out["status"] == "interrupted"
    assert out["models"][0]["agree"] is True
    assert [m["file"] for m in out["models"]] == ["water_jugs", "hanoi4"]


def test_an_engine_with_a_start_to_pay_gets_it_on_top_of_its_share(monkeypatch):
    """Three engines and 3.0 s left: with no start to pay, 1.0 s each; a start of 0.6 s for
    the first (CP-SAT's import) is paid on top of its share of the rest, (3.0 - 0.6) / 3
    + 0.6 = 1.4 s; a start of 2 s (more than half of what is left) is not kept for, the
    engine will not start: 1.0 s."""
    from cpsolve.engines.runtime.clock import Clock
    from cpsolve.workflows.batch import comparing

    clock = Clock(3.0, now=lambda: 0.0)
    for cost, expected in [(0.0, 1.0), (0.6, 1.4), (2.0, 1.0)]:
        monkeypatch.setattr(comparing, "start_seconds",
                            lambda engines, c=cost: c if "cpsat" in engines else 0.0)
        assert comparing.engine_share(clock, ["cpsat", "search", "fd"]) == \
            pytest.approx(expected)
        # the engine after it keeps time for that start only when it is affordable
        assert comparing.engine_share(clock, ["search", "cpsat"]) == \
            pytest.approx(1.5 if cost != 0.6 else (3.0 - 0.6) / 2)


def test_compare_runs_its_own_engines_first_and_a_start_to_pay_last(cli, monkeypatch):
    """cpsolve's own engines run before the peers (an external tool only has what they
    left: Fast Downward once took a model's whole budget before CP-SAT's turn came), and
    among them CP-SAT, whose import is still to come, after search (a short limit is not
    spent on the import before it); the results are listed in the engines' order."""
    from cpsolve.engines import PEERS, engines_for
    from cpsolve.workflows.batch import comparing

    monkeypatch.setattr(comparing, "start_seconds",
                        lambda engines: 0.3 if "cpsat" in engines else 0.0)
    ran = _answering(monkeypatch, {"search": OPT, "cpsat": OPT})
    run = cli("compare", "water_jugs", "--json")
    order = engines_for(_models("water_jugs")["water_jugs"].model, "solve", peers=True)
    peers = [e for e in order if e in PEERS]
    assert ran == ["search", "cpsat", *peers]
    results = json.loads(run.out)["models"][0]["results"]
    assert [r["engine"] for r in results] == order


def test_a_count_stopped_at_at_least_is_no_answer_to_agree_with(cli, monkeypatch):
    """queens8 counted: search's exact 92 beside counts the limit stopped at "at least"
    (92 and 0, both true as lower bounds): only one engine answered, so nothing was
    cross-checked — no agreement claimed."""
    import cpsolve.workflows.batch.comparing
    from cpsolve.answers.kinds import Count
    from cpsolve.answers.result import Result

    def run(engine, task, model, options):
        if engine == "search":
            return Result(Status.EXACT, engine, task="count", answer=Count(92))
        return Result(Status.AT_LEAST, engine, task="count",
                      answer=Count(92 if engine == "cpsat" else 0))

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    out = json.loads(cli("compare", "queens8", "--task", "count", "--json").out)
    assert (out["status"], out["models"][0]["agree"]) == ("incomplete", None)


def test_a_cluster_compare_counts_what_it_could_not_cross_check():
    """The cluster's last line counts a model only one engine answered as ``unchecked``,
    never as ``agree``."""
    from cpsolve.answers.result import Result
    from cpsolve.cli import compare_cluster as command
    from cpsolve.workflows.batch.comparing import Compared

    alone = (Result(OPT, "search", answer=Plan.of(plan(10))),)
    assert command._outcome(Compared("w.toml", None, results=alone)) == "unchecked"
    both = (*alone, Result(OPT, "cpsat", answer=Plan.of(plan(10))))
    assert command._outcome(Compared("w.toml", None, results=both)) == "agree"
    assert command._outcome(Compared("x.toml", None, error="bad")) == "error"


def test_a_cluster_compare_counts_a_model_with_an_engine_bug_as_an_error():
    """Two engines agree, a third's answer failed the check: the model is no agreement,
    but an ``error`` of the summary (the command then exits 3)."""
    from cpsolve.cli import compare_cluster as command
    from cpsolve.workflows.batch.comparing import Bug, Compared

    both = (Result(OPT, "search", answer=Plan.of(plan(10))),
            Result(OPT, "cpsat", answer=Plan.of(plan(10))))
    bug = Bug("fd", "engine bug (the answer failed the independent check): a wrong plan")
    assert command._outcome(Compared("w.toml", None, results=both, bugs=(bug,))) == "error"


def test_an_external_tool_that_fails_is_skipped_and_the_rest_compared(cli, monkeypatch):
    """One engine's tool fails on its own (MiniZinc's error, :class:`EngineFailed`): that
    engine is listed as failed, the others' comparison stands."""
    import cpsolve.workflows.batch.comparing
    from cpsolve.answers.result import EngineFailed, Result

    def run(engine, task, model, options):
        if engine == "cpsat":
            raise EngineFailed("MiniZinc failed: its solver crashed")
        return Result(OPT if engine == "search" else Status.UNKNOWN, engine, task=task,
                      answer=Plan.of(plan(10)) if engine == "search" else None)

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    run_ = cli("compare", "water_jugs", "--json")
    out = json.loads(run_.out)
    model = out["models"][0]
    assert any(r["engine"] == "search" for r in model["results"])
    assert {"engine": "cpsat", "reason": "failed: MiniZinc failed: its solver crashed"} \
        in model["skipped"]


# ------------------------------------------------------------ compare: the puzzle's own argument

SWAPPED = {  # two tiles swapped, the blank at home: one transposition, so an odd permutation
    # with the blank's parity even, which no sequence of moves reaches (each move is one
    # transposition and moves the blank one cell: the two parities change together)
    "3x3": 'start = """\n1 2 3\n4 5 6\n8 7 _\n"""\ngoal = """\n1 2 3\n4 5 6\n7 8 _\n"""\n',
    "2x3": 'start = """\n2 1 3\n4 5 _\n"""\ngoal = """\n1 2 3\n4 5 _\n"""\n',
}


def _swapped(write_model, size: str):
    return write_model(f"swap{size}.toml",
                       f'family = "sliding"\nname = "{size} swap"\n{SWAPPED[size]}')


@pytest.mark.parametrize("size", sorted(SWAPPED))
@pytest.mark.parametrize("task", ["solve", "count"])
def test_a_model_settled_by_the_puzzles_own_argument_is_not_cross_checked(
        cli, monkeypatch, write_model, size, task):
    """The parity proof the model carries answers before any engine runs (the first
    engine's door, :func:`cpsolve.engines.run`, gives it; the others are not asked): one
    answer, compared with none, so the model is not cross-checked (``agree`` null, status
    ``incomplete``), and the text says why instead of "all engines agree"; the model has its
    answer, so the exit is 0."""
    import jsonschema

    import cpsolve.engines
    from cpsolve.output.schema import schema

    ran = _answering(monkeypatch, {})
    real = cpsolve.engines._engine  # where the door starts an engine: never reached
    monkeypatch.setattr(cpsolve.engines, "_engine", lambda module, name, *rest: (
        ran.append(name), real(module, name, *rest))[1])
    model = _swapped(write_model, size)
    run = cli("compare", model, "--task", task, "--json")
    out = json.loads(run.out)
    jsonschema.validate(out, schema())
    assert (run.code, out["status"], out["models"][0]["agree"]) == (0, "incomplete", None)
    (only,) = out["models"][0]["results"]
    assert (only["engine"], only["proof"]) == ("invariant", "parity")
    assert only["status"] == ("infeasible" if task == "solve" else "exact")
    text = cli("compare", model, "--task", task)
    assert text.code == 0, text.err
    words = " ".join(text.out.split())
    assert "not cross-checked: proven by the puzzle's own argument (parity), so no engine " \
        "ran" in words
    assert "all engines agree" not in words and "not every model was cross-checked" in words
    assert ran == []


def test_a_batch_with_a_model_settled_by_its_own_argument_claims_no_agreement(
        cli, monkeypatch, write_model):
    """Several files: the jugs cross-checked by two engines, the swapped 3x3 by none — the
    comparison as a whole is ``incomplete``, not ``agree``."""
    _answering(monkeypatch, {"search": OPT, "cpsat": OPT})
    run = cli("compare", "water_jugs", _swapped(write_model, "3x3"), "--json")
    out = json.loads(run.out)
    assert (run.code, out["status"]) == (0, "incomplete")
    assert [m["agree"] for m in out["models"]] == [True, None]


def test_agreement_needs_two_different_engines(write_model):
    """On a cluster too: the puzzle's own argument alone, or one engine's answer twice, is
    ``unchecked``, and its JSON ``agree`` is null."""
    from cpsolve.answers.result import Result
    from cpsolve.cli import compare_cluster as command
    from cpsolve.cli.compare_report import compared_json
    from cpsolve.engines import run
    from cpsolve.puzzles.files import load
    from cpsolve.workflows.batch.comparing import Compared

    puzzle = load(_swapped(write_model, "2x3"))
    argued = (run("search", "solve", puzzle.model),)
    twice = (Result(INF, "search"), Result(INF, "search"))
    for results in (argued, twice):
        done = Compared("s.toml", puzzle, results=results)
        assert command._outcome(done) == "unchecked"
        assert compared_json(done)["agree"] is None


def test_compare_the_commands_clock_cuts_still_lists_every_model(cli, late_alarm):
    """The command's own clock (past every grace) cuts the comparison as its first model
    starts: the report still comes, every model named in it — the first with its engines
    not run for the time limit, the next one, whose file's turn had not come, not loaded
    for it — never the bare error "... was reached while running compare"."""
    late_alarm("cpsolve.cli.compare.compare_model")
    run = cli("compare", "water_jugs", "blocks", "--time-limit", "5", "--json")
    assert run.code == 1, run.err
    assert "while running" not in run.out + run.err
    out = json.loads(run.out)
    first, second = out["models"]
    assert out["status"] == "unanswered"
    assert first["file"] == "water_jugs"
    assert first["results"] == [] and first["agree"] is None
    reasons = {s["reason"] for s in first["skipped"]
               if not s["reason"].startswith("not applicable")}
    assert reasons == {"not run: time limit 5 s reached"}
    assert second == {"source": "blocks", "error": "not loaded: time limit 5 s reached"}


def test_a_model_whose_engine_overruns_its_share_leaves_the_next_model_its_time(
        cli, monkeypatch):
    """An engine that never stops (an import, a compile that looks at no clock) on the
    first model is cut off a grace past that model's budget, not at the command's limit:
    the next model's engines still run and answer."""
    import time as clock_time

    import cpsolve.workflows.batch.comparing
    from cpsolve.answers.result import Result

    def run(engine, task, model, options):
        if engine == "search" and model.name.startswith("Water"):
            while True:  # the model's end cuts it (TimeUp)
                clock_time.sleep(0.01)
        return Result(OPT, engine, task=task, answer=Plan.of(plan(10)))

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    out = json.loads(cli("compare", "water_jugs", "blocks", "--time-limit", "6", "--json").out)
    first, second = out["models"]
    by = {r["engine"]: r for r in first["results"]}
    assert by["search"]["status"] == "unknown"
    # cut off the command's grace past its model's budget: 60 % of the 0.6 s (10 % of 6 s)
    # a command may run past its limit, in seconds (it said "within the grace")
    assert by["search"]["message"] == \
        "time limit 6 s reached (search did not stop within 0.36 s of the limit; cut off)"
    assert second["results"] and {r["status"] for r in second["results"]} == {"optimal"}


# ------------------------------------------------------------ compare: each file in its turn


LOOP = "while True:\n    pass\n"
"""A Python model that never finishes loading."""

SLEEPING_BUILD = """
import time

def build():
    time.sleep(60)  # Ctrl-C comes meanwhile
"""


def _three(folder, models_dir, middle: str):
    """A directory of blocks, a Python model ``middle`` and water jugs, in that order."""
    folder.mkdir()
    (folder / "a_blocks.toml").write_text((models_dir / "blocks.toml").read_text())
    (folder / "b_loop.py").write_text(middle)
    (folder / "c_jugs.toml").write_text((models_dir / "water_jugs.toml").read_text())
    return folder


def _model_before_a_file_that_never_loads(out: dict, folder) -> None:
    """The comparison of :func:`_three`'s directory whose Python model was still loading at
    the time limit: blocks compared and cross-checked, the loop cut by the limit as it
    loaded (a limit, not bad input), the jugs never loaded."""
    first, second, third = out["models"]
    assert first["file"] == str(folder / "a_blocks.toml") and first["agree"] is True
    assert {r["status"] for r in first["results"]} == {"optimal"}
    assert {r["steps"] for r in first["results"]} == {5}  # DESIGN.md: blocks in 5 moves
    assert second["source"] == str(folder / "b_loop.py")
    assert "reached while loading" in second["error"]
    assert third["source"] == str(folder / "c_jugs.toml")
    assert third["error"].startswith("not loaded: time limit")
    assert out["status"] == "incomplete"


def test_a_file_that_never_loads_costs_the_models_before_it_nothing(cli, tmp_path,
                                                                   models_dir, late_alarm):
    """The command's clock runs out while the Python model between two others loads (the
    clock turned by hand as its loading starts): the model before it was loaded and
    compared first — each file loads when its turn comes — and the report lists all three,
    exit 1 (a limit: no line on stderr calls a file bad)."""
    folder = _three(tmp_path / "three", models_dir, LOOP)
    late_alarm("cpsolve.puzzles.files.load_python")
    # the command's clock is turned by hand; the engines' shares of its limit run on the
    # real one: 60 s, so that on a loaded machine the first model's engines all finish
    run = cli("compare", folder, "--time-limit", "60", "--json")
    assert run.code == 1, run.err
    _model_before_a_file_that_never_loads(json.loads(run.out), folder)
    assert "error:" not in run.err


@pytest.mark.slow
def test_a_file_that_never_loads_is_cut_at_the_time_limit(cli_subprocess, tmp_path,
                                                          models_dir):
    """The same with the real clock and a model whose loading never ends: the command ends
    at its limit (the subprocess's timeout is only a bound against a hang)."""
    folder = _three(tmp_path / "three", models_dir, LOOP)
    run = cli_subprocess("compare", folder, "--time-limit", "10", "--json")
    assert run.code == 1, run.err
    _model_before_a_file_that_never_loads(json.loads(run.out), folder)


def test_ctrl_c_while_compare_loads_a_file_keeps_the_models_before(cli, tmp_path,
                                                                   models_dir, monkeypatch):
    """Ctrl-C while the second file loads ends its loading at once: the model before it was
    compared and stays in the report, the file loading is listed as interrupted and the one
    after it as not loaded, the status ``interrupted``, exit 130."""
    import os
    import signal
    import threading

    import cpsolve.engines.runtime.processes as processes
    from cpsolve.engines.runtime import interrupt

    real_start = processes.start

    def start_then_ctrl_c(*args, **kwargs):  # the Python file loads in a child of this
        child = real_start(*args, **kwargs)  # process: Ctrl-C comes to this one meanwhile
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
        return child

    monkeypatch.setattr(processes, "start", start_then_ctrl_c)
    folder = _three(tmp_path / "three", models_dir, SLEEPING_BUILD)
    try:
        run = cli("compare", folder, "--json")
    finally:
        interrupt.clear()
    assert run.code == 130, run.err
    out = json.loads(run.out)
    first, second, third = out["models"]
    assert first["file"] == str(folder / "a_blocks.toml") and first["agree"] is True
    assert second == {"source": str(folder / "b_loop.py"),
                      "error": f"interrupted while loading {folder / 'b_loop.py'}"}
    assert third == {"source": str(folder / "c_jugs.toml"), "error": "not loaded: interrupted"}
    assert out["status"] == "interrupted"


def test_the_table_says_why_an_engine_was_stopped_or_not_started(cli, monkeypatch):
    """An engine the time limit stopped, or did not start, said only "unknown (stopped
    before a proof)" in the table: the reason was in the JSON alone."""
    import cpsolve.workflows.batch.comparing

    why = "time limit reached before cpsat started (its start would take about 1.6 s " \
        "here, 0.0 s was left)"

    def run(engine, task, model, options):
        if engine == "cpsat":
            return Result.stopped(task, engine, why)
        return Result(OPT, engine, task=task, answer=Plan.of(plan(10)))

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    shown = cli("compare", "water_jugs")
    assert why in shown.out, shown.out


def test_an_engine_cut_off_reports_the_seconds_it_ran(cli, monkeypatch):
    """An engine the clock cut off past its grace (:class:`TimeUp`) was reported as 0.0 s
    after running a minute; its seconds are now those between its start and the cut, here
    on a hand-turned clock that moves 2.5 s at each look."""
    import cpsolve.workflows.batch.comparing as comparing
    from cpsolve.engines.runtime.clock import TimeUp

    def run(engine, task, model, options):
        if engine == "search":
            raise TimeUp("running search", 60.0)
        return Result(OPT, engine, task=task, answer=Plan.of(plan(10)))

    class Hand:
        now = 0.0

        @classmethod
        def perf_counter(cls) -> float:
            cls.now += 2.5
            return cls.now

    monkeypatch.setattr(comparing, "run", run)
    monkeypatch.setattr(comparing, "time", Hand)
    out = json.loads(cli("compare", "water_jugs", "--json").out)
    search = next(r for r in out["models"][0]["results"] if r["engine"] == "search")
    assert search["seconds"] == 2.5
    # a TimeUp raised with no grace (cut at the limit itself) says so
    assert search["message"] == \
        "time limit 60 s reached (search did not stop at the limit; cut off)"


# ------------------------------------------------------------ an engine bug among answers


def test_an_engine_bug_is_its_models_entry_and_the_rest_still_answer(cli, wrong_csp_search):
    """One engine's answer that fails the check (search's on the csp in the middle) is that
    engine's entry in its model's ``bugs``: the other engines of that model and the other
    models keep their results, the report is still one JSON document, and the exit is 3
    (a bug in cpsolve), with the bug told on stderr naming the file."""
    from pathlib import Path

    import jsonschema

    from cpsolve.output.schema import schema

    models = Path(__file__).resolve().parents[2] / "models"
    files = [models / "water_jugs.toml", models / "xsudoku5.toml", models / "blocks.toml"]
    run = cli("compare", *files, "--json")
    assert run.code == 3, run.err
    data = json.loads(run.out)  # one document, of the documented shape
    jsonschema.validate(data, schema())
    assert data["status"] == "incomplete"
    assert [m["file"] for m in data["models"]] == [str(f) for f in files]
    jugs, grid, blocks = data["models"]
    for plans, moves in ((jugs, 10), (blocks, 5)):  # the known answers (DESIGN.md)
        search = [r for r in plans["results"] if r["engine"] == "search"]
        assert search[0]["status"] == "optimal" and search[0]["moves"] == moves
        assert plans["bugs"] == []
    assert [b["engine"] for b in grid["bugs"]] == ["search"]
    assert grid["bugs"][0]["error"].startswith("engine bug (the answer failed the independent "
                                               "check): ")
    engines = [r["engine"] for r in grid["results"]]
    assert "search" not in engines and "cpsat" in engines
    told = [line for line in run.err.splitlines() if "engine bug" in line]
    assert len(told) == 1 and str(files[1]) in told[0] and "search" in told[0]
    text = cli("compare", *files)
    assert text.code == 3 and "ERROR: search: engine bug" in " ".join(text.out.split())


def test_an_engine_bug_in_a_count_comparison_is_exit_3(cli, monkeypatch):
    """``compare --task count``: an engine that answers another task than the one asked
    (search's count giving a solve's result: a bug) is listed in ``bugs``; the other
    engines' counts of the 5x5 X-sudoku's 960 grids (DESIGN.md) stand."""
    from pathlib import Path

    import cpsolve.engines.search.engine as search

    monkeypatch.setattr(search, "count", search.solve)
    model = Path(__file__).resolve().parents[2] / "models" / "xsudoku5.toml"
    run = cli("compare", model, "--task", "count", "--json")
    assert run.code == 3, run.err
    data = json.loads(run.out)
    [compared] = data["models"]
    assert [b["engine"] for b in compared["bugs"]] == ["search"]
    assert "answered 'solve' when asked to count" in compared["bugs"][0]["error"]
    counts = {r["engine"]: r["count"] for r in compared["results"]}
    assert counts["cpsat"] == 960 and "search" not in counts


# ------------------------------------------------------------ a model the engines refuse


def test_a_model_whose_estimate_the_engines_refuse_is_its_own_entry(cli, overestimating):
    """Among several files, a model whose estimate the audit refuses (1000 at x=0, where the
    goal is 6 steps away) is its own ``{"source", "error"}`` entry naming its file, as a
    file that does not load is (exit 1, the error on stderr), and the other models are
    compared (it ended the whole comparison, exit 2); alone, it is bad input: exit 2,
    naming its file, as ``solve`` says it."""
    from pathlib import Path

    import jsonschema

    from cpsolve.output.schema import schema

    jugs = Path(__file__).resolve().parents[2] / "models" / "water_jugs.toml"
    run = cli("compare", jugs, overestimating, "--json")
    assert run.code == 1, run.err
    data = json.loads(run.out)
    jsonschema.validate(data, schema())
    assert data["status"] == "incomplete"
    compared, refused = data["models"]
    assert compared["agree"] is True and compared["file"] == str(jugs)
    assert refused["source"] == str(overestimating)
    assert refused["error"].startswith(f"{overestimating}: the estimate is not admissible")
    assert f"error: {refused['error']}" in run.err.splitlines()
    alone = cli("compare", overestimating)
    assert alone.code == 2
    assert alone.err.startswith(f"error: {overestimating}: the estimate is not admissible")


def test_a_model_stopped_at_the_memory_limit_leaves_the_next_engine_and_model_their_own_run(
        cli, monkeypatch):
    """Each engine run on the first model is stopped at the memory limit (as the memory
    watch asks during a run): that stop was kept for the rest, so its later engines were
    'not run: memory limit ... reached' and every later file 'not loaded: memory limit ...
    reached', the smallest too.  Each run is now stopped only on its own account: every
    engine of both models runs, and the water jugs are 10 moves (DESIGN.md)."""
    import cpsolve.workflows.batch.comparing
    from cpsolve.engines.runtime import interrupt
    from cpsolve.engines.runtime.stop import Stop

    real = cpsolve.workflows.batch.comparing.run

    def run(engine, task, model, options):
        result = real(engine, task, model, options)
        if "Blocks" in model.name:  # the large one
            interrupt.request("memory limit 150 MiB reached", Stop.MEMORY)
        return result

    monkeypatch.setattr(cpsolve.workflows.batch.comparing, "run", run)
    try:
        done = cli("compare", "blocks", "water_jugs", "--json")
    finally:
        interrupt.clear()
    large, small = json.loads(done.out)["models"]
    for compared in (large, small):
        assert not [s for s in compared["skipped"] if s["reason"].startswith("not run")]
        assert len(compared["results"]) >= 2, compared
    assert {r["steps"] for r in small["results"]} == {10}
    assert done.code == 0, done.err
