"""Every command's --help ends with examples and says every option's default (issue 24)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cpsolve.cli.arguments import parser
from cpsolve.cli.examples import EXAMPLES

ELEVEN = Path(__file__).resolve().parents[2] / "examples" / "eleven_puzzle.toml"


def commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize("name", sorted(commands()))
def test_help_ends_with_two_or_three_examples(cli, name):
    run = cli(name, "--help")
    assert run.code == 0
    tail = run.out.rstrip().split("examples:\n")[-1].splitlines()
    assert 2 <= len(tail) <= 3, run.out
    assert all(line.strip().startswith("cpsolve ") for line in tail), tail
    assert [line for line, _ in EXAMPLES[name]] == [t.split("  #")[0].strip() for t in tail]


def test_cpsolve_help_ends_with_a_first_session(cli):
    run = cli("--help")
    assert run.code == 0 and "examples:\n  cpsolve solve water_jugs" in run.out


@pytest.mark.parametrize("name", sorted(commands()))
def test_every_option_says_its_default(name):
    command = commands()[name]
    chosen = {id(a) for g in command._mutually_exclusive_groups if g.required
              for a in g._group_actions}  # one of them must be given: no default
    for action in command._actions:
        if isinstance(action, argparse._HelpAction) or id(action) in chosen:
            continue
        assert action.help, (name, action.dest)  # positionals too (FILE, shell)
        flag = action.nargs == 0
        if action.option_strings and not flag and not action.required:
            assert "default" in action.help.lower(), (name, action.option_strings)


def test_analyze_help_names_its_state_limit(cli):
    run = cli("analyze", "--help")
    assert "5,000,000" in " ".join(run.out.split())


def test_analyze_accepts_limit_none(cli):
    run = cli("analyze", "water_jugs", "--limit", "none")
    assert run.code == 0, run.err


@pytest.mark.parametrize("model, spelled", [
    ("eight_puzzle", ("--limit", "5000000", "--from", "goal", "--algorithm", "numpy")),
    ("english33", ("--limit", "none", "--from", "start")),  # on disk by itself
    (ELEVEN, ("--limit", "none", "--from", "goal", "--algorithm", "bitmap")),  # 12 values
], ids=["in memory", "on disk", "bit map"])
def test_analyze_defaults_spelled_out_change_nothing(cli, model, spelled):
    """The defaults `analyze --help` states (--limit, --from, --algorithm, --work-dir),
    written out, run the same analysis from the same side: one second of each is enough
    to see which — on a machine so loaded that the analysis did not start within it
    ("time limit reached before search started") or was cut before it said which ("search
    did not stop within 0.6 s of the limit; cut off"), the runs are made again with more."""
    for limit in ("1", "10", "60"):
        runs = [cli("analyze", model, *extra, "--time-limit", limit, "--json")
                for extra in ((), spelled)]
        ran = [json.loads(r.out) for r in runs]
        if all("algorithm" in r["details"] for r in ran):
            break
        assert all("time limit" in r["message"] for r in ran
                   if "algorithm" not in r["details"]), [r["message"] for r in ran]
    assert [(r["details"]["algorithm"], r["direction"]) for r in ran] == \
        [(ran[1]["details"]["algorithm"], ran[1]["direction"])] * 2, [r.err for r in runs]


def test_solve_help_states_the_engines_own_defaults():
    """The help is written without importing the engines (it must stay light), so the
    figures it quotes are checked against the engines' constants here."""
    from cpsolve.engines.auto import HEAD_START
    from cpsolve.engines.search.planning.anytime import PROOF_SECONDS

    options = {a.option_strings[0]: " ".join(a.help.split())
               for a in commands()["solve"]._actions if a.option_strings and a.help}
    assert f"search engine's {PROOF_SECONDS:g} s for an optimality proof" \
        in options["--time-limit"]
    assert f"runs alone for {HEAD_START:g} s" in options["--confirm"]


def test_count_help_says_what_the_limit_counts_with_up_to(cli):
    said = " ".join(cli("count", "--help").out.split())
    assert "With --up-to, N counts the solutions the engine enumerates" in said
    path = Path(__file__).resolve().parents[2] / "docs" / "how-to" / "count-up-to-symmetry.md"
    page = " ".join(path.read_text(encoding="utf-8").split())
    assert "N counts the solutions the engine enumerates, never classes" in page


@pytest.mark.parametrize("option", ["--workers", "--scheduler"])
def test_solve_help_says_the_cluster_options_run_batches(cli, option):
    """``solve water_jugs --workers 2`` is refused ("--workers and --scheduler run
    batches"): the help says so, as ``--jobs``'s does, where ``compare``'s (which runs
    one model on a cluster) does not."""
    said = {name: next(" ".join(a.help.split()) for a in commands()[name]._actions
                       if option in a.option_strings) for name in ("solve", "compare")}
    assert said["solve"].startswith("batches: solve on ")
    assert "a single model is no batch and is refused" in said["solve"]
    assert "batch" not in said["compare"]
    refused = cli("solve", "water_jugs", option, "2" if option == "--workers" else
                  "tcp://localhost:8786")
    assert refused.code == 2 and "--workers and --scheduler run batches" in refused.err


@pytest.mark.parametrize("name", ["solve", "compare", "count", "generate", "analyze", "show",
                                  "export", "validate"])
def test_every_model_file_help_says_a_python_model_is_one(cli, name):
    """Every command that reads a model takes a Python model file as well as a TOML one
    (``count examples/queens.py`` counts 92 queens' solutions), and its FILE help says so in
    the same words; one that takes a PDDL pair says so too."""
    action = next(a for a in commands()[name]._actions if a.metavar == "FILE")
    assert "a model file (.toml or .py) or a bundled model's name" in action.help
    assert ("pddl" in action.help.lower()) == (name != "generate")


def test_a_python_model_file_is_counted(cli):
    """The FILE help's ``.py``: 92 placements of 8 non-attacking queens (the classic count)."""
    run = cli("count", Path(__file__).resolve().parents[2] / "examples" / "queens.py",
              "--engine", "search")
    assert run.code == 0 and "exactly 92 solutions" in run.out
